/**
 * `jev-mem bench system-one`: how much System-One time the memory spends per write and per
 * query (issue 3), for each backend: the hand-set stand-in, the shipped model in process on
 * onnxruntime-web (WASM) and on the TypeScript kernels, and the shipped model in a worker thread
 * (comlink, onnxruntime-web WASM) — the Node counterpart of the browser's Web Worker.
 *
 * Recipe: the requests are the real ones. A memory with a recording backend (the shipped model,
 * with its calibrated read parameters) ingests a
 * conversation (LoCoMo conv-26 when the data is there, else the shipped sample) and recalls its
 * questions; every request is logged with the operation it belongs to (one write = its typing
 * request + its relation request at K_w = 10; one query = its routing, candidate-scoring and stop
 * requests). The logs are then replayed, operation by operation, through each backend with the
 * same batching the memory uses (typing of a chunk in one `decideMany`; every other request alone).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createNodeAssetLoader } from '../encoder/assets-node.js';
import { createDefaultNodeEncoder } from '../encoder/default-node.js';
import { parseJsonl, parseQuestions } from '../formats/jsonl.js';
import { locomoConversation, parseLocomo } from '../formats/locomo.js';
import { createMemory } from '../memory.js';
import { createHeuristicSystemOne } from '../system-one/heuristic.js';
import { createLocalSystemOne } from '../system-one/local.js';
import { createWorkerSystemOne } from '../system-one/worker-backend.js';
import type { SystemOneBackend, SystemOneRequest } from '../system-one/wire.js';
import { defaultLocomoPath } from './data.js';
import { percentile } from './metrics.js';

/** One operation's requests, in the order the memory sent them. */
interface Operation {
  kind: 'write' | 'query';
  /** Each inner array is one round trip (`decideMany`). */
  trips: SystemOneRequest[][];
}

/** Figures of one backend. */
export interface SystemOneBenchRow {
  backend: string;
  model: string;
  /** Questions answered per second over the whole replay. */
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

/** Logs the operations of a real ingest + recall run. */
async function recordOperations(log: (l: string) => void, dataPath?: string): Promise<{ ops: Operation[]; source: string }> {
  const encoder = await createDefaultNodeEncoder();
  // Recorded with the shipped model and its calibrated read parameters, so the requests have the
  // sizes a real run sends (e.g. 60 anchors scored in one request).
  const inner = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
  let current: Operation | undefined;
  const ops: Operation[] = [];
  const recorder: SystemOneBackend = {
    kind: inner.kind,
    modelId: inner.modelId,
    ...(inner.parameters ? { parameters: inner.parameters } : {}),
    decide: (r, o) => {
      current?.trips.push([r]);
      return inner.decide(r, o);
    },
    decideMany: (rs, o) => {
      current?.trips.push(rs);
      return inner.decideMany(rs, o);
    },
    close: () => inner.close(),
  };
  let observations;
  let questions: string[];
  let source: string;
  const path = dataPath ?? defaultLocomoPath();
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
  for (const o of observations) {
    current = { kind: 'write', trips: [] };
    ops.push(current);
    await memory.add(o);
  }
  for (const q of questions) {
    current = { kind: 'query', trips: [] };
    ops.push(current);
    await memory.recall(q);
  }
  current = undefined;
  await memory.close();
  await encoder.close?.();
  log(`bench system-one: recorded ${observations.length} writes and ${questions.length} queries from ${source}`);
  return { ops, source };
}

function summary(xs: number[]): { mean: number; p50: number; p95: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { mean: s.reduce((a, b) => a + b, 0) / Math.max(1, s.length), p50: percentile(s, 50), p95: percentile(s, 95) };
}

/** Replays the operations through one backend. */
async function replay(name: string, make: () => Promise<SystemOneBackend>, ops: readonly Operation[]): Promise<SystemOneBenchRow> {
  const t0 = performance.now();
  const backend = await make();
  const loadMs = performance.now() - t0;
  // warm-up: one pass over the first operations
  for (const op of ops.slice(0, 20)) for (const trip of op.trips) await backend.decideMany(trip);
  const write: number[] = [];
  const query: number[] = [];
  let decisions = 0;
  let writeTrips = 0;
  let queryTrips = 0;
  const started = performance.now();
  // typing trips of 64 consecutive writes go in one decideMany, as addMany does
  const CHUNK = 64;
  const writes = ops.filter((o) => o.kind === 'write');
  for (let i = 0; i < writes.length; i += CHUNK) {
    const chunk = writes.slice(i, i + CHUNK);
    const typing = chunk.flatMap((o) => o.trips[0] ?? []);
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
      for (const trip of op.trips) for (const r of trip) decisions += Object.keys(r.questions).length;
    }
  }
  for (const op of ops.filter((o) => o.kind === 'query')) {
    const t = performance.now();
    for (const trip of op.trips) {
      await backend.decideMany(trip);
      queryTrips += 1;
      for (const r of trip) decisions += Object.keys(r.questions).length;
    }
    query.push(performance.now() - t);
  }
  const elapsed = performance.now() - started;
  const row: SystemOneBenchRow = {
    backend: name,
    model: backend.modelId,
    decisionsPerSecond: (decisions * 1000) / elapsed,
    writeMs: summary(write),
    queryMs: summary(query),
    tripsPerWrite: writeTrips / Math.max(1, write.length),
    tripsPerQuery: queryTrips / Math.max(1, query.length),
    loadMs,
  };
  await backend.close();
  return row;
}

