/**
 * The hop of the read path (issue 24; the paper's reassess loop, eq. (26): route → retrieve →
 * assess → expand → reassess): a second retrieval round seeded by the first round's best
 * evidence. After the loop of `recall.ts` has scored its candidates, the hop takes the
 * {@link MemoryParameters.hopSeeds} best of them, forms a second query from them and fetches
 * nodes the first round never reached:
 *
 * - lexical: the question plus the *bridging entities* — the canonical entities of the seeds
 *   (write path, `write/entities.ts`) that the question does not name — through the lexical index;
 * - entity: the nodes that mention a bridging entity (`NamespaceState.mentions`);
 * - vector: the question's vector moved towards the seeds (q + mean of the seeds' vectors,
 *   normalised: relevance feedback) through the vector index;
 * - time: among the nodes the three lists above found, those whose event or observation time lies
 *   on a day the seeds' time references name (a seed that says "we adopted her last May" favours
 *   what was said or done then); a fourth ranking for the fusion, not a search of its own.
 *
 * The four lists are fused by reciprocal rank (eq. (16), κ = `rrfK`), nodes already visited are
 * dropped, and at most {@link MemoryParameters.hopAnchors} new ones (less when `maxVisited`
 * leaves less room) are scored by the caller with the same eq. (23) against the *original*
 * question and merged; the caller then expands the best of them through the active views as
 * round one does, within what is left of b_g, `maxVisited` and `maxEdgesInspected`. Whether the hop runs is System One's decision: the multi-hop route
 * probability h(q) (`route.multi_hop`, eq. (15)) must reach θ_hop
 * ({@link MemoryParameters.hopThreshold}) and the last stop estimate must not have judged the
 * evidence sufficient (eq. (21)).
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { reciprocalRankFusion } from '../plane/indexes/fusion.js';
import type { IndexHit } from '../plane/indexes/indexes.js';
import { normalizedCopy } from '../plane/indexes/vector-math.js';
import { tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';
import { lexicalAnchorQuery } from './lexical-query.js';
import type { StopEstimates } from './stop.js';

/** Why the hop ran or did not (trace field `hop.reason`). */
export type HopReason =
  /** It ran and added the nodes listed. */
  | 'ran'
  /** `switches.hop` is false (ablation). */
  | 'switched-off'
  /** h(q) < θ_hop: System One does not ask for several pieces of evidence. */
  | 'single-hop'
  /** The last stop estimate met eq. (21): the evidence is sufficient. */
  | 'sufficient'
  /** `maxVisited` leaves no room, or the controller-call cap is spent. */
  | 'no-budget'
  /** The read deadline has passed. */
  | 'deadline'
  /** Nothing was scored in the first round. */
  | 'no-seeds'
  /** The second query found no node the first round had not visited. */
  | 'nothing-new';

/** A node the hop added, with the list that found it best. */
export interface HopAdded {
  id: string;
  /** s_RRF of the hop's fused lists. */
  rrf: number;
  /** 1-based ranks in the hop's lists [vector, lexical, entity, time] (0 = absent). */
  ranks: [number, number, number, number];
  /** Score of eq. (23) against the question (before the reassessment round). */
  score: number;
}

/** The hop in the recall trace (`RecallTrace.hop`). */
export interface TraceHop {
  /** True when the second round ran (`reason` is `ran` or `nothing-new`). */
  ran: boolean;
  reason: HopReason;
  /** h(q) the decision read and θ_hop it was compared with. */
  h: number;
  threshold: number;
  /** Ids of the seeds (the first round's best evidence), best first. */
  seeds: string[];
  /** Bridging entities of the seeds (canonical, lower case). */
  entities: string[];
  /** Days (`YYYY-MM-DD`, UTC) the seeds' time references name. */
  days: string[];
  /** The lexical query of the second round. */
  lexicalQuery: string;
  /** Nodes added, best eq. (23) score first. */
  added: HopAdded[];
  /**
   * Nodes the expansion step from the best added nodes proposed (they are in the trace's
   * `expansions`, with the hop's round number); 0 when the graph is off or no budget is left.
   */
  expanded: number;
  /** The hop's entry in `RecallTrace.rounds` (its expansions carry this round number); absent when it added nothing. */
  round?: number;
  /** Wall time of the hop, ms. */
  ms: number;
}

/** A scored node as the hop reads it (recall.ts's `Scored`, structurally). */
export interface HopScored {
  node: MemoryNode;
  score: number;
}

/** What the hop needs from the recall that runs it. */
export interface HopContext {
  state: NamespaceState;
  params: Readonly<MemoryParameters>;
  query: string;
  /** The question's vector, unit norm (absent: no vector evidence, the vector list is skipped). */
  queryVector: Float32Array | undefined;
  /** Canonical speaker names the question names (they are not bridging entities). */
  speakersNamed: ReadonlySet<string>;
  /** Everything the first round scored. */
  scored: ReadonlyMap<string, HopScored>;
  /** Ids visited so far; the hop adds its nodes to it. */
  visited: Set<string>;
  /** Filter of the recall (time window, scope): nodes it rejects are never added. */
  passes: (n: MemoryNode) => boolean;
  /** Language of a short question: the namespace's `language`, else its `dominantLanguage`. */
  language: string;
}

