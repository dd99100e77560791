/**
 * The System-One worker's API (SPEC 2, 9): hosts the local backend (src/system-one/local.ts)
 * and implements {@link SystemOneWorkerApi}. The entries expose it through comlink:
 * `system-one.worker.ts` (browsers, TypeScript kernels), `system-one-onnx.worker.ts` (browsers,
 * onnxruntime-web bundled) and `system-one.node.ts` (Node `worker_threads`). onnxruntime's global
 * settings (wasm paths, threads) are set only inside the worker, when it runs the onnx engine.
 *
 * @module
 */
import { JevMemError } from '../src/errors.js';
import { createLocalSystemOne, urlAssetLoader, type LocalSystemOne, type LocalSystemOneOptions } from '../src/system-one/local.js';
import { registerJevMemErrorTransfer, type SystemOneWorkerApi, type WorkerInitOptions } from '../src/system-one/worker-protocol.js';

/**
 * The worker API over one local backend.
 * @param onnxRuntime - how this entry loads onnxruntime-web for engine `'onnx'` (see LocalSystemOneOptions).
 */
export function createWorkerApi(onnxRuntime?: LocalSystemOneOptions['onnxRuntime']): SystemOneWorkerApi {
registerJevMemErrorTransfer();

let backend: LocalSystemOne | undefined;
let loading: Promise<LocalSystemOne> | undefined;

const isNode = (globalThis as { process?: { release?: { name?: string } } }).process?.release?.name === 'node';

const api: SystemOneWorkerApi = {
  async init(options: WorkerInitOptions) {
    if (loading === undefined) {
      const opts: Parameters<typeof createLocalSystemOne>[0] = { load: urlAssetLoader(options.modelBaseURL, options.modelFiles) };
      if (onnxRuntime !== undefined) opts.onnxRuntime = onnxRuntime;
      if (options.engine !== undefined) opts.engine = options.engine;
      if (options.executionProviders !== undefined) opts.executionProviders = options.executionProviders;
      if (options.wasmPaths !== undefined) opts.wasmPaths = options.wasmPaths;
      if (options.numThreads !== undefined) opts.numThreads = options.numThreads;
      if (options.verify !== undefined) opts.verify = options.verify;
      if (options.modelDir !== undefined) opts.modelDir = options.modelDir;
      loading = createLocalSystemOne(opts);
      loading.catch(() => {
        loading = undefined;
      });
    }
    backend = await loading;
    return {
      modelId: backend.modelId,
      engine: backend.engine,
      executionProviders: [...backend.executionProviders],
      ...(backend.parameters ? { parameters: JSON.parse(JSON.stringify(backend.parameters)) as Record<string, unknown> } : {}),
    };
  },
  async decideMany(requests) {
    if (backend === undefined) throw new JevMemError('SYSTEM_ONE_FAILED', 'System-One worker: decideMany before init');
    return backend.decideMany(requests);
  },
  evict(texts) {
    backend?.evict?.(texts);
  },
  async close() {
    await backend?.close();
    backend = undefined;
    loading = undefined;
  },
  crashForTest() {
    if (isNode) {
      (globalThis as unknown as { process: { exit(code: number): never } }).process.exit(70);
    }
    // Browsers: an uncaught error reaches the page as the Worker's `error` event.
    setTimeout(() => {
      throw new Error('System-One worker: crash requested by a test');
    });
  },
};

return api;
}
