/**
 * `jev-mem/browser/onnx`: the System-One worker with onnxruntime-web bundled (engine `'onnx'`,
 * WebGPU when the page has an adapter, else wasm). Only apps that import this entry bundle
 * onnxruntime-web, an optional peer dependency (`npm i onnxruntime-web`); the default browser
 * worker runs the TypeScript kernels and needs no WebAssembly.
 *
 * @example
 * ```ts
 * import { createBrowserMemory } from 'jev-mem/browser';
 * import { onnxWorker } from 'jev-mem/browser/onnx';
 * const memory = await createBrowserMemory({ worker: onnxWorker() });
 * ```
 *
 * @module
 */
import type { WorkerSystemOneOptions } from './system-one/worker-backend.js';

/**
 * Worker options selecting the onnxruntime-web engine: `engine: 'onnx'` and a `createWorker`
 * that starts `worker/system-one-onnx.worker.js` (referenced with `new URL(…, import.meta.url)`
 * so bundlers emit it). Spread into `createBrowserMemory`'s `worker` option (add
 * `executionProviders` / `numThreads` as needed). onnxruntime-web finds its `.wasm` files next to
 * its own module unless `wasmPaths` is given.
 */
export function onnxWorker(): Pick<WorkerSystemOneOptions, 'engine' | 'createWorker'> {
  return {
    engine: 'onnx',
    createWorker: () => new Worker(new URL('../worker/system-one-onnx.worker.js', import.meta.url), { type: 'module' }),
  };
}
