/**
 * The two stop rules of the read loop, eq. (21)-(22) (SPEC 6 step 4).
 *
 * @module
 */

/** System One's estimates after round d, eq. (17)-(20). Probabilities in [0,1]. */
export interface StopEstimates {
  /** s_d: evidence sufficiency. */
  sufficient: number;
  /** u_d: expected utility of further retrieval. */
  continueUseful: number;
  /** m_d: missing required evidence. */
  missing: number;
  /** c_d: unresolved contradiction. */
  contradiction: number;
}

/** Why the loop stopped. */
export type StopReason =
  | 'sufficient'
  | 'not-worth-continuing'
  | 'depth'
  | 'budget'
  | 'frontier-empty'
  | 'visited-limit'
  | 'edge-limit'
  | 'controller-limit'
  | 'deadline'
  | 'aborted';

/**
 * Applies eq. (21) then eq. (22):
 * sufficient when s_d ≥ θ_suff ∧ m_d < θ_cont ∧ c_d < θ_cont (21);
 * not worth continuing when u_d < θ_cont (22); otherwise `undefined` (go on).
 */
export function stopDecision(e: StopEstimates, thetaSuff: number, thetaCont: number): 'sufficient' | 'not-worth-continuing' | undefined {
  if (e.sufficient >= thetaSuff && e.missing < thetaCont && e.contradiction < thetaCont) return 'sufficient'; // (21)
  if (e.continueUseful < thetaCont) return 'not-worth-continuing'; // (22)
  return undefined;
}
