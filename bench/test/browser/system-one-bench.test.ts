/**
 * `npm run bench -- system-one --browser`, in small: operations recorded in Node from the shipped
 * sample conversation, a handful of them replayed in headless Chromium through the Web Worker
 * (onnxruntime-web WASM) and the in-page TypeScript kernels. Checks that the rows are
 * well-formed (it is a benchmark: no timing is asserted). Skipped without Chromium.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  recordSystemOneOperations,
  runSystemOneBrowserBench,
  SYSTEM_ONE_BROWSER_BACKENDS,
  type SystemOneBrowserBackendId,
  type SystemOneBrowserBenchResult,
  type SystemOneOperation,
} from '../../system-one/system-one.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BACKENDS: SystemOneBrowserBackendId[] = ['worker-onnx', 'page-ts'];

describe.skipIf(!existsSync(CHROMIUM))('System-One bench replay in headless Chromium', () => {
  let ops: SystemOneOperation[];
  let result: SystemOneBrowserBenchResult;

  beforeAll(async () => {
    // A path that does not exist: the shipped sample conversation is recorded instead.
    const recording = await recordSystemOneOperations({ log: () => undefined, dataPath: '/nonexistent/locomo10.json' });
    const writes = recording.ops.filter((o) => o.kind === 'write').slice(0, 6);
    const queries = recording.ops.filter((o) => o.kind === 'query').slice(0, 3);
    ops = [...writes, ...queries];
    result = await runSystemOneBrowserBench(ops, { log: () => undefined, backends: BACKENDS, chromiumPath: CHROMIUM });
  }, 120_000);

  it('returns one row per backend asked for, named as the table names it, run in Chromium', () => {
    expect(result.rows.map((r) => r.backend)).toEqual(BACKENDS.map((id) => SYSTEM_ONE_BROWSER_BACKENDS[id]));
    for (const r of result.rows) expect(r.host).toBe(`Chromium ${result.chromium} (headless)`);
  });

  it('counts as decisions exactly the questions of the replayed requests', () => {
    let questions = 0;
    for (const op of ops) for (const trip of op.trips) for (const r of trip) questions += Object.keys(r.questions).length;
    expect(questions).toBeGreaterThan(0);
    for (const r of result.rows) expect(r.decisions).toBe(questions);
  });

  it('counts the round trips the memory made: one typing trip for the chunk, then every other trip', () => {
    const writes = ops.filter((o) => o.kind === 'write');
    const queries = ops.filter((o) => o.kind === 'query');
    const writeTrips = 1 + writes.reduce((n, o) => n + o.trips.length - 1, 0);
    const queryTrips = queries.reduce((n, o) => n + o.trips.length, 0);
    for (const r of result.rows) {
      expect(r.tripsPerWrite).toBeCloseTo(writeTrips / writes.length, 12);
      expect(r.tripsPerQuery).toBeCloseTo(queryTrips / queries.length, 12);
    }
  });

  it('reports finite positive timings with p50 ≤ p95', () => {
    for (const r of result.rows) {
      for (const x of [r.decisionsPerSecond, r.loadMs, r.writeMs.mean, r.writeMs.p50, r.writeMs.p95, r.queryMs.mean, r.queryMs.p50, r.queryMs.p95]) {
        expect(Number.isFinite(x) && x > 0, `${r.backend}: ${x}`).toBe(true);
      }
      expect(r.writeMs.p50).toBeLessThanOrEqual(r.writeMs.p95);
      expect(r.queryMs.p50).toBeLessThanOrEqual(r.queryMs.p95);
    }
  });

  it('runs the shipped model and a cross-origin-isolated page (5 µs timers)', () => {
    for (const r of result.rows) expect(r.model).toMatch(/^jev-mem\/system-one@\d+\.\d+\.\d+$/);
    expect(result.crossOriginIsolated).toBe(true);
  });
});
