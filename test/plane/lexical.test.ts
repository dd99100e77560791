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

describe('lexical index: version 5 and the namespace language (issues 22, 24)', () => {
  it('is version 5 (h-person2); its snapshot names its language and loads with it; a version-3 snapshot is refused', () => {
    expect(LEXICAL_VERSION).toBe(5);
    const it_ = createLexicalIndex({ language: 'it' });
    it_.add({ id: 'a', text: 'Insegno storia in un liceo.' });
    const snap = it_.toJSON() as { version: number; language: unknown };
    expect([snap.version, snap.language]).toEqual([5, 'it']);
    const back = loadLexicalIndex(JSON.stringify(snap));
    expect(back.language).toBe('it');
    expect(back.search('Cosa insegna Marco?', 5).map((h) => h.id)).toEqual(['a']);
    expect((createLexicalIndex().toJSON() as { language: unknown }).language).toBeNull();
    expect(() => loadLexicalIndex({ ...snap, version: 3 })).toThrow(expect.objectContaining({ code: 'SCHEMA_MISMATCH' }));
  });

  it('reads a short indexed text in the index language; without one the same text is English and the question misses', () => {
    // "Insegno storia in un liceo." has no stop word English or Italian enough for the identifier:
    // English terms insegno, storia, un, liceo; in Italian also the stems insegn, stor, lice.
    const plain = createLexicalIndex();
    const italian = createLexicalIndex({ language: 'it' });
    for (const index of [plain, italian]) {
      index.add({ id: 'teach', text: 'Insegno storia in un liceo.' });
      index.add({ id: 'live', text: 'Abito a Torino vicino al fiume.' });
    }
    expect(plain.search('Cosa insegna Marco?', 5, 'it')).toEqual([]);
    expect(italian.search('Cosa insegna Marco?', 5).map((h) => h.id)).toEqual(['teach']);
  });

  it('English text keeps its terms: English keyword text under no language or "en", and English sentences under any', () => {
    const none = createLexicalIndex();
    const en = createLexicalIndex({ language: 'en' });
    const de = createLexicalIndex({ language: 'de' });
    for (const t of ['dog training tips', 'hat size chart', 'Bin day schedule', 'van rental prices']) {
      none.add({ id: t, text: t });
      en.add({ id: t, text: t });
    }
    expect(JSON.stringify((en.toJSON() as { minisearch: unknown }).minisearch)).toBe(JSON.stringify((none.toJSON() as { minisearch: unknown }).minisearch));
    // A sentence with English stop words stays English in a German namespace (same terms as without a language).
    const sentence = 'I went to the dog training class with Biscuit yesterday.';
    none.add({ id: 's', text: sentence });
    de.add({ id: 's', text: sentence });
    expect(de.search('dog training', 5).map((h) => h.id)).toEqual(['s']);
    expect(de.search('dog training', 5)[0]!.score).toBeCloseTo(createLexicalIndexWith(sentence).search('dog training', 5)[0]!.score, 10);
    // Short ambiguous keyword text in a German namespace is read as German, at write and query alike: it still matches.
    de.add({ id: 'hat', text: 'hat size chart' });
    expect(de.search('size chart', 5).map((h) => h.id)).toEqual(['hat']);
  });
});

function createLexicalIndexWith(text: string) {
  const index = createLexicalIndex();
  index.add({ id: 's', text });
  return index;
}
