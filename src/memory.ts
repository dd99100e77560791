/**
 * `createMemory()`: wires the three planes (SPEC 2). The only module that knows all of them:
 * memory plane (storage adapter + namespace caches), System-One control plane (controller over
 * a backend, with the heuristic stand-in as deterministic fallback), write path, read path and
 * System Two.
 *
 * Reliability (issue 7): every write is one atomic storage commit, and the caches (indexes,
 * adjacency) change only after the store accepted it; a failed commit rebuilds them from the
 * store. Writes to one namespace are serialised in-process and, where `navigator.locks` exists,
 * across tabs by the Web Lock `jev-mem:<namespace>`; every commit sets a new `generation` in the
 * namespace meta, and a memory that finds another generation in the store (a second tab wrote)
 * rebuilds its caches first. On open, a namespace is migrated to the current schema version
 * (plane/store/schema.ts) and nodes embedded by another encoder are re-embedded from their texts.
 *
 * @module
 */
import { resolveParameters, type MemoryParameters } from './config.js';
import type { Encoder } from './encoder/encoder.js';
import { JevMemError, describeValue, invalidInput, invalidOption, throwIfAborted } from './errors.js';
import type { MemoryExport } from './plane/store/export.js';
import { createLexicalIndex } from './plane/indexes/lexical.js';
import { createMemoryStorage } from './plane/store/memory-storage.js';
import { EDGE_CACHE_SIZE, NODE_CACHE_SIZE, type IndexFactories, type NamespaceState, type OpenReport } from './plane/resident/namespace.js';
import type { StorageAdapter } from './plane/store/storage.js';
import { createFlatVectorIndex } from './plane/indexes/vector-flat.js';
import { createAnnVectorIndex } from './plane/indexes/vector-ann.js';
import { createVectorIndex, restoreVectorIndex } from './plane/indexes/vector-hnsw.js';
import { runRecall, type RecallSwitches } from './read/recall.js';
import type { RecallTrace } from './read/trace.js';
import { Controller } from './system-one/controller.js';
import { evictTextCaches } from './plane/text/text.js';
import { createHeuristicSystemOne } from './system-one/heuristic.js';
import type { SystemOneBackend } from './system-one/wire.js';
import { createSystemTwo } from './system-two/client.js';
import type { AnswerResult as SystemTwoAnswer, EvidenceItem, SystemTwo, SystemTwoOptions } from './system-two/types.js';
import { VIEWS, type MemoryEdge, type MemoryNode, type Observation, type RecalledMemory, type View } from './types.js';
import { consoleLogger, type Logger } from './util/logger.js';
import { NamespaceCaches } from './memory/concurrency.js';
import { openNamespace } from './memory/migrate.js';
import { exportNamespace, importNamespace, type TransferDeps } from './memory/transfer.js';
import type { AddManyOptions, AddOptions, AddResult, CallOptions, ExportOptions, ImportOptions, ListedMemory, ListOptions, ListPage, MemoryScope, ResetOptions, ScopedCallOptions } from './memory/types.js';
import { scopedEdgesOf } from './memory/edges.js';
import { ADD_MANY_OPTION_KEYS, ADD_OPTION_KEYS, ANSWER_EXTRA_OPTION_KEYS, CALL_OPTION_KEYS, EXPORT_OPTION_KEYS, IMPORT_OPTION_KEYS, LIST_OPTION_KEYS, SCOPED_ID_OPTION_KEYS, checkOptionKeys, scopePredicate } from './memory/options.js';
import type { MemoryFilter } from './read/filter.js';
import { checkLimit, decodeCursor, historyOf, isExpired, listPage, refuseStaleVersion, selection } from './memory/list.js';
import { toObservation, type ChatMessageInput } from './memory/input.js';
import { openAnswerStream, type StreamEvent } from './memory/answer-stream.js';
import { calibratedRelevance, calibrationOf } from './memory/relevance.js';
import { quoteVisible } from './util/invisible.js';
import { RECALL_OPTION_KEYS, checkAddMany, checkAnswerNow, checkClock, checkMemoryOptions, checkObservation, checkRecall, heldNamespaceOf, namespaceOf } from './memory/validate.js';
import { createWritePath, updateProvenance } from './memory/write.js';
import { createExpiryOnOpen } from './memory/expiry.js';

export { GENERATION_META_KEY, LOCK_PREFIX } from './memory/concurrency.js';
export { MAINTENANCE_PENDING_META_KEY } from './memory/write.js';
export type { AddManyOptions, AddOptions, AddResult, CallOptions, ExportOptions, ImportOptions, ListedMemory, ListOptions, ListPage, MemoryScope, ResetOptions, ScopedCallOptions, WriteDecisions, WriteProgress } from './memory/types.js';
export type { FilterLiteral, FilterOperators, MemoryFilter } from './read/filter.js';
export type { ChatMessageInput } from './memory/input.js';
export { RESERVED_METADATA_KEYS } from './memory/input.js';
export { MAX_QUERY_CHARS } from './memory/validate.js';
export { DEFAULT_LIST_LIMIT, LIST_SCAN_LIMIT, MAX_HISTORY, MAX_LIST_LIMIT } from './memory/list.js';
export type { Logger, LogEntry, LogLevel } from './util/logger.js';

/**
 * Default of {@link MemoryOptions.maxOpenNamespaces}: namespaces a memory keeps open (resident
 * indexes and caches) before it releases the least recently used idle one.
 */
export const DEFAULT_MAX_OPEN_NAMESPACES = 64;

/** Namespace size from which `vectorIndex: 'auto'` writes through the approximate index (`ann`) instead of the exact one. */
export const AUTO_HNSW_FROM = 5000;

/**
 * Vector entries (nodes × dimension) an exact search may scan when a namespace opens: 5,000
 * nodes of 768 dimensions. The exact index scans ~0.8 million int8 entries per ms (measured on
 * a 2-core Xeon, Node 20: 2.7 ms for 20,000 × 100, 18 ms for 20,000 × 768), so a search at this
 * size costs ~5 ms whatever the encoder, while loading hnswlib-wasm's HNSW (a wasm module and
 * its graph) cost ~0.3 s at 20,000 nodes (kept for the pure-TypeScript index: an exact open
 * restores no approximate index at all).
 */
export const AUTO_HNSW_WORK = AUTO_HNSW_FROM * 768;

/**
 * Namespace size below which `vectorIndex: 'auto'` opens a namespace on the exact index (built
 * from the directory's int8 rows) even when its checkpoint holds an approximate one: recalls
 * search exactly, and the first write restores the approximate index from the checkpoint (writes
 * from {@link AUTO_HNSW_FROM} nodes go through it). ⌈{@link AUTO_HNSW_WORK} / dimension⌉, at least
 * {@link AUTO_HNSW_FROM}: 38,400 nodes for the default 100-d encoder, 10,000 for 384-d, 5,000
 * for 768-d.
 */
export function autoHnswFrom(dimension: number): number {
  return Math.max(AUTO_HNSW_FROM, Math.ceil(AUTO_HNSW_WORK / Math.max(1, dimension)));
}

