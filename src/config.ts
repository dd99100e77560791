/**
 * Parameters of the memory (SPEC 8, the paper's experimental profile) and their resolution:
 * defaults are merged and validated in exactly this one place, and the result is frozen.
 *
 * @module
 */
import { describeValue, invalidOption } from './errors.js';

/**
 * The tunable parameters of the write and read paths. Symbols are the paper's.
 * Thresholds are probabilities in [0,1]; times are milliseconds.
 */
export interface MemoryParameters {
  /** θ_rel: insert an edge of view g when P(g | v,u) ≥ θ_rel, eq. (9). @default 0.6 */
  thetaRel: number;
  /** θ_act: a view is active when p_g(q) ≥ θ_act, eq. (12). @default 0.1 */
  thetaAct: number;
  /** θ_suff: sufficiency threshold of the stop rule, eq. (21). @default 0.95 */
  thetaSuff: number;
  /** θ_cont: continue / missing / contradiction threshold, eq. (21)-(22). @default 0.15 */
  thetaCont: number;
  /** γ: allocation concentration, eq. (13). @default 1 */
  gamma: number;
  /** B: total graph budget (expansions per query), eq. (14). @default 80 */
  budget: number;
  /** m: minimum budget per active view, eq. (14). @default 1 */
  minPerView: number;
  /** D_max: maximum depth, eq. (15). @default 8 */
  maxDepth: number;
  /** K_w: write candidates per observation, eq. (8). @default 10 */
  writeCandidates: number;
  /** W: beam width. @default 10 */
  beamWidth: number;
  /** K: evidence returned (and sent to System Two); at most {@link MAX_RECALL_K}. @default 40 */
  k: number;
  /** K for multi-hop queries (h(q) ≥ 0.5); at most {@link MAX_RECALL_K}. @default 50 */
  kMultiHop: number;
  /** Anchor count taken from the fused vector + lexical ranking. @default 30 */
  anchors: number;
  /** κ: reciprocal rank fusion constant, eq. (16). @default 60 */
  rrfK: number;
  /** λ1..λ5: transition weights of eq. (23). @default [0.25, 0.35, 0.15, 0.15, 0.10] */
  lambdas: [number, number, number, number, number];
  /** Global read limit: nodes visited per query. @default 60 */
  maxVisited: number;
  /** Global read limit: edges inspected per query. @default 2400 */
  maxEdgesInspected: number;
  /** Global read limit: System-One calls per query. @default 16 */
  maxControllerCalls: number;
  /** Global read limit: time per query in ms. @default 15000 */
  readDeadlineMs: number;
  /** J_c: maintenance runs every J_c writes (0 disables). @default 20 */
  maintenanceInterval: number;
  /** Maintenance decision threshold. @default 0.85 */
  maintenanceThreshold: number;
  /**
   * Most observations of one bulk write call (`addMany`, `jev-mem ingest` / `import`) that join the
   * maintenance queue (issue 25, SPEC 4 step 7): its LAST this many; the earlier ones of a longer
   * call are written, typed, linked and state-updated against their K_w candidates as any write,
   * but get no maintenance pass (no wider neighbourhood of 20 state-update and 5 System-One
   * neighbours), so maintenance costs a bulk import O(this), not O(its length). A call of at most
   * this many observations is maintained as before (LoCoMo's conversations: ≤ 700 turns). On
   * LoCoMo dev conv-26 maintenance adds only semantic `related` links (15 of 5,760 edges per write,
   * no supersession): the tolerance `test/write/bulk.test.ts` checks. 0 leaves no observation of
   * a bulk call to maintenance; `Number.MAX_SAFE_INTEGER` maintains all. A call of one observation
   * (`add`, `update`) is always queued.
   * @default 1024
   */
  bulkMaintenanceMax: number;
  /**
   * The state-update head that decides supersession (`'logistic'`, the issue-14 head, or `'mlp'`,
   * the issue-24 MLP head; see `StateUpdateHead` in system-one/state-update.ts for the figures).
   * @default 'mlp'
   */
  stateUpdateHead: 'logistic' | 'mlp';
  /** Two turns closer than this many ms get a temporal `close_in_time` edge. @default 3_600_000 (1 h) */
  closeInTimeMs: number;
  /** Per-write System-One deadline in ms (after it, the deterministic fallback is used). @default 5000 */
  writeDeadlineMs: number;
  /** Longest accepted text, in characters (UTF-16 code units). @default 100_000 */
  maxTextChars: number;
  /**
   * Most nodes a term of a write's lexical probe may occur in (SPEC 4 step 4, eq. (8); see
   * `lexicalProbe` in write/candidates.ts). The probe keeps terms in at most 1% of the nodes; this
   * caps that share at a fixed count, so the posting lists a write reads stop growing with the
   * memory (issue 4: at 100k nodes the 1% rule let each probe term read up to 1,000 postings, a
   * tenth of a write's time). Only namespaces over 100 × this many nodes see a difference
   * (20,000 by default); rarer terms carry more BM25 weight anyway, and candidates also come from
   * the vector index, shared entities and the previous turn. @default 200
   */
  writeProbeMaxDf: number;
  /**
   * Most nodes a question term may occur in to take part in the lexical anchor search of a recall
   * (SPEC 6 step 3, I^lex in eq. (16); `lexicalAnchorQuery` in read/lexical-query.ts). A common
   * term has a long posting list and little BM25 weight (at 2,000 of 100,000 nodes its IDF is
   * ln 50 ≈ 3.9, against ≈ 11 for a term in one node): leaving it out bounds the postings a recall
   * reads whatever the memory's size (issue 4: at 100k nodes a speaker's name is in ~20,000 nodes
   * and made the lexical search most of a recall's time). A namespace of at most this many nodes
   * never sees a difference. @default 2000
   */
  recallQueryMaxDf: number;
  /**
   * θ_hop: the read path's hop (issue 24, read/hop.ts: a second retrieval round seeded by the first
   * round's best evidence) runs when System One's multi-hop probability h(q) (`route.multi_hop`)
   * is at least this, and the last stop estimate did not find the evidence sufficient (eq. (21)).
   * 1 hops only at h = 1; set `switches.hop: false` on a recall to turn it off. Chosen on LoCoMo
   * dev (docs/bench/HOP.md). @default 0.5
   */
  hopThreshold: number;
  /** Seeds of the hop: how many of the first round's best-scored nodes its second query is formed from. @default 3 */
  hopSeeds: number;
  /**
   * Most nodes the hop adds and scores (fewer when `maxVisited` leaves less room: the hop's nodes
   * count as visited). @default 20
   */
  hopAnchors: number;
  /**
   * θ_pool: the wider candidate pool (issue 24, read/pool.ts) is built when `poolAnchors` > 0 and
   * either System One's multi-hop probability h(q) (`route.multi_hop`) is at least this or the
   * out-of-distribution guard's weight g (read/guard.ts) is above 0; 1 turns the h route off and
   * leaves only the guard's reading (so the h = 1 of a recall with `switches.routing: false` does
   * not build it). Set `switches.pool: false` on a recall to turn it off.
   * docs/bench/HOP.md ("The wider pool"). @default 1
   */
  poolThreshold: number;
  /**
   * Extra anchors of the wider pool: how many nodes beyond `anchors` a question that gets the pool
   * scores, from deeper in the vector and lexical lists and from the soft lexical list
   * (read/pool.ts); `maxVisited` grows by the same number for that question. 0 = off.
   * Chosen on LoCoMo dev and the chats bench's dev part (docs/bench/HOP.md). @default 60
   */
  poolAnchors: number;
  /**
   * δ of the session coverage step of the final ranking (issue 24, read/coverage.ts): for a
   * question that asks for several things ("how many…", "which countries have I…", "in total"),
   * each memory's score is multiplied by f = 1 − g·(1 − δ) once per memory of its own session
   * ranked above it, g being the out-of-distribution guard's weight (read/guard.ts), so that the
   * top K covers several sessions. g = 0 on histories in System One's fitted range (LoCoMo:
   * named speakers, short turns), where the order is unchanged; 1 turns the step off. Chosen on
   * the chats bench's dev part (docs/bench/CHATS.md, "Round four"). @default 0.5
   */
  sessionRepeatFactor: number;
}

