/**
 * The live state of one namespace of the memory plane (eq. (5): M_t = (V_t, {E^g_t}, I^vec,
 * I^lex)), bounded by what its indexes cost, not by its history (issue 13). This module is the
 * facade the read and write paths use; each job lives in its own module (issue 22):
 *
 * - resident-core.ts: the resident part (O(nodes), compact): the node directory
 *   (node-directory.ts), the bookkeeping maps (book.ts; keys in keys.ts), I^lex and I^vec with
 *   its upgrade (vector-slot.ts);
 * - body-cache.ts: node bodies and edges, not resident, read through the storage port into two
 *   bounded LRU caches and pinned while an operation runs (load first, then read
 *   synchronously; reading what was not loaded is a bug and throws);
 * - checkpoint-format.ts: the checkpoint's parts and format tag;
 * - open.ts: the open from the checkpoint and the change log, or from a scan.
 *
 * I^lex is the store's own index when the store keeps one (`StorageAdapter.lexicalIndex`: the SQL
 * store's FTS5, always in a Durable Object): a node the write path applies before its commit (the
 * observations of one chunk) is found by lexical search only once that commit returns (vector
 * search finds it at once).
 *
 * @module
 */
import { GrowingLru } from '../../util/lru.js';
import type { EdgeSubtype, MemoryEdge, MemoryNode } from '../../types.js';
import type { LexicalIndex, VectorIndex } from '../indexes/indexes.js';
import type { LanguageCode } from '../text/language.js';
import { createMemoryStorage } from '../store/memory-storage.js';
import type { Checkpoint, StorageAdapter, WriteBatch } from '../store/storage.js';
import type { SessionInfo } from './book.js';
import { BodyCache } from './body-cache.js';
import { applyBatch } from './apply.js';
import { hash53, STATUS_CODE } from './node-directory.js';
import { ScopeView } from './scopes.js';
import { openResident, type OpenedResident } from './open.js';
import { EDGE_CACHE_SIZE, NODE_CACHE_SIZE, type IndexFactories, type NodeView, type OpenOptions, type OpenReport } from './options.js';
import type { ResidentCore } from './resident-core.js';

export type { SessionInfo } from './book.js';
export { CHECKPOINT_FORMAT } from './checkpoint-format.js';
export { dedupKey, dedupScopeOf, nodeDedupKey, nodeOlderDedupKeys } from './keys.js';
export { EDGE_CACHE_SIZE, NODE_CACHE_SIZE, type IndexFactories, type NodeView, type OpenOptions, type OpenReport } from './options.js';

/** Distinct words whose stems one namespace keeps memoised ({@link NamespaceState.memoStem}). */
export const STEM_MEMO_WORDS = 16_384;

/**
 * The live state of one namespace. Changed only through {@link NamespaceState.apply} (the
 * batches the memory commits) and {@link NamespaceState.markCheckpointed}; everything else it
 * shows is a read-only view.
 */
export class NamespaceState {
  readonly #core: ResidentCore;
  readonly #bodies: BodyCache;
  readonly #meta: Record<string, unknown>;
  readonly #report: OpenReport;
  #changedSinceCheckpoint: number;
  #revision = 0;
  #scopes: ScopeView | undefined;

  /**
   * word → its content stem (`false` for a stop word), for {@link NamespaceState.memoStem}. An LRU
   * of {@link STEM_MEMO_WORDS} words; its keys are words of the namespace's texts, so it is
   * emptied when a batch deletes a node ({@link NamespaceState.apply}).
   */
  readonly #stemMemo = new GrowingLru<string, string | false>({ max: STEM_MEMO_WORDS });

  /** The node bodies: `get` needs a prior {@link NamespaceState.loadNodes}. */
  readonly nodes: NodeView;

  /** The stored (int8-grid) vector of each node, from the resident directory. */
  readonly vectors: { get(id: string): Float32Array | undefined };

