/**
 * Questions that name a time, and questions about the present (issue 24).
 *
 * - {@link questionWindow}: the time a question names ("in March", "last weekend", "two weeks
 *   ago", "in 2023", "yesterday", "between May and June", "in the spring"), read by chrono-node
 *   through `extractTimeRefs` (util/time.ts) against the recall's clock (`RecallOptions.now`, else
 *   the memory's `now`), in the same calendar and tense rules as the memories' own time
 *   references: a year-less month in a past-tense question is the last one before now. A request
 *   for a suggestion names no window (its time is the plan's: "a series to start this weekend"),
 *   and in a window after the clock only event times weigh, not observation times.
 * - {@link windowWeight}: how far a memory's time (its event times, and its `observedAt`) lies
 *   from that window: 1 inside, falling off as exp(−d/σ) outside, σ a thirtieth of the window's
 *   length (at least half a day: a day for a month, twelve for a year), 0 below {@link WINDOW_FLOOR}.
 * - {@link asksPresent}: a question about the present state ("now", "currently", "these days",
 *   "at the moment", "still", or a present-tense question about a state: "Where do I live?",
 *   "Which company do I work at?", "What's my diet?").
 *
 * The read path (recall.ts, recalled.ts) draws in-window memories from deeper in its pools, and
 * multiplies final scores by 1 + β_w·w(v) (window) and 1 + β_p·ρ(v) (present; ρ the memory's
 * place in time among the candidates, 0 oldest … 1 newest), so the terms reorder near-equal
 * memories and never drop the only match.
 *
 * @module
 */
import { extractTimeRefs } from '../util/time.js';
import { asksSuggestion } from './guard.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { MemoryNode } from '../types.js';

const DAY_MS = 86_400_000;
/** Window weights below this count as 0 (the memory is outside the window). */
export const WINDOW_FLOOR = 0.05;
/** β_w: the most a memory inside the question's window gains, as a factor 1 + β_w. Chosen on the chats dev part and LoCoMo dev. */
export const WINDOW_BOOST = 1;
/** β_p: a newer memory on a top memory's subject is raised to that memory's score × (1 + β_p), just above it (so it takes its place without jumping over others) for a question about the present. Chosen on the chats dev part: knowledge-update R@5 50.0 with 0.3, 54.2 with 0.01. */
export const PRESENT_BOOST = 0.01;
/** How many memories in the window are drawn from deeper in the pools into the anchors, at most. */
export const WINDOW_DRAW = 20;

