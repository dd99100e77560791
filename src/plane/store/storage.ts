/**
 * The storage adapter interface of the memory plane (SPEC 2, 3). The store is the source of
 * truth; every index is a derived cache rebuilt from it. Adapters: IndexedDB (`idb-storage.ts`,
 * browsers and extensions, and Node through fake-indexeddb), a directory on disk
 * (`sqlite-file-storage.ts`, Node CLI; `legacy-v1.ts` only imports old stores), in-memory (`memory-storage.ts`, tests and ephemeral use), and
 * Durable Object SQLite (edge).
 *
 * @module
 */
import { isJevMemError } from '../../errors.js';
import type { EdgeSubtype, MemoryEdge, MemoryNode, View } from '../../types.js';
import type { LexicalIndex } from '../indexes/indexes.js';
import type { DamageReport } from './checksum.js';
import type { LanguageCode } from '../text/language.js';

export type { DamageReport } from './checksum.js';

/**
 * One atomic change to one namespace: everything in it is stored, or nothing is.
 * Deletes apply before puts.
 */
export interface WriteBatch {
  putNodes?: MemoryNode[];
  putEdges?: MemoryEdge[];
  deleteNodeIds?: string[];
  deleteEdgeIds?: string[];
  /** Namespace metadata to set (JSON-safe values); `null` removes a key. */
  meta?: Record<string, unknown>;
  /**
   * Change number of this commit (the memory numbers its commits 1, 2, 3, … in meta key
   * {@link CHANGE_META_KEY}). An adapter with a change log ({@link StorageAdapter.changesSince})
   * records the node ids of `putNodes` and `deleteNodeIds` under it, in the same atomic commit.
   */
  change?: number;
  /**
   * Optional checkpoint change applied in the same atomic commit (issue 22, exact erasure): a
   * {@link Checkpoint} replaces the namespace's checkpoint and drops change-log entries up to its
   * `change` (as {@link StorageAdapter.writeCheckpoint}); `null` removes it (as
   * {@link StorageAdapter.dropCheckpoint}); absent leaves it as it is. A delete carries the
   * checkpoint without the deleted node, so no commit leaves the old one holding its text.
   * Every shipped adapter that keeps checkpoints applies it; others ignore it.
   */
  checkpoint?: Checkpoint | null;
  /**
   * Optional compare-and-set (issue 22: two writers, one seq): meta values the namespace must
   * hold, as the writer loaded them, for the batch to apply (`null`: the key must be absent). An
   * adapter that several connections or processes write (the SQL store) checks them inside the
   * commit's transaction, under its write lock, and refuses a batch planned on an older state
   * with `STORAGE_FAILED` marked {@link CHANGED_ELSEWHERE} (nothing written): the writer then
   * reloads and plans again. Adapters written by one connection only may ignore it.
   */
  expectMeta?: Record<string, unknown>;
}

/**
 * Detail key of the `STORAGE_FAILED` error of a commit refused because the namespace changed
 * since the writer loaded it ({@link WriteBatch.expectMeta}); its value names the meta key that
 * differed. Nothing of the batch was written.
 */
export const CHANGED_ELSEWHERE = 'changedElsewhere' as const;

/** True for the error of a commit refused by its {@link WriteBatch.expectMeta} ({@link CHANGED_ELSEWHERE}). */
export function isChangedElsewhere(e: unknown): boolean {
  return isJevMemError(e, 'STORAGE_FAILED') && e.details[CHANGED_ELSEWHERE] !== undefined;
}

/** Meta key of the number of the namespace's latest commit ({@link WriteBatch.change}). */
export const CHANGE_META_KEY = 'change' as const;

/**
 * A checkpoint of one namespace's derived, resident indexes (issue 13): opaque parts (the
 * lexical index's JSON, the node directory and its int8 vectors, the bookkeeping maps), valid
 * as of commit `change`. The memory rebuilds a stale checkpoint from the change log
 * ({@link StorageAdapter.changesSince}) or, when the log does not reach back, from a scan.
 */
export interface Checkpoint {
  /** The commit ({@link WriteBatch.change}) the parts reflect; 0 for an empty namespace. */
  change: number;
  /** Format tag of the parts (the memory ignores a checkpoint with another format). */
  format: string;
  /** Named binary parts. */
  parts: Record<string, Uint8Array>;
}

/** Options of {@link StorageAdapter.damaged}. */
export interface DamageOptions {
  /**
   * `false`: answer the damage already known, without a full pass of the namespace (O(1)).
   * @default true
   */
  scan?: boolean;
}

/** Record counts of one namespace. */
export interface NamespaceCounts {
  nodes: number;
  edges: number;
  /** Edges per view (views with no edge may be left out). */
  edgesByView: Partial<Record<View, number>>;
}

