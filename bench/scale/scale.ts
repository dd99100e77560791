/**
 * `npm run bench -- scale`: how jev-mem behaves as ONE namespace grows (issue 4 item 5), in Node.
 * At each size it reports write throughput and System-One time per write, recall latency
 * p50/p95, RSS and heap, stored bytes, and the time to reopen the store.
 *
 * Observation recipe ({@link SCALE_RECIPE}): the 5,882 LoCoMo turns (all ten conversations, file
 * order) are repeated; copy c (0-based) shifts every date by c × 1,461 days (four years) and
 * renames each speaker X to "X <surname c>" (copy 0 keeps the names), in the speaker field, the
 * "<speaker>: " prefix and whole-word mentions of either speaker in the text. Session and turn
 * ids get a "c<c>/" prefix and the source is `locomo-scale:c<c>:<sample>`, so no copy is an exact
 * repeat of another (nothing is de-duplicated). Questions are every n-th LoCoMo question of
 * categories 1-4 (50 of them), asked against the whole namespace.
 *
 * The headless-Chromium half ({@link runScaleBrowserBench}, `npm run bench -- scale --browser`) runs
 * the same recipe in the bench page `bench/browser/scale.html`: one namespace grown through
 * `createBrowserMemory` (IndexedDB store, the shipped System One in a Web Worker on onnxruntime-web
 * WASM), with the same figures except RSS (a page cannot see it): JS heap from
 * `performance.memory` (Chromium) and stored bytes from `navigator.storage.estimate()` (the
 * origin's usage, IndexedDB included). Its default sizes are {@link DEFAULT_SCALE_BROWSER_SIZES}:
 * 100k observations in IndexedDB are ~9-12 minutes of writes. Without `--browser`, results.json
 * carries `browser: { status: 'todo' }`; when the browser half fails, `{ status: 'failed' }`.
 *
 * @module
 */
import { CHROMIUM_ARGS } from '../lib/chromium.js';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { invalidOption, JevMemError } from '../../src/errors.js';
import type { LocomoConversation } from '../../src/formats/locomo.js';
import type { Memory, MemoryOptions } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import type { Observation } from '../../src/types.js';
import { DAY_MS, parseTimestamp, toIso } from '../../src/util/time.js';
import { defaultLocomoPath, loadLocomo, repoRoot } from '../lib/data.js';
import { countingBackend, countsDelta, sharedEncoder, type CountingBackend } from '../lib/jev.js';
import { measureReopen, summarize, writeFigures, type LatencySummary, type WriteFigures } from '../lib/metrics.js';
import { gitInfo, machineInfo, RssSampler, type GitInfo, type MachineInfo } from '../lib/resources.js';
import { lineChart } from '../lib/svg.js';
import { runScaleEdge, type EdgeScaleResults } from './edge.js';
import { bulkFigures, SCALE_BULK_CHUNK, type BulkImportFigures } from './bulk.js';
import { runOpenProbe, type OpenProbeReport } from './open-probe.js';

export { bulkFigures, SCALE_BULK_CHUNK, type BulkImportFigures };
import { fullGc, oramaVersion, runOramaScale, type OramaFailure, type OramaScalePoint, type OramaScaleResults } from './peers.js';
import { oramaFailure } from './orama-grow.js';

/** Default sizes (observations in the namespace). */
export const DEFAULT_SCALE_SIZES: readonly number[] = Object.freeze([1000, 10_000, 100_000]);

/**
 * Default sizes of the headless-Chromium half. 100,000 is left out by default because it is long:
 * at the ~150-200 writes/s of IndexedDB with a worker System One it is ~9-12 minutes of writes
 * alone (ask with `--sizes`; it runs in a fresh on-disk profile, see {@link runScaleBrowserBench}).
 */
export const DEFAULT_SCALE_BROWSER_SIZES: readonly number[] = Object.freeze([1000, 10_000]);

/** Days each copy of the LoCoMo turns is shifted by (four years). */
export const SCALE_SHIFT_DAYS = 1461;

/** Surnames given to the speakers of copies 1, 2, ... (copy 0 keeps the LoCoMo names). */
export const SCALE_SURNAMES: readonly string[] = Object.freeze([
  'Adams', 'Baker', 'Clark', 'Davis', 'Evans', 'Foster', 'Garcia', 'Hughes', 'Ito', 'Jensen',
  'Kowalski', 'Lopez', 'Müller', 'Nakamura', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Singh', 'Tanaka',
]);

/** The recipe, as written into results.json. */
export const SCALE_RECIPE =
  'LoCoMo turns of all ten conversations in file order, repeated; copy c shifts dates by c×1461 days and renames speaker X to "X <SCALE_SURNAMES[c-1]>" (copy 0 unchanged) in the speaker field, the prefix and whole-word mentions; ids and source carry "c<c>"; no exact repeats.';

/** Writes measured at each size for throughput: the last ones before the size is reached. */
export const SCALE_MEASURED_WRITES = 1000;

/** Questions asked at each size. */
export const SCALE_QUERIES = 50;

/**
 * Parses `--sizes` ("1000,10000,100000"): positive integers, returned ascending without repeats.
 * @throws JevMemError `INVALID_OPTION` (field `sizes`) on anything else.
 */
export function parseSizes(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_SCALE_SIZES];
  const parts = value.split(',').map((s) => s.trim().replace(/_/g, '').replace(/k$/i, '000'));
  const sizes = parts.map(Number);
  sizes.forEach((n, i) => {
    if (!Number.isInteger(n) || n < 1) throw invalidOption('sizes', `expected positive integers separated by commas (e.g. 1000,10000,100000), got ${JSON.stringify(parts[i])}`);
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Speaker name of copy c ({@link SCALE_RECIPE}). */
export function scaleSpeaker(name: string, copy: number): string {
  if (copy === 0) return name;
  const i = copy - 1;
  const surname = SCALE_SURNAMES[i % SCALE_SURNAMES.length] as string;
  const round = Math.floor(i / SCALE_SURNAMES.length);
  return `${name} ${surname}${round > 0 ? ` ${round + 1}` : ''}`;
}

/** The first `n` observations of the scale recipe ({@link SCALE_RECIPE}). */
export function scaleObservations(conversations: readonly LocomoConversation[], n: number): Observation[] {
  const base: Array<{ o: Observation; conv: LocomoConversation }> = conversations.flatMap((conv) => conv.observations.map((o) => ({ o, conv })));
  if (base.length === 0) return [];
  const out: Observation[] = [];
  for (let i = 0; i < n; i++) {
    const copy = Math.floor(i / base.length);
    const { o, conv } = base[i % base.length] as { o: Observation; conv: LocomoConversation };
    if (copy === 0) {
      out.push({ ...o });
      continue;
    }
    const [a, b] = conv.speakers;
    const names = new Map([
      [a, scaleSpeaker(a, copy)],
      [b, scaleSpeaker(b, copy)],
    ]);
    const re = new RegExp(`\\b(${[a, b].map(escapeRegExp).join('|')})\\b`, 'g');
    const text = o.text.replace(re, (m) => names.get(m) ?? m);
    const next: Observation = { text, source: `locomo-scale:c${copy}:${conv.sampleId}` };
    if (o.speaker !== undefined) next.speaker = names.get(o.speaker) ?? o.speaker;
    if (o.sessionId !== undefined) next.sessionId = `c${copy}/${conv.sampleId}/${o.sessionId}`;
    if (o.turnId !== undefined) next.turnId = `c${copy}/${o.turnId}`;
    if (o.observedAt !== undefined) {
      const ms = parseTimestamp(o.observedAt);
      if (ms !== undefined) next.observedAt = toIso(ms + copy * SCALE_SHIFT_DAYS * DAY_MS);
    }
    out.push(next);
  }
  return out;
}

/** Every n-th question (categories 1-4, with evidence) so that `count` are taken across the file. */
export function scaleQuestions(conversations: readonly LocomoConversation[], count: number): string[] {
  const all = conversations.flatMap((c) => c.questions.filter((q) => q.category >= 1 && q.category <= 4 && q.evidence.length > 0).map((q) => q.question));
  if (all.length <= count) return all;
  const stride = all.length / count;
  return Array.from({ length: count }, (_, i) => all[Math.floor(i * stride)] as string);
}

/** Figures at one size. */
/** Bytes of the files in `dir` and its folders (a closed store directory). */
async function filesBytes(dir: string): Promise<number> {
  let total = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) total += await filesBytes(path);
    else if (e.isFile()) total += (await stat(path)).size;
  }
  return total;
}

export interface ScalePoint {
  /** Observations in the namespace. */
  size: number;
  nodes: number;
  edges: number;
  write: WriteFigures;
  /** Bulk import of the segment before the timed writes (issue 25); absent in older runs. */
  bulk?: BulkImportFigures;
  /** Recall latency over the questions, ms. */
  recall: LatencySummary;
  /** RSS and heap after the build and the recalls; `heapAfterGcBytes`: the heap after a full GC (what is retained; absent in older runs). */
  memory: { rssBytes: number; heapUsedBytes: number; heapAfterGcBytes?: number };
  /**
   * `bytes`: the store's own `storageBytes` (an estimate it keeps: the decoded records and the
   * checkpoint); `fileBytes`: the files of the closed store directory on disk (SQLite file and
   * journal; absent in runs before it was measured).
   */
  storage: { bytes: number; bytesPerNode: number; fileBytes?: number; fileBytesPerNode?: number };
  /**
   * Close, open again and load the namespace (a `get` of an unknown id), ms; then the first
   * recall, ms; then one `stats()`, ms (absent in runs before it was timed apart).
   */
  reopen: { ms: number; firstRecallMs: number; statsMs?: number };
  /**
   * The closed store opened by a fresh process ({@link runOpenProbe}): open to first recall, then
   * heap and RSS after the open and the 50 recalls, not polluted by the writer. Absent in runs
   * before issue 13, and where the probe failed (`freshError` says why).
   */
  fresh?: OpenProbeReport;
  /** Why {@link ScalePoint.fresh} is missing, when the probe failed. */
  freshError?: string;
}