/** How many hits each list of the hop's second query gives the fusion. */
export const HOP_POOL = 60;

/** True when eq. (21) held for the estimates. */
function sufficient(e: StopEstimates | undefined, p: Readonly<MemoryParameters>): boolean {
  return e !== undefined && e.sufficient >= p.thetaSuff && e.missing < p.thetaCont && e.contradiction < p.thetaCont;
}

/**
 * System One's decision to hop: `switched-off`, `single-hop` (h < θ_hop), `sufficient` (eq. (21)
 * met by the last stop estimate) or `undefined` (hop).
 */
export function hopDecision(on: boolean, h: number, last: StopEstimates | undefined, p: Readonly<MemoryParameters>): HopReason | undefined {
  if (!on) return 'switched-off';
  if (h < p.hopThreshold) return 'single-hop';
  if (sufficient(last, p)) return 'sufficient';
  return undefined;
}

/** The `hopSeeds` best scored nodes, best first (ties: older first). */
export function hopSeedsOf(scored: ReadonlyMap<string, HopScored>, n: number): HopScored[] {
  return [...scored.values()].sort((a, b) => b.score - a.score || a.node.seq - b.node.seq).slice(0, n);
}

/**
 * The bridging entities of the seeds: their canonical entities that the question does not name
 * (as a word, a speaker, or for a name of several words, the words in a row) and that are not the
 * seed's own speaker, in seed order, each once.
 */
export function bridgingEntities(seeds: readonly HopScored[], query: string, speakersNamed: ReadonlySet<string>): string[] {
  const lower = query.normalize('NFC').toLowerCase();
  const words = new Set(tokenize(query));
  const out: string[] = [];
  for (const s of seeds) {
    for (const e of s.node.entities) {
      if (out.includes(e) || speakersNamed.has(e) || words.has(e) || (/\s/.test(e) && lower.includes(e))) continue;
      const sp = s.node.provenance.speaker?.normalize('NFC').toLowerCase();
      if (sp !== undefined && sp === e) continue; // the seed's own speaker is not a bridge
      out.push(e);
    }
  }
  return out;
}

/** UTC days (`YYYY-MM-DD`) a node's resolved time references cover, at most 7 per reference. */
function daysOf(n: MemoryNode): string[] {
  const out: string[] = [];
  for (const t of n.timeRefs) {
    const a = Date.parse(t.start);
    const b = t.end === undefined ? a : Date.parse(t.end);
    if (!Number.isFinite(a) || !Number.isFinite(b) || b - a > 7 * 86_400_000) continue;
    for (let d = a; d <= b; d += 86_400_000) out.push(new Date(d).toISOString().slice(0, 10));
  }
  return out;
}

/** The second query of a hop and the new nodes it proposes (not yet scored). */
export interface HopProposal {
  seeds: string[];
  entities: string[];
  days: string[];
  lexicalQuery: string;
  /** New nodes, fused order, at most `room`; their bodies are loaded. */
  proposals: Array<{ node: MemoryNode; rrf: number; ranks: [number, number, number, number] }>;
}

/**
 * Forms the hop's second query from the seeds and returns the nodes it finds that the first round
 * did not visit (marked visited), at most `room`.
 */
