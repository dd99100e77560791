/**
 * The read path, eq. (11)-(26) (SPEC 6): route → budget → anchors → loop of
 * assess / stop / expand / score → top K with a trace. System One is asked through the
 * controller (so every call counts against the cap and deadline and can fall back); everything
 * else is deterministic.
 *
 * Score scale: see `score.ts` — one [0,1] scale for anchors and expanded nodes.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import { JevMemError } from '../errors.js';
import { contentTerms, detectLanguage } from '../plane/text/text.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { CATALOGUE, questionKey, type CandidateState, type RoutingState, type StopState } from '../system-one/catalogue.js';
import { probability, type Controller, type DecisionContext, type DecisionRecord } from '../system-one/controller.js';
import type { Question, SystemOneRequest, SystemOneResponse } from '../system-one/wire.js';
import { VIEWS, type MemoryEdge, type MemoryNode, type RecalledMemory, type RecalledTimeRef, type View } from '../types.js';
import { certaintyOf, localWhen, toLocalIso } from '../util/time.js';
import { stateMemory } from '../system-one/state.js';
import { activeViews, allocationWeights, depthFor, viewBudgets } from './budget.js';
import { reciprocalRankFusion } from '../plane/indexes/fusion.js';
import { recencyAdjusted, recencyFactor, transitionScore, type ScoreParts } from './score.js';
import { candidateSignals, datesNamed, hasVectorEvidence, namespaceIdf, NEUTRAL_COSINE, queryNames, sessionLexicalScores, softQuery, speakersIn, type QueryContext, type TermVectorLookup } from './signals.js';
import { stopDecision, type StopEstimates, type StopReason } from './stop.js';
import type { RecallTrace, TraceAnchor, TraceExpansion, TraceRound } from './trace.js';
import { lexicalAnchorQuery } from './lexical-query.js';
import { guardedScores, guardWeight } from './guard.js';
import { runHop } from './hop.js';

/** The `hops` signal of a node the hop found: one step from its seeds (the dev runs of docs/bench/HOP.md saw no difference with 0). */
const HOP_HOPS = 1;

/** Switches for ablations (issue 4) and callers who want less work. */
export interface RecallSwitches {
  /** Expand along graph edges. @default true */
  graph?: boolean;
  /** Ask System One for routing; off = uniform p_g = 1, h = 1, r = 0 (uniform budgets). @default true */
  routing?: boolean;
  /** Apply the stop rules (21)-(22); off = run to depth / budget / limits. @default true */
  stopping?: boolean;
  /**
   * The hop (issue 24, `hop.ts`): a second retrieval round seeded by the first round's best
   * evidence when System One's h(q) ≥ θ_hop (`hopThreshold`); off = one round (the ablation
   * `no-hop`). @default true
   */
  hop?: boolean;
}

/** Inputs of one recall. */
export interface RecallInput {
  query: string;
  queryVector: Float32Array;
  /** K override; default K (or K for multi-hop when h ≥ 0.5). */
  k?: number;
  signal?: AbortSignal;
  switches?: RecallSwitches;
  /** Time spent embedding the query, ms (reported in the trace). */
  embedMs: number;
  /** Absolute deadline (ms since epoch). */
  deadline: number;
  /** Time window: keep only memories whose event time (or, without one, observation time) is at or after this instant (epoch ms). */
  afterMs?: number;
  /** Time window: keep only memories whose event time (or observation time) is before this instant (epoch ms, exclusive). */
  beforeMs?: number;
  /**
   * Candidate filter (issue 23; read/filter.ts, the memory's scope and metadata filter): like the
   * time window, it chooses the anchors among the nodes it keeps and filters the final ranking.
   */
  keep?: (node: MemoryNode) => boolean;
  /** Languages the encoder's vectors cover (`Encoder.languages`); absent: all. */
  vectorLanguages?: readonly string[];
  /** Word vectors of the encoder (`Encoder.termVectors`, src/encoder/encoder.ts); without them `softWindowOverlap` is 0. */
  termVectors?: TermVectorLookup;
}

/** What a recall returns. */
export interface RecallOutput {
  memories: RecalledMemory[];
  trace: RecallTrace;
}

