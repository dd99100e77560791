/**
 * Builds a System-One backend from a name (CLI and bench): `local` (the shipped model in process,
 * on the TypeScript kernels: the same int8 weights as the ONNX files, agreeing within 1e-3, and
 * the fastest path in Node), `worker` (the shipped model on onnxruntime-web WASM in a worker
 * thread through comlink, reading the package's `models/` folder, see package-info.ts),
 * `heuristic` (the hand-set stand-in)
 * or `remote` (a Jev-compatible endpoint from `--base-url` / `JEV_MEM_SYSTEM_ONE_URL`).
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import { createNodeAssetLoader } from '../encoder/assets-node.js';
import { createHeuristicSystemOne } from '../system-one/heuristic.js';
import { packageModelsURL } from './package-info.js';
import type { SystemOneBackend } from '../system-one/wire.js';

/** Names accepted by {@link createSystemOneFromName}. */
export const SYSTEM_ONE_NAMES = ['local', 'worker', 'heuristic', 'remote'] as const;

/**
 * @throws JevMemError `INVALID_OPTION` for an unknown name or a remote without URL,
 *   `MODEL_LOAD_FAILED` when the shipped model cannot be loaded.
 */
export async function createSystemOneFromName(name: string, o: { baseURL?: string | undefined; env: NodeJS.ProcessEnv }): Promise<SystemOneBackend> {
  switch (name) {
    case 'heuristic':
      return createHeuristicSystemOne();
    case 'local': {
      const { createLocalSystemOne } = await import('../system-one/local.js');
      return createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
    }
    case 'worker': {
      // The package's own models/ folder, found from the CLI's location: the worker's default
      // (next to its own file) is dist/models/ in a build, which holds only the manifest that
      // tsc copies for a JSON import, not the ONNX files.
      const { createWorkerSystemOne } = await import('../system-one/worker-backend.js');
      return createWorkerSystemOne({ modelBaseURL: await packageModelsURL() });
    }
    case 'remote': {
      const baseURL = o.baseURL ?? o.env.JEV_MEM_SYSTEM_ONE_URL;
      if (!baseURL) throw new JevMemError('INVALID_OPTION', 'the remote System One needs --base-url or JEV_MEM_SYSTEM_ONE_URL', { field: 'base-url' });
      const { createRemoteSystemOne } = await import('../system-one/remote.js');
      const opts: Parameters<typeof createRemoteSystemOne>[0] = { baseURL };
      if (o.env.JEV_MEM_SYSTEM_ONE_KEY) opts.apiKey = o.env.JEV_MEM_SYSTEM_ONE_KEY;
      return createRemoteSystemOne(opts);
    }
    default:
      throw new JevMemError('INVALID_OPTION', `unknown System-One backend ${JSON.stringify(name)}; valid ones are ${SYSTEM_ONE_NAMES.join(', ')}`, { field: 'system-one' });
  }
}
