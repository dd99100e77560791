/**
 * The resident view of one namespace of the memory plane (eq. (5): M_t = (V_t, {E^g_t}, I^vec,
 * I^lex)), bounded by what its indexes cost, not by its history (issue 13).
 *
 * Resident (O(nodes), compact): the node directory (id → seq, status, session, content hash, int8
 * vector; node-directory.ts), the two indexes I^lex and I^vec, and the small bookkeeping maps the
 * write path uses to find deterministic neighbours (last turn of a session, recent mentions of an
 * entity, exact repeats) without scanning nodes.
 *
 * Not resident: node bodies and edges. They live in the store and are read through the storage
 * port (`getNodes`, `getEdges`) into two bounded LRU caches. A path first loads what its bounds
 * allow (the read path: anchors, then each round's frontier, ≤ maxVisited nodes and
 * ≤ maxEdgesInspected edges; the write path: ≤ K_w candidates; SPEC 4, 6) with
 * {@link NamespaceState.loadNodes} / {@link NamespaceState.loadEdges}, then reads them
 * synchronously; reading a node or an edge list that was not loaded is a bug and throws.
 *
 * I^lex is the store's own index when the store keeps one (`StorageAdapter.lexicalIndex`: the SQL
 * store's FTS5, always in a Durable Object): its `add`/`remove` calls below do nothing, commits
 * maintain it, so a node the write path applies before its commit (the observations of one
 * chunk) is found by lexical search only once that commit returns (vector search finds it at
 * once).
 *
 * Open ({@link NamespaceState.open}) restores the resident part from the store's checkpoint and
 * replays the commits logged after it; without a usable checkpoint it rebuilds from one streamed
 * scan of the nodes. {@link NamespaceState.checkpoint} writes a new one.
 *
 * @module
 */
import { GrowingLru } from '../../util/lru.js';
import { JevMemError, isJevMemError } from '../../errors.js';
import type { EdgeSubtype, MemoryEdge, MemoryNode } from '../../types.js';
import type { LexicalIndex, VectorIndex } from '../indexes/indexes.js';
import type { LanguageCode } from '../text/language.js';
import { loadLexicalIndex } from '../indexes/lexical.js';
import { createMemoryStorage } from '../store/memory-storage.js';
import { NodeDirectory, contentHash, hash53, STATUS_CODE } from './node-directory.js';
import { CHANGE_META_KEY, type Checkpoint, type StorageAdapter, type WriteBatch } from '../store/storage.js';
import { detectLanguage, normalizeText } from '../text/text.js';
import { readVectorHeader } from '../indexes/vector-format.js';

/** Factories of the derived indexes (injected so each platform picks its own). */
export interface IndexFactories {
  lexical(): LexicalIndex;
  vector(dimension: number): VectorIndex | Promise<VectorIndex>;
  /**
   * Optional switch to an approximate index when the namespace grows: once it holds
   * `threshold` nodes (a number, or one per vector dimension), the exact index is replaced by
   * `create(dimension)` (e.g. HNSW), so vector search — and with it each write's candidate
   * discovery — stops growing linearly.
   *
   * `exactOpenBelow`: a namespace with fewer nodes opens on the exact index, built from the
   * directory, even when its checkpoint holds an approximate one (an exact search there is
   * cheap, and the open loads no approximate index); that checkpointed index is restored at the
   * first {@link NamespaceState.maybeUpgradeVector} (the first write), brought up to date with
   * the nodes changed since the checkpoint. @default threshold
   */
  upgrade?: {
    threshold: number | ((dimension: number) => number);
    exactOpenBelow?: number | ((dimension: number) => number);
    create(dimension: number): Promise<VectorIndex>;
  };
  /**
   * Optional: restores a vector index from its `serialize()` bytes (a checkpoint's `vectors`
   * part), so a reopen does not re-insert every vector. Throws when it cannot (the namespace then
   * rebuilds the index from its directory).
   */
  restoreVector?(bytes: Uint8Array): Promise<VectorIndex>;
}

/** One session's bookkeeping. */
export interface SessionInfo {
  /** 0-based order of first appearance in the namespace. */
  ordinal: number;
  firstId: string;
  lastId: string;
}

/** Distinct words whose stems one namespace keeps memoised ({@link NamespaceState.stemMemo}). */
export const STEM_MEMO_WORDS = 16_384;

/** Node bodies kept in the LRU cache of one namespace. */
export const NODE_CACHE_SIZE = 16_384;

/** Edge lists (all edges of one node) kept in the LRU cache of one namespace. */
export const EDGE_CACHE_SIZE = 8_192;

/** Nodes read per `getNodes` / scan batch while opening. */
const LOAD_BATCH = 512;

/** How many recent mentions of each entity are kept for candidate discovery. */
const MENTIONS_KEPT = 64;

/**
 * Format tag of this build's checkpoints ({@link Checkpoint.format}). @2 (issue 22): the book's
 * speakers carry a node count, so a speaker's name leaves with its last node. A checkpoint of
 * another format (@1) is not restored: the open rebuilds from a scan and writes an @2 one.
 */
export const CHECKPOINT_FORMAT = 'jev-mem/namespace-checkpoint@2';

/**
 * Key of exact-repeat detection: same text, same time, same source (issue 7 item 4). The text is
 * compared in its normalised form (`normalizeText`: NFC, trimmed, white space collapsed; issue
 * 15), so the same sentence in NFC and NFD, or with a trailing space, is one node. An absent time
 * or source differs from every present one, the empty string included.
 */
export function dedupKey(text: string, observedAt: string | undefined, source: string | undefined): string {
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text)]);
}

/** Orders edges by id (the order edge lists are kept in after a read). */
function byEdgeId(a: MemoryEdge, b: MemoryEdge): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Checkpoint part with the exact index of a namespace that writes through an approximate one ({@link IndexFactories.upgrade}). */
const EXACT_VECTORS_PART = 'vectors.exact';

/** The node count from which `up` switches to its approximate index, for vectors of `dimension`. */
function upgradeThreshold(up: Pick<NonNullable<IndexFactories['upgrade']>, 'threshold'>, dimension: number): number {
  return typeof up.threshold === 'number' ? up.threshold : up.threshold(dimension);
}

