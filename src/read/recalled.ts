/**
 * Result assembly of the read path: the final ranking with recency and supersession, eq.
 * (24)-(25), after the out-of-distribution guard (guard.ts), the time window, and the nodes as
 * recall returns them (local times, "as of" limits of superseded memories).
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { MemoryNode, RecalledMemory, RecalledTimeRef } from '../types.js';
import { certaintyOf, localWhen, toLocalIso } from '../util/time.js';
import type { Scored } from './assess.js';
import { asksAggregate, coverageFactor, sessionCoverage } from './coverage.js';
import { guardedScores, guardWeight } from './guard.js';
import { recencyAdjusted, recencyFactor } from './score.js';
import { namespaceIdf, type QueryContext } from './signals.js';
import { orderLift } from './order.js';
import { asksAboutQuestions, isRequest, REQUEST_FACTOR } from './request.js';
import { sameStateSlot } from '../system-one/state-update.js';
import { presentLift, WINDOW_BOOST, windowWeight, type QuestionWindow } from './when.js';

/**
 * Superseded memories keep their place in recall, their score × this factor when demoted (issue 7
 * item 1), and rank below what replaced them when it is about the same slot ({@link replacesSlot}).
 */
export const SUPERSEDED_FACTOR = 0.8;

/**
 * Whether `newer`, which replaced `older`, is about the same slot of state (system-one
 * state-update.ts `sameStateSlot`: "We moved to Berlin" and "I live in Porto"; a pair the slot
 * words cannot read counts as one). Only then does the replaced memory rank below it (h-falsesup,
 * h-break9): a memory replaced by one about another slot ("I have two cats, Mika and Tuva" by
 * "we bought a cabin near Lillehammer", a false supersession) keeps its score ×
 * {@link SUPERSEDED_FACTOR}, so the query "cats" still finds it instead of ranking it below every
 * memory the cabin outranks.
 */
export function replacesSlot(older: MemoryNode, newer: MemoryNode): boolean {
  const side = (n: MemoryNode) => ({ text: n.text, speaker: n.provenance.speaker, timeMs: 0 });
  return sameStateSlot(side(newer), side(older));
}

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

/** What {@link finalRanking} needs of the recall. */
export interface FinalRankingInput {
  query: string;
  /** Every candidate scored by eq. (23). */
  scored: ReadonlyMap<string, Scored>;
  /** The anchors' nodes (the guard's weight is read from them). */
  anchorNodes: readonly MemoryNode[];
  /** The query context (its lexical scores feed the guard). */
  q: QueryContext;
  /** Recency weight r of the routing. */
  r: number;
  /** True when a time window or a filter selects the memories. */
  windowed: boolean;
  /** The window and filter test. */
  passes: (n: MemoryNode) => boolean;
  /** How many memories to return. */
  k: number;
  /**
   * δ of the session coverage step (coverage.ts; the parameter `sessionRepeatFactor`), in [0,1];
   * 1 or absent: off.
   */
  sessionRepeatFactor?: number;
  /** The user's tastes by node id (taste.ts), for the guard; absent: none. */
  taste?: ReadonlyMap<string, number>;
  /** The time the question names (when.ts): scores + β_w·w(v)·(best guarded score); absent: none. */
  window?: QuestionWindow;
  /** The question asks about the present (when.ts `asksPresent`): newer memories on the best ones' subjects lifted (`presentLift`). */
  present?: boolean;
  /** The question asks about the past or the whole history (when.ts `asksPast`): superseded memories are not demoted ({@link demotesSuperseded}). */
  past?: boolean;
  /**
   * The time the question is asked at, epoch ms, when the caller gave one (`RecallOptions.now`):
   * a replacement observed after it does not demote what it replaced, and a memory observed after
   * it is not lifted as the present. Absent: every memory counts.
   */
  asOfMs?: number;
  /** A before/after question (order.ts): the memories naming the anchor, the anchor evidence and its neighbours, best first, lifted around it (`orderLift`). */
  order?: { named: readonly string[]; anchors: readonly string[]; answers?: readonly string[]; neighbours: readonly string[] };
}

