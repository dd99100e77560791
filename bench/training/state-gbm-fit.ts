/**
 * Gradient-boosted shallow trees for the state-update head (issue 24), compared with the MLP on
 * the validation families by bench/training/state-mlp-train.ts: logistic loss, Newton leaf values
 * (Friedman 2001; XGBoost's g/h form with L2 `lambda` on leaves), depth-limited trees on features
 * binned at training quantiles, class-balanced weights, shrinkage `lr`. Deterministic (no sampling).
 *
 * @module
 */

/** One tree: internal nodes test `x[feature] <= threshold`; leaves hold a score. */
export type GbmNode = { leaf: number } | { feature: number; threshold: number; left: GbmNode; right: GbmNode };

/** A fitted model: base score plus the trees' leaves (log-odds). */
export interface GbmModel {
  features: string[];
  base: number;
  trees: GbmNode[];
}

/** Options of {@link fitGbm}. */
export interface GbmOptions {
  rounds: number;
  depth: number;
  lr: number;
  lambda: number;
  bins: number;
  /** Least hessian weight in a leaf. */
  minChild: number;
}

/** The model's log-odds for one row. */
export function gbmScore(m: GbmModel, x: readonly number[]): number {
  let z = m.base;
  for (const t of m.trees) {
    let n = t;
    while (!('leaf' in n)) n = (x[n.feature] as number) <= n.threshold ? n.left : n.right;
    z += n.leaf;
  }
  return z;
}

/** σ of {@link gbmScore}. */
export function gbmProbability(m: GbmModel, x: readonly number[]): number {
  const z = gbmScore(m, x);
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/** Fits the model on raw rows and 0/1 labels. */
export function fitGbm(rows: readonly number[][], labels: readonly number[], features: readonly string[], o: GbmOptions): GbmModel {
  const N = rows.length;
  const F = features.length;
  // Candidate thresholds per feature: distinct training quantiles.
  const cuts: number[][] = [];
  for (let j = 0; j < F; j++) {
    const v = rows.map((r) => r[j] as number).sort((a, b) => a - b);
    const c = new Set<number>();
    for (let b = 1; b < o.bins; b++) c.add(v[Math.floor((b * N) / o.bins)] as number);
    cuts.push([...c].sort((a, b) => a - b).filter((x) => x < (v[N - 1] as number)));
  }
  // Bin index per cell: the number of cuts below the value (x <= cuts[k] goes left of split k).
  const bin = rows.map((r) => Uint8Array.from({ length: F }, (_, j) => {
    const cs = cuts[j] as number[];
    let k = 0;
    while (k < cs.length && (r[j] as number) > (cs[k] as number)) k++;
    return k;
  }));
  const pos = labels.filter((y) => y === 1).length;
  const wPos = N / (2 * Math.max(1, pos));
  const wNeg = N / (2 * Math.max(1, N - pos));
  const wt = labels.map((y) => (y === 1 ? wPos : wNeg));
  const prior = (pos * wPos) / (pos * wPos + (N - pos) * wNeg);
  const base = Math.log(prior / (1 - prior));
  const z = new Float64Array(N).fill(base);
  const trees: GbmNode[] = [];
  const g = new Float64Array(N);
  const h = new Float64Array(N);
  const build = (idx: number[], depth: number): GbmNode => {
    let G = 0;
    let H = 0;
    for (const i of idx) {
      G += g[i] as number;
      H += h[i] as number;
    }
    const leaf = { leaf: (-o.lr * G) / (H + o.lambda) };
    if (depth === 0 || H < 2 * o.minChild) return leaf;
    const parent = (G * G) / (H + o.lambda);
    let best = { gain: 1e-9, feature: -1, k: -1 };
    for (let j = 0; j < F; j++) {
      const nb = (cuts[j] as number[]).length + 1;
      if (nb < 2) continue;
      const hg = new Float64Array(nb);
      const hh = new Float64Array(nb);
      for (const i of idx) {
        const b = (bin[i] as Uint8Array)[j] as number;
        hg[b] = (hg[b] as number) + (g[i] as number);
        hh[b] = (hh[b] as number) + (h[i] as number);
      }
      let gl = 0;
      let hl = 0;
      for (let k = 0; k < nb - 1; k++) {
        gl += hg[k] as number;
        hl += hh[k] as number;
        const gr = G - gl;
        const hr = H - hl;
        if (hl < o.minChild || hr < o.minChild) continue;
        const gain = (gl * gl) / (hl + o.lambda) + (gr * gr) / (hr + o.lambda) - parent;
        if (gain > best.gain) best = { gain, feature: j, k };
      }
    }
    if (best.feature < 0) return leaf;
    const left = idx.filter((i) => ((bin[i] as Uint8Array)[best.feature] as number) <= best.k);
    const right = idx.filter((i) => ((bin[i] as Uint8Array)[best.feature] as number) > best.k);
    return { feature: best.feature, threshold: (cuts[best.feature] as number[])[best.k] as number, left: build(left, depth - 1), right: build(right, depth - 1) };
  };
  const all = Array.from({ length: N }, (_, i) => i);
  for (let r = 0; r < o.rounds; r++) {
    for (let i = 0; i < N; i++) {
      const p = 1 / (1 + Math.exp(-(z[i] as number)));
      g[i] = (p - (labels[i] as number)) * (wt[i] as number);
      h[i] = Math.max(1e-6, p * (1 - p)) * (wt[i] as number);
    }
    const tree = build(all, o.depth);
    trees.push(tree);
    for (let i = 0; i < N; i++) {
      let n = tree;
      while (!('leaf' in n)) n = ((rows[i] as number[])[n.feature] as number) <= n.threshold ? n.left : n.right;
      z[i] = (z[i] as number) + n.leaf;
    }
  }
  return { features: [...features], base, trees };
}
