/**
 * The browser entry (`jev-mem/browser`, SPEC 2, 9): `createBrowserMemory()` fills the platform
 * defaults for a web page: storage in IndexedDB (`createIdbStorage`), the shipped GloVe-SIF
 * encoder, the local System-One model (TypeScript kernels) in a Web Worker
 * (`createWorkerSystemOne`), and a request for persistent storage (`navigator.storage.persist()`).
 *
 * Zero configuration: with neither `assetBaseURL` nor `modelBaseURL`, the model files and the
 * worker are referenced with `new URL('…', import.meta.url)` (bundled-models.ts,
 * worker-backend.ts), so a bundler that follows those (Vite, Rollup, webpack 5, Parcel) emits
 * them with the app; nothing is copied by hand and nothing comes from a CDN. Bundlers that do
 * not (esbuild) need the package's `dist/models/` folder served and its URL as `modelBaseURL`.
 *
 * With `assetBaseURL` or `modelBaseURL`, the page serves (relative to `assetBaseURL`):
 * - `models/glove-sif-100d/*` and `models/system-one/*`: the package's `dist/models/` folder;
 * - for the onnxruntime-web engine (`jev-mem/browser/onnx`) only, `ort/` with onnxruntime-web's
 *   `.wasm` / `.mjs` files, unless the bundler emits them.
 *
 * Browser-only: it uses `document`/`location`, `Worker` and IndexedDB. Nothing here sends a
 * request outside the page's origin unless `systemTwo` is configured.
 *
 * @module
 */
import type { Encoder } from './encoder/encoder.js';
import { bundledModelFiles } from './bundled-models.js';
import { createFetchAssetLoader, createFileMapAssetLoader } from './encoder/assets.js';
import { createGloveSifEncoder } from './encoder/glove-sif.js';
import { JevMemError, invalidOption, isJevMemError } from './errors.js';
import { createMemory, type Memory, type MemoryOptions } from './memory.js';
import { createIdbStorage } from './plane/store/idb-storage.js';
import type { StorageAdapter } from './plane/store/storage.js';
import { createHeuristicSystemOne } from './system-one/heuristic.js';
import type { SystemOneBackend } from './system-one/wire.js';
import { createWorkerSystemOne, type WorkerSystemOne, type WorkerSystemOneOptions } from './system-one/worker-backend.js';

/** Which System One a browser memory runs. */
export type BrowserSystemOneChoice =
  /** The shipped model in a Web Worker (the TypeScript kernels, or onnxruntime-web through `jev-mem/browser/onnx`). */
  | 'worker'
  /** The hand-set heuristic stand-in, on the page's thread (no model files, no worker). */
  | 'heuristic';

/** Options of {@link createBrowserMemory}: those of `createMemory`, with page defaults. */
export interface BrowserMemoryOptions extends Omit<MemoryOptions, 'encoder' | 'storage' | 'systemOne'> {
  /**
   * Absolute URL (or URL relative to the page) under which the page serves `models/` and `ort/`.
   * @default the files the bundler emitted (see the module notes); `ort/` under the page's folder
   */
  assetBaseURL?: string | URL;
  /**
   * URL of the `models/` folder (holding `glove-sif-100d/` and `system-one/`).
   * @default `models/` under `assetBaseURL` when that is given, else the bundled model files
   */
  modelBaseURL?: string | URL;
  /**
   * URL prefix (ending in `/`) of onnxruntime-web's `.wasm` / `.mjs` files, passed to the worker
   * as onnxruntime's `env.wasm.wasmPaths` (engine `'onnx'` only). SPEC 9: never a CDN.
   * @default `ort/` under `assetBaseURL` when that is given, else onnxruntime-web's own default
   */
  wasmPaths?: string | URL;
  /**
   * IndexedDB database name (one database holds every namespace). Ignored when `storage` is given.
   * @default 'jev-mem'
   */
  dbName?: string;
  /** Storage adapter; replaces the IndexedDB default. */
  storage?: StorageAdapter;
  /** Sentence encoder; replaces the shipped GloVe-SIF encoder (fetched from `modelBaseURL`). */
  encoder?: Encoder;
  /**
   * Check the SHA-256 of every model file (encoder and System One) on load; costs a few ms per MB.
   * @default true
   */
  verifyModels?: boolean;
  /**
   * System One: `'worker'` (the shipped model in a Web Worker), `'heuristic'` (the stand-in, no
   * worker), or a ready backend (e.g. `createRemoteSystemOne` through your proxy).
   * @default 'worker'
   */
  systemOne?: BrowserSystemOneChoice | SystemOneBackend;
  /**
   * Options of the worker backend (when `systemOne` is `'worker'`): `engine` (default `'ts'`, the
   * TypeScript kernels; for `'onnx'` spread `onnxWorker()` of `jev-mem/browser/onnx`, which
   * bundles onnxruntime-web), `executionProviders` (onnx: default `['webgpu', 'wasm']` when the
   * page has a WebGPU adapter, else `['wasm']`), `numThreads`, `workerURL` / `createWorker`
   * (default: the package's `worker/system-one.worker.js`, which bundlers find through
   * `new URL(…, import.meta.url)`), `maxRestarts`, `onPost`. `modelBaseURL`, `modelFiles`,
   * `wasmPaths` and `verify` come from the options above.
   * @default { numThreads: 1 } (the heads are a few KB: threads only add start-up cost)
   */
  worker?: Omit<WorkerSystemOneOptions, 'modelBaseURL' | 'modelFiles' | 'wasmPaths' | 'verify'>;
  /**
   * When the worker cannot start (no `Worker`, model files missing, onnxruntime failing), use the
   * heuristic stand-in instead of throwing; the error is kept in `platform.systemOneError`.
   * @default false
   */
  systemOneFallback?: boolean;
  /**
   * Ask the browser to keep this origin's storage under pressure (`navigator.storage.persist()`,
   * SPEC 9). The answer is in `platform.persisted`.
   * @default true
   */
  persist?: boolean;
}

