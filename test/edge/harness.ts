/**
 * Builds the edge Worker with wrangler (`wrangler deploy --dry-run --outdir`, the same bundling
 * as `wrangler deploy`, no network, no account) and runs the bundle in workerd through
 * Miniflare on 127.0.0.1 (a free port). Used by the workerd suites and the load check.
 *
 * A build takes wrangler 10-15 s and every workerd suite needs one: {@link buildEdgeBundle}
 * builds each configuration once and shares it, between the test files of a run (each in its own
 * process) and between runs, for as long as none of its inputs changed (see {@link sharedBundle}).
 */
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Log, LogLevel, Miniflare } from 'miniflare';

/** The repository root. */
export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
/** The test configuration (worker under test + storage probe). */
export const TEST_CONFIG = join(ROOT, 'test/edge/wrangler.toml');
/** The example configuration users deploy. */
export const EXAMPLE_CONFIG = join(ROOT, 'examples/edge/wrangler.toml');
/** Must match `compatibility_date` of both configurations. */
export const COMPATIBILITY_DATE = '2026-04-01';

/** One module of the bundle, as workerd loads it. */
export interface BundleModule {
  type: 'ESModule' | 'Data' | 'Text';
  path: string;
  bytes: number;
  /** gzip -9 size, bytes. */
  gzipBytes: number;
}

/** A built bundle. */
export interface EdgeBundle {
  dir: string;
  /** The main module first. */
  modules: BundleModule[];
  /** wrangler's own report ("Total Upload: X KiB / gzip: Y KiB"), KiB. */
  wrangler: { uploadKiB: number; gzipKiB: number } | undefined;
  /** wrangler's output. */
  log: string;
  /** The source files esbuild bundled (paths as in its metafile, relative to the config's folder). */
  inputs: string[];
  remove(): void;
}

/**
 * The bundle of `config`, built by wrangler at most once while its inputs are unchanged, and
 * shared: the workerd suites each ask for it, and only the first builds (the others wait for it).
 * Its `remove()` keeps the shared folder. Use {@link buildFreshEdgeBundle} for a private build.
 */
export function buildEdgeBundle(config = TEST_CONFIG): EdgeBundle {
  return sharedBundle(config, buildFreshEdgeBundle, {
    extraInputs: [config, join(ROOT, 'node_modules/wrangler/package.json'), ...filesUnder(join(ROOT, 'models'))],
  });
}

/** Runs `wrangler deploy --dry-run` for `config` into `dir` (default: a fresh temporary folder). */
export function buildFreshEdgeBundle(config = TEST_CONFIG, dir = mkdtempSync(join(tmpdir(), 'jev-mem-edge-'))): EdgeBundle {
  mkdirSync(dir, { recursive: true });
  const metafile = join(dir, 'bundle-meta.json');
  const args = [join(ROOT, 'node_modules/wrangler/bin/wrangler.js'), 'deploy', '--dry-run', '--outdir', dir, '--metafile', metafile, '-c', config];
  const run = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', WRANGLER_HIDE_BANNER: 'true', CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' },
    timeout: 120_000,
  });
  const log = `${run.stdout ?? ''}${run.stderr ?? ''}`;
  if (run.status !== 0) throw new Error(`wrangler build failed (${run.status ?? run.signal}):\n${log}`);
  const m = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(log);
  const inputs = Object.keys((JSON.parse(readFileSync(metafile, 'utf8')) as { inputs: Record<string, unknown> }).inputs);
  const files = readdirSync(dir).filter((f) => !f.endsWith('.map') && f !== 'README.md' && f !== 'bundle-meta.json');
  const main = files.find((f) => f.endsWith('.js'));
  if (main === undefined) throw new Error(`wrangler wrote no .js module into ${dir}:\n${log}`);
  const modules: BundleModule[] = [main, ...files.filter((f) => f !== main)].map((f) => {
    const path = join(dir, f);
    return {
      type: f.endsWith('.js') ? 'ESModule' : f.endsWith('.txt') ? 'Text' : 'Data',
      path,
      bytes: statSync(path).size,
      gzipBytes: gzipSync(readFileSync(path), { level: 9 }).length,
    };
  });
  return {
    dir,
    modules,
    wrangler: m ? { uploadKiB: Number(m[1]), gzipKiB: Number(m[2]) } : undefined,
    log,
    inputs,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Every file under `dir`, sorted (none when it is missing). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** What {@link sharedBundle} keeps beside a built bundle (`meta.json`). */
interface CachedMeta {
  /** sha256 of the inputs' contents, in order (see `fingerprint`). */
  fingerprint: string;
  /** The absolute paths hashed: the bundle's esbuild inputs, then the extra inputs. */
  hashed: string[];
  modules: Array<Omit<BundleModule, 'path'> & { name: string }>;
  wrangler: EdgeBundle['wrangler'];
  log: string;
  inputs: string[];
}

/** sha256 over each file's path and contents; undefined when one of them is gone. */
function fingerprint(paths: readonly string[]): string | undefined {
  const h = createHash('sha256');
  for (const p of paths) {
    if (!existsSync(p)) return undefined;
    h.update(`${p}\0`).update(readFileSync(p)).update('\0');
  }
  return h.digest('hex');
}

/** Blocks this thread for `ms` milliseconds (the test files wait for another's build). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Whether process `pid` still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock folder `lock` (waiting for a live holder, up to `waitMs`); returns its release. */
function takeLock(lock: string, waitMs: number): () => void {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
      return () => rmSync(lock, { recursive: true, force: true });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder = Number.NaN;
    try {
      holder = Number(readFileSync(join(lock, 'pid'), 'utf8'));
    } catch {
      // made but its pid not written yet: wait
    }
    if (Number.isInteger(holder) && !alive(holder)) rmSync(lock, { recursive: true, force: true });
    else if (Date.now() > deadline) throw new Error(`edge bundle: ${lock} still held by process ${holder} after ${waitMs} ms`);
    else sleepSync(200);
  }
}

