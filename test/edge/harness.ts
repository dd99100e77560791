/**
 * Builds the edge Worker with wrangler (`wrangler deploy --dry-run --outdir`, the same bundling
 * as `wrangler deploy`, no network, no account) and runs the bundle in workerd through
 * Miniflare on 127.0.0.1 (a free port). Used by the workerd suites and the load check.
 */
import { spawnSync } from 'node:child_process';
import { request as httpRequest } from 'node:http';
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
