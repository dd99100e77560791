/**
 * The environment-neutral core of `bench scale --peers` (issue 16): grows one Orama 3 database
 * (`@orama/orama`; `text` string + `embedding` vector of the memory encoder) to each size and
 * measures it, with the heap, GC and save/restore supplied by the caller. Used in Node by
 * {@link ./peers.ts} (heap from `process.memoryUsage()`, save to a file) and in headless Chromium
 * by the scale bench page `bench/browser/scale.ts` (heap from `performance.memory`, save into
 * IndexedDB). No Node built-ins here: the page bundles this module.
 *
 * @module
 */
import { create, insertMultiple, search, type AnyOrama } from '@orama/orama';
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
    /** The runtime's used JS heap right after the searches (no forced GC), bytes: Node `process.memoryUsage().heapUsed`, Chromium `performance.memory.usedJSHeapSize` (NaN, null in results.json, where the API is missing). */
    heapUsedBytes: number;
    /** Heap retained by the database: after a full GC, minus the same before it was created, bytes (null without GC access). */
    retainedHeapBytes: number | null;
  };
  persist: OramaPersistFigures;
}

/** Save / restore figures of one size (see {@link OramaPersistence}). */
export interface OramaPersistFigures {
  /** The plugin's format (its default). */
  format: 'binary';
  /** Where the saved database goes: a file (Node) or an IndexedDB record (Chromium). Absent in runs before the Chromium half (= file). */
  where?: 'file' | 'indexeddb';
  /** Save, ms: serialise + write. */
  saveMs: number;
  /** Bytes saved (the file's size; in Chromium the persisted string's length: hex is ASCII, one byte a character as UTF-8). */
  bytes: number;
  /** Restore, ms: read + deserialise. */
  restoreMs: number;
  /** First hybrid search on the restored database, ms (question embedded beforehand). */
  firstSearchMs: number;
  /** Parts of `saveMs` / `restoreMs` where the caller times them apart (Chromium: `persist()`, the IndexedDB put, the IndexedDB get, `restore()`), ms. */
  parts?: { serializeMs: number; writeMs: number; readMs: number; deserializeMs: number };
}

/**
 * The steps of {@link growOrama}, as a failure names them: embedding a batch of the bulk, its
 * `insertMultiple`, the same two for the measured documents, the searches, the save and the
 * restore (or their parts where the persistence labels them: `persist()` vs the storage write,
 * the storage read vs `restore()`), and the first search on the restored database.
 */
export type OramaStep =
  | 'embed'
  | 'insert'
  | 'measured embed'
  | 'measured insert'
  | 'search'
  | 'save'
  | 'save/serialize'
  | 'save/write'
  | 'restore'
  | 'restore/read'
  | 'restore/deserialize'
  | 'search after restore';

/** Labels the step under way (`detail`: what runs, e.g. `persist 'binary'`). */
export type OramaStepMark = (step: OramaStep, detail?: string) => void;

/** How a runtime saves and restores the database (the data-persistence plugin plus its storage). */
export interface OramaPersistence {
  where: 'file' | 'indexeddb';
  /**
   * Saves the whole database under `key`; returns bytes saved and, optionally, the timed parts.
   * The step is `save` when called; `step` may narrow it (`save/serialize`, `save/write`).
   */
  save(db: AnyOrama, key: string, step: OramaStepMark): Promise<{ bytes: number; serializeMs?: number; writeMs?: number }>;
  /** Restores what {@link save} wrote under `key`; `step` may narrow `restore` (`restore/read`, `restore/deserialize`). */
  restore(key: string, step: OramaStepMark): Promise<{ db: AnyOrama; readMs?: number; deserializeMs?: number }>;
}

/** The `failed` status of an Orama run ({@link OramaStepError.failure}, or `note` alone when it failed outside {@link growOrama}). */
export interface OramaFailure {
  status: 'failed';
  /** E.g. `Orama failed at 100,000 during save/serialize (persist 'binary'): RangeError: Invalid array length; heap 1,234 MiB`. */
  note: string;
  /** The size being grown to. */
  size?: number;
  step?: OramaStep;
  /** What ran in that step (the plugin call, the documents of the batch). */
  detail?: string;
  /** Documents in the database when it failed. */
  documents?: number;
  /** The used JS heap right after the failure, bytes (null where unknown). */
  heapUsedBytes?: number | null;
  /** The sizes done before it failed. */
  points?: OramaScalePoint[];
  /** What was measured at the failing size before the failure (its inserts, then its searches and heap). */
  partial?: Partial<Pick<OramaScalePoint, 'insert' | 'search' | 'searchOnly' | 'memory'>> & { size: number };
}

