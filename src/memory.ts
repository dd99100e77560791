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
 * (plane/schema.ts) and nodes embedded by another encoder are re-embedded from their texts.
 *
 * @module
 */
import { resolveParameters, rejectUnknownKeys, type MemoryParameters } from './config.js';
import type { Encoder } from './encoder/encoder.js';
import { JevMemError, describeValue, invalidInput, invalidOption, isJevMemError, throwIfAborted } from './errors.js';
import { checkExport, EXPORT_FORMAT, EXPORT_VERSION, type MemoryExport } from './plane/export.js';
import { createLexicalIndex } from './plane/lexical.js';
import { createMemoryStorage } from './plane/memory-storage.js';
import { dedupKey, NamespaceState, type IndexFactories } from './plane/namespace.js';
import { applyToSnapshot, planMigrations, SCHEMA_META_KEY, SCHEMA_VERSION } from './plane/schema.js';
import type { NamespaceSnapshot, StorageAdapter, WriteBatch } from './plane/storage.js';
import { createFlatVectorIndex } from './plane/vector-flat.js';
import { createHnswVectorIndex, createVectorIndex } from './plane/vector-hnsw.js';
import { runRecall, type RecallSwitches } from './read/recall.js';
import type { RecallTrace } from './read/trace.js';
import { Controller, type DecisionContext, type DecisionRecord } from './system-one/controller.js';
import { createHeuristicSystemOne } from './system-one/heuristic.js';
import type { SystemOneBackend } from './system-one/wire.js';
import { createSystemTwo } from './system-two/client.js';
import type { AnswerResult as SystemTwoAnswer, SystemTwo, SystemTwoOptions } from './system-two/types.js';
import type { MemoryEdge, MemoryNode, Observation, RecalledMemory, View } from './types.js';
import { planMaintenance } from './write/maintenance.js';
import { finishEdge, planWrite, storedVector } from './write/plan.js';
import { typesFrom, typingRequest } from './write/typing.js';
import { validateNamespace, validateObservation, type CheckedObservation } from './write/validate.js';

/** Namespace size from which `vectorIndex: 'auto'` switches from the exact index to HNSW. */
export const AUTO_HNSW_FROM = 5000;

/** Options of {@link createMemory}. Every field is optional except `encoder`. */
export interface MemoryOptions {
  /** Namespace used when a call names none. @default 'default' */
  namespace?: string;
  /**
   * Where nodes and edges live (the source of truth). Use `createIdbStorage()` in browsers,
   * `createFileStorage({ dir })` in Node. @default in-memory storage (lost on close)
   */
  storage?: StorageAdapter;
  /** Sentence encoder for node and query vectors (e.g. `createGloveSifEncoder`). Required. */
  encoder: Encoder;
  /** System One (local model, worker, remote, heuristic). @default the heuristic stand-in */
  systemOne?: SystemOneBackend;
  /** System Two: options for `createSystemTwo` or a ready client. @default none (`answer` throws) */
  systemTwo?: SystemTwoOptions | SystemTwo;
  /**
   * Vector index kind: exact `flat`, `hnsw` (hnswlib-wasm), or `auto`: exact below
   * {@link AUTO_HNSW_FROM} nodes, then HNSW where hnswlib-wasm loads (else it stays exact).
   * @default 'auto'
   */
  vectorIndex?: 'flat' | 'hnsw' | 'auto';
  /** Overrides of the SPEC 8 parameters (see {@link MemoryParameters}). */
  parameters?: Partial<MemoryParameters>;
  /** Clock (for tests). @default () => new Date() */
  now?: () => Date;
  /** Node id generator. @default crypto.randomUUID */
  newId?: () => string;
}

const OPTION_KEYS = ['namespace', 'storage', 'encoder', 'systemOne', 'systemTwo', 'vectorIndex', 'parameters', 'now', 'newId'] as const;

/**
 * Meta key changed by every commit of a memory (a random token). A memory that finds another
 * value in the store than in its cache knows another connection (a second tab) wrote, and
 * rebuilds its caches from the store before going on.
 */
export const GENERATION_META_KEY = 'generation' as const;

/** Meta key listing the ids written since the last maintenance pass (persisted, so a restart loses none). */
export const MAINTENANCE_PENDING_META_KEY = 'maintenancePending' as const;

/** Prefix of the Web Lock that serialises writes to one namespace across tabs: `jev-mem:<namespace>`. */
export const LOCK_PREFIX = 'jev-mem:' as const;

/** Nodes re-embedded per batch when a namespace is opened with another encoder. */
const REEMBED_BATCH = 256;

/** Largest |epoch ms| a JavaScript Date can hold (±100,000,000 days). */
const MAX_TIME_MS = 8.64e15;

/** The parts of the Web Locks API used here (`navigator.locks`). */
interface LockManagerLike {
  request<T>(name: string, options: { mode: 'exclusive'; signal?: AbortSignal }, callback: () => Promise<T>): Promise<T>;
}

function webLocks(): LockManagerLike | undefined {
  const locks = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator?.locks;
  return locks !== undefined && locks !== null && typeof locks.request === 'function' ? locks : undefined;
}

/** `YYYY-MM-DD` at the start of an ISO-8601 string. */
const ISO_DAY = /^\s*(\d{4})-(\d{2})-(\d{2})/;

