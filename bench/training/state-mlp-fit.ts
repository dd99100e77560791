/**
 * Fits the one-hidden-layer MLP of the state-update head (issue 24) in plain TypeScript: inputs
 * standardised with the training mean and standard deviation, ReLU hidden layer, sigmoid output,
 * class-balanced binary cross-entropy, L2 weight decay, Adam (Kingma & Ba 2015) on shuffled
 * mini-batches. Deterministic: the seed fixes the initialisation (He-uniform) and the batch order.
 *
 * @module
 */
import type { StateMlpWeights } from '../../src/system-one/state-update-types.js';
import { prng } from '../../test/helpers/prng.js';

/** Options of {@link fitMlp}. */
export interface MlpFitOptions {
  hidden: number;
  epochs: number;
  batch: number;
  /** Adam step size. */
  lr: number;
  /** L2 weight decay on W1 and w2. */
  l2: number;
  seed: number;
}

/** Fits the MLP on `rows` (raw features) and 0/1 `labels`; `features` names the columns. */
export function fitMlp(rows: readonly number[][], labels: readonly number[], features: readonly string[], o: MlpFitOptions): StateMlpWeights {
  const F = features.length;
  const N = rows.length;
  const H = o.hidden;
  const mean = new Array<number>(F).fill(0);
  const scale = new Array<number>(F).fill(0);
  for (const r of rows) for (let j = 0; j < F; j++) mean[j] = (mean[j] as number) + (r[j] as number) / N;
  for (const r of rows) for (let j = 0; j < F; j++) scale[j] = (scale[j] as number) + ((r[j] as number) - (mean[j] as number)) ** 2 / N;
  for (let j = 0; j < F; j++) scale[j] = Math.sqrt(scale[j] as number) || 1;
  const X = rows.map((r) => Float64Array.from(r, (x, j) => (x - (mean[j] as number)) / (scale[j] as number)));
  const rnd = prng(o.seed);
  const lim1 = Math.sqrt(6 / F);
  const w1 = Float64Array.from({ length: H * F }, () => (2 * rnd() - 1) * lim1);
  const b1 = new Float64Array(H);
  const lim2 = Math.sqrt(6 / H);
  const w2 = Float64Array.from({ length: H }, () => (2 * rnd() - 1) * lim2);
  let b2 = 0;
  const pos = labels.filter((y) => y === 1).length;
  const wPos = N / (2 * Math.max(1, pos));
  const wNeg = N / (2 * Math.max(1, N - pos));
  // Adam state.
  const params = [w1, b1, w2];
  const m = params.map((p) => new Float64Array(p.length));
  const v = params.map((p) => new Float64Array(p.length));
  let mb2 = 0;
  let vb2 = 0;
  const beta1 = 0.9;
  const beta2 = 0.999;
  const eps = 1e-8;
  let t = 0;
  const order = Array.from({ length: N }, (_, i) => i);
  const hAct = new Float64Array(H);
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = N - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [order[i], order[j]] = [order[j] as number, order[i] as number];
    }
    for (let start = 0; start < N; start += o.batch) {
      const idx = order.slice(start, start + o.batch);
      const g = params.map((p) => new Float64Array(p.length));
      let gb2 = 0;
      for (const n of idx) {
        const x = X[n] as Float64Array;
        let z = b2;
        for (let h = 0; h < H; h++) {
          let a = b1[h] as number;
          const off = h * F;
          for (let j = 0; j < F; j++) a += (w1[off + j] as number) * (x[j] as number);
          hAct[h] = a > 0 ? a : 0;
          z += (w2[h] as number) * (hAct[h] as number);
        }
        const p = 1 / (1 + Math.exp(-z));
        const y = labels[n] as number;
        const dz = (p - y) * (y === 1 ? wPos : wNeg) / idx.length;
        gb2 += dz;
        for (let h = 0; h < H; h++) {
          if ((hAct[h] as number) <= 0) continue;
          const g2 = g[2] as Float64Array;
          g2[h] = (g2[h] as number) + dz * (hAct[h] as number);
          const da = dz * (w2[h] as number);
          const g1 = g[1] as Float64Array;
          g1[h] = (g1[h] as number) + da;
          const off = h * F;
          const g0 = g[0] as Float64Array;
          for (let j = 0; j < F; j++) g0[off + j] = (g0[off + j] as number) + da * (x[j] as number);
        }
      }
      t++;
      params.forEach((p, k) => {
        const gk = g[k] as Float64Array;
        const mk = m[k] as Float64Array;
        const vk = v[k] as Float64Array;
        const decay = k === 1 ? 0 : o.l2;
        for (let i = 0; i < p.length; i++) {
          const gi = (gk[i] as number) + decay * (p[i] as number);
          mk[i] = beta1 * (mk[i] as number) + (1 - beta1) * gi;
          vk[i] = beta2 * (vk[i] as number) + (1 - beta2) * gi * gi;
          const mh = (mk[i] as number) / (1 - beta1 ** t);
          const vh = (vk[i] as number) / (1 - beta2 ** t);
          p[i] = (p[i] as number) - (o.lr * mh) / (Math.sqrt(vh) + eps);
        }
      });
      mb2 = beta1 * mb2 + (1 - beta1) * gb2;
      vb2 = beta2 * vb2 + (1 - beta2) * gb2 * gb2;
      b2 -= (o.lr * (mb2 / (1 - beta1 ** t))) / (Math.sqrt(vb2 / (1 - beta2 ** t)) + eps);
    }
  }
  return { features: [...features], mean, scale, hidden: H, w1: [...w1], b1: [...b1], w2: [...w2], b2 };
}
