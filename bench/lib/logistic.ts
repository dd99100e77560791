/**
 * The one logistic-regression fitter of the repository: L2-regularised, fitted by Newton's method
 * (iteratively reweighted least squares with step halving), with optional sample weights. Used by
 * the flat learned scorer of SPEC 10 (bench/locomo/flat-learned.ts) and by the System-One trainer
 * (bench/training/train-system-one.ts). Features are standardised with the training mean and
 * standard deviation inside the model, so callers pass raw values. Deterministic: the same rows
 * give the same model. Also the held-out figures of the model card: ROC AUC and expected
 * calibration error.
 *
 * @module
 */
import { invalidInput } from '../../src/errors.js';

/** A fitted model. JSON-safe. */
export interface LogisticModel {
  /** Feature names, in column order. */
  features: string[];
  /** Training mean of each feature. */
  mean: number[];
  /** Training standard deviation of each feature (1 for a constant column). */
  scale: number[];
  /** Weights on the standardised features. */
  weights: number[];
  bias: number;
  /** Newton iterations run. */
  iterations: number;
  /** Training rows and positives. */
  rows: number;
  positives: number;
}

/** Options of {@link fitLogistic}. */
export interface FitOptions {
  /** λ of the penalty (λ/2)·‖w‖² on the standardised weights (the bias is not penalised). @default 1 */
  l2?: number;
  /** Newton iterations at most. @default 50 */
  maxIterations?: number;
  /** Stop when the largest parameter change is below this. @default 1e-7 */
  tolerance?: number;
  /**
   * Weight s_i ≥ 0 of each row in the loss (e.g. 1/|rows of its query| so every query counts the
   * same). With weights summing to 1 the loss is a weighted mean and λ is on that scale.
   * @default 1 for every row
   */
  sampleWeights?: readonly number[];
}

/** σ(z) = 1 / (1 + e^(−z)), computed without overflow. */
export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** log(1 + e^z) without overflow. */
function softplus(z: number): number {
  return z > 30 ? z : z < -30 ? Math.exp(z) : Math.log1p(Math.exp(z));
}

/** Solves A x = b for a symmetric positive-definite A (n×n, row-major) by Cholesky. */
function choleskySolve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j] as number;
      for (let k = 0; k < j; k++) s -= (l[i * n + k] as number) * (l[j * n + k] as number);
      if (i === j) l[i * n + i] = Math.sqrt(Math.max(s, 1e-12));
      else l[i * n + j] = s / (l[j * n + j] as number);
    }
  }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i] as number;
    for (let k = 0; k < i; k++) s -= (l[i * n + k] as number) * (y[k] as number);
    y[i] = s / (l[i * n + i] as number);
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i] as number;
    for (let k = i + 1; k < n; k++) s -= (l[k * n + i] as number) * (x[k] as number);
    x[i] = s / (l[i * n + i] as number);
  }
  return x;
}

/**
 * Fits P(y = 1 | x) = σ(b + w·x̂), x̂ = (x − mean)/scale, minimising
 * Σ_i s_i [log(1 + e^{z_i}) − y_i z_i] + (λ/2)‖w‖² by Newton steps (halved until the loss drops).
 * Mean and scale are the unweighted population mean and standard deviation of each column.
 * @param rows Feature rows, each of `features.length` finite numbers (arrays or typed arrays).
 * @param labels 0 or 1 per row.
 * @throws JevMemError `INVALID_INPUT` (field `rows` / `labels` / `sampleWeights`) on empty input,
 *   ragged rows, non-finite values, a negative weight or a length mismatch.
 */