/**
 * Validates an observation (write/validate.ts), and on top of it refuses what the validator lets
 * through (issue 7 item 7): a calendar day that does not exist (`2023-02-30`, which `Date.parse`
 * silently turns into 2 March), a time a Date cannot hold (|τ| > 8.64e15 ms), and input whose
 * reading throws (a getter or proxy that fails) — each as `INVALID_INPUT` naming the field.
 * @throws JevMemError `INVALID_INPUT` / `TOO_LARGE` naming the field.
 */
function checkObservation(value: unknown, field: string, maxTextChars: number): CheckedObservation {
  let c: CheckedObservation;
  let observedAt: unknown;
  try {
    c = validateObservation(value, field, maxTextChars);
    observedAt = (value as { observedAt?: unknown }).observedAt;
  } catch (e) {
    if (isJevMemError(e)) throw e;
    throw invalidInput(field, `could not be read (${e instanceof Error ? e.message : String(e)}); pass a plain object`);
  }
  if (c.observedAtMs !== undefined && !(Math.abs(c.observedAtMs) <= MAX_TIME_MS)) {
    throw invalidInput(`${field}.observedAt`, `${c.observedAtMs} ms is outside the range of dates (±${MAX_TIME_MS} ms from 1970)`);
  }
  const day = typeof observedAt === 'string' ? ISO_DAY.exec(observedAt) : null;
  if (day !== null) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const probe = new Date(Date.UTC(2000, m - 1, d));
    probe.setUTCFullYear(y);
    if (m < 1 || m > 12 || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
      throw invalidInput(`${field}.observedAt`, `${JSON.stringify(observedAt)} names a day that does not exist; use ISO-8601 such as "2023-05-08T13:56:00Z"`);
    }
  }
  return c;
}

/** Per-call options shared by every operation. */
export interface CallOptions {
  /** Namespace of the call. @default the memory's namespace */
  namespace?: string;
  /** Cancels the call (JevMemError `ABORTED`). */
  signal?: AbortSignal;
}

/** Progress of a long write (`addMany`). */
export interface WriteProgress {
  done: number;
  total: number;
  /** ms since the call started. */
  elapsedMs: number;
  /** Observations per second so far. */
  perSecond: number;
}

/** Options of {@link Memory.addMany}. */
export interface AddManyOptions extends CallOptions {
  /** Called after each committed chunk. */
  onProgress?: (p: WriteProgress) => void;
  /** Observations per atomic storage commit. @default 64 */
  chunkSize?: number;
}

/** Result of one write. */
export interface AddResult {
  /** Id of the node (the existing one when the observation was an exact repeat). */
  id: string;
  /** True when an exact repeat (same text, time and source) was merged into an existing node. */
  deduplicated: boolean;
  /** Edges written with the node. */
  edges: number;
}

/** Options of {@link Memory.recall}. */
export interface RecallOptions extends CallOptions {
  /** How many memories to return. @default K (40), or K for multi-hop (50) when h(q) ≥ 0.5 */
  k?: number;
  /** Time limit in ms. @default parameters.readDeadlineMs */
  deadlineMs?: number;
  /** Ablation switches (graph expansion, routing, stopping). */
  switches?: RecallSwitches;
  /**
   * Read parameters for this call only (budgets, limits, λ, thresholds), over the memory's.
   * @throws JevMemError `INVALID_OPTION` naming the field, as in `createMemory`.
   */
  parameters?: Partial<MemoryParameters>;
}

/** Keys accepted by {@link Memory.recall} (others are refused with `INVALID_OPTION`). */
const RECALL_OPTION_KEYS = ['namespace', 'signal', 'k', 'deadlineMs', 'switches', 'parameters'] as const;

/** Result of a recall: the memories, best first, and the trace that explains them. */
export interface RecallResult {
  memories: RecalledMemory[];
  trace: RecallTrace;
}

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
}

