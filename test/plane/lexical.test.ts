import { describe, expect, it } from 'vitest';
import { LEXICAL_VERSION, createLexicalIndex, loadLexicalIndex } from '../../src/plane/indexes/lexical.js';

describe('lexical index', () => {
  it('scores one matching term with BM25+ (k=1.2, b=0.7, d=0.5)', () => {
    const index = createLexicalIndex();
    index.add({ id: 'd1', text: 'paintings sunset canvas' }); // 3 unique tokens
    index.add({ id: 'd2', text: 'sunset beach' }); // 2 unique tokens
    const [hit, ...rest] = index.search('painting', 10);
    // idf = ln(1 + (N − n + 0.5)/(n + 0.5)), N = 2, n = 1; avg length 2.5, tf = 1, length 3
    const idf = Math.log(1 + (2 - 1 + 0.5) / (1 + 0.5));
    const expected = idf * (0.5 + (1 * 2.2) / (1 + 1.2 * (1 - 0.7 + (0.7 * 3) / 2.5)));
    expect(hit?.id).toBe('d1');
    expect(hit?.score).toBeCloseTo(expected, 10);
    expect(rest).toEqual([]);
  });

  it('question words do not match: only content terms count', () => {
    const index = createLexicalIndex();
    index.add({ id: 'questions', text: 'When did you arrive? When did it start?' });
    index.add({ id: 'answer', text: 'Melanie paints sunsets' });
    expect(index.search('When did Melanie paint?', 10).map((h) => h.id)).toEqual(['answer']);
  });

  it('a query of stop words only returns nothing', () => {
    const index = createLexicalIndex();
    index.add({ id: 'a', text: 'when did you do that' });
    expect(index.search('When did', 10)).toEqual([]);
  });

  it('matches stems, but not prefixes or misspellings', () => {
    const index = createLexicalIndex();
    index.add({ id: 'painter', text: 'a painter' });
    index.add({ id: 'painted', text: 'she painted' });
    expect(index.search('paint', 10).map((h) => h.id)).toEqual(['painted']);
    expect(index.search('pant', 10)).toEqual([]);
  });

  it('indexes the speaker', () => {
    const index = createLexicalIndex();
    index.add({ id: 'a', text: 'I love hiking', speaker: 'Caroline' });
    index.add({ id: 'b', text: 'I love hiking', speaker: 'Melanie' });
    expect(index.search('Caroline hiking', 10).map((h) => h.id)).toEqual(['a', 'b']);
  });

  it('returns the best k, best first', () => {
    const index = createLexicalIndex();
    index.add({ id: 'one', text: 'guitar' });
    index.add({ id: 'two', text: 'guitar lessons' });
    index.add({ id: 'three', text: 'guitar lessons weekly' });
    const hits = index.search('guitar lessons weekly', 2);
    expect(hits.map((h) => h.id)).toEqual(['three', 'two']);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('remove hides a document and has/size follow', () => {
    const index = createLexicalIndex();
    index.add({ id: 'a', text: 'kayak trip' });
    index.add({ id: 'b', text: 'kayak rental' });
    index.remove('a');
    index.remove('missing');
    expect(index.search('kayak', 10).map((h) => h.id)).toEqual(['b']);
    expect([index.has('a'), index.has('b'), index.size]).toEqual([false, true, 1]);
  });

  it('adding an existing id replaces its text', () => {
    const index = createLexicalIndex();
    index.add({ id: 'a', text: 'old hobby pottery' });
    index.add({ id: 'a', text: 'new hobby archery' });
    expect(index.search('pottery', 10)).toEqual([]);
    expect(index.search('archery', 10).map((h) => h.id)).toEqual(['a']);
    expect(index.size).toBe(1);
  });

  it('a snapshot reloads into an index that answers the same', () => {
    const index = createLexicalIndex();
    index.add({ id: 'a', text: 'adoption agency meeting', speaker: 'Caroline' });
    index.add({ id: 'b', text: 'camping with the kids', speaker: 'Melanie' });
    index.remove('b');
    index.add({ id: 'c', text: 'adopted a puppy' });
    const text = JSON.stringify(index.toJSON());
    const reloaded = loadLexicalIndex(text);
    expect(reloaded.search('adoption Caroline', 10)).toEqual(index.search('adoption Caroline', 10));
    expect(reloaded.size).toBe(2);
  });

  it('refuses a snapshot of another version with SCHEMA_MISMATCH', () => {
    const snap = { ...(createLexicalIndex().toJSON() as object), version: LEXICAL_VERSION + 1 };
    expect(() => loadLexicalIndex(snap)).toThrow(expect.objectContaining({ code: 'SCHEMA_MISMATCH' }));
  });

  it('refuses text that is not JSON with INVALID_INPUT', () => {
    expect(() => loadLexicalIndex('{oops')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'json' }));
  });

  it('an empty query or k = 0 returns nothing; a negative k is INVALID_INPUT', () => {
    const index = createLexicalIndex();
    index.add({ id: 'a', text: 'kayak' });
    expect(index.search('   ', 10)).toEqual([]);
    expect(index.search('kayak', 0)).toEqual([]);
    expect(() => index.search('kayak', -1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'k' }));
  });
});