/** The node count below which `up` opens a namespace on the exact index (`exactOpenBelow`, else its threshold). */
function exactOpenThreshold(up: NonNullable<IndexFactories['upgrade']>, dimension: number): number {
  return upgradeThreshold({ threshold: up.exactOpenBelow ?? up.threshold }, dimension);
}

/** Kind of a serialised vector index (`'flat'`, `'hnsw'`, `'ann'`), or undefined when the bytes have no valid header. */
function vectorKindOf(bytes: Uint8Array): string | undefined {
  try {
    return readVectorHeader(bytes).kind;
  } catch {
    return undefined;
  }
}

/** Key of a node's list of one subtype in the caches: the id first, so a node's keys share a prefix. */
function kindKey(subtype: EdgeSubtype, id: string): string {
  return `${id}\u0000${subtype}`;
}

function notLoaded(what: string, id: string, namespace: string): JevMemError {
  return new JevMemError('STORAGE_FAILED', `internal: the ${what} of ${JSON.stringify(id)} in namespace ${JSON.stringify(namespace)} was read before it was loaded from the store`, {
    field: 'id',
  });
}

/** Read-only map-like access to the node bodies (see the module note on loading). */
export interface NodeView {
  /** The node, when it exists; `undefined` when it does not. @throws JevMemError when it exists but was not loaded. */
  get(id: string): MemoryNode | undefined;
  /** True when the namespace holds a node with this id (no load needed). */
  has(id: string): boolean;
  /** Number of nodes (any status). */
  readonly size: number;
}

/** What {@link NamespaceState.open} needs. */
export interface OpenOptions {
  namespace: string;
  storage: StorageAdapter;
  factories: IndexFactories;
  dimension: number;
  /** Fingerprint of the encoder of this memory (a checkpoint of another one is not used). */
  encoder?: string;
  /** LRU sizes: node bodies and edge lists. @default { nodes: NODE_CACHE_SIZE, edges: EDGE_CACHE_SIZE } */
  cache?: { nodes: number; edges: number };
}

/** How the resident state was obtained at open (shown in `stats()` and benchmarks). */
export interface OpenReport {
  /** `checkpoint`: restored, plus `replayed` logged changes; `scan`: rebuilt from the store. */
  from: 'checkpoint' | 'scan' | 'empty';
  replayed: number;
  /** Why the checkpoint was not used, when `from` is `scan`. */
  reason?: string;
  /**
   * The checkpoint was damaged (it failed its checksum, SQLite could not read it, or its parts
   * could not be decoded) and the state was rebuilt from the node rows (issue 22). The memory
   * logs it as `CHECKPOINT_DAMAGED`.
   */
  checkpointDamaged?: boolean;
  ms: number;
}

/**
 * The live state of one namespace. Mutated only through {@link NamespaceState.apply}, which
 * the memory calls for batches it is committing.
 */
export class NamespaceState {
  readonly #dir: NodeDirectory;
  readonly #nodeCache: GrowingLru<string, MemoryNode>;
  readonly #edgeCache: GrowingLru<string, MemoryEdge[]>;
  /**
   * What the running operations loaded, held until the last of them ends ({@link use}), so an
   * LRU eviction never takes a body or an edge list from under the operation that loaded it.
   */
  readonly #pinnedNodes = new Map<string, MemoryNode>();
  readonly #pinnedEdges = new Map<string, MemoryEdge[]>();
  /**
   * Edge lists of one subtype (key {@link kindKey}), for nodes whose whole list was not loaded:
   * the read path asks most candidates for their window only (`precedes`), a few edges among
   * the ~20 a node has. Cached across operations until a commit changes an edge or removes a
   * node (then dropped whole: cheap, and recalls between writes keep them); pinned like the
   * whole lists while an operation runs.
   */
  readonly #kindCache: GrowingLru<string, MemoryEdge[]>;
  readonly #pinnedKinds = new Map<string, MemoryEdge[]>();
  /**
   * Nodes of the directory the store could not give back (damaged records, issue 22: the
   * adapter skipped them and names them in `damaged()`): `nodes.get` answers undefined for them,
   * so a read goes on without them instead of failing.
   */
  readonly #unreadable = new Set<string>();
  #operations = 0;

