/**
 * Candidate scoring, eq. (23)-(25) (SPEC 6 step 5).
 *
 * **Score scale.** Every term is a value in [0,1]: z_v is the cosine mapped from [-1,1] to [0,1]
 * by max(0, z); a_v, ℓ_v, n_v, c_v are System-One probabilities; p_g(q) is a routing
 * probability; π_e is an edge weight. The weighted mean of eq. (23) is therefore in [0,1], and
 * so is the recency-adjusted score of eq. (25). Anchors are scored with the same formula
 * (ℓ_v = 1, π_e = 1, p_g = 1: they were reached by the query itself), so anchors and expanded
 * nodes share one scale, unlike the paper's reference code.
 *
 * @module
 */

/** The parts of eq. (23) for one candidate. All in [0,1]. */
export interface ScoreParts {
  /** z_v: similarity to the query, clamped to [0,1]. */
  z: number;
  /** a_v: relevance (System One). */
  a: number;
  /** p_g(q): routing probability of the view that reached v. */
  pg: number;
  /** ℓ_v: relation usefulness (System One). */
  l: number;
  /** n_v: new information (System One). */
  n: number;
  /** π_e: weight of the edge that reached v. */
  pi: number;
  /** c_v: supports evidence (System One). */
  c: number;
}

/**
 * s(v | q, E_d) = [λ1 z_v + λ2 a_v + λ3 p_g(q) ℓ_v + λ4 n_v + λ5 (π_e + c_v)/2] / Σλ, eq. (23).
 */
export function transitionScore(p: ScoreParts, lambdas: readonly [number, number, number, number, number]): number {
  const [l1, l2, l3, l4, l5] = lambdas;
  const sum = l1 + l2 + l3 + l4 + l5;
  return (l1 * p.z + l2 * p.a + l3 * p.pg * p.l + l4 * p.n + (l5 * (p.pi + p.c)) / 2) / sum;
}

const DAY_MS = 86_400_000;

/** ρ_v = 1 / (1 + max(0, τ* − τ_v)/day), eq. (24). Times in ms since the epoch. */
export function recencyFactor(newestMs: number, nodeMs: number): number {
  return 1 / (1 + Math.max(0, newestMs - nodeMs) / DAY_MS);
}

/** s̃(v) = (s(v) + 0.1·r(q)·ρ_v) / (1 + 0.1·r(q)), eq. (25). */
export function recencyAdjusted(s: number, r: number, rho: number): number {
  return (s + 0.1 * r * rho) / (1 + 0.1 * r);
}
