/**
 * The boosted-tree candidate of the state-update trainer (bench/training/state-gbm-fit.ts):
 * scoring a hand-written tree, and a fit that must find the one informative feature.
 */
import { describe, expect, it } from 'vitest';
import { fitGbm, gbmProbability, gbmScore, type GbmModel } from '../../bench/training/state-gbm-fit.js';

describe('gbmScore', () => {
  it('adds the base and the leaf each tree routes the row to', () => {
    const m: GbmModel = {
      features: ['a', 'b'],
      base: -1,
      trees: [
        { feature: 0, threshold: 0.5, left: { leaf: -0.25 }, right: { leaf: 2 } },
        { feature: 1, threshold: 3, left: { feature: 0, threshold: 0.1, left: { leaf: 0.5 }, right: { leaf: 1 } }, right: { leaf: -3 } },
      ],
    };
    // x = (0.7, 2): tree 1 → right (2); tree 2 → left (2 ≤ 3) → right (0.7 > 0.1) → 1. z = −1 + 2 + 1 = 2.
    expect(gbmScore(m, [0.7, 2])).toBe(2);
    // x = (0.5, 4): tree 1 → left (0.5 ≤ 0.5) → −0.25; tree 2 → right → −3. z = −4.25.
    expect(gbmScore(m, [0.5, 4])).toBe(-4.25);
    expect(gbmProbability(m, [0.7, 2])).toBeCloseTo(1 / (1 + Math.exp(-2)), 12);
  });
});

describe('fitGbm', () => {
  it('splits on the informative feature and separates the classes', () => {
    // Label 1 exactly when feature 1 > 0.6; feature 0 is noise (a fixed pattern, no randomness).
    // 50 bins over 50 distinct values: every value is a candidate cut, so 0.6 itself is one.
    const rows = Array.from({ length: 200 }, (_, i) => [((i * 37) % 100) / 100, (i % 50) / 50]);
    const labels = rows.map((r) => ((r[1] as number) > 0.6 ? 1 : 0));
    const m = fitGbm(rows, labels, ['noise', 'signal'], { rounds: 20, depth: 1, lr: 0.3, lambda: 1, bins: 50, minChild: 1 });
    const first = m.trees[0];
    expect(first !== undefined && 'feature' in first ? first.feature : -1).toBe(1);
    const wrong = rows.filter((r, i) => (gbmProbability(m, r) >= 0.5 ? 1 : 0) !== labels[i]);
    expect(wrong).toEqual([]);
  });
});
