import { describe, expect, it } from 'vitest';
import type { NamespaceState } from '../../src/plane/resident/namespace.js';
import { nodeTextFacts, nodeWords, queryNames, sessionLexicalScores, SoftQuery, softQuery } from '../../src/read/signals.js';
import type { MemoryNode } from '../../src/types.js';

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
    // Sessions come from the directory (sessionOf), not from node bodies.
    const sessions = new Map<string, string | undefined>([
      ['a', 's1'],
      ['b', 's1'],
      ['c', 's2'],
      ['d', undefined],
    ]);
    const state = { sessionOf: (id: string) => sessions.get(id) } as unknown as NamespaceState;
    const hits = new Map([
      ['a', { score: 0.4 }],
      ['b', { score: 0.9 }],
      ['c', { score: 0.2 }],
      ['d', { score: 1 }],
    ]);
    expect(Object.fromEntries(sessionLexicalScores(hits, state))).toEqual({ s1: 0.9, s2: 0.2 });
  });
});

/** Hand-made 2-d word vectors (unit length). */
const VECTORS: Record<string, number[]> = { hobby: [1, 0], job: [0, 1], painting: [0.6, 0.8], anti: [-1, 0] };
const lookup = (words: string[]): Array<Float32Array | undefined> => words.map((w) => (VECTORS[w] ? Float32Array.from(VECTORS[w]) : undefined));

describe('SoftQuery.overlap', () => {
  it('weights the best cosine of each query word: (1·0.6 + 3·0.8) / 4 = 0.75', () => {
    expect(new SoftQuery(['hobby', 'job'], [1, 3], lookup).overlap(['She loves painting'])).toBeCloseTo(0.75, 6);
  });

  it('counts a shared stem as 1 without a vector (hobbies ~ hobby) and 0 for the unmatched word', () => {
    expect(new SoftQuery(['hobby', 'job'], [1, 3], lookup).overlap(['my hobbies'])).toBeCloseTo(0.25, 6);
  });

  it('clamps a negative cosine at 0', () => {
    expect(new SoftQuery(['hobby'], [1], lookup).overlap(['anti'])).toBe(0);
  });

  it('takes the best match over all texts of the window', () => {
    expect(new SoftQuery(['hobby', 'job'], [1, 3], lookup).overlap(['my hobby', 'painting'])).toBeCloseTo((1 + 3 * 0.8) / 4, 6);
  });
});

describe('softQuery', () => {
  const state = { size: 10, keywordDf: new Map([['hobbi', 1]]), memoStem: (w: string, compute: (w: string) => string | false) => compute(w) } as unknown as NamespaceState;

  it('weights query content words by BM25 IDF over the keyword document frequencies', () => {
    const gHobby = Math.log(1 + 9.5 / 1.5);
    const gJob = Math.log(1 + 10.5 / 0.5);
    const sq = softQuery('What is her hobby and her job?', state, lookup);
    expect(sq?.size).toBe(2);
    expect(sq?.overlap(['painting'])).toBeCloseTo((gHobby * 0.6 + gJob * 0.8) / (gHobby + gJob), 6);
  });

  it('is undefined without word vectors or without content words', () => {
    expect(softQuery('What is her hobby?', state, undefined)).toBeUndefined();
    expect(softQuery('what is it?', state, lookup)).toBeUndefined();
  });
});

describe('per-node text facts and the soft overlap of nodes', () => {
  const node = (id: string, text: string, speaker?: string): MemoryNode => ({ id, text, provenance: speaker === undefined ? {} : { speaker } }) as unknown as MemoryNode;

  it('reads a node once: the same facts object, its terms, words (speaker first) and token count', () => {
    const n = node('a', 'My hobby is painting, painting birds.', 'Maya');
    const facts = nodeTextFacts(n);
    expect(nodeTextFacts(n)).toBe(facts);
    expect(nodeTextFacts(node('a', n.text, 'Maya'))).not.toBe(facts); // a replaced node is read afresh
    expect([...facts.terms]).toEqual(['maya', 'hobbi', 'paint', 'bird']);
    expect(facts.words).toEqual(['maya', 'my', 'hobby', 'is', 'painting', 'birds']);
    expect(nodeWords(n)).toBe(facts.words);
    expect(facts.wordSet.has('birds')).toBe(true);
    expect(facts.tokens).toBe(6); // "My hobby is painting painting birds": the speaker is not counted
  });

  it('overlapNodes equals overlapWords of the nodes’ words, also when a node is read again in another window', () => {
    const a = node('a', 'my hobby');
    const b = node('b', 'painting');
    const c = node('c', 'the the');
    const sq = new SoftQuery(['hobby', 'job'], [1, 3], lookup);
    const fresh = new SoftQuery(['hobby', 'job'], [1, 3], lookup);
    expect(sq.overlapNodes([a, b])).toBe(fresh.overlapWords([nodeWords(a), nodeWords(b)]));
    expect(sq.overlapNodes([a, b])).toBeCloseTo((1 + 3 * 0.8) / 4, 6);
    expect(sq.overlapNodes([b])).toBeCloseTo((0.6 + 3 * 0.8) / 4, 6);
    expect(sq.overlapNodes([c, a])).toBe(0.25); // a stop-word-only node adds nothing
    expect(sq.overlapNodes([])).toBe(0);
  });

  it('reads a node’s word vectors from the lookup it is asked with, not one an earlier query used (issue 25: kept with the node per lookup)', () => {
    const b = node('b', 'painting');
    // another encoder's vectors (the query's as before, "painting" at (0.8, 0.6)): (1·0.8 + 3·0.6) / 4
    const other = (words: string[]): Array<Float32Array | undefined> => words.map((w) => (w === 'painting' ? Float32Array.from([0.8, 0.6]) : lookup([w])[0]));
    expect(new SoftQuery(['hobby', 'job'], [1, 3], other).overlapNodes([b])).toBeCloseTo((0.8 + 3 * 0.6) / 4, 6);
    // the same node object with the first encoder again: (1·0.6 + 3·0.8) / 4, not the vectors kept for `other`
    expect(new SoftQuery(['hobby', 'job'], [1, 3], lookup).overlapNodes([b])).toBeCloseTo((0.6 + 3 * 0.8) / 4, 6);
    expect(new SoftQuery(['hobby', 'job'], [1, 3], other).overlapNodes([b])).toBeCloseTo((0.8 + 3 * 0.6) / 4, 6);
    // another stemmer (a namespace's memo) over the same node: "painting" as a stop word
    const stopPainting = (w: string): string | false => (w === 'painting' ? false : w);
    expect(new SoftQuery(['hobby', 'job'], [1, 3], lookup, stopPainting).overlapNodes([b])).toBe(0);
    expect(new SoftQuery(['hobby', 'job'], [1, 3], lookup).overlapNodes([b])).toBeCloseTo((0.6 + 3 * 0.8) / 4, 6);
  });
});
