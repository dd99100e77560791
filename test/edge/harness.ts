/**
 * Builds the edge Worker with wrangler (`wrangler deploy --dry-run --outdir`, the same bundling
 * as `wrangler deploy`, no network, no account) and runs the bundle in workerd through
 * Miniflare on 127.0.0.1 (a free port). Used by the workerd suites and the load check.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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

/** Runs `wrangler deploy --dry-run` for `config` into a fresh temporary folder. */
export function buildEdgeBundle(config = TEST_CONFIG): EdgeBundle {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-edge-'));
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

/** `fetch` against the running Worker with a JSON body and an optional bearer token. */
export async function call(
  edge: RunningEdge,
  method: string,
  path: string,
  options: { token?: string | undefined; body?: unknown; rawBody?: string | Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  let body: string | Uint8Array<ArrayBuffer> | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(new URL(path, edge.url), { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}