/** What {@link growOrama} throws: the failure with its size and step; the error it caught is `cause`. */
export class OramaStepError extends Error {
  override readonly name = 'OramaStepError';
  constructor(
    readonly failure: OramaFailure & Required<Pick<OramaFailure, 'size' | 'step' | 'documents' | 'heapUsedBytes' | 'points'>>,
    options: { cause: unknown },
  ) {
    super(failure.note, options);
  }
}

/** The `failed` status of an error of an Orama run: {@link OramaStepError.failure}, else `note` = `prefix` + the message's first line. */
export function oramaFailure(e: unknown, prefix: string): OramaFailure {
  if (e instanceof OramaStepError) return e.failure;
  return { status: 'failed', note: `${prefix}${firstLine(e)}` };
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? `${e.name}: ${e.message}` : String(e)).split('\n')[0] as string;
}

/** Options of {@link growOrama}. */
export interface GrowOramaOptions {
  /** At least `max(sizes)` observations. */
  observations: readonly Observation[];
  questions: readonly string[];
  /** Ascending sizes. */
  sizes: readonly number[];
  encoder: Encoder;
  /** Documents timed before each size. */
  measuredWrites: number;
  /** Used JS heap now, bytes (NaN where unknown). */
  heap(): number;
  /** A full GC, where the runtime allows one. */
  gc?: () => void;
  persistence: OramaPersistence;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Prefix of the progress lines. @default 'scale (Orama)' */
  label?: string;
}

/** Documents embedded and inserted per batch while growing the database. */
const BATCH = 1000;

/** Orama documents of `observations[from … from + vectors.length)`, id `obs-<position>` (LoCoMo turn ids repeat across copies). */
export function oramaDocs(observations: readonly Observation[], from: number, vectors: readonly Float32Array[]): Array<{ id: string; text: string; embedding: number[] }> {
  // Orama's schema check accepts plain arrays only as vectors.
  return vectors.map((v, i) => ({ id: `obs-${from + i}`, text: (observations[from + i] as Observation).text, embedding: Array.from(v) }));
}

async function hybrid(db: AnyOrama, text: string, vector: Float32Array): Promise<void> {
  await search(db, { mode: 'hybrid', term: text, vector: { value: Array.from(vector), property: 'embedding' }, limit: 20 } as Parameters<typeof search>[1]);
}

/**
 * Grows one Orama database with `o.observations` to each of `o.sizes` (defaults everywhere;
 * hybrid search `limit` 20) and measures every {@link OramaScalePoint} figure; after each size
 * the database is saved and restored through `o.persistence`, and the run goes on with the
 * restored one.
 * @throws OramaStepError wrapping whatever Orama, the plugin, the storage or the encoder throw,
 *   with the size, the step ({@link OramaStep}), the documents in the database and the heap.
 */
