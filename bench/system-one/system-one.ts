/**
 * `npm run bench -- system-one`: how much System-One time the memory spends per write and per
 * query (issue 3), for each backend: the hand-set stand-in, the shipped model in process on
 * onnxruntime-web (WASM) and on the TypeScript kernels, and the shipped model in a worker thread
 * (comlink, onnxruntime-web WASM) — the Node counterpart of the browser's Web Worker. With
 * `--browser`, the same operations are replayed in headless Chromium too (a Web Worker through
 * comlink on onnxruntime-web WASM or the TypeScript kernels, and in the page itself), by the bench
 * page `bench/browser/system-one.html`.
 *
 * Recipe: the requests are the real ones. A memory with a recording backend (the shipped model,
 * with its calibrated read parameters) ingests a
 * conversation (LoCoMo conv-26 when the data is there, else the shipped sample) and recalls its
 * questions; every request is logged with the operation it belongs to (one write = its typing
 * request + its relation request at K_w = 10; one query = its routing, candidate-scoring and stop
 * requests). The logs are then replayed, operation by operation, through each backend with the
 * same batching the memory uses (typing of a chunk in one `decideMany`; every other request alone),
 * by {@link replaySystemOneOperations} — the one replay loop, run by Node and by the bench page.
 *
 * Recording and the Chromium driver are Node-only; {@link replaySystemOneOperations},
 * {@link renderSystemOneTable} and the types run anywhere (the bench page bundles this module and
 * uses only those; its Vite config silences the warnings about the Node built-ins left unused).
 *
 * @module
 */
import { CHROMIUM_ARGS } from '../lib/chromium.js';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { JevMemError } from '../../src/errors.js';
import { parseJsonl, parseQuestions } from '../../src/formats/jsonl.js';
import { locomoConversation, parseLocomo } from '../../src/formats/locomo.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { createWorkerSystemOne } from '../../src/system-one/worker-backend.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';
import { defaultLocomoPath, repoRoot } from '../lib/data.js';
import { percentile } from '../lib/metrics.js';

/** Imports a module by a computed name, so the bench page's bundler never follows it (Node-only code). */
function importNode<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}

/** One operation's requests, in the order the memory sent them (JSON-safe: it crosses into the page). */
export interface SystemOneOperation {
  kind: 'write' | 'query';
  /** Each inner array is one round trip (`decideMany`); a write's first trip is its typing request. */
  trips: SystemOneRequest[][];
}

/** The operations of one recorded run. */
export interface SystemOneRecording {
  /** What was ingested and asked (`LoCoMo conv-26` or the sample file). */
  source: string;
  /** Writes first (file order), then queries (question order). */
  ops: SystemOneOperation[];
  /** Number of write operations. */
  writes: number;
  /** Number of query operations. */
  queries: number;
}

/** Figures of one backend. */
export interface SystemOneBenchRow {
  /** Where it ran, e.g. `Node v20.20.2` or `Chromium 156.0.8078.108 (headless)`. */
  host: string;
  backend: string;
  model: string;
  /** Questions answered (catalogue questions summed over every request) in the timed pass. */
  decisions: number;
  /** Questions answered per second over the whole timed pass. */
  decisionsPerSecond: number;
  /** System-One ms per write (typing + relations at K_w = 10): mean, p50, p95. */
  writeMs: { mean: number; p50: number; p95: number };
  /** System-One ms per query (routing + scoring + stop): mean, p50, p95. */
  queryMs: { mean: number; p50: number; p95: number };
  /** Round trips per write / per query. */
  tripsPerWrite: number;
  tripsPerQuery: number;
  /** Model load / worker start, ms. */
  loadMs: number;
}

/** Options of {@link recordSystemOneOperations}. */
export interface RecordSystemOneOptions {
  /** Progress lines. */
  log: (line: string) => void;
  /**
   * LoCoMo file whose conv-26 is ingested; when it cannot be read, the shipped sample
   * conversation (examples/sample-conversation.jsonl and its questions) is used instead.
   * @default `<repo>/../shared/data/locomo10.json`
   */
  dataPath?: string;
}

/**
 * Logs the System-One operations of a real ingest + recall run (Node-only): one write at a time,
 * then every question recalled once. Recorded with the shipped model (TypeScript kernels) and its
 * calibrated read parameters, so the requests have the sizes a real run sends (e.g. 60 anchors
 * scored in one request).
 * @throws JevMemError `MODEL_LOAD_FAILED` when the shipped encoder or model cannot be loaded.
 */