/** Options of {@link createMemory}. Every field is optional except `encoder`. */
export interface MemoryOptions {
  /**
   * Namespace used when a call names none: 1-256 UTF-8 bytes in NFC, no control, format,
   * separator or invisible character, no white space at either end (plane/store/names.ts).
   * @default 'default'
   */
  namespace?: string;
  /**
   * Where nodes and edges live (the source of truth). Use `createIdbStorage()` in browsers,
   * `createSqliteFileStorage({ dir })` in Node. @default in-memory storage (lost on close)
   */
  storage?: StorageAdapter;
  /** Sentence encoder for node and query vectors (e.g. `createGloveSifEncoder`). Required. */
  encoder: Encoder;
  /** System One (local model, worker, remote, heuristic). @default the heuristic stand-in */
  systemOne?: SystemOneBackend;
  /** System Two: options for `createSystemTwo` or a ready client. @default none (`answer` throws) */
  systemTwo?: SystemTwoOptions | SystemTwo;
  /**
   * Vector index kind: exact `flat`; `ann`, HNSW in pure TypeScript (`createAnnVectorIndex`,
   * runs in every runtime: bundled pages, Workers / Durable Objects, Node); `hnsw`, HNSW in
   * hnswlib-wasm (Node and unbundled pages only: a run-time import, and Workers forbid compiling
   * wasm); or `auto`: exact below {@link AUTO_HNSW_FROM} nodes, then `ann` (as fast as hnswlib-wasm
   * in Node, `bench/vector/ann-bench.ts`, so one index everywhere; issue 25); a namespace under
   * {@link autoHnswFrom} nodes (38,400 at 100 dimensions) opens on the exact index and restores
   * `ann` at its first write. A checkpoint of another approximate kind (an `hnsw` one written
   * before issue 25) still opens under `auto`.
   * @default 'auto'
   */
  vectorIndex?: 'flat' | 'hnsw' | 'ann' | 'auto';
  /**
   * Sizes of the per-namespace LRU caches of node bodies and of edge lists read from the store
   * (issue 13): what one namespace keeps beyond its resident indexes. One operation reads at most
   * what its bounds allow (maxVisited, maxEdgesInspected, K_w), so the defaults hold several
   * operations' working sets; a Durable Object (128 MB isolate) takes smaller ones.
   * @default { nodes: 16384, edges: 8192 } (NODE_CACHE_SIZE, EDGE_CACHE_SIZE)
   */
  cache?: { nodes?: number; edges?: number };
  /** Overrides of the SPEC 8 parameters (see {@link MemoryParameters}). */
  parameters?: Partial<MemoryParameters>;
  /**
   * Most namespaces kept open at once (issue 22). An open namespace holds its resident state:
   * the node directory, the lexical and vector indexes, entity and session maps, and the node and
   * edge caches (which grow as they fill, up to `cache`). Opening one more releases the least
   * recently used idle namespace (no write planned, queued or committing, no read running) after
   * writing its checkpoint; its next use reopens it from the store (checkpoint + replay), with
   * the same data. A namespace in use is never released, so more can be open while all are busy.
   *
   * Cost per open namespace (measured with `bench/scale/open-namespaces.ts`: 200 namespaces × 3
   * memories, SQLite store, default 100-d encoder, heuristic System One, Node 20): about 36 KB of
   * heap each (RSS about 100 KB each, SQLite's share included). It grows with the namespace by
   * roughly its directory (~250 bytes a node at d = 100), its indexes and its cached bodies (at
   * most `cache.nodes` bodies and `cache.edges` edge lists).
   * @default 64 ({@link DEFAULT_MAX_OPEN_NAMESPACES})
   * @throws JevMemError `INVALID_OPTION` (field `maxOpenNamespaces`) when not a positive integer.
   */
  maxOpenNamespaces?: number;
  /**
   * The memory's clock: ingestion times (`ingestedAt`, hence the `supersededAt` of an update
   * given without `observedAt`), export times, and the current date `answer` gives System Two
   * when the call passes none. Must return a valid Date (else `INVALID_OPTION`, field `now`).
   * @default () => new Date()
   */
  now?: () => Date;
  /** Node id generator. @default crypto.randomUUID */
  newId?: () => string;
  /**
   * Receives the failures the memory recovers from without failing a call (see `util/logger.ts`:
   * a vector index that could not switch to HNSW, a failed automatic maintenance pass). Each is
   * also counted in {@link Memory.stats}. Pass the same logger to `createSqliteFileStorage` for
   * what it recovers from (a v1 store imported, a stale lock taken over).
   * @default consoleLogger (console.warn / console.error)
   */
  logger?: Logger;
}

/** The keys {@link MemoryOptions} accepts (any other is refused with `INVALID_OPTION`). */
export const MEMORY_OPTION_KEYS = ['namespace', 'storage', 'encoder', 'systemOne', 'systemTwo', 'vectorIndex', 'cache', 'parameters', 'now', 'newId', 'logger', 'maxOpenNamespaces'] as const satisfies readonly (keyof MemoryOptions)[];

/**
 * The vector-index wiring (the one place that picks index implementations): `flat` → exact,
 * `hnsw` → hnswlib-wasm, `ann` → pure-TypeScript HNSW, `auto` → exact below
 * {@link AUTO_HNSW_FROM} nodes, `ann` from there (a failed switch keeps the exact index and is
 * logged and counted); under {@link autoHnswFrom} nodes a namespace opens exact and restores its
 * approximate index at its first write.
 * @throws JevMemError `INVALID_OPTION` (field `vectorIndex`) on another kind.
 */
function indexFactories(vectorKind: unknown): IndexFactories {
  if (vectorKind !== 'flat' && vectorKind !== 'hnsw' && vectorKind !== 'ann' && vectorKind !== 'auto') throw invalidOption('vectorIndex', `expected 'flat', 'hnsw', 'ann' or 'auto', got ${JSON.stringify(vectorKind)}`);
  return {
    lexical: createLexicalIndex,
    vector: (dim) => (vectorKind === 'hnsw' || vectorKind === 'ann' ? createVectorIndex(vectorKind, dim) : createFlatVectorIndex(dim)),
    ...(vectorKind === 'auto' ? { upgrade: { threshold: AUTO_HNSW_FROM, exactOpenBelow: autoHnswFrom, create: async (dim: number) => createAnnVectorIndex({ dimension: dim }) } } : {}),
    // A checkpointed index of the kind this option asks for is restored, not rebuilt (issue 13).
    restoreVector: async (bytes: Uint8Array) => {
      const v = await restoreVectorIndex(bytes);
      if (vectorKind !== 'auto' && v.kind !== vectorKind) {
        v.dispose();
        throw invalidOption('vectorIndex', `the checkpoint holds a ${v.kind} index, this memory asks for ${vectorKind}`);
      }
      return v;
    },
  };
}

/**
 * The `cache` option, checked: positive integers.
 * @throws JevMemError `INVALID_OPTION` (field `cache.nodes` / `cache.edges`).
 */
function checkCacheSizes(cache: MemoryOptions['cache']): { nodes: number; edges: number } {
  if (cache !== undefined && (typeof cache !== 'object' || cache === null)) throw invalidOption('cache', `expected { nodes?, edges? }, got ${describeValue(cache)}`);
  const out = { nodes: NODE_CACHE_SIZE, edges: EDGE_CACHE_SIZE };
  for (const k of ['nodes', 'edges'] as const) {
    const v = cache?.[k];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalidOption(`cache.${k}`, `expected a positive integer, got ${describeValue(v)}`);
    out[k] = v;
  }
  return out;
}

