/**
 * The read path, eq. (11)-(26) (SPEC 6): route → budget → anchors → loop of
 * assess / stop / expand / score → top K with a trace. System One is asked through the
 * controller (so every call counts against the cap and deadline and can fall back); everything
 * else is deterministic.
 *
 * Score scale: see `score.ts` — one [0,1] scale for anchors and expanded nodes.
 *
 * This module runs the steps in order; each job lives in its own module: gather.ts (query
 * context and anchor pools), assess.ts (System One's assessment, eq. (23), stop estimates,
 * reassessment), expand.ts (graph expansion within the budgets), recalled.ts (final ranking and
 * the memories as returned), hop.ts (the second round), guard.ts, score.ts, signals.ts.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import { JevMemError } from '../errors.js';
import { reciprocalRankFusion } from '../plane/indexes/fusion.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { CATALOGUE, type RoutingState } from '../system-one/catalogue.js';
import { probability, type Controller, type DecisionContext, type DecisionRecord } from '../system-one/controller.js';
import { VIEWS, type MemoryNode, type RecalledMemory, type View } from '../types.js';
import { centroidOf, estimateStop, reassess, REASSESS_TOP, scoreCandidates, topBeam, type Scored } from './assess.js';
import { activeViews, allocationWeights, depthFor, viewBudgets } from './budget.js';
import { proposeNeighbours, type Proposal, type Walk } from './expand.js';
import { gatherQuery } from './gather.js';
import { guardWeight } from './guard.js';
import { runHop } from './hop.js';
import { extendAnchors } from './pool.js';
import { finalRanking } from './recalled.js';
import type { TermVectorLookup } from './signals.js';
import { stopDecision, type StopReason } from './stop.js';
import { userStatements, type EmbedTexts } from './taste.js';
import type { RecallTrace, TraceAnchor, TraceExpansion, TraceRound } from './trace.js';
import { questionTime } from './when.js';
import { orderStep } from './order.js';
import { successorStep } from './successors.js';

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
  /**
   * The wider pool (issue 24, `pool.ts`): up to `poolAnchors` more anchors when h(q) ≥ θ_pool
   * (`poolThreshold`) or the out-of-distribution guard's g > 0; off = the anchors of eq. (16)
   * only. @default true
   */
  pool?: boolean;
  /** Before/after questions (issue 24, `order.ts`): the states next in time to the anchor drawn and lifted; off = the ablation `no-order`. @default true */
  order?: boolean;
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
   * time window, it chooses the anchors among the nodes it keeps and filters the final ranking;
   * unlike the window, it also bounds the walk: a node it rejects is never expanded to or through
   * (expand.ts `Walk.keep`), never seeds or joins the hop, and never feeds a candidate's window
   * signals (signals.ts `QueryContext.keep`), so the trace names none of them. Absent: the read
   * path is unchanged.
   */
  keep?: (node: MemoryNode) => boolean;
  /** Languages the encoder's vectors cover (`Encoder.languages`); absent: all. */
  vectorLanguages?: readonly string[];
  /** Word vectors of the encoder (`Encoder.termVectors`, src/encoder/encoder.ts); without them `softWindowOverlap` is 0. */
  termVectors?: TermVectorLookup;
  /**
   * The encoder's `embed` (unit sentence vectors), for the passage-level tastes of a
   * recommendation request (`taste.ts`); absent: that step does not run.
   */
  embedPassages?: EmbedTexts;
  /** The recall's clock (the memory's `now`), epoch ms: a time the question names is read against it (when.ts); absent: none is read. */
  nowMs?: number;
  /** The question's time when the caller gave one (`RecallOptions.now`), epoch ms: see recalled.ts `FinalRankingInput.asOfMs`. */
  asOfMs?: number;
}

/** What a recall returns. */
export interface RecallOutput {
  memories: RecalledMemory[];
  trace: RecallTrace;
}

