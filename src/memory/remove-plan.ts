/**
 * What one erasure commit changes besides deleting its nodes (issue 22, "data you can trust"):
 * the removed nodes' edges, and the supersession chains through them (memory/relink.ts). Used by
 * `Memory.delete` (one node) and `Memory.deleteVersions` (every version of a memory, in the same
 * one commit). Reads the namespace's resident state; plans only: the caller commits the batch.
 *
 * Removing a set of nodes is planned as removing them one after the other, oldest first, each
 * with {@link planRelink} over the chains as the earlier removals left them, so a node outside
 * the set that one of them superseded ends as it would after that many single deletes: still
 * superseded by what replaced the removed nodes outside the set (with an `updates` edge from it),
 * or current again when nothing did. Nothing the plan makes points at a removed node.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { MemoryEdge, MemoryNode } from '../types.js';
import { planRelink } from './relink.js';

/** Superseded nodes read per batch when a delete looks for the ones it superseded (to revive or relink). */
const REVIVE_BATCH = 512;

/** The changes of an erasure of some nodes, besides the nodes themselves ({@link planRemoval}). */
export interface RemovalPlan {
  /** Every edge touching a removed node (both directions), to delete. */
  deleteEdgeIds: string[];
  /** Nodes outside the removed set that the removals changed (their `supersededBy`, `status`). */
  nodes: MemoryNode[];
  /** New `updates` edges that stand for links through removed nodes. */
  edges: MemoryEdge[];
}

/**
 * Plans the removal of `ids` (nodes the namespace holds; oldest first) in one commit: loads their
 * bodies and edges, finds the superseded nodes naming any of them (the superseded ids of the
 * directory, read {@link REVIVE_BATCH} at a time) and relinks those chains.
 * @param nowIso - Creation time of the new edges (ISO 8601).
 */
export async function planRemoval(state: NamespaceState, ns: string, ids: readonly string[], nowIso: string): Promise<RemovalPlan> {
  const gone = new Set(ids);
  await state.loadNodes(ids);
  await state.loadEdges(ids, false);
  const deleteEdgeIds = [...new Set(ids.flatMap((id) => state.edgesOf(id).map((e) => e.id)))];
  // The nodes the removed ones superseded (only superseded nodes can name them, so only they are
  // read, in batches, from the directory).
  const named: string[] = [];
  const superseded = state.idsWithStatus('superseded');
  for (let i = 0; i < superseded.length; i += REVIVE_BATCH) {
    const part = superseded.slice(i, i + REVIVE_BATCH);
    await state.loadNodes(part);
    for (const sid of part) if ((state.nodes.get(sid)?.supersededBy ?? []).some((b) => gone.has(b))) named.push(sid);
  }
  /** Nodes as the removals so far changed them, and the edges they planned. */
  const changed = new Map<string, MemoryNode>();
  const planned = new Map<string, MemoryEdge>();
  const removed = new Set<string>();
  const nodeOf = (id: string): MemoryNode | undefined => changed.get(id) ?? state.nodes.get(id);
  for (const id of ids) {
    const predecessors = named.map(nodeOf).filter((n): n is MemoryNode => n !== undefined && n.id !== id && !removed.has(n.id) && n.supersededBy.includes(id));
    const node = nodeOf(id);
    const exists = (x: string): boolean => x !== id && !removed.has(x) && state.nodes.has(x);
    removed.add(id);
    if (predecessors.length === 0) continue;
    // The nodes it superseded pass to the nodes that superseded it (relink.ts): a middle
    // version's removal relinks its chain, the newest one's makes the previous current again.
    const successors = (node?.supersededBy ?? []).filter(exists);
    await state.loadEdgesOfKind(successors, 'updates');
    const stored = new Map<string, MemoryEdge>();
    for (const s of successors) for (const e of state.edgesOfKind(s, 'updates')) stored.set(e.id, e);
    const relink = planRelink({
      removed: node,
      removedId: id,
      removedEdges: [...state.edgesOf(id), ...[...planned.values()].filter((e) => e.from === id || e.to === id)],
      predecessors,
      exists,
      storedEdge: (edgeId) => planned.get(edgeId) ?? stored.get(edgeId),
      namespace: ns,
      nowIso,
    });
    for (const n of relink.nodes) changed.set(n.id, n);
    for (const e of relink.edges) planned.set(e.id, e);
  }
  return {
    deleteEdgeIds,
    nodes: [...changed.values()].filter((n) => !gone.has(n.id)),
    edges: [...planned.values()].filter((e) => !gone.has(e.from) && !gone.has(e.to)),
  };
}