/** `results.json` of `npm run bench -- scale`. */
export interface ScaleResults {
  format: 'jev-mem/bench-scale';
  version: 1;
  startedAt: string;
  durationMs: number;
  machine: MachineInfo;
  git: GitInfo;
  /** `peersOnly`: `--peers-only` (no jev-mem namespace: `points` empty, `systemOne` 'none'). */
  settings: { sizes: number[]; recipe: string; measuredWrites: number; queries: number; systemOne: string; systemOneModel: string; encoder: string; vectorIndex: string; data: string; peersOnly?: true };
  modelLoadMs: { encoder: number; systemOne: number };
  points: ScalePoint[];
  /** Peak RSS of the run, bytes. */
  peakRssBytes: number;
  /** The headless-Chromium half ({@link runScaleBrowserBench}), `todo` when not run, `failed` (with the error) when it failed. */
  browser: ScaleBrowserResults | { status: 'todo' | 'failed'; note: string };
  /** The workerd half (`--edge`, issue 13, {@link runScaleEdge}); absent or `todo` when not run, `failed` with the error. */
  edge?: EdgeScaleResults | { status: 'todo' | 'failed'; note: string };
  /** The peers in Node (`--peers`, issue 16): Orama at the same sizes; absent when not asked for, `failed` with the error (and, where it failed while growing, the size, step and heap). */
  peers?: { orama: OramaScaleResults | OramaFailure };
}

/** Figures at one size in headless Chromium: those of {@link ScalePoint}, heap from the page. */
export interface ScaleBrowserPoint extends Omit<ScalePoint, 'memory'> {
  /** The page's `performance.memory.usedJSHeapSize`, bytes (absent where the API is missing; the worker's heap is not included). */
  heapUsedBytes?: number;
  /** `storage.bytes` is `navigator.storage.estimate().usage` (the origin's, IndexedDB included), bytes. */
  storage: ScalePoint['storage'];
}

/** What the bench page's run returns ({@link ScaleBenchPageApi}). */
export interface ScaleBrowserRun {
  points: ScaleBrowserPoint[];
  /** Load times in the page, ms: the GloVe-SIF encoder, the System-One worker (model + onnxruntime-web). */
  modelLoadMs: { encoder: number; systemOne: number };
  systemOneModel: string;
  encoder: string;
  /** Orama in the page (`peers` asked for): absent otherwise. */
  peers?: ScaleBrowserPeers;
}

/**
 * Orama grown in the bench page after jev-mem (`bench scale --peers --browser`): the figures of
 * {@link OramaScalePoint} with heap from `performance.memory` and save/restore through the
 * data-persistence plugin into IndexedDB (`persist.where` 'indexeddb', `persist.parts`). The page
 * leaves `version` empty; {@link runScaleBrowserBench} fills it in.
 */
export interface ScaleBrowserPeers {
  orama: (Omit<OramaScaleResults, 'version' | 'setup'> & { version?: string; setup?: string }) | OramaFailure;
}

/**
 * A new page on the store the bench page grew (issue 25, the tab a user reloads), at the largest
 * size: load the encoder and System-One worker, open the namespace, ask the questions.
 */
export interface ScaleBrowserFreshPage {
  /** The encoder and the System-One worker, ms (before the store is touched). */
  modelLoadMs: number;
  /** `createBrowserMemory` on the existing IndexedDB database, ms. */
  openMs: number;
  /** The first recall alone, ms (loads the namespace where the open did not). */
  firstRecallMs: number;
  /** Open + first recall, ms. */
  openToFirstRecallMs: number;
  /** Every recall, the first included. */
  recall: LatencySummary;
  questions: number;
  /** `performance.memory.usedJSHeapSize` when the page started, after the models, and after the open and the recalls, bytes (absent where the API is missing; the worker's heap is not included). */
  baselineHeapBytes?: number;
  modelsHeapBytes?: number;
  heapUsedBytes?: number;
  /** Nodes of the namespace (`stats()` after the recalls). */
  nodes: number;
}

/** The headless-Chromium half of a scale run. */
export interface ScaleBrowserResults extends ScaleBrowserRun {
  status: 'done';
  /** `browser.version()`. */
  chromium: string;
  /** Whether the page was cross-origin isolated (5 µs timers instead of 100 µs). */
  crossOriginIsolated: boolean;
  sizes: number[];
  /** What runs where: store, System One. */
  setup: string;
  durationMs: number;
  /** The fresh page at the largest size (issue 25); `failed` with the error; absent in older runs and with `--peers-only`. */
  freshPage?: (ScaleBrowserFreshPage & { size: number }) | { status: 'failed'; note: string };
}

/** What the bench page `bench/browser/scale.html` exposes as `window.jevMemScaleBench` once loaded. */
export interface ScaleBenchPageApi {
  /**
   * Grows one namespace (IndexedDB database `o.dbName`) with `observationsJson` (a JSON array of
   * observations, at least `max(o.sizes)` long) to each of `o.sizes` (ascending), timing the last
   * `o.measuredWrites` writes before each, then recalls every question of `questionsJson` (a JSON
   * string array), closes and reopens. With `o.peers`, then grows Orama in the page
   * ({@link ScaleBrowserPeers}); with `o.peersOnly`, grows Orama alone (no namespace, no worker). Progress goes to the console as `bench scale: …` lines.
   */
  run(observationsJson: string, questionsJson: string, o: { sizes: number[]; measuredWrites: number; dbName: string; peers?: boolean; peersOnly?: boolean }): Promise<ScaleBrowserRun>;
  /**
   * The fresh-page figure (issue 25), in a new page once `run` has grown and closed the
   * namespace: models loaded, the namespace opened from IndexedDB database `o.dbName`, every
   * question of `questionsJson` asked ({@link ScaleBrowserFreshPage}).
   */
  probe?(questionsJson: string, o: { dbName: string }): Promise<ScaleBrowserFreshPage>;
  /** `globalThis.crossOriginIsolated` of the page. */
  crossOriginIsolated: boolean;
}

/** Options of {@link runScaleBrowserBench}. */
export interface ScaleBrowserBenchOptions {
  /** @default {@link DEFAULT_SCALE_BROWSER_SIZES} */
  sizes?: readonly number[];
  /** @default `<repo>/../shared/data/locomo10.json` */
  dataPath?: string;
  /** Chromium binary. @default `CHROMIUM_PATH`, else Debian's `/usr/bin/chromium` */
  chromiumPath?: string;
  /** Writes timed before each size. @default {@link SCALE_MEASURED_WRITES} */
  measuredWrites?: number;
  /** Questions asked at each size. @default {@link SCALE_QUERIES} */
  queries?: number;
  /** Also grow Orama in the page after jev-mem ({@link ScaleBrowserPeers}). @default false */
  peers?: boolean;
  /** Grow only Orama in the page (implies `peers`): no jev-mem namespace, no System-One worker; `points` are empty. @default false */
  peersOnly?: boolean;
  log?: (line: string) => void;
}

/** What the Orama run in the page measures, as written into results.json. */
export const ORAMA_BROWSER_SETUP =
  'headless Chromium page, after jev-mem\'s namespace is closed; one Orama database { text: string, embedding: vector[dim] } of the same GloVe-SIF vectors (encoder in the page), defaults everywhere (hybrid search limit 20, similarity 0.8, weights 0.5/0.5); heap = performance.memory.usedJSHeapSize (as jev-mem\'s), no retained heap (see the page); save = @orama/plugin-data-persistence persist(db, "binary", "browser") (msgpack as a hex string) + one IndexedDB put of that string; restore = the IndexedDB get + restore("binary", string); bytes = the string\'s length (ASCII); the run goes on with the restored database';


/**
 * Runs the scale benchmark in headless Chromium (Node-only; needs the repository checkout with its
 * dev dependencies `vite` and `playwright-core`, and a Chromium binary): builds the bench pages
 * (`bench/browser/vite.config.ts`) into a temporary folder, serves them with `vite preview` on
 * 127.0.0.1 (cross-origin isolated), opens `scale.html` in a fresh on-disk browser profile (empty
 * IndexedDB) and grows one namespace there with the observations of {@link SCALE_RECIPE}.
 * @throws JevMemError `NOT_FOUND` (field `chromium`) when the Chromium binary is missing, or the
 *   data; `INVALID_OPTION` (field `sizes`) on an empty size list; `STORAGE_FAILED` when the page
 *   fails (its message and console errors are kept).
 */
