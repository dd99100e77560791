/**
 * Per-pair helpers of the state-update MLP head's feature row (`featureRow` of
 * ./state-update-mlp.ts; issue 25, bulk import): what it read per pair that depends on one side's
 * reading only, read once per reading, and the scratch arrays it fills per pair instead of
 * allocating them. Same values as before, bit for bit.
 *
 * @module
 */
import { ADDITION, NEGATION } from './state-update-lexicon.js';
import type { SideReading } from './state-update-types.js';

/** The lexicon's addition and negation tests of a reading's body (kept per reading, so they go with it). */
const BODY_MARKS = new WeakMap<SideReading, { addition: boolean; negation: boolean }>();

/** The lexicon's `ADDITION` and `NEGATION` tests of `r.body`, once per reading (they ran per pair). */
export function bodyMarksOf(r: SideReading): { addition: boolean; negation: boolean } {
  let hit = BODY_MARKS.get(r);
  if (hit === undefined) BODY_MARKS.set(r, (hit = { addition: ADDITION.test(r.body), negation: NEGATION.test(r.body) }));
  return hit;
}

/** The two scratch own-word vectors (newer side, older side). */
let rows: [Float64Array, Float64Array] = [new Float64Array(0), new Float64Array(0)];

/**
 * Scratch own-word vector `i` (0: the newer side's, 1: the older side's): `dim` zeros, the same
 * array at every call, so a caller reads it before its next call for the same `i`.
 */
export function ownScratch(dim: number, i: 0 | 1): Float64Array {
  if (rows[0].length !== dim) rows = [new Float64Array(dim), new Float64Array(dim)];
  return rows[i].fill(0);
}
