/**
 * `npm run bench -- scale --peers` (issue 16): the scale recipe's corpus in Orama 3
 * (`@orama/orama`), in Node, next to jev-mem: one database (`text` string + `embedding`
 * vector of the same GloVe-SIF encoder) grown to each size, with
 *
 * - insert rate over the last {@link SCALE_MEASURED_WRITES} documents before each size: Orama's
 *   `insertMultiple` alone (vectors given), and end to end (embedding the texts, then inserting);
 * - search latency over the same questions as jev-mem's recall: Orama hybrid search (`mode:
 *   'hybrid'`, defaults, `limit` 20) with the question's vector, embedding the question included
 *   (as jev-mem's recall includes its own), and the search alone;
 * - heap: `process.memoryUsage().heapUsed` at that point (as jev-mem's figure), and the heap the
 *   database retains (heap after a full GC minus the heap after a full GC before it was created);
 * - save / restore through `@orama/plugin-data-persistence` (`persistToFile` / `restoreFromFile`,
 *   its default `binary` format: msgpack written as hex in Node): ms, bytes on disk, and the
 *   first search after restoring. The run goes on with the restored database.
 *
 * Orama keeps everything in memory; it has no incremental store, so "save" writes the whole
 * database each time (jev-mem's file store is written as it goes; its "reopen" is the
 * counterpart of Orama's restore).
 *
 * @module
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createRequire } from 'node:module';
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
import { persistToFile, restoreFromFile } from '@orama/plugin-data-persistence/server';
import type { Encoder } from '../../src/encoder/encoder.js';
import type { Observation } from '../../src/types.js';
import { summarize, type LatencySummary } from '../lib/metrics.js';

/** Figures of Orama at one size. */
export interface OramaScalePoint {
  /** Documents in the database. */
  size: number;
  insert: {
    /** Documents timed (the last ones before the size). */
    measured: number;
    /** `insertMultiple` of them, ms (vectors already computed). */
    insertMs: number;
    /** Embedding their texts, ms. */
    embedMs: number;
    /** Documents per second, Orama alone. */
    perSecond: number;
    /** Documents per second, embedding + insert (comparable with jev-mem's writes/s). */
    perSecondWithEmbedding: number;
  };
  /** Hybrid search latency, ms, embedding the question included. */
  search: LatencySummary;
  /** The same searches, Orama's `search` call alone, ms. */
  searchOnly: LatencySummary;
  memory: {
    /** `process.memoryUsage().heapUsed` right after the searches (no forced GC), bytes. */
    heapUsedBytes: number;
    /** Heap retained by the database: after a full GC, minus the same before it was created, bytes (null without GC access). */
    retainedHeapBytes: number | null;
  };
  persist: {
    /** The plugin's format (its default). */
    format: 'binary';
    /** `persistToFile`, ms. */
    saveMs: number;
    /** Bytes of the file. */
    bytes: number;
    /** `restoreFromFile`, ms. */
    restoreMs: number;
    /** First hybrid search on the restored database, ms (question embedded beforehand). */
    firstSearchMs: number;
  };
}

/** The Orama half of `bench scale --peers`. */
export interface OramaScaleResults {
  status: 'done';
  /** `@orama/orama` version. */
  version: string;
  setup: string;
  points: OramaScalePoint[];
  durationMs: number;
}

/** Documents embedded and inserted per batch while growing the database. */
const BATCH = 1000;

/** A full GC, when V8 lets us have one (`--expose-gc` set at run time); undefined otherwise. */
function fullGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  }
}

function docsOf(observations: readonly Observation[], from: number, vectors: readonly Float32Array[]): Array<{ id: string; text: string; embedding: number[] }> {
  // Orama's schema check accepts plain arrays only as vectors.
  return vectors.map((v, i) => {
    const o = observations[from + i] as Observation;
    // turn ids repeat across LoCoMo conversations; the position in the recipe is unique.
    return { id: `obs-${from + i}`, text: o.text, embedding: Array.from(v) };
  });
}

async function hybrid(db: AnyOrama, text: string, vector: Float32Array): Promise<void> {
  await search(db, { mode: 'hybrid', term: text, vector: { value: Array.from(vector), property: 'embedding' }, limit: 20 } as Parameters<typeof search>[1]);
}

