/**
 * Builds a System-One backend from a name, for Node programs that take the backend as a string
 * (the CLI's `--system-one`, the benchmarks' `--system-one`): `local` (the shipped model in
 * process, on the TypeScript kernels: the same int8 weights as the ONNX files, agreeing within
 * 1e-3, and the fastest path in Node), `worker` (the shipped model on onnxruntime-web WASM in a
 * worker thread through comlink), `heuristic` (the hand-set stand-in) or `remote` (a
 * Jev-compatible endpoint from `baseURL` / `JEV_MEM_SYSTEM_ONE_URL`, key from
 * `JEV_MEM_SYSTEM_ONE_KEY`). Each backend module is imported only when its name is asked for.
 *
 * Node only (reads the shipped model from the package's `models/` folder).
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import { createNodeAssetLoader } from '../encoder/assets-node.js';
import { createHeuristicSystemOne } from './heuristic.js';
import type { SystemOneBackend } from './wire.js';

/** Names accepted by {@link createSystemOneFromName}, in the order error messages list them. */
export const SYSTEM_ONE_NAMES = ['local', 'worker', 'heuristic', 'remote'] as const;

/** A name of {@link SYSTEM_ONE_NAMES}. */
export type SystemOneName = (typeof SYSTEM_ONE_NAMES)[number];

/** Options of {@link createSystemOneFromName}. */
export interface SystemOneFromNameOptions {
  /** Base URL of the remote backend (wins over `env.JEV_MEM_SYSTEM_ONE_URL`); other names ignore it. */
  baseURL?: string | undefined;
  /** Environment read for `JEV_MEM_SYSTEM_ONE_URL` and `JEV_MEM_SYSTEM_ONE_KEY` (usually `process.env`). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * Where the `worker` backend reads the shipped model (a `models/system-one/`-holding folder's
   * `models/` URL), or a function that finds it; other names ignore it.
   * @default the worker's own default (the package's `models/` folder)
   */
  modelBaseURL?: string | URL | (() => Promise<string | URL>) | undefined;
}

/**
 * The backend a name stands for, ready to `decide`.
 * @param name One of {@link SYSTEM_ONE_NAMES}.
 * @throws JevMemError `INVALID_OPTION` (field `system-one`) for an unknown name; `INVALID_OPTION`
 *   (field `base-url`) for `remote` without a URL; `MODEL_LOAD_FAILED` when the shipped model
 *   cannot be loaded.
 */
export async function createSystemOneFromName(name: string, o: SystemOneFromNameOptions): Promise<SystemOneBackend> {
  switch (name) {
    case 'heuristic':
      return createHeuristicSystemOne();
    case 'local': {
      const { createLocalSystemOne } = await import('./local.js');
      return createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
    }
    case 'worker': {
      const { createWorkerSystemOne } = await import('./worker-backend.js');
      const base = typeof o.modelBaseURL === 'function' ? await o.modelBaseURL() : o.modelBaseURL;
      return createWorkerSystemOne(base === undefined ? {} : { modelBaseURL: base });
    }
    case 'remote': {
      const baseURL = o.baseURL ?? o.env.JEV_MEM_SYSTEM_ONE_URL;
      if (!baseURL) throw new JevMemError('INVALID_OPTION', 'the remote System One needs --base-url or JEV_MEM_SYSTEM_ONE_URL', { field: 'base-url' });
      const { createRemoteSystemOne } = await import('./remote.js');
      const opts: Parameters<typeof createRemoteSystemOne>[0] = { baseURL };
      if (o.env.JEV_MEM_SYSTEM_ONE_KEY) opts.apiKey = o.env.JEV_MEM_SYSTEM_ONE_KEY;
      return createRemoteSystemOne(opts);
    }
    default:
      throw new JevMemError('INVALID_OPTION', `unknown System-One backend ${JSON.stringify(name)}; valid ones are ${SYSTEM_ONE_NAMES.join(', ')}`, { field: 'system-one' });
  }
}
