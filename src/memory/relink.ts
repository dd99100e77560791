/**
 * What a deleted (or expired, then erased) version leaves behind in a supersession chain (issue
 * 22, "data you can trust"). Supersession is transitive: when `b` replaced `a` and `c` replaced
 * `b`, `a` is older than `c` too. So removing a node passes the nodes it replaced (its
 * predecessors: those naming it in `supersededBy`) on to the nodes that replaced it (its
 * successors: its own `supersededBy`):
 * - removing the newest version (no successor) makes the previous one current again, when nothing
 *   else replaced it;
 * - removing a middle version relinks the chain: `a → b → c` without `b` is `a → c`, `a` stays
 *   superseded (by `c`), and `c` gets an `updates` edge to `a`;
 * - removing the oldest version changes no other node.
 *
 * The new edge is an explicit update (origin rule {@link EXPLICIT_UPDATE_RULE}, weight 1) when
 * both links it stands for were (so `history` and the CONFLICT of `update` follow the relinked
 * chain); otherwise it is origin rule {@link RELINK_RULE}, weighted by the weaker of the two
 * links, as no System One decided it. An `updates` edge already stored between the two is kept as
 * it is, unless the new one is an explicit update and the stored one is not. Pure planning: the caller commits the nodes and edges with the delete.
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../types.js';
import { finishEdge } from '../write/structure.js';
import { EXPLICIT_UPDATE_RULE } from './list.js';

/** The origin rule of an `updates` edge that stands for two links of a chain whose middle node was removed, when not both were explicit updates. */
export const RELINK_RULE = 'relinked';

/** What removing one node changes in the supersession chains through it ({@link planRelink}). */
export interface RelinkPlan {
  /** The predecessors as they become: the removed id replaced, in place, by its successors; `active` when none is left. */
  nodes: MemoryNode[];
  /** New `updates` edges, successor → predecessor. */
  edges: MemoryEdge[];
}

/** What {@link planRelink} reads of the namespace. */
export interface RelinkInputs {
  /** The node removed, or undefined when its body is unknown (a damaged record: its predecessors are then only released). */
  removed: MemoryNode | undefined;
  /** The id of the node removed. */
  removedId: string;
  /** The `updates` edges of the removed node (both directions; other subtypes are ignored). */
  removedEdges: readonly MemoryEdge[];
  /** Every node naming `removedId` in its `supersededBy`. */
  predecessors: readonly MemoryNode[];
  /** True when the namespace holds this node (and it is not being removed). */
  exists: (id: string) => boolean;
  /** The `updates` edge with this id when one is stored. */
  storedEdge: (edgeId: string) => MemoryEdge | undefined;
  /** The namespace (for the new edges' ids). */
  namespace: string;
  /** Creation time of the new edges (ISO 8601). */
  nowIso: string;
}

/** The predecessors and edges that removing `removedId` changes (see the module comment). */
export function planRelink(x: RelinkInputs): RelinkPlan {
  const out: RelinkPlan = { nodes: [], edges: [] };
  const successors = (x.removed?.supersededBy ?? []).filter((s) => s !== x.removedId && x.exists(s));
  const updates = x.removedEdges.filter((e) => e.subtype === 'updates');
  const link = (from: string, to: string): MemoryEdge | undefined => updates.find((e) => e.from === from && e.to === to);
  const explicit = (e: MemoryEdge | undefined): boolean => e?.origin.kind === 'rule' && e.origin.by === EXPLICIT_UPDATE_RULE;
  const planned = new Set<string>();
  for (const p of x.predecessors) {
    const next: string[] = [];
    for (const by of p.supersededBy) {
      if (by !== x.removedId) next.push(by);
      else for (const s of successors) if (s !== p.id) next.push(s);
    }
    const supersededBy = [...new Set(next)];
    out.nodes.push({ ...p, supersededBy, status: supersededBy.length === 0 ? 'active' : p.status });
    const older = link(x.removedId, p.id);
    for (const s of successors) {
      if (s === p.id) continue;
      const newer = link(s, x.removedId);
      const both = explicit(older) && explicit(newer);
      const weight = both ? 1 : Math.min(older?.weight ?? 1, newer?.weight ?? 1);
      const e = finishEdge(x.namespace, { from: s, to: p.id, view: 'semantic', subtype: 'updates', weight, origin: { kind: 'rule', by: both ? EXPLICIT_UPDATE_RULE : RELINK_RULE } }, x.nowIso);
      // A stored edge stays, unless this one is an explicit update and it is not (the version chain wins).
      const stored = x.storedEdge(e.id);
      if (planned.has(e.id) || (stored !== undefined && (explicit(stored) || !both))) continue;
      planned.add(e.id);
      out.edges.push(e);
    }
  }
  return out;
}
