/**
 * `edges(id, { scope })`: the edges of one node as a caller of one scope may see them. With a
 * scope, a node outside it answers as an unknown id (no edges), and an edge whose other end is
 * outside it is left out, so another user's node ids never show through a shared edge.
 *
 * @module
 */
import type { NodePredicate } from '../read/filter.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { MemoryEdge } from '../types.js';

/**
 * Copies of the edges touching node `id` (both directions), under the read lock the caller holds.
 * @param keep - The scope predicate (`scopePredicate` of options.ts); undefined: every edge.
 * @returns `[]` when `keep` is given and `id` is unknown or its node is outside the scope; else
 *   every edge of `id` whose other end satisfies `keep` (an end that is not stored is left out).
 */
export async function scopedEdgesOf(state: NamespaceState, id: string, keep: NodePredicate | undefined): Promise<MemoryEdge[]> {
  if (keep === undefined) {
    await state.loadEdges([id], false);
    return state.edgesOf(id).map((e) => structuredClone(e));
  }
  await state.loadNodes([id]);
  const n = state.nodes.get(id);
  if (n === undefined || !keep(n)) return []; // another scope's node: as an unknown id
  await state.loadEdges([id], true); // with the other ends' nodes, to test them
  const out: MemoryEdge[] = [];
  for (const e of state.edgesOf(id)) {
    const other = state.nodes.get(e.from === id ? e.to : e.from);
    if (other !== undefined && keep(other)) out.push(structuredClone(e));
  }
  return out;
}
