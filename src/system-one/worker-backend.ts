/**
 * The local System One in a dedicated worker (SPEC 2, 9): `worker/system-one.worker.ts` hosts
 * {@link createLocalSystemOne} and is driven through comlink, so model runs never block the
 * page. Browsers use a module `Worker`; Node uses `worker_threads` through comlink's node
 * adapter (a `.ts` worker entry, as under vitest or tsx, is started through a bootstrap that
 * registers tsx's loader in the worker first).
 *
 * One round trip per call: `decide(r)` and `decideMany(rs)` each post exactly one message.
 *
 * Failure policy:
 * - Start: `createWorkerSystemOne` rejects with `MODEL_LOAD_FAILED` when the worker cannot load
 *   its script or the model (the worker's own `JevMemError` code is kept).
 * - Crash (the worker errors or exits while running): every pending call rejects at once with
 *   `SYSTEM_ONE_FAILED` (none hangs). The next call starts a fresh worker, once per crash, at
 *   most `maxRestarts` times over the backend's life; a restart that fails, or a crash after the
 *   budget is spent, leaves the backend failed: later calls reject with `SYSTEM_ONE_FAILED`
 *   without trying again. The controller then answers from its fallback.
 * - `signal` rejects the call with `ABORTED`; `deadlineMs` (ms from the call) rejects it with
 *   `SYSTEM_ONE_FAILED`; in both cases the worker finishes the run and its answer is dropped.
 * - `close()` terminates the worker; pending calls and later calls reject with `CLOSED`.
 *
 * @module
 */
import * as Comlink from 'comlink';
import { JevMemError, describeValue, isJevMemError, type JevMemErrorCode } from '../errors.js';
import type { LocalSystemOneOptions } from './local.js';
import type { SystemOneBackend, SystemOneRequest, SystemOneResponse } from './wire.js';

/** Imports a Node built-in without letting browser or edge bundlers try to resolve it. */
function importNode<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}

/**
 * Options the worker needs to load the model (structured-cloneable): those of
 * `createLocalSystemOne` (same meanings and defaults), with a URL instead of an asset loader.
 */
export interface WorkerInitOptions extends Pick<LocalSystemOneOptions, 'engine' | 'executionProviders' | 'wasmPaths' | 'numThreads' | 'verify' | 'modelDir'> {
  /** Base URL of the `models/` directory (`file:` in Node, http(s) in browsers), ending in `/`. */
  modelBaseURL: string;
  /** URLs of single model files by path under `models/` (bundled assets); used before `modelBaseURL`. */
  modelFiles?: Record<string, string>;
}

/** What the worker reports after loading. */
export interface WorkerInfo {
  modelId: string;
  engine: 'onnx' | 'ts';
  executionProviders: string[];
  /** Calibrated memory parameters of the loaded model (see `calibratedParameters`). */
  parameters?: Record<string, unknown>;
}

/** The API the worker exposes through comlink (implemented by worker/system-one.worker.ts). */
export interface SystemOneWorkerApi {
  /**
   * Loads the model. @throws JevMemError `MODEL_LOAD_FAILED` (code kept across the boundary).
   */
  init(options: WorkerInitOptions): Promise<WorkerInfo>;
  /** Answers a batch in one model pass per head group. */
  decideMany(requests: SystemOneRequest[]): Promise<SystemOneResponse[]>;
  /** Drops the worker backend's cached cues of `texts`, or all when undefined (issue 22). */
  evict(texts: readonly string[] | undefined): void;
  /** Releases the model. */
  close(): Promise<void>;
  /** Test hook: makes the worker die at once (simulates a crash). */
  crashForTest(): void;
}