export async function runScaleBrowserBench(o: ScaleBrowserBenchOptions = {}): Promise<ScaleBrowserResults> {
  const log = o.log ?? (() => undefined);
  const sizes = [...new Set(o.sizes ?? DEFAULT_SCALE_BROWSER_SIZES)].sort((a, b) => a - b);
  if (sizes.length === 0) throw invalidOption('sizes', 'expected at least one size');
  const chromiumPath = o.chromiumPath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromiumPath)) throw new JevMemError('NOT_FOUND', `no Chromium at ${chromiumPath}; set CHROMIUM_PATH`, { field: 'chromium' });
  const t0 = performance.now();
  const data = await loadLocomo(o.dataPath ?? defaultLocomoPath());
  const observations = scaleObservations(data.conversations, sizes[sizes.length - 1] as number);
  const questions = scaleQuestions(data.conversations, o.queries ?? SCALE_QUERIES);
  const vite = await import('vite');
  const { chromium } = await import('playwright-core');
  const configFile = join(repoRoot(), 'bench', 'browser', 'vite.config.ts');
  const outDir = await mkdtemp(join(tmpdir(), 'jev-mem-scale-page-'));
  // A fresh on-disk profile rather than a new (incognito) context: an incognito context keeps
  // IndexedDB in memory under a small quota, which ran out at ~80k nodes; an on-disk profile gets
  // a normal site's quota (a share of the disk) and starts just as empty.
  const profileDir = await mkdtemp(join(tmpdir(), 'jev-mem-scale-profile-'));
  let server: Awaited<ReturnType<typeof vite.preview>> | undefined;
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>> | undefined;
  try {
    log('scale (Chromium): building the bench page (bench/browser/)');
    await vite.build({ configFile, logLevel: 'error', build: { outDir, emptyOutDir: true } });
    server = await vite.preview({ configFile, logLevel: 'error', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
    const base = server.resolvedUrls?.local[0];
    if (base === undefined) throw new JevMemError('STORAGE_FAILED', 'vite preview did not report a URL for the bench page');
    context = await chromium.launchPersistentContext(profileDir, { executablePath: chromiumPath, headless: true, args: [...CHROMIUM_ARGS] });
    const page = context.pages()[0] ?? (await context.newPage());
    const agent = await page.evaluate(() => navigator.userAgent);
    const version = context.browser()?.version() ?? /Chrome\/([\d.]+)/u.exec(agent)?.[1] ?? agent;
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
      else if (m.text().startsWith('bench scale:')) log(`${m.text()} (Chromium)`);
    });
    await page.goto(new URL('scale.html', base.endsWith('/') ? base : `${base}/`).href);
    await page.waitForFunction(() => 'jevMemScaleBench' in globalThis, undefined, { timeout: 30_000 }).catch((e: unknown) => {
      // a page whose script throws while loading never gets ready: say why
      throw new JevMemError('STORAGE_FAILED', `the scale bench page did not load: ${e instanceof Error ? e.message : String(e)}${problems.length ? `; page errors: ${problems.join(' | ')}` : ''}`, { cause: e });
    });
    const isolated = await page.evaluate(() => (globalThis as unknown as { jevMemScaleBench: ScaleBenchPageApi }).jevMemScaleBench.crossOriginIsolated);
    log(`scale (Chromium): growing ${o.peersOnly === true ? 'Orama alone' : 'one namespace'} to ${sizes.join(', ')} in ${version}`);
    // JEV_MEM_BENCH_PAGE_PROFILE=<file>: a V8 CPU profile of the page's main thread over the run
    // (System One's worker is not in it), written as a .cpuprofile for the profile figures.
    const profilePath = process.env.JEV_MEM_BENCH_PAGE_PROFILE;
    const cdp = profilePath ? await context.newCDPSession(page) : undefined;
    if (cdp !== undefined) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
      await cdp.send('Profiler.start');
    }
    let run: ScaleBrowserRun;
    try {
      run = await page.evaluate(
        ([obs, qs, opts]) => (globalThis as unknown as { jevMemScaleBench: ScaleBenchPageApi }).jevMemScaleBench.run(obs, qs, opts),
        [JSON.stringify(observations), JSON.stringify(questions), { sizes, measuredWrites: o.measuredWrites ?? SCALE_MEASURED_WRITES, dbName: 'jev-mem-scale-bench', peers: o.peers === true || o.peersOnly === true, peersOnly: o.peersOnly === true }] as const,
      );
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      throw new JevMemError('STORAGE_FAILED', `the scale bench page failed in Chromium: ${why}${problems.length ? `; page errors: ${problems.join(' | ')}` : ''}`, { cause: e });
    }
    if (cdp !== undefined && profilePath !== undefined) {
      const { profile } = await cdp.send('Profiler.stop');
      await writeFile(profilePath, JSON.stringify(profile));
      log(`scale (Chromium): page CPU profile written to ${profilePath}`);
    }
    let freshPage: ScaleBrowserResults['freshPage'];
    if (o.peersOnly !== true && run.points.length > 0) {
      // The fresh page (issue 25): the writing page is closed, a new one opens the same store.
      const size = run.points[run.points.length - 1]?.size as number;
      try {
        await page.close();
        const fresh = await context.newPage();
        fresh.on('pageerror', (e) => problems.push(e.message));
        await fresh.goto(new URL('scale.html', base.endsWith('/') ? base : `${base}/`).href);
        await fresh.waitForFunction(() => 'jevMemScaleBench' in globalThis, undefined, { timeout: 30_000 });
        const probe = await fresh.evaluate(
          ([qs, opts]) => {
            const api = (globalThis as unknown as { jevMemScaleBench: ScaleBenchPageApi }).jevMemScaleBench;
            if (api.probe === undefined) throw new Error('the bench page has no probe()');
            return api.probe(qs, opts);
          },
          [JSON.stringify(questions), { dbName: 'jev-mem-scale-bench' }] as const,
        );
        freshPage = { size, ...probe };
        log(`scale (Chromium): fresh page at ${size}: open to first recall ${probe.openToFirstRecallMs.toFixed(0)} ms, recall p95 ${probe.recall.p95.toFixed(1)} ms${probe.heapUsedBytes !== undefined ? `, heap ${(probe.heapUsedBytes / 2 ** 20).toFixed(0)} MiB` : ''}`);
        await fresh.close();
      } catch (e) {
        const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] as string;
        log(`scale (Chromium): the fresh page failed: ${why}`);
        freshPage = { status: 'failed', note: `the fresh page failed: ${why}${problems.length ? `; page errors: ${problems.join(' | ')}` : ''}` };
      }
    }
    return {
      status: 'done',
      chromium: version,
      crossOriginIsolated: isolated,
      sizes,
      setup: o.peersOnly === true ? 'peers only (--peers-only): no jev-mem namespace, no System-One worker; GloVe-SIF encoder in the page' : 'createBrowserMemory: IndexedDB store; System One in a Web Worker (onnxruntime-web WASM, 1 thread); GloVe-SIF encoder in the page; encoder and worker shared across reopenings',
      durationMs: performance.now() - t0,
      ...run,
      ...(freshPage !== undefined ? { freshPage } : {}),
      ...(run.peers ? { peers: { orama: run.peers.orama.status === 'done' ? { ...run.peers.orama, version: oramaVersion(), setup: ORAMA_BROWSER_SETUP } : run.peers.orama } } : {}),
    };
  } finally {
    await context?.close().catch(() => undefined);
    await server?.close().catch(() => undefined);
    await rm(outDir, { recursive: true, force: true }).catch(() => undefined);
    await rm(profileDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Options of {@link runScaleBench}. */
export interface ScaleBenchOptions {
  /** Also run the headless-Chromium half ({@link runScaleBrowserBench}) with these options; its results replace `browser: todo`. */
  browser?: ScaleBrowserBenchOptions;
  /** @default {@link DEFAULT_SCALE_SIZES} */
  sizes?: readonly number[];
  /** @default `<repo>/../shared/data/locomo10.json` */
  dataPath?: string;
  /** @default 'local' */
  systemOne?: string;
  /** @default 'flat' */
  vectorIndex?: MemoryOptions['vectorIndex'];
  /** Parent of the temporary store. @default os.tmpdir() */
  tmpDir?: string;
  /** Also run the workerd half ({@link runScaleEdge}) at these sizes; its results replace `edge: todo`. */
  edge?: { sizes?: readonly number[] };
  /** Also grow the same corpus in the peers (Orama, {@link runOramaScale}) in Node, once jev-mem's store is closed, and (with `browser`) in the Chromium page ({@link ScaleBrowserPeers}). @default false */
  peers?: boolean;
  /** Grow only the peers (implies `peers`): no jev-mem namespace in Node nor in the page, no System One; `points` are empty. @default false */
  peersOnly?: boolean;
  log?: (line: string) => void;
}

async function timedRecalls(memory: Memory, questions: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    await memory.recall(q, { k: 20 });
    out.push(performance.now() - t);
  }
  return out;
}

/**
 * Runs the scale benchmark in a temporary file store (removed afterwards); then, with
 * `o.browser`, its headless-Chromium half ({@link runScaleBrowserBench}), once the Node store is
 * closed. A failure of the browser half does not lose the Node half: `browser` is then
 * `{ status: 'failed', note }` with the error.
 * @throws JevMemError `NOT_FOUND` (data, Chromium), `MODEL_LOAD_FAILED`, `INVALID_OPTION`,
 *   `STORAGE_FAILED` (the bench page), and the memory's errors.
 */
export async function runScaleBench(o: ScaleBenchOptions = {}): Promise<ScaleResults> {
  let node = await runScaleNode(o);
  if (o.edge !== undefined) node = { ...node, edge: await runScaleEdgeHalf(o, o.edge.sizes ?? node.settings.sizes) };
  if (o.browser === undefined) return node;
  try {
    const browser = await runScaleBrowserBench({ ...(o.log ? { log: o.log } : {}), ...(o.dataPath !== undefined ? { dataPath: o.dataPath } : {}), ...(o.peers === true ? { peers: true } : {}), ...(o.peersOnly === true ? { peersOnly: true } : {}), ...o.browser });
    return { ...node, browser };
  } catch (e) {
    // The Node half stands on its own: keep it, and say why the browser half is missing.
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] as string; // the message, not the page's stack
    o.log?.(`scale (Chromium): failed: ${why}`);
    return { ...node, browser: { status: 'failed', note: `the headless-Chromium half failed: ${why}` } };
  }
}

/** The workerd half of {@link runScaleBench}: its failure is kept as `{ status: 'failed', note }`, not thrown. */
async function runScaleEdgeHalf(o: ScaleBenchOptions, sizes: readonly number[]): Promise<NonNullable<ScaleResults['edge']>> {
  try {
    const data = await loadLocomo(o.dataPath ?? defaultLocomoPath());
    const max = Math.max(...sizes);
    return await runScaleEdge({
      observations: scaleObservations(data.conversations, max),
      questions: scaleQuestions(data.conversations, SCALE_QUERIES),
      sizes,
      measuredWrites: SCALE_MEASURED_WRITES,
      ...(o.tmpDir !== undefined ? { tmpDir: o.tmpDir } : {}),
      ...(o.log ? { log: o.log } : {}),
    });
  } catch (e) {
    const why = (e instanceof Error ? e.message : String(e)).split('\n')[0] as string;
    o.log?.(`scale (workerd): failed: ${why}`);
    return { status: 'failed', note: `the workerd half failed: ${why}` };
  }
}