/** Everything stored for one namespace, as loaded at open time. */
export interface NamespaceSnapshot {
  nodes: MemoryNode[];
  edges: MemoryEdge[];
  meta: Record<string, unknown>;
}

/** Which edges {@link StorageAdapter.getEdges} returns (all when a field is absent). */
export interface EdgeFilter {
  /** Only edges of this subtype (SPEC 3). */
  subtype?: EdgeSubtype;
}

/**
 * A storage adapter. All methods are namespace-scoped: an adapter never returns or changes data
 * of a namespace other than the one named, and never maps two names to one.
 *
 * Names (names.ts): a commit that would create a namespace refuses a name the namespace rule
 * refuses (`INVALID_INPUT`, field `namespace`); reads, drops and commits to a namespace the
 * store already holds take any non-empty string, so names written before the rule stay
 * reachable.
 */
export interface StorageAdapter {
  /** Adapter kind for traces and errors: `'indexeddb'`, `'file'`, `'memory'`, `'durable-object'`. */
  readonly kind: string;
  /**
   * Loads one namespace whole (nodes, edges, meta). An unknown namespace loads empty.
   * @throws JevMemError `STORAGE_FAILED`, `SCHEMA_MISMATCH`.
   */
  load(namespace: string): Promise<NamespaceSnapshot>;
  /**
   * Applies one batch atomically. On any failure nothing of the batch is visible afterwards.
   * @throws JevMemError `STORAGE_FAILED`, or `QUOTA_EXCEEDED` when the platform refused for space.
   */
  commit(namespace: string, batch: WriteBatch): Promise<void>;
  /**
   * Loads only the meta of one namespace (cheap). The memory reads its `generation` key to notice
   * commits made through another connection (a second tab) and rebuild its caches.
   * @throws JevMemError `STORAGE_FAILED`.
   */
  loadMeta(namespace: string): Promise<Record<string, unknown>>;
  /** Names of the namespaces that hold data. */
  namespaces(): Promise<string[]>;
  /** Removes one namespace and nothing else. */
  dropNamespace(namespace: string): Promise<void>;
  /** Bytes used by one namespace, when the adapter can tell (else undefined). */
  sizeBytes(namespace: string): Promise<number | undefined>;
  /**
   * The storage port of the read and write paths (issue 13): the nodes with these ids, in the
   * order asked; unknown ids are left out. A path asks for what its bounds (maxVisited, K_w)
   * allow, never for the whole namespace. Every method of the port is required (issue 22): the
   * memory has no fallback that reads the whole namespace.
   * @throws JevMemError `STORAGE_FAILED`.
   */
  getNodes(namespace: string, ids: readonly string[]): Promise<MemoryNode[]>;
  /**
   * Every edge touching any of `nodeIds` (either end), each edge once, in no set order. With
   * `filter.subtype`, only the edges of that subtype: the read path asks a candidate for its
   * window (`precedes`) or the kept set for `contradicts`, not for the ~20 edges a node has
   * (SPEC 6). The memory filters again, so an adapter may return more. The edges of a node
   * whose adjacency record is damaged (issue 22) are read from the records at their other ends
   * (a pass over the namespace's adjacency records, while such damage is known).
   * @throws JevMemError `STORAGE_FAILED`.
   */
  getEdges(namespace: string, nodeIds: readonly string[], filter?: EdgeFilter): Promise<MemoryEdge[]>;
  /**
   * Every node of the namespace in batches of about `batchSize` (any order): rebuilding a
   * missing checkpoint and export, without one array of the whole namespace.
   * @throws JevMemError `STORAGE_FAILED`.
   */
  scanNodes(namespace: string, batchSize: number): AsyncIterable<MemoryNode[]>;
  /** Every edge of the namespace in batches (any order). @throws JevMemError `STORAGE_FAILED`. */
  scanEdges(namespace: string, batchSize: number): AsyncIterable<MemoryEdge[]>;
  /** Record counts. @throws JevMemError `STORAGE_FAILED`. */
  counts(namespace: string): Promise<NamespaceCounts>;
  /** The namespace's checkpoint, or undefined when none is kept. @throws JevMemError `STORAGE_FAILED`. */
  readCheckpoint(namespace: string): Promise<Checkpoint | undefined>;
  /**
   * Replaces the namespace's checkpoint and drops change-log entries up to `checkpoint.change`.
   * Atomic: a failure leaves the old checkpoint (or none).
   * @throws JevMemError `STORAGE_FAILED`, `QUOTA_EXCEEDED`.
   */
  writeCheckpoint(namespace: string, checkpoint: Checkpoint): Promise<void>;
  /** Removes the namespace's checkpoint (a delete makes it hold erased text). @throws JevMemError `STORAGE_FAILED`. */
  dropCheckpoint(namespace: string): Promise<void>;
  /**
   * Ids of the nodes put or deleted by commits with change number > `after`, each once; or
   * `undefined` when the log no longer reaches back to `after` (the caller then rescans).
   * @throws JevMemError `STORAGE_FAILED`.
   */
  changesSince(namespace: string, after: number): Promise<string[] | undefined>;
  /**
   * The namespace's lexical index when the store keeps it itself (issue 13; the SQL store's
   * FTS5 engine, `sql-lexical.ts`), updated inside every `commit` (nodes put with a status other
   * than `'deleted'` indexed, deleted ones and `deleteNodeIds` removed), or `undefined` when the store keeps none (IndexedDB,
   * memory, the SQL store with `lexical: 'minisearch'`). When an index is returned, the memory
   * uses it instead of its own lexical index and keeps no lexical part in its checkpoints.
   *
   * The returned index: `add`/`remove` do nothing (commits maintain it), so a node is searchable
   * once its commit returns, not when a write path applies it to the resident state; `has(id)`
   * and `size` read the store; `search(query, k, language)` analyses the query as `lexical.ts`
   * does and ranks by BM25 (FTS5 `bm25()`), returning node ids with positive scores, best first,
   * ties in a fixed order; `toJSON()` is a small marker, not the index.
   * Its methods throw JevMemError `STORAGE_FAILED` on a SQL failure and `CLOSED` after `close()`.
   *
   * `language` (issue 24): the language the index reads short texts in (the namespace's
   * `language` option; undefined: each text's own). An index kept in another language, or
   * written by an older build (another `LEXICAL_VERSION`), is rebuilt from the namespace's
   * nodes at its first use, its old terms dropped. Every call for a namespace should pass the
   * same language.
   */
  lexicalIndex(namespace: string, language?: LanguageCode): LexicalIndex | undefined;
  /**
   * Verifies every node record and the checkpoint of one namespace against their checksums
   * (`checksum.ts`; a full read of the namespace's rows, O(namespace), done once per namespace
   * per adapter: its own commits write sound records) and returns what failed, together with the
   * damage the adapter's reads met since it was opened. Reads never fail for a
   * damaged record: they skip it (`getNodes`, `scanNodes`, `load` leave it out) and remember its
   * id; `readCheckpoint` throws `STORE_DAMAGED` (field `checkpoint`) for a damaged checkpoint,
   * which the memory rebuilds from the rows. Once damage is known, a `commit` that puts nodes or
   * edges is refused with `STORE_DAMAGED` naming the ids (deletes still run). An adapter that
   * keeps nothing to damage (in-memory) returns no damage.
   *
   * With `options.scan === false` (issue 25: what `stats()` asks) the answer is the damage
   * already known, without the full pass: what the adapter's reads met and what an earlier full
   * pass of this adapter found. An adapter may still make its pass then (the option is a
   * permission to skip it); the SQL store skips it. `jev-mem check` makes the full pass.
   * @throws JevMemError `STORAGE_FAILED`, `CLOSED`.
   */
  damaged(namespace: string, options?: DamageOptions): Promise<DamageReport>;
  /**
   * The erasures (deletes, dropped
   * namespaces) committed since the file was last rewritten whose older copies the file may
   * still hold in the unused space of its pages (SQLite moves cells between pages as the b-tree
   * splits and merges, and `secure_delete` zeroes a record only where it lives; issue 22). Kept
   * in the store, so it survives a crash or a close that could not rewrite the file. Only the
   * Node SQLite store (`sqlite-file-storage.ts`) counts them; every other store answers 0.
   * @throws nothing
   */
  pendingErasures(): number;
  /**
   * Rewrites the file (SQLite `VACUUM`, O(file size))
   * when any erasure is pending, or always with `force`, under the writer lock, and clears the
   * pending count. Resolves to the pending erasures it cleared (0, doing nothing, in a store
   * other than the Node SQLite store).
   * @throws JevMemError `STORAGE_FAILED` (another process held the lock too long, no space for the copy).
   */
  vacuum(options?: { force?: boolean }): Promise<number>;
  /**
   * The end of an erasing call (delete, forget, reset,
   * maintain): rewrites the file now when erasures of this adapter are pending and the file is
   * small enough (the adapter's bound), else leaves them pending for `vacuum`, `close` or the
   * CLI (nothing in a store other than the Node SQLite store). Never throws: a failed rewrite
   * leaves them pending and is logged.
   */
  settleErasures(): Promise<void>;
  /** Flushes and releases handles. Idempotent. */
  close(): Promise<void>;
}
