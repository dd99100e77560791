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
import { demoteRepeats } from './repeats.js';
import { guardedScores, guardWeight } from './guard.js';
import { recencyAdjusted, recencyFactor } from './score.js';
import { namespaceIdf, type QueryContext } from './signals.js';
import { orderLift } from './order.js';
import { asksAboutQuestions, isRequest, REQUEST_FACTOR } from './request.js';
import { presentLift, WINDOW_BOOST, windowWeight, type QuestionWindow } from './when.js';
import { successorLift, type SuccessorPair } from './successors.js';
import { demotesSuperseded, liftReplacements, loadChains, questionLinks, replacedFor, SUPERSEDED_FACTOR, supersessionCaps } from './supersession.js';

export { answersQuestion, demotesSuperseded, holdsOnlyQuestionSlot, namesQuestionSlot, liftReplacements, questionLinks, questionSlots, replacedFor, replacesSlot, SUPERSEDED_FACTOR, supersessionCaps } from './supersession.js';

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
  if (n.duplicates !== undefined && n.duplicates.length > 0) m.duplicates = n.duplicates;
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
  /** Later values of the question's slot found for the best candidates (successors.ts): each raised to just above its seed (`successorLift`). */
  successors?: readonly SuccessorPair[];
  /** A before/after question (order.ts): the memories naming the anchor, the anchor evidence and its neighbours, best first, lifted around it (`orderLift`). */
  order?: { named: readonly string[]; anchors: readonly string[]; answers?: readonly string[]; neighbours: readonly string[] };
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
  // A replacement counts for this question when it is about the replaced memory's slot and
  // answers the slot the question names (supersession.ts `questionLinks`): "Who is my partner?"
  // does not demote a message whose partner fact nothing replaced.
  const links = questionLinks(input.query);
  const demoted = new Set(all.filter((s) => demotesSuperseded(s.node, input, nodeOf) && replacedFor(s.node, nodeOf, links.caps)).map((s) => s.node.id));
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
    // A replaced memory takes no part: what replaced it is known (liftReplacements below), and a
    // fact of it nothing replaced ("Who is my partner?") is not read as updated by a later turn.
    const still = (n: MemoryNode): boolean => !requests.has(n.id) && n.status !== 'superseded';
    const lifted = presentLift(ranked.map((x) => ({ node: x.s.node, score: x.score, vector: still(x.s.node) ? state.vectors.get(x.s.node.id) : undefined })), input.asOfMs);
    ranked.forEach((x, i) => (x.score = lifted[i] as number));
  }
  if (input.successors !== undefined && input.successors.length > 0) {
    const lifted = successorLift(ranked.map((x) => ({ id: x.s.node.id, score: x.score })), input.successors);
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
  // A memory demoted for this question gives its place to what replaced it (liftReplacements),
  // then ranks below every memory that replaced it, directly or along the chain, whenever both
  // are recalled (supersessionCaps); both follow only the links that count (questionLinks).
  const isDemoted = (n: MemoryNode): boolean => demoted.has(n.id);
  const raised = liftReplacements(ranked.map((x) => ({ node: x.s.node, score: x.score })), nodeOf, isDemoted, links.lifts);
  ranked.forEach((x, i) => (x.score = raised[i] as number));
  const capped = supersessionCaps(
    ranked.map((x) => ({ node: x.s.node, score: x.score })),
    nodeOf,
    isDemoted,
    links.caps,
  );
  ranked.forEach((x, i) => (x.score = (capped[i] as { score: number }).score));
  const depth = new Map(ranked.map((x, i) => [x.s.node.id, (capped[i] as { depth: number }).depth]));
  const order = (a: (typeof ranked)[number], b: (typeof ranked)[number]): number => b.score - a.score || (depth.get(a.s.node.id) ?? 0) - (depth.get(b.s.node.id) ?? 0) || a.s.node.seq - b.s.node.seq;
  ranked.sort(order);
  // A text said again at another time counts once near the top (repeats.ts), unless the question
  // asks for several things.
  if (!asksAggregate(input.query)) {
    const once = demoteRepeats(ranked.map((x) => ({ text: x.s.node.text, score: x.score })));
    if (once.some((v, i) => v !== ranked[i]?.score)) {
      ranked.forEach((x, i) => (x.score = once[i] as number));
      ranked.sort(order);
    }
  }
  // The returned score stays on [0,1] and in rank order (h-break10 finding 4): a window or a lift
  // can raise the best above 1, and then every score is divided by it (the order is kept).
  const scale = Math.max(1, ranked[0]?.score ?? 0);
  if (scale > 1) ranked.forEach((x) => (x.score /= scale));
  const inWindow = !windowed ? ranked : ranked.filter((x) => passes(x.s.node));
  // A superseded memory reports when it was replaced: read the replacing node's time.
  await state.loadNodes(inWindow.slice(0, k).flatMap(({ s }) => (s.node.status === 'superseded' ? s.node.supersededBy.slice(0, 1) : [])));
  const memories: RecalledMemory[] = inWindow.slice(0, k).map(({ s, score }) => ({ ...toRecalled(s.node, Math.max(0, score), state), relevance: s.relevance }));
  return { memories, g, coverage: f };
}