async function runScaleNode(o: ScaleBenchOptions): Promise<ScaleResults> {
  const log = o.log ?? (() => undefined);
  const sizes = [...(o.sizes ?? DEFAULT_SCALE_SIZES)].sort((a, b) => a - b);
  const startedAt = new Date();
  const t0 = performance.now();
  const rss = new RssSampler().start(100);
  const data = await loadLocomo(o.dataPath ?? defaultLocomoPath());
  const observations = scaleObservations(data.conversations, sizes[sizes.length - 1] ?? 0);
  const questions = scaleQuestions(data.conversations, SCALE_QUERIES);
  const systemOneName = o.systemOne ?? 'local';
  const vectorIndex = o.vectorIndex ?? 'auto';
  const peersOnly = o.peersOnly === true;
  let encoder: Encoder | undefined;
  let inner: SystemOneBackend | undefined;
  let memory: Memory | undefined;
  const work = await mkdtemp(join(o.tmpDir ?? tmpdir(), 'jev-mem-scale-'));
  const dir = join(work, 'store');
  const questionsFile = join(work, 'questions.json');
  try {
    await writeFile(questionsFile, JSON.stringify(questions), 'utf8');
    let t = performance.now();
    encoder = await createDefaultNodeEncoder();
    const encoderMs = performance.now() - t;
    let systemOneMs = 0;
    const points: ScalePoint[] = [];
    if (!peersOnly) {
      t = performance.now();
      inner = await createSystemOneFromName(systemOneName, { env: process.env });
      systemOneMs = performance.now() - t;
      const backend: CountingBackend = countingBackend(inner);
      const open = (): Promise<Memory> => createNodeMemory({ store: dir, namespace: 'scale', encoder: sharedEncoder(encoder as Encoder), systemOne: backend, vectorIndex });
      memory = await open();
      let written = 0;
      for (const size of sizes) {
        const segStart = performance.now();
        const measured = Math.min(SCALE_MEASURED_WRITES, size - written);
        const bulk = observations.slice(written, size - measured);
        const tb = performance.now();
        if (bulk.length > 0) {
          let last = 0;
          await memory.addMany(bulk, {
            chunkSize: SCALE_BULK_CHUNK,
            onProgress: (p) => {
              if (performance.now() - last > 10_000) {
                last = performance.now();
                log(`scale: ${written + p.done}/${size} written (${p.perSecond.toFixed(0)}/s)`);
              }
            },
          });
        }
        const bulkImport = bulkFigures(bulk.length, performance.now() - tb);
        const before = backend.counts();
        const tw = performance.now();
        await memory.addMany(observations.slice(size - measured, size));
        const writeMs = performance.now() - tw;
        const s1 = countsDelta(backend.counts(), before);
        written = size;
        const segmentMs = performance.now() - segStart;
        rss.sample();
        const latencies = await timedRecalls(memory, questions);
        const stats = await memory.stats();
        const mem = process.memoryUsage();
        fullGc()?.();
        const heapAfterGc = process.memoryUsage().heapUsed;
        rss.sample();
        // The closed store, opened by a fresh process (its heap and RSS are the open's alone).
        await memory.close();
        const fileBytes = await filesBytes(dir);
        let fresh: OpenProbeReport | undefined;
        let freshError: string | undefined;
        try {
          fresh = await runOpenProbe({ store: dir, namespace: 'scale', questionsFile, systemOne: systemOneName, vectorIndex });
        } catch (e) {
          freshError = (e instanceof Error ? e.message : String(e)).split('\n')[0] as string;
          log(`scale: the fresh-process probe failed at ${size}: ${freshError}`);
        }
        // The in-process reopen (the store is closed already: measureReopen's close is a no-op here).
        const reopened: { memory: Memory; reopenMs: number; firstRecallMs: number; statsMs: number } = await measureReopen<Memory>({ close: async () => undefined } as unknown as Memory, open, questions[0] ?? 'hello');
        memory = reopened.memory;
        const { reopenMs, firstRecallMs, statsMs } = reopened;
        const point: ScalePoint = {
          size,
          nodes: stats.nodes,
          edges: stats.edges,
          write: writeFigures(measured, writeMs, s1, segmentMs),
          ...(bulkImport ? { bulk: bulkImport } : {}),
          recall: summarize(latencies),
          memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed, heapAfterGcBytes: heapAfterGc },
          storage: { bytes: stats.storageBytes ?? 0, bytesPerNode: stats.nodes > 0 ? (stats.storageBytes ?? 0) / stats.nodes : 0, fileBytes, fileBytesPerNode: stats.nodes > 0 ? fileBytes / stats.nodes : 0 },
          reopen: { ms: reopenMs, firstRecallMs, statsMs },
          ...(fresh ? { fresh } : {}),
          ...(freshError !== undefined ? { freshError } : {}),
        };
        points.push(point);
        log(`scale: ${size} nodes: ${point.bulk ? `bulk import ${point.bulk.perSecond.toFixed(0)}/s (${point.bulk.observations}), ` : ''}${point.write.perSecond.toFixed(0)} writes/s, recall p50 ${point.recall.p50.toFixed(1)} ms, reopen ${reopenMs.toFixed(0)} ms${fresh ? `, fresh process: open to first recall ${fresh.openToFirstRecallMs.toFixed(0)} ms, heap ${(fresh.after.heapUsedBytes / 2 ** 20).toFixed(0)} MiB, RSS ${(fresh.after.rssBytes / 2 ** 20).toFixed(0)} MiB` : ''}`);
      }
    }
    let peers: ScaleResults['peers'];
    if (o.peers === true || peersOnly) {
      await memory?.close();
      memory = undefined;
      try {
        peers = { orama: await runOramaScale({ observations, questions, sizes, encoder, dir, measuredWrites: SCALE_MEASURED_WRITES, log }) };
      } catch (e) {
        // growOrama has logged where it failed; anything else is said here
        const failure = oramaFailure(e, 'the Orama run failed: ');
        if (failure.step === undefined) log(`scale (Orama): failed: ${failure.note}`);
        peers = { orama: failure };
      }
    }
    return {
      format: 'jev-mem/bench-scale',
      version: 1,
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - t0,
      machine: machineInfo(),
      git: gitInfo(repoRoot()),
      settings: { sizes, recipe: SCALE_RECIPE, measuredWrites: SCALE_MEASURED_WRITES, queries: questions.length, systemOne: peersOnly ? 'none' : systemOneName, systemOneModel: inner?.modelId ?? 'none', encoder: encoder.fingerprint, vectorIndex, data: data.path, ...(peersOnly ? { peersOnly: true as const } : {}) },
      modelLoadMs: { encoder: encoderMs, systemOne: systemOneMs },
      points,
      peakRssBytes: Math.max(rss.stop(), 0),
      browser: { status: 'todo', note: 'Headless Chromium (IndexedDB store, System One in a Web Worker) was not run in this run (add --browser).' },
      ...(peers ? { peers } : {}),
    };
  } finally {
    rss.stop();
    await memory?.close().catch(() => undefined);
    await inner?.close().catch(() => undefined);
    await encoder?.close?.().catch(() => undefined);
    await rm(work, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Markdown summary of a scale run (the Node table, then the headless-Chromium one when it ran). */
export function renderScaleMarkdown(r: ScaleResults): string {
  if (r.settings.peersOnly === true) return renderPeersOnlyMarkdown(r);
  const lines = [
    '# jev-mem: one namespace at scale (Node)',
    '',
    `- Run: ${r.startedAt} (${(r.durationMs / 1000).toFixed(1)} s); code ${r.git.commit ?? 'no commit'}${r.git.dirty ? ' (uncommitted changes)' : ''}`,
    `- Machine: ${r.machine.cpuModel}, ${r.machine.cores} cores, Node ${r.machine.node}`,
    `- System One: ${r.settings.systemOne} (${r.settings.systemOneModel}), loaded in ${r.modelLoadMs.systemOne.toFixed(0)} ms; encoder ${r.settings.encoder} (${r.modelLoadMs.encoder.toFixed(0)} ms); vector index ${r.settings.vectorIndex}`,
    `- Observations: ${r.settings.recipe}`,
    `- Throughput is measured over the last ${r.settings.measuredWrites} writes before each size; recall over ${r.settings.queries} questions. Reopen: close, open and load the namespace; one \`stats()\` is timed apart (\`reopen.statsMs\` in results.json: ${r.points.map((p) => (p.reopen.statsMs === undefined ? '—' : `${p.reopen.statsMs.toFixed(0)} ms`)).join(', ')}).`,
    '',
    `- Bulk import (issue 25): the observations from the previous size up to the timed writes, through one \`addMany\` (chunks of ${SCALE_BULK_CHUNK}, maintenance included), memories/s (— where a run did not time it).`,
    '',
    '| size | edges | bulk import/s | writes/s | System-One calls/write | System-One ms/write | recall p50 ms | p95 ms | max ms | RSS MiB | heap MiB | heap after GC MiB | stored MiB | bytes/node | file bytes/node | reopen ms | first recall ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.points.map(
      (p) =>
        `| ${p.size} | ${p.edges} | ${bulkCell(p.bulk)} | ${p.write.perSecond.toFixed(0)} | ${p.write.systemOneCallsPerWrite.toFixed(3)} | ${p.write.systemOneMsPerWrite.toFixed(2)} | ${p.recall.p50.toFixed(1)} | ${p.recall.p95.toFixed(1)} | ${p.recall.max.toFixed(1)} | ${(p.memory.rssBytes / 2 ** 20).toFixed(0)} | ${(p.memory.heapUsedBytes / 2 ** 20).toFixed(0)} | ${p.memory.heapAfterGcBytes === undefined ? '—' : (p.memory.heapAfterGcBytes / 2 ** 20).toFixed(0)} | ${(p.storage.bytes / 2 ** 20).toFixed(1)} | ${p.storage.bytesPerNode.toFixed(0)} | ${p.storage.fileBytesPerNode === undefined ? '—' : p.storage.fileBytesPerNode.toFixed(0)} | ${p.reopen.ms.toFixed(0)} | ${p.reopen.firstRecallMs.toFixed(1)} |`,
    ),

    '',
    '![write throughput](scale-write.svg)',
    '',
    '![recall latency](scale-recall.svg)',
    '',
    '![memory](scale-memory.svg)',
    '',
    '![storage](scale-storage.svg)',
    '',
    '![reopen](scale-reopen.svg)',
    '',
    ...renderFreshMarkdown(r),
    ...(r.points.some((p) => p.fresh) ? ['![open to first recall, by runtime](scale-open.svg)', '', '![heap after open + 50 recalls, by runtime](scale-heap.svg)', ''] : []),
    ...renderGoalsMarkdown(r),
    ...renderEdgeMarkdown(r),
    ...renderScaleBrowserMarkdown(r.browser),
    '',
    ...renderScalePeersMarkdown(r),
  ];
  return lines.join('\n');
}

/** {@link renderScaleMarkdown} of a `--peers-only` run: no jev-mem tables, the peers' sections alone. */
function renderPeersOnlyMarkdown(r: ScaleResults): string {
  return [
    '# The peers alone at scale (`--peers-only`, no jev-mem)',
    '',
    `- Run: ${r.startedAt} (Node half ${(r.durationMs / 1000).toFixed(1)} s${r.browser.status === 'done' ? `, Chromium half ${(r.browser.durationMs / 1000).toFixed(1)} s` : ''}); code ${r.git.commit ?? 'no commit'}${r.git.dirty ? ' (uncommitted changes)' : ''}`,
    `- Machine: ${r.machine.cpuModel}, ${r.machine.cores} cores, Node ${r.machine.node}; encoder ${r.settings.encoder}`,
    `- Observations: ${r.settings.recipe}; ${r.settings.queries} questions at each size.`,
    '',
    ...renderScalePeersMarkdown(r),
    ...renderScaleBrowserMarkdown(r.browser),
    '',
  ].join('\n');
}

/** The Chromium fresh-page lines (issue 25); empty in runs without it. */
export function renderFreshPageMarkdown(f: ScaleBrowserResults['freshPage']): string[] {
  if (f === undefined) return [];
  if ('status' in f) return [`Fresh page: ${f.status} — ${f.note}`, ''];
  const m = (b: number | undefined): string => (b === undefined ? '—' : (b / 2 ** 20).toFixed(0));
  return [
    `### Chromium, a fresh page on the closed store (${f.size} memories)`,
    '',
    'The writing page is closed; a new page of the same profile loads the encoder and the System-One worker, opens the namespace (`createBrowserMemory`) and asks the questions. Heap: the page\'s `performance.memory.usedJSHeapSize` (the worker\'s not included).',
    '',
    '| open to first recall ms | open ms | first recall ms | model load ms | recall p50 ms | p95 ms | heap after MiB | heap with models MiB | nodes |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${f.openToFirstRecallMs.toFixed(0)} | ${f.openMs.toFixed(0)} | ${f.firstRecallMs.toFixed(0)} | ${f.modelLoadMs.toFixed(0)} | ${f.recall.p50.toFixed(1)} | ${f.recall.p95.toFixed(1)} | ${m(f.heapUsedBytes)} | ${m(f.modelsHeapBytes)} | ${f.nodes} |`,
    '',
  ];
}

/** A bulk-import rate for the tables: memories/s, or — when not timed. */
export function bulkCell(b: BulkImportFigures | undefined): string {
  return b === undefined ? '—' : b.perSecond.toFixed(0);
}

function mib(bytes: number | null | undefined): string {
  return bytes === null || bytes === undefined || !Number.isFinite(bytes) ? '—' : (bytes / 2 ** 20).toFixed(1);
}

/**
 * The peers' section (`--peers`): Orama's figures and, size by size, jev-mem's beside them, with
 * the winner of each comparable figure named. Empty when the peers did not run.
 */
export function renderScalePeersMarkdown(r: ScaleResults): string[] {
  const o = r.peers?.orama;
  if (!o) return [];
  if (o.status !== 'done') return ['## Peers (Node)', '', `Orama: failed — ${o.note}`, '', ...partialLines(o.partial), ...(o.points?.length ? ['Sizes done before it failed:', '', ...oramaNodeTable(o.points), ''] : [])];
  const lines = [
    '## Peers (Node): Orama',
    '',
    `- @orama/orama ${o.version}: ${o.setup}; run ${(o.durationMs / 1000).toFixed(1)} s.`,
    '- inserts/s: the last writes before each size (same count as jev-mem), Orama `insertMultiple` alone and with embedding the texts (jev-mem\'s writes/s embed too, and run System One, the graph and the file store). Search: hybrid search with the question\'s vector, question embedding included (as in jev-mem\'s recall). Retained heap: heap after a full GC minus before the database existed. Save/restore: the data-persistence plugin\'s default binary format (msgpack as hex) to a file.',
    '',
    ...oramaNodeTable(o.points),
    '',
  ];
  if (r.points.length === 0) return lines; // --peers-only: nothing to set beside
  lines.push(
    '### Side by side (Node)',
    '',
    '| size | writes/s jev-mem | Orama (with embedding) | p95 ms jev-mem recall | Orama hybrid search | heap MiB jev-mem | Orama | stored MiB jev-mem | Orama file | reopen ms jev-mem | Orama restore |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const p of o.points) {
    const j = r.points.find((x) => x.size === p.size);
    if (!j) continue;
    lines.push(
      `| ${p.size} | ${j.write.perSecond.toFixed(0)} | ${p.insert.perSecondWithEmbedding.toFixed(0)} | ${j.recall.p95.toFixed(1)} | ${p.search.p95.toFixed(1)} | ${mib(j.memory.heapUsedBytes)} | ${mib(p.memory.heapUsedBytes)} | ${mib(j.storage.bytes)} | ${mib(p.persist.bytes)} | ${j.reopen.ms.toFixed(0)} | ${p.persist.restoreMs.toFixed(0)} |`,
    );
  }
  lines.push('', `Where each wins: ${scalePeerWins(r).join('; ')}.`, '');
  return lines;
}

/** Orama's table of the Node peers section (also the sizes done before a failure). */
/** What an Orama run measured at the size it failed at, before the failure (a line and a blank, or nothing). */
export function partialLines(p: OramaFailure['partial']): string[] {
  if (p === undefined) return [];
  const parts: string[] = [];
  if (p.insert) parts.push(`${p.insert.perSecond.toFixed(0)} inserts/s (${p.insert.perSecondWithEmbedding.toFixed(0)}/s with embedding)`);
  if (p.search) parts.push(`hybrid search p50 ${p.search.p50.toFixed(1)} ms, p95 ${p.search.p95.toFixed(1)} ms (embedding included)`);
  if (p.memory && p.memory.heapUsedBytes !== null && Number.isFinite(p.memory.heapUsedBytes)) parts.push(`heap ${(p.memory.heapUsedBytes / 2 ** 20).toFixed(0)} MiB`);
  return parts.length === 0 ? [] : [`Measured at ${p.size.toLocaleString('en-US')} before it failed: ${parts.join('; ')}.`, ''];
}

function oramaNodeTable(points: readonly OramaScalePoint[]): string[] {
  return [
    '| size | inserts/s (Orama alone) | inserts/s (with embedding) | search p50 ms | p95 ms | search alone p95 ms | heap MiB | retained heap MiB | save ms | file MiB | restore ms | first search ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...points.map(
      (p) =>
        `| ${p.size} | ${p.insert.perSecond.toFixed(0)} | ${p.insert.perSecondWithEmbedding.toFixed(0)} | ${p.search.p50.toFixed(1)} | ${p.search.p95.toFixed(1)} | ${p.searchOnly.p95.toFixed(1)} | ${mib(p.memory.heapUsedBytes)} | ${mib(p.memory.retainedHeapBytes)} | ${p.persist.saveMs.toFixed(0)} | ${mib(p.persist.bytes)} | ${p.persist.restoreMs.toFixed(0)} | ${p.persist.firstSearchMs.toFixed(1)} |`,
    ),
  ];
}

