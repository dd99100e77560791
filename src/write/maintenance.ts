/**
 * Write path step 7: maintenance (SPEC 4 step 7). Every J_c writes (and on demand), System One
 * looks at a bounded neighbourhood of each recently written node and flags redundancy,
 * contradiction, obsolescence and useful extra links. It adds edges and marks superseded nodes;
 * it never deletes evidence: a superseded node keeps its text, provenance and edges, gains the
 * id of the node that replaces it in `supersededBy`, and a semantic `updates` edge joins the
 * newer node to it. Only an older node (earlier time and earlier `seq`) can be superseded, and
 * never by or in favour of an assistant's turn (`holdsNoState`, write/state-updates.ts: advice is
 * not a state of a holder; issue 24). Nodes of different scopes (`userId` / `agentId`, issue 23)
 * are never judged together nor linked.
 * Pure planning: the memory commits the returned batch atomically.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { IndexHit } from '../plane/indexes/indexes.js';
import type { WriteBatch } from '../plane/store/storage.js';
import { CATALOGUE, questionKey, type MaintenanceState } from '../system-one/catalogue.js';
import { probability, type Controller, type DecisionContext } from '../system-one/controller.js';
import type { Question, SystemOneRequest } from '../system-one/wire.js';
import type { MemoryEdge, MemoryNode } from '../types.js';
import { passageMemory } from './passage.js';
import { finishEdge } from './structure.js';
import { holdsNoState, namesWhatItReplaces, planStateUpdates, sameScope, superseders } from './state-updates.js';
import type { StateReadings, StateUpdateHead } from '../system-one/state-update.js';
import { pairSignals, sideOf } from './signals.js';
import type { EdgeDraft } from './structure.js';

/** Neighbours looked at per node. */
export const MAINTENANCE_NEIGHBOURS = 5;

/**
 * Neighbours looked at per node for state updates (issue 14): the nearest older active memories
 * by vector, a bounded neighbourhood (SPEC 4) wider than {@link MAINTENANCE_NEIGHBOURS} because
 * "I live in Porto" and "we moved to Berlin" share few words.
 */
export const STATE_UPDATE_NEIGHBOURS = 20;

/** What a maintenance pass decided. */
export interface MaintenancePlan {
  batch: WriteBatch;
  /** Counts of the decisions taken. */
  counts: { redundant: number; contradiction: number; obsolete: number; link: number };
}

/**
 * Plans maintenance for `nodeIds` (the nodes written since the last pass): one batched request
 * (one request per node, one round trip).
 * @param threshold Decision threshold (SPEC 8: 0.85).
 * @param head The state-update head that decides (`parameters.stateUpdateHead`).
 * @param readings Side readings of the state-update head shared with the writes before it (issue
 *   25; see `planStateUpdates`): the decisions are the same with or without it.
 */