/**
 * The `maxOpenNamespaces` option, checked.
 * @throws JevMemError `INVALID_OPTION` (field `maxOpenNamespaces`) when not a positive integer.
 */
function checkMaxOpen(v: unknown): number {
  if (v === undefined) return DEFAULT_MAX_OPEN_NAMESPACES;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalidOption('maxOpenNamespaces', `expected a positive integer, got ${describeValue(v)}`);
  return v;
}

/**
 * Default `minScore` of {@link Memory.answer}: memories whose calibrated `relevance` is below it
 * are not put in the System-Two prompt. Chosen on LoCoMo DEV (`bench/locomo/relevance-calibration.ts`,
 * top 40 of 200 questions; docs/api.md): at 0.01 the trained System One keeps 89.3% of the gold
 * evidence turns recalled and drops 70.3% of the other memories (92.2% of questions keep one of
 * their recalled gold turns); the heuristic stand-in keeps 85.0%, drops 69.4% (88.0%). The
 * base rate is 2.7% (214 gold of 8,000), so 0.01 drops what is clearly less likely than average.
 */
export const DEFAULT_ANSWER_MIN_SCORE = 0.01;

/** The keys {@link Memory.reset} accepts. */
const RESET_OPTION_KEYS = ['namespace', 'signal', 'filter', 'scope'] as const;

/**
 * Refuses a `reset` selection that is given but empty (`{}`): erasing is only ever whole-namespace
 * when the caller leaves `scope` and `filter` out.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
function refuseEmptySelection(value: unknown, field: string): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) {
    throw invalidInput(field, 'is empty, which selects every memory; leave scope and filter out to erase the whole namespace on purpose');
  }
}

/** Options of {@link Memory.recall}. */
export interface RecallOptions extends CallOptions {
  /**
   * How many memories to return: an integer from 1 to `MAX_RECALL_K` (1,000; config.ts).
   * @default K (40), or K for multi-hop (50) when h(q) ≥ 0.5
   * @throws JevMemError `INVALID_INPUT` (`options.k`) when not an integer in that range.
   */
  k?: number;
  /**
   * Time limit in ms, a finite number ≥ 0. @default parameters.readDeadlineMs
   * @throws JevMemError `INVALID_OPTION` (`options.deadlineMs`) when negative, NaN or infinite.
   */
  deadlineMs?: number;
  /** Ablation switches (graph expansion, routing, stopping). */
  switches?: RecallSwitches;
  /**
   * Read parameters for this call only (budgets, limits, λ, thresholds), over the memory's.
   * @throws JevMemError `INVALID_OPTION` naming the field, as in `createMemory`.
   */
  parameters?: Partial<MemoryParameters>;
  /**
   * Time window, inclusive start: keep only memories whose event time — any interval of their
   * resolved `timeRefs` — overlaps [after, before), or, for memories without time references,
   * whose `observedAt` lies in it. An ISO-8601 instant (no offset = UTC), an ISO date
   * (`"2023-08-01"` = UTC midnight), a `Date` or epoch ms: the date parser of every option and
   * filter date (util/date-input.ts), which refuses a day that does not exist (`"2024-02-30"`).
   * Memories with no time at all are left out.
   * The window filters the ranked candidates, so fewer than `k` may come back.
   * @throws JevMemError `INVALID_INPUT` (`options.after`) when it cannot be read.
   */
  after?: string | Date | number;
  /** Time window, exclusive end (see `after`). @throws JevMemError `INVALID_INPUT` (`options.before`), also when before `after`. */
  before?: string | Date | number;
  /**
   * Metadata filter (issue 23; `MemoryFilter`, read/filter.ts: equality, `$in`, `$exists`,
   * `$gt`/`$lt` on numbers and ISO dates, `$and`/`$or`/`$not`). Like the time window it chooses
   * the anchors among the memories it keeps and filters the ranking, so fewer than `k` may come
   * back. @throws JevMemError `INVALID_INPUT` naming the bad part (`options.filter.…`).
   */
  filter?: MemoryFilter;
  /** Scope inside the namespace (`userId`, `agentId`, `sessionId`), ANDed with `filter`. */
  scope?: MemoryScope;
  /**
   * Leave out memories whose calibrated `relevance` (the probability, in [0,1], that the memory
   * is evidence for the query: System One's a_v through memory/relevance.ts) is below this. It
   * compares with `relevance`, not `score`: `score` mixes in the cosine, the route and recency,
   * and its level moves with the namespace and the other candidates, while a_v answers one fixed
   * question per memory, calibrated per System-One model on LoCoMo DEV so that 0.1 means
   * "about one in ten such memories is evidence" whichever model answered (figures in
   * docs/api.md and {@link DEFAULT_ANSWER_MIN_SCORE}). @default 0 (recall keeps every ranked memory)
   * @throws JevMemError `INVALID_INPUT` (`options.minScore`) outside [0,1].
   */
  minScore?: number;
}

/** Options of {@link Memory.answer} and {@link Memory.answerStream}. */
export interface AnswerOptions extends RecallOptions {
  /** "Today" of the prompt: a Date (written as ISO-8601 UTC) or a string written as given. @default the memory's clock */
  now?: Date | string;
  /**
   * Receives the answer's text pieces as System Two streams them (the request is sent with
   * `stream: true`); the pieces joined equal the answer's `text`.
   */
  onToken?: (token: string) => void;
}

/** Result of a recall: the memories, best first, and the trace that explains them. */
export interface RecallResult {
  memories: RecalledMemory[];
  trace: RecallTrace;
}

/** One event of {@link Memory.answerStream}: `{ type: 'token', token }` pieces, then `{ type: 'answer', answer }`. */
export type AnswerStreamEvent = StreamEvent<MemoryAnswer>;

/** Result of {@link Memory.answer}. */
export interface MemoryAnswer extends RecallResult {
  /** The System-Two answer text. */
  text: string;
  systemTwo: Omit<SystemTwoAnswer, 'text'>;
}

