/**
 * The storage adapter interface of the memory plane (SPEC 2, 3). The store is the source of
 * truth; every index is a derived cache rebuilt from it. Adapters: IndexedDB (`idb-storage.ts`,
 * browsers and extensions, and Node through fake-indexeddb), a directory on disk
 * (`file-storage.ts`, Node CLI), in-memory (`memory-storage.ts`, tests and ephemeral use), and
 * Durable Object SQLite (edge).
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../types.js';

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
}

/** Everything stored for one namespace, as loaded at open time. */
export interface NamespaceSnapshot {
  nodes: MemoryNode[];
  edges: MemoryEdge[];
  meta: Record<string, unknown>;
}

/**
 * Failures of one namespace that an adapter recovered from without failing a call, counted
 * since the adapter was opened. The data is safe in each case (e.g. a failed compaction leaves
 * the batch in the journal), but the caller should know: `Memory.stats()` shows them.
 */
export interface StorageHealth {
  /** Compactions that failed (the journal kept every batch; retried later). */
  compactionFailures: number;
  /** Message of the last failed compaction. */
  lastCompactionError?: string;
}

/**
 * A storage adapter. All methods are namespace-scoped: an adapter never returns or changes data
 * of a namespace other than the one named.
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
   * Optional: loads only the meta of one namespace (cheap). The memory reads its `generation`
   * key to notice commits made through another connection (a second tab) and rebuild its caches;
   * adapters that cannot read meta cheaply leave it out (their caches are then trusted, which is
   * right when one connection writes, as the file store's lock ensures).
   * @throws JevMemError `STORAGE_FAILED`.
   */
  loadMeta?(namespace: string): Promise<Record<string, unknown>>;
  /** Names of the namespaces that hold data. */
  namespaces(): Promise<string[]>;
  /** Removes one namespace and nothing else. */
  dropNamespace(namespace: string): Promise<void>;
  /** Bytes used by one namespace, when the adapter can tell (else undefined). */
  sizeBytes?(namespace: string): Promise<number | undefined>;
  /**
   * Optional: failures of one namespace the adapter recovered from (see {@link StorageHealth}).
   * Adapters that never defer a failure leave it out.
   */
  health?(namespace: string): StorageHealth;
  /** Flushes and releases handles. Idempotent. */
  close(): Promise<void>;
}
