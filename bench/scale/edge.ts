/**
 * The workerd half of `bench scale` (`npm run bench -- scale --edge`, issue 13): the same recipe
 * against the Durable Object of the edge Worker (src/edge), bundled as users deploy it
 * (examples/edge/wrangler.toml, `wrangler deploy --dry-run`) and run in workerd through Miniflare
 * with its Durable Object storage persisted in a temporary folder (test/edge/harness.ts).
 *
 * At each size: the namespace is grown over HTTP in requests of {@link EDGE_WRITE_BATCH}
 * observations, the last {@link SCALE_MEASURED_WRITES} timed for writes/s; the questions are
 * recalled (k = 20) for p50/p95 (client side, loopback HTTP included); then Miniflare is disposed
 * and started again on the same folder (a fresh workerd), one request to another namespace loads
 * the models (they are shared by the isolate), and the time of the first recall on the grown
 * namespace is "open to first recall"; the remaining questions follow. The Worker cannot see its
 * isolate's heap and workerd does not report it, so memory is the workerd process's resident set
 * from `/proc/<pid>/status` (VmRSS now, VmHWM peak): the whole runtime, the bundled models and
 * every isolate, before the namespace is touched and after the open + recalls. Stored bytes are
 * the files under the persistence folder (SQLite database, WAL included).
 *
 * @module
 */
import { bulkFigures, type BulkImportFigures } from './bulk.js';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JevMemError } from '../../src/errors.js';
import type { Observation } from '../../src/types.js';
import { buildEdgeBundle, call, EXAMPLE_CONFIG, startEdge, type EdgeBundle, type RunningEdge } from '../../test/edge/harness.js';
import { summarize, type LatencySummary } from '../lib/metrics.js';
import { findDescendantsNamed, readProcStatus } from '../lib/proc.js';

/** Default sizes of the workerd half (100,000 on request with `--sizes`). */
export const DEFAULT_SCALE_EDGE_SIZES: readonly number[] = Object.freeze([1000, 10_000]);

/** Observations per write request (the Worker takes at most `JEV_MEM_MAX_BATCH`, 1000, and 1 MiB). */
export const EDGE_WRITE_BATCH = 100;

/** What the workerd half says about heap, as written into results.json and results.md. */
export const EDGE_HEAP_NOTE =
  'workerd reports no isolate heap to the Worker (no performance.memory, no process.memoryUsage) and the bench does not attach the V8 inspector; memory is the workerd process RSS from /proc/<pid>/status (runtime + bundled models + isolates), before the namespace is opened (models loaded) and after open + the recalls';

/** Resident memory of the workerd process, bytes (null where /proc or the process was not found). */
export interface WorkerdMemory {
  /** VmRSS. */
  rssBytes: number | null;
  /** VmHWM: peak since this workerd started. */
  peakRssBytes: number | null;
}

/** Figures at one size in workerd. */
export interface EdgeScalePoint {
  size: number;
  /** `GET /v1/namespaces/:ns` after the writes. */
  nodes: number;
  edges: number;
  write: {
    /** Observations timed (the last ones before the size). */
    measured: number;
    ms: number;
    perSecond: number;
    /** Observations per request. */
    batch: number;
    /** Wall time of growing from the previous size, ms. */
    segmentMs: number;
  };
  /**
   * Bulk import (issue 25): the observations before the timed writes, in requests of
   * `chunkSize` observations (the Durable Object writes each through `addMany`), memories/s
   * client side. Absent in older runs and where the segment was empty.
   */
  bulk?: BulkImportFigures;
  /** Recall over the questions on the warm instance (client side, HTTP included), ms. */
  recall: LatencySummary;
  open: {
    /** Miniflare started again on the same storage until ready, ms. */
    restartMs: number;
    /** The first request of the fresh workerd (a recall in a one-memory namespace): loads the encoder and System One, ms. */
    modelLoadMs: number;
    /** The first recall on the grown namespace in the fresh workerd, ms (opens its Durable Object). */
    openToFirstRecallMs: number;
    /** The questions asked in the fresh workerd (the first included). */
    recall: LatencySummary;
  };
  memory: {
    /** Fresh workerd with the models loaded, before the namespace is opened. */
    baseline: WorkerdMemory;
    /** After the open and the recalls. */
    after: WorkerdMemory;
    /** Isolate heap: always null (see {@link EDGE_HEAP_NOTE}). */
    isolateHeapBytes: null;
  };
  storage: {
    /** Files under the persistence folder, bytes, less those of the one-memory warm-up namespace (measured when it was written). */
    bytes: number;
    bytesPerNode: number;
    /** What the Worker reports (`stats().storageBytes`), bytes, when it does. */
    reportedBytes: number | null;
  };
}