/** Runs the read path over one namespace. */
export async function runRecall(state: NamespaceState, controller: Controller, params: Readonly<MemoryParameters>, input: RecallInput): Promise<RecallOutput> {
  const t0 = performance.now();
  const sw = { graph: input.switches?.graph !== false, routing: input.switches?.routing !== false, stopping: input.switches?.stopping !== false, hop: input.switches?.hop !== false, pool: input.switches?.pool !== false, order: input.switches?.order !== false };
  const decisions: DecisionRecord[] = [];
  const ctx: DecisionContext = { callsLeft: params.maxControllerCalls, deadline: input.deadline, log: decisions };
  if (input.signal) ctx.signal = input.signal;
  const checkAbort = (): void => {
    if (input.signal?.aborted) throw new JevMemError('ABORTED', 'recall was aborted by the caller', { cause: input.signal.reason });
  };

  // ---- query context and anchor pools (gather.ts) ----------------------------------------------
  const { q, lexHits, vecHits, speakers, mentions, language, windowed, passes, vectorEvidence } = await gatherQuery(state, params, input);
  // A scope or filter (`keep`) bounds the whole read, not only its result: the window signals,
  // the expansion (walk.keep) and the hop's seeds read only the memories it keeps, so neither the
  // scores nor the trace carry another scope's memories. A time window alone still lets the walk
  // pass through memories outside it (they are only left out of the result).
  if (input.keep !== undefined) q.keep = input.keep;

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
  const used: Record<View, number> = { causal: 0, entity: 0, semantic: 0, temporal: 0 };
  const maxDepth = sw.graph ? depthFor(h, params.maxDepth) : 0; // (15)
  const k = input.k ?? (h >= 0.5 ? params.kMultiHop : params.k);
  const routeMs = performance.now() - tRoute;
  checkAbort();

  // ---- anchors, eq. (16) ----------------------------------------------------------------------
  const tAnchors = performance.now();
  const fused = reciprocalRankFusion([vecHits.slice(0, params.anchors), lexHits.slice(0, params.anchors)], params.rrfK).slice(0, params.anchors);
  // The anchors are the first bodies this recall reads from the store (issue 13); the pools'
  // other hits are read through the directory (sessions) and the index scores only.
  await state.loadNodes(fused.map((f) => f.id));
  // The guard's reading (guard.ts) is taken from these anchors, before any wider pool.
  const guardAnchors = fused.map((f) => state.nodes.get(f.id)).filter((n): n is MemoryNode => n !== undefined);
  // The wider pool (pool.ts): more anchors when h(q) ≥ θ_pool or the guard's g > 0, and as much more room to visit.
  const pool = await extendAnchors(state, params, { on: sw.pool, h, g: guardWeight(guardAnchors), query: input.query, speakers, vecHits, lexHits, termVectors: input.termVectors, language, passes }, fused);
  // The question's time (when.ts): a window it names draws in-window memories into the anchors.
  const when = await questionTime(state, { query: input.query, nowMs: input.nowMs, temporal: p.temporal, queryVector: vectorEvidence ? input.queryVector : undefined, lexHits, passes }, fused);
  for (const f of fused) q.rrf.set(f.id, f.rrf);
  // the expansion and the hop read maxVisited from the parameters: the pool's room goes with them
  const extra = pool.added.length + when.trace.drawn.length;
  const readParams: Readonly<MemoryParameters> = extra === 0 ? params : { ...params, maxVisited: params.maxVisited + extra };
  const maxVisited = readParams.maxVisited;
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
  if (input.keep !== undefined) walk.keep = input.keep;
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
    const { proposals, limit } = await proposeNeighbours(state, beam, walk, readParams);
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
    { state, params: readParams, query: input.query, queryVector: vectorEvidence ? input.queryVector : undefined, speakersNamed: speakers, scored, visited, passes, language },
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
          const { proposals } = await proposeNeighbours(state, hopBeam, walk, readParams);
          if (proposals.length > 0) await scoreExpansions(proposals, round, centroidOf(hopBeam, state));
          expanded = proposals.length;
        }
        rounds.push({ round, proposed: got.size + expanded, beam: hopBeam.length });
        return { scores: new Map([...got].map(([id, s]) => [id, s.score])), expanded, round };
      },
    },
  );
  checkAbort();
  // scores drawn memories (eq. (23), one step away as the hop's) into the candidates, marked visited; those scored already are kept
  const draw = async (nodes: MemoryNode[]): Promise<void> => {
    const fresh = nodes.filter((n) => !scored.has(n.id) && visited.add(n.id));
    for (const [id, s] of await scoreCandidates(fresh.map((node) => ({ node, hops: HOP_HOPS, pg: 1, edge: undefined })), q, state, controller, ctx, params, undefined)) scored.set(id, s);
  };
  // ---- before/after (order.ts): the states next in time to the anchor the question names
  const order = await orderStep(state, { query: input.query, speakers, passes, language, maxDf: params.recallQueryMaxDf, on: sw.order, temporal: p.temporal, queryVector: vectorEvidence ? input.queryVector : undefined, termVectors: input.termVectors }, draw);
  // ---- the user's statements (taste.ts): a recommendation request, or a question asking for
  // several things about the user, in a history whose speakers are roles (the guard's range,
  // g > 0) draws the user's turns and measures each by its statements
  const taste = input.embedPassages === undefined || !vectorEvidence ? undefined : await userStatements(state, { query: input.query, queryVector: input.queryVector, g: guardWeight(anchorNodes), embed: input.embedPassages }, scored, passes, draw);
  // ---- a later value of the question's slot of state (successors.ts), for a question about the present
  const successors = await successorStep(state, { query: input.query, present: when.present, ...(input.asOfMs !== undefined ? { asOfMs: input.asOfMs } : {}), passes, head: params.stateUpdateHead }, scored, draw);
  checkAbort();
  // ---- reassess (26): one more assessment of the best candidates, now that their neighbours
  // have been assessed too (an answer is often the turn next to a relevant one).
  if (scored.size > 0 && ctx.callsLeft > 0 && Date.now() <= input.deadline) {
    await reassess(q, state, controller, ctx, params, scored, centroidOf(beam, state));
    rounds.push({ round: rounds.length, proposed: Math.min(REASSESS_TOP, scored.size), beam: beam.length });
  }
  const loopMs = performance.now() - tLoop;

  // ---- final ranking with recency, eq. (24)-(25) (recalled.ts) ---------------------------------
  const { memories, g, coverage } = await finalRanking(state, {
    query: input.query,
    scored,
    anchorNodes: guardAnchors,
    q,
    r,
    windowed,
    passes,
    k,
    sessionRepeatFactor: params.sessionRepeatFactor,
    ...(taste !== undefined ? { taste: taste.scores } : {}),
    ...(when.window !== undefined ? { window: when.window } : {}),
    present: when.present,
    past: when.past,
    ...(successors !== undefined ? { successors: successors.pairs } : {}),
    ...(input.asOfMs !== undefined ? { asOfMs: input.asOfMs } : {}),
    ...(order.reason === 'ran' ? { order: { named: order.named, anchors: order.anchors, answers: order.answers, neighbours: order.neighbours.map((x) => x.id) } } : {}),
  });
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
      maxVisited,
      edgesInspected: walk.edgesInspected,
      maxEdgesInspected: params.maxEdgesInspected,
      controllerCalls: params.maxControllerCalls - ctx.callsLeft,
      maxControllerCalls: params.maxControllerCalls,
    },
    decisions,
    fallbacks: decisions.filter((x) => x.fallback).length,
    timings: { embedMs: input.embedMs, routeMs, anchorsMs, loopMs, totalMs: performance.now() - t0 + input.embedMs },
    guard: g,
    coverage,
    hop,
    pool,
    when: when.trace,
    order,
  };
  if (successors !== undefined) trace.successors = successors;
  if (taste !== undefined) trace.taste = { drawn: taste.drawn, scored: taste.scores.size, mode: taste.mode };
  return { memories, trace };
}
