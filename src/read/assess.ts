/**
 * Scoring of the read path: System One's assessment of candidates in batched requests (a_v,
 * ℓ_v, n_v, c_v) and eq. (23), the beam, the reassessment round (26) and the stop estimates
 * (17)-(20). Every call goes through the controller, so it counts against the cap and deadline.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { CATALOGUE, questionKey, type CandidateState, type StopState } from '../system-one/catalogue.js';
import { probability, type Controller, type DecisionContext } from '../system-one/controller.js';
import { stateMemory } from '../system-one/state.js';
import type { Question, SystemOneRequest, SystemOneResponse } from '../system-one/wire.js';
import type { MemoryEdge, MemoryNode } from '../types.js';
import { transitionScore, type ScoreParts } from './score.js';
import { candidateSignals, type QueryContext } from './signals.js';
import type { StopEstimates } from './stop.js';
import type { TraceRound } from './trace.js';

/** A scored candidate. */
export interface Scored {
  node: MemoryNode;
  score: number;
  parts: ScoreParts;
  /** Relevance a_v (kept for the stop state). */
  relevance: number;
  hops: number;
}

/** z_v mapped to [0,1]. */
function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** How many of the best candidates the reassessment round looks at again. */
export const REASSESS_TOP = 40;

/**
 * The reassessment round: one candidate request over the {@link REASSESS_TOP} best scored nodes
 * whose signals add the first assessment's a_v and the best a_v of the neighbouring turns; the
 * answers replace a_v, n_v and c_v, and eq. (23) is applied again (π_e, p_g, ℓ_v unchanged).
 */
export async function reassess(
  q: QueryContext,
  state: NamespaceState,
  controller: Controller,
  ctx: DecisionContext,
  params: Readonly<MemoryParameters>,
  scored: Map<string, Scored>,
  centroid: Float32Array | undefined,
): Promise<void> {
  const top = [...scored.values()].sort((a, b) => b.score - a.score || a.node.seq - b.node.seq).slice(0, REASSESS_TOP);
  await loadWindows(
    state,
    top.map((s) => s.node.id),
  );
  const cs: CandidateState = { kind: 'candidates', query: q.query, candidates: [] };
  const questions: Record<string, Question> = {};
  for (const s of top) {
    let neighbour = 0;
    for (const e of state.edgesOfKind(s.node.id, 'precedes')) {
      if (e.weight < 1) continue;
      const r = scored.get(e.from === s.node.id ? e.to : e.from)?.relevance ?? 0;
      if (r > neighbour) neighbour = r;
    }
    const signals = { ...candidateSignals(s.node, q, state, s.hops, s.parts.pi, centroid), reassess: 1, priorRelevance: s.relevance, neighbourRelevance: neighbour };
    cs.candidates.push({ ...stateMemory(s.node), signals });
    for (const id of ['cand.relevance', 'cand.new_information', 'cand.supports_evidence'] as const) questions[questionKey(id, s.node.id)] = CATALOGUE[id];
  }
  const { response } = await controller.ask('reassess', { state: cs, questions }, ctx);
  for (const s of top) {
    const id = s.node.id;
    const parts: ScoreParts = {
      ...s.parts,
      a: probability(response, questionKey('cand.relevance', id), s.parts.a),
      n: probability(response, questionKey('cand.new_information', id), s.parts.n),
      c: probability(response, questionKey('cand.supports_evidence', id), s.parts.c),
    };
    scored.set(id, { ...s, parts, relevance: parts.a, score: transitionScore(parts, params.lambdas) }); // (23)
  }
}

/** The w best candidates, ties by `seq`. */
export function topBeam(list: Scored[], w: number): Scored[] {
  return [...list].sort((a, b) => b.score - a.score || a.node.seq - b.node.seq).slice(0, w);
}

/** The unit-length centroid of the beam's vectors; undefined for an empty beam or a zero sum. */
export function centroidOf(beam: ReadonlyArray<{ node: MemoryNode }>, state: NamespaceState): Float32Array | undefined {
  if (beam.length === 0) return undefined;
  const first = state.vectors.get((beam[0] as { node: MemoryNode }).node.id) as Float32Array;
  const c = new Float32Array(first.length);
  for (const b of beam) {
    const v = state.vectors.get(b.node.id) as Float32Array;
    for (let i = 0; i < c.length; i++) c[i] = (c[i] as number) + (v[i] as number);
  }
  let norm = 0;
  for (let i = 0; i < c.length; i++) norm += (c[i] as number) ** 2;
  norm = Math.sqrt(norm);
  if (norm === 0) return undefined;
  for (let i = 0; i < c.length; i++) c[i] = (c[i] as number) / norm;
  return c;
}

/**
 * Loads what {@link candidateSignals} reads of these candidates: their `precedes` edges (not
 * the whole edge lists: a candidate is not expanded) and the turns next to them (`precedes`
 * edges of weight 1, the candidate's window).
 */
