/**
 * The Node entry (`jev-mem/node`): `createNodeMemory()` fills the platform defaults for Node:
 * storage in a directory (one SQLite database, `sqlite-file-storage.ts`; a v1 file store there is
 * imported at first open), so separate CLI runs share one memory, the offline GloVe-SIF encoder
 * from the package's `models/`, and the shipped trained System-One model in process (TypeScript
 * kernels), or the backend given in `systemOne`. Node-only: it imports `node:fs`.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createDefaultNodeEncoder } from './encoder/default-node.js';
import type { Encoder } from './encoder/encoder.js';
import { rejectUnknownKeys } from './config.js';
import { describeValue, invalidOption, isJevMemError, JevMemError } from './errors.js';
import { createMemory, MEMORY_OPTION_KEYS, type Memory, type MemoryOptions } from './memory.js';
import { createMemoryStorage } from './plane/store/memory-storage.js';
import { checkNamespaceName } from './plane/store/names.js';
import { createSqliteFileStorage } from './plane/store/sqlite-file-storage.js';
import { createNodeAssetLoader } from './encoder/assets-node.js';
import { createLocalSystemOne } from './system-one/local.js';
import type { SystemOneBackend } from './system-one/wire.js';
import { createSystemOneFromName, type SystemOneName } from './system-one/from-name.js';
import { expandHomePath } from './util/home-path.js';

/** Options of {@link createNodeMemory}: those of `createMemory`, with Node defaults. */
export interface NodeMemoryOptions extends Omit<MemoryOptions, 'encoder' | 'storage' | 'systemOne'> {
  /**
   * Directory of the store; created when missing unless `create` is false. A leading `~` or `~/`
   * is the home directory (`os.homedir()`), as in a shell. Omit it for an in-memory store.
   */
  store?: string;
  /** Create the store directory when missing. @default true */
  create?: boolean;
  /** Encoder. @default the shipped GloVe-SIF encoder (`models/glove-sif-100d`) */
  encoder?: Encoder;
  /** Storage adapter (overrides `store`). */
  storage?: MemoryOptions['storage'];
  /**
   * System-One backend, or the name of one (`'local'`, `'worker'`, `'heuristic'`, `'remote'`, as
   * the CLI's `--system-one`; `'remote'` reads `JEV_MEM_SYSTEM_ONE_URL`/`_KEY` from the
   * environment). A default or named backend is made and closed by this memory.
   * @default the shipped trained model in process (`createLocalSystemOne`, engine `'ts'`, read
   *   from the package's `models/system-one/`), with its calibrated parameters
   */
  systemOne?: SystemOneBackend | SystemOneName;
}

/** The keys {@link NodeMemoryOptions} accepts. */
const NODE_OPTION_KEYS: readonly string[] = [...MEMORY_OPTION_KEYS, 'store', 'create'];

/**
 * Checks the options only this entry reads (the rest are createMemory's).
 * @throws JevMemError `INVALID_OPTION` naming the option: not an object, an unknown key, `store`
 *   not a non-empty string, `create` not a boolean.
 */
function checkNodeOptions(options: unknown): void {
  if (options === null || typeof options !== 'object') throw invalidOption('options', `expected an object, got ${describeValue(options)}`);
  rejectUnknownKeys(options, NODE_OPTION_KEYS, '');
  const { store, create } = options as { store?: unknown; create?: unknown };
  if (store !== undefined && (typeof store !== 'string' || store.trim() === '')) throw invalidOption('store', `expected the path of a store directory (a non-empty string), got ${describeValue(store)}`);
  if (create !== undefined && typeof create !== 'boolean') throw invalidOption('create', `expected true or false, got ${describeValue(create)}`);
}

/**
 * Opens the SQLite store of `createNodeMemory({ store })`. The storage adapter names its
 * directory option `dir`; this call's option is `store`, so its errors name `store`
 * (`option store: /etc/passwd is a file, not a directory; …`, field `store`).
 * @throws what `createSqliteFileStorage` throws, `INVALID_OPTION` naming `store` for `dir`.
 */