  private constructor(
    readonly namespace: string,
    readonly storage: StorageAdapter,
    opened: OpenedResident,
    sizes: { nodes: number; edges: number } = { nodes: NODE_CACHE_SIZE, edges: EDGE_CACHE_SIZE },
    /** The namespace's language (issue 24: the `language` option, else stored with it): I^lex reads short texts and questions in it; `undefined`: each text's own. */
    readonly language?: LanguageCode,
    /** The BCP 47 tag {@link language} was given as (stored in the namespace's meta `language` by its next write). */
    readonly languageTag?: string,
  ) {
    const core = opened.core;
    const dir = core.dir;
    this.#core = core;
    this.#meta = opened.meta;
    this.#report = opened.report;
    this.#changedSinceCheckpoint = opened.changedSinceCheckpoint;
    const bodies = new BodyCache(namespace, storage, (id) => dir.has(id), sizes);
    this.#bodies = bodies;
    this.nodes = {
      get: (id) => (dir.has(id) ? bodies.node(id) : undefined),
      has: (id) => dir.has(id),
      get size() {
        return dir.size;
      },
    };
    this.vectors = { get: (id) => dir.vector(id) };
  }

  /** Vector dimension of the namespace. */
  get dimension(): number {
    return this.#core.dimension;
  }

  /** I^lex. */
  get lexical(): LexicalIndex {
    return this.#core.lexical;
  }

  /** I^vec (replaced once by {@link NamespaceState.maybeUpgradeVector}). */
  get vector(): VectorIndex {
    return this.#core.vectors.index;
  }

  /** The namespace's meta as of the last applied batch. */
  get meta(): Readonly<Record<string, unknown>> {
    return this.#meta;
  }

  /** Session id → its ordinal and first and last node. */
  get sessions(): ReadonlyMap<string, Readonly<SessionInfo>> {
    return this.#core.book.sessions;
  }

  /** Canonical entity → ids of the latest nodes that mention it (oldest first). */
  get mentions(): ReadonlyMap<string, readonly string[]> {
    return this.#core.book.mentions;
  }

  /** Canonical speaker names (NFC, lower case) → the name as last written. */
  get speakers(): ReadonlyMap<string, string> {
    return this.#core.book.speakers;
  }

  /** Document frequency of keywords (content terms) over the namespace's nodes. */
  get keywordDf(): ReadonlyMap<string, number> {
    return this.#core.book.keywordDf;
  }

  /** Language (`detectLanguage`, plane/text/text.ts) → number of nodes written in it. */
  get languages(): ReadonlyMap<LanguageCode, number> {
    return this.#core.book.languages;
  }

  /** Highest node sequence number. */
  get seq(): number {
    return this.#core.book.seq;
  }

  /** Id of the node with the highest seq. */
  get lastId(): string | undefined {
    return this.#core.book.lastId;
  }

