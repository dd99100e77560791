/**
 * Loading hnswlib-wasm (the HNSW index of `vector-hnsw.ts`) once per process, and the part of its
 * API that index uses: in Node it needs a `window` and an IndexedDB while it starts, and it prints
 * file-system log lines that must not reach a CLI's stdout. Split out of `vector-hnsw.ts`
 * (issue 22: modules under 400 lines); the behaviour is the same.
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../../errors.js';
import { importOptional } from '../../util/optional.js';

/**
 * The part of hnswlib-wasm's `HierarchicalNSW` this adapter uses (declared here because the
 * package's own `.d.ts` files use extension-less relative imports that NodeNext cannot resolve).
 */
export interface HierarchicalNSW {
  initIndex(maxElements: number, m: number, efConstruction: number, randomSeed: number): void;
  resizeIndex(newMaxElements: number): void;
  addPoint(point: Float32Array, label: number, replaceDeleted: boolean): void;
  markDelete(label: number): void;
  searchKnn(query: Float32Array, k: number, filter: undefined): { distances: number[]; neighbors: number[] };
  getMaxElements(): number;
  getCurrentCount(): number;
  setEfSearch(ef: number): void;
  getPoint(label: number): Float32Array | number[];
  getNumDimensions(): number;
  getDeletedLabels(): number[];
  /** Writes hnswlib's index file under the IDBFS mount (synchronous in 0.8.2). */
  writeIndex(filename: string): unknown;
  /** Reads hnswlib's index file from under the IDBFS mount (synchronous in 0.8.2). */
  readIndex(filename: string, maxElements: number): unknown;
  /** Frees the wasm object (embind). */
  delete(): void;
}

/** The part of the loaded hnswlib-wasm module this adapter uses. */
export interface HnswlibModule {
  HierarchicalNSW: new (space: 'l2' | 'ip' | 'cosine', dimension: number, autoSaveFilename: string) => HierarchicalNSW;
  EmscriptenFileSystemManager: {
    /** Starts an IDBFS sync (`read` = IndexedDB → memory); `isSynced()` turns true when it is done. */
    syncFS(read: boolean, callback: () => void): unknown;
    isSynced(): boolean;
  };
}

/** The entry module `hnswlib-wasm/dist/hnswlib.js`. */
interface HnswlibEntry {
  /** Top-level-await shim of the build. */
  __tla?: Promise<unknown>;
  loadHnswlib(): Promise<HnswlibModule>;
}


/** Lines hnswlib-wasm prints while it mounts and syncs its IDBFS file system. */
const HNSWLIB_NOISE = /^(EmscriptenFileSystemManager: |b\. jsFS synced successfully|d\. Calling sync callback)|^\s*$/;

/**
 * Drops hnswlib-wasm's file-system log lines from `console.log` / `console.info` until the
 * returned function is called (every other line passes through).
 */
export function quietHnswlib(): () => void {
  const { log, info } = console;
  const quiet =
    (write: (...args: unknown[]) => void) =>
    (...args: unknown[]): void => {
      if (args.length === 1 && typeof args[0] === 'string' && HNSWLIB_NOISE.test(args[0])) return;
      if (args.length === 0) return;
      write.apply(console, args);
    };
  console.log = quiet(log);
  console.info = quiet(info);
  return () => {
    console.log = log;
    console.info = info;
  };
}

let modulePromise: Promise<HnswlibModule> | undefined;

/**
 * The IndexedDB factory hnswlib-wasm's IDBFS opened its database with at load (the browser's,
 * or fake-indexeddb's in Node): serialisation moves hnswlib's index file through it.
 */
let idbFactory: IDBFactory | undefined;


/** The IndexedDB factory hnswlib-wasm's IDBFS opened its database with (`undefined` before the first load). */
export function hnswlibIndexedDB(): IDBFactory | undefined {
  return idbFactory;
}

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
 * a persistent one. Only `serialize()` / {@link restoreHnswVectorIndex} use that file system
 * afterwards (through the database handle IDBFS keeps open). While loading, the library's "mounting / synced" log lines are dropped so that
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
  let loud: (() => void) | undefined;
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
    idbFactory = g.indexedDB as IDBFactory | undefined;
    loud = quietHnswlib();
    const mod = await importOptional<HnswlibEntry>('hnswlib-wasm', 'hnswlib-wasm/dist/hnswlib.js', 'the HNSW vector index');
    // The build wraps its exports in a top-level-await shim: wait for it before using them.
    if (mod.__tla !== undefined) await mod.__tla;
    return await mod.loadHnswlib();
  } finally {
    loud?.();
    if (definedWindow && g.window === globalThis) delete g.window;
    if (definedIndexedDB) delete g.indexedDB;
  }
}