/** jev-mem's figures at one size that a peer's are compared with ({@link peerWins}). */
export interface JevPeerFigures {
  size: number;
  /** Writes per second. */
  perSecond: number;
  /** Recall p95, ms. */
  p95: number;
  /** Used JS heap, bytes (NaN where unknown). */
  heapBytes: number;
  /** Stored bytes. */
  storedBytes: number;
  /** Reopen, ms. */
  reopenMs: number;
}

/**
 * For each comparable figure (writes/s vs Orama's inserts/s with embedding, recall vs hybrid
 * search p95, heap, stored bytes, reopen vs restore), which system is better at every size where
 * both ran: "Orama" / "jev-mem", or "mixed" when it changes with the size. A tie goes to jev-mem;
 * a figure unknown (NaN) on either side at every size is left out.
 */
export function peerWins(jev: readonly JevPeerFigures[], orama: readonly OramaScalePoint[]): string[] {
  const pairs = orama.flatMap((p) => {
    const j = jev.find((x) => x.size === p.size);
    return j ? [{ p, j }] : [];
  });
  const figure = (name: string, of: (j: JevPeerFigures) => number, ofOrama: (p: OramaScalePoint) => number, higherIsBetter: boolean): string[] => {
    const known = pairs.filter(({ p, j }) => Number.isFinite(of(j)) && Number.isFinite(ofOrama(p)));
    if (known.length === 0) return [];
    const winners = new Set(known.map(({ p, j }) => ((higherIsBetter ? ofOrama(p) > of(j) : ofOrama(p) < of(j)) ? 'Orama' : 'jev-mem')));
    return [`${name}: ${winners.size === 1 ? [...winners][0] : 'mixed'}`];
  };
  return [
    ...figure('write/insert rate', (j) => j.perSecond, (p) => p.insert.perSecondWithEmbedding, true),
    ...figure('p95 latency', (j) => j.p95, (p) => p.search.p95, false),
    ...figure('heap', (j) => j.heapBytes, (p) => p.memory.heapUsedBytes ?? Number.NaN, false),
    ...figure('stored bytes', (j) => j.storedBytes, (p) => p.persist.bytes, false),
    ...figure('reopen/restore', (j) => j.reopenMs, (p) => p.persist.restoreMs, false),
  ];
}

/** {@link peerWins} of the Node half of `--peers`; empty when Orama did not run there. */
export function scalePeerWins(r: ScaleResults): string[] {
  const o = r.peers?.orama;
  if (!o || o.status !== 'done') return [];
  return peerWins(
    r.points.map((j) => ({ size: j.size, perSecond: j.write.perSecond, p95: j.recall.p95, heapBytes: j.memory.heapUsedBytes, storedBytes: j.storage.bytes, reopenMs: j.reopen.ms })),
    o.points,
  );
}

/** {@link peerWins} of the Chromium half of `--peers --browser`; empty when Orama did not run in the page. */
export function scaleBrowserPeerWins(b: ScaleResults['browser']): string[] {
  if (b.status !== 'done' || b.peers?.orama.status !== 'done') return [];
  return peerWins(
    b.points.map((j) => ({ size: j.size, perSecond: j.write.perSecond, p95: j.recall.p95, heapBytes: j.heapUsedBytes ?? Number.NaN, storedBytes: j.storage.bytes, reopenMs: j.reopen.ms })),
    b.peers.orama.points,
  );
}

