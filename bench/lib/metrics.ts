/**
 * Retrieval metrics of the LoCoMo protocol (SPEC 10): evidence recall@K, all-evidence hit@K,
 * their per-category and overall aggregation, and percentiles for latency figures. Pure
 * functions, no I/O.
 *
 * A ranking is a list of items, best first; an item is one id (a turn `dia_id`) or several ids
 * (a memory that merged exact repeats carries every turn id it stands for). The top K are the
 * first K items.
 *
 * @module
 */
import { invalidInput } from '../../src/errors.js';

/** One ranked item: an id, or the ids of the turns a merged memory stands for. */
export type RankedItem = string | readonly string[];

/** The cut-offs of the protocol (SPEC 10). */
export const KS = Object.freeze([5, 10, 20] as const);

/** One of {@link KS}. */
export type K = (typeof KS)[number];

/** Categories that make up the "overall" figure (SPEC 10: categories 1-4; 5 is adversarial). */
export const OVERALL_CATEGORIES: readonly number[] = Object.freeze([1, 2, 3, 4]);

function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw invalidInput('k', `expected a positive integer, got ${k}`);
}

/** Ids covered by the first `k` items of `ranked`. */
export function topKIds(ranked: readonly RankedItem[], k: number): Set<string> {
  checkK(k);
  const out = new Set<string>();
  for (const item of ranked.slice(0, k)) {
    if (typeof item === 'string') out.add(item);
    else for (const id of item) out.add(id);
  }
  return out;
}

/**
 * Evidence recall@K = |gold ∩ top-K| / |gold| (SPEC 10), in [0,1]. Repeated gold ids count once.
 * @throws JevMemError `INVALID_INPUT` (field `gold`) when `gold` is empty (the question has no
 *   resolvable evidence and must be left out), (field `k`) when `k` is not a positive integer.
 */
export function recallAtK(ranked: readonly RankedItem[], gold: readonly string[], k: number): number {
  const g = new Set(gold);
  if (g.size === 0) throw invalidInput('gold', 'expected at least one evidence id; leave questions without resolvable evidence out');
  const top = topKIds(ranked, k);
  let found = 0;
  for (const id of g) if (top.has(id)) found++;
  return found / g.size;
}

/**
 * All-evidence hit@K: 1 when every gold id is in the top K, else 0 (SPEC 10).
 * @throws JevMemError `INVALID_INPUT` as {@link recallAtK}.
 */
export function hitAtK(ranked: readonly RankedItem[], gold: readonly string[], k: number): 0 | 1 {
  return recallAtK(ranked, gold, k) === 1 ? 1 : 0;
}

/** Recall and hit at each K of {@link KS} for one question. */
export interface QuestionScore {
  /** LoCoMo category 1-5. */
  category: number;
  /** recall@K in [0,1], by K. */
  recall: Record<K, number>;
  /** hit@K in {0,1}, by K. */
  hit: Record<K, number>;
}

/**
 * Scores one ranking against the gold evidence at every K of {@link KS}.
 * @throws JevMemError `INVALID_INPUT` (field `gold`) when `gold` is empty.
 */
export function scoreQuestion(ranked: readonly RankedItem[], gold: readonly string[], category: number): QuestionScore {
  const recall = {} as Record<K, number>;
  const hit = {} as Record<K, number>;
  for (const k of KS) {
    recall[k] = recallAtK(ranked, gold, k);
    hit[k] = recall[k] === 1 ? 1 : 0;
  }
  return { category, recall, hit };
}

/** Means over a group of questions. */
export interface GroupScore {
  /** Number of questions in the group. */
  n: number;
  /** Mean recall@K in [0,1] (0 when n = 0). */
  recall: Record<K, number>;
  /** Mean hit@K in [0,1] (0 when n = 0). */
  hit: Record<K, number>;
}

/** Per-category and overall means. */
export interface Aggregate {
  /** Category number (as a string key, "1".."5") → its means. Only categories that occur. */
  byCategory: Record<string, GroupScore>;
  /** Means over every question of categories 1-4 ({@link OVERALL_CATEGORIES}), micro-averaged. */
  overall: GroupScore;
}

/** Mean recall and hit over a list of question scores (micro average: one weight per question). */
export function meanScore(scores: readonly QuestionScore[]): GroupScore {
  const recall = {} as Record<K, number>;
  const hit = {} as Record<K, number>;
  for (const k of KS) {
    let r = 0;
    let h = 0;
    for (const s of scores) {
      r += s.recall[k];
      h += s.hit[k];
    }
    recall[k] = scores.length > 0 ? r / scores.length : 0;
    hit[k] = scores.length > 0 ? h / scores.length : 0;
  }
  return { n: scores.length, recall, hit };
}

/**
 * Aggregates question scores per category and overall (categories 1-4, SPEC 10). Every question
 * weighs the same within its group.
 */