export async function recordSystemOneOperations(o: RecordSystemOneOptions): Promise<SystemOneRecording> {
  const encoder = await createDefaultNodeEncoder();
  const inner = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
  let current: SystemOneOperation | undefined;
  const ops: SystemOneOperation[] = [];
  const recorder: SystemOneBackend = {
    kind: inner.kind,
    modelId: inner.modelId,
    ...(inner.parameters ? { parameters: inner.parameters } : {}),
    decide: (r, opts) => {
      current?.trips.push([r]);
      return inner.decide(r, opts);
    },
    decideMany: (rs, opts) => {
      current?.trips.push(rs);
      return inner.decideMany(rs, opts);
    },
    close: () => inner.close(),
  };
  let observations;
  let questions: string[];
  let source: string;
  const path = o.dataPath ?? defaultLocomoPath();
  try {
    const conv = locomoConversation(parseLocomo(await readFile(path, 'utf8')).find((s) => s.sample_id === 'conv-26') as never);
    observations = conv.observations;
    questions = conv.questions.map((q) => q.question);
    source = 'LoCoMo conv-26';
  } catch {
    observations = parseJsonl(await readFile(fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url)), 'utf8'));
    questions = parseQuestions(await readFile(fileURLToPath(new URL('../../examples/sample-questions.jsonl', import.meta.url)), 'utf8')).map((q) => q.question);
    source = 'examples/sample-conversation.jsonl';
  }
  const memory = await createMemory({ encoder, systemOne: recorder, parameters: { maintenanceInterval: 0 } });
  // One write at a time so each write's requests are its own (addMany batches typing per chunk,
  // which the replay reproduces by grouping the typing trips of 64 writes).
  for (const obs of observations) {
    current = { kind: 'write', trips: [] };
    ops.push(current);
    await memory.add(obs);
  }
  for (const q of questions) {
    current = { kind: 'query', trips: [] };
    ops.push(current);
    await memory.recall(q);
  }
  current = undefined;
  await memory.close();
  await encoder.close?.();
  o.log(`bench system-one: recorded ${observations.length} writes and ${questions.length} queries from ${source}`);
  return { ops, source, writes: observations.length, queries: questions.length };
}

/** Catalogue questions asked by the requests of `ops` (what one pass of the replay answers). */
export function countDecisions(ops: readonly SystemOneOperation[]): number {
  let n = 0;
  for (const op of ops) for (const trip of op.trips) for (const r of trip) n += Object.keys(r.questions).length;
  return n;
}

/** Makes (loads) one backend; its time is the row's `loadMs`. */
export type SystemOneBackendFactory = () => Promise<SystemOneBackend>;

function summary(xs: number[]): { mean: number; p50: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), p50: percentile(s, 50), p95: percentile(s, 95) };
}

/** Writes whose typing requests share one `decideMany`, as `addMany` batches them. */
const TYPING_CHUNK = 64;
/** Operations replayed once, untimed, before the timed pass (JIT, caches, wasm tiers). */
const WARM_UP_OPS = 20;

/**
 * Replays recorded operations through one backend and measures it (platform-neutral: Node and
 * the bench page in Chromium run this same loop). Times with `performance.now()` (ms; in a page
 * its resolution is the browser's: 5 µs when cross-origin isolated). Load time is `make()`;
 * then the first 20 operations are replayed untimed; then the timed pass: writes in chunks of
 * 64 (the chunk's typing requests in one `decideMany`, its time shared equally among the chunk's
 * writes, then each write's other trips alone), then each query's trips alone. The backend is
 * closed at the end.
 * @param host - where it runs, copied into the row.
 * @throws whatever `make()` or the backend throws (JevMemError `MODEL_LOAD_FAILED`,
 *   `SYSTEM_ONE_FAILED`, ...).
 */
export async function replaySystemOneOperations(
  name: string,
  make: SystemOneBackendFactory,
  ops: readonly SystemOneOperation[],
  host: string,
): Promise<SystemOneBenchRow> {
  const t0 = performance.now();
  const backend = await make();
  const loadMs = performance.now() - t0;
  try {
    for (const op of ops.slice(0, WARM_UP_OPS)) for (const trip of op.trips) await backend.decideMany(trip);
    const write: number[] = [];
    const query: number[] = [];
    let decisions = 0;
    let writeTrips = 0;
    let queryTrips = 0;
    const started = performance.now();
    const writes = ops.filter((op) => op.kind === 'write');
    for (let i = 0; i < writes.length; i += TYPING_CHUNK) {
      const chunk = writes.slice(i, i + TYPING_CHUNK);
      const typing = chunk.flatMap((op) => op.trips[0] ?? []);
      let t = performance.now();
      await backend.decideMany(typing);
      const typingShare = (performance.now() - t) / Math.max(1, chunk.length);
      writeTrips += 1;
      for (const op of chunk) {
        t = performance.now();
        for (const trip of op.trips.slice(1)) {
          await backend.decideMany(trip);
          writeTrips += 1;
        }
        write.push(typingShare + (performance.now() - t));
        decisions += countDecisions([op]);
      }
    }
    for (const op of ops.filter((o) => o.kind === 'query')) {
      const t = performance.now();
      for (const trip of op.trips) {
        await backend.decideMany(trip);
        queryTrips += 1;
      }
      query.push(performance.now() - t);
      decisions += countDecisions([op]);
    }
    const elapsed = performance.now() - started;
    return {
      host,
      backend: name,
      model: backend.modelId,
      decisions,
      decisionsPerSecond: (decisions * 1000) / elapsed,
      writeMs: summary(write),
      queryMs: summary(query),
      tripsPerWrite: writeTrips / Math.max(1, write.length),
      tripsPerQuery: queryTrips / Math.max(1, query.length),
      loadMs,
    };
  } finally {
    await backend.close();
  }
}