export async function growOrama(o: GrowOramaOptions): Promise<OramaScalePoint[]> {
  const log = o.log ?? (() => undefined);
  const label = o.label ?? 'scale (Orama)';
  o.gc?.();
  const baseHeap = o.heap();
  let db = create({ schema: { text: 'string', embedding: `vector[${o.encoder.dimension}]` } }) as unknown as AnyOrama;
  const points: OramaScalePoint[] = [];
  let partial: OramaFailure['partial'];
  let written = 0;
  // Where the run is, for the failure: the size being grown to, the step, what runs in it.
  let at: { size: number; step: OramaStep; detail?: string } = { size: o.sizes[0] ?? 0, step: 'embed', detail: 'the questions' };
  const step: OramaStepMark = (s, detail) => {
    at = { size: at.size, step: s, ...(detail !== undefined ? { detail } : {}) };
  };
  try {
    const questionVectors = await o.encoder.embed([...o.questions]);
    for (const size of o.sizes) {
      at = { size, step: 'embed' };
      const measured = Math.min(o.measuredWrites, size - written);
      for (let from = written; from < size - measured; from += BATCH) {
        const to = Math.min(from + BATCH, size - measured);
        step('embed', `documents ${from + 1}-${to}`);
        const vectors = await o.encoder.embed(o.observations.slice(from, to).map((x) => x.text));
        step('insert', `insertMultiple of documents ${from + 1}-${to}`);
        await insertMultiple(db, oramaDocs(o.observations, from, vectors));
        written = to;
      }
      const start = size - measured;
      step('measured embed', `documents ${start + 1}-${size}`);
      const te = performance.now();
      const vectors = await o.encoder.embed(o.observations.slice(start, size).map((x) => x.text));
      const embedMs = performance.now() - te;
      const docs = oramaDocs(o.observations, start, vectors);
      step('measured insert', `insertMultiple of documents ${start + 1}-${size}`);
      const ti = performance.now();
      await insertMultiple(db, docs, docs.length);
      const insertMs = performance.now() - ti;
      written = size;
      const insert = { measured, insertMs, embedMs, perSecond: insertMs > 0 ? (measured * 1000) / insertMs : 0, perSecondWithEmbedding: insertMs + embedMs > 0 ? (measured * 1000) / (insertMs + embedMs) : 0 };
      partial = { size, insert };
      const latencies: number[] = [];
      const searchOnly: number[] = [];
      for (const [i, q] of o.questions.entries()) {
        step('search', `question ${i + 1} of ${o.questions.length}`);
        const ts = performance.now();
        const [v] = await o.encoder.embed([q]);
        const tq = performance.now();
        await hybrid(db, q, v as Float32Array);
        const end = performance.now();
        latencies.push(end - ts);
        searchOnly.push(end - tq);
      }
      const heapUsedBytes = o.heap();
      let retainedHeapBytes: number | null = null;
      if (o.gc) {
        o.gc();
        const after = o.heap();
        retainedHeapBytes = Number.isFinite(after) && Number.isFinite(baseHeap) ? after - baseHeap : null;
      }
      partial = { size, insert, search: summarize(latencies), searchOnly: summarize(searchOnly), memory: { heapUsedBytes, retainedHeapBytes } };
      const key = `orama-${size}`;
      step('save');
      const tp = performance.now();
      const saved = await o.persistence.save(db, key, step);
      const saveMs = performance.now() - tp;
      step('restore');
      const tr = performance.now();
      const restored = await o.persistence.restore(key, step);
      const restoreMs = performance.now() - tr;
      db = restored.db;
      step('search after restore');
      const tf = performance.now();
      await hybrid(db, o.questions[0] ?? 'hello', questionVectors[0] ?? new Float32Array(o.encoder.dimension));
      const firstSearchMs = performance.now() - tf;
      const timed = [saved.serializeMs, saved.writeMs, restored.readMs, restored.deserializeMs];
      const point: OramaScalePoint = {
        size,
        insert,
        search: summarize(latencies),
        searchOnly: summarize(searchOnly),
        memory: { heapUsedBytes, retainedHeapBytes },
        persist: {
          format: 'binary',
          where: o.persistence.where,
          saveMs,
          bytes: saved.bytes,
          restoreMs,
          firstSearchMs,
          ...(timed.every((x) => x !== undefined) ? { parts: { serializeMs: saved.serializeMs as number, writeMs: saved.writeMs as number, readMs: restored.readMs as number, deserializeMs: restored.deserializeMs as number } } : {}),
        },
      };
      points.push(point);
      log(`${label}: ${size} docs: ${point.insert.perSecond.toFixed(0)} inserts/s (${point.insert.perSecondWithEmbedding.toFixed(0)}/s with embedding), search p95 ${point.search.p95.toFixed(1)} ms, save ${saveMs.toFixed(0)} ms (${(saved.bytes / 2 ** 20).toFixed(1)} MiB), restore ${restoreMs.toFixed(0)} ms`);
    }
  } catch (e) {
    const heap = o.heap();
    const heapUsedBytes = Number.isFinite(heap) ? heap : null;
    const n = (x: number): string => x.toLocaleString('en-US');
    const note = `Orama failed at ${n(at.size)} during ${at.step}${at.detail !== undefined ? ` (${at.detail})` : ''}: ${firstLine(e)}; ${n(written)} documents in the database${heapUsedBytes === null ? '' : `, heap ${n(Math.round(heapUsedBytes / 2 ** 20))} MiB`}`;
    log(`${label}: ${note}`);
    throw new OramaStepError({ status: 'failed', note, size: at.size, step: at.step, ...(at.detail !== undefined ? { detail: at.detail } : {}), documents: written, heapUsedBytes, points, ...(partial !== undefined && partial.size === at.size ? { partial } : {}) }, { cause: e });
  }
  return points;
}