/** Counts of one namespace. */
export interface MemoryStats {
  namespace: string;
  nodes: number;
  activeNodes: number;
  supersededNodes: number;
  edges: number;
  edgesByView: Record<View, number>;
  /** Bytes used in storage, when the adapter can tell. */
  storageBytes?: number;
  encoder: string;
  systemOne: string;
  vectorIndex: string;
  /**
   * System-One requests of the writes this memory committed to this namespace since it was
   * opened (add, addMany, update, and the maintenance passes they and `maintain()` ran; not
   * persisted, per namespace), and how many of them the deterministic fallback answered because
   * the configured backend failed, was late or hit the call cap. Each write's own counts are in
   * its `AddResult.systemOne`. A failed write counts nothing (it is reported by its error).
   */
  systemOneWrites: { calls: number; fallbacks: number; lastFallbackReason?: string };
  /** Automatic maintenance passes (run every J_c writes) that failed since open; their nodes stay pending. */
  maintenanceFailures: number;
  /** Checkpoints of the namespace that could not be written since open (issue 13; logged as `CHECKPOINT_FAILED`). */
  checkpointFailures: number;
  /**
   * Writes and maintenance passes of this namespace since open whose System-One plan, made
   * outside the namespace lock, was made again because the namespace changed before their commit
   * (issue 22; see `memory/plan-commit.ts`).
   */
  replans: number;
  /**
   * Namespaces this memory holds open now, this one included (at most `maxOpenNamespaces` while
   * some are idle; issue 22).
   */
  openNamespaces: number;
  /** How the namespace was opened: from its checkpoint plus `replayed` logged node changes, or by a scan of the store; `ms` = wall time of the open. */
  opened: OpenReport;
  /** Why the vector index could not switch to HNSW (it stays exact: `vectorIndex` is `flat`), when it failed. */
  vectorIndexError?: string;
  /**
   * Damaged records of the namespace already detected (issue 22; issue 25: `stats()` makes no
   * full pass, it is O(1)): what this memory's reads met (an open by a scan reads every record;
   * recall and writes read what they touch) and what an earlier full pass of its store found
   * (`StorageAdapter.damaged`; `jev-mem check` makes that pass over the whole store). `count` is
   * the damaged node records (`ids`, sorted: failed their checksum or could not be decoded; reads
   * skip them and puts are refused with `STORE_DAMAGED` until `jev-mem repair`) plus those the
   * store counts but no read could reach (no id known); `checkpoint`: the checkpoint was found
   * damaged (at this open, rebuilt from the rows and logged as `CHECKPOINT_DAMAGED`, or since).
   */
  damaged: { count: number; ids: string[]; checkpoint: boolean };
}

