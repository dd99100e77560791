/**
 * Approximate vector index I^vec (eq. (5)) on hnswlib-wasm (HNSW graph in WebAssembly), for
 * browsers, extensions and Node. It cannot run in Cloudflare Workers (the wasm is inlined as
 * base64 and compiled at run time, SPEC 9): use {@link createVectorIndex} with `'auto'` to fall
 * back to the flat index there.
 *
 * Vectors are L2-normalised on the way in and the index uses hnswlib's inner-product space,
 * whose distance is 1 − q·v; so score = 1 − distance = cosine similarity, the same scale as the
 * flat index.
 *
 * @module
 */
import { JevMemError, describeValue, invalidOption, isJevMemError } from '../errors.js';
import { importOptional } from '../util/optional.js';
import type { IndexHit, VectorIndex } from './indexes.js';
import { checkDimension, checkK, createFlatVectorIndex, normalizedCopy } from './vector-flat.js';

/** Options of {@link createHnswVectorIndex}. */
export interface HnswVectorIndexOptions {
  /** Number of entries of every vector (the encoder's dimension). */
  dimension: number;
  /**
   * Initial capacity in vectors; when full the index doubles it (`resizeIndex`).
   * @default 1024
   */
  maxElements?: number;
  /**
   * HNSW `M`: the maximum number of outgoing links per node per layer.
   * @default 16
   */
  m?: number;
  /**
   * Size of the candidate list while building (higher = better graph, slower adds).
   * @default 200
   */
  efConstruction?: number;
  /**
   * Size of the candidate list while searching (raised to `k` when `k` is larger).
   * @default 64
   */
  efSearch?: number;
}

/**
 * The part of hnswlib-wasm's `HierarchicalNSW` this adapter uses (declared here because the
 * package's own `.d.ts` files use extension-less relative imports that NodeNext cannot resolve).
 */
interface HierarchicalNSW {
  initIndex(maxElements: number, m: number, efConstruction: number, randomSeed: number): void;
  resizeIndex(newMaxElements: number): void;
  addPoint(point: Float32Array, label: number, replaceDeleted: boolean): void;
  markDelete(label: number): void;
  searchKnn(query: Float32Array, k: number, filter: undefined): { distances: number[]; neighbors: number[] };
  getMaxElements(): number;
  getCurrentCount(): number;
  setEfSearch(ef: number): void;
  getPoint(label: number): Float32Array | number[];
  /** Frees the wasm object (embind). */
  delete(): void;
}

/** The part of the loaded hnswlib-wasm module this adapter uses. */
interface HnswlibModule {
  HierarchicalNSW: new (space: 'l2' | 'ip' | 'cosine', dimension: number, autoSaveFilename: string) => HierarchicalNSW;
}

/** The entry module `hnswlib-wasm/dist/hnswlib.js`. */
interface HnswlibEntry {
  /** Top-level-await shim of the build. */
  __tla?: Promise<unknown>;
  loadHnswlib(): Promise<HnswlibModule>;
}

/** hnswlib's random seed: fixed so that builds are reproducible. */
const RANDOM_SEED = 100;

/** Lines hnswlib-wasm prints while it mounts its (unused) IDBFS file system. */
const HNSWLIB_NOISE = /^(EmscriptenFileSystemManager: |b\. jsFS synced successfully)|^\s*$/;

let modulePromise: Promise<HnswlibModule> | undefined;

function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof proc?.versions?.node === 'string';
}

/**
 * Loads hnswlib-wasm once per process (shared promise; a failed load is retried on the next call).
 *
 * In Node only, and only while loading: defines `globalThis.window` (the emscripten build refuses
 * to start without it) and `globalThis.indexedDB` (fake-indexeddb; hnswlib-wasm mounts an IDBFS
 * file system at start) when they are missing, and removes the ones it defined once loading is
 * done, so that other code does not mistake Node for a browser or a fake in-memory IndexedDB for
 * a persistent one. The index never touches that file system afterwards (no `readIndex` /
 * `writeIndex`). While loading, the library's "mounting / synced" log lines are dropped so that
 * they do not pollute a CLI's stdout; every other console line passes through.
 *
 * hnswlib-wasm (and, in Node, fake-indexeddb) are optional peer dependencies, imported at run
 * time only (bundlers do not follow the import, so browser apps keep the exact index).
 *
 * @throws JevMemError `DEPENDENCY_MISSING` when hnswlib-wasm (or, in Node, fake-indexeddb) is not
 *   installed; `MODEL_LOAD_FAILED` when the module cannot be loaded or instantiated (e.g. in
 *   Cloudflare Workers).
 */