/** What {@link createBrowserMemory} set up, for display and diagnostics. */
export interface BrowserPlatformInfo {
  /**
   * The answer of `navigator.storage.persist()`: `true` when the origin's storage is persistent,
   * `false` when the browser refused, `undefined` when not asked or not available.
   */
  persisted: boolean | undefined;
  /** The System One in use. */
  systemOne: {
    /** Backend kind (`'local-worker'`, `'heuristic'`, or the given backend's). */
    kind: string;
    /** Versioned model id. */
    modelId: string;
    /** The worker's engine, for the worker backend. */
    engine?: 'onnx' | 'ts';
    /** onnxruntime execution providers requested by the worker, in order (empty otherwise). */
    executionProviders: string[];
    /**
     * What runs the model: `'webgpu'` or `'wasm'` (onnxruntime-web's first provider), `'js'`
     * (TypeScript kernels, the heuristic, or a backend of the caller's).
     */
    accelerator: 'webgpu' | 'wasm' | 'js';
  };
  /** Why the worker was not used, when `systemOneFallback` replaced it with the heuristic. */
  systemOneError?: JevMemError;
  /** Resolved URL of the `models/` folder, or `'bundled'` for the files the bundler emitted. */
  modelBaseURL: string;
  /** Resolved onnxruntime-web file prefix, `'default'` when onnxruntime-web picks it (next to its module). */
  wasmPaths: string;
}

/** A memory created by {@link createBrowserMemory}. */
export interface BrowserMemory extends Memory {
  /** What was set up (storage persistence, System One and its accelerator, URLs). */
  readonly platform: BrowserPlatformInfo;
}

/** The page's folder, for relative URLs. */
function pageBase(): string {
  const doc = (globalThis as { document?: { baseURI?: string } }).document;
  const loc = (globalThis as { location?: { href?: string } }).location;
  const base = doc?.baseURI ?? loc?.href;
  if (base === undefined) throw invalidOption('assetBaseURL', 'no document or location here to resolve model URLs against; pass an absolute assetBaseURL');
  return base;
}

/**
 * Resolves `value` into an absolute URL string ending in `/`: as given when absolute, else
 * against `base()` (only then is a page needed).
 */