async function loadWindows(state: NamespaceState, ids: readonly string[]): Promise<void> {
  await state.loadEdgesOfKind(ids, 'precedes');
  const window: string[] = [];
  for (const id of ids) for (const e of state.edgesOfKind(id, 'precedes')) if (e.weight >= 1) window.push(e.from === id ? e.to : e.from);
  await state.loadNodes(window);
}

/** One batched candidate request; scores each candidate with eq. (23). */
export async function scoreCandidates(
  items: Array<{ node: MemoryNode; hops: number; pg: number; edge: { e: MemoryEdge } | undefined }>,
  q: QueryContext,
  state: NamespaceState,
  controller: Controller,
  ctx: DecisionContext,
  params: Readonly<MemoryParameters>,
  centroid: Float32Array | undefined,
): Promise<Map<string, Scored>> {
  const out = new Map<string, Scored>();
  if (items.length === 0) return out;
  await loadWindows(state, items.map((it) => it.node.id));
  const cs: CandidateState = { kind: 'candidates', query: q.query, candidates: [] };
  const questions: Record<string, Question> = {};
  const signals = new Map<string, ReturnType<typeof candidateSignals>>();
  for (const it of items) {
    const pi = it.edge ? it.edge.e.weight : 1;
    const sig = candidateSignals(it.node, q, state, it.hops, pi, centroid);
    signals.set(it.node.id, sig);
    const entry: CandidateState['candidates'][number] = { ...stateMemory(it.node), signals: sig };
    if (it.edge) entry.via = { view: it.edge.e.view, subtype: it.edge.e.subtype, weight: it.edge.e.weight };
    cs.candidates.push(entry);
    for (const id of ['cand.relevance', 'cand.relation_usefulness', 'cand.new_information', 'cand.supports_evidence'] as const) {
      questions[questionKey(id, it.node.id)] = CATALOGUE[id];
    }
  }
  const request: SystemOneRequest = { state: cs, questions };
  const { response } = await controller.ask('candidates', request, ctx);
  for (const it of items) {
    const id = it.node.id;
    const sig = signals.get(id) as ReturnType<typeof candidateSignals>;
    const a = probability(response, questionKey('cand.relevance', id), 0);
    const parts: ScoreParts = {
      z: clamp01(sig.cosine),
      a,
      pg: it.pg,
      l: it.edge ? probability(response, questionKey('cand.relation_usefulness', id), 0) : 1,
      n: probability(response, questionKey('cand.new_information', id), 0),
      pi: it.edge ? it.edge.e.weight : 1,
      c: probability(response, questionKey('cand.supports_evidence', id), 0),
    };
    out.set(id, { node: it.node, score: transitionScore(parts, params.lambdas), parts, relevance: a, hops: it.hops }); // (23)
  }
  return out;
}

/** One stop request after round d: s_d, u_d, m_d, c_d (17)-(20). */
export async function estimateStop(
  query: string,
  beam: readonly Scored[],
  round: number,
  maxDepth: number,
  h: number,
  last: TraceRound,
  scored: ReadonlyMap<string, Scored>,
  state: NamespaceState,
  controller: Controller,
  ctx: DecisionContext,
): Promise<StopEstimates> {
  const kept = [...scored.values()].sort((a, b) => b.score - a.score);
  const lastRound = kept.filter((s) => s.hops === round);
  let contradictions = 0;
  const keptIds = new Set(kept.slice(0, 10).map((s) => s.node.id));
  await state.loadEdgesOfKind(keptIds, 'contradicts');
  for (const id of keptIds) for (const e of state.edgesOfKind(id, 'contradicts')) if (keptIds.has(e.from === id ? e.to : e.from)) contradictions++;
  const st: StopState = {
    kind: 'stop',
    query,
    evidence: kept.slice(0, 5).map((s) => stateMemory(s.node)),
    signals: {
      round,
      maxDepth,
      beamScores: beam.map((b) => b.score),
      bestRelevance: kept[0]?.relevance ?? 0,
      lastRoundGain: lastRound.length > 0 ? lastRound.reduce((a, s) => a + s.relevance, 0) / lastRound.length : 0,
      lastRoundNew: last.proposed,
      frontier: beam.length,
      contradictions: contradictions / 2,
      multiHop: h,
    },
  };
  const ids = ['stop.sufficient', 'stop.continue_useful', 'stop.missing', 'stop.contradiction'] as const;
  const { response } = await controller.ask('stop', { state: st, questions: Object.fromEntries(ids.map((id) => [id, CATALOGUE[id]])) }, ctx);
  return readStop(response);
}

function readStop(r: SystemOneResponse): StopEstimates {
  return {
    sufficient: probability(r, 'stop.sufficient', 0),
    continueUseful: probability(r, 'stop.continue_useful', 1),
    missing: probability(r, 'stop.missing', 1),
    contradiction: probability(r, 'stop.contradiction', 0),
  };
}