/** Options of {@link sharedBundle}. */
export interface SharedBundleOptions {
  /** Files the build reads that its esbuild metafile does not list (the configuration, data modules). */
  extraInputs?: readonly string[];
  /** Folder of the shared bundles. @default `<tmpdir>/jev-mem-edge-bundles` */
  cacheRoot?: string;
  /** How long to wait for another process's build, ms. @default 300000 */
  waitMs?: number;
}

/**
 * The bundle `build(config, dir)` makes, built once and kept in `<cacheRoot>/<hash of config's
 * path>/` with a fingerprint of every file it was made from (the bundle's esbuild inputs,
 * resolved against the configuration's folder, and `extraInputs`). A later call, from this or
 * another process, reuses it while the fingerprint matches, and otherwise rebuilds; concurrent
 * calls build once (a lock folder; a dead holder's lock is taken over). The returned bundle's
 * `remove()` does nothing (the next build of a changed input replaces the folder).
 * @throws Error when `build` throws, or another live process holds the lock past `waitMs`.
 */
export function sharedBundle(config: string, build: (config: string, dir: string) => EdgeBundle, options: SharedBundleOptions = {}): EdgeBundle {
  const root = options.cacheRoot ?? join(tmpdir(), 'jev-mem-edge-bundles');
  const slot = join(root, createHash('sha256').update(resolve(config)).digest('hex').slice(0, 16));
  const extra = (options.extraInputs ?? []).map((p) => resolve(p));
  mkdirSync(root, { recursive: true });
  const release = takeLock(`${slot}.lock`, options.waitMs ?? 300_000);
  try {
    const metaPath = join(slot, 'meta.json');
    let meta: CachedMeta | undefined;
    try {
      meta = JSON.parse(readFileSync(metaPath, 'utf8')) as CachedMeta;
    } catch {
      meta = undefined;
    }
    if (meta === undefined || fingerprint(meta.hashed) !== meta.fingerprint) {
      rmSync(slot, { recursive: true, force: true });
      mkdirSync(slot, { recursive: true });
      const built = build(config, join(slot, 'bundle'));
      const hashed = [...built.inputs.map((p) => resolve(dirname(config), p)), ...extra];
      meta = {
        fingerprint: fingerprint(hashed) ?? '',
        hashed,
        modules: built.modules.map(({ path, ...m }) => ({ ...m, name: path.slice(built.dir.length + 1) })),
        wrangler: built.wrangler,
        log: built.log,
        inputs: built.inputs,
      };
      writeFileSync(`${metaPath}.tmp`, JSON.stringify(meta));
      renameSync(`${metaPath}.tmp`, metaPath);
    }
    const dir = join(slot, 'bundle');
    const { modules, wrangler, log, inputs } = meta;
    return { dir, modules: modules.map(({ name, ...m }) => ({ ...m, path: join(dir, name) })), wrangler, log, inputs, remove: () => undefined };
  } finally {
    release();
  }
}

/** A Worker running in workerd. */
export interface RunningEdge {
  /** `http://127.0.0.1:<port>/`. */
  url: URL;
  mf: Miniflare;
  dispose(): Promise<void>;
}

/** Options of {@link startEdge}. */
export interface StartOptions {
  /** Worker vars and secrets. */
  bindings?: Record<string, string>;
  /** Folder that keeps Durable Object storage across restarts. @default none (in memory) */
  persistDir?: string;
}

/** Starts `bundle` in workerd, serving HTTP on 127.0.0.1. */
export async function startEdge(bundle: EdgeBundle, options: StartOptions = {}): Promise<RunningEdge> {
  const hasProbe = readFileSync(bundle.modules[0]!.path, 'utf8').includes('StorageProbe');
  const mf = new Miniflare({
    modulesRoot: bundle.dir,
    modules: bundle.modules.map((m) => ({ type: m.type, path: m.path })),
    compatibilityDate: COMPATIBILITY_DATE,
    durableObjects: {
      JEV_MEM: { className: 'JevMemObject', useSQLite: true },
      ...(hasProbe ? { STORAGE_PROBE: { className: 'StorageProbe', useSQLite: true } } : {}),
    },
    bindings: options.bindings ?? {},
    durableObjectsPersist: options.persistDir ?? false,
    host: '127.0.0.1',
    port: 0,
    cf: false,
    // JEV_MEM_EDGE_LOG=1 shows workerd's own log (worker console output, runtime errors).
    ...(process.env.JEV_MEM_EDGE_LOG ? { log: new Log(LogLevel.DEBUG) } : {}),
  });
  const url = await mf.ready;
  return { url, mf, dispose: () => mf.dispose() };
}

/**
 * One HTTP request to the running Worker with a JSON body and an optional bearer token, on a
 * fresh connection (node:http, no keep-alive): a pooled socket that the server closed while this
 * process was busy (the Node build's synchronous work) would fail with "other side closed".
 */
export function call(
  edge: RunningEdge,
  method: string,
  path: string,
  options: { token?: string | undefined; body?: unknown; rawBody?: string | Uint8Array; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  if (body !== undefined) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(new URL(path, edge.url), { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const h = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolvePromise({ status: res.statusCode ?? 0, headers: h, text, json });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