function folderURL(value: string | URL, base: () => string, field: string): string {
  let url: URL;
  try {
    url = URL.canParse(String(value)) ? new URL(String(value)) : new URL(String(value), base());
  } catch (e) {
    if (isJevMemError(e)) throw e;
    throw invalidOption(field, `${JSON.stringify(String(value))} is not a URL`);
  }
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

/** Asks for persistent storage; `undefined` when the API is missing or fails. */
async function requestPersistence(): Promise<boolean | undefined> {
  const storage = (globalThis.navigator as { storage?: { persisted?: () => Promise<boolean>; persist?: () => Promise<boolean> } } | undefined)?.storage;
  if (typeof storage?.persist !== 'function') return undefined;
  try {
    if (typeof storage.persisted === 'function' && (await storage.persisted())) return true;
    return await storage.persist();
  } catch {
    return undefined;
  }
}

function describe(backend: SystemOneBackend): BrowserPlatformInfo['systemOne'] {
  if (backend.kind === 'local-worker') {
    const info = (backend as WorkerSystemOne).info;
    const providers = [...info.executionProviders];
    const accelerator = info.engine === 'onnx' && providers[0] === 'webgpu' ? 'webgpu' : info.engine === 'onnx' ? 'wasm' : 'js';
    return { kind: backend.kind, modelId: backend.modelId, engine: info.engine, executionProviders: providers, accelerator };
  }
  return { kind: backend.kind, modelId: backend.modelId, executionProviders: [], accelerator: 'js' };
}

/**
 * Creates a memory with browser defaults: IndexedDB storage, the shipped encoder fetched from
 * the page's origin, the local System One in a Web Worker, and a request for persistent storage.
 * `close()` also closes the encoder and System One made here (not ones passed in).
 *
 * @throws JevMemError `MODEL_LOAD_FAILED` (a model file is missing or fails its checksum, or the
 *   worker cannot start and `systemOneFallback` is false), `STORAGE_FAILED` (IndexedDB cannot be
 *   opened), `INVALID_OPTION` (a bad URL or option; createMemory's checks too).
 * @example
 * ```ts
 * import { createBrowserMemory } from 'jev-mem/browser';
 * const memory = await createBrowserMemory({ namespace: 'chat' });
 * await memory.add({ text: 'User: my sister lives in Porto', speaker: 'user', observedAt: new Date() });
 * const { memories, trace } = await memory.recall('Where does my sister live?');
 * console.log(memory.platform.systemOne.accelerator); // 'js' (TypeScript kernels)
 * ```
 */
export async function createBrowserMemory(options: BrowserMemoryOptions = {}): Promise<BrowserMemory> {
  if (options === null || typeof options !== 'object') throw invalidOption('options', 'expected an object');
  const { assetBaseURL, modelBaseURL, wasmPaths, dbName, storage, encoder, verifyModels, systemOne, worker, systemOneFallback, persist, ...memoryOptions } = options;
  const base = (): string => (assetBaseURL === undefined ? pageBase() : folderURL(assetBaseURL, pageBase, 'assetBaseURL'));
  // No URL given: the model files the bundler emitted (bundled-models.ts).
  const bundled = assetBaseURL === undefined && modelBaseURL === undefined ? bundledModelFiles() : undefined;
  const models = bundled !== undefined ? 'bundled' : folderURL(modelBaseURL ?? 'models/', base, 'modelBaseURL');
  // onnxruntime-web's files: where the caller says, else its own default (next to its module).
  const ort = wasmPaths !== undefined || assetBaseURL !== undefined ? folderURL(wasmPaths ?? 'ort/', base, 'wasmPaths') : undefined;
  const verify = verifyModels ?? true;
  const choice = systemOne ?? 'worker';
  if (typeof choice === 'string' && choice !== 'worker' && choice !== 'heuristic') {
    throw invalidOption('systemOne', `expected 'worker', 'heuristic' or a SystemOneBackend, got ${JSON.stringify(choice)}`);
  }

  const persisted = persist === false ? undefined : await requestPersistence();
  const owned: Array<{ close?: () => Promise<void> }> = [];
  const closeOwned = async (): Promise<void> => {
    await Promise.all(owned.map((o) => o.close?.().catch(() => undefined)));
  };
  let ownStorage: StorageAdapter | undefined;
  try {
    // Storage, encoder and System One load at the same time (the worker's wasm is the slow part).
    const storageP = storage !== undefined ? Promise.resolve(storage) : createIdbStorage(dbName === undefined ? {} : { dbName }).then((s) => (ownStorage = s));
    const encoderP: Promise<Encoder> =
      encoder !== undefined
        ? Promise.resolve(encoder)
        : createGloveSifEncoder({ load: bundled !== undefined ? createFileMapAssetLoader(bundled) : createFetchAssetLoader(models), verify }).then((e) => {
            owned.push(e);
            return e;
          });
    let systemOneError: JevMemError | undefined;
    const backendP: Promise<SystemOneBackend> = (async () => {
      if (typeof choice !== 'string') return choice;
      let backend: SystemOneBackend;
      if (choice === 'heuristic') backend = createHeuristicSystemOne();
      else {
        try {
          const where = bundled !== undefined ? { modelFiles: bundled } : { modelBaseURL: models };
          backend = await createWorkerSystemOne({ numThreads: 1, ...worker, ...where, ...(ort !== undefined ? { wasmPaths: ort } : {}), verify });
        } catch (e) {
          if (systemOneFallback !== true) throw e;
          systemOneError = isJevMemError(e) ? e : new JevMemError('MODEL_LOAD_FAILED', `System-One worker: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
          backend = createHeuristicSystemOne();
        }
      }
      owned.push(backend);
      return backend;
    })();
    const settled = await Promise.allSettled([storageP, encoderP, backendP]);
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    const [chosenStorage, chosenEncoder, backend] = settled.map((r) => (r as PromiseFulfilledResult<unknown>).value) as [StorageAdapter, Encoder, SystemOneBackend];
    const memory = await createMemory({ ...memoryOptions, storage: chosenStorage, encoder: chosenEncoder, systemOne: backend });
    const platform: BrowserPlatformInfo = { persisted, systemOne: describe(backend), modelBaseURL: models, wasmPaths: ort ?? 'default' };
    if (systemOneError !== undefined) platform.systemOneError = systemOneError;
    const close = memory.close.bind(memory);
    return Object.assign(memory, {
      platform,
      close: async () => {
        await close();
        await closeOwned();
      },
    });
  } catch (e) {
    // The memory was not made: nothing else will close what was opened here.
    await ownStorage?.close().catch(() => undefined);
    await closeOwned();
    throw e;
  }
}

// The browser's building blocks, for apps that assemble their own memory.
export { compactIdbDatabase, createIdbStorage } from './plane/store/idb-storage.js';
export type { IdbCompaction } from './plane/store/idb-compact.js';
export type { IdbStorageOptions } from './plane/store/idb-storage.js';
export { createWorkerSystemOne } from './system-one/worker-backend.js';
export type { WorkerSystemOne, WorkerSystemOneOptions } from './system-one/worker-backend.js';
export { bundledModelFiles } from './bundled-models.js';
