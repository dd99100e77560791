/**
 * Facts that change (issue 14; SPEC 4, maintenance's obsolescence in a bounded neighbourhood): the
 * state-update decision of System One (system-one/state-update.ts, the trained state-update head)
 * asked of one newer node against a bounded set of older nodes. At P ≥ the threshold the newer
 * node gets a semantic `updates` edge to the older one, which becomes `superseded` (its
 * `supersededBy` gains the newer id; it is never deleted or rewritten).
 *
 * Asked twice, both bounded: by the write path, against the write's ≤ K_w candidates (eq. (8)),
 * so a move is linked when it is written; and by maintenance, against the node's
 * `STATE_UPDATE_NEIGHBOURS` nearest older memories by vector, which "I live in Porto" and "we
 * moved to Berlin" may need (they share few words). Pure planning: the caller commits.
 *
 * @module
 */
import type { NamespaceState } from '../plane/namespace.js';
import type { MemoryEdge, MemoryNode } from '../types.js';
import { decideStateUpdate } from '../system-one/state-update.js';
import { finishEdge } from './structure.js';

/** The time a node holds a state from: its observation time, else its ingestion time (epoch ms). */
export function stateTimeOf(n: MemoryNode): number {
  return Date.parse(n.observedAt ?? n.ingestedAt);
}

/** What {@link planStateUpdates} adds. */
export interface StateUpdatePlan {
  /** New `updates` edges (newer → older), not already stored. */
  edges: MemoryEdge[];
  /** Older nodes as they become: `superseded`, the newer id added to `supersededBy`. */
  superseded: MemoryNode[];
}

/**
 * The state-update decisions of `node` (the newer side) against `olderIds`. An older node is
 * asked when it is loaded, is not `node`, is not deleted, was written before it (`seq`) and is not
 * already superseded by it; the decision itself answers 0 when the older one's time is later.
 * `superseded` maps ids to the latest planned form of a node (read first, updated in place), so
 * decisions of one batch accumulate.
 * @param threshold Decision threshold in [0,1] (`maintenanceThreshold`, SPEC 8: 0.85).
 * @param nowIso Creation time of the edges (ISO 8601).
 */
export function planStateUpdates(state: NamespaceState, node: MemoryNode, olderIds: Iterable<string>, threshold: number, nowIso: string, superseded: Map<string, MemoryNode>): StateUpdatePlan {
  const out: StateUpdatePlan = { edges: [], superseded: [] };
  if (node.status !== 'active') return out;
  const t = stateTimeOf(node);
  const seen = new Set<string>();
  for (const id of olderIds) {
    if (seen.has(id)) continue;
    seen.add(id);
    const other = superseded.get(id) ?? state.nodes.get(id);
    if (!other || other.id === node.id || other.status !== 'active' || other.seq >= node.seq) continue;
    const d = decideStateUpdate({ text: node.text, speaker: node.provenance.speaker, timeMs: t }, { text: other.text, speaker: other.provenance.speaker, timeMs: stateTimeOf(other) });
    if (d.probability < threshold) continue;
    const e = finishEdge(state.namespace, { from: node.id, to: other.id, view: 'semantic', subtype: 'updates', weight: d.probability, origin: { kind: 'system-one', by: d.model } }, nowIso);
    if (!state.hasEdge(e)) out.edges.push(e);
    const next: MemoryNode = { ...other, status: 'superseded', supersededBy: [...new Set([...other.supersededBy, node.id])] };
    superseded.set(other.id, next);
    out.superseded.push(next);
  }
  return out;
}