  /** The per-scope bookkeeping, asked by a node's `provenance.metadata` (issue 22/24; {@link ScopeView}). */
  get scopes(): ScopeView {
    return (this.#scopes ??= new ScopeView(this.#core.book));
  }

  /** Node ids changed since the last checkpoint (the memory checkpoints when it grows). */
  get changedSinceCheckpoint(): number {
    return this.#changedSinceCheckpoint;
  }

  /** Records that a checkpoint of this state, as it is now, was stored. */
  markCheckpointed(): void {
    this.#changedSinceCheckpoint = 0;
  }

  /** Batches applied to this state since it was built (issue 22): a write planned outside the namespace lock compares it at commit to tell whether anything changed under its plan. */
  get revision(): number {
    return this.#revision;
  }

  /** How this state was opened. */
  get openReport(): Readonly<OpenReport> {
    return this.#report;
  }

  /** Why the switch to the approximate index failed (`undefined` while none failed). The exact index is kept, and the switch is not tried again by this state (a rebuilt state tries anew). */
  get vectorUpgradeError(): unknown {
    return this.#core.vectors.upgradeError;
  }

  /**
   * The language most nodes are written in (`"en"` for an empty namespace; ties go to the
   * language seen first). The fallback of a short question without a {@link language} (issue 15).
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

  /** Ids of the directory's nodes the store could not give back (damaged records), sorted. */
  unreadableIds(): string[] {
    return this.#bodies.unreadableIds();
  }

  /**
   * Replaces a flat vector index by the factories' approximate one once the namespace reaches
   * the threshold (a no-op otherwise, and after the first switch). A failure to build it keeps
   * the exact index (search stays correct, only slower), is kept in
   * {@link NamespaceState.vectorUpgradeError} and returned, never dropped: the memory logs it and
   * shows it in `stats()`.
   * @returns `{ error }` when this call tried the switch and it failed, else `undefined`.
   */
  maybeUpgradeVector(): Promise<{ error: unknown } | undefined> {
    return this.#core.vectors.maybeUpgrade();
  }

  // ---------------------------------------------------------------- opening and checkpoints

  /**
   * Opens a namespace (open.ts): restores the resident part from the store's checkpoint and
   * replays the logged commits after it, or rebuilds it from one streamed scan of the nodes.
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  static async open(opts: OpenOptions): Promise<NamespaceState> {
    return new NamespaceState(opts.namespace, opts.storage, await openResident(opts), opts.cache, opts.language, opts.languageTag);
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
   * The resident part as a checkpoint valid as of commit `change` (checkpoint-format.ts; the
   * caller writes it with `storage.writeCheckpoint`). Deleted documents are vacuumed from the
   * lexical index first, so a checkpoint never holds terms of an erased memory. A store that
   * keeps the lexical index itself (`storage.lexicalIndex`) gets no `lexical.json` part.
   */
  checkpoint(change: number, encoder?: string): Promise<Checkpoint> {
    return this.#core.checkpoint(change, encoder, this.storage.lexicalIndex(this.namespace, this.language) === undefined);
  }

  // ---------------------------------------------------------------- loading (body-cache.ts)

  /**
   * Runs one operation (a recall, a write, a delete): what it loads stays readable until it
   * ends, whatever the cache sizes; the pins are released when the last running operation ends.
   */
  use<T>(fn: () => Promise<T>): Promise<T> {
    return this.#bodies.use(fn);
  }

  /**
   * Lets a long operation (a write of many chunks) drop what it pinned so far, at a point where
   * it no longer reads it; a no-op while another operation runs.
   */
  releasePins(): void {
    this.#bodies.releasePins();
  }

  /**
   * Loads the bodies of these nodes into the cache (those already there or unknown are skipped),
   * in one `getNodes` per 512 ids. A node the store does not return reads as `undefined`.
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  loadNodes(ids: Iterable<string>): Promise<void> {
    return this.#bodies.loadNodes(ids);
  }

  /**
   * Loads the edge lists of these nodes into the cache and, unless `neighbours` is false, the
   * bodies of the nodes at their other ends. Edges to a node the namespace does not hold are
   * left out.
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  async loadEdges(ids: Iterable<string>, neighbours = true): Promise<void> {
    const want = [...new Set(ids)].filter((id) => this.#core.dir.has(id));
    await this.#bodies.loadEdges(want);
    if (neighbours) {
      const others: string[] = [];
      for (const id of want) for (const e of this.edgesOf(id)) others.push(e.from === id ? e.to : e.from);
      await this.loadNodes(others);
    }
  }

  /**
   * Loads the edges of one subtype of these nodes (for {@link edgesOfKind}): from a whole list
   * when one is loaded, else one filtered read of the store for all the missing nodes.
   * @throws JevMemError `STORAGE_FAILED` and the adapter's errors.
   */
  loadEdgesOfKind(ids: Iterable<string>, subtype: EdgeSubtype): Promise<void> {
    return this.#bodies.loadEdgesOfKind(ids, subtype);
  }

  /** Edges of `id` in both directions. @throws JevMemError when `id` exists and its edges were not loaded. */
  edgesOf(id: string): readonly MemoryEdge[] {
    return this.#core.dir.has(id) ? this.#bodies.edgesOf(id) : [];
  }

  /**
   * Edges of `id` of one subtype, in both directions, in id order: from its whole list when
   * loaded, else from {@link loadEdgesOfKind}.
   * @throws JevMemError when `id` exists and neither was loaded.
   */
  edgesOfKind(id: string, subtype: EdgeSubtype): readonly MemoryEdge[] {
    return this.#core.dir.has(id) ? this.#bodies.edgesOfKind(id, subtype) : [];
  }

  /** True when the namespace holds the edge `e`: see {@link BodyCache.hasEdge}. @throws JevMemError when neither end's edges were loaded. */
  hasEdge(e: Pick<MemoryEdge, 'id' | 'from' | 'to' | 'subtype'>): boolean {
    return this.#bodies.hasEdge(e);
  }

  // ---------------------------------------------------------------- directory reads (no load)

  /** Status of a node from the directory (no load), or undefined when it does not exist. */
  statusOf(id: string): MemoryNode['status'] | undefined {
    return this.#core.dir.status(id);
  }

  /** Session id of a node from the directory (no load), or undefined (none, or no such node). */
  sessionOf(id: string): string | undefined {
    return this.#core.dir.session(id);
  }

  /** Sequence number of a node from the directory (no load), or undefined. */
  seqOf(id: string): number | undefined {
    return this.#core.dir.seq(id);
  }

  /** Ids of the active and superseded nodes with a seq above `afterSeq`, ascending (no load; O(log n) to start, O(1) per id); iterate under the read gate. */
  idsAfterSeq(afterSeq: number): IterableIterator<string> {
    return this.#core.dir.idsAfterSeq(afterSeq);
  }

  /** Ids of the nodes with this status (a directory scan; no load). */
  idsWithStatus(status: MemoryNode['status']): string[] {
    return this.#core.dir.idsWithStatus(STATUS_CODE[status]);
  }

  /**
   * Id of the latest node whose `dedupKey` may equal `key` (a 53-bit hash hit): load it and
   * compare before treating it as a repeat.
   */
  dedupCandidate(key: string): string | undefined {
    return this.#core.book.dedupCandidate(hash53(key));
  }

  /** Number of nodes (any status). */
  get size(): number {
    return this.#core.dir.size;
  }

  /**
   * The content stem of `word` (`false` for a stop word), memoised for the read path's soft term
   * matching, which stems every distinct word of the candidates each recall reads. `compute` gives
   * it on a miss and must be a pure function of the word (so a memoised value is never stale).
   * Bounded: an LRU of {@link STEM_MEMO_WORDS} words, emptied when a node is deleted.
   */
  memoStem(word: string, compute: (word: string) => string | false): string | false {
    const hit = this.#stemMemo.get(word);
    if (hit !== undefined) return hit;
    const value = compute(word);
    this.#stemMemo.set(word, value);
    return value;
  }

  /** Words the stem memo holds (at most {@link STEM_MEMO_WORDS}). */
  get stemMemoSize(): number {
    return this.#stemMemo.size;
  }

  /** Releases index memory. */
  dispose(): void {
    this.#core.vectors.dispose();
  }

  // ---------------------------------------------------------------- applying

  /**
   * Applies a batch (deletes first, then puts). Nodes it deletes or replaces must have been
   * loaded ({@link NamespaceState.loadNodes}); their edges are dropped from the cache. A batch that
   * deletes a node empties the stem memo ({@link NamespaceState.memoStem}).
   * @throws JevMemError when a deleted or replaced node was not loaded.
   */
  apply(batch: WriteBatch): void {
    this.#revision++;
    // Exact erasure (issue 22): no cache keeps a word of a deleted text.
    if ((batch.deleteNodeIds ?? []).length > 0) this.#stemMemo.clear();
    this.#changedSinceCheckpoint += applyBatch(this.#core, this.#bodies, this.#meta, batch);
  }
}