/** Orama's table of the Chromium peers section (also the sizes done before a failure). */
function oramaBrowserTable(points: readonly OramaScalePoint[]): string[] {
  return [
    '| size | inserts/s (Orama alone) | inserts/s (with embedding) | search p50 ms | p95 ms | search alone p95 ms | heap MiB | retained heap MiB | save ms (persist + put) | saved MiB | restore ms (get + restore) | first search ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...points.map((p) => {
      const parts = p.persist.parts;
      const save = parts ? `${p.persist.saveMs.toFixed(0)} (${parts.serializeMs.toFixed(0)} + ${parts.writeMs.toFixed(0)})` : p.persist.saveMs.toFixed(0);
      const restore = parts ? `${p.persist.restoreMs.toFixed(0)} (${parts.readMs.toFixed(0)} + ${parts.deserializeMs.toFixed(0)})` : p.persist.restoreMs.toFixed(0);
      return `| ${p.size} | ${p.insert.perSecond.toFixed(0)} | ${p.insert.perSecondWithEmbedding.toFixed(0)} | ${p.search.p50.toFixed(1)} | ${p.search.p95.toFixed(1)} | ${p.searchOnly.p95.toFixed(1)} | ${mib(p.memory.heapUsedBytes)} | ${mib(p.memory.retainedHeapBytes)} | ${save} | ${mib(p.persist.bytes)} | ${restore} | ${p.persist.firstSearchMs.toFixed(1)} |`;
    }),
  ];
}

function renderScaleBrowserPeersMarkdown(b: ScaleBrowserResults): string[] {
  const o = b.peers?.orama;
  if (!o) return [];
  if (o.status !== 'done') return ['', '### Peers (Chromium)', '', `Orama: failed — ${o.note}`, '', ...partialLines(o.partial), ...(o.points?.length ? ['Sizes done before it failed:', '', ...oramaBrowserTable(o.points)] : [])];
  const lines = [
    '',
    '### Peers (Chromium): Orama',
    '',
    `- @orama/orama ${o.version ?? '?'}: ${o.setup ?? ''}; run ${(o.durationMs / 1000).toFixed(1)} s.`,
    '- inserts/s and search as in the Node peers section. Save = `persist()` + the IndexedDB put; restore = the IndexedDB get + `restore()` (the counterpart of jev-mem\'s IndexedDB reopen, close + open + load); saved MiB = the hex string\'s length (msgpack bytes × 2); jev-mem\'s stored MiB is the origin\'s `navigator.storage.estimate().usage`.',
    '',
    ...oramaBrowserTable(o.points),
  ];
  if (b.points.length === 0) return lines; // --peers-only
  lines.push(
    '',
    '#### Side by side (Chromium)',
    '',
    '| size | writes/s jev-mem | Orama (with embedding) | p95 ms jev-mem recall | Orama hybrid search | heap MiB jev-mem | Orama | stored MiB jev-mem | Orama saved | reopen ms jev-mem | Orama restore |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const p of o.points) {
    const j = b.points.find((x) => x.size === p.size);
    if (!j) continue;
    lines.push(
      `| ${p.size} | ${j.write.perSecond.toFixed(0)} | ${p.insert.perSecondWithEmbedding.toFixed(0)} | ${j.recall.p95.toFixed(1)} | ${p.search.p95.toFixed(1)} | ${mib(j.heapUsedBytes)} | ${mib(p.memory.heapUsedBytes)} | ${mib(j.storage.bytes)} | ${mib(p.persist.bytes)} | ${j.reopen.ms.toFixed(0)} | ${p.persist.restoreMs.toFixed(0)} |`,
    );
  }
  lines.push('', `Where each wins (Chromium): ${scaleBrowserPeerWins(b).join('; ')}.`);
  return lines;
}

function renderScaleBrowserMarkdown(b: ScaleResults['browser']): string[] {
  if (b.status !== 'done') return [`Browser (headless Chromium): ${b.status} — ${b.note}`];
  if (b.points.length === 0) return ['## Headless Chromium', '', `- ${b.chromium}, cross-origin isolated: ${b.crossOriginIsolated ? 'yes' : 'no'}; ${b.setup}; encoder ${b.encoder} (${b.modelLoadMs.encoder.toFixed(0)} ms); run ${(b.durationMs / 1000).toFixed(1)} s`, ...renderScaleBrowserPeersMarkdown(b)];
  return [
    '## Headless Chromium',
    '',
    `- ${b.chromium}, cross-origin isolated: ${b.crossOriginIsolated ? 'yes' : 'no'}; ${b.setup}`,
    `- System One ${b.systemOneModel} loaded in the worker in ${b.modelLoadMs.systemOne.toFixed(0)} ms; encoder ${b.encoder} (${b.modelLoadMs.encoder.toFixed(0)} ms); run ${(b.durationMs / 1000).toFixed(1)} s`,
    `- Reopen: close, open and load the namespace; one \`stats()\` is timed apart (O(1): its \`storageBytes\` is the store's kept byte counter, one read): ${b.points.map((p) => (p.reopen.statsMs === undefined ? '—' : `${p.reopen.statsMs.toFixed(0)} ms`)).join(', ')}.`,
    '- Same recipe and questions as above. Heap is the page\'s `performance.memory.usedJSHeapSize` (the worker\'s is not included; a page cannot see RSS); stored bytes are `navigator.storage.estimate().usage`. Default sizes 1k and 10k; 100k (`bench scale 1000,10000,100000 --browser`) takes about 15 min of IndexedDB writes on a 2-core machine (the write rate falls from ~240/s to ~60/s as the store grows), in a fresh on-disk profile (an incognito context\'s quota runs out at ~80k nodes).',
    '',
    '| size | edges | bulk import/s | writes/s | System-One calls/write | System-One ms/write | recall p50 ms | p95 ms | max ms | heap MiB | stored MiB | bytes/node | reopen ms | first recall ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...b.points.map(
      (p) =>
        `| ${p.size} | ${p.edges} | ${bulkCell(p.bulk)} | ${p.write.perSecond.toFixed(0)} | ${p.write.systemOneCallsPerWrite.toFixed(3)} | ${p.write.systemOneMsPerWrite.toFixed(2)} | ${p.recall.p50.toFixed(1)} | ${p.recall.p95.toFixed(1)} | ${p.recall.max.toFixed(1)} | ${p.heapUsedBytes === undefined ? '—' : (p.heapUsedBytes / 2 ** 20).toFixed(0)} | ${(p.storage.bytes / 2 ** 20).toFixed(1)} | ${p.storage.bytesPerNode.toFixed(0)} | ${p.reopen.ms.toFixed(0)} | ${p.reopen.firstRecallMs.toFixed(1)} |`,
    ),
    '',
    ...renderFreshPageMarkdown(b.freshPage),
    '![Chromium write throughput](scale-browser-write.svg)',
    '',
    '![Chromium recall latency](scale-browser-recall.svg)',
    ...renderScaleBrowserPeersMarkdown(b),
    ...(b.peers?.orama.status === 'done' ? ['', '![Chromium heap](scale-browser-memory.svg)', '', '![Chromium stored bytes](scale-browser-storage.svg)', '', '![Chromium reopen / restore](scale-browser-reopen.svg)'] : []),
  ];
}

