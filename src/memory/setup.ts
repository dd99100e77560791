/**
 * The options of `createMemory()` (memory.ts) and what the factory reads from them before it
 * wires anything: the {@link MemoryOptions} shape and its accepted keys, the vector-index wiring
 * (the one place that picks index implementations) and the checks of `cache` and
 * `maxOpenNamespaces`.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { Encoder } from '../encoder/encoder.js';
import { describeValue, invalidOption } from '../errors.js';
import { createLexicalIndex } from '../plane/indexes/lexical.js';
import { createAnnVectorIndex } from '../plane/indexes/vector-ann.js';
import { createFlatVectorIndex } from '../plane/indexes/vector-flat.js';
import { createVectorIndex, restoreVectorIndex } from '../plane/indexes/vector-factory.js';
import { EDGE_CACHE_SIZE, NODE_CACHE_SIZE, type IndexFactories } from '../plane/resident/namespace.js';
import type { StorageAdapter } from '../plane/store/storage.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import type { SystemTwo, SystemTwoOptions } from '../system-two/types.js';
import type { Logger } from '../util/logger.js';

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
   * The language of the namespaces' text (issue 24): a BCP 47 tag (`"it"`, `"pt-BR"`) for every
   * namespace this memory opens, or one per namespace (`{ notes: 'de', diario: 'es' }`). The
   * lexical index reads a text or question too short to tell its language from its own words
   * in it: "Insegno storia in un liceo." is English to the language identifier, Italian in an
   * Italian namespace, so "Dove insegna Giulia?" finds it through its stems and person keys.
   * Longer texts, texts in a script that names its language, and English texts with English
   * stop words keep their own language ("dog training tips" stays English).
   *
   * Stored with the namespace (meta key `language`) at its next write, so a memory opened later
   * without the option reads it the same way; a namespace with none stored and no option reads
   * each text in its own language (English when too short to tell), questions in its dominant
   * one. The stored language wins: an option of another language for a namespace that has one
   * stored fails that namespace's first use with `LANGUAGE_MISMATCH` (nothing rebuilt or
   * written; two processes opening one store with different options would otherwise rebuild its
   * index against each other), unless {@link changeLanguage}; a tag of the same language (`pt`
   * for a stored `pt-BR`) reads it as stored. Giving a namespace a language its lexical index was
   * not built in (a first one, or a change) rebuilds that index from its nodes (MiniSearch: a
   * rescan at open; FTS5: at its first write or search, ~8.5 s of CPU at 100k nodes;
   * docs/bench/scale/PROFILE.md).
   * Only the primary subtag matters; it must be English or a language the text pipeline has
   * resources for (`SUPPORTED_LANGUAGES`, memory/language-option.ts).
   * @default none
   * @throws JevMemError `INVALID_OPTION` (field `language` or `language.<namespace>`) for a tag
   *   that is not well-formed BCP 47, or of a language without resources.
   */
  language?: string | Readonly<Record<string, string>>;
  /**
   * Changes the stored language of the namespaces {@link language} names when it differs: their
   * lexical index is rebuilt in the option's language at open, and that language is stored at
   * their next write (a process opened later with the old language then fails
   * `LANGUAGE_MISMATCH`). Use it once, for the change; without it a differing option is refused.
   * @default false
   * @throws JevMemError `INVALID_OPTION` (field `changeLanguage`) when not a boolean.
   */
  changeLanguage?: boolean;
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
export const MEMORY_OPTION_KEYS = ['namespace', 'storage', 'encoder', 'systemOne', 'systemTwo', 'vectorIndex', 'cache', 'parameters', 'now', 'newId', 'logger', 'maxOpenNamespaces', 'language', 'changeLanguage'] as const satisfies readonly (keyof MemoryOptions)[];

/**
 * The vector-index wiring (the one place that picks index implementations): `flat` → exact,
 * `hnsw` → hnswlib-wasm, `ann` → pure-TypeScript HNSW, `auto` → exact below
 * {@link AUTO_HNSW_FROM} nodes, `ann` from there (a failed switch keeps the exact index and is
 * logged and counted); under {@link autoHnswFrom} nodes a namespace opens exact and restores its
 * approximate index at its first write.
 * @throws JevMemError `INVALID_OPTION` (field `vectorIndex`) on another kind.
 */
export function indexFactories(vectorKind: unknown): IndexFactories {
  if (vectorKind !== 'flat' && vectorKind !== 'hnsw' && vectorKind !== 'ann' && vectorKind !== 'auto') throw invalidOption('vectorIndex', `expected 'flat', 'hnsw', 'ann' or 'auto', got ${JSON.stringify(vectorKind)}`);
  return {
    lexical: (options) => createLexicalIndex(options),
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
export function checkCacheSizes(cache: MemoryOptions['cache']): { nodes: number; edges: number } {
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
export function checkMaxOpen(v: unknown): number {
  if (v === undefined) return DEFAULT_MAX_OPEN_NAMESPACES;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw invalidOption('maxOpenNamespaces', `expected a positive integer, got ${describeValue(v)}`);
  return v;
}