/** Options of {@link runSystemOneBench}. */
export interface SystemOneBenchOptions extends RecordSystemOneOptions {
  /** Operations recorded earlier (e.g. to replay the same ones in Chromium); recorded here when absent. */
  recording?: SystemOneRecording;
}

/**
 * Runs the benchmark over every Node backend (recording the operations first unless given).
 * @throws JevMemError `MODEL_LOAD_FAILED` when a model cannot be loaded.
 */
export async function runSystemOneBench(o: SystemOneBenchOptions): Promise<{ source: string; rows: SystemOneBenchRow[] }> {
  const { ops, source } = o.recording ?? (await recordSystemOneOperations(o));
  const load = createNodeAssetLoader();
  const backends: Array<[string, SystemOneBackendFactory]> = [
    ['heuristic stand-in (in process)', async () => createHeuristicSystemOne()],
    ['local, TypeScript kernels (in process)', () => createLocalSystemOne({ load, engine: 'ts' })],
    ['local, onnxruntime-web WASM (in process)', () => createLocalSystemOne({ load, engine: 'onnx' })],
    ['worker_threads + comlink, onnxruntime-web WASM', () => createWorkerSystemOne({ engine: 'onnx' })],
    ['worker_threads + comlink, TypeScript kernels', () => createWorkerSystemOne({ engine: 'ts' })],
  ];
  const host = `Node ${process.version}`;
  const rows: SystemOneBenchRow[] = [];
  for (const [name, make] of backends) {
    o.log(`bench system-one: ${name}`);
    rows.push(await replaySystemOneOperations(name, make, ops, host));
  }
  return { source, rows };
}

// ---------------------------------------------------------------------------------------------
// Headless Chromium
// ---------------------------------------------------------------------------------------------

/** Backends the bench page can replay through, by id (`SYSTEM_ONE_BROWSER_BACKENDS`). */
export type SystemOneBrowserBackendId = 'heuristic' | 'page-ts' | 'page-onnx' | 'worker-onnx' | 'worker-ts';

/** Every bench-page backend, in the order the table lists them, with its table name. */
export const SYSTEM_ONE_BROWSER_BACKENDS: Readonly<Record<SystemOneBrowserBackendId, string>> = Object.freeze({
  heuristic: 'heuristic stand-in (in page)',
  'page-ts': 'local, TypeScript kernels (in page)',
  'page-onnx': 'local, onnxruntime-web WASM (in page)',
  'worker-onnx': 'Web Worker + comlink, onnxruntime-web WASM',
  'worker-ts': 'Web Worker + comlink, TypeScript kernels',
});

/** What the bench page exposes as `window.jevMemSystemOneBench` once loaded. */
export interface SystemOneBenchPageApi {
  /**
   * Replays `opsJson` (a JSON array of {@link SystemOneOperation}) through each of `backends`
   * in turn; one row each. Progress goes to the page's console as `bench system-one: …` lines.
   */
  run(opsJson: string, o: { backends: SystemOneBrowserBackendId[]; host: string }): Promise<SystemOneBenchRow[]>;
  /** `globalThis.crossOriginIsolated` of the page (true: 5 µs timers). */
  crossOriginIsolated: boolean;
}

/** Options of {@link runSystemOneBrowserBench}. */
export interface SystemOneBrowserBenchOptions {
  /** Progress lines (the page's progress is forwarded here too). */
  log: (line: string) => void;
  /** @default every id of {@link SYSTEM_ONE_BROWSER_BACKENDS}, in that order */
  backends?: SystemOneBrowserBackendId[];
  /** Chromium binary. @default `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium` */
  chromiumPath?: string;
}

/** What a Chromium run returns. */
export interface SystemOneBrowserBenchResult {
  rows: SystemOneBenchRow[];
  /** `browser.version()`. */
  chromium: string;
  /** Whether the bench page was cross-origin isolated (timer resolution 5 µs instead of 100 µs). */
  crossOriginIsolated: boolean;
}