interface Scored {
  node: MemoryNode;
  score: number;
  parts: ScoreParts;
  /** Relevance a_v (kept for the stop state). */
  relevance: number;
  hops: number;
}

const LEXICAL_POOL = 200;
const VECTOR_POOL = 100;
/** How much deeper both anchor pools are searched when recall has a time window (their out-of-window hits are dropped). */
export const WINDOW_POOL_FACTOR = 3;

function emptyViews(): Record<View, number> {
  return { causal: 0, entity: 0, semantic: 0, temporal: 0 };
}

/** z_v mapped to [0,1]. */
function clamp01(x: number): number {
  return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** Runs the read path over one namespace. */
export async function runRecall(state: NamespaceState, controller: Controller, params: Readonly<MemoryParameters>, input: RecallInput): Promise<RecallOutput> {
  const t0 = performance.now();
  const sw = { graph: input.switches?.graph !== false, routing: input.switches?.routing !== false, stopping: input.switches?.stopping !== false, hop: input.switches?.hop !== false };
  const decisions: DecisionRecord[] = [];
  const ctx: DecisionContext = { callsLeft: params.maxControllerCalls, deadline: input.deadline, log: decisions };
  if (input.signal) ctx.signal = input.signal;
  const checkAbort = (): void => {
    if (input.signal?.aborted) throw new JevMemError('ABORTED', 'recall was aborted by the caller', { cause: input.signal.reason });
  };

  // ---- query context ------------------------------------------------------------------------
  const { speakers, mentions } = speakersIn(input.query, state);
  const language = state.dominantLanguage;
  const timed = input.afterMs !== undefined || input.beforeMs !== undefined;
  const windowed = timed || input.keep !== undefined;
  const passes = (n: MemoryNode): boolean => (!timed || withinWindow(n, input.afterMs ?? -Infinity, input.beforeMs ?? Infinity)) && (input.keep?.(n) ?? true);
  const poolFactor = windowed ? WINDOW_POOL_FACTOR : 1;
  await state.lexical.ready?.(); // a store-kept index takes its lock now, without blocking
  let lexHits = state.lexical.search(lexicalAnchorQuery(input.query, state.keywordDf, params.recallQueryMaxDf, language), LEXICAL_POOL * poolFactor, language);
  // No vector evidence (issue 15): a zero query vector, or a query in a language the encoder does
  // not cover, would rank nodes by noise; the vector side then gives no anchors and every
  // candidate the same neutral cosine (signals.ts NEUTRAL_COSINE).
  const vectorEvidence = hasVectorEvidence(input.queryVector) && (input.vectorLanguages === undefined || input.vectorLanguages.includes(detectLanguage(input.query, language)));
  let vecHits = vectorEvidence && state.vector.size > 0 ? state.vector.search(input.queryVector, VECTOR_POOL * poolFactor) : [];
  if (windowed) {
    // A time window (issue 14) chooses the anchors among memories inside it: both pools, searched
    // WINDOW_POOL_FACTOR× deeper, keep their in-window hits (bodies read for their time
    // references), so an in-window memory that ranks below out-of-window ones is still an anchor.
    await state.loadNodes([...new Set([...lexHits, ...vecHits].map((h) => h.id))]);
    const inside = (id: string): boolean => {
      const n = state.nodes.get(id);
      return n !== undefined && passes(n);
    };
    lexHits = lexHits.filter((h) => inside(h.id)).slice(0, LEXICAL_POOL);
    vecHits = vecHits.filter((h) => inside(h.id)).slice(0, VECTOR_POOL);
  }
  const bestLex = lexHits[0]?.score ?? 0;
  const q: QueryContext = {
    query: input.query,
    vector: input.queryVector,
    terms: new Set(contentTerms(input.query, language)),
    speakersNamed: speakers,
    mentions,
    lexical: new Map(lexHits.map((h, i) => [h.id, { score: bestLex > 0 ? h.score / bestLex : 0, rank: i + 1 }])),
    vectorRank: new Map(vecHits.map((h, i) => [h.id, i + 1])),
    rrf: new Map(),
    bestSession: undefined,
    bestLexicalSession: lexHits[0] ? state.sessionOf(lexHits[0].id) : undefined,
    bestCosine: vectorEvidence ? (vecHits[0]?.score ?? 0) : NEUTRAL_COSINE,
    vectorEvidence,
    ...datesNamed(input.query),
  };
  q.sessionLexical = sessionLexicalScores(q.lexical, state);
  q.names = queryNames(input.query, speakers);
  // Without vector evidence the soft match keeps its exact (same-stem) part only.
  const soft = softQuery(input.query, state, vectorEvidence || input.termVectors === undefined ? input.termVectors : (words) => words.map(() => undefined));
  if (soft !== undefined) q.soft = soft;

  // ---- route, eq. (11)-(15) -------------------------------------------------------------------
  const tRoute = performance.now();
  let p: Record<View, number> = { causal: 1, entity: 1, semantic: 1, temporal: 1 };
  let h = 1;
  let r = 0;
  if (sw.routing) {
    const routing: RoutingState = { kind: 'routing', query: input.query, mentions };
    const ids = ['route.semantic', 'route.temporal', 'route.causal', 'route.entity', 'route.multi_hop', 'route.recency'] as const;
    const { response } = await controller.ask('routing', { state: routing, questions: Object.fromEntries(ids.map((id) => [id, CATALOGUE[id]])) }, ctx);
    p = {
      semantic: probability(response, 'route.semantic', 1),
      temporal: probability(response, 'route.temporal', 1),
      causal: probability(response, 'route.causal', 1),
      entity: probability(response, 'route.entity', 1),
    };
    h = probability(response, 'route.multi_hop', 0.5);
    r = probability(response, 'route.recency', 0);
  }
  let active = activeViews(p, params.thetaAct); // (12)
  if (active.length === 0) {
    // No view reaches θ_act: keep the single most probable one so the loop can still expand.
    const best = [...VIEWS].sort((a, b) => p[b] - p[a])[0] as View;
    active = [best];
  }
  const w = allocationWeights(p, active, params.gamma); // (13)
  const given = viewBudgets(w, active, params.budget, params.minPerView); // (14)
  const used = emptyViews();
  const maxDepth = sw.graph ? depthFor(h, params.maxDepth) : 0; // (15)
  const k = input.k ?? (h >= 0.5 ? params.kMultiHop : params.k);
  const routeMs = performance.now() - tRoute;
  checkAbort();

  // ---- anchors, eq. (16) ----------------------------------------------------------------------
  const tAnchors = performance.now();
  const fused = reciprocalRankFusion([vecHits.slice(0, params.anchors), lexHits.slice(0, params.anchors)], params.rrfK).slice(0, params.anchors);
  for (const f of fused) q.rrf.set(f.id, f.rrf);
  // The anchors are the first bodies this recall reads from the store (issue 13); the pools'
  // other hits are read through the directory (sessions) and the index scores only.
  await state.loadNodes(fused.map((f) => f.id));
  const bestAnchor = fused[0] ? state.nodes.get(fused[0].id) : undefined;
  const bestSid = bestAnchor?.provenance.sessionId;
  q.bestSession = bestSid !== undefined ? state.sessions.get(bestSid)?.ordinal : undefined;

  const visited = new Set<string>();
  const scored = new Map<string, Scored>();
  const anchorNodes = fused.map((f) => state.nodes.get(f.id)).filter((n): n is MemoryNode => n !== undefined);
  for (const n of anchorNodes) visited.add(n.id);
  const anchorScores = await scoreCandidates(
    anchorNodes.map((n) => ({ node: n, hops: 0, pg: 1, edge: undefined })),
    q,
    state,
    controller,
    ctx,
    params,
    undefined,
  );
  const anchors: TraceAnchor[] = [];
  fused.forEach((f) => {
    const s = anchorScores.get(f.id);
    if (!s) return;
    scored.set(f.id, s);
    anchors.push({ id: f.id, rrf: f.rrf, vectorRank: f.ranks[0] ?? 0, lexicalRank: f.ranks[1] ?? 0, score: s.score, parts: s.parts });
  });
  let beam = topBeam([...scored.values()], params.beamWidth);
  const anchorsMs = performance.now() - tAnchors;

  // ---- loop, eq. (17)-(26) --------------------------------------------------------------------
  const tLoop = performance.now();
  const expansions: TraceExpansion[] = [];
  const rounds: TraceRound[] = [{ round: 0, proposed: anchorNodes.length, beam: beam.length }];
  const walk: Walk = { active, used, given, p, visited, edgesInspected: 0 };
  /** Scores expansions with eq. (23), merges them and records them in the trace. */
  const scoreExpansions = async (proposals: Proposal[], round: number, centroid: Float32Array | undefined): Promise<Map<string, Scored>> => {
    const newScores = await scoreCandidates(proposals, q, state, controller, ctx, params, centroid);
    for (const pr of proposals) {
      const s = newScores.get(pr.node.id);
      if (!s) continue;
      scored.set(pr.node.id, s);
      expansions.push({
        round,
        from: pr.edge.from,
        to: pr.node.id,
        edge: { id: pr.edge.e.id, view: pr.edge.e.view, subtype: pr.edge.e.subtype, weight: pr.edge.e.weight, direction: pr.edge.direction },
        parts: s.parts,
        score: s.score,
      });
    }
    return newScores;
  };
  let stopReason: StopReason = maxDepth === 0 ? 'depth' : 'frontier-empty';
  let reached = 0;
  for (let d = 0; ; d++) {
    checkAbort();
    if (Date.now() > input.deadline) {
      stopReason = 'deadline';
      break;
    }
    // assess: System One's s_d, u_d, m_d, c_d after round d (17)-(20), stop rules (21)-(22)
    if (sw.stopping && scored.size > 0) {
      if (ctx.callsLeft <= 0) {
        stopReason = 'controller-limit';
        break;
      }
      const est = await estimateStop(input.query, beam, d, maxDepth, h, rounds[rounds.length - 1] as TraceRound, scored, state, controller, ctx);
      (rounds[rounds.length - 1] as TraceRound).estimates = est;
      const decision = stopDecision(est, params.thetaSuff, params.thetaCont);
      if (decision !== undefined) {
        stopReason = decision;
        break;
      }
    }
    if (d >= maxDepth) {
      stopReason = 'depth';
      break;
    }
    // expand along active views within b_g and the global limits
    const { proposals, limit } = await proposeNeighbours(state, beam, walk, params);
    reached = d + 1;
    if (proposals.length === 0) {
      stopReason = limit ?? (active.every((g) => used[g] >= given[g]) ? 'budget' : 'frontier-empty');
      rounds.push({ round: d + 1, proposed: 0, beam: 0 });
      break;
    }
    const newScores = await scoreExpansions(proposals, d + 1, centroidOf(beam, state));
    beam = topBeam(proposals.map((pr) => newScores.get(pr.node.id)).filter((s): s is Scored => s !== undefined), params.beamWidth);
    rounds.push({ round: d + 1, proposed: proposals.length, beam: beam.length });
    if (limit !== undefined) {
      stopReason = limit;
      break;
    }
  }
  // ---- hop (issue 24, hop.ts): a second retrieval round seeded by the best evidence so far
  const hop = await runHop(
    { state, params, query: input.query, queryVector: vectorEvidence ? input.queryVector : undefined, speakersNamed: speakers, scored, visited, passes, language },
    {
      on: sw.hop,
      h,
      last: [...rounds].reverse().find((x) => x.estimates !== undefined)?.estimates,
      deadline: input.deadline,
      callsLeft: ctx.callsLeft,
      score: async (nodes, seeds) => {
        const got = await scoreCandidates(
          nodes.map((node) => ({ node, hops: HOP_HOPS, pg: 1, edge: undefined })),
          q,
          state,
          controller,
          ctx,
          params,
          centroidOf(seeds, state),
        );
        for (const [id, s] of got) scored.set(id, s);
        // and, as round one, one expansion step from the best of them through the active views,
        // within what is left of b_g, maxVisited and maxEdgesInspected
        const hopBeam = topBeam([...got.values()], params.beamWidth);
        const round = rounds.length;
        let expanded = 0;
        if (maxDepth > 0 && ctx.callsLeft > 0 && Date.now() <= input.deadline) {
          const { proposals } = await proposeNeighbours(state, hopBeam, walk, params);
          if (proposals.length > 0) await scoreExpansions(proposals, round, centroidOf(hopBeam, state));
          expanded = proposals.length;
        }
        rounds.push({ round, proposed: got.size + expanded, beam: hopBeam.length });
        return { scores: new Map([...got].map(([id, s]) => [id, s.score])), expanded, round };
      },
    },
  );
  checkAbort();
  // ---- reassess (26): one more assessment of the best candidates, now that their neighbours
  // have been assessed too (an answer is often the turn next to a relevant one).
  if (scored.size > 0 && ctx.callsLeft > 0 && Date.now() <= input.deadline) {
    await reassess(q, state, controller, ctx, params, scored, centroidOf(beam, state));
    rounds.push({ round: rounds.length, proposed: Math.min(REASSESS_TOP, scored.size), beam: beam.length });
  }
  const loopMs = performance.now() - tLoop;

  // ---- final ranking with recency, eq. (24)-(25) ------------------------------------------------
  let newest = -Infinity;
  for (const s of scored.values()) if (s.node.observedAt) newest = Math.max(newest, Date.parse(s.node.observedAt));
  const all = [...scored.values()];
  // The out-of-distribution guard (issue 24, guard.ts): g = 0 on turns in System One's range.
  const g = guardWeight(anchorNodes);
  const guarded = guardedScores(
    all.map((s) => ({ node: s.node, score: s.score, lexical: q.lexical.get(s.node.id)?.score ?? 0, cosine: s.parts.z })),
    input.query,
    g,
    { idf: namespaceIdf(state) },
  );
  const ranked = all.map((s, i) => {
    let score = guarded[i] as number;
    if (r > 0 && s.node.observedAt && Number.isFinite(newest)) score = recencyAdjusted(score, r, recencyFactor(newest, Date.parse(s.node.observedAt))); // (25)
    if (s.node.status === 'superseded') score *= SUPERSEDED_FACTOR;
    return { s, score };
  });
  // A superseded memory ranks below the memory that replaced it whenever both are recalled.
  const finalScore = new Map(ranked.map((x) => [x.s.node.id, x.score]));
  for (const x of ranked) {
    if (x.s.node.status !== 'superseded') continue;
    for (const by of x.s.node.supersededBy) {
      const newer = finalScore.get(by);
      if (newer !== undefined && x.score >= newer) x.score = Math.max(0, newer - 1e-6);
    }
  }
  ranked.sort((a, b) => b.score - a.score || a.s.node.seq - b.s.node.seq);
  const inWindow = !windowed ? ranked : ranked.filter((x) => passes(x.s.node));
  // A superseded memory reports when it was replaced: read the replacing node's time.
  await state.loadNodes(inWindow.slice(0, k).flatMap(({ s }) => (s.node.status === 'superseded' ? s.node.supersededBy.slice(0, 1) : [])));
  const memories: RecalledMemory[] = inWindow.slice(0, k).map(({ s, score }) => ({ ...toRecalled(s.node, score, state), relevance: s.relevance }));
  const trace: RecallTrace = {
    query: input.query,
    namespace: state.namespace,
    routing: { p, h, r, active },
    budgets: { total: params.budget, given, used },
    depth: { max: maxDepth, reached },
    k,
    anchors,
    expansions,
    rounds,
    stopReason,
    limits: {
      visited: visited.size,
      maxVisited: params.maxVisited,
      edgesInspected: walk.edgesInspected,
      maxEdgesInspected: params.maxEdgesInspected,
      controllerCalls: params.maxControllerCalls - ctx.callsLeft,
      maxControllerCalls: params.maxControllerCalls,
    },
    decisions,
    fallbacks: decisions.filter((x) => x.fallback).length,
    timings: { embedMs: input.embedMs, routeMs, anchorsMs, loopMs, totalMs: performance.now() - t0 + input.embedMs },
    guard: g,
    hop,
  };
  return { memories, trace };
}

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
interface Walk {
  active: View[];
  used: Record<View, number>;
  given: Record<View, number>;
  p: Record<View, number>;
  visited: Set<string>;
  edgesInspected: number;
}

/** A node proposed by expanding an edge of a beam node. */
interface Proposal {
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
async function proposeNeighbours(state: NamespaceState, beam: readonly Scored[], walk: Walk, params: Readonly<MemoryParameters>): Promise<{ proposals: Proposal[]; limit: StopReason | undefined }> {
  const { active, used, given, p, visited } = walk;
  const picked: Array<Omit<Proposal, 'node'> & { id: string }> = [];
  let limit: StopReason | undefined;
  await state.loadEdges(
    beam.map((b) => b.node.id),
    false,
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

/** How many of the best candidates the reassessment round looks at again. */
export const REASSESS_TOP = 40;

/**
 * The reassessment round: one candidate request over the {@link REASSESS_TOP} best scored nodes
 * whose signals add the first assessment's a_v and the best a_v of the neighbouring turns; the
 * answers replace a_v, n_v and c_v, and eq. (23) is applied again (π_e, p_g, ℓ_v unchanged).
 */
async function reassess(
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

/** Superseded memories keep their place in recall but rank below current ones (issue 7 item 1). */
export const SUPERSEDED_FACTOR = 0.8;

/**
 * True when a node's time meets the window [after, before): one of its time references'
 * intervals overlaps it (event time), or, when it has none, its `observedAt` lies in it. A node
 * with neither is outside every window.
 */
export function withinWindow(n: MemoryNode, afterMs: number, beforeMs: number): boolean {
  if (n.timeRefs.length > 0) {
    return n.timeRefs.some((t) => {
      const a = Date.parse(t.start);
      const b = t.end === undefined ? a : Date.parse(t.end);
      return b >= afterMs && a < beforeMs;
    });
  }
  if (n.observedAt === undefined) return false;
  const t = Date.parse(n.observedAt);
  return t >= afterMs && t < beforeMs;
}

/** A node's time references as recall returns them (interval, local form, certainty). */
export function recalledTimeRefs(n: MemoryNode): RecalledTimeRef[] {
  const off = n.utcOffsetMinutes ?? 0;
  return n.timeRefs.map((t) => {
    const end = t.end ?? t.start;
    return { text: t.text, start: t.start, end, when: localWhen(t.start, end, off, n.timeZone), certainty: certaintyOf(t) };
  });
}

/**
 * The UTC offset `supersededAtLocal` is written in: the replacing node's when it has a speaker's
 * offset of its own (an `observedAt` given with a non-UTC offset or with a `timeZone`), else the
 * superseded node's own (its `observedAtLocal`'s; UTC when it has none). An update given without
 * `observedAt` is timed by ingestion, which has no speaker's calendar, so it takes the old one's.
 */
export function replacedOffset(old: MemoryNode, by: MemoryNode): number {
  if (by.observedAt !== undefined && (by.utcOffsetMinutes !== undefined || by.timeZone !== undefined)) return by.utcOffsetMinutes ?? 0;
  return old.utcOffsetMinutes ?? 0;
}

/** A node as returned by recall. */
export function toRecalled(n: MemoryNode, score: number, state: NamespaceState): RecalledMemory {
  const m: RecalledMemory = { id: n.id, text: n.text, score, provenance: n.provenance, status: n.status, types: n.types, timeRefs: recalledTimeRefs(n) };
  if (n.observedAt !== undefined) {
    m.observedAt = n.observedAt;
    m.observedAtLocal = toLocalIso(Date.parse(n.observedAt), n.utcOffsetMinutes ?? 0);
  }
  if (n.timeZone !== undefined) m.timeZone = n.timeZone;
  if (n.status === 'superseded' && n.supersededBy.length > 0) {
    const by = state.nodes.get(n.supersededBy[0] as string);
    const at = by?.observedAt ?? by?.ingestedAt;
    if (at !== undefined) {
      m.supersededAt = at;
      m.supersededAtLocal = toLocalIso(Date.parse(at), replacedOffset(n, by as MemoryNode));
    }
  }
  return m;
}

function topBeam(list: Scored[], w: number): Scored[] {
  return [...list].sort((a, b) => b.score - a.score || a.node.seq - b.node.seq).slice(0, w);
}

function centroidOf(beam: ReadonlyArray<{ node: MemoryNode }>, state: NamespaceState): Float32Array | undefined {
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
async function scoreCandidates(
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
async function estimateStop(
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
