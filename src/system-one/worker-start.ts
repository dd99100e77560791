/**
 * Starting the System-One worker on each platform (worker-backend.ts): a module `Worker` in
 * browsers, `worker_threads` through comlink's node adapter in Node (a `.ts` entry through a
 * bootstrap that registers tsx's loader first), and where the Node entry and models are found.
 *
 * @module
 */
import type * as Comlink from 'comlink';
import { JevMemError } from '../errors.js';

/** Imports a Node built-in without letting browser or edge bundlers try to resolve it. */
function importNode<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}

/** True when running in Node (`process.versions.node` set and `process.release.name` is `node`). */
export function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string }; release?: { name?: string } } }).process;
  return p?.versions?.node !== undefined && p.release?.name === 'node';
}

/** A started worker: its comlink endpoint, how to stop it, and how it reports death. */
export interface Started {
  endpoint: Comlink.Endpoint;
  terminate(): void;
  /** Registers the crash callback (called at most once). */
  onDeath(cb: (reason: string) => void): void;
}

async function exists(url: URL): Promise<boolean> {
  const { access } = await importNode<typeof import('node:fs/promises')>('node:fs/promises');
  return access(url).then(() => true, () => false);
}

/** The package's Node worker entry: `worker/system-one.node.js`, or its `.ts` source when not built. */
export async function defaultNodeWorkerURL(): Promise<URL> {
  // Not a literal `new URL('…', import.meta.url)`: browser bundlers must not emit the Node entry.
  const entry = '../../worker/system-one.node';
  const js = new URL(entry + '.js', import.meta.url);
  if (await exists(js)) return js;
  return new URL(entry + '.ts', import.meta.url);
}

/**
 * The package's `models/` directory (next to `src/` or `dist/src/`).
 * @throws JevMemError `MODEL_LOAD_FAILED` when no System-One manifest is found there.
 */
export async function defaultNodeModelBase(): Promise<string> {
  for (const rel of ['../../models/', '../../../models/']) {
    const base = new URL(rel, import.meta.url);
    if (await exists(new URL('system-one/manifest.json', base))) return base.href;
  }
  throw new JevMemError('MODEL_LOAD_FAILED', `the System-One model (models/system-one/manifest.json) is not found near ${import.meta.url}; set option modelBaseURL`);
}

/** Starts the Node worker of entry `url` (a `.ts` entry through tsx). */
export async function startNodeWorker(url: URL): Promise<Started> {
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
  return startedWorker(nodeEndpoint(worker), () => void worker.terminate(), (die) => {
    worker.on('error', (e) => die(`the worker threw ${e instanceof Error ? e.message : String(e)}`));
    worker.on('exit', (code) => die(`the worker exited with code ${code}`));
    worker.on('messageerror', () => die('a message could not be deserialised'));
  });
}

/** Starts the browser worker: `create()`, else a module worker of `url`, else the package's entry. */
export function startBrowserWorker(url: URL | undefined, create: (() => Worker) | undefined): Started {
  // The literal `new Worker(new URL(...), {type: 'module'})` lets bundlers find and ship the entry.
  const worker = create !== undefined
    ? create()
    : url === undefined
      ? new Worker(new URL('../../worker/system-one.worker.js', import.meta.url), { type: 'module' })
      : new Worker(url, { type: 'module' });
  return startedWorker(worker, () => worker.terminate(), (die) => {
    worker.addEventListener('error', (e) => die(`the worker threw ${(e as ErrorEvent).message ?? 'an error'}`));
    worker.addEventListener('messageerror', () => die('a message could not be deserialised'));
  });
}

/**
 * A started worker whose death is reported once: `watch(die)` hooks the worker's events to
 * `die(reason)`, which calls the callback given to `onDeath`; after `terminate()` (a stop, not a
 * crash) nothing is reported.
 */
function startedWorker(endpoint: Comlink.Endpoint, terminate: () => void, watch: (die: (reason: string) => void) => void): Started {
  let dead: ((reason: string) => void) | undefined;
  let reported = false;
  watch((reason) => {
    if (reported) return;
    reported = true;
    dead?.(reason);
  });
  return {
    endpoint,
    terminate: () => {
      reported = true;
      terminate();
    },
    onDeath: (cb) => {
      dead = cb;
    },
  };
}