/**
 * Whether a superseded memory is demoted for a question (issue 24): a replaced state still
 * answers a question about the past, so it is demoted (× {@link SUPERSEDED_FACTOR}, and ranked
 * below what replaced it, {@link supersessionCaps}) only for a question about the present or with
 * no time. Never demoted: for a question about the past or the whole history (`past`: "Where did
 * I live before?", "What has Melanie painted?"), nor for one whose window ends before the
 * memory was replaced (the time of its earliest replacement, `supersededBy[0]`: "Where did I
 * live in 2019?" keeps Porto, replaced in 2023), nor when the question is asked at a time
 * (`asOfMs`, `RecallOptions.now`) before the replacement was observed. An active memory is never demoted.
 * @param nodeOf a loaded node by id (the replacement; undefined when not loaded: demoted)
 */
export function demotesSuperseded(
  node: Pick<MemoryNode, 'status' | 'supersededBy'>,
  question: { past?: boolean; window?: QuestionWindow; asOfMs?: number },
  nodeOf: (id: string) => Pick<MemoryNode, 'observedAt' | 'ingestedAt'> | undefined,
): boolean {
  if (node.status !== 'superseded') return false;
  if (question.past === true) return false;
  if (question.window === undefined && question.asOfMs === undefined) return true;
  const by = node.supersededBy[0] === undefined ? undefined : nodeOf(node.supersededBy[0]);
  if (by === undefined) return true;
  const replacedMs = Date.parse(by.observedAt ?? by.ingestedAt);
  if (!Number.isFinite(replacedMs)) return true;
  // Asked at a time before the replacement was said: the state still held then (h-break7 finding 3).
  if (question.asOfMs !== undefined && question.asOfMs < replacedMs) return false;
  return !(question.window !== undefined && question.window.endMs < replacedMs);
}

/**
 * The final ranking with recency, eq. (24)-(25): the guarded scores (guard.ts), the recency
 * adjustment when r > 0, superseded memories × {@link SUPERSEDED_FACTOR} and below the memory that
 * replaced them when it is about the same slot ({@link replacesSlot}) unless the question asks about the past ({@link demotesSuperseded}),
 * a user's question to an assistant × {@link REQUEST_FACTOR} (request.ts), ties by `seq`; then the window and the top `k`, as recall returns them.
 * For a question that asks for several things (coverage.ts `asksAggregate`), the scores of the
 * memories in the window are first re-ranked across sessions by `sessionCoverage` with the factor
 * f = 1 − g·(1 − δ) (δ = `sessionRepeatFactor`), so the returned `score` is the adjusted one.
 * @returns the memories, the guard's weight g and the coverage factor f applied (1: none), for the trace.
 */
