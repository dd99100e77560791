import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMETERS, resolveParameters } from '../../src/config.js';
import type { NamespaceState } from '../../src/plane/resident/namespace.js';
import type { Scored } from '../../src/read/assess.js';
import { asksAggregate, coverageFactor, sessionCoverage } from '../../src/read/coverage.js';
import { finalRanking } from '../../src/read/recalled.js';
import type { QueryContext } from '../../src/read/signals.js';
import type { MemoryNode } from '../../src/types.js';

describe('asksAggregate (issue 24: questions whose evidence is several turns)', () => {
  it('reads counts, sums, lists and plural asks', () => {
    for (const q of [
      'How many musical instruments am I learning to play?',
      'Which countries have I travelled to this year?',
      'What online courses have I enrolled in?',
      'How much did I spend in total on the shoes and the bag?',
      'What did I pay altogether for the plumber and the electrician?',
      'What activities does Melanie partake in?',
      'Which novels have I finished so far?',
      'List the books I mentioned.',
    ]) {
      expect([q, asksAggregate(q)]).toEqual([q, true]);
    }
  });

  it('reads a definite plural topic ("about the …", "remind me of the …") and "who has / have …" (round eleven)', () => {
    for (const q of [
      'What did I tell you about the plants on my balcony?',
      'Can you remind me of the trips we booked?',
      'Tell me of the gifts I bought for my nieces.',
      'What have I said regarding my allergies?',
      'Who has come to visit us since we moved?',
      'Who have I lent money to?',
    ]) {
      expect([q, asksAggregate(q)]).toEqual([q, true]);
    }
    // a singular topic, a plural without a topic word before it, a present-tense "who", a verb's object
    for (const q of ['What did I tell you about my new job?', 'What should I cook for my parents this weekend?', 'Who is coming to dinner on Friday?', 'Which happened first, planting the tomato seedlings or the interview?', 'What did the vet say about my dog?']) {
      expect([q, asksAggregate(q)]).toEqual([q, false]);
    }
  });

  it('does not read single-fact questions, possessives or other languages', () => {
    for (const q of ['What is my sister\'s job?', 'Where do I live?', 'When did Caroline go to the LGBTQ support group?', 'What does he do?', 'Who is my manager?', '¿Cuántos instrumentos toco?', '']) {
      expect([q, asksAggregate(q)]).toEqual([q, false]);
    }
  });
});

describe('coverageFactor', () => {
  it('is 1 − g·(1 − δ): 1 when g = 0 or δ = 1', () => {
    expect(coverageFactor(0, 0.5)).toBe(1);
    expect(coverageFactor(1, 1)).toBe(1);
    expect(coverageFactor(1, 0.5)).toBe(0.5);
    expect(coverageFactor(0.5, 0.5)).toBe(0.75);
    expect(coverageFactor(0.3, 0)).toBeCloseTo(0.7, 12);
  });
});

describe('sessionCoverage (greedy per-session re-ranking)', () => {
  // A, B, C in session s1; D in s2; E without a session; F in s3
  const items = [
    { session: 's1', score: 1 },
    { session: 's1', score: 0.9 },
    { session: 's1', score: 0.8 },
    { session: 's2', score: 0.6 },
    { session: undefined, score: 0.55 },
    { session: 's3', score: 0.4 },
  ];

  it('f = 0.5: A 1; D 0.6 (B is 0.45 now); E 0.55; B 0.45; F 0.4; C 0.8·0.25 = 0.2', () => {
    expect(sessionCoverage(items, 0.5)).toEqual([1, 0.45, 0.2, 0.6, 0.55, 0.4]);
  });

  it('f = 1 returns the scores unchanged; f = 0 puts every repeat of a session last, ties kept in input order', () => {
    expect(sessionCoverage(items, 1)).toEqual([1, 0.9, 0.8, 0.6, 0.55, 0.4]);
    expect(sessionCoverage(items, 0)).toEqual([1, 0, 0, 0.6, 0.55, 0.4]);
    expect(sessionCoverage([], 0.5)).toEqual([]);
  });

  it('memories without a session are never penalised', () => {
    expect(sessionCoverage([{ session: undefined, score: 0.5 }, { session: undefined, score: 0.4 }], 0)).toEqual([0.5, 0.4]);
  });
});

