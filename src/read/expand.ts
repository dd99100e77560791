/**
 * Graph expansion of the read loop (SPEC 6 step 4, eq. (14)): the unvisited neighbours of the
 * beam along the active views, within each view's budget b_g and the global limits.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { MemoryEdge, MemoryNode, View } from '../types.js';
import type { Scored } from './assess.js';
import type { StopReason } from './stop.js';

/**
 * The edges of a node in the order the loop spends budget on them: heavier π_e first, then the
 * older neighbour (lower seq). The order never depends on how the store listed the edges, so a
 * recall gives the same result before and after a reopen.
 */
function expansionOrder(state: NamespaceState, id: string): MemoryEdge[] {
  const seqOf = (e: MemoryEdge): number => state.seqOf(e.from === id ? e.to : e.from) ?? Number.MAX_SAFE_INTEGER;
  return [...state.edgesOf(id)].sort((a, b) => b.weight - a.weight || seqOf(a) - seqOf(b) || (a.view < b.view ? -1 : a.view > b.view ? 1 : 0) || (a.subtype < b.subtype ? -1 : a.subtype > b.subtype ? 1 : 0));
}

/** What graph expansion spends and reads: active views, budgets b_g and their use, the visited set, edges inspected. */
export interface Walk {
  active: View[];
  used: Record<View, number>;
  given: Record<View, number>;
  p: Record<View, number>;
  visited: Set<string>;
  edgesInspected: number;
  /**
   * The recall's scope and metadata filter (`RecallInput.keep`); absent without one. A neighbour
   * it rejects is never proposed, marked visited or charged to b_g: the walk does not pass
   * through it (pruned, not merely hidden), so nothing reached only through another scope's
   * memories is found either.
   */
  keep?: (node: MemoryNode) => boolean;
}

/** A node proposed by expanding an edge of a beam node. */
export interface Proposal {
  node: MemoryNode;
  hops: number;
  pg: number;
  edge: { e: MemoryEdge; from: string; direction: 'out' | 'in' };
}

/**
 * One expansion step (SPEC 6 step 4): the unvisited neighbours of the beam along active views
 * within b_g and the global limits, heavier edges first ({@link expansionOrder}), marked visited;
 * `limit` says which global limit ended the step early. Only the proposed nodes' bodies are read.
 */
export async function proposeNeighbours(state: NamespaceState, beam: readonly Scored[], walk: Walk, params: Readonly<MemoryParameters>): Promise<{ proposals: Proposal[]; limit: StopReason | undefined }> {
  const { active, used, given, p, visited, keep } = walk;
  const picked: Array<Omit<Proposal, 'node'> & { id: string }> = [];
  let limit: StopReason | undefined;
  // With a scope or filter the neighbours' bodies are read too, to test them before proposing.
  await state.loadEdges(
    beam.map((b) => b.node.id),
    keep !== undefined,
  );
  outer: for (const b of beam) {
    for (const e of expansionOrder(state, b.node.id)) {
      if (walk.edgesInspected >= params.maxEdgesInspected) {
        limit = 'edge-limit';
        break outer;
      }
      walk.edgesInspected++;
      if (!active.includes(e.view) || used[e.view] >= given[e.view]) continue;
      const direction = e.from === b.node.id ? 'out' : 'in';
      const otherId = direction === 'out' ? e.to : e.from;
      if (visited.has(otherId)) continue;
      if (!state.nodes.has(otherId) || state.statusOf(otherId) === 'deleted') continue;
      if (keep !== undefined) {
        const other = state.nodes.get(otherId);
        if (other === undefined || !keep(other)) continue; // outside the recall's scope: not traversed
      }
      if (visited.size >= params.maxVisited) {
        limit = 'visited-limit';
        break outer;
      }
      visited.add(otherId);
      used[e.view] += 1;
      picked.push({ id: otherId, hops: b.hops + 1, pg: p[e.view], edge: { e, from: b.node.id, direction } });
    }
  }
  // Only the ≤ maxVisited nodes the round proposes are read, not every neighbour inspected.
  await state.loadNodes(picked.map((x) => x.id));
  // A node the store could not give back (a damaged record, issue 22) is left out.
  const proposals = picked.flatMap(({ id, ...rest }) => {
    const node = state.nodes.get(id);
    return node === undefined ? [] : [{ node, ...rest }];
  });
  return { proposals, limit };
}