export async function finalRanking(state: NamespaceState, input: FinalRankingInput): Promise<{ memories: RecalledMemory[]; g: number; coverage: number }> {
  const { scored, anchorNodes, q, r, windowed, passes, k } = input;
  let newest = -Infinity;
  for (const s of scored.values()) if (s.node.observedAt) newest = Math.max(newest, Date.parse(s.node.observedAt));
  const all = [...scored.values()];
  // The out-of-distribution guard (issue 24, guard.ts): g = 0 on turns in System One's range.
  const g = guardWeight(anchorNodes);
  const guarded = guardedScores(
    all.map((s) => ({ node: s.node, score: s.score, lexical: q.lexical.get(s.node.id)?.score ?? 0, cosine: s.parts.z })),
    input.query,
    g,
    input.taste !== undefined ? { idf: namespaceIdf(state), taste: input.taste } : { idf: namespaceIdf(state) },
  );
  const top = Math.max(0, ...guarded);
  // The replacements of the superseded candidates, along their chains (supersessionCaps, and
  // the time a window is compared with in demotesSuperseded).
  await loadChains(state, all.map((s) => s.node));
  const nodeOf = (id: string): MemoryNode | undefined => state.nodes.get(id);
  const demoted = new Set(all.filter((s) => demotesSuperseded(s.node, input, nodeOf)).map((s) => s.node.id));
  // A user's question to an assistant ranks below the statements answering it (request.ts),
  // unless the query is about what was asked; it holds no state, so it is never lifted as the
  // present either.
  const requests = new Set(all.filter((s) => isRequest(s.node)).map((s) => s.node.id));
  const demoteRequests = requests.size > 0 && !asksAboutQuestions(input.query);
  const ranked = all.map((s, i) => {
    let score = guarded[i] as number;
    if (r > 0 && s.node.observedAt && Number.isFinite(newest)) score = recencyAdjusted(score, r, recencyFactor(newest, Date.parse(s.node.observedAt))); // (25)
    // the question's time window and the present (when.ts): bounded factors, so they reorder
    // near-equal memories and never drop the only match
    if (input.window !== undefined) score += WINDOW_BOOST * top * windowWeight(s.node, input.window);
    if (demoted.has(s.node.id)) score *= SUPERSEDED_FACTOR;
    if (demoteRequests && requests.has(s.node.id)) score *= REQUEST_FACTOR;
    return { s, score };
  });
  if (input.present === true) {
    const lifted = presentLift(ranked.map((x) => ({ node: x.s.node, score: x.score, vector: requests.has(x.s.node.id) ? undefined : state.vectors.get(x.s.node.id) })), input.asOfMs);
    ranked.forEach((x, i) => (x.score = lifted[i] as number));
  }
  if (input.order !== undefined) {
    const lifted = orderLift(ranked.map((x) => ({ id: x.s.node.id, score: x.score })), input.order);
    ranked.forEach((x, i) => (x.score = lifted[i] as number));
  }
  // Coverage across sessions for questions that ask for several things (coverage.ts): f = 1 on
  // histories in System One's range (g = 0) and when the parameter is 1.
  const f = input.sessionRepeatFactor !== undefined && asksAggregate(input.query) ? coverageFactor(g, input.sessionRepeatFactor) : 1;
  if (f < 1) {
    const inside = windowed ? ranked.filter((x) => passes(x.s.node)) : ranked;
    const adjusted = sessionCoverage(
      inside.map((x) => ({ session: x.s.node.provenance.sessionId, score: x.score })),
      f,
    );
    inside.forEach((x, i) => (x.score = adjusted[i] as number));
  }
  // A superseded memory ranks below every memory that replaced it, directly or along the chain,
  // whenever both are recalled (supersessionCaps), when it is demoted for this question and the
  // replacement is about its slot (replacesSlot).
  const capped = supersessionCaps(
    ranked.map((x) => ({ node: x.s.node, score: x.score })),
    nodeOf,
    (n) => demoted.has(n.id),
    replacesSlot,
  );
  ranked.forEach((x, i) => (x.score = (capped[i] as { score: number }).score));
  const depth = new Map(ranked.map((x, i) => [x.s.node.id, (capped[i] as { depth: number }).depth]));
  ranked.sort((a, b) => b.score - a.score || (depth.get(a.s.node.id) ?? 0) - (depth.get(b.s.node.id) ?? 0) || a.s.node.seq - b.s.node.seq);
  const inWindow = !windowed ? ranked : ranked.filter((x) => passes(x.s.node));
  // A superseded memory reports when it was replaced: read the replacing node's time.
  await state.loadNodes(inWindow.slice(0, k).flatMap(({ s }) => (s.node.status === 'superseded' ? s.node.supersededBy.slice(0, 1) : [])));
  const memories: RecalledMemory[] = inWindow.slice(0, k).map(({ s, score }) => ({ ...toRecalled(s.node, score, state), relevance: s.relevance }));
  return { memories, g, coverage: f };
}

/** At most this many chain links beyond the recalled memories are read per recall. */
const CHAIN_READ_LIMIT = 2048;

/**
 * Loads the memories that replaced the recalled superseded ones, and those that replaced them,
 * to the ends of their chains (at most {@link CHAIN_READ_LIMIT} nodes), so that
 * {@link supersessionCaps} can follow a chain through versions that were not recalled.
 * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
 */
