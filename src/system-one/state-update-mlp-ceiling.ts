/**
 * An upper bound of the state-update MLP head's probability for one pair (h-writeperf, issue 22:
 * the head was most of a single add's extra CPU against the filing code), from a row without the
 * two columns that sum and compare word vectors per pair. The write path and maintenance read a
 * pair whole only when the bound reaches the decision threshold (`stateUpdateReaching` of
 * ./state-update.ts), so every decision at or above the threshold is the one the whole row gives.
 *
 * @module
 */
import { STATE_UPDATE_MLP_WEIGHTS } from './state-update-mlp-weights.js';
import { featureRow, maxRowCos, mlpWeightColumns, readsPairVectors } from './state-update-mlp.js';
import type { StatePatternReader, StateReadings, StateSide } from './state-update-types.js';

/**
 * The columns a partial row (`featureRow` of ./state-update-mlp.ts) leaves out, each with the range it can take:
 * the two general features that sum and compare word vectors per pair (`g_masked_cos`, a cosine
 * of unit or zero vectors, at least 0; `g_value_pair_cos`, the best cosine of two word rows of
 * the table, at most the largest squared row norm / 127², 1 up to rounding), widened by 1e-9
 * against rounding. Chosen on LoCoMo conversation 0 (8,170 pairs of each turn with the 20 before
 * it): with these two left out the bound is below 0.85 for 98.3 % of the pairs; with the
 * `cos_delta` columns left out too, for 33 %.
 */
function partialRanges(): ReadonlyMap<string, readonly [number, number]> {
  const top = maxRowCos();
  const e = 1e-9;
  return new Map([
    ['g_masked_cos', [0, 1 + e]],
    ['g_value_pair_cos', [0, top + e]],
  ]);
}
/**
 * The first layer as {@link mlpCeiling} reads it (built once): per hidden unit h, the columns of
 * the partial row it reads (`known`, indexes into the full row) with their coefficients
 * w1[h][j] / scale[j] (`coef`, H × known, row-major), and the lowest and highest pre-activation
 * before those columns are added (`lo`, `hi`: b1[h], minus each coefficient times its column's
 * mean, plus the left-out columns at the ends of their ranges).
 */
interface CeilingLayer {
  known: number[];
  coef: Float64Array;
  lo: Float64Array;
  hi: Float64Array;
}
let ceilingLayer: CeilingLayer | undefined;
/** Scratch of {@link mlpCeiling}: the nonzero known columns of the pair being bounded and their values. */
let scratchAt = new Int32Array(0);
let scratchX = new Float64Array(0);

function ceilingLayerOf(columns: readonly number[]): CeilingLayer {
  if (ceilingLayer !== undefined) return ceilingLayer;
  const w = STATE_UPDATE_MLP_WEIGHTS;
  const ranges = partialRanges();
  const f = w.features.length;
  const knownAt = w.features.flatMap((name, j) => (ranges.has(name) ? [] : [j]));
  const coef = new Float64Array(w.hidden * knownAt.length);
  const lo = new Float64Array(w.hidden);
  const hi = new Float64Array(w.hidden);
  for (let h = 0; h < w.hidden; h++) {
    let l = w.b1[h] as number;
    let u = l;
    for (let j = 0; j < f; j++) {
      const c = (w.w1[h * f + j] as number) / (w.scale[j] as number);
      const m = w.mean[j] as number;
      const range = ranges.get(w.features[j] as string);
      if (range === undefined) {
        l -= c * m;
        u -= c * m;
      } else {
        l += Math.min(c * (range[0] - m), c * (range[1] - m));
        u += Math.max(c * (range[0] - m), c * (range[1] - m));
      }
    }
    knownAt.forEach((j, k) => (coef[h * knownAt.length + k] = (w.w1[h * f + j] as number) / (w.scale[j] as number)));
    lo[h] = l;
    hi[h] = u;
  }
  ceilingLayer = { known: knownAt.map((j) => columns[j] as number), coef, lo, hi };
  return ceilingLayer;
}

/**
 * An upper bound of the MLP head's probability for one pair (h-writeperf): the row without the
 * costliest columns ({@link partialRanges}), each of those taken at whichever end of its range
 * raises the score most — per hidden unit, the highest pre-activation where its output weight is
 * positive, the lowest where it is negative (ReLU is monotone). A pair whose bound is below the
 * decision threshold cannot reach it, so it need not be read whole. 1 when the weights do not fit
 * (the fallback decides then); 0 for a time-reversed pair, as `mlpDecision` of ./state-update-mlp.ts.
 */
export function mlpCeiling(reader: StatePatternReader, newer: StateSide, older: StateSide, memo: StateReadings): number {
  const w = STATE_UPDATE_MLP_WEIGHTS;
  const columns = mlpWeightColumns(reader);
  if (columns === null) return 1;
  if (!(newer.timeMs >= older.timeMs)) return 0;
  const layer = ceilingLayerOf(columns);
  const all = featureRow(reader, newer, older, memo, true, readsPairVectors(reader, columns));
  const n = layer.known.length;
  // Only the nonzero columns are summed (most are 0/1 indicators, mostly 0): adding a product
  // with 0 leaves a sum as it is, so each pre-activation is the same number as over all columns.
  // Two scratch arrays for every call (issue 25: two allocations per pair, ~30 pairs per write);
  // entries past `m` are never read.
  if (scratchAt.length < n) {
    scratchAt = new Int32Array(n);
    scratchX = new Float64Array(n);
  }
  const at = scratchAt;
  const x = scratchX;
  let m = 0;
  for (let k = 0; k < n; k++) {
    const v = all[layer.known[k] as number] as number;
    if (v === 0) continue;
    at[m] = k;
    x[m++] = v;
  }
  let z = w.b2;
  for (let h = 0; h < w.hidden; h++) {
    let a = 0;
    const off = h * n;
    for (let i = 0; i < m; i++) a += (layer.coef[off + (at[i] as number)] as number) * (x[i] as number);
    const w2 = w.w2[h] as number;
    z += w2 > 0 ? w2 * Math.max(0, (layer.hi[h] as number) + a) : w2 * Math.max(0, (layer.lo[h] as number) + a);
  }
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}