/** Writes results.json, results.md and one chart per figure (Chromium ones too, when it ran) into `outDir`; returns the paths. */
export async function writeScaleOutputs(r: ScaleResults, outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const x = r.points.map((p) => p.size);
  const chart = (title: string, yLabel: string, series: Array<{ name: string; values: Array<number | null> }>): string => lineChart({ title, x, series, xLabel: 'observations in the namespace (log scale)', yLabel, logX: true });
  // With --peers, Orama's series join jev-mem's (same sizes, same x).
  const orama = r.peers?.orama.status === 'done' ? r.peers.orama : undefined;
  const at = (f: (p: OramaScalePoint) => number): Array<number | null> => x.map((size) => {
    const p = orama?.points.find((q) => q.size === size);
    return p ? f(p) : null;
  });
  const jp = (name: string): string => (orama ? `jev-mem ${name}` : name);
  const peer = (series: Array<{ name: string; values: Array<number | null> }>): Array<{ name: string; values: Array<number | null> }> => (orama ? series : []);
  if (r.settings.peersOnly === true) {
    // --peers-only: the charts are drawn over jev-mem's sizes; the tables say it all
    return writeFiles(outDir, [
      ['results.json', `${JSON.stringify(r, null, 2)}\n`],
      ['results.md', renderScaleMarkdown(r)],
    ]);
  }
  const files: Array<[string, string]> = [
    ['results.json', `${JSON.stringify(r, null, 2)}\n`],
    ['results.md', renderScaleMarkdown(r)],
    ['scale-write.svg', chart(orama ? 'Write / insert throughput (Node)' : 'Write throughput', 'observations / s', [
      { name: jp('writes/s'), values: r.points.map((p) => p.write.perSecond) },
      ...peer([
        { name: 'Orama, with embedding', values: at((p) => p.insert.perSecondWithEmbedding) },
        { name: 'Orama insert alone', values: at((p) => p.insert.perSecond) },
      ]),
    ])],
    ['scale-recall.svg', chart(orama ? 'Recall / hybrid search latency (Node)' : 'Recall latency', 'ms', [
      { name: jp('p50'), values: r.points.map((p) => p.recall.p50) },
      { name: jp('p95'), values: r.points.map((p) => p.recall.p95) },
      ...peer([
        { name: 'Orama p50', values: at((p) => p.search.p50) },
        { name: 'Orama p95', values: at((p) => p.search.p95) },
      ]),
    ])],
    ['scale-memory.svg', chart('Process memory', 'MiB', [
      { name: jp('RSS'), values: r.points.map((p) => p.memory.rssBytes / 2 ** 20) },
      { name: jp('heap used'), values: r.points.map((p) => p.memory.heapUsedBytes / 2 ** 20) },
      ...peer([
        { name: 'Orama heap used', values: at((p) => p.memory.heapUsedBytes / 2 ** 20) },
        { name: 'Orama retained heap', values: at((p) => (p.memory.retainedHeapBytes ?? Number.NaN) / 2 ** 20) },
      ]),
    ])],
    ['scale-storage.svg', chart('Stored bytes', 'MiB', [
      { name: jp('file store'), values: r.points.map((p) => p.storage.bytes / 2 ** 20) },
      ...peer([{ name: 'Orama saved file', values: at((p) => p.persist.bytes / 2 ** 20) }]),
    ])],
    ['scale-reopen.svg', chart(orama ? 'Reopen / restore (Node)' : 'Reopen the store', 'ms', [
      { name: jp('open + load'), values: r.points.map((p) => p.reopen.ms) },
      { name: jp('first recall'), values: r.points.map((p) => p.reopen.firstRecallMs) },
      ...peer([
        { name: 'Orama restore', values: at((p) => p.persist.restoreMs) },
        { name: 'Orama save', values: at((p) => p.persist.saveMs) },
      ]),
    ])],
    ['scale-system-one.svg', chart('System One per write', 'ms', [{ name: 'ms / write', values: r.points.map((p) => p.write.systemOneMsPerWrite) }])],
  ];
  if (r.points.some((p) => p.fresh)) {
    // Issue 13: each runtime's open to first recall and heap after open + 50 recalls, on the union of their sizes.
    const rs = runtimeSeries(r);
    const rchart = (title: string, yLabel: string, series: Array<{ name: string; values: Array<number | null> }>): string => lineChart({ title, x: rs.x, series, xLabel: 'observations in the namespace (log scale)', yLabel, logX: true });
    files.push(['scale-open.svg', rchart('Open to first recall, by runtime', 'ms', rs.open)], ['scale-heap.svg', rchart('Heap after open + 50 recalls, by runtime', 'MiB', rs.heap)]);
  }
  if (r.browser.status === 'done') {
    const b = r.browser;
    const bx = b.points.map((p) => p.size);
    const bchart = (title: string, yLabel: string, series: Array<{ name: string; values: Array<number | null> }>): string => lineChart({ title, x: bx, series, xLabel: 'observations in the namespace (log scale)', yLabel, logX: true });
    // With --peers, Orama's series in the page join jev-mem's (same sizes).
    const bo = b.peers?.orama.status === 'done' ? b.peers.orama : undefined;
    const bat = (f: (p: OramaScalePoint) => number | null): Array<number | null> => bx.map((size) => {
      const p = bo?.points.find((q) => q.size === size);
      const v = p ? f(p) : null;
      return v === null || !Number.isFinite(v) ? null : v;
    });
    const bj = (name: string): string => (bo ? `jev-mem ${name}` : name);
    const bpeer = (series: Array<{ name: string; values: Array<number | null> }>): Array<{ name: string; values: Array<number | null> }> => (bo ? series : []);
    files.push(
      ['scale-browser-write.svg', bchart(bo ? 'Write / insert throughput (headless Chromium)' : 'Write throughput (headless Chromium)', 'observations / s', [
        { name: bj('writes/s'), values: b.points.map((p) => p.write.perSecond) },
        ...bpeer([
          { name: 'Orama, with embedding', values: bat((p) => p.insert.perSecondWithEmbedding) },
          { name: 'Orama insert alone', values: bat((p) => p.insert.perSecond) },
        ]),
      ])],
      ['scale-browser-recall.svg', bchart(bo ? 'Recall / hybrid search latency (headless Chromium)' : 'Recall latency (headless Chromium)', 'ms', [
        { name: bj('p50'), values: b.points.map((p) => p.recall.p50) },
        { name: bj('p95'), values: b.points.map((p) => p.recall.p95) },
        ...bpeer([
          { name: 'Orama p50', values: bat((p) => p.search.p50) },
          { name: 'Orama p95', values: bat((p) => p.search.p95) },
        ]),
      ])],
    );
    if (bo) {
      files.push(
        ['scale-browser-memory.svg', bchart('Page heap (headless Chromium)', 'MiB', [
          { name: 'jev-mem heap used', values: b.points.map((p) => (p.heapUsedBytes === undefined || p.heapUsedBytes === null ? null : p.heapUsedBytes / 2 ** 20)) },
          { name: 'Orama heap used', values: bat((p) => p.memory.heapUsedBytes / 2 ** 20) },
          { name: 'Orama retained heap', values: bat((p) => (p.memory.retainedHeapBytes === null ? null : p.memory.retainedHeapBytes / 2 ** 20)) },
        ])],
        ['scale-browser-storage.svg', bchart('Stored bytes (headless Chromium)', 'MiB', [
          { name: 'jev-mem origin usage (IndexedDB)', values: b.points.map((p) => p.storage.bytes / 2 ** 20) },
          { name: 'Orama saved string', values: bat((p) => p.persist.bytes / 2 ** 20) },
        ])],
        ['scale-browser-reopen.svg', bchart('Reopen / restore (headless Chromium)', 'ms', [
          { name: 'jev-mem open + load', values: b.points.map((p) => p.reopen.ms) },
          { name: 'jev-mem first recall', values: b.points.map((p) => p.reopen.firstRecallMs) },
          { name: 'Orama restore (get + restore)', values: bat((p) => p.persist.restoreMs) },
          { name: 'Orama save (persist + put)', values: bat((p) => p.persist.saveMs) },
        ])],
      );
    }
  }
  return writeFiles(outDir, files);
}

async function writeFiles(outDir: string, files: ReadonlyArray<readonly [string, string]>): Promise<string[]> {
  const written: string[] = [];
  for (const [name, text] of files) {
    const p = join(outDir, name);
    await writeFile(p, text, 'utf8');
    written.push(p);
  }
  return written;
}

/** A runtime of the issue-13 goals table. */
export type GoalRuntime = 'Node' | 'Chromium' | 'Durable Object';

/** One goal: a figure's bound at 100k memories (issue 13, "Goals"). */
export interface ScaleGoal {
  figure: 'open to first recall ms' | 'heap after open + 50 recalls MiB' | 'writes/s' | 'recall p95 ms' | 'stored bytes/node' | 'bulk import memories/s';
  /** `max`: the value must be at most `bound`; `min`: at least. */
  kind: 'max' | 'min';
  bound: Record<GoalRuntime, number>;
}

/** The goals of issue 13 at 100k memories, by runtime. */
export const SCALE_GOALS: readonly ScaleGoal[] = Object.freeze([
  { figure: 'open to first recall ms', kind: 'max', bound: { Node: 1000, Chromium: 2000, 'Durable Object': 2000 } },
  { figure: 'heap after open + 50 recalls MiB', kind: 'max', bound: { Node: 250, Chromium: 300, 'Durable Object': 100 } },
  { figure: 'writes/s', kind: 'min', bound: { Node: 400, Chromium: 300, 'Durable Object': 200 } },
  { figure: 'recall p95 ms', kind: 'max', bound: { Node: 40, Chromium: 50, 'Durable Object': 60 } },
  { figure: 'stored bytes/node', kind: 'max', bound: { Node: 2000, Chromium: 2500, 'Durable Object': 2500 } },
  // Issue 25: a year of chat history imported through addMany.
  { figure: 'bulk import memories/s', kind: 'min', bound: { Node: 1500, Chromium: 600, 'Durable Object': 400 } },
] as ScaleGoal[]);

/** The size the goals are stated at. */
export const SCALE_GOAL_SIZE = 100_000;

/** One cell of the goals table. */
export interface GoalCell {
  runtime: GoalRuntime;
  figure: ScaleGoal['figure'];
  /** The size the value was measured at: 100k when it ran, else the largest size of that runtime. */
  size: number;
  /** null where the runtime does not show the figure (a Durable Object's isolate heap). */
  value: number | null;
  bound: number;
  /** Whether the value meets the bound; null when there is no value. */
  ok: boolean | null;
  /** What the value is, when it is not the plain figure. */
  note?: string;
}

/** Figures of one runtime at one size, as the goals table reads them. */
type GoalFigures = { size: number; values: Record<ScaleGoal['figure'], number | null | undefined>; notes?: Partial<Record<ScaleGoal['figure'], string>> };

function atGoalSize<P extends { size: number }>(points: readonly P[]): P | undefined {
  return points.find((p) => p.size === SCALE_GOAL_SIZE) ?? [...points].sort((a, b) => b.size - a.size)[0];
}

/**
 * The goals table of a run: for each runtime that ran, its point at 100k (else its largest size)
 * against {@link SCALE_GOALS}. Node reads the fresh-process probe (open to first recall, heap
 * after open + the recalls; without it, the in-process reopen + first recall and the writer's
 * heap, noted); Chromium the page's reopen + first recall and its heap after the recalls; the
 * Durable Object its fresh-workerd first recall, and no heap (noted with workerd's RSS).
 */