/** The workerd half of a scale run. */
export interface EdgeScaleResults {
  status: 'done';
  sizes: number[];
  setup: string;
  heapNote: string;
  points: EdgeScalePoint[];
  durationMs: number;
}

/** Options of {@link runScaleEdge}. */
export interface EdgeScaleOptions {
  observations: readonly Observation[];
  questions: readonly string[];
  /** @default {@link DEFAULT_SCALE_EDGE_SIZES} */
  sizes?: readonly number[];
  measuredWrites: number;
  /** @default {@link EDGE_WRITE_BATCH} */
  batch?: number;
  /** Parent of the persistence folder. @default os.tmpdir() */
  tmpDir?: string;
  log?: (line: string) => void;
}

const TOKEN = 'bench-scale-token';
const NAMESPACE = 'scale';
const WARMUP = 'bench-warmup';

/** Total size of the files under `dir` (recursively), bytes; 0 when it is missing. */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += await folderBytes(p);
    else if (e.isFile()) total += (await stat(p)).size;
  }
  return total;
}

function workerdMemory(): WorkerdMemory {
  // Miniflare starts one workerd per instance, a child of this process.
  const pids = findDescendantsNamed('workerd');
  const s = pids.length > 0 ? readProcStatus(pids[pids.length - 1] as number) : undefined;
  return { rssBytes: s?.rssBytes ?? null, peakRssBytes: s?.peakRssBytes ?? null };
}

async function must(edge: RunningEdge, method: string, path: string, body?: unknown): Promise<any> {
  const r = await call(edge, method, path, { token: TOKEN, ...(body !== undefined ? { body } : {}) });
  if (r.status < 200 || r.status >= 300) throw new JevMemError('STORAGE_FAILED', `workerd answered ${r.status} to ${method} ${path}: ${r.text.slice(0, 300)}`);
  return r.json;
}

async function write(edge: RunningEdge, obs: readonly Observation[], batch: number): Promise<void> {
  for (let i = 0; i < obs.length; i += batch) await must(edge, 'POST', `/v1/namespaces/${NAMESPACE}/memories`, { observations: obs.slice(i, i + batch) });
}

async function recalls(edge: RunningEdge, questions: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    await must(edge, 'POST', `/v1/namespaces/${NAMESPACE}/recall`, { query: q, k: 20 });
    out.push(performance.now() - t);
  }
  return out;
}

/**
 * Runs the workerd half: one namespace grown to each size in a Durable Object with persisted
 * SQLite storage (removed afterwards).
 * @throws JevMemError `STORAGE_FAILED` when the Worker answers an error; wrangler's and
 *   Miniflare's errors as they are.
 */