async function loadChains(state: NamespaceState, nodes: readonly MemoryNode[]): Promise<void> {
  const seen = new Set(nodes.map((n) => n.id));
  let frontier = nodes;
  let read = 0;
  while (frontier.length > 0 && read < CHAIN_READ_LIMIT) {
    const next = [...new Set(frontier.flatMap((n) => (n.status === 'superseded' ? n.supersededBy : [])))].filter((id) => !seen.has(id)).slice(0, CHAIN_READ_LIMIT - read);
    if (next.length === 0) return;
    next.forEach((id) => seen.add(id));
    read += next.length;
    await state.loadNodes(next);
    frontier = next.flatMap((id) => state.nodes.get(id) ?? []);
  }
}

/** The gap a superseded memory is kept below the lowest memory that replaced it. */
const SUPERSEDED_GAP = 1e-6;

/**
 * Caps the scores of superseded memories so that each ranks below every memory that replaced it,
 * directly or through a chain (a → b → c: a below b and c, whether or not b was recalled), for
 * explicit updates and System One's supersessions alike. A memory's cap is the lowest final
 * score among the recalled memories downstream of it, less {@link SUPERSEDED_GAP} (never below 0
 * unless that score is itself negative). `depth` (how many recalled replacements lie below a
 * memory along its longest chain; 0 when none) breaks the ties the floor leaves: sorted by score,
 * then depth ascending, every replaced memory comes after its replacements. A memory `applies`
 * refuses (not demoted for the question: {@link demotesSuperseded}) keeps its score and depth 0. Cycles (never written,
 * but a damaged store could hold one) are cut where met.
 * @param items the recalled memories with their scores before the cap
 * @param nodeOf a loaded node by id (undefined when not loaded or gone): the chain's links that
 *   were not recalled are followed through it
 * @param applies whether an item's memory is capped (default: every one)
 * @param links whether a replacement link (older, newer) caps: a link it refuses is not followed
 *   ({@link replacesSlot} in recall; default: every link)
 * @returns per item, in order, the capped score and the depth
 */
export function supersessionCaps(
  items: ReadonlyArray<{ node: MemoryNode; score: number }>,
  nodeOf: (id: string) => MemoryNode | undefined,
  applies: (node: MemoryNode) => boolean = () => true,
  links: (older: MemoryNode, newer: MemoryNode) => boolean = () => true,
): Array<{ score: number; depth: number }> {
  const recalled = new Map(items.map((x) => [x.node.id, x]));
  type Downstream = { below: number; depth: number };
  const none: Downstream = { below: Infinity, depth: 0 };
  const memo = new Map<string, Downstream>();
  const visiting = new Set<string>();
  const capped = (score: number, after: Downstream): number => {
    if (score < after.below - SUPERSEDED_GAP) return score;
    return after.below - SUPERSEDED_GAP >= 0 ? after.below - SUPERSEDED_GAP : Math.min(after.below, 0);
  };
  // The lowest final score of a recalled memory downstream of `id` (Infinity: none) and its depth.
  const downstream = (id: string): Downstream => {
    const known = memo.get(id);
    if (known !== undefined) return known;
    const node = recalled.get(id)?.node ?? nodeOf(id);
    if (visiting.has(id) || node === undefined || node.status !== 'superseded') return none;
    visiting.add(id);
    let below = Infinity;
    let depth = 0;
    for (const by of node.supersededBy) {
      const next = recalled.get(by)?.node ?? nodeOf(by);
      if (next !== undefined && !links(node, next)) continue; // a replacement of another slot
      const after = downstream(by);
      const own = recalled.get(by);
      if (own !== undefined) {
        below = Math.min(below, applies(own.node) ? capped(own.score, after) : own.score);
        depth = Math.max(depth, after.depth + 1);
      } else if (after.below < Infinity) {
        below = Math.min(below, after.below);
        depth = Math.max(depth, after.depth);
      }
    }
    visiting.delete(id);
    const out = { below, depth };
    memo.set(id, out);
    return out;
  };
  return items.map((x) => {
    if (!applies(x.node)) return { score: x.score, depth: 0 };
    const after = downstream(x.node.id);
    return { score: capped(x.score, after), depth: after.depth };
  });
}
