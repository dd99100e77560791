/**
 * What opening a namespace's resident state takes and reports (issue 13): the index factories a
 * platform injects, the open options and the open report shown in `stats().opened`.
 *
 * @module
 */
import type { LexicalIndex, VectorIndex } from '../indexes/indexes.js';
import type { StorageAdapter } from '../store/storage.js';
import type { LanguageCode } from '../text/language.js';
import type { MemoryNode } from '../../types.js';

/** Node bodies kept in the LRU cache of one namespace. */
export const NODE_CACHE_SIZE = 16_384;

/** Edge lists (all edges of one node) kept in the LRU cache of one namespace. */
export const EDGE_CACHE_SIZE = 8_192;

/** Nodes read per `getNodes` / scan batch while opening or loading. */
export const LOAD_BATCH = 512;

/** Factories of the derived indexes (injected so each platform picks its own). */
export interface IndexFactories {
  /** An empty I^lex reading short texts in `options.language` (the namespace's language, issue 24) when given. */
  lexical(options?: { language?: LanguageCode | undefined }): LexicalIndex;
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
   * first `NamespaceState.maybeUpgradeVector` (the first write), brought up to date with the
   * nodes changed since the checkpoint. @default threshold
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

/** What `NamespaceState.open` needs. */
export interface OpenOptions {
  namespace: string;
  storage: StorageAdapter;
  factories: IndexFactories;
  dimension: number;
  /** Fingerprint of the encoder of this memory (a checkpoint of another one is not used). */
  encoder?: string;
  /** LRU sizes: node bodies and edge lists. @default { nodes: NODE_CACHE_SIZE, edges: EDGE_CACHE_SIZE } */
  cache?: { nodes: number; edges: number };
  /**
   * The namespace's language (issue 24, the memory's `language` option): I^lex reads indexed
   * texts and questions too short to identify in it. A checkpoint whose lexical index was built
   * in another language (or by another `LEXICAL_VERSION`) is not restored: the namespace is
   * rebuilt from its nodes.
   */
  language?: LanguageCode | undefined;
  /** The BCP 47 tag `language` was given as (kept by the state for the namespace's meta). */
  languageTag?: string | undefined;
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
  /** Milliseconds the open took. */
  ms: number;
}

/** Read-only map-like access to the node bodies (see the note on loading in namespace.ts). */
export interface NodeView {
  /** The node, when it exists; `undefined` when it does not. @throws JevMemError when it exists but was not loaded. */
  get(id: string): MemoryNode | undefined;
  /** True when the namespace holds a node with this id (no load needed). */
  has(id: string): boolean;
  /** Number of nodes (any status). */
  readonly size: number;
}
