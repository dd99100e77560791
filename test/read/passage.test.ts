import { describe, expect, it } from 'vitest';
import { passageQuery, passageScore, PASSAGE_WINDOW, splitSentences } from '../../src/read/passage.js';
import { namespaceIdf } from '../../src/read/signals.js';

describe('splitSentences (issue 24 passages)', () => {
  it('splits after . ! ? … and at line breaks, dropping empty pieces', () => {
    expect(splitSentences('One. Two!\n- three? four')).toEqual(['One.', 'Two!', '- three?', 'four']);
    expect(splitSentences('Wait… then go.\n\n')).toEqual(['Wait…', 'then go.']);
    expect(splitSentences('no break at all')).toEqual(['no break at all']);
    expect(splitSentences('  ')).toEqual([]);
  });
});

describe('passageQuery', () => {
  it('keeps the distinct content stems of the query, weighted by the given function', () => {
    const q = passageQuery('Where does Biscuit walk in the park, the park?', (t) => (t === 'biscuit' ? 3 : 1));
    expect(q.terms).toEqual(['biscuit', 'walk', 'park']);
    expect(q.weights).toEqual([3, 1, 1]);
  });
});

describe('passageScore: weighted share of the query terms in the best window of sentences', () => {
  // s0 {} · s1 {biscuit} · s2 {walk, park} · s3 {biscuit, park}; weights biscuit 3, walk 1, park 1 (sum 5)
  const text = 'I like green tea. My dog is called Biscuit. We walk in the park every morning. Biscuit loves the park.';
  const q = { terms: ['biscuit', 'walk', 'park'], weights: [3, 1, 1] };

  it('window of 2 (the default): windows score 3/5, 5/5, 5/5; the earliest best wins', () => {
    expect(PASSAGE_WINDOW).toBe(2);
    expect(passageScore(q, text)).toEqual({ score: 1, start: 1, sentences: 4 });
  });

  it('window of 1: sentences score 0, 3/5, 2/5, 4/5', () => {
    const m = passageScore(q, text, 1);
    expect(m.score).toBeCloseTo(0.8, 12);
    expect(m.start).toBe(3);
  });

  it('a text of fewer sentences than the window is one window (the whole text)', () => {
    expect(passageScore(q, 'Biscuit went for a walk.', 3).score).toBeCloseTo(4 / 5, 12);
  });

  it('does not grow with repetition: an answer that repeats two query words in every sentence scores its best window only', () => {
    const once = 'Walk in the park. Walk in the park.';
    const often = Array.from({ length: 30 }, () => 'Walk in the park.').join(' ');
    expect(passageScore(q, once).score).toBeCloseTo(2 / 5, 12);
    expect(passageScore(q, often).score).toBeCloseTo(2 / 5, 12);
  });

  it('is 0 when the query has no weighted term or the text is empty, and refuses a bad window', () => {
    expect(passageScore({ terms: [], weights: [] }, text).score).toBe(0);
    expect(passageScore(q, '').score).toBe(0);
    expect(() => passageScore(q, text, 0)).toThrow(RangeError);
    expect(() => passageScore(q, text, 1.5)).toThrow(/window must be a positive integer/);
  });
});

describe('namespaceIdf (the passage weights recall uses)', () => {
  it('is the BM25 IDF ln(1 + (N − df + 0.5)/(df + 0.5)) of a stem over the namespace', () => {
    const idf = namespaceIdf({ size: 10, keywordDf: new Map([['park', 2]]) });
    expect(idf('park')).toBeCloseTo(Math.log(1 + 8.5 / 2.5), 12); // ln 4.4
    expect(idf('unseen')).toBeCloseTo(Math.log(1 + 10.5 / 0.5), 12); // df 0: ln 22
  });
});