async function openStore(store: string, create: boolean, logger: MemoryOptions['logger']): Promise<NonNullable<MemoryOptions['storage']>> {
  try {
    return await createSqliteFileStorage({ dir: store, create, ...(logger !== undefined ? { logger } : {}) });
  } catch (e) {
    if (!isJevMemError(e, 'INVALID_OPTION') || e.details.field !== 'dir' || !e.message.startsWith('option dir: ')) throw e;
    throw new JevMemError('INVALID_OPTION', `option store: ${e.message.slice('option dir: '.length)}`, { ...e.details, field: 'store', cause: e });
  }
}

/**
 * Creates a memory with Node defaults.
 * @throws JevMemError `STORE_MISSING` (store dir missing and `create: false`), `MODEL_LOAD_FAILED`
 *   (shipped model files missing or corrupt), `INVALID_OPTION` (an unknown option, `store` not a
 *   non-empty string or naming a file or a non-empty directory that holds no store — field
 *   `store`, `details.path` —, `create` not a boolean), `INVALID_INPUT` (field `namespace`: a name the
 *   namespace rule of plane/store/names.ts refuses, checked first) and createMemory's `INVALID_OPTION`. A store folder
 *   made by a call that throws is removed again.
 */
export async function createNodeMemory(options: NodeMemoryOptions = {}): Promise<Memory> {
  checkNodeOptions(options);
  // A bad name fails before any store, model or encoder is opened.
  if (options.namespace !== undefined) checkNamespaceName(options.namespace, 'namespace');
  const { store: written, create, encoder, storage, ...rest } = options;
  // `~` and `~/…` name the home directory, as in a shell (util/home-path.ts).
  const store = written === undefined ? undefined : expandHomePath(written);
  // A store folder this call makes is removed again if the memory cannot be made: a rejected call
  // leaves no empty store behind (and no lock file that a later open would have to take over).
  const madeDir = storage === undefined && store !== undefined && !existsSync(store);
  let chosenStorage: MemoryOptions['storage'] | undefined = storage;
  let ownEncoder: Encoder | undefined;
  let ownSystemOne: SystemOneBackend | undefined;
  let memory: Memory;
  try {
    chosenStorage ??= store !== undefined ? await openStore(store, create ?? true, rest.logger) : createMemoryStorage();
    ownEncoder = encoder === undefined ? await createDefaultNodeEncoder() : undefined;
    const named = rest.systemOne;
    ownSystemOne =
      named === undefined ? await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' }) : typeof named === 'string' ? await createSystemOneFromName(named, { env: process.env }) : undefined;
    memory = await createMemory({ ...rest, storage: chosenStorage, encoder: encoder ?? (ownEncoder as Encoder), systemOne: ownSystemOne ?? (named as SystemOneBackend) });
  } catch (e) {
    await ownEncoder?.close?.();
    await ownSystemOne?.close?.();
    if (chosenStorage !== storage) await chosenStorage?.close().catch(() => undefined);
    // Best effort: a path that could not be made (a part of it a file: ENOTDIR) must not hide the store's error.
    if (madeDir && store !== undefined) await rm(store, { recursive: true, force: true }).catch(() => undefined);
    throw e;
  }
  if (ownEncoder === undefined && ownSystemOne === undefined) return memory;
  // The encoder and System One made here belong to this memory: close them with it.
  const close = memory.close.bind(memory);
  const ownedEncoder = ownEncoder;
  const ownedSystemOne = ownSystemOne;
  return Object.assign(memory, {
    close: async () => {
      await close();
      await ownedEncoder?.close?.();
      await ownedSystemOne?.close?.();
    },
  });
}

export { createSqliteFileStorage } from './plane/store/sqlite-file-storage.js';
export type { SqliteFileStorageOptions } from './plane/store/sqlite-file-storage.js';
export { createNodeAssetLoader } from './encoder/assets-node.js';
export { createDefaultNodeEncoder } from './encoder/default-node.js';
export { createWorkerSystemOne } from './system-one/worker-backend.js';
export type { WorkerSystemOne, WorkerSystemOneOptions } from './system-one/worker-backend.js';
export * from './index.js';