/**
 * Most memories one recall returns: the upper bound of `RecallOptions.k` and of the parameters
 * `k` and `kMultiHop`. A recall ranks at most its candidate pool (anchors, the graph expansion
 * within `budget` and `maxVisited`, and the lexical and vector candidates), so a larger k would
 * only ask every scoring stage to size itself for results that cannot exist; 1,000 is also
 * `MAX_LIST_LIMIT`, the largest page of `list`.
 */
export const MAX_RECALL_K = 1000;

/** The defaults of {@link MemoryParameters} (SPEC 8). Frozen. */
export const DEFAULT_PARAMETERS: Readonly<MemoryParameters> = Object.freeze({
  thetaRel: 0.6,
  thetaAct: 0.1,
  thetaSuff: 0.95,
  thetaCont: 0.15,
  gamma: 1,
  budget: 80,
  minPerView: 1,
  maxDepth: 8,
  writeCandidates: 10,
  beamWidth: 10,
  k: 40,
  kMultiHop: 50,
  anchors: 30,
  rrfK: 60,
  lambdas: Object.freeze([0.25, 0.35, 0.15, 0.15, 0.1]) as unknown as [number, number, number, number, number],
  maxVisited: 60,
  maxEdgesInspected: 2400,
  maxControllerCalls: 16,
  readDeadlineMs: 15_000,
  maintenanceInterval: 20,
  maintenanceThreshold: 0.85,
  bulkMaintenanceMax: 1024,
  stateUpdateHead: 'mlp',
  closeInTimeMs: 3_600_000,
  writeDeadlineMs: 5_000,
  maxTextChars: 100_000,
  writeProbeMaxDf: 200,
  recallQueryMaxDf: 2000,
  hopThreshold: 0.5,
  hopSeeds: 3,
  hopAnchors: 20,
  poolThreshold: 1,
  poolAnchors: 60,
  sessionRepeatFactor: 0.5,
});

