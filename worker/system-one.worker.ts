/**
 * The System-One worker entry (SPEC 2, 9): hosts the local backend (src/system-one/local.ts)
 * in a dedicated worker and exposes {@link SystemOneWorkerApi} through comlink. Browsers load it
 * as a module `Worker`; Node as a `worker_threads` worker (through comlink's node adapter).
 * onnxruntime's global settings (wasm paths, threads) are set only here, inside the worker, when
 * it runs the onnx engine.
 *
 * @module
 */
import * as Comlink from 'comlink';
import { JevMemError } from '../src/errors.js';
import { createLocalSystemOne, urlAssetLoader, type LocalSystemOne } from '../src/system-one/local.js';
import { registerJevMemErrorTransfer, type SystemOneWorkerApi, type WorkerInitOptions } from '../src/system-one/worker-backend.js';

/** Imports a Node built-in without letting browser or edge bundlers try to resolve it. */
function importNode<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}

registerJevMemErrorTransfer();

let backend: LocalSystemOne | undefined;
let loading: Promise<LocalSystemOne> | undefined;

const isNode = (globalThis as { process?: { release?: { name?: string } } }).process?.release?.name === 'node';

const api: SystemOneWorkerApi = {
  async init(options: WorkerInitOptions) {
    if (loading === undefined) {
      const opts: Parameters<typeof createLocalSystemOne>[0] = { load: urlAssetLoader(options.modelBaseURL) };
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

if (isNode) {
  const { parentPort } = await importNode<typeof import('node:worker_threads')>('node:worker_threads');
  const { default: nodeEndpoint } = (await import('comlink/dist/esm/node-adapter.mjs' as string)) as {
    default: (nep: NonNullable<typeof parentPort>) => Comlink.Endpoint;
  };
  if (parentPort === null) throw new Error('System-One worker: no parentPort (not started as a worker thread)');
  Comlink.expose(api, nodeEndpoint(parentPort));
} else {
  Comlink.expose(api);
}