export function loadHnswlibModule(): Promise<HnswlibModule> {
  if (modulePromise === undefined) {
    modulePromise = loadOnce().catch((cause: unknown) => {
      modulePromise = undefined;
      if (isJevMemError(cause, 'DEPENDENCY_MISSING')) throw cause;
      throw new JevMemError('MODEL_LOAD_FAILED', `hnswlib-wasm could not be loaded: ${String(cause)}; use the flat vector index`, {
        cause,
      });
    });
  }
  return modulePromise;
}

async function loadOnce(): Promise<HnswlibModule> {
  const g = globalThis as { window?: unknown; indexedDB?: unknown };
  let definedWindow = false;
  let definedIndexedDB = false;
  const { log, info } = console;
  const quiet =
    (write: (...args: unknown[]) => void) =>
    (...args: unknown[]): void => {
      if (args.length === 1 && typeof args[0] === 'string' && HNSWLIB_NOISE.test(args[0])) return;
      if (args.length === 0) return;
      write.apply(console, args);
    };
  try {
    if (isNode()) {
      if (typeof g.window === 'undefined') {
        g.window = globalThis;
        definedWindow = true;
      }
      if (typeof g.indexedDB === 'undefined') {
        const fake = await importOptional<typeof import('fake-indexeddb')>('fake-indexeddb', 'fake-indexeddb', 'the HNSW vector index in Node (hnswlib-wasm opens an IndexedDB at start)');
        g.indexedDB = fake.indexedDB;
        definedIndexedDB = true;
      }
    }
    console.log = quiet(log);
    console.info = quiet(info);
    const mod = await importOptional<HnswlibEntry>('hnswlib-wasm', 'hnswlib-wasm/dist/hnswlib.js', 'the HNSW vector index');
    // The build wraps its exports in a top-level-await shim: wait for it before using them.
    if (mod.__tla !== undefined) await mod.__tla;
    return await mod.loadHnswlib();
  } finally {
    console.log = log;
    console.info = info;
    if (definedWindow && g.window === globalThis) delete g.window;
    if (definedIndexedDB) delete g.indexedDB;
  }
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw invalidOption(name, `expected a positive integer, got ${describeValue(value)}`);
  return value;
}

class HnswVectorIndex implements VectorIndex {
  readonly kind = 'hnsw' as const;
  readonly dimension: number;
  readonly #efSearch: number;
  #index: HierarchicalNSW | undefined;
  readonly #labelOf = new Map<string, number>();
  readonly #idOf = new Map<number, string>();
  /** Next fresh label; labels are never reused for another id while it is live. */
  #nextLabel = 0;
  /** Slots freed by `markDelete` that hnswlib can hand to the next new vector. */
  #deleted = 0;

  constructor(lib: HnswlibModule, dimension: number, maxElements: number, m: number, efConstruction: number, efSearch: number) {
    this.dimension = dimension;
    this.#efSearch = efSearch;
    const index = new lib.HierarchicalNSW('ip', dimension, '');
    index.initIndex(maxElements, m, efConstruction, RANDOM_SEED);
    index.setEfSearch(efSearch);
    this.#index = index;
  }

  get size(): number {
    return this.#labelOf.size;
  }