export function goalCells(r: ScaleResults): GoalCell[] {
  const runtimes: Array<[GoalRuntime, GoalFigures | undefined]> = [];
  const n = atGoalSize(r.points);
  runtimes.push(['Node', n && {
    size: n.size,
    values: {
      'open to first recall ms': n.fresh ? n.fresh.openToFirstRecallMs : n.reopen.ms + n.reopen.firstRecallMs,
      'heap after open + 50 recalls MiB': (n.fresh ? n.fresh.after.heapUsedBytes : n.memory.heapUsedBytes) / 2 ** 20,
      'writes/s': n.write.perSecond,
      'recall p95 ms': n.recall.p95,
      'stored bytes/node': n.storage.bytesPerNode,
      'bulk import memories/s': n.bulk?.perSecond,
    },
    ...(n.fresh ? { notes: { 'heap after open + 50 recalls MiB': `fresh process, RSS ${(n.fresh.after.rssBytes / 2 ** 20).toFixed(0)} MiB` } } : { notes: { 'open to first recall ms': 'in-process reopen + first recall', 'heap after open + 50 recalls MiB': 'the writer process' } }),
  }]);
  const b = r.browser.status === 'done' ? atGoalSize(r.browser.points) : undefined;
  // The fresh page (issue 25) where it ran at that size; else the writing page's reopen and heap.
  const fp = r.browser.status === 'done' && r.browser.freshPage !== undefined && !('status' in r.browser.freshPage) && r.browser.freshPage.size === b?.size ? r.browser.freshPage : undefined;
  runtimes.push(['Chromium', b && {
    size: b.size,
    values: {
      'open to first recall ms': fp ? fp.openToFirstRecallMs : b.reopen.ms + b.reopen.firstRecallMs,
      'heap after open + 50 recalls MiB': fp ? (fp.heapUsedBytes === undefined ? null : fp.heapUsedBytes / 2 ** 20) : b.heapUsedBytes === undefined || b.heapUsedBytes === null ? null : b.heapUsedBytes / 2 ** 20,
      'writes/s': b.write.perSecond,
      'recall p95 ms': b.recall.p95,
      'stored bytes/node': b.storage.bytesPerNode,
      'bulk import memories/s': b.bulk?.perSecond,
    },
    notes: fp ? { 'open to first recall ms': 'fresh page', 'heap after open + 50 recalls MiB': 'fresh page' } : { 'heap after open + 50 recalls MiB': 'the writing page, before the reopen' },
  }]);
  const e = r.edge?.status === 'done' ? atGoalSize(r.edge.points) : undefined;
  const rss = e?.memory.after.rssBytes;
  runtimes.push(['Durable Object', e && {
    size: e.size,
    values: { 'open to first recall ms': e.open.openToFirstRecallMs, 'heap after open + 50 recalls MiB': null, 'writes/s': e.write.perSecond, 'recall p95 ms': e.recall.p95, 'stored bytes/node': e.storage.bytesPerNode, 'bulk import memories/s': e.bulk?.perSecond },
    notes: { 'heap after open + 50 recalls MiB': `isolate heap not observable; workerd RSS ${rss === null || rss === undefined ? '?' : (rss / 2 ** 20).toFixed(0)} MiB` },
  }]);
  const cells: GoalCell[] = [];
  for (const [runtime, f] of runtimes) {
    if (!f) continue;
    for (const g of SCALE_GOALS) {
      const value = f.values[g.figure];
      if (value === undefined) continue; // not measured in this run (a figure added later)
      const bound = g.bound[runtime];
      const ok = value === null || !Number.isFinite(value) ? null : g.kind === 'max' ? value <= bound : value >= bound;
      const note = f.notes?.[g.figure];
      cells.push({ runtime, figure: g.figure, size: f.size, value: value !== null && Number.isFinite(value) ? value : null, bound, ok, ...(note !== undefined ? { note } : {}) });
    }
  }
  return cells;
}

/** The goals table in Markdown ({@link goalCells}): one row per figure, one column per runtime that ran. */
export function renderGoalsMarkdown(r: ScaleResults): string[] {
  const cells = goalCells(r);
  const runtimes = [...new Set(cells.map((c) => c.runtime))];
  if (runtimes.length === 0) return [];
  const header = runtimes.map((rt) => `${rt} at ${cells.find((c) => c.runtime === rt)?.size ?? '?'}`);
  const fmt = (c: GoalCell): string => {
    const v = c.value === null ? '—' : c.value >= 100 ? c.value.toFixed(0) : c.value.toFixed(1);
    const mark = c.ok === null ? '' : c.ok ? ' ✓' : ' ✗';
    return `${v} (${SCALE_GOALS.find((g) => g.figure === c.figure)?.kind === 'min' ? '≥' : '≤'} ${c.bound})${mark}${c.note ? ` — ${c.note}` : ''}`;
  };
  return [
    '## Goals of issues 13 and 25',
    '',
    `Each runtime at ${SCALE_GOAL_SIZE} observations when it ran there, else at its largest size (the goals are stated at ${SCALE_GOAL_SIZE}); the goal in brackets, ✓ met, ✗ missed.`,
    '',
    `| figure | ${header.join(' | ')} |`,
    `|---|${runtimes.map(() => '---').join('|')}|`,
    ...SCALE_GOALS.map((g) => `| ${g.figure} | ${runtimes.map((rt) => {
      const c = cells.find((x) => x.runtime === rt && x.figure === g.figure);
      return c ? fmt(c) : '—';
    }).join(' | ')} |`),
    '',
  ];
}

/** The Node fresh-process table (issue 13); empty when no point has a probe. */
export function renderFreshMarkdown(r: ScaleResults): string[] {
  if (!r.points.some((p) => p.fresh || p.freshError !== undefined)) return [];
  const m = (b: number | undefined): string => (b === undefined ? '—' : (b / 2 ** 20).toFixed(0));
  return [
    '### Node, a fresh process on the closed store',
    '',
    'At each size the writer closes the store and a new Node process (`bench/scale/open-probe.ts`, `--expose-gc`) loads the encoder and System One, opens the store and asks the 50 questions. Open to first recall runs from `createNodeMemory` to the first recall\'s answer; heap and RSS are `process.memoryUsage()` after the recalls (heap after GC: after a full `gc()`); the baseline is the same process with the models loaded, before the open.',
    '',
    '| size | open to first recall ms | open ms | model load ms | recall p50 ms | p95 ms | heap MiB | heap after GC MiB | RSS MiB | peak RSS MiB | baseline heap MiB | baseline RSS MiB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.points.map((p) => {
      const f = p.fresh;
      if (!f) return `| ${p.size} | failed: ${p.freshError ?? 'not run'} |||||||||||`;
      return `| ${p.size} | ${f.openToFirstRecallMs.toFixed(0)} | ${f.openMs.toFixed(0)} | ${f.modelLoadMs.toFixed(0)} | ${f.recall.p50.toFixed(1)} | ${f.recall.p95.toFixed(1)} | ${m(f.after.heapUsedBytes)} | ${m(f.after.heapAfterGcBytes)} | ${m(f.after.rssBytes)} | ${m(f.peakRssBytes)} | ${m(f.baseline.heapUsedBytes)} | ${m(f.baseline.rssBytes)} |`;
    }),
    '',
  ];
}

/** The workerd section (`--edge`); one line when it did not run or failed. */
export function renderEdgeMarkdown(r: ScaleResults): string[] {
  const e = r.edge;
  if (!e) return [];
  if (e.status !== 'done') return [`Durable Object (workerd): ${e.status} — ${e.note}`, ''];
  const m = (b: number | null): string => (b === null ? '—' : (b / 2 ** 20).toFixed(0));
  return [
    '## Durable Object (workerd through Miniflare)',
    '',
    `- ${e.setup}; run ${(e.durationMs / 1000).toFixed(1)} s.`,
    `- Heap: ${e.heapNote}.`,
    '- Open to first recall: Miniflare restarted on the same storage, a recall in a one-memory warm-up namespace loads the models (shared by the isolate), then the first recall on the grown namespace (its Durable Object opens). Stored bytes: the files of the persistence folder (SQLite and its WAL), less the warm-up namespace\'s; reported: the Worker\'s own `storageBytes`.',
    '',
    '| size | edges | bulk import/s | writes/s | recall p50 ms | p95 ms | restart ms | model load ms | open to first recall ms | fresh recall p95 ms | workerd RSS MiB (models loaded) | after open + recalls | peak | stored MiB | bytes/node | reported MiB |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...e.points.map(
      (p) =>
        `| ${p.size} | ${p.edges} | ${bulkCell(p.bulk)} | ${p.write.perSecond.toFixed(0)} | ${p.recall.p50.toFixed(1)} | ${p.recall.p95.toFixed(1)} | ${p.open.restartMs.toFixed(0)} | ${p.open.modelLoadMs.toFixed(0)} | ${p.open.openToFirstRecallMs.toFixed(0)} | ${p.open.recall.p95.toFixed(1)} | ${m(p.memory.baseline.rssBytes)} | ${m(p.memory.after.rssBytes)} | ${m(p.memory.after.peakRssBytes)} | ${(p.storage.bytes / 2 ** 20).toFixed(1)} | ${p.storage.bytesPerNode.toFixed(0)} | ${p.storage.reportedBytes === null ? '—' : (p.storage.reportedBytes / 2 ** 20).toFixed(1)} |`,
    ),
    '',
  ];
}

/** The series of the per-runtime charts: open to first recall and heap (or what stands for it), by size (null where a runtime did not run at a size). */
export function runtimeSeries(r: ScaleResults): { x: number[]; open: Array<{ name: string; values: Array<number | null> }>; heap: Array<{ name: string; values: Array<number | null> }> } {
  const b = r.browser.status === 'done' ? r.browser.points : [];
  const e = r.edge?.status === 'done' ? r.edge.points : [];
  const x = [...new Set([...r.points.map((p) => p.size), ...b.map((p) => p.size), ...e.map((p) => p.size)])].sort((a, c) => a - c);
  const at = <P extends { size: number }>(ps: readonly P[], f: (p: P) => number | null | undefined): Array<number | null> =>
    x.map((size) => {
      const p = ps.find((q) => q.size === size);
      const v = p ? f(p) : null;
      return v === null || v === undefined || !Number.isFinite(v) ? null : v;
    });
  const open = [
    { name: 'Node (fresh process)', values: at(r.points, (p) => p.fresh?.openToFirstRecallMs) },
    ...(b.length ? [{ name: 'Chromium (reopen + first recall)', values: at(b, (p) => p.reopen.ms + p.reopen.firstRecallMs) }] : []),
    ...(e.length ? [{ name: 'Durable Object (fresh workerd)', values: at(e, (p) => p.open.openToFirstRecallMs) }] : []),
  ];
  const heap = [
    { name: 'Node heap (fresh process)', values: at(r.points, (p) => (p.fresh ? p.fresh.after.heapUsedBytes / 2 ** 20 : null)) },
    { name: 'Node RSS (fresh process)', values: at(r.points, (p) => (p.fresh ? p.fresh.after.rssBytes / 2 ** 20 : null)) },
    ...(b.length ? [{ name: 'Chromium page heap', values: at(b, (p) => (p.heapUsedBytes === undefined || p.heapUsedBytes === null ? null : p.heapUsedBytes / 2 ** 20)) }] : []),
    ...(e.length ? [{ name: 'workerd RSS (no isolate heap)', values: at(e, (p) => (p.memory.after.rssBytes === null ? null : p.memory.after.rssBytes / 2 ** 20)) }] : []),
  ];
  return { x, open, heap };
}