  /** Ids of the directory's nodes the store could not give back (damaged records), sorted. */
  unreadableIds(): string[] {
    return [...this.#unreadable].filter((id) => this.#dir.has(id)).sort();
  }
  readonly sessions = new Map<string, SessionInfo>();
  /** Canonical entity → ids of the latest nodes that mention it (oldest first). */
  readonly mentions = new Map<string, string[]>();
  /** Canonical speaker names. */
  readonly speakers = new Map<string, string>();
  /** Canonical speaker name → number of nodes with it (the name leaves {@link speakers} with its last node). */
  readonly #speakerCount = new Map<string, number>();
  /** 53-bit hash of {@link dedupKey} → id of the latest node with that key (verify on a hit). */
  readonly #dedup = new Map<number, string>();
  meta: Record<string, unknown> = {};
  /** Highest node sequence number. */
  seq = 0;
  /** Id of the node with the highest seq. */
  lastId: string | undefined;
  /** Writes since the last maintenance pass. */
  writesSinceMaintenance = 0;
  /** Node ids changed since the last checkpoint (the memory checkpoints when it grows). */
  changedSinceCheckpoint = 0;
  /**
   * Batches applied to this state since it was built (issue 22): a write planned outside the
   * namespace lock compares it at commit to tell whether anything changed under its plan.
   */
  revision = 0;
  /** How this state was opened. */
  openReport: OpenReport = { from: 'empty', replayed: 0, ms: 0 };

  /** Document frequency of keywords (content terms) over the namespace's nodes. */
  readonly keywordDf = new Map<string, number>();

  /**
   * word → its content stem (`null` for a stop word), memoised for the read path's soft term
   * matching, which stems every distinct word of the candidates each recall reads (a pure
   * function of the word, so never stale). An LRU of {@link STEM_MEMO_WORDS} words.
   */
  readonly stemMemo = new GrowingLru<string, string | false>({ max: STEM_MEMO_WORDS });

  /** Language (`detectLanguage`, plane/text/text.ts) → number of nodes written in it. */
  readonly languages = new Map<LanguageCode, number>();

  /** The node bodies: `get` needs a prior {@link NamespaceState.loadNodes}. */
  readonly nodes: NodeView;

  /** The stored (int8-grid) vector of each node, from the resident directory. */
  readonly vectors: { get(id: string): Float32Array | undefined };

  private constructor(
    readonly namespace: string,
    readonly storage: StorageAdapter,
    public lexical: LexicalIndex,
    /** I^vec; replaced once by {@link NamespaceState.maybeUpgradeVector}. */
    public vector: VectorIndex,
    readonly dimension: number,
    private readonly upgrade?: IndexFactories['upgrade'],
    sizes: { nodes: number; edges: number } = { nodes: NODE_CACHE_SIZE, edges: EDGE_CACHE_SIZE },
  ) {
    this.#nodeCache = new GrowingLru<string, MemoryNode>({ max: sizes.nodes });
    this.#edgeCache = new GrowingLru<string, MemoryEdge[]>({ max: sizes.edges });
    this.#kindCache = new GrowingLru<string, MemoryEdge[]>({ max: sizes.edges });
    this.#dir = new NodeDirectory(dimension);
    const dir = this.#dir;
    const cache = this.#nodeCache;
    const pinned = this.#pinnedNodes;
    const unreadable = this.#unreadable;
    this.nodes = {
      get: (id) => {
        if (!dir.has(id) || unreadable.has(id)) return undefined;
        const n = pinned.get(id) ?? cache.get(id);
        if (n === undefined) throw notLoaded('node', id, namespace);
        return n;
      },
      has: (id) => dir.has(id),
      get size() {
        return dir.size;
      },
    };
    this.vectors = { get: (id) => dir.vector(id) };
  }

  /**
   * The language most nodes are written in (`"en"` for an empty namespace; ties go to the
   * language seen first). The fallback of a question too short to identify (issue 15).
   */
  get dominantLanguage(): LanguageCode {
    let best: LanguageCode = 'en';
    let most = 0;
    for (const [lang, count] of this.languages) {
      if (lang !== 'und' && count > most) {
        best = lang;
        most = count;
      }
    }
    return best;
  }

  /**
   * Why the switch to the approximate index failed (`undefined` while none failed). The exact
   * index is kept, and the switch is not tried again by this state (a rebuilt state tries anew).
   */
  vectorUpgradeError: unknown = undefined;

  /**
   * A checkpointed approximate index not restored at open (`upgrade.exactOpenBelow`): its bytes,
   * the restore function, and the ids whose vectors changed since that checkpoint.
   */
  #deferredVector: { bytes: Uint8Array; restore: (bytes: Uint8Array) => Promise<VectorIndex>; touched: Set<string> } | undefined;

  /** The factories' exact index (for the `vectors.exact` checkpoint part). */
  #exactIndex: IndexFactories['vector'] | undefined;

  /** Restores the deferred approximate index, up to date; undefined when it cannot (the caller builds one). */
  async #restoreDeferred(): Promise<VectorIndex | undefined> {
    const deferred = this.#deferredVector;
    if (deferred === undefined) return undefined;
    this.#deferredVector = undefined;
    let next: VectorIndex;
    try {
      next = await deferred.restore(deferred.bytes);
    } catch {
      return undefined;
    }
    if (next.dimension !== this.dimension) {
      next.dispose();
      return undefined;
    }
    for (const id of deferred.touched) {
      if (next.has(id)) next.remove(id);
      if (this.#dir.has(id) && this.#dir.status(id) !== 'deleted') next.add(id, this.#dir.vector(id) as Float32Array);
    }
    return next;
  }

  /**
   * Replaces a flat vector index by the factories' approximate one once the namespace reaches
   * the threshold (a no-op otherwise, and after the first switch). A failure to build it keeps
   * the exact index (search stays correct, only slower), is kept in
   * {@link NamespaceState.vectorUpgradeError} and returned, never dropped: the memory logs it and
   * shows it in `stats()`.
   * @returns `{ error }` when this call tried the switch and it failed, else `undefined`.
   */
  async maybeUpgradeVector(): Promise<{ error: unknown } | undefined> {
    const up = this.upgrade;
    if (up === undefined || this.vector.kind !== 'flat' || this.#dir.size < upgradeThreshold(up, this.dimension) || this.vectorUpgradeError !== undefined) {
      this.#deferredVector = undefined;
      return undefined;
    }
    let next = await this.#restoreDeferred();
    if (next === undefined) {
      try {
        next = await up.create(this.vector.dimension);
      } catch (error) {
        this.vectorUpgradeError = error ?? new Error('the index factory failed without a reason');
        return { error: this.vectorUpgradeError };
      }
      for (const [id, v] of this.#dir.liveVectors()) next.add(id, v);
    }
    const old = this.vector;
    this.vector = next;
    old.dispose();
    return undefined;
  }

  // ---------------------------------------------------------------- opening

  /**
   * Opens a namespace: restores the resident part from the store's checkpoint and replays the
   * logged commits after it, or rebuilds it from one streamed scan of the nodes (then writes a
   * checkpoint, so the next open is fast). Never loads edges or node bodies beyond what a replay
   * needs.
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  static async open(opts: OpenOptions): Promise<NamespaceState> {
    const started = Date.now();
    const { namespace, storage, factories, dimension } = opts;
    const meta = await storage.loadMeta(namespace);
    const change = typeof meta[CHANGE_META_KEY] === 'number' ? (meta[CHANGE_META_KEY] as number) : 0;
    let reason = 'the store keeps no checkpoint';
    let checkpointDamaged = false;
    let cp: Checkpoint | undefined;
    try {
      cp = storage.readCheckpoint ? await storage.readCheckpoint(namespace) : undefined;
    } catch (e) {
      // A damaged checkpoint is derived data: rebuilt from the rows below (issue 22).
      if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
      reason = `the checkpoint is damaged (${e.message})`;
      checkpointDamaged = true;
    }
    if (cp !== undefined) {
      const restored = await NamespaceState.#fromCheckpoint(opts, cp, change).catch((e: unknown) => {
        reason = `the checkpoint could not be restored (${e instanceof Error ? e.message : String(e)})`;
        checkpointDamaged = true;
        return undefined;
      });
      if (typeof restored === 'string') reason = restored;
      else if (restored !== undefined) {
        restored.meta = { ...meta };
        restored.openReport = { ...restored.openReport, ms: Date.now() - started };
        return restored;
      }
    }
    const state = new NamespaceState(namespace, storage, storage.lexicalIndex(namespace) ?? factories.lexical(), await factories.vector(dimension), dimension, factories.upgrade, opts.cache);
    state.#exactIndex = factories.vector;
    state.meta = { ...meta };
    await state.#rebuild();
    // An unusable checkpoint (another format, e.g. one written before issue 22 that may hold an
    // erased memory's vector or names) counts as stale, so the memory replaces it at its next
    // checkpoint (at the latest on close).
    if (cp !== undefined) state.changedSinceCheckpoint = Math.max(1, state.#dir.size);
    state.openReport = { from: state.#dir.size === 0 ? 'empty' : 'scan', replayed: 0, reason, ms: Date.now() - started };
    if (checkpointDamaged) state.openReport.checkpointDamaged = true;
    return state;
  }

  /**
   * Builds a state from a whole snapshot held in memory (tests, import): the snapshot is put in
   * an in-memory store, which the state then reads through the port.
   */
  static async fromSnapshot(namespace: string, snap: { nodes: MemoryNode[]; edges: MemoryEdge[]; meta: Record<string, unknown> }, factories: IndexFactories, dimension: number): Promise<NamespaceState> {
    const storage = createMemoryStorage();
    await storage.commit(namespace, { putNodes: snap.nodes, putEdges: snap.edges, meta: snap.meta });
    return NamespaceState.open({ namespace, storage, factories, dimension });
  }

  /**
   * Rebuilds the resident part from the store, adding nodes in seq order (the order they were
   * written), so the rebuilt indexes equal the ones the writes built, ties included. One scan keeps
   * (id, seq) only, and the bodies are read again in seq order, {@link LOAD_BATCH} at a time (a
   * rebuild is the rare path: a first open after an upgrade, or a lost checkpoint).
   */
  async #rebuild(): Promise<void> {
    const storage = this.storage;
    const order: Array<{ id: string; seq: number }> = [];
    for await (const batch of storage.scanNodes(this.namespace, LOAD_BATCH)) for (const n of batch) order.push({ id: n.id, seq: n.seq });
    order.sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (let i = 0; i < order.length; i += LOAD_BATCH) {
      const ids = order.slice(i, i + LOAD_BATCH).map((x) => x.id);
      const byId = new Map((await storage.getNodes(this.namespace, ids)).map((n) => [n.id, n]));
      for (const id of ids) {
        const n = byId.get(id);
        if (n !== undefined) this.#addNode(n, false);
      }
    }
  }

  static async #fromCheckpoint(opts: OpenOptions, cp: Checkpoint, change: number): Promise<NamespaceState | string | undefined> {
    if (cp.format !== CHECKPOINT_FORMAT) return `the checkpoint has format ${JSON.stringify(cp.format)}`;
    if (cp.change > change) return `the checkpoint (change ${cp.change}) is newer than the store (change ${change})`;
    const header = JSON.parse(new TextDecoder().decode(cp.parts['header.json'])) as CheckpointHeader;
    if (header.dimension !== opts.dimension) return `the checkpoint has dimension ${header.dimension}, the encoder ${opts.dimension}`;
    if (opts.encoder !== undefined && header.encoder !== undefined && header.encoder !== opts.encoder) return `the checkpoint was built with encoder ${header.encoder}`;
    const changed = cp.change === change ? [] : opts.storage.changesSince ? await opts.storage.changesSince(opts.namespace, cp.change) : undefined;
    if (changed === undefined) return `the change log does not reach back to change ${cp.change}`;
    // A store-kept lexical index (storage.lexicalIndex) is current as of the store: nothing to restore.
    const kept = opts.storage.lexicalIndex(opts.namespace);
    if (kept === undefined && cp.parts['lexical.json'] === undefined) return 'the checkpoint has no lexical index (written with a store-kept one)';
    const lexical = kept ?? loadLexicalIndex(new TextDecoder().decode(cp.parts['lexical.json']));
    let vector: VectorIndex | undefined;
    const bytes = cp.parts['vectors'];
    // Below `exactOpenBelow` the namespace opens on the exact index (restored from `vectors.exact`
    // when the checkpoint has it, else built from the directory's int8 rows) rather than on the
    // approximate one (a wasm module and a graph), which the first write restores.
    const up = opts.factories.upgrade;
    const live = Array.isArray(header.directory?.ids) ? header.directory.ids.reduce((n: number, id: unknown) => (id === null ? n : n + 1), 0) : 0;
    const exact = up !== undefined && live < exactOpenThreshold(up, opts.dimension) && bytes !== undefined && vectorKindOf(bytes) !== 'flat';
    const exactBytes = exact ? cp.parts[EXACT_VECTORS_PART] : undefined;
    const source = exact ? exactBytes : bytes;
    if (source !== undefined && opts.factories.restoreVector !== undefined && (!exact || vectorKindOf(source) === 'flat')) {
      vector = await opts.factories.restoreVector(source).catch(() => undefined);
      if (vector !== undefined && vector.dimension !== opts.dimension) {
        vector.dispose();
        vector = undefined;
      }
    }
    const restored = vector !== undefined;
    const state = new NamespaceState(opts.namespace, opts.storage, lexical, vector ?? (await opts.factories.vector(opts.dimension)), opts.dimension, opts.factories.upgrade, opts.cache);
    state.#exactIndex = opts.factories.vector;
    state.#dir.restore(header.directory, cp.parts);
    state.#restoreBook(JSON.parse(new TextDecoder().decode(cp.parts['book.json'])) as BookJson);
    if (!restored) for (const [id, v] of state.#dir.liveVectors()) state.vector.add(id, v);
    if (exact && up !== undefined && bytes !== undefined && opts.factories.restoreVector !== undefined && live >= upgradeThreshold(up, opts.dimension)) {
      state.#deferredVector = { bytes, restore: opts.factories.restoreVector.bind(opts.factories), touched: new Set(changed) };
    }
    // The changed nodes are applied in seq order (the order they were written), as a rescan would.
    const found = new Map<string, MemoryNode>();
    for (let i = 0; i < changed.length; i += LOAD_BATCH) {
      for (const n of await opts.storage.getNodes(opts.namespace, changed.slice(i, i + LOAD_BATCH))) found.set(n.id, n);
    }
    const inOrder = [...changed].sort((a, b) => (found.get(a)?.seq ?? -1) - (found.get(b)?.seq ?? -1));
    {
      for (const id of inOrder) {
        const n = found.get(id);
        if (n === undefined) {
          if (state.#dir.has(id)) return `node ${JSON.stringify(id)} was deleted after the checkpoint`;
          continue;
        }
        if (!state.#dir.has(id)) state.#addNode(n, false);
        else if (state.#dir.hashOf(id) !== contentHash(n)) return `node ${JSON.stringify(id)} changed its content after the checkpoint`;
        else state.#replaceSameContent(n);
      }
    }
    state.changedSinceCheckpoint = changed.length;
    state.openReport = { from: 'checkpoint', replayed: changed.length, ms: 0 };
    return state;
  }

  /**
   * The resident part as a checkpoint valid as of commit `change` (the caller writes it with
   * `storage.writeCheckpoint`). Deleted documents are vacuumed from the lexical index first, so
   * a checkpoint never holds terms of an erased memory. A store that keeps the lexical index
   * itself (`storage.lexicalIndex`) gets no `lexical.json` part.
   */
  async checkpoint(change: number, encoder?: string): Promise<Checkpoint> {
    // A deferred approximate index is restored first, so the checkpoint keeps it.
    if (this.#deferredVector !== undefined) await this.maybeUpgradeVector();
    await this.lexical.vacuum?.();
    const enc = new TextEncoder();
    const { header: directory, parts } = this.#dir.toParts();
    const header: CheckpointHeader = { dimension: this.dimension, directory, ...(encoder !== undefined ? { encoder } : {}) };
    return {
      change,
      format: CHECKPOINT_FORMAT,
      parts: {
        ...parts,
        'header.json': enc.encode(JSON.stringify(header)),
        'book.json': enc.encode(JSON.stringify(this.#bookJson())),
        ...(this.storage.lexicalIndex(this.namespace) === undefined ? { 'lexical.json': enc.encode(JSON.stringify(this.lexical.toJSON())) } : {}),
        ...(this.vector.serialize !== undefined ? { vectors: await this.vector.serialize() } : {}),
        ...(await this.#exactPart()),
      },
    };
  }

  /**
   * The `vectors.exact` part: the exact index of a namespace small enough to open on it
   * (`upgrade.exactOpenBelow`) whose live index is approximate, so that the open restores it
   * instead of building it (~0.1 s at 20,000 nodes). Empty otherwise.
   */
  async #exactPart(): Promise<Record<string, Uint8Array>> {
    const up = this.upgrade;
    if (up === undefined || this.vector.kind === 'flat' || this.#exactIndex === undefined) return {};
    if (this.#dir.size >= exactOpenThreshold(up, this.dimension)) return {};
    const exact = await this.#exactIndex(this.dimension);
    try {
      if (exact.serialize === undefined) return {};
      for (const [id, v] of this.#dir.liveVectors()) exact.add(id, v);
      return { [EXACT_VECTORS_PART]: await exact.serialize() };
    } finally {
      exact.dispose();
    }
  }

  #bookJson(): BookJson {
    return {
      sessions: [...this.sessions],
      mentions: [...this.mentions],
      speakers: [...this.speakers].map(([k, v]) => [k, v, this.#speakerCount.get(k) ?? 1]),
      dedup: [...this.#dedup],
      keywordDf: [...this.keywordDf],
      languages: [...this.languages],
      seq: this.seq,
      ...(this.lastId !== undefined ? { lastId: this.lastId } : {}),
    };
  }

  #restoreBook(b: BookJson): void {
    for (const [k, v] of b.sessions) this.sessions.set(k, v);
    for (const [k, v] of b.mentions) this.mentions.set(k, v);
    for (const [k, v, c] of b.speakers) {
      this.speakers.set(k, v);
      this.#speakerCount.set(k, c);
    }
    for (const [k, v] of b.dedup) this.#dedup.set(k, v);
    for (const [k, v] of b.keywordDf) this.keywordDf.set(k, v);
    for (const [k, v] of b.languages) this.languages.set(k, v);
    this.seq = b.seq;
    this.lastId = b.lastId;
  }

  // ---------------------------------------------------------------- loading

  /**
   * Runs one operation (a recall, a write, a delete): what it loads stays readable until it
   * ends, whatever the cache sizes; the pins are released when the last running operation ends.
   */
  async use<T>(fn: () => Promise<T>): Promise<T> {
    this.#operations++;
    try {
      return await fn();
    } finally {
      if (--this.#operations === 0) {
        this.#pinnedNodes.clear();
        this.#pinnedEdges.clear();
        this.#pinnedKinds.clear();
      }
    }
  }

  /**
   * Lets a long operation (a write of many chunks) drop what it pinned so far, at a point where
   * it no longer reads it; a no-op while another operation runs.
   */
  releasePins(): void {
    if (this.#operations > 1) return;
    this.#pinnedNodes.clear();
    this.#pinnedEdges.clear();
    this.#pinnedKinds.clear();
  }

  #cacheNode(n: MemoryNode): void {
    this.#nodeCache.set(n.id, n);
    this.#pinnedNodes.set(n.id, n);
  }

  #cacheEdges(id: string, list: MemoryEdge[]): void {
    this.#edgeCache.set(id, list);
    this.#pinnedEdges.set(id, list);
  }

  /** The loaded edge list of `id` (pinned or cached), without touching the LRU order. */
  #edgeList(id: string): MemoryEdge[] | undefined {
    return this.#pinnedEdges.get(id) ?? this.#edgeCache.peek(id);
  }

  /**
   * Loads the bodies of these nodes into the cache (those already there or unknown are skipped),
   * in one `getNodes` per {@link LOAD_BATCH} ids.
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  async loadNodes(ids: Iterable<string>): Promise<void> {
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id) || !this.#dir.has(id) || this.#pinnedNodes.has(id)) continue;
      seen.add(id);
      const cached = this.#nodeCache.get(id);
      if (cached !== undefined) this.#pinnedNodes.set(id, cached);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += LOAD_BATCH) {
      const part = missing.slice(i, i + LOAD_BATCH);
      const got = await this.storage.getNodes(this.namespace, part);
      const returned = new Set<string>();
      for (const n of got) {
        returned.add(n.id);
        this.#unreadable.delete(n.id);
        if (this.#dir.has(n.id) && !this.#pinnedNodes.has(n.id)) this.#cacheNode(n);
      }
      // A directory node the store did not return is a damaged record (the store names it).
      for (const id of part) if (!returned.has(id)) this.#unreadable.add(id);
    }
  }

  /**
   * Loads the edge lists of these nodes into the cache and, unless `neighbours` is false, the
   * bodies of the nodes at their other ends. Edges to a node the namespace does not hold are
   * left out (as they always were).
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  async loadEdges(ids: Iterable<string>, neighbours = true): Promise<void> {
    const want = [...new Set(ids)].filter((id) => this.#dir.has(id));
    const missing: string[] = [];
    for (const id of want) {
      if (this.#pinnedEdges.has(id)) continue;
      const cached = this.#edgeCache.get(id);
      if (cached !== undefined) this.#pinnedEdges.set(id, cached);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += LOAD_BATCH) {
      for (const [id, list] of await this.#readEdgeLists(missing.slice(i, i + LOAD_BATCH))) {
        if (!this.#pinnedEdges.has(id)) this.#cacheEdges(id, list);
      }
    }
    if (neighbours) {
      const others: string[] = [];
      for (const id of want) for (const e of this.edgesOf(id)) others.push(e.from === id ? e.to : e.from);
      await this.loadNodes(others);
    }
  }

  /**
   * Reads the edges of `ids` from the store (only those of `subtype` when given), as one list
   * per asked node in id order; edges to a node the namespace does not hold are left out.
   */
  async #readEdgeLists(ids: string[], subtype?: EdgeSubtype): Promise<Map<string, MemoryEdge[]>> {
    const got = await this.storage.getEdges(this.namespace, ids, subtype === undefined ? undefined : { subtype });
    const lists = new Map<string, MemoryEdge[]>(ids.map((id) => [id, []]));
    for (const e of got) {
      if ((subtype !== undefined && e.subtype !== subtype) || !this.#dir.has(e.from) || !this.#dir.has(e.to)) continue;
      lists.get(e.from)?.push(e);
      if (e.to !== e.from) lists.get(e.to)?.push(e);
    }
    for (const list of lists.values()) list.sort(byEdgeId);
    return lists;
  }

  /**
   * Loads the edges of one subtype of these nodes (for {@link edgesOfKind}): from a whole list
   * when one is loaded, else one filtered read of the store for all the missing nodes.
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  async loadEdgesOfKind(ids: Iterable<string>, subtype: EdgeSubtype): Promise<void> {
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      if (!this.#dir.has(id)) continue;
      const whole = this.#pinnedEdges.get(id) ?? this.#edgeCache.get(id);
      if (whole !== undefined) {
        this.#pinnedEdges.set(id, whole); // read from it by edgesOfKind
        continue;
      }
      const key = kindKey(subtype, id);
      if (this.#pinnedKinds.has(key)) continue;
      const cached = this.#kindCache.get(key);
      if (cached !== undefined) this.#pinnedKinds.set(key, cached);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += LOAD_BATCH) {
      for (const [id, list] of await this.#readEdgeLists(missing.slice(i, i + LOAD_BATCH), subtype)) {
        const key = kindKey(subtype, id);
        if (this.#pinnedKinds.has(key) || this.#pinnedEdges.has(id)) continue;
        this.#kindCache.set(key, list);
        this.#pinnedKinds.set(key, list);
      }
    }
  }

  /** Edges of `id` in both directions. @throws JevMemError when `id` exists and its edges were not loaded. */
  edgesOf(id: string): readonly MemoryEdge[] {
    if (!this.#dir.has(id)) return [];
    const list = this.#pinnedEdges.get(id) ?? this.#edgeCache.get(id);
    if (list === undefined) throw notLoaded('edges', id, this.namespace);
    return list;
  }

  /**
   * Edges of `id` of one subtype, in both directions, in id order: from its whole list when
   * loaded, else from {@link loadEdgesOfKind}.
   * @throws JevMemError when `id` exists and neither was loaded.
   */
  edgesOfKind(id: string, subtype: EdgeSubtype): readonly MemoryEdge[] {
    if (!this.#dir.has(id)) return [];
    const whole = this.#pinnedEdges.get(id) ?? this.#edgeCache.get(id);
    if (whole !== undefined) return whole.filter((e) => e.subtype === subtype).sort(byEdgeId);
    const key = kindKey(subtype, id);
    const list = this.#pinnedKinds.get(key) ?? this.#kindCache.get(key);
    if (list === undefined) throw notLoaded(`${subtype} edges`, id, this.namespace);
    return list;
  }

  /** True when the loaded edges of `e.from` hold an edge with `e.id`. */
  hasEdge(e: Pick<MemoryEdge, 'id' | 'from'>): boolean {
    return this.edgesOf(e.from).some((x) => x.id === e.id);
  }

  /** Status of a node from the directory (no load), or undefined when it does not exist. */
  statusOf(id: string): MemoryNode['status'] | undefined {
    return this.#dir.status(id);
  }

  /** Session id of a node from the directory (no load), or undefined (none, or no such node). */
  sessionOf(id: string): string | undefined {
    return this.#dir.session(id);
  }

  /** Sequence number of a node from the directory (no load), or undefined. */
  seqOf(id: string): number | undefined {
    return this.#dir.seq(id);
  }

  /** Ids of the nodes with this status (a directory scan; no load). */
  idsWithStatus(status: MemoryNode['status']): string[] {
    return this.#dir.idsWithStatus(STATUS_CODE[status]);
  }

  /**
   * Id of the latest node whose {@link dedupKey} may equal `key` (a 53-bit hash hit): load it and
   * compare before treating it as a repeat.
   */
  dedupCandidate(key: string): string | undefined {
    return this.#dedup.get(hash53(key));
  }

  /** Number of nodes (any status). */
  get size(): number {
    return this.#dir.size;
  }

  /** Releases index memory. */
  dispose(): void {
    this.#deferredVector = undefined;
    this.vector.dispose();
  }

  // ---------------------------------------------------------------- applying

  /**
   * Applies a batch (deletes first, then puts). Nodes it deletes or replaces must have been
   * loaded ({@link NamespaceState.loadNodes}); their edges are dropped from the cache.
   * @throws JevMemError when a deleted or replaced node was not loaded.
   */
  apply(batch: WriteBatch): void {
    this.revision++;
    if (this.#deferredVector !== undefined) {
      for (const n of batch.putNodes ?? []) this.#deferredVector.touched.add(n.id);
      for (const id of batch.deleteNodeIds ?? []) this.#deferredVector.touched.add(id);
    }
    // Lists of one subtype are not kept up to date across commits (a node's may be in the cache
    // for any subtype): a commit that touches edges or removes nodes drops them all.
    if ((batch.putEdges ?? []).length + (batch.deleteEdgeIds ?? []).length + (batch.deleteNodeIds ?? []).length > 0) this.#kindCache.clear();
    if ((batch.deleteEdgeIds ?? []).length > 0) this.#dropCachedEdges(new Set(batch.deleteEdgeIds));
    for (const id of batch.deleteNodeIds ?? []) this.#removeNode(id);
    for (const n of batch.putNodes ?? []) {
      if (this.#dir.has(n.id)) this.#replaceNode(n);
      else this.#addNode(n, true);
      this.changedSinceCheckpoint++;
    }
    this.changedSinceCheckpoint += (batch.deleteNodeIds ?? []).length;
    for (const e of batch.putEdges ?? []) this.#putCachedEdge(e);
    if (batch.meta) {
      for (const [k, v] of Object.entries(batch.meta)) {
        if (v === null) delete this.meta[k];
        else this.meta[k] = v;
      }
    }
  }

  #addNode(n: MemoryNode, cache: boolean): void {
    const lang = n.status !== 'deleted' ? detectLanguage(n.text) : undefined;
    this.#dir.add(n, contentHash(n), lang);
    if (cache) {
      this.#cacheNode(n);
      this.#cacheEdges(n.id, []);
    }
    if (n.status !== 'deleted') {
      this.lexical.add({ id: n.id, text: n.text, ...(n.provenance.speaker ? { speaker: n.provenance.speaker } : {}) });
      this.vector.add(n.id, this.#dir.vector(n.id) as Float32Array);
      if (lang !== undefined) this.languages.set(lang, (this.languages.get(lang) ?? 0) + 1);
    }
    if (n.seq > this.seq || this.lastId === undefined) {
      this.seq = Math.max(this.seq, n.seq);
      this.lastId = n.id;
    }
    const sid = n.provenance.sessionId;
    if (sid !== undefined) {
      const s = this.sessions.get(sid);
      if (s === undefined) this.sessions.set(sid, { ordinal: this.sessions.size, firstId: n.id, lastId: n.id });
      else {
        if ((this.#dir.seq(s.lastId) ?? -Infinity) < n.seq) s.lastId = n.id;
        if ((this.#dir.seq(s.firstId) ?? Infinity) > n.seq) s.firstId = n.id;
      }
    }
    if (n.provenance.speaker) {
      const key = speakerKey(n.provenance.speaker);
      this.speakers.set(key, n.provenance.speaker);
      this.#speakerCount.set(key, (this.#speakerCount.get(key) ?? 0) + 1);
    }
    for (const e of n.entities) this.#mention(e, n.id, n.seq);
    const key = hash53(dedupKey(n.text, n.observedAt, n.provenance.source));
    const prev = this.#dedup.get(key);
    if (prev === undefined || (this.#dir.seq(prev) ?? -Infinity) <= n.seq) this.#dedup.set(key, n.id);
    for (const k of n.keywords) this.keywordDf.set(k, (this.keywordDf.get(k) ?? 0) + 1);
  }

  /** Keeps the {@link MENTIONS_KEPT} latest mentions of `ent` by seq, oldest first. */
  #mention(ent: string, id: string, seq: number): void {
    let list = this.mentions.get(ent);
    if (list === undefined) {
      list = [];
      this.mentions.set(ent, list);
    }
    let i = list.length;
    while (i > 0 && (this.#dir.seq(list[i - 1] as string) ?? -Infinity) > seq) i--;
    list.splice(i, 0, id);
    if (list.length > MENTIONS_KEPT) list.shift();
  }


  /** A replay of a node whose content is unchanged: status, seq and vector only. */
  #replaceSameContent(n: MemoryNode): void {
    const wasDeleted = this.#dir.status(n.id) === 'deleted';
    this.#dir.update(n);
    this.#nodeCache.delete(n.id);
    this.#pinnedNodes.delete(n.id);
    if (wasDeleted !== (n.status === 'deleted')) {
      if (n.status === 'deleted') {
        this.lexical.remove(n.id);
        this.vector.remove(n.id);
      } else {
        this.lexical.add({ id: n.id, text: n.text, ...(n.provenance.speaker ? { speaker: n.provenance.speaker } : {}) });
      }
    }
    if (n.status !== 'deleted') this.vector.add(n.id, this.#dir.vector(n.id) as Float32Array);
  }

  #replaceNode(n: MemoryNode): void {
    const old = this.#pinnedNodes.get(n.id) ?? this.#nodeCache.get(n.id);
    if (old === undefined) throw notLoaded('node', n.id, this.namespace);
    if (contentHash(old) !== contentHash(n) || (old.status === 'deleted') !== (n.status === 'deleted')) {
      // Rare (an import or a deleted node brought back): re-index it; its edges are unchanged
      // in the store but leave the cache, which reloads them when asked.
      this.#removeNode(n.id);
      this.#addNode(n, false);
      this.#cacheNode(n);
      this.#edgeCache.clear();
      this.#pinnedEdges.clear();
      this.#kindCache.clear();
      this.#pinnedKinds.clear();
      return;
    }
    this.#cacheNode(n);
    const vecChanged = old.embedding.vector.length !== n.embedding.vector.length || old.embedding.vector.some((x, i) => x !== n.embedding.vector[i]);
    this.#dir.update(n);
    if (vecChanged && n.status !== 'deleted') this.vector.add(n.id, this.#dir.vector(n.id) as Float32Array);
  }

  #removeNode(id: string): void {
    if (!this.#dir.has(id)) return;
    const n = this.#pinnedNodes.get(id) ?? this.#nodeCache.get(id);
    if (n === undefined) throw notLoaded('node', id, this.namespace);
    // Edges of the node leave the cache, at both ends.
    const own = this.#edgeList(id);
    const ids = new Set((own ?? []).map((e) => e.id));
    if (own === undefined) this.#dropCachedEdgesTouching(id);
    else this.#dropCachedEdges(ids);
    this.#edgeCache.delete(id);
    this.#pinnedEdges.delete(id);
    for (const key of [...this.#pinnedKinds.keys()]) if (key.startsWith(`${id}\u0000`)) this.#pinnedKinds.delete(key);
    this.#nodeCache.delete(id);
    this.#pinnedNodes.delete(id);
    if (this.lexical.has(id)) this.lexical.remove(id);
    if (this.vector.has(id)) this.vector.remove(id);
    const lang = this.#dir.language(id);
    if (lang !== undefined) {
      const c = (this.languages.get(lang) ?? 1) - 1;
      if (c <= 0) this.languages.delete(lang);
      else this.languages.set(lang, c);
    }
    this.#dir.remove(id);
    for (const ent of n.entities) {
      const list = this.mentions.get(ent);
      if (list) {
        const i = list.indexOf(id);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) this.mentions.delete(ent);
      }
    }
    const key = hash53(dedupKey(n.text, n.observedAt, n.provenance.source));
    if (this.#dedup.get(key) === id) this.#dedup.delete(key);
    if (n.provenance.speaker) {
      // Erasure (issue 22): a speaker's name goes with the last node that has it.
      const sk = speakerKey(n.provenance.speaker);
      const c = (this.#speakerCount.get(sk) ?? 1) - 1;
      if (c <= 0) {
        this.#speakerCount.delete(sk);
        this.speakers.delete(sk);
      } else this.#speakerCount.set(sk, c);
    }
    for (const k of n.keywords) {
      const c = (this.keywordDf.get(k) ?? 1) - 1;
      if (c <= 0) this.keywordDf.delete(k);
      else this.keywordDf.set(k, c);
    }
    const sid = n.provenance.sessionId;
    if (sid !== undefined) {
      const s = this.sessions.get(sid);
      if (s && (s.firstId === id || s.lastId === id)) {
        const range = this.#dir.sessionRange(sid);
        if (range === undefined) this.sessions.delete(sid);
        else {
          s.firstId = range.firstId;
          s.lastId = range.lastId;
        }
      }
    }
    if (this.lastId === id) this.lastId = this.#dir.latest();
  }

  /** Removes edges from every loaded list (cached and pinned), in place, so both see it. */
  #filterLoadedEdges(drop: (e: MemoryEdge) => boolean): void {
    const lists = new Set<MemoryEdge[]>([...this.#edgeCache.values(), ...this.#pinnedEdges.values(), ...this.#pinnedKinds.values()]);
    for (const list of lists) {
      if (!list.some(drop)) continue;
      const kept = list.filter((e) => !drop(e));
      list.length = 0;
      list.push(...kept);
    }
  }

  #dropCachedEdges(ids: ReadonlySet<string>): void {
    if (ids.size > 0) this.#filterLoadedEdges((e) => ids.has(e.id));
  }

  #dropCachedEdgesTouching(id: string): void {
    this.#filterLoadedEdges((e) => e.from === id || e.to === id);
  }

  #putCachedEdge(e: MemoryEdge): void {
    if (!this.#dir.has(e.from) || !this.#dir.has(e.to)) return; // dangling edges are ignored
    for (const end of e.from === e.to ? [e.from] : [e.from, e.to]) {
      const kind = this.#pinnedKinds.get(kindKey(e.subtype, end));
      if (kind !== undefined) {
        const i = kind.findIndex((x) => x.id === e.id);
        if (i >= 0) kind[i] = e;
        else kind.push(e);
      }
      const list = this.#edgeList(end);
      if (list === undefined) continue; // loaded from the store when first asked
      const i = list.findIndex((x) => x.id === e.id);
      if (i >= 0) list[i] = e;
      else list.push(e);
    }
  }
}

/** The JSON part of a checkpoint's header. */
interface CheckpointHeader {
  dimension: number;
  encoder?: string;
  directory: { ids?: unknown[] };
}

/** Key of a speaker name in {@link NamespaceState.speakers}: NFC, lower case. */
function speakerKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** The bookkeeping maps as JSON. */
interface BookJson {
  sessions: Array<[string, SessionInfo]>;
  mentions: Array<[string, string[]]>;
  /** Canonical name, name as last written, number of nodes with it. */
  speakers: Array<[string, string, number]>;
  dedup: Array<[number, string]>;
  keywordDf: Array<[string, number]>;
  languages: Array<[LanguageCode, number]>;
  seq: number;
  lastId?: string;
}