  add(id: string, vector: Float32Array): void {
    if (typeof id !== 'string' || id.length === 0) {
      throw new JevMemError('INVALID_INPUT', `id: expected a non-empty string, got ${JSON.stringify(id)}`, { field: 'id' });
    }
    const unit = normalizedCopy(vector, this.dimension);
    const index = this.#live();
    // The wasm wrapper refuses any addPoint (even an update) while the index is full.
    if (index.getCurrentCount() >= index.getMaxElements()) index.resizeIndex(index.getMaxElements() * 2);
    const existing = this.#labelOf.get(id);
    if (existing !== undefined) {
      index.addPoint(unit, existing, false); // update in place
      return;
    }
    const label = this.#nextLabel++;
    // replaceDeleted = true: reuse a slot freed by markDelete when there is one.
    index.addPoint(unit, label, this.#deleted > 0);
    if (this.#deleted > 0) this.#deleted--;
    this.#labelOf.set(id, label);
    this.#idOf.set(label, id);
  }

  remove(id: string): void {
    const label = this.#labelOf.get(id);
    if (label === undefined) return;
    this.#live().markDelete(label);
    this.#deleted++;
    this.#labelOf.delete(id);
    this.#idOf.delete(label);
  }

  has(id: string): boolean {
    return this.#labelOf.has(id);
  }

  vectorOf(id: string): Float32Array | undefined {
    const index = this.#live();
    const label = this.#labelOf.get(id);
    return label === undefined ? undefined : Float32Array.from(index.getPoint(label));
  }

  search(vector: Float32Array, k: number): IndexHit[] {
    checkK(k);
    const q = normalizedCopy(vector, this.dimension);
    const index = this.#live();
    const n = Math.min(k, this.#labelOf.size);
    if (n === 0) return [];
    index.setEfSearch(Math.max(this.#efSearch, n));
    const result = index.searchKnn(q, n, undefined);
    const hits: IndexHit[] = [];
    for (let i = 0; i < result.neighbors.length; i++) {
      const id = this.#idOf.get(result.neighbors[i] as number);
      // z = 1 − d_ip = q·v = cos(q, v) for unit vectors
      if (id !== undefined) hits.push({ id, score: 1 - (result.distances[i] as number) });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits;
  }

  dispose(): void {
    const index = this.#index;
    this.#index = undefined;
    this.#labelOf.clear();
    this.#idOf.clear();
    index?.delete();
  }

  #live(): HierarchicalNSW {
    if (this.#index === undefined) throw new JevMemError('CLOSED', 'the HNSW vector index was used after dispose()');
    return this.#index;
  }
}

/**
 * Creates an HNSW index (hnswlib-wasm 0.8.2, inner-product space over L2-normalised vectors):
 * `score` = cosine similarity in [-1, 1], approximate (recall against the exact index depends on
 * `m`, `efConstruction`, `efSearch`). String ids map to integer labels inside; `remove` marks the
 * label deleted and the next new vector reuses its slot. The capacity doubles when full.
 *
 * @throws JevMemError `INVALID_INPUT` (field `dimension`) on a bad dimension, `INVALID_OPTION`
 *   (field `maxElements` / `m` / `efConstruction` / `efSearch`) on a bad option,
 *   `MODEL_LOAD_FAILED` when hnswlib-wasm cannot load. `add` / `search` throw `INVALID_INPUT`
 *   (field `vector`, `id` or `k`) on bad arguments and `CLOSED` after `dispose()`.
 *
 * Source: SPEC 2 (hnswlib-wasm where it can run), SPEC 9 (loading it in Node), eq. (5) I^vec.
 */
export async function createHnswVectorIndex(options: HnswVectorIndexOptions): Promise<VectorIndex> {
  checkDimension(options.dimension);
  const maxElements = positiveInt('maxElements', options.maxElements, 1024);
  const m = positiveInt('m', options.m, 16);
  const efConstruction = positiveInt('efConstruction', options.efConstruction, 200);
  const efSearch = positiveInt('efSearch', options.efSearch, 64);
  const lib = await loadHnswlibModule();
  return new HnswVectorIndex(lib, options.dimension, maxElements, m, efConstruction, efSearch);
}

/** Which vector index {@link createVectorIndex} should build. */
export type VectorIndexKind = 'flat' | 'hnsw' | 'auto';

/**
 * Creates a vector index of `dimension`: `'flat'` → exact ({@link createFlatVectorIndex});
 * `'hnsw'` → {@link createHnswVectorIndex} with its defaults; `'auto'` → HNSW, or the flat index
 * when hnswlib-wasm fails to load (e.g. in Cloudflare Workers). The returned index's `kind` says
 * which one was built.
 *
 * @throws JevMemError `INVALID_OPTION` (field `kind`) on an unknown kind, `INVALID_INPUT`
 *   (field `dimension`) on a bad dimension, `MODEL_LOAD_FAILED` for `'hnsw'` when hnswlib-wasm
 *   cannot load.
 */
export async function createVectorIndex(kind: VectorIndexKind, dimension: number): Promise<VectorIndex> {
  checkDimension(dimension);
  switch (kind) {
    case 'flat':
      return createFlatVectorIndex(dimension);
    case 'hnsw':
      return createHnswVectorIndex({ dimension });
    case 'auto':
      try {
        return await createHnswVectorIndex({ dimension });
      } catch {
        return createFlatVectorIndex(dimension);
      }
    default:
      throw invalidOption('kind', `expected 'flat', 'hnsw' or 'auto', got ${JSON.stringify(kind)}`);
  }
}
