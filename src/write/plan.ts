/**
 * The write path for one observation, eq. (10): o_t → type → candidates → relations → M_t
 * (SPEC 4). Given a validated observation, its embedding and its types, it builds the node, the
 * deterministic edges, discovers ≤ K_w candidates, asks the one relation request and returns the
 * write batch. It does not touch the store: the memory commits the batch atomically.
 *
 * @module
 */
import { quantizeVector } from '../plane/indexes/vector-codec.js';
import type { MemoryParameters } from '../config.js';
import { contentTerms } from '../plane/text/text.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { stateMemory } from '../system-one/state.js';
import type { Controller, DecisionContext } from '../system-one/controller.js';
import type { MemoryEdge, MemoryNode, MemoryTypes } from '../types.js';
import { extractTimeRefs, toIso } from '../util/time.js';
import { discoverCandidates } from './candidates.js';
import { extractEntities, type KnownEntities } from './entities.js';
import { relationEdges, relationRequest, type RelationPair } from './relations.js';
import { pairSignals, sideOf, type PairSide } from './signals.js';
import { deterministicEdges, finishEdge } from './structure.js';
import { planStateUpdates, superseders } from './state-updates.js';
import type { CheckedObservation } from './validate.js';

/** Everything a planned write produces. */
export interface PlannedWrite {
  node: MemoryNode;
  edges: MemoryEdge[];
  /** Ids of the candidates judged (for maintenance). */
  candidates: string[];
  /**
   * Older candidates whose state the node updates (issue 14, write/state-updates.ts), as they
   * become: `superseded`, the node's id in `supersededBy`; their `updates` edges are in `edges`.
   * (When a candidate later in time updates the node, `node` itself comes back superseded.)
   */
  superseded: MemoryNode[];
}

/** Inputs of {@link planWrite} that were computed in batches before it (embedding, typing). */
export interface WriteInputs {
  id: string;
  checked: CheckedObservation;
  vector: Float32Array;
  encoder: string;
  types: MemoryTypes;
  nowIso: string;
  /** The node an explicit update replaces (`memory.update`): the caller links it; the state-update decision leaves it out. */
  replaces?: string;
}

/**
 * The stored form of an embedding: on the int8 grid (plane/indexes/vector-codec.ts), so stores and the
 * resident vector slab keep d + 4 bytes per vector (issue 13); cosine error below 10⁻³.
 */
export function storedVector(v: Float32Array): number[] {
  return quantizeVector(v);
}

/** Most salient content terms of a text, at most 16, in order of first appearance. */
export function keywordsOf(text: string): string[] {
  return [...new Set(contentTerms(text))].slice(0, 16);
}

/** Builds the node of a write (no edges). */
export function buildNode(namespace: string, input: WriteInputs, state: NamespaceState): MemoryNode {
  const { checked } = input;
  // Known names are looked up in the namespace's maps: copying them into a set per write would
  // cost O(distinct entities), which grows with the memory.
  const known: KnownEntities = { has: (name) => state.speakers.has(name) || state.mentions.has(name) };
  const entities = extractEntities(checked.text, known);
  const node: MemoryNode = {
    id: input.id,
    namespace,
    text: checked.text,
    ingestedAt: input.nowIso,
    provenance: checked.provenance,
    entities,
    keywords: keywordsOf(checked.text),
    timeRefs: extractTimeRefs(checked.text, checked.observedAtMs, checked.utcOffsetMinutes ?? 0, checked.timeZone),
    types: input.types,
    embedding: { encoder: input.encoder, vector: storedVector(input.vector) },
    status: 'active',
    supersededBy: [],
    seq: state.seq + 1,
  };
  if (checked.observedAtMs !== undefined) node.observedAt = toIso(checked.observedAtMs);
  if (checked.utcOffsetMinutes !== undefined && checked.utcOffsetMinutes !== 0) node.utcOffsetMinutes = checked.utcOffsetMinutes;
  if (checked.timeZone !== undefined) node.timeZone = checked.timeZone;
  return node;
}

/**
 * Plans one write against the current namespace state.
 * Cost: O(K_w) pair decisions in one System-One request, whatever the memory size.
 */
export async function planWrite(namespace: string, input: WriteInputs, state: NamespaceState, controller: Controller, params: Readonly<MemoryParameters>, ctx: DecisionContext): Promise<PlannedWrite> {
  const node = buildNode(namespace, input, state);
  // The bodies this write reads: the namespace's last node and the session's (deterministic
  // edges), and the ≤ K_w candidates (SPEC 4): never more, whatever the memory size.
  await state.loadNodes(state.lastId !== undefined ? [state.lastId] : []);
  const drafts = deterministicEdges(node, state, params.closeInTimeMs);
  await state.lexical.ready?.(); // a store-kept index takes its lock now, without blocking
  const found = discoverCandidates(state, node.text, input.vector, node.entities, params.writeCandidates, params.rrfK, node.keywords, params.writeProbeMaxDf);
  const candidateIds = found.map((c) => c.id);
  await state.loadNodes(candidateIds);
  const newSide: PairSide = { vector: input.vector, entities: node.entities, keywords: node.keywords, seq: node.seq };
  if (input.checked.observedAtMs !== undefined) newSide.observedAtMs = input.checked.observedAtMs;
  if (node.provenance.sessionId !== undefined) newSide.sessionId = node.provenance.sessionId;
  if (node.provenance.speaker !== undefined) newSide.speaker = node.provenance.speaker;
  const pairs: RelationPair[] = [];
  for (const c of found) {
    const other = state.nodes.get(c.id) as MemoryNode;
    const signals = pairSignals(newSide, sideOf(other, state.vectors.get(c.id) as Float32Array), c.lexical);
    pairs.push({ candidate: stateMemory(other), signals, ordered: node.observedAt !== undefined && other.observedAt !== undefined });
  }
  if (pairs.length > 0) {
    const { response } = await controller.ask('relation', relationRequest(stateMemory(node), pairs), ctx);
    const exact = new Set(drafts.filter((d) => d.view === 'entity').map((d) => d.to));
    drafts.push(...relationEdges(node.id, pairs, response, params.thetaRel, exact));
  }
  const seen = new Set<string>();
  const edges: MemoryEdge[] = [];
  for (const d of drafts) {
    if (d.from === d.to) continue;
    const e = finishEdge(namespace, d, input.nowIso);
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    edges.push(e);
  }
  // Facts that change, decided when written (issue 14): the state-update head on the same ≤ K_w
  // candidates, already loaded; maintenance later looks wider.
  await state.loadNodes(superseders(state, candidateIds));
  const planned = new Map<string, MemoryNode>();
  const updates = planStateUpdates(state, node, candidateIds.filter((id) => id !== input.replaces), params.maintenanceThreshold, input.nowIso, planned, params.stateUpdateHead);
  for (const e of updates.edges) if (!seen.has(e.id)) edges.push(e);
  // A history line written after the news that replaced it is born superseded.
  const self = planned.get(node.id) ?? node;
  planned.delete(node.id);
  return { node: self, edges, candidates: candidateIds, superseded: [...planned.values()] };
}
