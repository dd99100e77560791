/**
 * Routing → active views → budgets → depth: eq. (12)-(15) (SPEC 6 steps 1-2). Pure functions.
 *
 * @module
 */
import { VIEWS, type View } from '../types.js';

/** Active views A(q) = {g : p_g(q) ≥ θ_act}, eq. (12), in the fixed view order. */
export function activeViews(p: Readonly<Record<View, number>>, thetaAct: number): View[] {
  return VIEWS.filter((g) => p[g] >= thetaAct);
}

/**
 * Allocation weights w_g = p_g^γ / Σ_{j∈A} p_j^γ, eq. (13). Returns 0 for inactive views.
 * When every active p_g is 0, weights are uniform over A.
 */
export function allocationWeights(p: Readonly<Record<View, number>>, active: readonly View[], gamma: number): Record<View, number> {
  const w: Record<View, number> = { causal: 0, entity: 0, semantic: 0, temporal: 0 };
  const powered = active.map((g) => Math.pow(Math.max(0, p[g]), gamma));
  const total = powered.reduce((a, b) => a + b, 0);
  active.forEach((g, i) => {
    w[g] = total > 0 ? (powered[i] as number) / total : 1 / active.length;
  });
  return w;
}

/**
 * Largest-remainder rounding LRound (SPEC 6 step 2): floors first, the leftover units go to the
 * largest remainders, ties broken by view name (alphabetical). The result sums to `total`
 * (a non-negative integer) when the shares sum to `total`.
 */
export function largestRemainder(shares: ReadonlyArray<{ view: View; share: number }>, total: number): Record<View, number> {
  const out: Record<View, number> = { causal: 0, entity: 0, semantic: 0, temporal: 0 };
  let used = 0;
  const rema: Array<{ view: View; rem: number }> = [];
  for (const { view, share } of shares) {
    const f = Math.floor(share + 1e-9);
    out[view] = f;
    used += f;
    rema.push({ view, rem: Math.max(0, share - f) });
  }
  // remainders within 1e-9 are ties (floating-point shares such as 5.4999999 vs 49.5)
  rema.sort((a, b) => (Math.abs(b.rem - a.rem) > 1e-9 ? b.rem - a.rem : a.view < b.view ? -1 : a.view > b.view ? 1 : 0));
  for (let i = 0; used < total && rema.length > 0; i = (i + 1) % rema.length) {
    out[(rema[i] as { view: View }).view] += 1;
    used += 1;
  }
  return out;
}

/**
 * Per-view budgets b_g = m + LRound_g[(B − m|A|) w_g], eq. (14). Inactive views get 0.
 * Σ_{g∈A} b_g = B whenever B ≥ m|A|; if B < m|A| every active view gets m (the minimum wins).
 */
export function viewBudgets(weights: Readonly<Record<View, number>>, active: readonly View[], total: number, minPerView: number): Record<View, number> {
  const rest = Math.max(0, total - minPerView * active.length);
  const rounded = largestRemainder(
    active.map((g) => ({ view: g, share: rest * weights[g] })),
    rest,
  );
  const out: Record<View, number> = { causal: 0, entity: 0, semantic: 0, temporal: 0 };
  for (const g of active) out[g] = minPerView + rounded[g];
  return out;
}

/** Depth D(q) = min{D_max, max(1, ⌈D_max · h(q)⌉)}, eq. (15). */
export function depthFor(h: number, maxDepth: number): number {
  return Math.min(maxDepth, Math.max(1, Math.ceil(maxDepth * h - 1e-9)));
}
