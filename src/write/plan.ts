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
import { contentTerms, normalizeText } from '../plane/text/text.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { Controller, DecisionContext } from '../system-one/controller.js';
import type { StateReadings } from '../system-one/state-update.js';
import type { SystemOneRequest, SystemOneResponse } from '../system-one/wire.js';
import type { MemoryEdge, MemoryNode, MemoryTypes } from '../types.js';
import { extractTimeRefs, toIso } from '../util/time.js';
import { discoverCandidates } from './candidates.js';
import { extractEntities, type KnownEntities } from './entities.js';
import { relationEdges, relationRequest, type RelationPair } from './relations.js';
import { passageMemory, passageOf } from './passage.js';
import { pairSignals, sideOf, type PairSide } from './signals.js';
import { deterministicEdges, finishEdge, loadScopeMentions, structureReads, type EdgeDraft } from './structure.js';
import { planStateUpdates, sameScope, superseders } from './state-updates.js';
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

/**
 * Most salient content terms of a text, at most 16, in order of first appearance. A long text's
 * are read from its passage (write/passage.ts; the first 16 terms lie in its first sentences), so
 * they cost O(1) in its length.
 */
export function keywordsOf(text: string): string[] {
  return [...new Set(contentTerms(passageOf(text)))].slice(0, 16);
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
 * A write planned up to its relation request (see {@link prepareWrite}): everything
 * {@link planWrite} decides without System One's relation answers, which decide nothing but the
 * relation edges of the node itself.
 */
export interface PreparedWrite {
  /** The node as planned (superseded already when a later history line updates it). */
  node: MemoryNode;
  /** Deterministic edge drafts (structure.ts), in their order. */
  drafts: EdgeDraft[];
  /** The (new, candidate) pairs the relation request asks about. */
  pairs: RelationPair[];
  /** The relation request; absent when the write has no candidate. */
  request?: SystemOneRequest;
  /** Ids the deterministic entity rule joined the node to (no second entity edge). */
  exactEntity: ReadonlySet<string>;
  /** Ids of the candidates. */
  candidates: string[];
  /** `updates` edges of the state-update decision (not yet stored). */
  updateEdges: MemoryEdge[];
  /** Older candidates as the state-update decision leaves them (see {@link PlannedWrite.superseded}). */
  superseded: MemoryNode[];
}

/**
 * Plans one write against the current namespace state, all but its relation answers: the node,
 * its deterministic edges, its ≤ K_w candidates, the relation request over them (not asked), and
 * the state-update decisions (issue 14) on the same candidates, which do not depend on the
 * relation answers. {@link finishWrite} turns it and the relation answers into the
 * {@link PlannedWrite} that {@link planWrite} returns, so a bulk write (issue 25) can plan the
 * observations of a chunk one after another and ask their relation requests in one batch.
 * @param readings Side readings of the state-update head shared across writes (each text read
 *   once; the decisions are the same with or without it).
 */
export async function prepareWrite(namespace: string, input: WriteInputs, state: NamespaceState, params: Readonly<MemoryParameters>, readings?: StateReadings): Promise<PreparedWrite> {
  const node = buildNode(namespace, input, state);
  // The bodies this write reads: the namespace's last node and the session's (deterministic
  // edges), and the ≤ K_w candidates (SPEC 4): never more, whatever the memory size.
  // Scope (issue 23): no edge, rule or judged, joins nodes of different `userId` / `agentId`, and
  // no pair across scopes is put to System One at all. The bodies tested are loaded first.
  const inScope = (id: string): boolean => {
    const other = state.nodes.get(id);
    return other !== undefined && sameScope(node, other);
  };
  await state.loadNodes(structureReads(node, state));
  await loadScopeMentions(node, state, inScope);
  const drafts = deterministicEdges(node, state, params.closeInTimeMs, inScope);
  await state.lexical.ready?.(); // a store-kept index takes its lock now, without blocking
  // In a namespace of several scopes, candidates are retrieved within the node's scope (topped
  // up to K_w, issue 22/24) and the "previous turn" is the scope's last node.
  const shared = !state.scopes.only(node.provenance.metadata);
  const size = state.scopes.count(node.provenance.metadata);
  const scope = shared ? { keep: inScope, load: (ids: readonly string[]) => state.loadNodes(ids), ...(size !== undefined ? { size } : {}) } : undefined;
  const lastId = state.scopes.lastIdOf(node.provenance.metadata);
  const prev = lastId !== undefined && (!shared || inScope(lastId)) ? lastId : undefined;
  const discovered = await discoverCandidates(state, node.text, input.vector, node.entities, params.writeCandidates, params.rrfK, node.keywords, params.writeProbeMaxDf, scope, prev);
  await state.loadNodes(discovered.map((c) => c.id));
  const found = discovered.filter((c) => inScope(c.id));
  const candidateIds = found.map((c) => c.id);
  const newSide: PairSide = { vector: input.vector, entities: node.entities, keywords: node.keywords, seq: node.seq };
  if (input.checked.observedAtMs !== undefined) newSide.observedAtMs = input.checked.observedAtMs;
  if (node.provenance.sessionId !== undefined) newSide.sessionId = node.provenance.sessionId;
  if (node.provenance.speaker !== undefined) newSide.speaker = node.provenance.speaker;
  const pairs: RelationPair[] = [];
  const ownText = normalizeText(node.text);
  for (const c of found) {
    const other = state.nodes.get(c.id) as MemoryNode;
    const signals = pairSignals(newSide, sideOf(other, state.vectors.get(c.id) as Float32Array), c.lexical);
    // Shared namespace: the turn distance within the scope, as in a namespace of its own.
    if (shared) signals.seqGap = state.scopes.seqGap(node.provenance.metadata, other.seq) ?? signals.seqGap;
    const pair: RelationPair = { candidate: passageMemory(other), signals, ordered: node.observedAt !== undefined && other.observedAt !== undefined };
    if (other.text === node.text || normalizeText(other.text) === ownText) pair.sameText = true;
    pairs.push(pair);
  }
  const exactEntity = new Set(drafts.filter((d) => d.view === 'entity').map((d) => d.to));
  // Facts that change, decided when written (issue 14): the state-update head on the same ≤ K_w
  // candidates, already loaded; maintenance later looks wider.
  await state.loadNodes(superseders(state, candidateIds));
  const planned = new Map<string, MemoryNode>();
  const updates = planStateUpdates(state, node, candidateIds.filter((id) => id !== input.replaces), params.maintenanceThreshold, input.nowIso, planned, params.stateUpdateHead, readings, input.replaces !== undefined);
  // A history line written after the news that replaced it is born superseded.
  const self = planned.get(node.id) ?? node;
  planned.delete(node.id);
  const out: PreparedWrite = { node: self, drafts, pairs, exactEntity, candidates: candidateIds, updateEdges: updates.edges, superseded: [...planned.values()] };
  if (pairs.length > 0) out.request = relationRequest(passageMemory(node), pairs);
  return out;
}

/**
 * The planned write of a {@link PreparedWrite} given the answers to its relation request
 * (`undefined` when it had none): deterministic and relation edges (eq. (9), P ≥ θ_rel), one per
 * id in that order, then the `updates` edges. Pure.
 */
export function finishWrite(namespace: string, prepared: PreparedWrite, response: SystemOneResponse | undefined, params: Readonly<MemoryParameters>, nowIso: string): PlannedWrite {
  const drafts = [...prepared.drafts];
  if (response !== undefined) drafts.push(...relationEdges(prepared.node.id, prepared.pairs, response, params.thetaRel, prepared.exactEntity));
  const seen = new Set<string>();
  const edges: MemoryEdge[] = [];
  for (const d of drafts) {
    if (d.from === d.to) continue;
    const e = finishEdge(namespace, d, nowIso);
    if (seen.has(e.id)) continue;
    seen.add(e.id);
    edges.push(e);
  }
  for (const e of prepared.updateEdges) if (!seen.has(e.id)) edges.push(e);
  return { node: prepared.node, edges, candidates: prepared.candidates, superseded: prepared.superseded };
}

/**
 * Plans one write against the current namespace state: {@link prepareWrite}, its one relation
 * request asked, then {@link finishWrite}.
 * Cost: O(K_w) pair decisions in one System-One request, whatever the memory size.
 * @param readings See {@link prepareWrite}.
 */
export async function planWrite(namespace: string, input: WriteInputs, state: NamespaceState, controller: Controller, params: Readonly<MemoryParameters>, ctx: DecisionContext, readings?: StateReadings): Promise<PlannedWrite> {
  const prepared = await prepareWrite(namespace, input, state, params, readings);
  const response = prepared.request === undefined ? undefined : (await controller.ask('relation', prepared.request, ctx)).response;
  return finishWrite(namespace, prepared, response, params, input.nowIso);
}
