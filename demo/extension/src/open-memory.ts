/**
 * How the extension opens its memory (the part to copy into your own extension). Everything
 * comes from inside the extension package (`chrome.runtime.getURL`): no CDN, no hub.
 *
 * - storage: the extension origin's IndexedDB (`createIdbStorage`), shared by all its pages;
 * - encoder: the shipped GloVe-SIF model, `models/glove-sif-100d/`;
 * - System One: the shipped model, `models/system-one/`, in a Web Worker started by this
 *   (offscreen) document, on onnxruntime-web's wasm build (`ort/ort-wasm-simd-threaded.wasm`) or,
 *   in a build made with `--engine ts`, on the TypeScript kernels (no wasm at all);
 * - vector index: the exact flat index (hnswlib-wasm is not shipped; exact search over a personal
 *   memory of tens of thousands of notes takes a few ms).
 *
 * @module
 */
import { createFetchAssetLoader } from '../../../src/encoder/assets.js';
import { createGloveSifEncoder } from '../../../src/encoder/glove-sif.js';
import { createMemory } from '../../../src/memory.js';
import { createIdbStorage } from '../../../src/plane/store/idb-storage.js';
import { createWorkerSystemOne } from '../../../src/system-one/worker-backend.js';
import type { HostedMemory } from './host.js';
import type { LoadTimings } from './messages.js';

/** System-One engine chosen at build time (`scripts/build-extension.mjs --engine`). */
declare const JEV_MEM_SYSTEM_ONE_ENGINE: 'onnx' | 'ts';

/** IndexedDB database of the extension's memory. */
export const EXTENSION_DB_NAME = 'jev-mem';

/** Namespace of the user's memory. */
export const EXTENSION_NAMESPACE = 'default';

/** Options of {@link openExtensionMemory}. */
export interface OpenExtensionMemoryOptions {
  /** The extension's root URL, `chrome.runtime.getURL('')` (ends in `/`). */
  baseURL: string;
  /** Receives the load milestones (ms from `now`'s origin). */
  timings: LoadTimings;
  /** Clock for the timings. @default performance.now */
  now?: () => number;
}

/**
 * Opens the memory with the files shipped in the extension. Storage, encoder and System One load
 * at the same time.
 * @throws JevMemError `MODEL_LOAD_FAILED` (a model file is missing or fails its checksum, or the
 *   worker cannot start), `STORAGE_FAILED` (IndexedDB cannot be opened).
 */
export async function openExtensionMemory(options: OpenExtensionMemoryOptions): Promise<HostedMemory> {
  const now = options.now ?? (() => performance.now());
  const { timings } = options;
  const models = new URL('models/', options.baseURL).href;
  const storageP = createIdbStorage({ dbName: EXTENSION_DB_NAME }).then((s) => ((timings.storageMs = now()), s));
  const encoderP = createGloveSifEncoder({ load: createFetchAssetLoader(models) }).then((e) => ((timings.encoderMs = now()), e));
  const systemOneP = createWorkerSystemOne({
    modelBaseURL: models,
    workerURL: new URL('system-one.worker.js', options.baseURL).href,
    engine: JEV_MEM_SYSTEM_ONE_ENGINE,
    // The wasm-only onnxruntime build is shipped (WebGPU would need the 28 MB JSEP build), and
    // extension pages are not cross-origin isolated, so onnxruntime gets one thread.
    ...(JEV_MEM_SYSTEM_ONE_ENGINE === 'onnx' ? { wasmPaths: new URL('ort/', options.baseURL).href, executionProviders: ['wasm' as const], numThreads: 1 } : {}),
  }).then((s) => ((timings.systemOneMs = now()), s));
  const settled = await Promise.allSettled([storageP, encoderP, systemOneP]);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) {
    // Close what did open, then report the first failure.
    await Promise.all(settled.map((r) => (r.status === 'fulfilled' ? r.value.close?.().catch(() => undefined) : undefined)));
    throw failed.reason;
  }
  const [storage, encoder, systemOne] = [await storageP, await encoderP, await systemOneP];
  const memory = await createMemory({ storage, encoder, systemOne, namespace: EXTENSION_NAMESPACE, vectorIndex: 'flat' });
  return {
    memory,
    systemOne: { modelId: systemOne.modelId, engine: systemOne.info.engine, executionProviders: [...systemOne.info.executionProviders] },
  };
}