/** Options of {@link createWorkerSystemOne}. */
export interface WorkerSystemOneOptions {
  /**
   * Base URL of the `models/` directory.
   * @default Node: the package's `models/` directory; browsers: required unless `modelFiles` is given
   */
  modelBaseURL?: string | URL;
  /**
   * URLs of single model files by path under `models/` (e.g. `system-one/manifest.json`), as a
   * bundler emitted them; used before `modelBaseURL`.
   */
  modelFiles?: Readonly<Record<string, string | URL>>;
  /** @default 'ts' (see createLocalSystemOne) */
  engine?: 'onnx' | 'ts';
  /** @default see createLocalSystemOne */
  executionProviders?: Array<'webgpu' | 'wasm'>;
  /** @default see createLocalSystemOne */
  wasmPaths?: string;
  /** @default 1 in Node */
  numThreads?: number;
  /** Check model checksums. @default true */
  verify?: boolean;
  /** @default 'system-one' */
  modelDir?: string;
  /**
   * URL of the worker entry.
   * @default browsers: the package's `worker/system-one.worker.js` (TypeScript kernels); Node:
   *   `worker/system-one.node.js` (falls back to the `.ts` source)
   */
  workerURL?: string | URL;
  /**
   * Browsers: starts the worker (e.g. `jev-mem/browser/onnx`'s, which bundles onnxruntime-web).
   * Takes precedence over `workerURL`.
   */
  createWorker?: () => Worker;
  /**
   * Fresh workers allowed after crashes over the backend's life.
   * @default 3
   */
  maxRestarts?: number;
  /** Diagnostics hook: called with every message posted to the worker (tests count them). */
  onPost?: (message: unknown) => void;
}

/** A worker-hosted backend. */
export interface WorkerSystemOne extends SystemOneBackend {
  readonly kind: 'local-worker';
  /** Engine and providers the current worker reported. */
  readonly info: WorkerInfo;
  /** Workers started so far (1 + restarts). */
  readonly starts: number;
  /** Test hook: asks the worker to die (see {@link SystemOneWorkerApi.crashForTest}). */
  crashForTest(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// Error transfer
// ---------------------------------------------------------------------------------------------

interface SerializedThrow {
  isError: boolean;
  value: unknown;
  jevMemError?: { code: JevMemErrorCode; message: string; field?: string; status?: number };
}

let registered = false;

/**
 * Makes `JevMemError`s thrown across comlink keep their class, `code`, `field` and `status`
 * (comlink's own handler keeps only message and stack). Call on both sides of the worker
 * boundary; idempotent.
 */
export function registerJevMemErrorTransfer(): void {
  if (registered) return;
  registered = true;
  const base = Comlink.transferHandlers.get('throw') as Comlink.TransferHandler<{ value: unknown }, SerializedThrow>;
  Comlink.transferHandlers.set('throw', {
    canHandle: (v: unknown): v is { value: unknown } => base.canHandle(v),
    serialize(thrown: { value: unknown }) {
      if (thrown.value instanceof JevMemError) {
        return [{ isError: true, value: { message: thrown.value.message, name: 'JevMemError' }, jevMemError: thrown.value.toJSON() }, []];
      }
      return base.serialize(thrown);
    },
    deserialize(s: SerializedThrow) {
      if (s.jevMemError !== undefined) throw JevMemError.fromJSON(s.jevMemError);
      return base.deserialize(s);
    },
  } satisfies Comlink.TransferHandler<{ value: unknown }, SerializedThrow>);
}

// ---------------------------------------------------------------------------------------------
// Worker start (platform specific)
// ---------------------------------------------------------------------------------------------

function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string }; release?: { name?: string } } }).process;
  return p?.versions?.node !== undefined && p.release?.name === 'node';
}

/** A started worker: its comlink endpoint, how to stop it, and how it reports death. */
interface Started {
  endpoint: Comlink.Endpoint;
  terminate(): void;
  /** Registers the crash callback (called at most once). */
  onDeath(cb: (reason: string) => void): void;
}

async function exists(url: URL): Promise<boolean> {
  const { access } = await importNode<typeof import('node:fs/promises')>('node:fs/promises');
  return access(url).then(() => true, () => false);
}

async function defaultNodeWorkerURL(): Promise<URL> {
  // Not a literal `new URL('…', import.meta.url)`: browser bundlers must not emit the Node entry.
  const entry = '../../worker/system-one.node';
  const js = new URL(entry + '.js', import.meta.url);
  if (await exists(js)) return js;
  return new URL(entry + '.ts', import.meta.url);
}

