import { describe, expect, it } from 'vitest';
import { expectedCalibrationError, fitLogistic, predictLogistic, rocAuc, sigmoid } from '../lib/logistic.js';

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

  it('weights rows like repeated rows (sample weights)', () => {
    // x = 0: one positive of weight 1, one negative of weight 3 → 1/4; x = 1: the reverse → 3/4
    const m = fitLogistic([[0], [0], [1], [1]], [1, 0, 1, 0], ['x'], { l2: 0, sampleWeights: [1, 3, 3, 1] });
    expect(predictLogistic(m, [0])).toBeCloseTo(0.25, 6);
    expect(predictLogistic(m, [1])).toBeCloseTo(0.75, 6);
  });

  it('gives the same model when the weights and λ are scaled together (a weighted mean loss)', () => {
    const rows = [[0], [1], [2], [3], [1], [2]];
    const labels = [0, 0, 1, 1, 1, 0];
    const sum = fitLogistic(rows, labels, ['x'], { l2: 1 });
    const mean = fitLogistic(rows, labels, ['x'], { l2: 1 / 6, sampleWeights: new Array(6).fill(1 / 6) });
    expect(mean.weights[0]).toBeCloseTo(sum.weights[0] as number, 6);
    expect(mean.bias).toBeCloseTo(sum.bias, 6);
  });

  it('takes typed-array rows', () => {
    const m = fitLogistic([Float32Array.of(2), Float32Array.of(2), Float32Array.of(2), Float32Array.of(2)], [1, 0, 0, 0], ['c']);
    expect(predictLogistic(m, Float32Array.of(2))).toBeCloseTo(0.25, 6);
  });

  it('refuses negative or missing sample weights', () => {
    expect(() => fitLogistic([[0], [1]], [0, 1], ['x'], { sampleWeights: [1, -1] })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'sampleWeights' }));
    expect(() => fitLogistic([[0], [1]], [0, 1], ['x'], { sampleWeights: [1] })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'sampleWeights' }));
  });
});

describe('rocAuc', () => {
  it('is the share of positive-negative pairs ranked right, ties counted half', () => {
    // pairs (pos, neg): (0.35, 0.1) ✓, (0.35, 0.4) ✗, (0.8, 0.1) ✓, (0.8, 0.4) ✓ → 3/4
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    expect(rocAuc([0.5, 0.5], [1, 0])).toBe(0.5);
  });

  it('is NaN without both classes', () => {
    expect(rocAuc([0.2, 0.7], [1, 1])).toBeNaN();
  });
});

describe('expectedCalibrationError', () => {
  it('averages |positive rate − mean probability| over bins, weighted by their counts', () => {
    // bin 1: p 0.1, 0.15 with 1 positive → |1 − 0.25|; bin 9: p 0.9, 0.95 with 2 → |2 − 1.85|; / 4 rows
    expect(expectedCalibrationError([0.1, 0.15, 0.9, 0.95], [0, 1, 1, 1])).toBeCloseTo((0.75 + 0.15) / 4, 12);
  });

  it('is 0 for no rows', () => {
    expect(expectedCalibrationError([], [])).toBe(0);
  });
});