describe('sessionRepeatFactor (parameter)', () => {
  it('defaults to 0.5 and must be a probability', () => {
    expect(DEFAULT_PARAMETERS.sessionRepeatFactor).toBe(0.5);
    expect(() => resolveParameters({ sessionRepeatFactor: 1.5 })).toThrow(/sessionRepeatFactor/);
    expect(() => resolveParameters({ sessionRepeatFactor: -0.1 })).toThrow(/sessionRepeatFactor/);
  });
});

function node(id: string, seq: number, sessionId: string, speaker: string, text: string): MemoryNode {
  return { id, text, seq, observedAt: '2024-01-01T00:00:00Z', provenance: { speaker, sessionId }, status: 'active', types: {}, timeRefs: [], entities: [], keywords: [], supersededBy: [], duplicates: [] } as unknown as MemoryNode;
}

describe('finalRanking with the coverage step', () => {
  // Four short user turns: A, B, C in session s1 (recall scores 0.9, 0.8, 0.7), D in s2 (0.6).
  // No lexical hits, equal cosines and none of the question's words: the guard's G is the same for
  // all (1 after its normalisation), so s' = (1 − g)·s + g.
  const cands = [node('A', 1, 's1', 'user', 'aaa'), node('B', 2, 's1', 'user', 'bbb'), node('C', 3, 's1', 'user', 'ccc'), node('D', 4, 's2', 'user', 'ddd')];
  const scores = [0.9, 0.8, 0.7, 0.6];
  const scored = new Map<string, Scored>(cands.map((n, i) => [n.id, { node: n, score: scores[i] as number, parts: { z: 0.5 } as Scored['parts'], relevance: 0, hops: 0 }]));
  const state = { size: 4, keywordDf: new Map(), nodes: new Map(), loadNodes: async () => undefined } as unknown as NamespaceState;
  const q = { lexical: new Map() } as unknown as QueryContext;
  const long = node('L', 9, 's9', 'assistant', Array.from({ length: 120 }, (_, i) => `w${i}`).join(' '));
  const short = node('S', 8, 's8', 'Ana', 'hello');
  const rank = async (query: string, anchorNodes: MemoryNode[], delta: number | undefined): Promise<{ ids: string[]; coverage: number; scores: number[] }> => {
    const input = { query, scored, anchorNodes, q, r: 0, windowed: false, passes: () => true, k: 10, ...(delta !== undefined ? { sessionRepeatFactor: delta } : {}) };
    const out = await finalRanking(state, input);
    return { ids: out.memories.map((m) => m.id), coverage: out.coverage, scores: out.memories.map((m) => m.score) };
  };

  it('g = 0.5 (one long turn of four anchors: 2 × 1/4), δ = 0.5: f = 0.75 and D moves above B and C', async () => {
    // s' = 0.95, 0.9, 0.85, 0.8; A 0.95; D 0.8 > B 0.9·0.75 = 0.675; B 0.675; C 0.85·0.5625 = 0.478125
    const r = await rank('Which countries have I visited?', [long, short, short, short], 0.5);
    expect(r.ids).toEqual(['A', 'D', 'B', 'C']);
    expect(r.coverage).toBe(0.75);
    r.scores.forEach((s, i) => expect(s).toBeCloseTo([0.95, 0.8, 0.675, 0.478125][i] as number, 12));
  });

  it('keeps the order for a single-fact question, for δ = 1 or absent, and when g = 0 (named short turns)', async () => {
    expect(await rank('Where do I live?', [long, short, short, short], 0.5)).toMatchObject({ ids: ['A', 'B', 'C', 'D'], coverage: 1 });
    expect(await rank('Which countries have I visited?', [long, short, short, short], 1)).toMatchObject({ ids: ['A', 'B', 'C', 'D'], coverage: 1 });
    expect(await rank('Which countries have I visited?', [long, short, short, short], undefined)).toMatchObject({ ids: ['A', 'B', 'C', 'D'], coverage: 1 });
    expect(await rank('Which countries have I visited?', [short, short], 0.5)).toMatchObject({ ids: ['A', 'B', 'C', 'D'], coverage: 1, scores: [0.9, 0.8, 0.7, 0.6] });
  });
});