/** Options of {@link Memory.import}. */
export interface ImportOptions extends CallOptions {
  /** Re-embed nodes whose embeddings come from another encoder instead of refusing. @default false */
  reembed?: boolean;
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
  add(observation: Observation, options?: CallOptions): Promise<AddResult>;
  /**
   * Writes many observations in order. Every observation is validated before anything is
   * written; then chunks of `chunkSize` are committed atomically one after another. On a failure,
   * the chunks already committed stay (they were reported by `onProgress`), the failing chunk
   * leaves nothing, and the error carries `details.committed` (the number of observations
   * committed, a multiple of `chunkSize`).
   */
  addMany(observations: Observation[], options?: AddManyOptions): Promise<AddResult[]>;
  /**
   * Recalls memories for a query through the read path (SPEC 6), with the trace.
   * @throws JevMemError `INVALID_INPUT` (empty query, bad `k`), `INVALID_OPTION` (an unknown
   *   option or parameter, naming it), `ABORTED`, `CLOSED`.
   */
  recall(query: string, options?: RecallOptions): Promise<RecallResult>;
  /**
   * Recall + one System-Two call (eq. (27)).
   * @throws JevMemError `SYSTEM_TWO_NOT_CONFIGURED`, the System-Two errors, and recall's.
   */
  answer(query: string, options?: RecallOptions & { now?: Date | string }): Promise<MemoryAnswer>;
  /** One node by id (a copy), or `undefined` (also for an id of another namespace). */
  get(id: string, options?: CallOptions): Promise<MemoryNode | undefined>;
  /** Edges touching a node (both directions; copies). */
  edges(id: string, options?: CallOptions): Promise<MemoryEdge[]>;
  /**
   * Writes `observation` as the newer version of node `id` (issue 7 item 1), in one atomic
   * commit: a new node, the old node marked `superseded` with the new id in its `supersededBy`,
   * and a semantic `updates` edge (new → old, weight 1, origin rule `explicit-update`). Nothing is
   * destroyed: the old node keeps its text, provenance and edges, stays retrievable, and recall
   * ranks it below current memories with its "as of" limit in `supersededAt`. The update is
   * never merged as a repeat, even when its text equals an existing node's.
   * @throws JevMemError `NOT_FOUND` (field `id`; no such node in the namespace), and add's errors.
   */
  update(id: string, observation: Observation, options?: CallOptions): Promise<AddResult>;
  /**
   * Removes a node, its edges and its index entries in one atomic commit: it is gone from
   * recall at once and after a reload. Nodes that only it superseded become `active` again.
   * @returns false when no such node exists in the namespace (nothing changes).
   * @throws JevMemError `STORAGE_FAILED` / `QUOTA_EXCEEDED` (nothing changed), `ABORTED`, `CLOSED`.
   */
  delete(id: string, options?: CallOptions): Promise<boolean>;
  /**
   * Removes a whole namespace (nodes, edges, meta) and nothing else.
   * @throws JevMemError `INVALID_INPUT` (bad name), `STORAGE_FAILED`, `CLOSED`.
   */
  forget(namespace: string): Promise<void>;
  /**
   * Runs maintenance (SPEC 4 step 7) over the nodes written since the last pass (the list is
   * kept in the store, so a restart loses none). Writes run it every J_c writes on their own;
   * there a failed pass does not fail the acknowledged write, and its nodes stay pending.
   * Maintenance adds edges and marks superseded nodes; it never deletes.
   */
  maintain(options?: CallOptions): Promise<{ redundant: number; contradiction: number; obsolete: number; link: number }>;
  /**
   * One versioned export of a namespace (plane/export.ts): every node with its embedding, every
   * edge, the namespace meta (schema version included), the encoder fingerprint and the
   * System-One model id. JSON-safe.
   */
  export(options?: CallOptions): Promise<MemoryExport>;
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
  /** Counts of a namespace. */
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
  if (options === null || typeof options !== 'object') throw invalidOption('options', 'expected an object');
  rejectUnknownKeys(options, OPTION_KEYS, '');
  if (!options.encoder || typeof options.encoder.embed !== 'function') throw invalidOption('encoder', 'an Encoder is required (e.g. createGloveSifEncoder())');
  const defaultNamespace = validateNamespace(options.namespace ?? 'default', 'namespace');
  const vectorKind = options.vectorIndex ?? 'auto';
  if (!['flat', 'hnsw', 'auto'].includes(vectorKind)) throw invalidOption('vectorIndex', `expected 'flat', 'hnsw' or 'auto', got ${JSON.stringify(vectorKind)}`);
  const encoder = options.encoder;
  const storage = options.storage ?? createMemoryStorage();
  const fallback = createHeuristicSystemOne();
  const systemOne = options.systemOne ?? fallback;
  // SPEC 8 defaults ← the backend's calibrated values ← the caller's overrides.
  const params = resolveParameters({ ...(systemOne.parameters as Partial<MemoryParameters> | undefined), ...options.parameters });
  const controller = new Controller(systemOne, fallback);
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? (() => globalThis.crypto.randomUUID());
  let systemTwo: SystemTwo | undefined;
  if (options.systemTwo !== undefined) {
    systemTwo = typeof (options.systemTwo as SystemTwo).answer === 'function' ? (options.systemTwo as SystemTwo) : createSystemTwo(options.systemTwo as SystemTwoOptions);
  }
  const factories: IndexFactories = {
    lexical: createLexicalIndex,
    vector: (dim) => (vectorKind === 'hnsw' ? createVectorIndex('hnsw', dim) : createFlatVectorIndex(dim)),
    // 'auto': exact below AUTO_HNSW_FROM nodes, HNSW (hnswlib-wasm) from there where it loads.
    ...(vectorKind === 'auto' ? { upgrade: { threshold: AUTO_HNSW_FROM, create: (dim: number) => createHnswVectorIndex({ dimension: dim, efConstruction: 100 }) } } : {}),
  };
  const states = new Map<string, Promise<NamespaceState>>();
  const locks = new Map<string, Promise<unknown>>();
  /** Locked operations in flight per namespace (reads do not refresh caches under them). */
  const inFlight = new Map<string, number>();
  /** Readers of each state; a retired state is disposed when its last reader leaves. */
  const users = new WeakMap<NamespaceState, { n: number; retired: boolean }>();
  let closed = false;

  const ensureOpen = (): void => {
    if (closed) throw new JevMemError('CLOSED', 'this memory was closed; create a new one');
  };
  const nsOf = (o?: CallOptions): string => (o?.namespace === undefined ? defaultNamespace : validateNamespace(o.namespace, 'options.namespace'));
  const newGeneration = (): string => globalThis.crypto.randomUUID();