async function defaultNodeModelBase(): Promise<string> {
  for (const rel of ['../../models/', '../../../models/']) {
    const base = new URL(rel, import.meta.url);
    if (await exists(new URL('system-one/manifest.json', base))) return base.href;
  }
  throw new JevMemError('MODEL_LOAD_FAILED', `the System-One model (models/system-one/manifest.json) is not found near ${import.meta.url}; set option modelBaseURL`);
}

async function startNodeWorker(url: URL): Promise<Started> {
  const { Worker } = await importNode<typeof import('node:worker_threads')>('node:worker_threads');
  const { default: nodeEndpoint } = (await import('comlink/dist/esm/node-adapter.mjs' as string)) as {
    default: (nep: import('node:worker_threads').Worker) => Comlink.Endpoint;
  };
  let worker: import('node:worker_threads').Worker;
  if (url.pathname.endsWith('.ts')) {
    // A TypeScript entry (tests, tsx): Node 20 ignores `--import tsx` in a worker's execArgv, so
    // a one-line bootstrap registers tsx's loader in the worker, then imports the entry.
    const { createRequire } = await importNode<typeof import('node:module')>('node:module');
    const { pathToFileURL } = await importNode<typeof import('node:url')>('node:url');
    const { readFile } = await importNode<typeof import('node:fs/promises')>('node:fs/promises');
    const tsxPackage = pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'));
    const exportsMap = (JSON.parse(await readFile(tsxPackage, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
    const tsxApi = new URL(exportsMap['./esm/api']?.import.default ?? './dist/esm/api/index.mjs', tsxPackage).href;
    const bootstrap = `import(${JSON.stringify(tsxApi)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })`;
    worker = new Worker(bootstrap, { eval: true });
  } else {
    worker = new Worker(url);
  }
  let dead: ((reason: string) => void) | undefined;
  let reported = false;
  const die = (reason: string): void => {
    if (reported) return;
    reported = true;
    dead?.(reason);
  };
  worker.on('error', (e) => die(`the worker threw ${e instanceof Error ? e.message : String(e)}`));
  worker.on('exit', (code) => die(`the worker exited with code ${code}`));
  worker.on('messageerror', () => die('a message could not be deserialised'));
  return {
    endpoint: nodeEndpoint(worker),
    terminate: () => {
      reported = true;
      void worker.terminate();
    },
    onDeath: (cb) => {
      dead = cb;
    },
  };
}

function startBrowserWorker(url: URL | undefined, create: (() => Worker) | undefined): Started {
  // The literal `new Worker(new URL(...), {type: 'module'})` lets bundlers find and ship the entry.
  const worker = create !== undefined
    ? create()
    : url === undefined
      ? new Worker(new URL('../../worker/system-one.worker.js', import.meta.url), { type: 'module' })
      : new Worker(url, { type: 'module' });
  let dead: ((reason: string) => void) | undefined;
  let reported = false;
  const die = (reason: string): void => {
    if (reported) return;
    reported = true;
    dead?.(reason);
  };
  worker.addEventListener('error', (e) => die(`the worker threw ${(e as ErrorEvent).message ?? 'an error'}`));
  worker.addEventListener('messageerror', () => die('a message could not be deserialised'));
  return {
    endpoint: worker,
    terminate: () => {
      reported = true;
      worker.terminate();
    },
    onDeath: (cb) => {
      dead = cb;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Backend
// ---------------------------------------------------------------------------------------------

const failed = (message: string, cause?: unknown): JevMemError =>
  new JevMemError('SYSTEM_ONE_FAILED', `System-One worker: ${message}`, cause === undefined ? {} : { cause });

/** One live worker with its pending calls. */
interface Generation {
  started: Started;
  remote: Comlink.Remote<SystemOneWorkerApi>;
  pending: Set<(e: JevMemError) => void>;
  dead: boolean;
}

/**
 * Starts the worker, loads the model in it and returns the backend: kind `'local-worker'`,
 * model id as reported by the worker (`jev-mem/system-one@<version>`). See the module notes for
 * the failure policy.
 *
 * @throws JevMemError `MODEL_LOAD_FAILED` when the worker or the model cannot be loaded,
 *   `INVALID_OPTION` when `modelBaseURL` is missing outside Node or an option is malformed.
 */
export async function createWorkerSystemOne(options: WorkerSystemOneOptions = {}): Promise<WorkerSystemOne> {
  registerJevMemErrorTransfer();
  const node = isNode();
  const maxRestarts = options.maxRestarts ?? 3;
  if (!Number.isInteger(maxRestarts) || maxRestarts < 0) {
    throw new JevMemError('INVALID_OPTION', `option maxRestarts: expected an integer ≥ 0, got ${describeValue(options.maxRestarts)}`, { field: 'maxRestarts' });
  }
  let modelBaseURL: string;
  if (options.modelBaseURL !== undefined) modelBaseURL = new URL(String(options.modelBaseURL), node ? undefined : globalThis.location?.href).href;
  else if (node) modelBaseURL = await defaultNodeModelBase();
  else if (options.modelFiles !== undefined) modelBaseURL = globalThis.location.href;
  else throw new JevMemError('INVALID_OPTION', 'option modelBaseURL: required in browsers (the URL your app serves models/ from) unless modelFiles is given', { field: 'modelBaseURL' });

  const init: WorkerInitOptions = { modelBaseURL };
  if (options.modelFiles !== undefined) init.modelFiles = Object.fromEntries(Object.entries(options.modelFiles).map(([k, v]) => [k, new URL(String(v), node ? undefined : globalThis.location?.href).href]));
  if (options.engine !== undefined) init.engine = options.engine;
  if (options.executionProviders !== undefined) init.executionProviders = [...options.executionProviders];
  if (options.wasmPaths !== undefined) init.wasmPaths = options.wasmPaths;
  if (options.numThreads !== undefined) init.numThreads = options.numThreads;
  if (options.verify !== undefined) init.verify = options.verify;
  if (options.modelDir !== undefined) init.modelDir = options.modelDir;
  const workerURL = options.workerURL === undefined ? undefined : new URL(String(options.workerURL), node ? undefined : globalThis.location?.href);

  let starts = 0;
  let info: WorkerInfo | undefined;
  let current: Generation | undefined;
  let restarting: Promise<Generation> | undefined;
  let failure: JevMemError | undefined;
  let closed = false;

  const observe = (endpoint: Comlink.Endpoint): Comlink.Endpoint => {
    const hook = options.onPost;
    if (hook === undefined) return endpoint;
    return {
      postMessage: (message: unknown, transfer?: Transferable[]) => {
        hook(message);
        endpoint.postMessage(message, transfer ?? []);
      },
      addEventListener: endpoint.addEventListener.bind(endpoint),
      removeEventListener: endpoint.removeEventListener.bind(endpoint),
      ...(endpoint.start ? { start: endpoint.start.bind(endpoint) } : {}),
    };
  };

  /** Runs `fn` against a generation; rejects when it dies, the signal fires or the deadline passes. */
  const call = <T>(gen: Generation, fn: (remote: Comlink.Remote<SystemOneWorkerApi>) => Promise<T>, opts?: { signal?: AbortSignal; deadlineMs?: number }): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      if (gen.dead) {
        reject(failed('the worker is not running'));
        return;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = (): void => settle(new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: opts?.signal?.reason }));
      const settle = (e: JevMemError | undefined, value?: T): void => {
        if (!gen.pending.delete(settle as (e: JevMemError) => void)) return;
        if (timer !== undefined) clearTimeout(timer);
        opts?.signal?.removeEventListener('abort', onAbort);
        if (e === undefined) resolve(value as T);
        else reject(e);
      };
      gen.pending.add(settle as (e: JevMemError) => void);
      if (opts?.signal !== undefined) {
        if (opts.signal.aborted) {
          onAbort();
          return;
        }
        opts.signal.addEventListener('abort', onAbort, { once: true });
      }
      if (opts?.deadlineMs !== undefined) {
        timer = setTimeout(() => settle(failed(`no answer within the deadline of ${opts.deadlineMs} ms`)), Math.max(0, opts.deadlineMs));
      }
      fn(gen.remote).then(
        (v) => settle(undefined, v),
        (e: unknown) => settle(isJevMemError(e) ? e : failed(`the call failed (${e instanceof Error ? e.message : String(e)})`, e)),
      );
    });

  const start = async (): Promise<Generation> => {
    starts++;
    let started: Started;
    try {
      started = node ? await startNodeWorker(workerURL ?? (await defaultNodeWorkerURL())) : startBrowserWorker(workerURL, options.createWorker);
    } catch (e) {
      throw new JevMemError('MODEL_LOAD_FAILED', `System-One worker: cannot start the worker (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    const gen: Generation = { started, remote: Comlink.wrap<SystemOneWorkerApi>(observe(started.endpoint)), pending: new Set(), dead: false };
    started.onDeath((reason) => {
      gen.dead = true;
      const error = failed(`the worker died: ${reason}`);
      for (const reject of [...gen.pending]) reject(error);
      gen.pending.clear();
    });
    try {
      info = await call(gen, (r) => r.init(init));
    } catch (e) {
      gen.dead = true;
      started.terminate();
      if (isJevMemError(e, 'MODEL_LOAD_FAILED')) throw e;
      throw new JevMemError('MODEL_LOAD_FAILED', `System-One worker: loading failed (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
    return gen;
  };

  /** The live generation, restarting after a crash within the budget. */
  const live = async (): Promise<Generation> => {
    if (closed) throw new JevMemError('CLOSED', 'System One backend local-worker was used after close()');
    if (failure !== undefined) throw failure;
    if (current !== undefined && !current.dead) return current;
    if (restarting === undefined) {
      if (starts - 1 >= maxRestarts) {
        failure = failed(`the worker crashed and the restart budget (${maxRestarts}) is spent`);
        throw failure;
      }
      current?.started.terminate();
      restarting = start().then(
        (gen) => {
          restarting = undefined;
          if (closed) {
            gen.dead = true;
            gen.started.terminate();
          } else {
            current = gen;
          }
          return gen;
        },
        (e: unknown) => {
          failure = failed(`restarting the worker failed (${e instanceof Error ? e.message : String(e)})`, e);
          restarting = undefined;
          throw e;
        },
      );
    }
    const gen = await restarting;
    if (closed) throw new JevMemError('CLOSED', 'System One backend local-worker was used after close()');
    return gen;
  };

  current = await start();
  const modelId = (info as WorkerInfo).modelId;

  const decideMany = async (requests: SystemOneRequest[], opts?: { signal?: AbortSignal; deadlineMs?: number }): Promise<SystemOneResponse[]> => {
    if (opts?.signal?.aborted) throw new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: opts.signal.reason });
    if (!Array.isArray(requests)) {
      throw new JevMemError('SYSTEM_ONE_INVALID_REQUEST', `requests: expected an array of requests, got ${typeof requests}`, { field: 'requests' });
    }
    const gen = await live();
    if (closed) throw new JevMemError('CLOSED', 'System One backend local-worker was closed while the call was pending');
    return call(gen, (r) => r.decideMany(requests), opts);
  };

  return {
    kind: 'local-worker',
    modelId,
    ...((info as WorkerInfo).parameters ? { parameters: (info as WorkerInfo).parameters } : {}),
    get info() {
      return info as WorkerInfo;
    },
    get starts() {
      return starts;
    },
    decideMany,
    // Erasure (issue 22): one message, not awaited; a worker that is gone has no cache to empty.
    evict(texts) {
      const gen = current;
      if (gen !== undefined && !gen.dead) void Promise.resolve(gen.remote.evict(texts === undefined ? undefined : [...texts])).catch(() => undefined);
    },
    async decide(request, opts) {
      const [res] = await decideMany([request], opts);
      return res as SystemOneResponse;
    },
    async crashForTest() {
      const gen = await live();
      gen.remote.crashForTest().catch(() => {});
    },
    async close() {
      if (closed) return;
      closed = true;
      const gen = current;
      current = undefined;
      if (gen !== undefined) {
        gen.dead = true;
        const error = new JevMemError('CLOSED', 'System One backend local-worker was closed while the call was pending');
        for (const reject of [...gen.pending]) reject(error);
        gen.pending.clear();
        gen.started.terminate();
      }
    },
  };
}
