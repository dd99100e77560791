/**
 * Training helpers for the System-One heads: feature standardisation, L2-regularised logistic
 * regression fitted by full-batch Adam (deterministic: zero init, fixed step count), and the
 * held-out metrics of the model card (ROC AUC, expected calibration error, log loss).
 *
 * @module
 */

/** Per-feature mean and standard deviation (std floored at 1e-6 → 1 for constant features). */
export function standardiser(rows: readonly Float32Array[], width: number): { mean: number[]; std: number[] } {
  const mean = new Array<number>(width).fill(0);
  const sq = new Array<number>(width).fill(0);
  for (const r of rows) for (let j = 0; j < width; j++) mean[j] = (mean[j] as number) + (r[j] as number);
  for (let j = 0; j < width; j++) mean[j] = (mean[j] as number) / Math.max(1, rows.length);
  for (const r of rows) for (let j = 0; j < width; j++) sq[j] = (sq[j] as number) + ((r[j] as number) - (mean[j] as number)) ** 2;
  const std = sq.map((s) => {
    const v = Math.sqrt(s / Math.max(1, rows.length));
    return v < 1e-6 ? 1 : v;
  });
  return { mean, std };
}

/** A fitted logistic model over standardised features: p = σ(w·x' + b). */
export interface LogisticModel {
  weights: number[];
  bias: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/**
 * Fits p(y=1|x) = σ(w·((x−μ)/σ) + b) by minimising mean log loss + (l2/2)·|w|² with full-batch
 * Adam. Sample weights (e.g. to balance queries) are optional.
 */
export function fitLogistic(
  rows: readonly Float32Array[],
  labels: readonly number[],
  mean: readonly number[],
  std: readonly number[],
  options: { l2?: number; steps?: number; lr?: number; sampleWeights?: readonly number[] } = {},
): LogisticModel {
  const width = mean.length;
  const l2 = options.l2 ?? 1e-3;
  const steps = options.steps ?? 400;
  const lr = options.lr ?? 0.05;
  const n = rows.length;
  const X = rows.map((r) => Float64Array.from({ length: width }, (_, j) => ((r[j] as number) - (mean[j] as number)) / (std[j] as number)));
  const sw = options.sampleWeights ?? new Array<number>(n).fill(1);
  const wsum = sw.reduce((a, b) => a + b, 0) || 1;
  const w = new Float64Array(width);
  let b = 0;
  const m = new Float64Array(width + 1);
  const v = new Float64Array(width + 1);
  const g = new Float64Array(width + 1);
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  for (let t = 1; t <= steps; t++) {
    g.fill(0);
    for (let i = 0; i < n; i++) {
      const x = X[i] as Float64Array;
      let z = b;
      for (let j = 0; j < width; j++) z += (w[j] as number) * (x[j] as number);
      const err = (sigmoid(z) - (labels[i] as number)) * ((sw[i] as number) / wsum);
      for (let j = 0; j < width; j++) g[j] = (g[j] as number) + err * (x[j] as number);
      g[width] = (g[width] as number) + err;
    }
    for (let j = 0; j < width; j++) g[j] = (g[j] as number) + l2 * (w[j] as number);
    for (let j = 0; j <= width; j++) {
      m[j] = b1 * (m[j] as number) + (1 - b1) * (g[j] as number);
      v[j] = b2 * (v[j] as number) + (1 - b2) * (g[j] as number) ** 2;
      const step = (lr * ((m[j] as number) / (1 - b1 ** t))) / (Math.sqrt((v[j] as number) / (1 - b2 ** t)) + eps);
      if (j < width) w[j] = (w[j] as number) - step;
      else b -= step;
    }
  }
  return { weights: Array.from(w), bias: b };
}

/** p for one raw row. */
export function predict(model: LogisticModel, row: Float32Array, mean: readonly number[], std: readonly number[]): number {
  let z = model.bias;
  for (let j = 0; j < mean.length; j++) z += (model.weights[j] as number) * (((row[j] as number) - (mean[j] as number)) / (std[j] as number));
  return sigmoid(z);
}

/** ROC AUC by the rank-sum (Mann-Whitney) formula, ties counted half. NaN without both classes. */
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

/** Expected calibration error with `bins` equal-width bins: Σ_b (n_b/N)·|acc_b − conf_b|. */
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