  /**
   * Brings a loaded namespace up to date before its caches are built: schema migrations
   * (plane/schema.ts, each step committed atomically) and, after an encoder change, new
   * embeddings for nodes embedded by another encoder (committed in batches of
   * {@link REEMBED_BATCH}; texts are verbatim, so nothing is lost). Both are idempotent, so two
   * tabs doing it at once write the same result.
   * @throws JevMemError `SCHEMA_MISMATCH` (newer schema), and the storage errors.
   */
  const upgrade = async (ns: string, loaded: NamespaceSnapshot): Promise<NamespaceSnapshot> => {
    let snap = loaded;
    const planned = planMigrations(snap, ns);
    for (const step of planned.steps) {
      const batch: WriteBatch = { ...step.batch, meta: { ...step.batch.meta, [GENERATION_META_KEY]: newGeneration() } };
      await storage.commit(ns, batch);
      snap = applyToSnapshot(snap, batch);
    }
    const foreign = snap.nodes.filter((n) => n.embedding.encoder !== encoder.fingerprint || n.embedding.vector.length !== encoder.dimension);
    if (foreign.length === 0) return snap;
    const byId = new Map(snap.nodes.map((n) => [n.id, n]));
    const meta = { ...snap.meta };
    for (let i = 0; i < foreign.length; i += REEMBED_BATCH) {
      const part = foreign.slice(i, i + REEMBED_BATCH);
      const vectors = await encoder.embed(part.map((n) => n.text));
      const putNodes = part.map((n, j) => ({ ...n, embedding: { encoder: encoder.fingerprint, vector: storedVector(vectors[j] as Float32Array) } }));
      const generation = newGeneration();
      await storage.commit(ns, { putNodes, meta: { [GENERATION_META_KEY]: generation } });
      for (const n of putNodes) byId.set(n.id, n);
      meta[GENERATION_META_KEY] = generation;
    }
    return { nodes: [...byId.values()], edges: snap.edges, meta };
  };
  const stateOf = (ns: string): Promise<NamespaceState> => {
    let s = states.get(ns);
    if (s === undefined) {
      const p = storage
        .load(ns)
        .then((snap) => upgrade(ns, snap))
        .then((snap) => NamespaceState.fromSnapshot(ns, snap, factories, encoder.dimension));
      s = p;
      states.set(ns, p);
      p.catch(() => {
        if (states.get(ns) === p) states.delete(ns);
      });
    }
    return s;
  };
  const disposed = new WeakSet<NamespaceState>();
  const retire = (s: NamespaceState): void => {
    const u = users.get(s);
    if (u === undefined || u.n === 0) {
      disposed.add(s);
      s.dispose();
    } else u.retired = true;
  };
  /** Rebuilds a namespace's caches from the store (after a failed commit, or another tab's). */
  const reload = async (ns: string): Promise<NamespaceState> => {
    const old = states.get(ns);
    states.delete(ns);
    if (old) old.then(retire, () => undefined);
    return stateOf(ns);
  };
  /**
   * The namespace's state, rebuilt first when another connection committed since it was built
   * (its generation differs from the store's). Inside a lock this is exact; for reads it is
   * skipped while this memory has a write in flight on the namespace.
   */
  const fresh = async (ns: string, locked: boolean): Promise<NamespaceState> => {
    const state = await stateOf(ns);
    if (storage.loadMeta === undefined || (!locked && (inFlight.get(ns) ?? 0) > 0)) return state;
    const meta = await storage.loadMeta(ns);
    if ((meta[GENERATION_META_KEY] ?? null) === (state.meta[GENERATION_META_KEY] ?? null)) return state;
    if (!locked && (inFlight.get(ns) ?? 0) > 0) return state;
    const current = await stateOf(ns);
    return current !== state ? current : reload(ns); // one rebuild when several reads notice at once
  };
  /** Runs a read over a state that cannot be disposed under it. */
  /**
   * Readers–writer gate per namespace over the caches: a write holds it from the first change
   * it makes to the caches until its commit is settled (or rolled back by a rebuild), a read for
   * its whole run, so a read never sees a write that is not committed, nor half of one. A
   * waiting write goes before reads that arrive after it.
   */
  const gates = new Map<string, { readers: number; writing: boolean; queue: Array<{ write: boolean; go: () => void }> }>();
  const pump = (ns: string): void => {
    const g = gates.get(ns);
    if (g === undefined) return;
    while (g.queue.length > 0) {
      const next = g.queue[0] as { write: boolean; go: () => void };
      if (next.write ? g.writing || g.readers > 0 : g.writing) break;
      g.queue.shift();
      if (next.write) g.writing = true;
      else g.readers++;
      next.go();
    }
    if (!g.writing && g.readers === 0 && g.queue.length === 0) gates.delete(ns);
  };
  const enter = (ns: string, write: boolean): Promise<void> =>
    new Promise<void>((go) => {
      let g = gates.get(ns);
      if (g === undefined) {
        g = { readers: 0, writing: false, queue: [] };
        gates.set(ns, g);
      }
      g.queue.push({ write, go });
      pump(ns);
    });
  const leave = (ns: string, write: boolean): void => {
    const g = gates.get(ns);
    if (g === undefined) return;
    if (write) g.writing = false;
    else g.readers--;
    pump(ns);
  };
  /** Runs a read over a state that no write changes and no rebuild disposes under it. */
  const reading = async <T>(ns: string, fn: (state: NamespaceState) => Promise<T> | T): Promise<T> => {
    await enter(ns, false);
    try {
      let state = await fresh(ns, false);
      // A rebuild may have retired it between the lookup and this line: take the current one.
      for (let i = 0; i < 3 && disposed.has(state); i++) state = await stateOf(ns);
      const u = users.get(state) ?? { n: 0, retired: false };
      users.set(state, u);
      u.n++;
      try {
        return await fn(state);
      } finally {
        u.n--;
        if (u.n === 0 && u.retired) {
          disposed.add(state);
          state.dispose();
        }
      }
    } finally {
      leave(ns, false);
    }
  };
  /**
   * Serialises writes per namespace: an in-process queue, and inside it the Web Lock
   * `jev-mem:<namespace>` where `navigator.locks` exists, so tabs and workers of one origin
   * write one at a time (issue 7 item 6).
   */
  const exclusive = <T>(ns: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> => {
    const counted = async (): Promise<T> => {
      inFlight.set(ns, (inFlight.get(ns) ?? 0) + 1);
      try {
        return await fn();
      } finally {
        const n = (inFlight.get(ns) ?? 1) - 1;
        if (n === 0) inFlight.delete(ns);
        else inFlight.set(ns, n);
      }
    };
    const locked = (): Promise<T> => {
      const lm = webLocks();
      if (lm === undefined) return counted();
      return lm.request(`${LOCK_PREFIX}${ns}`, signal === undefined ? { mode: 'exclusive' } : { mode: 'exclusive', signal }, counted).catch((e: unknown) => {
        if (signal?.aborted && !isJevMemError(e)) throw new JevMemError('ABORTED', 'the operation was aborted by the caller while waiting for the write lock', { cause: signal.reason });
        throw e;
      });
    };
    const prev = locks.get(ns) ?? Promise.resolve();
    const run = prev.then(locked, locked);
    const tail = run.catch(() => undefined);
    locks.set(ns, tail);
    void tail.then(() => {
      if (locks.get(ns) === tail) locks.delete(ns);
    });
    return run;
  };
  const writeCtx = (signal?: AbortSignal, log?: DecisionRecord[]): DecisionContext => {
    const ctx: DecisionContext = { callsLeft: Number.POSITIVE_INFINITY, deadline: Date.now() + params.writeDeadlineMs, recordAnswers: false };
    if (signal) ctx.signal = signal;
    if (log) ctx.log = log;
    return ctx;
  };
  /** Adds the bookkeeping every commit carries: a new generation, and the schema version on the first commit. */
  const stamp = (state: NamespaceState, batch: WriteBatch): WriteBatch => {
    const meta: Record<string, unknown> = { ...batch.meta, [GENERATION_META_KEY]: newGeneration() };
    if (state.meta[SCHEMA_META_KEY] !== SCHEMA_VERSION) meta[SCHEMA_META_KEY] = SCHEMA_VERSION;
    return { ...batch, meta };
  };
  /** Commits a batch atomically and applies it to the caches; on failure rebuilds them from the store. */
  const commit = async (ns: string, state: NamespaceState, batch: WriteBatch): Promise<void> => {
    const stamped = stamp(state, batch);
    try {
      await storage.commit(ns, stamped);
    } catch (e) {
      await reload(ns).catch(() => undefined);
      throw e;
    }
    await enter(ns, true);
    try {
      state.apply(stamped);
    } finally {
      leave(ns, true);
    }
  };
  const pendingOf = (state: NamespaceState): string[] => {
    const p = state.meta[MAINTENANCE_PENDING_META_KEY];
    return Array.isArray(p) ? p.filter((x): x is string => typeof x === 'string') : [];
  };

  /** The write path over already validated observations, in chunks. */
  const writeChecked = async (ns: string, checked: CheckedObservation[], opts: AddManyOptions, supersedesId?: string): Promise<AddResult[]> => {
    let state = await fresh(ns, true);
    const started = performance.now();
    const chunkSize = opts.chunkSize ?? 64;
    const results: AddResult[] = [];
    for (let start = 0; start < checked.length; start += chunkSize) {
      const chunk = checked.slice(start, start + chunkSize);
      const batch: WriteBatch = { putNodes: [], putEdges: [] };
      const chunkResults: AddResult[] = [];
      const written: string[] = [];
      const nowIso = now().toISOString();
      let gated = false;
      try {
        throwIfAborted(opts.signal);
        await state.maybeUpgradeVector();
        // Embedding and typing in one batch per chunk (SPEC 4 step 2: one typing request per observation, one round trip per chunk).
        const vectors = await encoder.embed(
          chunk.map((c) => c.text),
          opts.signal,
        );
        const typing = await controller.askMany(
          'typing',
          chunk.map((c) => typingRequest(c.text, c.provenance.speaker, c.observedAtMs !== undefined ? new Date(c.observedAtMs).toISOString() : undefined)),
          writeCtx(opts.signal),
        );
        await enter(ns, true); // from here the caches hold uncommitted changes: no reader may look
        gated = true;
        for (let i = 0; i < chunk.length; i++) {
          const c = chunk[i] as CheckedObservation;
          const observedAt = c.observedAtMs !== undefined ? new Date(c.observedAtMs).toISOString() : undefined;
          const dupId = state.dedup.get(dedupKey(c.text, observedAt, c.provenance.source));
          const dup = dupId !== undefined ? state.nodes.get(dupId) : undefined;
          if (dup !== undefined && supersedesId === undefined) {
            // Exact repeat: keep one node, keep every provenance (issue 7 item 4).
            const merged: MemoryNode = { ...dup, duplicates: [...(dup.duplicates ?? []), { ...c.provenance, ingestedAt: nowIso }] };
            const b: WriteBatch = { putNodes: [merged] };
            state.apply(b);
            (batch.putNodes as MemoryNode[]).push(merged);
            chunkResults.push({ id: dup.id, deduplicated: true, edges: 0 });
            continue;
          }
          const id = newId();
          if (typeof id !== 'string' || id === '' || state.nodes.has(id)) {
            // Never let an id overwrite a stored node (a custom newId that repeats itself).
            throw invalidOption('newId', `returned ${JSON.stringify(id)}, which is ${typeof id !== 'string' || id === '' ? 'not a non-empty string' : 'the id of an existing node'}; ids must be unique`);
          }
          const planned = await planWrite(
            ns,
            { id, checked: c, vector: vectors[i] as Float32Array, encoder: encoder.fingerprint, types: typesFrom((typing[i] as { response: Parameters<typeof typesFrom>[0] }).response), nowIso },
            state,
            controller,
            params,
            writeCtx(opts.signal),
          );
          const b: WriteBatch = { putNodes: [planned.node], putEdges: planned.edges };
          const supersedes = supersedesId === undefined ? undefined : state.nodes.get(supersedesId);
          if (supersedes !== undefined) {
            // Explicit update (issue 7 item 1): the old node stays, marked superseded and linked.
            const old: MemoryNode = { ...supersedes, status: 'superseded', supersededBy: [...new Set([...supersedes.supersededBy, planned.node.id])] };
            const e = finishEdge(ns, { from: planned.node.id, to: old.id, view: 'semantic', subtype: 'updates', weight: 1, origin: { kind: 'rule', by: 'explicit-update' } }, nowIso);
            (b.putNodes as MemoryNode[]).push(old);
            (b.putEdges as MemoryEdge[]).push(e);
          }
          state.apply(b); // visible to the next observation of the chunk; rolled back by reload on failure
          (batch.putNodes as MemoryNode[]).push(...(b.putNodes as MemoryNode[]));
          (batch.putEdges as MemoryEdge[]).push(...(b.putEdges as MemoryEdge[]));
          chunkResults.push({ id: planned.node.id, deduplicated: false, edges: planned.edges.length });
          written.push(planned.node.id);
        }
        throwIfAborted(opts.signal);
        // Repeated puts of one node (dedup of a node written in the same chunk) collapse to the last.
        const lastPut = new Map<string, MemoryNode>();
        for (const n of batch.putNodes as MemoryNode[]) lastPut.set(n.id, n);
        batch.putNodes = [...lastPut.values()];
        if (written.length > 0) batch.meta = { [MAINTENANCE_PENDING_META_KEY]: [...pendingOf(state), ...written] };
        const stamped = stamp(state, batch);
        await storage.commit(ns, stamped);
        state.apply({ meta: stamped.meta as Record<string, unknown> });
      } catch (e) {
        await reload(ns).catch(() => undefined);
        const err = isJevMemError(e) ? e : new JevMemError('STORAGE_FAILED', `write failed: ${(e as Error)?.message ?? String(e)}`, { cause: e });
        err.details.committed = results.length;
        throw err;
      } finally {
        if (gated) leave(ns, true);
      }
      results.push(...chunkResults);
      const elapsedMs = performance.now() - started;
      opts.onProgress?.({ done: results.length, total: checked.length, elapsedMs, perSecond: elapsedMs > 0 ? (results.length * 1000) / elapsedMs : 0 });
      if (params.maintenanceInterval > 0 && pendingOf(state).length >= params.maintenanceInterval) {
        // Best effort: the chunk is committed and acknowledged; a failed pass leaves its ids
        // pending in the store for the next one.
        try {
          await runMaintenance(ns, state, opts.signal);
        } catch {
          state = await stateOf(ns).catch(() => state);
        }
      }
    }
    return results;
  };

  /** One maintenance pass over the pending ids; commits its edges, supersessions and the emptied pending list in one batch. */
  const runMaintenance = async (ns: string, state: NamespaceState, signal?: AbortSignal) => {
    const ids = pendingOf(state);
    if (ids.length === 0) return { redundant: 0, contradiction: 0, obsolete: 0, link: 0 };
    const plan = await planMaintenance(state, ids, controller, params.maintenanceThreshold, writeCtx(signal), now().toISOString());
    throwIfAborted(signal);
    await commit(ns, state, { ...plan.batch, meta: { [MAINTENANCE_PENDING_META_KEY]: null } });
    return plan.counts;
  };

  const memory: Memory = {
    namespace: defaultNamespace,
    parameters: params,
    systemOne,
    encoder,

    async add(observation, o) {
      ensureOpen();
      const ns = nsOf(o);
      const checked = checkObservation(observation, 'observation', params.maxTextChars);
      return exclusive(ns, async () => (await writeChecked(ns, [checked], o ?? {}))[0] as AddResult, o?.signal);
    },

    async addMany(observations, o) {
      ensureOpen();
      if (!Array.isArray(observations)) throw invalidInput('observations', 'expected an array of observations');
      const ns = nsOf(o);
      const checked = observations.map((x, i) => checkObservation(x, `observations[${i}]`, params.maxTextChars));
      if (o?.chunkSize !== undefined && (!Number.isInteger(o.chunkSize) || o.chunkSize < 1)) throw invalidInput('options.chunkSize', `expected a positive integer, got ${describeValue(o.chunkSize)}`);
      return exclusive(ns, () => writeChecked(ns, checked, o ?? {}), o?.signal);
    },

    async recall(query, o) {
      ensureOpen();
      if (typeof query !== 'string' || query.trim() === '') throw invalidInput('query', 'expected a non-empty string');
      if (o !== undefined) rejectUnknownKeys(o, RECALL_OPTION_KEYS, 'options');
      if (o?.k !== undefined && (!Number.isInteger(o.k) || o.k < 1)) throw invalidInput('options.k', `expected a positive integer, got ${describeValue(o.k)}`);
      const ns = nsOf(o);
      const callParams = o?.parameters === undefined ? params : resolveParameters({ ...params, ...o.parameters }, 'options.parameters');
      return reading(ns, async (state) => {
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
        if (o?.signal) input.signal = o.signal;
        if (o?.switches) input.switches = o.switches;
        if (encoder.termVectors) input.termVectors = (words) => encoder.termVectors!(words);
        return runRecall(state, controller, callParams, input);
      });
    },

    async answer(query, o) {
      ensureOpen();
      if (systemTwo === undefined) {
        throw new JevMemError('SYSTEM_TWO_NOT_CONFIGURED', 'answer() needs System Two: pass options.systemTwo ({ url, model, apiKey? }) to createMemory; recall() works without it');
      }
      const { now: _now, ...recallOptions } = o ?? {};
      const r = await memory.recall(query, recallOptions);
      const req: Parameters<SystemTwo['answer']>[0] = {
        query,
        evidence: r.memories.map((m) => {
          const item: { id: string; text: string; score: number; observedAt?: string; speaker?: string; turnId?: string; supersededAt?: string } = { id: m.id, text: m.text, score: m.score };
          if (m.observedAt) item.observedAt = m.observedAt;
          if (m.supersededAt) item.supersededAt = m.supersededAt;
          if (m.provenance.speaker) item.speaker = m.provenance.speaker;
          if (m.provenance.turnId) item.turnId = m.provenance.turnId;
          return item;
        }),
      };
      if (o?.signal) req.signal = o.signal;
      if (o?.now) req.now = o.now;
      const a = await systemTwo.answer(req);
      const { text, ...rest } = a;
      return { ...r, text, systemTwo: rest };
    },

    async get(id, o) {
      ensureOpen();
      const ns = nsOf(o);
      return reading(ns, (state) => {
        const n = state.nodes.get(id);
        return n === undefined ? undefined : structuredClone(n); // a copy: callers cannot change the cache
      });
    },

    async edges(id, o) {
      ensureOpen();
      const ns = nsOf(o);
      return reading(ns, (state) => state.edgesOf(id).map((e) => structuredClone(e)));
    },

    async update(id, observation, o) {
      ensureOpen();
      const ns = nsOf(o);
      const checked = checkObservation(observation, 'observation', params.maxTextChars);
      return exclusive(
        ns,
        async () => {
          const state = await fresh(ns, true);
          if (!state.nodes.has(id)) throw new JevMemError('NOT_FOUND', `no node ${JSON.stringify(id)} in namespace ${JSON.stringify(ns)}`, { field: 'id' });
          return (await writeChecked(ns, [checked], o ?? {}, id))[0] as AddResult;
        },
        o?.signal,
      );
    },

    async delete(id, o) {
      ensureOpen();
      const ns = nsOf(o);
      return exclusive(
        ns,
        async () => {
          const state = await fresh(ns, true);
          if (!state.nodes.has(id)) return false;
          throwIfAborted(o?.signal);
          const batch: WriteBatch = { deleteNodeIds: [id], deleteEdgeIds: state.edgesOf(id).map((e) => e.id) };
          // Nodes it superseded become current again only if nothing else supersedes them.
          const revived: MemoryNode[] = [];
          for (const n of state.nodes.values()) {
            if (n.supersededBy.includes(id)) {
              const rest = n.supersededBy.filter((x) => x !== id);
              revived.push({ ...n, supersededBy: rest, status: rest.length === 0 ? 'active' : n.status });
            }
          }
          if (revived.length > 0) batch.putNodes = revived;
          const pending = pendingOf(state);
          if (pending.includes(id)) batch.meta = { [MAINTENANCE_PENDING_META_KEY]: pending.filter((x) => x !== id) };
          await commit(ns, state, batch);
          return true;
        },
        o?.signal,
      );
    },

    async forget(namespace) {
      ensureOpen();
      const ns = validateNamespace(namespace, 'namespace');
      await exclusive(ns, async () => {
        await storage.dropNamespace(ns);
        const s = states.get(ns);
        states.delete(ns);
        if (s) s.then(retire, () => undefined);
      });
    },

    async maintain(o) {
      ensureOpen();
      const ns = nsOf(o);
      return exclusive(ns, async () => runMaintenance(ns, await fresh(ns, true), o?.signal), o?.signal);
    },

    async export(o) {
      ensureOpen();
      const ns = nsOf(o);
      return exclusive(
        ns,
        async () => {
          // Through the state, so the file holds migrated data and this encoder's embeddings.
          await fresh(ns, true);
          const snap = await storage.load(ns);
          const meta: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(snap.meta)) if (k !== GENERATION_META_KEY) meta[k] = v;
          const out: MemoryExport = {
            format: EXPORT_FORMAT,
            version: EXPORT_VERSION,
            namespace: ns,
            exportedAt: now().toISOString(),
            encoder: encoder.fingerprint,
            systemOne: systemOne.modelId,
            nodes: snap.nodes.sort((a, b) => a.seq - b.seq),
            edges: snap.edges,
            meta,
          };
          return out;
        },
        o?.signal,
      );
    },

    async import(data, o) {
      ensureOpen();
      const file = checkExport(data);
      const ns = o?.namespace !== undefined ? validateNamespace(o.namespace, 'options.namespace') : validateNamespace(file.namespace, 'export.namespace');
      // The file's records as a snapshot of the target namespace, brought to this build's schema.
      const asStored: NamespaceSnapshot = {
        nodes: file.nodes.map((n) => ({ ...n, namespace: ns })),
        edges: file.edges.map((e) => ({ ...e, namespace: ns })),
        meta: { ...(file.meta ?? {}) },
      };
      const migrated = planMigrations(asStored, ns).snapshot;
      let nodes = migrated.nodes;
      const foreign = nodes.filter((n) => n.embedding.encoder !== encoder.fingerprint || n.embedding.vector.length !== encoder.dimension);
      if (foreign.length > 0 && o?.reembed !== true) {
        throw new JevMemError(
          'ENCODER_MISMATCH',
          `${foreign.length} node(s) were embedded by ${JSON.stringify(foreign[0]?.embedding.encoder)} (${foreign[0]?.embedding.vector.length} dimensions), this memory uses ${JSON.stringify(encoder.fingerprint)} (${encoder.dimension}); pass { reembed: true } (CLI: --reembed) to re-embed them from their texts`,
          { field: 'export.encoder' },
        );
      }
      return exclusive(
        ns,
        async () => {
          const state = await fresh(ns, true);
          if (state.size > 0) throw invalidInput('options.namespace', `namespace ${JSON.stringify(ns)} is not empty; import into an empty namespace or forget it first`);
          if (foreign.length > 0) {
            const byId = new Map<string, Float32Array>();
            for (let i = 0; i < foreign.length; i += REEMBED_BATCH) {
              const part = foreign.slice(i, i + REEMBED_BATCH);
              const vecs = await encoder.embed(
                part.map((n) => n.text),
                o?.signal,
              );
              part.forEach((n, j) => byId.set(n.id, vecs[j] as Float32Array));
            }
            nodes = nodes.map((n) => {
              const v = byId.get(n.id);
              return v === undefined ? n : { ...n, embedding: { encoder: encoder.fingerprint, vector: storedVector(v) } };
            });
          }
          throwIfAborted(o?.signal);
          const ids = new Set(nodes.map((n) => n.id));
          const edges = migrated.edges.filter((e) => ids.has(e.from) && ids.has(e.to));
          const meta: Record<string, unknown> = { ...migrated.meta, [SCHEMA_META_KEY]: SCHEMA_VERSION };
          const pending = meta[MAINTENANCE_PENDING_META_KEY];
          if (pending !== undefined) meta[MAINTENANCE_PENDING_META_KEY] = Array.isArray(pending) ? pending.filter((x) => typeof x === 'string' && ids.has(x)) : null;
          // The caches are built before the commit, so a file the indexes cannot hold fails with
          // nothing written; then one atomic commit: the namespace gets the whole file or nothing.
          const batch = stamp(state, { putNodes: nodes, putEdges: edges, meta });
          let built: NamespaceState;
          try {
            built = await NamespaceState.fromSnapshot(ns, applyToSnapshot({ nodes: [], edges: [], meta: state.meta }, batch), factories, encoder.dimension);
          } catch (e) {
            if (isJevMemError(e)) throw e;
            throw invalidInput('export', `the file cannot be indexed: ${(e as Error)?.message ?? String(e)}`);
          }
          try {
            await storage.commit(ns, batch);
          } catch (e) {
            built.dispose();
            throw e;
          }
          const old = states.get(ns);
          states.set(ns, Promise.resolve(built));
          if (old) old.then(retire, () => undefined);
          return { nodes: nodes.length, edges: edges.length, namespace: ns };
        },
        o?.signal,
      );
    },

    async stats(o) {
      ensureOpen();
      const ns = nsOf(o);
      const out = await reading(ns, (state) => {
        const byView: Record<View, number> = { causal: 0, entity: 0, semantic: 0, temporal: 0 };
        for (const e of state.edges.values()) byView[e.view] += 1;
        let superseded = 0;
        for (const n of state.nodes.values()) if (n.status === 'superseded') superseded++;
        const s: MemoryStats = {
          namespace: ns,
          nodes: state.nodes.size,
          activeNodes: state.nodes.size - superseded,
          supersededNodes: superseded,
          edges: state.edges.size,
          edgesByView: byView,
          encoder: encoder.fingerprint,
          systemOne: systemOne.modelId,
          vectorIndex: state.vector.kind,
        };
        return s;
      });
      const bytes = storage.sizeBytes ? await storage.sizeBytes(ns) : undefined;
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
      await Promise.all([...locks.values()].map((p) => p.catch(() => undefined)));
      for (const s of states.values()) {
        const st = await s.catch(() => undefined);
        if (st) retire(st);
      }
      states.clear();
      await storage.close();
      // The encoder and a caller-given System One belong to the caller, who closes them.
      await fallback.close();
    },
  };
  return memory;
}
