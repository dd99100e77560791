/**
 * Anchor fusion by reciprocal rank fusion, eq. (16) (SPEC 6 step 3).
 *
 * @module
 */
import type { IndexHit } from './indexes.js';

/** A fused anchor: its RRF score and its 1-based rank in each list (0 = absent). */
export interface FusedHit {
  id: string;
  /** s_RRF(v,q) = Σ_L 1/(κ + rank_L(v)), eq. (16). */
  rrf: number;
  ranks: number[];
}

/**
 * Reciprocal rank fusion: s_RRF(v,q) = Σ_{L, v∈L} 1/(κ + rank_L(v)) with 1-based ranks, eq. (16).
 * Returns every id of every list, best first; ties keep the order of first appearance.
 * @param lists Rankings, each best first (e.g. [vector hits, lexical hits]).
 * @param kappa κ, the RRF constant (SPEC 8: 60).
 */
export function reciprocalRankFusion(lists: ReadonlyArray<ReadonlyArray<Pick<IndexHit, 'id'>>>, kappa: number): FusedHit[] {
  const byId = new Map<string, FusedHit>();
  const order: string[] = [];
  lists.forEach((list, li) => {
    list.forEach((hit, i) => {
      let f = byId.get(hit.id);
      if (f === undefined) {
        f = { id: hit.id, rrf: 0, ranks: lists.map(() => 0) };
        byId.set(hit.id, f);
        order.push(hit.id);
      }
      if (f.ranks[li] === 0) {
        f.ranks[li] = i + 1;
        f.rrf += 1 / (kappa + i + 1); // 1/(κ + rank_L(v))
      }
    });
  });
  const pos = new Map(order.map((id, i) => [id, i]));
  return [...byId.values()].sort((a, b) => b.rrf - a.rrf || (pos.get(a.id) as number) - (pos.get(b.id) as number));
}