/** The live memory object returned by {@link createMemory}. */
export interface Memory {
  /** Default namespace. */
  readonly namespace: string;
  /** Resolved parameters (frozen). */
  readonly parameters: Readonly<MemoryParameters>;
  /** The configured System One. */
  readonly systemOne: SystemOneBackend;
  /** The encoder. */
  readonly encoder: Encoder;
  /**
   * Writes one observation through the write path (SPEC 4): validate, type, deterministic
   * edges, ≤ K_w candidates, one relation request, atomic commit. Once it resolves, the node is
   * durable in the storage adapter (a crash afterwards loses nothing).
   *
   * Chat messages `{ role, content, name? }` are accepted as they are (issue 23): the text is
   * `content`, the speaker `name` when given, else `role` (`'user'`, `'assistant'`, …); other
   * observation fields (`observedAt`, `sessionId`, `userId`, …) may be added to the message.
   * Scope fields `userId` / `agentId` (or `options.scope` for fields the observation leaves
   * out) are kept in `provenance.metadata`; `expiresAt` (ISO string, Date or epoch ms) in
   * `metadata.expiresAt` as ISO UTC: from that time (the memory's clock) the memory is never
   * returned, and `maintain()` erases it, as does the first call of a memory that opens the
   * namespace after then (memory/expiry.ts).
   *
   * Exact repeats (same text, same `observedAt`, same `source`) are not stored twice: the
   * existing node gains the repeat's provenance in `duplicates` and its id is returned with
   * `deduplicated: true` (issue 7 item 4).
   *
   * Text limit: at most `parameters.maxTextChars` UTF-16 code units (default 100,000, about
   * 20,000 words). Longer texts are refused with `TOO_LARGE`, not chunked: a node is one
   * observation kept verbatim, and only the caller knows where its text may be split without
   * losing meaning (split it into several observations with the same provenance).
   * @throws JevMemError `INVALID_INPUT` / `TOO_LARGE` naming the field (nothing written),
   *   `STORAGE_FAILED` / `QUOTA_EXCEEDED` (nothing written), `INVALID_OPTION` (`newId` returned
   *   an id in use; nothing written), `ABORTED`, `CLOSED`.
   */
  add(observation: Observation | ChatMessageInput, options?: AddOptions): Promise<AddResult>;
  /**
   * Writes many observations in order. Every observation is validated before anything is
   * written; then chunks of `chunkSize` are committed atomically one after another. On a failure,
   * the chunks already committed stay (they were reported by `onProgress`), the failing chunk
   * leaves nothing, and the error carries `details.committed` (the number of observations
   * committed, a multiple of `chunkSize`).
   */
  addMany(observations: Array<Observation | ChatMessageInput>, options?: AddManyOptions): Promise<AddResult[]>;
  /**
   * Recalls memories for a query through the read path (SPEC 6), with the trace. Each memory
   * carries its calibrated `relevance`; `filter`, `scope` and the time window select among the
   * candidates, `minScore` cuts by relevance, and expired memories are never returned (so fewer
   * than `k` may come back). The query holds at most {@link MAX_QUERY_CHARS} (4,000) characters.
   * @throws JevMemError `INVALID_INPUT` (empty query, `options.k` not an integer from 1 to
   *   `MAX_RECALL_K` (1,000), `options.minScore` outside [0,1],
   *   `options.filter…` / `options.scope…` naming the bad part), `INVALID_OPTION` (an unknown
   *   option or parameter, naming it; `options.deadlineMs` negative, NaN or infinite),
   *   `TOO_LARGE` (field `query`, over {@link MAX_QUERY_CHARS} characters), `ABORTED`, `CLOSED`.
   */
  recall(query: string, options?: RecallOptions): Promise<RecallResult>;
  /**
   * Recall + one System-Two call (eq. (27)). The prompt always carries the current date:
   * `options.now` (a Date, written as ISO-8601 UTC, or a string written as given), else the
   * memory's clock (`now` of `createMemory`, default the machine clock). Only memories with
   * `relevance` ≥ `options.minScore` (default {@link DEFAULT_ANSWER_MIN_SCORE}) are given to
   * System Two and returned; pass `minScore: 0` to give it every recalled memory.
   * @throws JevMemError `SYSTEM_TWO_NOT_CONFIGURED`, `INVALID_INPUT` (field `options.now`: not a
   *   valid Date or a non-empty string), the System-Two errors, and recall's.
   */
  answer(query: string, options?: AnswerOptions): Promise<MemoryAnswer>;
  /**
   * {@link Memory.answer} as an async iterator (issue 23): `{ type: 'token', token }` for each
   * piece System Two streams, then one `{ type: 'answer', answer }` with the whole
   * {@link MemoryAnswer}. Leaving the loop early aborts the System-Two call.
   * @example
   * ```ts
   * for await (const ev of memory.answerStream('What is my dog called?')) {
   *   if (ev.type === 'token') process.stdout.write(ev.token);
   *   else console.log('\n', ev.answer.memories.length, 'memories used');
   * }
   * ```
   * @throws (from the iterator) the errors of `answer`.
   */
  answerStream(query: string, options?: Omit<AnswerOptions, 'onToken'>): AsyncGenerator<AnswerStreamEvent, void, undefined>;
  /**
   * Pages the stored memories of a namespace (active and superseded) in insertion order
   * (ascending `seq`), without embeddings (issue 23). Pass the returned `cursor` to get the next
   * page; it is absent after the last one. The order is stable under writes: a memory added
   * while paging has a higher `seq` and appears on a later page; a deleted one is skipped.
   * Expired memories (`expiresAt` at or before the memory's clock) are left out.
   *
   * Cost: the ids come from the resident node directory (O(namespace) ids, no body read); one
   * call reads at most `limit` bodies without a filter, at most {@link LIST_SCAN_LIMIT} with one
   * (a filtered page may then hold fewer than `limit` memories and still carry a cursor).
   * @example
   * ```ts
   * for (let page = await memory.list({ limit: 100 }); ; page = await memory.list({ limit: 100, cursor: page.cursor })) {
   *   for (const m of page.memories) console.log(m.seq, m.text);
   *   if (page.cursor === undefined) break;
   * }
   * ```
   * @throws JevMemError `INVALID_INPUT` (`options.limit` outside 1..1000, `options.cursor`
   *   not a list cursor of this namespace, `options.filter…` / `options.scope…` naming the bad
   *   part), `INVALID_OPTION` (unknown option), `CLOSED`.
   */
  list(options?: ListOptions): Promise<ListPage>;
  /**
   * The versions of a memory across {@link Memory.update}, oldest first (issue 23): the memory
   * itself, the versions it replaced and the versions that replaced it (explicit updates only;
   * relations System One inferred are not versions), at most {@link MAX_HISTORY}. Old versions
   * are ordinary superseded nodes, so `delete` of a version erases its text from the history
   * too (nothing else keeps it). With `options.scope`, only a memory of that scope is answered,
   * and only the versions of that scope are listed.
   * @throws JevMemError `NOT_FOUND` (field `id`) when the namespace holds no such memory (or it
   *   expired, or it is outside `options.scope`: the same error, so another scope's memories
   *   cannot be probed), `INVALID_INPUT` (field `id`; `options.scope…`), `INVALID_OPTION` (an
   *   unknown option, naming it), `CLOSED`.
   */
  history(id: string, options?: ScopedCallOptions): Promise<ListedMemory[]>;
  /**
   * One node by id (a copy), or `undefined` (also for an id of another namespace, for an
   * expired memory, and for a memory outside `options.scope`).
   * @throws JevMemError `INVALID_INPUT` (`options.scope…`), `INVALID_OPTION` (an unknown option, naming it), `CLOSED`.
   */
  get(id: string, options?: ScopedCallOptions): Promise<MemoryNode | undefined>;
  /**
   * Edges touching a node (both directions; copies). With `options.scope`, a node outside it
   * answers as an unknown id (`[]`) and an edge whose other end is outside it is left out.
   * @throws JevMemError `INVALID_INPUT` (`options.scope…`), `INVALID_OPTION` (an unknown option, naming it), `CLOSED`.
   */
  edges(id: string, options?: ScopedCallOptions): Promise<MemoryEdge[]>;
  /**
   * Writes `observation` as the newer version of node `id` (issue 7 item 1), in one atomic
   * commit: a new node, the old node marked `superseded` with the new id in its `supersededBy`,
   * and a semantic `updates` edge (new → old, weight 1, origin rule `explicit-update`). Nothing is
   * destroyed: the old node keeps its text, provenance and edges, stays retrievable, and recall
   * ranks it below current memories with its "as of" limit in `supersededAt`. The update is
   * never merged as a repeat, even when its text equals an existing node's.
   *
   * The new version keeps the old node's `speaker`, `sessionId` and `source` when `observation`
   * does not give them (who said it and where stay the same when only the text changes); it
   * does not copy `turnId` (the turn that said the old text did not say the new one) nor
   * `metadata`, except the scope (`userId`, `agentId`) and the expiry (`expiresAt`), which stay
   * with the memory unless `observation` gives its own. `observedAt` is as given: absent, the new version is timed by ingestion (the
   * memory's clock, `now` of `createMemory`), as for `add`. The old node's `supersededAt` in recall
   * is the new version's `observedAt`, else its ingestion time.
   *
   * Only the current version of a chain is updated: `id` must not have been replaced by an
   * earlier `update` already (that would start a second branch of its history). Updating such an
   * old version is refused with `CONFLICT`, whose `details.activeId` names the newest version
   * (the end of the chain of explicit updates), the one to update instead. A memory that System
   * One or maintenance marked superseded (an inferred state change, not a version) can still be
   * updated.
   *
   * With `options.scope`, only a memory of that scope is updated (another scope's memory is
   * `NOT_FOUND`, as an unknown id), and the observation may not move the new version out of it
   * (an `observation.userId` / `agentId` / `sessionId` that differs from the scope's is
   * `INVALID_INPUT`).
   * @throws JevMemError `NOT_FOUND` (field `id`; no such node in the namespace, or outside
   *   `options.scope`), `INVALID_OPTION` (an unknown option, naming it), `CONFLICT`
   *   (field `id`, `details.activeId`: `id` was already replaced by an update, also when a
   *   concurrent update replaced it first),
   *   `INVALID_INPUT` (field `observation.expiresAt`) when the new version would already be due
   *   (it would hide the old version and itself: delete the memory instead), and add's errors.
   */
  update(id: string, observation: Observation, options?: ScopedCallOptions): Promise<AddResult>;
  /**
   * Removes a node, its edges and its index entries in one atomic commit: it is gone from
   * recall at once and after a reload. Nodes that only it superseded become `active` again.
   * With `options.scope`, only a memory of that scope is deleted (checked under the namespace's
   * write lock).
   * @returns false when no such node exists in the namespace, or it is outside `options.scope`
   *   (nothing changes; the two cases are not told apart).
   * @throws JevMemError `INVALID_INPUT` (`options.scope…`), `INVALID_OPTION` (an unknown option,
   *   naming it), `STORAGE_FAILED` / `QUOTA_EXCEEDED` (nothing changed), `ABORTED`, `CLOSED`.
   */
  delete(id: string, options?: ScopedCallOptions): Promise<boolean>;
  /**
   * Removes a whole namespace (nodes, edges, meta) and nothing else. The name follows the
   * namespace rule (plane/store/names.ts), except that a name the store already holds from before
   * the rule is accepted, so it can be cleaned up.
   * @throws JevMemError `INVALID_INPUT` (a name the rule refuses and the store does not hold),
   *   `STORAGE_FAILED`, `CLOSED`.
   */
  forget(namespace: string): Promise<void>;
  /**
   * Erases memories of one namespace exactly, as `delete` / `forget` do (issue 23): without
   * `scope` and `filter`, the whole namespace (as `forget(namespace)`: nodes, edges, meta,
   * checkpoint); with them, each memory they select (expired ones included), one `delete` each
   * (so their texts leave the store, its checkpoint and the caches). A `scope` or `filter` that
   * is given but selects nothing in particular (`{}`, or a key whose value is `undefined`) is
   * refused, never read as "everything": an unset variable must not erase every user's memories.
   * @returns how many memories were erased.
   * @throws JevMemError `INVALID_INPUT` (`options.filter…`, `options.scope…` — also for `{}` —,
   *   `options.namespace`),
   *   `INVALID_OPTION` (unknown option), `STORAGE_FAILED`, `ABORTED`, `CLOSED`.
   */
  reset(options?: ResetOptions): Promise<{ deleted: number }>;
  /**
   * Runs maintenance (SPEC 4 step 7) over the nodes written since the last pass (the list is
   * kept in the store, so a restart loses none). Writes run it every J_c writes on their own;
   * there a failed pass does not fail the acknowledged write, and its nodes stay pending.
   * Maintenance adds edges and marks superseded nodes; the only memories it deletes are expired
   * ones (`expiresAt` at or before the memory's clock; counted in `expired`), found by one scan
   * of the namespace's nodes and erased like `delete`.
   */
  maintain(options?: CallOptions): Promise<{ redundant: number; contradiction: number; obsolete: number; link: number; expired: number }>;
  /**
   * One versioned export of a namespace (plane/store/export.ts): every node with its embedding, every
   * edge, the namespace meta (schema version included), the encoder fingerprint and the
   * System-One model id. JSON-safe. Like `forget`, accepts a namespace the store holds under a
   * name from before the namespace rule.
   *
   * With `options.scope` and/or `options.filter` (ANDed, as in `list`), the export holds only the
   * memories they select and the edges whose two ends it holds (the namespace meta, less the
   * ids of other memories still pending maintenance); a per-user export for a data-access
   * request is `export({ scope: { userId } })`. `damaged` still names every damaged record of
   * the namespace (a damaged record cannot be read, so its scope is unknown). Without either,
   * the whole namespace.
   * @throws JevMemError `INVALID_INPUT` (namespace name, `options.scope…`, `options.filter…`,
   *   also for `{}`), `INVALID_OPTION` (an unknown option, naming it), `STORAGE_FAILED`, `ABORTED`, `CLOSED`.
   */
  export(options?: ExportOptions): Promise<MemoryExport>;
  /**
   * Imports an export into an empty namespace (the file's, or `options.namespace`), in one
   * atomic commit: the namespace gets the whole file or nothing. Recall over the import equals
   * recall over the exported memory (same encoder and System One). The file is checked record by
   * record before anything is written; an older schema version is migrated.
   * @throws JevMemError `INVALID_INPUT` (bad file, naming the field; or the namespace is not
   *   empty), `SCHEMA_MISMATCH` (newer export or schema version), `ENCODER_MISMATCH` (embeddings
   *   of another encoder and `reembed` false), `STORAGE_FAILED` / `QUOTA_EXCEEDED` (nothing written).
   */
  import(data: unknown, options?: ImportOptions): Promise<{ nodes: number; edges: number; namespace: string }>;
  /**
   * Counts of a namespace (like `forget`, also of a name the store holds from before the namespace
   * rule). Memories that fell due since the namespace was opened are erased first, as `maintain()`
   * erases them (nothing to do, O(1), when the kept earliest expiry is not due), so the counts are
   * of what `list` and `recall` can return; when that erasure fails (another process holds the
   * write lock) it is logged as `EXPIRY_DEFERRED` and the due memories are still counted.
   * @throws JevMemError `INVALID_INPUT` (namespace name), `ABORTED`, `STORAGE_FAILED`, `CLOSED`.
   */
  stats(options?: CallOptions): Promise<MemoryStats>;
  /** Namespaces that hold data. */
  namespaces(): Promise<string[]>;
  /**
   * Releases storage handles, indexes and the fallback. The encoder and `options.systemOne` are
   * the caller's and stay open (close them yourself). Further calls throw `CLOSED`.
   */
  close(): Promise<void>;
}

