import { describe, expect, it } from 'vitest';
import { fitLogistic, predictLogistic, sigmoid } from '../lib/logistic.js';

describe('sigmoid', () => {
  it('is 1/2 at 0 and stays finite far out', () => {
    expect(sigmoid(0)).toBe(0.5);
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(1000)).toBe(1);
    expect(sigmoid(Math.log(3))).toBeCloseTo(0.75, 12); // 1/(1 + 1/3)
  });
});

describe('fitLogistic', () => {
  it('fits the base rate through the bias when the feature is constant', () => {
    // one positive in four: the maximum-likelihood probability is 1/4
    const m = fitLogistic([[2], [2], [2], [2]], [1, 0, 0, 0], ['c']);
    expect(predictLogistic(m, [2])).toBeCloseTo(0.25, 6);
  });

  it('reproduces the group rates of a binary feature without a penalty', () => {
    // x = 0: 1 of 4 positive; x = 1: 3 of 4 positive. The saturated model's MLE is the rates.
    const rows = [[0], [0], [0], [0], [1], [1], [1], [1]];
    const labels = [1, 0, 0, 0, 1, 1, 1, 0];
    const m = fitLogistic(rows, labels, ['x'], { l2: 0 });
    expect(predictLogistic(m, [0])).toBeCloseTo(0.25, 6);
    expect(predictLogistic(m, [1])).toBeCloseTo(0.75, 6);
    expect(m.rows).toBe(8);
    expect(m.positives).toBe(4);
  });

  it('shrinks the weight towards zero as the penalty grows', () => {
    const rows = [[0], [0], [0], [0], [1], [1], [1], [1]];
    const labels = [1, 0, 0, 0, 1, 1, 1, 0];
    const free = fitLogistic(rows, labels, ['x'], { l2: 0 });
    const tight = fitLogistic(rows, labels, ['x'], { l2: 100 });
    expect(Math.abs(tight.weights[0] as number)).toBeLessThan(Math.abs(free.weights[0] as number));
  });

  it('keeps finite weights on separable data with the default penalty', () => {
    const m = fitLogistic([[0], [1], [2], [3]], [0, 0, 1, 1], ['x']);
    expect(Number.isFinite(m.weights[0])).toBe(true);
    expect(predictLogistic(m, [3])).toBeGreaterThan(predictLogistic(m, [0]));
  });

  it('refuses ragged rows, bad labels and empty input', () => {
    expect(() => fitLogistic([], [], ['x'])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => fitLogistic([[1, 2]], [1], ['x'])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => fitLogistic([[1]], [2], ['x'])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => fitLogistic([[Number.NaN]], [1], ['x'])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
