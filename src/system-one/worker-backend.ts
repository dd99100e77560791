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
 * The contract with the worker (its API, init options, error transfer) is in worker-protocol.ts,
 * the start on each platform in worker-start.ts.
 *
 * @module
 */
import * as Comlink from 'comlink';
import { JevMemError, describeValue, isJevMemError } from '../errors.js';
import type { SystemOneBackend, SystemOneRequest, SystemOneResponse } from './wire.js';
import { registerJevMemErrorTransfer, type SystemOneWorkerApi, type WorkerInfo, type WorkerInitOptions } from './worker-protocol.js';
import { defaultNodeModelBase, defaultNodeWorkerURL, isNode, startBrowserWorker, startNodeWorker, type Started } from './worker-start.js';

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