/** Runs the benchmark over every Node backend. */
export async function runSystemOneBench(o: { log: (l: string) => void; dataPath?: string }): Promise<{ source: string; rows: SystemOneBenchRow[] }> {
  const { ops, source } = await recordOperations(o.log, o.dataPath);
  const load = createNodeAssetLoader();
  const backends: Array<[string, () => Promise<SystemOneBackend>]> = [
    ['heuristic stand-in (in process)', async () => createHeuristicSystemOne()],
    ['local, TypeScript kernels (in process)', () => createLocalSystemOne({ load, engine: 'ts' })],
    ['local, onnxruntime-web WASM (in process)', () => createLocalSystemOne({ load, engine: 'onnx' })],
    ['worker_threads + comlink, onnxruntime-web WASM', () => createWorkerSystemOne({ engine: 'onnx' })],
    ['worker_threads + comlink, TypeScript kernels', () => createWorkerSystemOne({ engine: 'ts' })],
  ];
  const rows: SystemOneBenchRow[] = [];
  for (const [name, make] of backends) {
    o.log(`bench system-one: ${name}`);
    rows.push(await replay(name, make, ops));
  }
  return { source, rows };
}

/** The figures as a Markdown table. */
export function renderSystemOneTable(r: { source: string; rows: SystemOneBenchRow[] }): string {
  const f = (x: number) => x.toFixed(2);
  const lines = [
    `System-One control cost, requests recorded from ${r.source} (per write: typing + relations at K_w = 10; per query: routing + candidate scoring + stop).`,
    '',
    '| backend | model | decisions/s | ms per write (mean / p50 / p95) | ms per query (mean / p50 / p95) | round trips per write / query | load ms |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const x of r.rows) {
    lines.push(
      `| ${x.backend} | ${x.model} | ${Math.round(x.decisionsPerSecond).toLocaleString('en-US')} | ${f(x.writeMs.mean)} / ${f(x.writeMs.p50)} / ${f(x.writeMs.p95)} | ${f(x.queryMs.mean)} / ${f(x.queryMs.p50)} / ${f(x.queryMs.p95)} | ${f(x.tripsPerWrite)} / ${f(x.tripsPerQuery)} | ${x.loadMs.toFixed(0)} |`,
    );
  }
  return lines.join('\n');
}