export function fitLogistic(rows: readonly ArrayLike<number>[], labels: readonly number[], features: readonly string[], options: FitOptions = {}): LogisticModel {
  const n = rows.length;
  const d = features.length;
  if (n === 0) throw invalidInput('rows', 'expected at least one training row');
  if (labels.length !== n) throw invalidInput('labels', `expected ${n} labels, got ${labels.length}`);
  const l2 = options.l2 ?? 1;
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-7;
  const s = options.sampleWeights ?? new Array<number>(n).fill(1);
  if (s.length !== n) throw invalidInput('sampleWeights', `expected ${n} weights, got ${s.length}`);
  for (const [i, v] of s.entries()) if (!(Number.isFinite(v) && v >= 0)) throw invalidInput('sampleWeights', `weight ${i} is ${v}, expected a finite number ≥ 0`);
  const mean = new Array<number>(d).fill(0);
  const scale = new Array<number>(d).fill(0);
  for (const [i, r] of rows.entries()) {
    if (r.length !== d) throw invalidInput('rows', `row ${i} has ${r.length} values, expected ${d}`);
    for (let j = 0; j < d; j++) {
      const v = r[j] as number;
      if (!Number.isFinite(v)) throw invalidInput('rows', `row ${i} feature ${features[j]} is ${v}`);
      mean[j] = (mean[j] as number) + v / n;
    }
  }
  for (const r of rows) for (let j = 0; j < d; j++) scale[j] = (scale[j] as number) + ((r[j] as number) - (mean[j] as number)) ** 2 / n;
  for (let j = 0; j < d; j++) scale[j] = (scale[j] as number) > 1e-12 ? Math.sqrt(scale[j] as number) : 1;
  // Design matrix with a leading 1 column for the bias.
  const p = d + 1;
  const x = new Float64Array(n * p);
  let positives = 0;
  for (let i = 0; i < n; i++) {
    const y = labels[i];
    if (y !== 0 && y !== 1) throw invalidInput('labels', `label ${i} is ${y}, expected 0 or 1`);
    positives += y;
    x[i * p] = 1;
    const r = rows[i] as ArrayLike<number>;
    for (let j = 0; j < d; j++) x[i * p + j + 1] = ((r[j] as number) - (mean[j] as number)) / (scale[j] as number);
  }
  const theta = new Float64Array(p);
  const loss = (t: Float64Array): number => {
    let sum = 0;
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < p; j++) z += (x[i * p + j] as number) * (t[j] as number);
      sum += (s[i] as number) * (softplus(z) - (labels[i] as number) * z);
    }
    for (let j = 1; j < p; j++) sum += (l2 / 2) * (t[j] as number) ** 2;
    return sum;
  };
  let current = loss(theta);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    const g = new Float64Array(p);
    const h = new Float64Array(p * p);
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < p; j++) z += (x[i * p + j] as number) * (theta[j] as number);
      const mu = sigmoid(z);
      const si = s[i] as number;
      const w = si * mu * (1 - mu);
      const err = si * (mu - (labels[i] as number));
      for (let j = 0; j < p; j++) {
        const xj = x[i * p + j] as number;
        g[j] = (g[j] as number) + err * xj;
        const wx = w * xj;
        for (let k = 0; k <= j; k++) h[j * p + k] = (h[j * p + k] as number) + wx * (x[i * p + k] as number);
      }
    }
    for (let j = 1; j < p; j++) {
      g[j] = (g[j] as number) + l2 * (theta[j] as number);
      h[j * p + j] = (h[j * p + j] as number) + l2;
    }
    for (let j = 0; j < p; j++) for (let k = j + 1; k < p; k++) h[j * p + k] = h[k * p + j] as number;
    h[0] = (h[0] as number) + 1e-9;
    const step = choleskySolve(h, g, p);
    let t = 1;
    let next = new Float64Array(p);
    let nextLoss = Number.POSITIVE_INFINITY;
    for (let halvings = 0; halvings < 30; halvings++, t /= 2) {
      next = theta.map((v, j) => v - t * (step[j] as number));
      nextLoss = loss(next);
      if (nextLoss <= current) break;
    }
    let change = 0;
    for (let j = 0; j < p; j++) change = Math.max(change, Math.abs((next[j] as number) - (theta[j] as number)));
    if (nextLoss > current) break;
    theta.set(next);
    current = nextLoss;
    if (change < tolerance) {
      iterations++;
      break;
    }
  }
  return {
    features: [...features],
    mean,
    scale,
    weights: Array.from(theta.subarray(1)),
    bias: theta[0] as number,
    iterations,
    rows: n,
    positives,
  };
}

/** P(y = 1 | x) in [0,1] for a raw feature row (standardised with the model's mean and scale). */
export function predictLogistic(model: LogisticModel, row: ArrayLike<number>): number {
  let z = model.bias;
  for (let j = 0; j < model.weights.length; j++) z += (model.weights[j] as number) * (((row[j] as number) - (model.mean[j] as number)) / (model.scale[j] as number));
  return sigmoid(z);
}

/**
 * ROC AUC by the rank-sum (Mann-Whitney) formula, ties counted half: the probability that a random
 * positive scores above a random negative. NaN when `labels` lacks either class.
 * @param labels 1 for a positive, anything else for a negative.
 */
export function rocAuc(scores: readonly number[], labels: readonly number[]): number {
  const idx = scores.map((s, i) => [s, labels[i] as number] as const).sort((a, b) => a[0] - b[0]);
  let pos = 0;
  let neg = 0;
  let rankSum = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j < idx.length && (idx[j] as readonly [number, number])[0] === (idx[i] as readonly [number, number])[0]) j++;
    const avgRank = (i + 1 + j) / 2; // 1-based average rank of the tie block
    for (let k = i; k < j; k++) {
      if ((idx[k] as readonly [number, number])[1] === 1) {
        pos++;
        rankSum += avgRank;
      } else neg++;
    }
    i = j;
  }
  if (pos === 0 || neg === 0) return Number.NaN;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

/**
 * Expected calibration error with `bins` equal-width bins of predicted probability:
 * Σ_b (n_b/N)·|acc_b − conf_b|, acc_b the positive rate and conf_b the mean probability in bin b.
 * 0 for empty input.
 */
export function expectedCalibrationError(probs: readonly number[], labels: readonly number[], bins = 10): number {
  const count = new Array<number>(bins).fill(0);
  const conf = new Array<number>(bins).fill(0);
  const acc = new Array<number>(bins).fill(0);
  probs.forEach((p, i) => {
    const b = Math.min(bins - 1, Math.floor(p * bins));
    count[b] = (count[b] as number) + 1;
    conf[b] = (conf[b] as number) + p;
    acc[b] = (acc[b] as number) + (labels[i] as number);
  });
  let ece = 0;
  for (let b = 0; b < bins; b++) if ((count[b] as number) > 0) ece += Math.abs((acc[b] as number) - (conf[b] as number));
  return ece / Math.max(1, probs.length);
}