const PROBABILITIES: Array<keyof MemoryParameters> = ['thetaRel', 'thetaAct', 'thetaSuff', 'thetaCont', 'maintenanceThreshold', 'hopThreshold', 'poolThreshold', 'sessionRepeatFactor'];
const POSITIVE_INTS: Array<keyof MemoryParameters> = [
  'budget',
  'maxDepth',
  'writeCandidates',
  'beamWidth',
  'k',
  'kMultiHop',
  'anchors',
  'maxVisited',
  'maxEdgesInspected',
  'maxControllerCalls',
  'maxTextChars',
  'writeProbeMaxDf',
  'recallQueryMaxDf',
  'hopSeeds',
  'hopAnchors',
];
const NON_NEGATIVE: Array<keyof MemoryParameters> = [
  'minPerView',
  'maintenanceInterval',
  'bulkMaintenanceMax',
  'poolAnchors',
  'rrfK',
  'readDeadlineMs',
  'closeInTimeMs',
  'writeDeadlineMs',
  'gamma',
];

/**
 * Merges `overrides` over {@link DEFAULT_PARAMETERS}, validates every field and freezes the result.
 * @param overrides Partial parameters; `undefined` fields keep their defaults.
 * @param path Option path used in error messages (`parameters`).
 * @throws JevMemError `INVALID_OPTION` naming the field: an unknown key, a probability outside
 *   [0,1], a count that is not a positive integer, `k` or `kMultiHop` above {@link MAX_RECALL_K}, or λ that is not five non-negative numbers with a
 *   positive sum.
 */
export function resolveParameters(overrides: Partial<MemoryParameters> | undefined, path = 'parameters'): Readonly<MemoryParameters> {
  const out: MemoryParameters = { ...DEFAULT_PARAMETERS, lambdas: [...DEFAULT_PARAMETERS.lambdas] as MemoryParameters['lambdas'] };
  if (overrides !== undefined) {
    if (overrides === null || typeof overrides !== 'object') throw invalidOption(path, `expected an object, got ${typeof overrides}`);
    for (const [key, value] of Object.entries(overrides)) {
      if (!(key in DEFAULT_PARAMETERS)) {
        throw invalidOption(`${path}.${key}`, `unknown parameter; valid ones are ${Object.keys(DEFAULT_PARAMETERS).join(', ')}`);
      }
      if (value === undefined) continue;
      (out as unknown as Record<string, unknown>)[key] = key === 'lambdas' && Array.isArray(value) ? [...value] : value;
    }
  }
  for (const key of PROBABILITIES) {
    const v = out[key] as number;
    if (typeof v !== 'number' || !(v >= 0 && v <= 1)) throw invalidOption(`${path}.${key}`, `expected a probability in [0,1], got ${describeValue(v)}`);
  }
  for (const key of POSITIVE_INTS) {
    const v = out[key] as number;
    if (!Number.isInteger(v) || v < 1) throw invalidOption(`${path}.${key}`, `expected a positive integer, got ${describeValue(v)}`);
  }
  for (const key of NON_NEGATIVE) {
    const v = out[key] as number;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) throw invalidOption(`${path}.${key}`, `expected a non-negative number, got ${describeValue(v)}`);
  }
  if (out.stateUpdateHead !== 'logistic' && out.stateUpdateHead !== 'mlp') throw invalidOption(`${path}.stateUpdateHead`, `expected 'logistic' or 'mlp', got ${describeValue(out.stateUpdateHead)}`);
  if (!Number.isInteger(out.poolAnchors)) throw invalidOption(`${path}.poolAnchors`, `expected an integer, got ${describeValue(out.poolAnchors)}`);
  if (!Number.isInteger(out.minPerView)) throw invalidOption(`${path}.minPerView`, `expected an integer, got ${describeValue(out.minPerView)}`);
  const l = out.lambdas;
  if (!Array.isArray(l) || l.length !== 5 || l.some((x) => typeof x !== 'number' || !(x >= 0)) || l.reduce((a, b) => a + b, 0) <= 0) {
    throw invalidOption(`${path}.lambdas`, 'expected five non-negative numbers with a positive sum');
  }
  for (const key of ['k', 'kMultiHop'] as const) {
    if (out[key] > MAX_RECALL_K) throw invalidOption(`${path}.${key}`, `expected at most ${MAX_RECALL_K} (MAX_RECALL_K), got ${out[key]}`);
  }
  if (out.kMultiHop < out.k) throw invalidOption(`${path}.kMultiHop`, `expected ≥ k (${out.k}), got ${out.kMultiHop}`);
  out.lambdas = Object.freeze([...l]) as unknown as MemoryParameters['lambdas'];
  return Object.freeze(out);
}

/** Throws `INVALID_OPTION` for any key of `value` that is not in `allowed`. */
export function rejectUnknownKeys(value: object, allowed: readonly string[], path: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw invalidOption(path === '' ? key : `${path}.${key}`, `unknown option; valid ones are ${allowed.join(', ')}`);
  }
}