export async function proposeHop(c: HopContext, seeds: readonly HopScored[], room: number): Promise<HopProposal> {
  const { state, params } = c;
  const entities = bridgingEntities(seeds, c.query, c.speakersNamed);
  const lexicalQuery = [c.query, ...entities].join(' ');
  // The first round's awaits (System One, body reads) may have ended the turn in which a
  // store-kept index (SQLite FTS5) held its lock: take it again, as gather.ts does, so that the
  // search cannot find the database busy (it would fail at once rather than wait).
  await state.lexical.ready?.();
  const lex: IndexHit[] = state.lexical.search(lexicalAnchorQuery(lexicalQuery, state.keywordDf, params.recallQueryMaxDf, c.language), HOP_POOL, c.language);
  let vec: IndexHit[] = [];
  if (c.queryVector !== undefined && state.vector.size > 0) {
    const v = Float32Array.from(c.queryVector);
    let n = 0;
    for (const s of seeds) {
      const sv = state.vectors.get(s.node.id);
      if (sv === undefined) continue;
      n++;
      for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) + (sv[i] as number) / seeds.length;
    }
    const unit = n > 0 ? normalizedCopy(v, v.length) : undefined;
    if (unit !== undefined && unit.some((x) => x !== 0)) vec = state.vector.search(unit, HOP_POOL);
  }
  // entity list: the latest nodes that mention a bridging entity, interleaved across entities
  const ent: Array<{ id: string }> = [];
  const lists = entities.map((e) => [...(state.mentions.get(e) ?? [])].reverse());
  for (let i = 0; ent.length < HOP_POOL && lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length && ent.length < HOP_POOL) ent.push({ id: l[i] as string });
  // time list: nodes of the first round's pool observed or set on a day the seeds name
  const days = [...new Set(seeds.flatMap((s) => daysOf(s.node)))];
  const time: Array<{ id: string }> = [];
  if (days.length > 0) {
    const want = new Set(days);
    const pool = [...lex, ...vec, ...ent].map((h) => h.id);
    await state.loadNodes(pool);
    for (const id of new Set(pool)) {
      const n = state.nodes.get(id);
      if (n === undefined) continue;
      const own = n.observedAt !== undefined ? [n.observedAt.slice(0, 10)] : [];
      if ([...own, ...daysOf(n)].some((d) => want.has(d))) time.push({ id });
    }
  }
  const fused = reciprocalRankFusion([vec, lex, ent, time], params.rrfK);
  const fresh = fused.filter((f) => !c.visited.has(f.id) && state.statusOf(f.id) !== undefined && state.statusOf(f.id) !== 'deleted');
  const out: HopProposal['proposals'] = [];
  const batch = fresh.slice(0, Math.max(room * 3, room));
  await state.loadNodes(batch.map((f) => f.id));
  for (const f of batch) {
    if (out.length >= room) break;
    const node = state.nodes.get(f.id);
    if (node === undefined || !c.passes(node)) continue;
    c.visited.add(f.id);
    out.push({ node, rrf: f.rrf, ranks: f.ranks as [number, number, number, number] });
  }
  return { seeds: seeds.map((s) => s.node.id), entities, days, lexicalQuery, proposals: out };
}

/** What {@link runHop} needs besides the {@link HopContext}. */
export interface HopRun {
  /** `switches.hop` (false: the ablation). */
  on: boolean;
  /** h(q), `route.multi_hop`. */
  h: number;
  /** The last stop estimate of the loop (absent when none was asked). */
  last: StopEstimates | undefined;
  /** Absolute read deadline, ms since the epoch. */
  deadline: number;
  /** System-One calls left to the recall (the hop makes one). */
  callsLeft: number;
  /**
   * Scores the proposed nodes with eq. (23) against the question, merges them into the recall's
   * scored set, expands the best of them through the active views as round one does (within what
   * is left of the budgets), and returns their scores (id → score) and how many nodes that
   * expansion proposed.
   */
  score: (nodes: MemoryNode[], seeds: readonly HopScored[]) => Promise<{ scores: Map<string, number>; expanded: number; round: number }>;
}

/**
 * Decides (System One's h(q) and stop estimate, {@link hopDecision}) and runs one hop: seeds →
 * second query ({@link proposeHop}) → eq. (23) through `run.score`. Never throws on its own; the
 * scorer's errors (ABORTED, SYSTEM_ONE_FAILED from the controller) pass through.
 * @returns The trace of the hop, also when it did not run.
 */
export async function runHop(c: HopContext, run: HopRun): Promise<TraceHop> {
  const t0 = performance.now();
  const p = c.params;
  const trace: TraceHop = { ran: false, reason: 'ran', h: run.h, threshold: p.hopThreshold, seeds: [], entities: [], days: [], lexicalQuery: '', added: [], expanded: 0, ms: 0 };
  const done = (reason: HopReason): TraceHop => {
    trace.reason = reason;
    trace.ms = performance.now() - t0;
    return trace;
  };
  const decided = hopDecision(run.on, run.h, run.last, p);
  if (decided !== undefined) return done(decided);
  if (Date.now() > run.deadline) return done('deadline');
  const room = Math.min(p.hopAnchors, p.maxVisited - c.visited.size);
  if (room <= 0 || run.callsLeft <= 0) return done('no-budget');
  const seeds = hopSeedsOf(c.scored, p.hopSeeds);
  if (seeds.length === 0) return done('no-seeds');
  const prop = await proposeHop(c, seeds, room);
  trace.ran = true;
  trace.seeds = prop.seeds;
  trace.entities = prop.entities;
  trace.days = prop.days;
  trace.lexicalQuery = prop.lexicalQuery;
  if (prop.proposals.length === 0) return done('nothing-new');
  const { scores, expanded, round } = await run.score(
    prop.proposals.map((x) => x.node),
    seeds,
  );
  trace.expanded = expanded;
  trace.round = round;
  trace.added = prop.proposals
    .map((x) => ({ id: x.node.id, rrf: x.rrf, ranks: x.ranks, score: scores.get(x.node.id) ?? 0 }))
    .sort((a, b) => b.score - a.score);
  return done('ran');
}