/**
 * Grows one Orama database with `observations` to each of `sizes` (ascending; `observations`
 * at least `max(sizes)` long) and measures every {@link OramaScalePoint} figure, saving into
 * `dir` (a folder the caller removes).
 * @throws whatever Orama, the plugin or the encoder throw.
 */
export async function runOramaScale(o: { observations: readonly Observation[]; questions: readonly string[]; sizes: readonly number[]; encoder: Encoder; dir: string; measuredWrites: number; log?: (line: string) => void }): Promise<OramaScaleResults> {
  const t0 = performance.now();
  const log = o.log ?? (() => undefined);
  const gc = fullGc();
  gc?.();
  const baseHeap = process.memoryUsage().heapUsed;
  let db = create({ schema: { text: 'string', embedding: `vector[${o.encoder.dimension}]` } }) as unknown as AnyOrama;
  const points: OramaScalePoint[] = [];
  let written = 0;
  const questionVectors = await o.encoder.embed([...o.questions]);
  for (const size of o.sizes) {
    const measured = Math.min(o.measuredWrites, size - written);
    for (let from = written; from < size - measured; from += BATCH) {
      const to = Math.min(from + BATCH, size - measured);
      const vectors = await o.encoder.embed(o.observations.slice(from, to).map((x) => x.text));
      await insertMultiple(db, docsOf(o.observations, from, vectors));
    }
    const start = size - measured;
    const te = performance.now();
    const vectors = await o.encoder.embed(o.observations.slice(start, size).map((x) => x.text));
    const embedMs = performance.now() - te;
    const docs = docsOf(o.observations, start, vectors);
    const ti = performance.now();
    await insertMultiple(db, docs, docs.length);
    const insertMs = performance.now() - ti;
    written = size;
    const latencies: number[] = [];
    const searchOnly: number[] = [];
    for (const q of o.questions) {
      const ts = performance.now();
      const [v] = await o.encoder.embed([q]);
      const tq = performance.now();
      await hybrid(db, q, v as Float32Array);
      const end = performance.now();
      latencies.push(end - ts);
      searchOnly.push(end - tq);
    }
    const heapUsedBytes = process.memoryUsage().heapUsed;
    let retainedHeapBytes: number | null = null;
    if (gc) {
      gc();
      retainedHeapBytes = process.memoryUsage().heapUsed - baseHeap;
    }
    const file = join(o.dir, `orama-${size}.msp`);
    const tp = performance.now();
    await persistToFile(db, 'binary', file);
    const saveMs = performance.now() - tp;
    const bytes = (await stat(file)).size;
    const tr = performance.now();
    db = await restoreFromFile<AnyOrama>('binary', file);
    const restoreMs = performance.now() - tr;
    const tf = performance.now();
    await hybrid(db, o.questions[0] ?? 'hello', questionVectors[0] ?? new Float32Array(o.encoder.dimension));
    const firstSearchMs = performance.now() - tf;
    const point: OramaScalePoint = {
      size,
      insert: { measured, insertMs, embedMs, perSecond: insertMs > 0 ? (measured * 1000) / insertMs : 0, perSecondWithEmbedding: insertMs + embedMs > 0 ? (measured * 1000) / (insertMs + embedMs) : 0 },
      search: summarize(latencies),
      searchOnly: summarize(searchOnly),
      memory: { heapUsedBytes, retainedHeapBytes },
      persist: { format: 'binary', saveMs, bytes, restoreMs, firstSearchMs },
    };
    points.push(point);
    log(`scale (Orama): ${size} docs: ${point.insert.perSecond.toFixed(0)} inserts/s (${point.insert.perSecondWithEmbedding.toFixed(0)}/s with embedding), search p95 ${point.search.p95.toFixed(1)} ms, save ${saveMs.toFixed(0)} ms (${(bytes / 2 ** 20).toFixed(1)} MiB), restore ${restoreMs.toFixed(0)} ms`);
  }
  const version = (createRequire(import.meta.url)('@orama/orama/package.json') as { version: string }).version;
  return {
    status: 'done',
    version,
    setup: 'Node; one Orama database { text: string, embedding: vector[dim] } of the same GloVe-SIF vectors, defaults everywhere (hybrid search limit 20, similarity 0.8, weights 0.5/0.5); saved and restored with @orama/plugin-data-persistence persistToFile/restoreFromFile (default binary format) after each size; the run goes on with the restored database',
    points,
    durationMs: performance.now() - t0,
  };
}