export async function planMaintenance(
  state: NamespaceState,
  nodeIds: readonly string[],
  controller: Controller,
  threshold: number,
  ctx: DecisionContext,
  nowIso: string,
  head: StateUpdateHead = 'logistic',
  readings?: StateReadings,
): Promise<MaintenancePlan> {
  // What the pass reads: the nodes, their edges, and their nearest neighbours (≤ 20 each).
  await state.loadNodes(nodeIds);
  await state.loadEdges(nodeIds, false);
  // One vector search per node serves both decisions below (the exact index's top-k is a
  // prefix of its top-k' for k < k').
  const neighbours = new Map<string, IndexHit[]>();
  for (const id of nodeIds) {
    const v = state.vectors.get(id);
    if (v !== undefined && state.vector.size > 0) neighbours.set(id, state.vector.search(v, Math.max(MAINTENANCE_NEIGHBOURS, STATE_UPDATE_NEIGHBOURS) + 1));
  }
  const neighbourIds = [...neighbours.values()].flatMap((hits) => hits.map((h) => h.id));
  await state.loadNodes(neighbourIds);
  await state.loadNodes(superseders(state, neighbourIds));
  const requests: Array<SystemOneRequest & { state: MaintenanceState }> = [];
  const owners: MemoryNode[] = [];
  for (const id of nodeIds) {
    const node = state.nodes.get(id);
    const v = state.vectors.get(id);
    if (!node || !v || node.status !== 'active') continue;
    // Only neighbours of the node's scope (issue 23: same `userId` / `agentId`) are judged, so no
    // pair across scopes is scored and no edge joins two users' memories; all ≤ 21 are loaded.
    const near = (neighbours.get(id) ?? [])
      .filter((h) => { const o = state.nodes.get(h.id); return o === undefined || sameScope(node, o); }) // an unknown one is dropped below
      .slice(0, MAINTENANCE_NEIGHBOURS + 1)
      .filter((h) => h.id !== id && state.nodes.get(h.id)?.status === 'active');
    if (near.length === 0) continue;
    const st: MaintenanceState = { kind: 'maintenance', node: passageMemory(node), candidates: [] };
    const questions: Record<string, Question> = {};
    for (const h of near.slice(0, MAINTENANCE_NEIGHBOURS)) {
      const other = state.nodes.get(h.id) as MemoryNode;
      st.candidates.push({ ...passageMemory(other), signals: pairSignals(sideOf(node, v), sideOf(other, state.vectors.get(h.id) as Float32Array), 0) });
      for (const q of ['maint.redundant', 'maint.contradiction', 'maint.obsolete', 'maint.link'] as const) questions[questionKey(q, h.id)] = CATALOGUE[q];
    }
    requests.push({ state: st, questions });
    owners.push(node);
  }
  const counts = { redundant: 0, contradiction: 0, obsolete: 0, link: 0 };
  const batch: WriteBatch = { putEdges: [], putNodes: [] };
  const superseded = new Map<string, MemoryNode>();
  if (requests.length === 0) {
    planNeighbourStateUpdates(state, nodeIds, neighbours, threshold, nowIso, batch, superseded, counts, head, readings);
    batch.putNodes = [...superseded.values()];
    return { batch, counts };
  }
  const decisions = await controller.askMany('maintenance', requests, ctx);
  const planned = new Set<string>(); // ids of batch.putEdges (one look-up per edge, not a scan of the batch)
  decisions.forEach(({ response }, i) => {
    const node = owners[i] as MemoryNode;
    const st = (requests[i] as SystemOneRequest & { state: MaintenanceState }).state;
    const origin = { kind: 'system-one' as const, by: response.model };
    for (const c of st.candidates) {
      const P = (q: Parameters<typeof questionKey>[0]) => probability(response, questionKey(q, c.ref), 0);
      const drafts: EdgeDraft[] = [];
      const obsolete = P('maint.obsolete');
      const other = state.nodes.get(c.ref) as MemoryNode;
      const newer = (node.observedAt ?? node.ingestedAt) >= (other.observedAt ?? other.ingestedAt) && node.seq > other.seq;
      // Only a holder's statement replaces a state: never an assistant's answer, on either side.
      // An explicit update's version replaces only what it named (write/state-updates.ts namesWhatItReplaces).
      if (obsolete >= threshold && newer && !holdsNoState(node) && !holdsNoState(other) && !namesWhatItReplaces(state, node.id)) {
        drafts.push({ from: node.id, to: c.ref, view: 'semantic', subtype: 'updates', weight: obsolete, origin });
        const prev = superseded.get(c.ref) ?? other;
        superseded.set(c.ref, { ...prev, status: 'superseded', supersededBy: [...new Set([...prev.supersededBy, node.id])] });
        counts.obsolete++;
      }
      const contra = P('maint.contradiction');
      if (contra >= threshold) {
        drafts.push({ from: node.id, to: c.ref, view: 'semantic', subtype: 'contradicts', weight: contra, origin });
        counts.contradiction++;
      }
      const red = P('maint.redundant');
      if (red >= threshold) {
        drafts.push({ from: node.id, to: c.ref, view: 'semantic', subtype: 'redundant', weight: red, origin });
        counts.redundant++;
      }
      const link = P('maint.link');
      if (link >= threshold && !state.edgesOf(node.id).some((e) => e.to === c.ref || e.from === c.ref)) {
        drafts.push({ from: node.id, to: c.ref, view: 'semantic', subtype: 'related', weight: link, origin });
        counts.link++;
      }
      for (const d of drafts) {
        const e = finishEdge(state.namespace, d, nowIso);
        // An edge already stored (an explicit update, an earlier pass) keeps its weight and origin.
        if (!state.hasEdge(e) && !planned.has(e.id)) {
          planned.add(e.id);
          (batch.putEdges as MemoryEdge[]).push(e);
        }
      }
    }
  });
  // After the configured System One, so a pair it already linked keeps its decision and origin.
  planNeighbourStateUpdates(state, nodeIds, neighbours, threshold, nowIso, batch, superseded, counts, head, readings);
  batch.putNodes = [...superseded.values()];
  return { batch, counts };
}

/**
 * State updates (issue 14) of maintenance: for each node written since the last pass, the
 * state-update decision (write/state-updates.ts, the trained head) over its
 * {@link STATE_UPDATE_NEIGHBOURS} nearest older memories; the write path asked its K_w candidates
 * already. Runs after the configured System One's decisions: pairs it already linked (the older
 * node's `supersededBy` in `superseded` holds the node) are skipped. Counted as `obsolete`. Adds
 * to `batch.putEdges` and `superseded`.
 */
function planNeighbourStateUpdates(
  state: NamespaceState,
  nodeIds: readonly string[],
  neighbours: ReadonlyMap<string, readonly IndexHit[]>,
  threshold: number,
  nowIso: string,
  batch: WriteBatch,
  superseded: Map<string, MemoryNode>,
  counts: MaintenancePlan['counts'],
  head: StateUpdateHead,
  readings: StateReadings | undefined,
): void {
  for (const id of nodeIds) {
    const node = state.nodes.get(id);
    if (!node || state.vectors.get(id) === undefined) continue;
    const hits = (neighbours.get(id) ?? []).slice(0, STATE_UPDATE_NEIGHBOURS + 1).map((h) => h.id);
    const plan = planStateUpdates(state, node, hits, threshold, nowIso, superseded, head, readings, namesWhatItReplaces(state, id));
    (batch.putEdges as MemoryEdge[]).push(...plan.edges);
    counts.obsolete += plan.superseded.length;
  }
}