/**
 * Replays `ops` in headless Chromium (Node-only; needs a checkout of the repository with its
 * dev dependencies `vite` and `playwright-core`, and a Chromium binary): builds the bench page
 * (`bench/browser/vite.config.ts`) into a temporary folder, serves it with `vite preview` on
 * 127.0.0.1 (cross-origin isolated), opens it in headless Chromium and runs
 * {@link replaySystemOneOperations} there through each backend; the page's models and
 * onnxruntime-web wasm come from its own origin.
 * @throws JevMemError `NOT_FOUND` (field `chromium`) when the Chromium binary is missing;
 *   `SYSTEM_ONE_FAILED` when the page fails (its message and console errors are kept).
 */
export async function runSystemOneBrowserBench(ops: readonly SystemOneOperation[], o: SystemOneBrowserBenchOptions): Promise<SystemOneBrowserBenchResult> {
  const { existsSync } = await importNode<typeof import('node:fs')>('node:fs');
  const { mkdtemp, rm } = await importNode<typeof import('node:fs/promises')>('node:fs/promises');
  const { tmpdir } = await importNode<typeof import('node:os')>('node:os');
  const { join } = await importNode<typeof import('node:path')>('node:path');
  const chromiumPath = o.chromiumPath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) throw new JevMemError('NOT_FOUND', `no Chromium at ${chromiumPath}; set CHROMIUM_PATH`, { field: 'chromium' });
  const backends = o.backends ?? (Object.keys(SYSTEM_ONE_BROWSER_BACKENDS) as SystemOneBrowserBackendId[]);
  const vite = await importNode<typeof import('vite')>('vite');
  const { chromium } = await importNode<typeof import('playwright-core')>('playwright-core');
  const configFile = join(repoRoot(), 'bench', 'browser', 'vite.config.ts');
  const outDir = await mkdtemp(join(tmpdir(), 'jev-mem-bench-page-'));
  let server: Awaited<ReturnType<typeof vite.preview>> | undefined;
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    o.log('bench system-one: building the bench page (bench/browser/)');
    await vite.build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
    server = await vite.preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
    const base = server.resolvedUrls?.local[0];
    if (base === undefined) throw new JevMemError('SYSTEM_ONE_FAILED', 'vite preview did not report a URL for the bench page');
    browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: [...CHROMIUM_ARGS] });
    const version = browser.version();
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
      else if (m.text().startsWith('bench system-one:')) o.log(`${m.text()} (Chromium)`);
    });
    await page.goto(new URL('system-one.html', base.endsWith('/') ? base : `${base}/`).href);
    await page.waitForFunction(() => 'jevMemSystemOneBench' in globalThis, undefined, { timeout: 30_000 });
    const isolated = await page.evaluate(() => (globalThis as unknown as { jevMemSystemOneBench: SystemOneBenchPageApi }).jevMemSystemOneBench.crossOriginIsolated);
    let rows: SystemOneBenchRow[];
    try {
      rows = await page.evaluate(
        ([json, opts]) => (globalThis as unknown as { jevMemSystemOneBench: SystemOneBenchPageApi }).jevMemSystemOneBench.run(json, opts),
        [JSON.stringify(ops), { backends, host: `Chromium ${version} (headless)` }] as const,
      );
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new JevMemError('SYSTEM_ONE_FAILED', `the bench page failed in Chromium: ${why}${problems.length ? `; page errors: ${problems.join(' | ')}` : ''}`, { cause: e });
    }
    return { rows, chromium: version, crossOriginIsolated: isolated };
  } finally {
    await browser?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await rm(outDir, { recursive: true, force: true });
  }
}

/** The figures as a Markdown table (one row per backend, Node rows and Chromium rows alike). */
export function renderSystemOneTable(r: { source: string; rows: SystemOneBenchRow[] }): string {
  const f = (x: number) => x.toFixed(2);
  const lines = [
    `System-One control cost, requests recorded from ${r.source} (per write: typing + relations at K_w = 10; per query: routing + candidate scoring + stop).`,
    '',
    '| host | backend | model | decisions/s | ms per write (mean / p50 / p95) | ms per query (mean / p50 / p95) | round trips per write / query | load ms |',
    '|---|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const x of r.rows) {
    lines.push(
      `| ${x.host} | ${x.backend} | ${x.model} | ${Math.round(x.decisionsPerSecond).toLocaleString('en-US')} | ${f(x.writeMs.mean)} / ${f(x.writeMs.p50)} / ${f(x.writeMs.p95)} | ${f(x.queryMs.mean)} / ${f(x.queryMs.p50)} / ${f(x.queryMs.p95)} | ${f(x.tripsPerWrite)} / ${f(x.tripsPerQuery)} | ${x.loadMs.toFixed(0)} |`,
    );
  }
  return lines.join('\n');
}