export function aggregate(scores: readonly QuestionScore[]): Aggregate {
  const groups = new Map<number, QuestionScore[]>();
  for (const s of scores) {
    const g = groups.get(s.category) ?? [];
    g.push(s);
    groups.set(s.category, g);
  }
  const byCategory: Record<string, GroupScore> = {};
  for (const c of [...groups.keys()].sort((a, b) => a - b)) byCategory[String(c)] = meanScore(groups.get(c) as QuestionScore[]);
  return { byCategory, overall: meanScore(scores.filter((s) => OVERALL_CATEGORIES.includes(s.category))) };
}

/**
 * The p-th percentile of `values` by linear interpolation between closest ranks (the "linear"
 * method of NumPy and R type 7): sort ascending, h = (n − 1)·p/100, result
 * x⌊h⌋ + (h − ⌊h⌋)(x⌊h⌋+1 − x⌊h⌋). p = 50 is the median, p = 100 the maximum.
 * @returns NaN for an empty list.
 * @throws JevMemError `INVALID_INPUT` (field `p`) when p is outside [0, 100].
 */
export function percentile(values: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 100)) throw invalidInput('p', `expected a percentile in [0, 100], got ${p}`);
  if (values.length === 0) return Number.NaN;
  const x = [...values].sort((a, b) => a - b);
  const h = ((x.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, x.length - 1);
  return (x[lo] as number) + (h - lo) * ((x[hi] as number) - (x[lo] as number));
}

/** Summary of a latency sample, in the sample's unit (ms in this harness). */
export interface LatencySummary {
  n: number;
  mean: number;
  p50: number;
  p95: number;
  max: number;
}

/** n, mean, p50, p95 and max of a sample ({@link percentile}); NaN figures when it is empty. */
export function summarize(values: readonly number[]): LatencySummary {
  const n = values.length;
  return {
    n,
    mean: n > 0 ? values.reduce((a, b) => a + b, 0) / n : Number.NaN,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    max: n > 0 ? values.reduce((a, b) => (b > a ? b : a), -Infinity) : Number.NaN,
  };
}

/** The part of a memory that {@link measureReopen} uses. */
interface Reopenable {
  close(): Promise<void>;
  get(id: string): Promise<unknown>;
  stats(): Promise<unknown>;
  recall(query: string, options: { k: number }): Promise<unknown>;
}

/** Id {@link measureReopen} asks for: no memory has it, so the call only loads the namespace. */
export const REOPEN_PROBE_ID = 'jev-mem-bench:reopen-probe';

/**
 * Times a reopen the same way in Node and in the browser bench page: close the memory, open it
 * again and load its namespace (a `get` of an id no memory has: the caches rebuilt from the
 * store, nothing else), then one recall, then one `stats()` apart: its `storageBytes` reads the
 * whole namespace in some stores (IndexedDB), which is not part of opening.
 * @returns the reopened memory, the reopen time (open + namespace load), the first recall's
 *   time and the `stats()` time, in ms.
 */
export async function measureReopen<M extends Reopenable>(memory: M, open: () => Promise<M>, question: string): Promise<{ memory: M; reopenMs: number; firstRecallMs: number; statsMs: number }> {
  await memory.close();
  const tr = performance.now();
  const reopened = await open();
  await reopened.get(REOPEN_PROBE_ID);
  const reopenMs = performance.now() - tr;
  const tf = performance.now();
  await reopened.recall(question, { k: 20 });
  const firstRecallMs = performance.now() - tf;
  const ts = performance.now();
  await reopened.stats();
  return { memory: reopened, reopenMs, firstRecallMs, statsMs: performance.now() - ts };
}

/** Write figures of one size of the scale bench (Node and browser alike). */
export interface WriteFigures {
  /** Writes timed for throughput (the last ones before reaching the size). */
  measured: number;
  /** Their wall time, ms. */
  ms: number;
  /** Observations per second over them. */
  perSecond: number;
  /** System-One calls (round trips) per write over them. */
  systemOneCallsPerWrite: number;
  /** System-One time per write over them, ms. */
  systemOneMsPerWrite: number;
  /** Wall time of growing from the previous size to this one, ms. */
  segmentMs: number;
}

/**
 * The {@link WriteFigures} of `measured` writes that took `ms` (wall time, ms) and used System One
 * `systemOne.calls` times for `systemOne.ms` ms; rates are 0 when nothing was measured.
 */
export function writeFigures(measured: number, ms: number, systemOne: { calls: number; ms: number }, segmentMs: number): WriteFigures {
  return {
    measured,
    ms,
    perSecond: ms > 0 ? (measured * 1000) / ms : 0,
    systemOneCallsPerWrite: measured > 0 ? systemOne.calls / measured : 0,
    systemOneMsPerWrite: measured > 0 ? systemOne.ms / measured : 0,
    segmentMs,
  };
}
