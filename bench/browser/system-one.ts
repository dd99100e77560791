/**
 * The bench page's script (`bench/browser/system-one.html`): exposes
 * {@link SystemOneBenchPageApi} as `window.jevMemSystemOneBench`, which replays recorded
 * System-One operations through the browser backends with the package's own replay loop
 * (`replaySystemOneOperations`, bench/system-one/system-one.ts). Driven by
 * `npm run bench -- system-one --browser` (runSystemOneBrowserBench); not part of the demo UI.
 *
 * Models come from `models/` and onnxruntime-web's wasm from `ort/` on the page's own origin
 * (SPEC 9), as the demo serves them. onnxruntime runs on the wasm provider with one thread, as
 * `createBrowserMemory` does by default.
 *
 * @module
 */
import { createHeuristicSystemOne, createLocalSystemOne } from 'jev-mem';
import { createWorkerSystemOne } from 'jev-mem/browser';
import { onnxWorker } from 'jev-mem/browser/onnx';
import {
  replaySystemOneOperations,
  SYSTEM_ONE_BROWSER_BACKENDS,
  type SystemOneBackendFactory,
  type SystemOneBenchPageApi,
  type SystemOneBenchRow,
  type SystemOneBrowserBackendId,
  type SystemOneOperation,
} from '../system-one/system-one.js';
import { urlAssetLoader } from '../../src/system-one/local.js';

const models = new URL('models/', document.baseURI).href;
const ort = new URL('ort/', document.baseURI).href;
const load = urlAssetLoader(models);

/** How each backend id is made in the page. */
const MAKE: Record<SystemOneBrowserBackendId, SystemOneBackendFactory> = {
  heuristic: async () => createHeuristicSystemOne(),
  'page-ts': () => createLocalSystemOne({ load, engine: 'ts' }),
  'page-onnx': () => createLocalSystemOne({ load, engine: 'onnx', onnxRuntime: () => import('onnxruntime-web'), executionProviders: ['wasm'], wasmPaths: ort, numThreads: 1 }),
  'worker-onnx': () => createWorkerSystemOne({ modelBaseURL: models, ...onnxWorker(), executionProviders: ['wasm'], wasmPaths: ort, numThreads: 1 }),
  'worker-ts': () => createWorkerSystemOne({ modelBaseURL: models, engine: 'ts' }),
};

const api: SystemOneBenchPageApi = {
  crossOriginIsolated: globalThis.crossOriginIsolated === true,
  async run(opsJson, o) {
    const ops = JSON.parse(opsJson) as SystemOneOperation[];
    const rows: SystemOneBenchRow[] = [];
    document.body.dataset.state = 'running';
    for (const id of o.backends) {
      const name = SYSTEM_ONE_BROWSER_BACKENDS[id];
      if (name === undefined) throw new Error(`unknown bench backend ${JSON.stringify(id)}`);
      console.log(`bench system-one: ${name}`);
      rows.push(await replaySystemOneOperations(name, MAKE[id], ops, o.host));
    }
    document.body.dataset.state = 'done';
    return rows;
  },
};

(globalThis as unknown as { jevMemSystemOneBench: SystemOneBenchPageApi }).jevMemSystemOneBench = api;
document.body.dataset.state = 'ready';
