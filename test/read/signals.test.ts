import { describe, expect, it } from 'vitest';
import type { NamespaceState } from '../../src/plane/namespace.js';
import { queryNames, sessionLexicalScores } from '../../src/read/signals.js';

describe('queryNames', () => {
  it('keeps capitalised non-initial words and drops speakers, "I" and sentence starts', () => {
    expect([...queryNames('What did Caroline buy in Paris when I was in Rome?', new Set(['caroline']))].sort()).toEqual(['paris', 'rome']);
  });

  it('drops a speaker named by first name only when the canonical name is the full name', () => {
    expect([...queryNames('When did Melanie visit Yellowstone?', new Set(['melanie smith']))]).toEqual(['yellowstone']);
  });

  it('is empty for a query with no names', () => {
    expect(queryNames('how many kids do they have?', new Set()).size).toBe(0);
  });
});

describe('sessionLexicalScores', () => {
  it('keeps the best normalised lexical score per session and skips nodes without a session', () => {
    const nodes = new Map([
      ['a', { provenance: { sessionId: 's1' } }],
      ['b', { provenance: { sessionId: 's1' } }],
      ['c', { provenance: { sessionId: 's2' } }],
      ['d', { provenance: {} }],
    ]);
    const state = { nodes } as unknown as NamespaceState;
    const hits = new Map([
      ['a', { score: 0.4 }],
      ['b', { score: 0.9 }],
      ['c', { score: 0.2 }],
      ['d', { score: 1 }],
    ]);
    expect(Object.fromEntries(sessionLexicalScores(hits, state))).toEqual({ s1: 0.9, s2: 0.2 });
  });
});
