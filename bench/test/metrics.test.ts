import { describe, expect, it } from 'vitest';
import { aggregate, hitAtK, meanScore, percentile, recallAtK, scoreQuestion, summarize, topKIds, writeFigures } from '../lib/metrics.js';

describe('recallAtK', () => {
  it('is the share of gold ids in the top K', () => {
    // top-2 = {a, b}; gold {b, d, x}: 1 of 3 found
    expect(recallAtK(['a', 'b', 'c', 'd'], ['b', 'd', 'x'], 2)).toBeCloseTo(1 / 3, 12);
    // top-4 = {a, b, c, d}: 2 of 3 found
    expect(recallAtK(['a', 'b', 'c', 'd'], ['b', 'd', 'x'], 4)).toBeCloseTo(2 / 3, 12);
  });

  it('counts a repeated gold id once', () => {
    expect(recallAtK(['a', 'b'], ['a', 'a', 'c'], 1)).toBe(0.5);
  });

  it('lets one merged item cover every turn id it carries', () => {
    // the first item stands for turns b and z; K = 1 covers b only of gold {b, c}
    expect(recallAtK([['b', 'z'], 'c'], ['b', 'c'], 1)).toBe(0.5);
    expect(topKIds([['b', 'z'], 'c'], 1)).toEqual(new Set(['b', 'z']));
  });

  it('uses the whole ranking when it is shorter than K', () => {
    expect(recallAtK(['a'], ['a', 'b'], 20)).toBe(0.5);
  });

  it('refuses a question without evidence', () => {
    expect(() => recallAtK(['a'], [], 5)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', details: expect.objectContaining({ field: 'gold' }) }));
  });

  it('refuses K that is not a positive integer', () => {
    expect(() => recallAtK(['a'], ['a'], 0)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => recallAtK(['a'], ['a'], 2.5)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('hitAtK', () => {
  it('is 1 only when every gold id is in the top K', () => {
    expect(hitAtK(['a', 'b', 'c'], ['a', 'c'], 3)).toBe(1);
    expect(hitAtK(['a', 'b', 'c'], ['a', 'c'], 2)).toBe(0);
  });
});

describe('scoreQuestion', () => {
  it('scores at K = 5, 10 and 20', () => {
    const ranked = Array.from({ length: 20 }, (_, i) => `t${i + 1}`); // t1..t20
    // gold t3 (rank 3), t8 (rank 8), t15 (rank 15), t99 (absent)
    const s = scoreQuestion(ranked, ['t3', 't8', 't15', 't99'], 2);
    expect(s).toEqual({ category: 2, recall: { 5: 0.25, 10: 0.5, 20: 0.75 }, hit: { 5: 0, 10: 0, 20: 0 } });
  });
});

describe('aggregate', () => {
  const q = (category: number, r10: number, h10: number) => ({ category, recall: { 5: r10 / 2, 10: r10, 20: 1 }, hit: { 5: 0, 10: h10, 20: 1 } });

  it('averages per category and leaves category 5 out of the overall figure', () => {
    const a = aggregate([q(1, 0.5, 0), q(1, 1, 1), q(2, 0, 0), q(5, 1, 1)]);
    expect(a.byCategory['1']).toEqual({ n: 2, recall: { 5: 0.375, 10: 0.75, 20: 1 }, hit: { 5: 0, 10: 0.5, 20: 1 } });
    expect(a.byCategory['5']?.n).toBe(1);
    // overall over the three questions of categories 1-2: (0.5 + 1 + 0) / 3
    expect(a.overall.n).toBe(3);
    expect(a.overall.recall[10]).toBeCloseTo(0.5, 12);
    expect(a.overall.hit[10]).toBeCloseTo(1 / 3, 12);
  });

  it('reports zeros for an empty group', () => {
    expect(meanScore([])).toEqual({ n: 0, recall: { 5: 0, 10: 0, 20: 0 }, hit: { 5: 0, 10: 0, 20: 0 } });
  });
});

describe('percentile', () => {
  it('interpolates linearly between closest ranks', () => {
    // sorted [1,2,3,4]; p50: h = 1.5 → 2.5; p95: h = 2.85 → 3 + 0.85·1 = 3.85
    expect(percentile([4, 1, 3, 2], 50)).toBe(2.5);
    expect(percentile([4, 1, 3, 2], 95)).toBeCloseTo(3.85, 12);
  });

  it('gives the minimum at 0 and the maximum at 100', () => {
    expect(percentile([5, 9, 7], 0)).toBe(5);
    expect(percentile([5, 9, 7], 100)).toBe(9);
  });

  it('returns the only value of a single sample and NaN for none', () => {
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBeNaN();
  });

  it('refuses p outside [0, 100]', () => {
    expect(() => percentile([1], 101)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('summarize', () => {
  it('gives n, mean, p50, p95 and max', () => {
    // sorted [10, 20, 30, 40, 100]: mean 40; p50 = 30; p95: h = 3.8 → 40 + 0.8·60 = 88
    const s = summarize([30, 10, 100, 20, 40]);
    expect(s.n).toBe(5);
    expect(s.mean).toBe(40);
    expect(s.p50).toBe(30);
    expect(s.p95).toBeCloseTo(88, 12);
    expect(s.max).toBe(100);
  });
});

describe('writeFigures', () => {
  it('turns 500 writes in 2 s with 515 System-One calls over 300 ms into per-write rates', () => {
    const w = writeFigures(500, 2000, { calls: 515, ms: 300 }, 4000);
    expect(w).toEqual({ measured: 500, ms: 2000, perSecond: 250, systemOneCallsPerWrite: 1.03, systemOneMsPerWrite: 0.6, segmentMs: 4000 });
  });

  it('gives rates of 0 when nothing was measured', () => {
    expect(writeFigures(0, 0, { calls: 0, ms: 0 }, 0)).toMatchObject({ perSecond: 0, systemOneCallsPerWrite: 0, systemOneMsPerWrite: 0 });
  });
});