/** The time a question names, as an interval of epoch ms. */
export interface QuestionWindow {
  /** The words that named it ("last weekend", "March"). */
  text: string;
  /** First instant, epoch ms. */
  startMs: number;
  /** Last instant (inclusive), epoch ms. */
  endMs: number;
  /**
   * True when the window starts after the clock it was read against ("next weekend", "tomorrow"):
   * no memory is observed then, so only memories whose event times (time references) fall in
   * or near it weigh ({@link windowWeight}). Absent: false.
   */
  future?: boolean;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
/** Seasons (northern hemisphere) as their first month (0-based) and length in months. */
const SEASONS: Record<string, number> = { spring: 2, summer: 5, autumn: 8, fall: 8, winter: 11 };
/** Words chrono reads as times that, in a question, ask about the present: no window. */
const PRESENT_WORDS = /^(?:now|right now|today|currently|at the moment|at present|these days|nowadays)$/i;
/** "between May and June", "from March to April", "from March until May". */
const RANGE = /\b(?:between|from)\s+(.+?)\s+(?:and|to|until|till|through)\s+(.+?)(?=[?.!,;]|$)/i;
/** "in May", "during May", "since May", "May 2023": the month word alone, which chrono skips for "may". */
const MONTH_WORD = new RegExp(`\\b(?:in|during|of|since|early|late|mid|by)\\s+(?:early\\s+|late\\s+|mid-?)?(${MONTHS.join('|')})\\b`, 'i');
const SEASON_WORD = /\b(?:in|during|this|last|over)\s+(?:the\s+)?(spring|summer|autumn|fall|winter)\b/i;
const PAST = /\b(?:did|was|were|had|went|ago|last|previous|earlier)\b|\b\w+ed\b/i;

/** The most recent interval of `months` months starting at month `m0` (0-11) that starts at or before now (a future one in a question about the future). */
function monthSpan(m0: number, months: number, nowMs: number, past: boolean): [number, number] {
  const now = new Date(nowMs);
  let y = now.getUTCFullYear();
  let start = Date.UTC(y, m0, 1);
  if (past && start > nowMs) start = Date.UTC(--y, m0, 1);
  if (!past && Date.UTC(y, m0 + months, 1) <= nowMs) start = Date.UTC(++y, m0, 1);
  return [start, Date.UTC(y, m0 + months, 1) - 1];
}

/** The same UTC calendar instant a year later. */
function yearLater(ms: number): number {
  const d = new Date(ms);
  d.setUTCFullYear(d.getUTCFullYear() + 1);
  return d.getTime();
}

/** One side of a range, or a whole question: its intervals (chrono, then bare month and season words). */
function spans(text: string, nowMs: number, past: boolean): QuestionWindow[] {
  const out: QuestionWindow[] = [];
  for (const t of extractTimeRefs(text, nowMs, 0)) {
    if (PRESENT_WORDS.test(t.text.trim())) continue;
    out.push({ text: t.text, startMs: Date.parse(t.start), endMs: Date.parse(t.end ?? t.start) });
  }
  if (out.length === 0) {
    const bare = new RegExp(`^\\s*(${MONTHS.join('|')})\\s*$`, 'i').exec(text) ?? MONTH_WORD.exec(text);
    if (bare) {
      const [a, b] = monthSpan(MONTHS.indexOf((bare[1] as string).toLowerCase()), 1, nowMs, past);
      out.push({ text: bare[0].trim(), startMs: a, endMs: b });
    }
    const season = SEASON_WORD.exec(text) ?? /^\s*(spring|summer|autumn|fall|winter)\s*$/i.exec(text);
    if (season) {
      const [a, b] = monthSpan(SEASONS[(season[1] as string).toLowerCase()] as number, 3, nowMs, past);
      out.push({ text: season[0].trim(), startMs: a, endMs: b });
    }
  }
  return out;
}

/**
 * The time window a question names, relative to `nowMs` (the recall's clock), or undefined when
 * it names none. Several expressions give their hull; "between A and B" / "from A to B" the hull
 * of A and B. Words that only mark the present ("now", "today" in "what do I do today" is kept
 * as a day; "now", "currently" are not windows) name no window.
 * @param query - the question.
 * @param nowMs - the clock, epoch ms.
 */
export function questionWindow(query: string, nowMs: number): QuestionWindow | undefined {
  const past = PAST.test(query);
  const range = RANGE.exec(query);
  let found: QuestionWindow[] = [];
  if (range) {
    const a = spans(range[1] as string, nowMs, past);
    // the range's end is the first such time at or after its start ("between May and June" said in mid-May: this June)
    const b = spans(range[2] as string, nowMs, past).map((x) => (a[0] !== undefined && x.startMs < a[0].startMs ? { ...x, startMs: yearLater(x.startMs), endMs: yearLater(x.endMs + 1) - 1 } : x));
    if (a.length > 0 && b.length > 0) found = [...a, ...b];
  }
  if (found.length === 0) found = spans(query, nowMs, past);
  if (found.length === 0) return undefined;
  const startMs = Math.min(...found.map((w) => w.startMs));
  const out: QuestionWindow = { text: found.map((w) => w.text).join(' … '), startMs, endMs: Math.max(...found.map((w) => w.endMs)) };
  if (startMs > nowMs) out.future = true;
  return out;
}

/**
 * The weight of a memory's time for a window: the best, over its event times (time references,
 * each at the middle of its interval: "in February" is not at the edge of March) and its
 * observation time (not for a {@link QuestionWindow.future} window: what was said before the
 * question is not said in the week after it), of 1 inside [start, end] and exp(−d/σ) at
 * distance d outside, σ =
 * max(½ day, (end − start)/30); 0 when below {@link WINDOW_FLOOR} or the memory has no time.
 */
export function windowWeight(n: Pick<MemoryNode, 'timeRefs' | 'observedAt'>, w: QuestionWindow): number {
  const sigma = Math.max(DAY_MS / 2, (w.endMs - w.startMs) / 30);
  const at = (t: number): number => {
    if (!Number.isFinite(t)) return 0;
    const d = t < w.startMs ? w.startMs - t : t > w.endMs ? t - w.endMs : 0;
    return Math.exp(-d / sigma);
  };
  let best = 0;
  for (const t of n.timeRefs) {
    const a = Date.parse(t.start);
    best = Math.max(best, at(t.end === undefined ? a : (a + Date.parse(t.end)) / 2));
  }
  if (n.observedAt !== undefined && w.future !== true) best = Math.max(best, at(Date.parse(n.observedAt)));
  return best >= WINDOW_FLOOR ? best : 0;
}

const PRESENT_MARK = /\b(?:now|currently|current|these days|at the moment|at present|nowadays|presently|still|anymore|any more|right now|today)\b/i;
/** A present-tense question about a state, first or second person: "where do I live", "what's my", "am I", "which ... do I work at". */
const PRESENT_STATE = /\b(?:do|does)\s+(?:i|we|my\s+\w+)\b|\b(?:am\s+i|are\s+we|is\s+my|are\s+my|is\s+our|are\s+our)\b|\b(?:what|who|where|which|how)(?:'s|\s+is)\s+my\b|\bi(?:'m|\s+am)\s+\w+ing\b/i;
const PAST_OR_FUTURE = /\b(?:did|was|were|had|used to|will|going to|gonna|ago|last|before|first|originally|previous|previously|earlier|former|formerly)\b/i;

/**
 * True when the question asks about the present state: it says so ("now", "currently", "these
 * days", "at the moment", "still", …), or asks in the present tense about a state ("Where do I
 * live?", "What's my diet?", "Am I vegetarian?") with no word of the past or the future ("did",
 * "used to", "will", "first", "before", …). A question that names a time window is not one.
 */
export function asksPresent(query: string): boolean {
  if (PRESENT_MARK.test(query)) return !/\b(?:did|was|were|used to|ago)\b/i.test(query);
  return PRESENT_STATE.test(query) && !PAST_OR_FUTURE.test(query);
}

/** Words of a question about the past: a past tense, "used to", "before", "first", "ago", … */
const PAST_WORDS = /\b(?:did|was|were|had|used to|ago|before|first|originally|previous|previously|earlier|former|formerly|back then|at the time)\b/i;
/** A present perfect over the whole history ("What has Melanie painted?", "Which events have they attended?"). */
const PERFECT = /\b(?:has|have|'ve)\s+(?:\w+\s+){0,3}?(?:been|had|done|made|seen|gone|taken|read|written|\w{3,}ed)\b/i;

/**
 * True when the question asks about the past or the whole history, not about the present state
 * (issue 24, h-update): a past tense or a word of the past ("When did I move?", "Where did Tom
 * live before?", "What was my first job?", "… two years ago", "used to") or a present perfect
 * ("What has Melanie painted?"), and not {@link asksPresent}. A state that was replaced still
 * answers such a question: recall does not demote superseded memories for it (recalled.ts).
 */
export function asksPast(query: string): boolean {
  if (asksPresent(query)) return false;
  return PAST_WORDS.test(query) || PERFECT.test(query);
}

/**
 * ρ(v) for a question about the present: each memory's place in observation time among `nodes`,
 * by rank (0 the oldest … 1 the newest; ties share their mean place), so one very old memory does
 * not squeeze the others together; memories without `observedAt` 0.
 */
export function recencyPlaces(nodes: ReadonlyArray<Pick<MemoryNode, 'observedAt'>>): number[] {
  const t = nodes.map((n) => (n.observedAt === undefined ? NaN : Date.parse(n.observedAt)));
  const seen = [...new Set(t.filter((x) => Number.isFinite(x)))].sort((a, b) => a - b);
  if (seen.length < 2) return t.map(() => 0);
  const place = new Map(seen.map((x, i) => [x, i / (seen.length - 1)]));
  return t.map((x) => place.get(x) ?? 0);
}

/** What recall's trace says of the question's time (`RecallTrace.when`). */
export interface TraceWhen {
  /** The window the question names (ISO instants), absent when none. */
  window?: { text: string; start: string; end: string };
  /** True when the question asks about the present (and names no window). */
  present: boolean;
  /** True when the question asks about the past or the whole history ({@link asksPast}; names no window): superseded memories are not demoted. */
  past: boolean;
  /** System One's route.temporal p_temporal(q) (1 without routing), for comparison: the parser decides. */
  temporal: number;
  /** Memories in the window drawn from deeper in the pools into the anchors. */
  drawn: string[];
}

/**
 * The memories in the window that are not anchors yet: the first {@link WINDOW_DRAW} of the
 * vector list (searched `depth` deep) and then the lexical list, by window weight (inside first)
 * then list order, that `passes` keeps. Loads the bodies it reads.
 * @param lists - the vector and lexical hit lists, best first.
 */
export async function drawWindow(
  state: Pick<NamespaceState, 'loadNodes' | 'nodes'>,
  w: QuestionWindow,
  lists: ReadonlyArray<ReadonlyArray<{ id: string }>>,
  anchors: ReadonlySet<string>,
  passes: (n: MemoryNode) => boolean,
): Promise<string[]> {
  const ids = [...new Set(lists.flat().map((h) => h.id))].filter((id) => !anchors.has(id));
  await state.loadNodes(ids);
  const found: Array<{ id: string; w: number; i: number }> = [];
  ids.forEach((id, i) => {
    const n = state.nodes.get(id);
    if (n === undefined || n.status === 'deleted' || !passes(n)) return;
    const x = windowWeight(n, w);
    if (x >= 0.5) found.push({ id, w: x, i });
  });
  found.sort((a, b) => b.w - a.w || a.i - b.i);
  return found.slice(0, WINDOW_DRAW).map((f) => f.id);
}

/** How deep the vector list is searched for memories in the window. */
const WINDOW_VECTOR_DEPTH = 300;

/** What {@link questionTime} reads of the recall. */
export interface QuestionTimeInput {
  query: string;
  /** The recall's clock (the memory's `now`), epoch ms; absent: no window is read. */
  nowMs: number | undefined;
  /** p_temporal(q) of the routing, for the trace. */
  temporal: number;
  /** The query vector when it carries evidence (gather.ts), else undefined. */
  queryVector: Float32Array | undefined;
  /** The lexical pool, best first. */
  lexHits: ReadonlyArray<{ id: string }>;
  /** The recall's window and filter test. */
  passes: (n: MemoryNode) => boolean;
}

/**
 * The question's time for one recall: its window (relative to `nowMs`; none for a request for a
 * suggestion, guard.ts `asksSuggestion`, whose times are those of the plan) or, without one, whether
 * it asks about the present; with a window, the in-window memories {@link drawWindow} finds in
 * the vector list ({@link WINDOW_VECTOR_DEPTH} deep) and the lexical pool are appended to
 * `fused` as anchors (rrf 0, ranks 0).
 */
export async function questionTime(
  state: Pick<NamespaceState, 'loadNodes' | 'nodes' | 'vector'>,
  input: QuestionTimeInput,
  fused: Array<{ id: string; rrf: number; ranks: number[] }>,
): Promise<{ window?: QuestionWindow; present: boolean; past: boolean; trace: TraceWhen }> {
  // A request for a suggestion names the time of what it plans ("a series I could start this
  // weekend", "dinner tonight"), not the time its evidence was said: no window.
  const w = input.nowMs === undefined || asksSuggestion(input.query) ? undefined : questionWindow(input.query, input.nowMs);
  const present = w === undefined && asksPresent(input.query);
  const past = w === undefined && !present && asksPast(input.query);
  const trace: TraceWhen = { present, past, temporal: input.temporal, drawn: [] };
  if (w === undefined) return { present, past, trace };
  trace.window = { text: w.text, start: new Date(w.startMs).toISOString(), end: new Date(w.endMs).toISOString() };
  const vec = input.queryVector !== undefined && state.vector.size > 0 ? state.vector.search(input.queryVector, WINDOW_VECTOR_DEPTH) : [];
  trace.drawn = await drawWindow(state, w, [vec, input.lexHits], new Set(fused.map((f) => f.id)), input.passes);
  for (const id of trace.drawn) fused.push({ id, rrf: 0, ranks: [0, 0] });
  return { window: w, present, past, trace };
}

/** How many of the best candidates a question about the present looks past for newer versions. */
export const PRESENT_TOP = 5;
/**
 * Least cosine between two memories for the newer to count as about the same subject (the
 * shipped encoder's cosines are compressed: over the user turns of a 19-turn history the median
 * pair is 0.64, the 90th percentile 0.76; "promoted at Brightwave" / "left Brightwave for
 * Northloop" 0.80, "vegetarian" / "pescatarian now" 0.77).
 */
export const SAME_SUBJECT_COSINE = 0.75;

/**
 * For a question about the present: for each of the {@link PRESENT_TOP} best memories v (by
 * score), the best-scored candidate u observed after v, of the same speaker, with cosine(u, v) ≥
 * {@link SAME_SUBJECT_COSINE} (a later word on the same subject) is raised to just above v's score
 * (v × (1 + β_p)), never lowered; v keeps its score, so old evidence still ranks, one place down.
 * @param items - the candidates with their scores and unit vectors (undefined: not compared).
 * @param asOfMs - the time the question is asked at (`RecallOptions.now`), epoch ms: a memory
 *   observed after it is not the present and is never lifted; absent: every memory counts.
 * @returns the new scores, in order.
 */
export function presentLift(items: ReadonlyArray<{ node: Pick<MemoryNode, 'observedAt' | 'provenance'>; score: number; vector: Float32Array | undefined }>, asOfMs?: number): number[] {
  const out = items.map((x) => x.score);
  const order = items.map((_, i) => i).sort((a, b) => (items[b] as { score: number }).score - (items[a] as { score: number }).score);
  for (const i of order.slice(0, PRESENT_TOP)) {
    const v = items[i] as (typeof items)[number];
    if (v.vector === undefined || v.node.observedAt === undefined) continue;
    const tv = Date.parse(v.node.observedAt);
    let best = -1;
    items.forEach((u, j) => {
      if (j === i || u.vector === undefined || u.node.observedAt === undefined || u.node.provenance.speaker !== v.node.provenance.speaker) return;
      const tu = Date.parse(u.node.observedAt);
      if (tu <= tv || (asOfMs !== undefined && tu > asOfMs)) return;
      let c = 0;
      for (let x = 0; x < u.vector.length; x++) c += (u.vector[x] as number) * ((v.vector as Float32Array)[x] as number);
      if (c >= SAME_SUBJECT_COSINE && (best < 0 || u.score > (items[best] as { score: number }).score)) best = j;
    });
    if (best >= 0) out[best] = Math.max(out[best] as number, v.score >= 0 ? v.score * (1 + PRESENT_BOOST) : v.score);
  }
  return out;
}