/**
 * Creates a memory.
 * @throws JevMemError `INVALID_OPTION` naming the option (unknown key, bad parameter, missing encoder).
 * @example
 * ```ts
 * const memory = await createMemory({ encoder, storage: await createIdbStorage() });
 * await memory.add({ text: 'Caroline: I went to the LGBTQ support group yesterday.', observedAt: '2023-05-08T13:56:00Z' });
 * const { memories, trace } = await memory.recall('When did Caroline go to the support group?');
 * ```
 */
export async function createMemory(options: MemoryOptions): Promise<Memory> {
  const defaultNamespace = checkMemoryOptions(options, MEMORY_OPTION_KEYS);
  const factories = indexFactories(options.vectorIndex ?? 'auto');
  const encoder = options.encoder;
  const storage = options.storage ?? createMemoryStorage();
  const fallback = createHeuristicSystemOne();
  const systemOne = options.systemOne ?? fallback;
  // A name or another non-backend would make every decision fail over to the stand-in silently.
  if (systemOne === null || typeof systemOne !== 'object' || typeof (systemOne as Partial<SystemOneBackend>).decideMany !== 'function' || typeof (systemOne as Partial<SystemOneBackend>).modelId !== 'string') {
    throw invalidOption('systemOne', `expected a System-One backend (an object with decideMany and modelId, e.g. createHeuristicSystemOne()), got ${describeValue(systemOne)}${typeof systemOne === 'string' ? '; names are taken by createNodeMemory and createBrowserMemory' : ''}`);
  }
  // SPEC 8 defaults ← the backend's calibrated values ← the caller's overrides.
  const params = resolveParameters({ ...(systemOne.parameters as Partial<MemoryParameters> | undefined), ...options.parameters });
  const controller = new Controller(systemOne, fallback);
  const calibration = calibrationOf(systemOne.modelId); // memory/relevance.ts
  const now = checkClock(options.now);
  const logger = options.logger ?? consoleLogger;
  let systemTwo: SystemTwo | undefined;
  if (options.systemTwo !== undefined) {
    systemTwo = typeof (options.systemTwo as SystemTwo).answer === 'function' ? (options.systemTwo as SystemTwo) : createSystemTwo(options.systemTwo as SystemTwoOptions);
  }
  const cacheSizes = checkCacheSizes(options.cache);
  const maxOpen = checkMaxOpen(options.maxOpenNamespaces);
  const openState = async (ns: string): Promise<NamespaceState> => {
    const state = await openNamespace(ns, storage, encoder, factories, cacheSizes);
    if (state.openReport.checkpointDamaged === true) {
      logger('warn', `the checkpoint of namespace ${JSON.stringify(ns)} is damaged; the namespace was rebuilt from its stored records (${state.openReport.reason ?? 'no reason given'})`, { code: 'CHECKPOINT_DAMAGED', namespace: ns });
    }
    return state;
  };
  // A namespace released for room is checkpointed first (under its lock), so it reopens fast.
  const caches = new NamespaceCaches(storage, openState, { maxOpen, onEvict: (ns, state) => writes.checkpoint(ns, state) });
  // Erasure (issue 22): after a delete or forget commits, the process caches drop the erased
  // texts (all entries for a forget, whose texts are not listed).
  const evictTexts = (texts: readonly string[] | undefined): void => {
    evictTextCaches(texts);
    encoder.evict?.(texts);
    controller.evict(texts);
  };
  const writes = createWritePath({ storage, caches, encoder, controller, params, now, newId: options.newId ?? (() => globalThis.crypto.randomUUID()), logger, evictText: evictTexts });
  // Expired memories are erased when a namespace is first touched (issue 22; memory/expiry.ts).
  const expiry = createExpiryOnOpen({ storage, caches, writes, now, logger });
  const transfer: TransferDeps = { storage, caches, writes, encoder, systemOneModel: systemOne.modelId, factories, now };
  let closed = false;
  const ensureOpen = (): void => {
    if (closed) throw new JevMemError('CLOSED', 'this memory was closed; create a new one');
  };
  const nsOf = (o?: CallOptions): string => namespaceOf(o, defaultNamespace);
  /** The error of an id the namespace does not hold (or holds outside the call's scope: the same error, so existence is not shown). */
  const notFound = (id: unknown, ns: string): JevMemError => new JevMemError('NOT_FOUND', `no memory ${typeof id === 'string' ? quoteVisible(id) : describeValue(id)} in namespace ${quoteVisible(ns)}`, { field: 'id' });
  /** The namespace of forget/export/stats: also one the store holds under a name from before the rule (names.ts). */
  const heldNsOf = (value: unknown, field = 'options.namespace'): Promise<string> => heldNamespaceOf(value, defaultNamespace, () => storage.namespaces(), field);

  /** Deletes (exactly, one commit each) every node of `ns` that `select` keeps; found by one scan of the store. */
  const eraseWhere = async (ns: string, select: (n: MemoryNode) => boolean, signal?: AbortSignal): Promise<number> => {
    const ids: string[] = [];
    for await (const batch of storage.scanNodes(ns, 512)) {
      throwIfAborted(signal);
      for (const n of batch) if (n.status !== 'deleted' && select(n)) ids.push(n.id);
    }
    let deleted = 0;
    for (const id of ids) if (await caches.exclusive(ns, () => writes.remove(ns, id, signal), signal)) deleted++;
    return deleted;
  };

  const memory: Memory = {
    namespace: defaultNamespace,
    parameters: params,
    systemOne,
    encoder,

    async add(observation, o) {
      ensureOpen();
      checkOptionKeys(o, ADD_OPTION_KEYS);
      const ns = nsOf(o);
      const checked = checkObservation(toObservation(observation, 'observation', o?.scope), 'observation', params.maxTextChars);
      await expiry.open(ns);
      // The write takes the namespace lock for its commit only (issue 22: plan, then commit).
      return (await writes.write(ns, [checked], o ?? {}))[0] as AddResult;
    },

    async addMany(observations, o) {
      ensureOpen();
      checkOptionKeys(o, ADD_MANY_OPTION_KEYS);
      const inputs = Array.isArray(observations) ? observations.map((x, i) => toObservation(x, `observations[${i}]`, o?.scope)) : observations;
      const { ns, checked } = checkAddMany(inputs, o, defaultNamespace, params.maxTextChars);
      await expiry.open(ns);
      return writes.write(ns, checked, o ?? {});
    },

    async recall(query, o) {
      ensureOpen();
      const window = checkRecall(query, o);
      const ns = nsOf(o);
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      const callParams = o?.parameters === undefined ? params : resolveParameters({ ...params, ...o.parameters }, 'options.parameters');
      await expiry.open(ns);
      return caches.reading(ns, async (state) => {
        throwIfAborted(o?.signal);
        const t = performance.now();
        const [qv] = await encoder.embed([query], o?.signal);
        const embedMs = performance.now() - t;
        const input: Parameters<typeof runRecall>[3] = {
          query,
          queryVector: qv as Float32Array,
          embedMs,
          deadline: Date.now() + (o?.deadlineMs ?? o?.parameters?.readDeadlineMs ?? params.readDeadlineMs),
        };
        if (o?.k !== undefined) input.k = o.k;
        if (window.afterMs !== undefined) input.afterMs = window.afterMs;
        if (window.beforeMs !== undefined) input.beforeMs = window.beforeMs;
        if (o?.signal) input.signal = o.signal;
        if (o?.switches) input.switches = o.switches;
        if (encoder.termVectors) input.termVectors = (words) => encoder.termVectors!(words);
        if (encoder.languages !== undefined) input.vectorLanguages = encoder.languages;
        if (keep !== undefined) input.keep = keep;
        const out = await runRecall(state, controller, callParams, input);
        const nowMs = now().getTime();
        const minScore = o?.minScore ?? 0;
        out.memories = out.memories.filter((m) => !isExpired(m, nowMs));
        for (const m of out.memories) m.relevance = calibratedRelevance(m.relevance ?? 0, calibration);
        if (minScore > 0) out.memories = out.memories.filter((m) => (m.relevance as number) >= minScore);
        return out;
      });
    },

    async answer(query, o) {
      ensureOpen();
      checkOptionKeys(o, [...RECALL_OPTION_KEYS, ...ANSWER_EXTRA_OPTION_KEYS]);
      if (systemTwo === undefined) {
        throw new JevMemError('SYSTEM_TWO_NOT_CONFIGURED', 'answer() needs System Two: pass options.systemTwo ({ url, model, apiKey? }) to createMemory; recall() works without it');
      }
      const { now: given, onToken, ...recallOptions } = o ?? {};
      const today = checkAnswerNow(given);
      if (onToken !== undefined && typeof onToken !== 'function') throw invalidInput('options.onToken', `expected a function (token) => void, got ${describeValue(onToken)}`);
      const r = await memory.recall(query, { ...recallOptions, minScore: recallOptions.minScore ?? DEFAULT_ANSWER_MIN_SCORE });
      const req: Parameters<SystemTwo['answer']>[0] = {
        query,
        evidence: r.memories.map((m) => {
          const item: EvidenceItem = { id: m.id, text: m.text, score: m.score };
          if (m.observedAt) item.observedAt = m.observedAt;
          if (m.observedAtLocal) item.observedAtLocal = m.observedAtLocal;
          if (m.timeRefs.length > 0) item.timeRefs = m.timeRefs;
          if (m.supersededAt) item.supersededAt = m.supersededAt;
          if (m.supersededAtLocal) item.supersededAtLocal = m.supersededAtLocal;
          if (m.provenance.speaker) item.speaker = m.provenance.speaker;
          if (m.provenance.turnId) item.turnId = m.provenance.turnId;
          return item;
        }),
      };
      if (o?.signal) req.signal = o.signal;
      if (onToken !== undefined) req.onToken = onToken;
      // "Today" of the prompt: the caller's, else the memory's clock (options.now of createMemory).
      req.now = today ?? now();
      const a = await systemTwo.answer(req);
      const { text, ...rest } = a;
      return { ...r, text, systemTwo: rest };
    },

    async list(o) {
      ensureOpen();
      checkOptionKeys(o, LIST_OPTION_KEYS);
      const ns = nsOf(o);
      const limit = checkLimit(o?.limit);
      const afterSeq = o?.cursor === undefined ? 0 : decodeCursor(o.cursor, ns);
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      await expiry.open(ns);
      return caches.reading(ns, (state) => listPage(state, ns, afterSeq, limit, keep, now().getTime()));
    },

    async history(id, o) {
      ensureOpen();
      checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
      if (typeof id !== 'string' || id === '') throw invalidInput('id', `expected a non-empty string, got ${describeValue(id)}`);
      const ns = nsOf(o);
      const keep = scopePredicate(o?.scope);
      await expiry.open(ns);
      const versions = await caches.reading(ns, async (state) => {
        const nowMs = now().getTime();
        await state.loadNodes([id]);
        const n = state.nodes.get(id);
        // A memory of another scope is answered as an unknown id (its existence is not shown).
        if (n === undefined || isExpired(n, nowMs) || (keep !== undefined && !keep(n))) return undefined;
        return historyOf(state, id, nowMs, keep);
      });
      if (versions === undefined || versions.length === 0) throw notFound(id, ns);
      return versions;
    },

    answerStream(query, o) {
      return openAnswerStream((onToken, signal) => {
        const opts: AnswerOptions = { ...o, onToken, signal };
        return memory.answer(query, opts);
      }, o?.signal);
    },

    async get(id, o) {
      ensureOpen();
      checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
      const ns = nsOf(o);
      const keep = scopePredicate(o?.scope);
      await expiry.open(ns);
      return caches.reading(ns, async (state) => {
        await state.loadNodes([id]);
        const n = state.nodes.get(id);
        if (n === undefined || isExpired(n, now().getTime()) || (keep !== undefined && !keep(n))) return undefined;
        return structuredClone(n); // a copy: callers cannot change the cache
      });
    },

    async edges(id, o) {
      ensureOpen();
      checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
      const ns = nsOf(o);
      const keep = scopePredicate(o?.scope);
      await expiry.open(ns);
      return caches.reading(ns, (state) => scopedEdgesOf(state, id, keep));
    },

    async update(id, observation, o) {
      ensureOpen();
      checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
      const ns = nsOf(o);
      const keep = scopePredicate(o?.scope);
      const checked = checkObservation(toObservation(observation, 'observation', undefined, o?.scope), 'observation', params.maxTextChars);
      await expiry.open(ns);
      // The old node is read now; the write's commit checks again, under the lock, that it is still there.
      const old = await caches.reading(ns, async (state) => {
        if (!state.nodes.has(id)) throw notFound(id, ns);
        await state.loadNodes([id]);
        // A memory of another scope is answered as an unknown id (its existence is not shown).
        if (keep !== undefined && !keep(state.nodes.get(id) as MemoryNode)) throw notFound(id, ns);
        await refuseStaleVersion(state, id, ns); // CONFLICT before any encoding or System-One call
        return state.nodes.get(id) as MemoryNode;
      });
      const provenance = updateProvenance(old.provenance, checked.provenance);
      if (isExpired({ provenance }, now().getTime())) {
        throw invalidInput('observation.expiresAt', `is already due (${String(provenance.metadata?.['expiresAt'])}): the new version would hide itself and the old one; delete the memory instead`);
      }
      return (await writes.write(ns, [{ ...checked, provenance }], o ?? {}, id))[0] as AddResult;
    },

    async delete(id, o) {
      ensureOpen();
      checkOptionKeys(o, SCOPED_ID_OPTION_KEYS);
      const ns = nsOf(o);
      const keep = scopePredicate(o?.scope);
      await expiry.open(ns);
      return caches.exclusive(ns, () => writes.remove(ns, id, o?.signal, keep), o?.signal);
    },

    async forget(namespace) {
      ensureOpen();
      const ns = await heldNsOf(namespace ?? null, 'namespace');
      await caches.exclusive(ns, async () => {
        await storage.dropNamespace(ns);
        caches.drop(ns);
        expiry.forget(ns);
        evictTexts(undefined);
      });
    },

    async reset(o) {
      ensureOpen();
      checkOptionKeys(o, RESET_OPTION_KEYS);
      refuseEmptySelection(o?.filter, 'options.filter');
      refuseEmptySelection(o?.scope, 'options.scope');
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      if (keep === undefined) {
        const ns = await heldNsOf(o?.namespace);
        const { nodes } = await storage.counts(ns);
        await memory.forget(ns);
        return { deleted: nodes };
      }
      const ns = nsOf(o);
      return { deleted: await eraseWhere(ns, keep, o?.signal) };
    },

    async maintain(o) {
      ensureOpen();
      checkOptionKeys(o, CALL_OPTION_KEYS);
      const ns = nsOf(o);
      // The pass of the open, run now (it also records the next expiry; memory/expiry.ts).
      const expired = await expiry.eraseDue(ns, o?.signal);
      return { ...(await writes.maintain(ns, o?.signal)), expired };
    },

    async export(o) {
      ensureOpen();
      checkOptionKeys(o, EXPORT_OPTION_KEYS);
      const keep = selection(o?.filter, o?.scope, 'options.filter', 'options.scope');
      const ns = await heldNsOf(o?.namespace);
      await expiry.open(ns);
      return caches.exclusive(ns, () => exportNamespace(transfer, ns, keep), o?.signal);
    },

    async import(data, o) {
      ensureOpen();
      checkOptionKeys(o, IMPORT_OPTION_KEYS);
      return importNamespace(transfer, data, o);
    },

    async stats(o) {
      ensureOpen();
      checkOptionKeys(o, CALL_OPTION_KEYS);
      const ns = await heldNsOf(o?.namespace);
      await expiry.open(ns);
      // Memories that fell due since the open are erased first (as maintain() does), so the counts
      // are those of what list and recall can return; O(1) when the kept bound is not due.
      await expiry.sweep(ns);
      throwIfAborted(o?.signal);
      const out = await caches.reading(ns, async (state) => {
        const byView: Record<View, number> = { causal: 0, entity: 0, semantic: 0, temporal: 0 };
        let edges = 0;
        const c = await storage.counts(ns);
        edges = c.edges;
        for (const v of VIEWS) byView[v] = c.edgesByView[v] ?? 0;
        const superseded = state.idsWithStatus('superseded').length;
        const counts = writes.counts(ns);
        const systemOneWrites: MemoryStats['systemOneWrites'] = { calls: counts.systemOneCalls, fallbacks: counts.systemOneFallbacks };
        if (counts.lastFallbackReason !== undefined) systemOneWrites.lastFallbackReason = counts.lastFallbackReason;
        const s: MemoryStats = {
          namespace: ns,
          nodes: state.nodes.size,
          activeNodes: state.nodes.size - superseded,
          supersededNodes: superseded,
          edges,
          edgesByView: byView,
          encoder: encoder.fingerprint,
          systemOne: systemOne.modelId,
          vectorIndex: state.vector.kind,
          systemOneWrites,
          maintenanceFailures: counts.maintenanceFailures,
          checkpointFailures: counts.checkpointFailures,
          replans: counts.replans,
          opened: { ...state.openReport },
          damaged: { count: 0, ids: [], checkpoint: state.openReport.checkpointDamaged === true },
          openNamespaces: caches.openCount,
        };
        if (state.vectorUpgradeError !== undefined) s.vectorIndexError = state.vectorUpgradeError instanceof Error ? state.vectorUpgradeError.message : String(state.vectorUpgradeError);
        return s;
      });
      // The damage already known (issue 25: no full pass per session; `jev-mem check` makes it).
      const damage = await storage.damaged(ns, { scan: false });
      out.damaged = { count: damage.ids.length + (damage.unreadable ?? 0), ids: damage.ids, checkpoint: out.damaged.checkpoint || damage.checkpoint };
      const bytes = await storage.sizeBytes(ns);
      if (bytes !== undefined) out.storageBytes = bytes;
      return out;
    },

    async namespaces() {
      ensureOpen();
      return storage.namespaces();
    },

    async close() {
      if (closed) return;
      closed = true;
      await caches.settle(); // writes still planning outside the lock finish first
      // A checkpoint of each namespace this memory changed, so the next open restores it
      // instead of replaying or rescanning (issue 13). Failures are logged inside.
      for (const ns of caches.loadedNamespaces()) {
        await caches
          .exclusive(ns, async () => writes.checkpoint(ns, await caches.stateOf(ns)))
          .catch((e: unknown) => logger('warn', `namespace ${quoteVisible(ns)} was closed without a checkpoint (${e instanceof Error ? e.message : String(e)})`, { code: 'CHECKPOINT_FAILED', namespace: ns, error: e }));
      }
      await caches.close();
      await storage.close();
      // The encoder and a caller-given System One belong to the caller, who closes them.
      await fallback.close();
    },
  };
  return memory;
}