export async function runScaleEdge(o: EdgeScaleOptions): Promise<EdgeScaleResults> {
  const log = o.log ?? (() => undefined);
  const sizes = [...(o.sizes ?? DEFAULT_SCALE_EDGE_SIZES)].sort((a, b) => a - b);
  const batch = o.batch ?? EDGE_WRITE_BATCH;
  if ((sizes[sizes.length - 1] ?? 0) > o.observations.length) throw new JevMemError('INVALID_INPUT', `${o.observations.length} observations for a namespace of ${sizes[sizes.length - 1]}`, { field: 'observations' });
  const t0 = performance.now();
  const persistDir = await mkdtemp(join(o.tmpDir ?? tmpdir(), 'jev-mem-scale-edge-'));
  let bundle: EdgeBundle | undefined;
  let edge: RunningEdge | undefined;
  const bindings = { JEV_MEM_TOKEN: TOKEN };
  try {
    log('scale (workerd): building the Worker (wrangler deploy --dry-run)');
    bundle = buildEdgeBundle(EXAMPLE_CONFIG);
    edge = await startEdge(bundle, { bindings, persistDir });
    // One memory in another namespace: after each restart, a recall there loads the models
    // (shared by the isolate), so the grown namespace's first recall times its open alone. Its
    // bytes are taken off the stored bytes.
    await must(edge, 'POST', `/v1/namespaces/${WARMUP}/memories`, { observations: [o.observations[0]] });
    const warmupBytes = await folderBytes(persistDir);
    const points: EdgeScalePoint[] = [];
    let written = 0;
    for (const size of sizes) {
      const segStart = performance.now();
      const measured = Math.min(o.measuredWrites, size - written);
      const bulk = o.observations.slice(written, size - measured);
      const tb = performance.now();
      for (let i = 0; i < bulk.length; i += 1000) {
        await write(edge, bulk.slice(i, i + 1000), batch);
        log(`scale (workerd): ${written + Math.min(i + 1000, bulk.length)}/${size} written`);
      }
      const bulkImport = bulkFigures(bulk.length, performance.now() - tb, batch);
      const tw = performance.now();
      await write(edge, o.observations.slice(size - measured, size), batch);
      const writeMs = performance.now() - tw;
      written = size;
      const segmentMs = performance.now() - segStart;
      const warm = summarize(await recalls(edge, o.questions));
      const stats = await must(edge, 'GET', `/v1/namespaces/${NAMESPACE}`);
      // A fresh workerd on the same storage.
      await edge.dispose();
      edge = undefined;
      const tr = performance.now();
      edge = await startEdge(bundle, { bindings, persistDir });
      const restartMs = performance.now() - tr;
      const tm = performance.now();
      await must(edge, 'POST', `/v1/namespaces/${WARMUP}/recall`, { query: o.questions[0] ?? 'hello', k: 20 });
      const modelLoadMs = performance.now() - tm;
      const baseline = workerdMemory();
      const fresh = await recalls(edge, o.questions);
      const after = workerdMemory();
      const bytes = Math.max(0, (await folderBytes(persistDir)) - warmupBytes);
      const nodes = Number(stats.nodes ?? 0);
      const point: EdgeScalePoint = {
        size,
        nodes,
        edges: Number(stats.edges ?? 0),
        write: { measured, ms: writeMs, perSecond: writeMs > 0 ? (measured * 1000) / writeMs : 0, batch, segmentMs },
        ...(bulkImport ? { bulk: bulkImport } : {}),
        recall: warm,
        open: { restartMs, modelLoadMs, openToFirstRecallMs: fresh[0] ?? Number.NaN, recall: summarize(fresh) },
        memory: { baseline, after, isolateHeapBytes: null },
        storage: { bytes, bytesPerNode: nodes > 0 ? bytes / nodes : 0, reportedBytes: typeof stats.storageBytes === 'number' ? stats.storageBytes : null },
      };
      points.push(point);
      const mib = (b: number | null): string => (b === null ? '?' : (b / 2 ** 20).toFixed(0));
      log(`scale (workerd): ${size} nodes: ${point.bulk ? `bulk import ${point.bulk.perSecond.toFixed(0)}/s, ` : ''}${point.write.perSecond.toFixed(0)} writes/s, recall p50 ${warm.p50.toFixed(1)} ms p95 ${warm.p95.toFixed(1)} ms, open to first recall ${point.open.openToFirstRecallMs.toFixed(0)} ms, workerd RSS ${mib(baseline.rssBytes)} → ${mib(after.rssBytes)} MiB, stored ${(bytes / 2 ** 20).toFixed(1)} MiB`);
    }
    return {
      status: 'done',
      sizes,
      setup: `examples/edge/wrangler.toml bundled by wrangler deploy --dry-run, run in workerd through Miniflare (Durable Object with SQLite storage persisted to a folder); writes over loopback HTTP in requests of ${batch} observations; recall k = 20, client-side latency`,
      heapNote: EDGE_HEAP_NOTE,
      points,
      durationMs: performance.now() - t0,
    };
  } finally {
    await edge?.dispose().catch(() => undefined);
    bundle?.remove();
    await rm(persistDir, { recursive: true, force: true }).catch(() => undefined);
  }
}
