/**
 * The scale bench page's script (`bench/browser/scale.html`): exposes {@link ScaleBenchPageApi} as
 * `window.jevMemScaleBench`, which grows one namespace through `createBrowserMemory` (IndexedDB
 * store, the shipped System One in a Web Worker on onnxruntime-web WASM, one thread) to each size
 * and measures it as the Node half of `npm run bench -- scale` does (bench/scale/scale.ts). Driven by
 * `npm run bench -- scale --browser` (runScaleBrowserBench); not part of the demo UI.
 *
 * The encoder and the worker are made once and passed to every `createBrowserMemory`, so the
 * reopen time is that of the store (IndexedDB open + load), as in Node; a counting wrapper around
 * the worker backend gives System-One calls and ms per write.
 *
 * With `peers` (`npm run bench -- scale --peers --browser`, issue 16), once the namespace is
 * closed the same observations and questions go into one Orama database in the page
 * ({@link growOrama}, the same encoder's vectors): heap from the same `performance.memory` (no
 * retained heap: with `--js-flags=--expose-gc` the heap after `gc()` came out below the baseline
 * taken before the database, as what jev-mem's closed namespace left is freed later), and save/restore
 * through `@orama/plugin-data-persistence` (`persist(db, 'binary', 'browser')`, a hex string)
 * stored as one record of its own IndexedDB database ({@link ORAMA_IDB}), the counterpart of
 * jev-mem's IndexedDB reopen: restore = read the record + `restore('binary', …)`. With `peersOnly`
 * (`--peers-only`), Orama alone: no namespace, no System-One worker. A failure of the Orama run is
 * returned as its `failed` status, with the size, the step and the heap ({@link OramaStepError}).
 *
 * @module
 */
import { createFetchAssetLoader, createGloveSifEncoder, sharedEncoder, type Encoder } from 'jev-mem';
import { createBrowserMemory, createWorkerSystemOne, type BrowserMemory } from 'jev-mem/browser';
import { onnxWorker } from 'jev-mem/browser/onnx';
import type { AnyOrama } from '@orama/orama';
import { persist, restore } from '@orama/plugin-data-persistence';
import { openDB } from 'idb';
import { growOrama, oramaFailure, OramaStepError, type OramaPersistence } from '../scale/orama-grow.js';
import { countingBackend, countsDelta } from '../lib/counting.js';
import { measureReopen, summarize, writeFigures } from '../lib/metrics.js';
import type { ScaleBenchPageApi, ScaleBrowserPoint, ScaleBrowserRun, ScaleBrowserPeers } from '../scale/scale.js';
import { bulkFigures, SCALE_BULK_CHUNK } from '../scale/bulk.js';
import type { Observation } from '../../src/types.js';

const models = new URL('models/', document.baseURI).href;
const ort = new URL('ort/', document.baseURI).href;

/** The IndexedDB database and object store Orama's saved string goes into (one record per size, removed once restored). */
const ORAMA_IDB = { name: 'orama-scale-bench', store: 'saves' } as const;

/** Orama's save/restore in the page: the plugin's default `binary` format (hex string), kept in IndexedDB. */
async function indexedDbPersistence(): Promise<OramaPersistence & { close(): void }> {
  const idb = await openDB(ORAMA_IDB.name, 1, { upgrade: (d) => void d.createObjectStore(ORAMA_IDB.store) });
  return {
    where: 'indexeddb',
    async save(db, key, step) {
      step('save/serialize', "persist 'binary'");
      const t = performance.now();
      const data = (await persist(db, 'binary', 'browser')) as string;
      const serializeMs = performance.now() - t;
      step('save/write', `IndexedDB put of ${data.length.toLocaleString('en-US')} characters`);
      const tw = performance.now();
      await idb.put(ORAMA_IDB.store, data, key);
      return { bytes: data.length, serializeMs, writeMs: performance.now() - tw };
    },
    async restore(key, step) {
      step('restore/read', 'IndexedDB get');
      const t = performance.now();
      const data = (await idb.get(ORAMA_IDB.store, key)) as string | undefined;
      const readMs = performance.now() - t;
      if (data === undefined) throw new Error(`Orama save ${key} is missing from IndexedDB`);
      step('restore/deserialize', "restore 'binary'");
      const td = performance.now();
      const db = await restore<AnyOrama>('binary', data, 'browser');
      const deserializeMs = performance.now() - td;
      await idb.delete(ORAMA_IDB.store, key);
      return { db, readMs, deserializeMs };
    },
    close: () => idb.close(),
  };
}

async function runOramaInPage(observations: Observation[], questions: string[], o: { sizes: number[]; measuredWrites: number }, encoder: Encoder): Promise<ScaleBrowserPeers> {
  const t0 = performance.now();
  const persistence = await indexedDbPersistence();
  try {
    const points = await growOrama({
      observations,
      questions,
      sizes: o.sizes,
      encoder,
      measuredWrites: o.measuredWrites,
      heap: () => heapBytes() ?? Number.NaN,
      persistence,
      log: (l) => console.log(`bench scale: ${l}`),
      label: 'Orama',
    });
    return { orama: { status: 'done', points, durationMs: performance.now() - t0 } };
  } catch (e) {
    // growOrama has logged its failure (size, step, heap); anything else is said here
    const failure = oramaFailure(e, 'the Orama run in Chromium failed: ');
    if (!(e instanceof OramaStepError)) console.log(`bench scale: ${failure.note}`);
    return { orama: failure };
  } finally {
    persistence.close();
  }
}

function heapBytes(): number | undefined {
  const m = (performance as { memory?: { usedJSHeapSize?: number } }).memory;
  return typeof m?.usedJSHeapSize === 'number' ? m.usedJSHeapSize : undefined;
}

const api: ScaleBenchPageApi = {
  crossOriginIsolated: globalThis.crossOriginIsolated === true,
  async run(observationsJson, questionsJson, o) {
    document.body.dataset.state = 'running';
    const observations = JSON.parse(observationsJson) as Observation[];
    const questions = JSON.parse(questionsJson) as string[];
    let t = performance.now();
    const encoder: Encoder = await createGloveSifEncoder({ load: createFetchAssetLoader(models) });
    const encoderMs = performance.now() - t;
    if (o.peersOnly === true) {
      // --peers-only: Orama alone, no namespace and no System-One worker.
      try {
        const peers = await runOramaInPage(observations, questions, o, encoder);
        document.body.dataset.state = 'done';
        return { points: [], modelLoadMs: { encoder: encoderMs, systemOne: 0 }, systemOneModel: 'none', encoder: encoder.fingerprint, peers };
      } finally {
        await encoder.close?.().catch(() => undefined);
      }
    }
    t = performance.now();
    const inner = await createWorkerSystemOne({ modelBaseURL: models, wasmPaths: ort, numThreads: 1, ...onnxWorker(), executionProviders: ['wasm'] });
    const systemOneMs = performance.now() - t;
    const backend = countingBackend(inner);
    // memories close their encoder: hand each one a view that leaves the shared one open
    const shared = sharedEncoder(encoder);
    const open = (): Promise<BrowserMemory> => createBrowserMemory({ namespace: 'scale', dbName: o.dbName, encoder: shared, systemOne: backend, persist: false });
    let memory = await open();
    const points: ScaleBrowserPoint[] = [];
    let written = 0;
    let peers: ScaleBrowserPeers | undefined;
    try {
      for (const size of o.sizes) {
        const segStart = performance.now();
        const measured = Math.min(o.measuredWrites, size - written);
        const bulk = observations.slice(written, size - measured);
        const tb = performance.now();
        if (bulk.length > 0) {
          let last = performance.now();
          await memory.addMany(bulk, {
            chunkSize: SCALE_BULK_CHUNK,
            onProgress: (p) => {
              if (performance.now() - last > 10_000) {
                last = performance.now();
                console.log(`bench scale: ${written + p.done}/${size} written (${p.perSecond.toFixed(0)}/s)`);
              }
            },
          });
        }
        // Bulk import (issue 25): the segment before the timed writes, one addMany call.
        const bulkImport = bulkFigures(bulk.length, performance.now() - tb);
        const before = backend.counts();
        const tw = performance.now();
        await memory.addMany(observations.slice(size - measured, size));
        const writeMs = performance.now() - tw;
        const after = backend.counts();
        written = size;
        const segmentMs = performance.now() - segStart;
        const latencies: number[] = [];
        for (const q of questions) {
          const tq = performance.now();
          await memory.recall(q, { k: 20 });
          latencies.push(performance.now() - tq);
        }
        const stats = await memory.stats();
        const heap = heapBytes();
        const estimate = await navigator.storage.estimate();
        const reopened = await measureReopen<BrowserMemory>(memory, open, questions[0] ?? 'hello');
        memory = reopened.memory;
        const { reopenMs, firstRecallMs, statsMs } = reopened;
        const bytes = estimate.usage ?? 0;
        const point: ScaleBrowserPoint = {
          size,
          nodes: stats.nodes,
          edges: stats.edges,
          write: writeFigures(measured, writeMs, countsDelta(after, before), segmentMs),
          ...(bulkImport ? { bulk: bulkImport } : {}),
          recall: summarize(latencies),
          ...(heap !== undefined ? { heapUsedBytes: heap } : {}),
          storage: { bytes, bytesPerNode: stats.nodes > 0 ? bytes / stats.nodes : 0 },
          reopen: { ms: reopenMs, firstRecallMs, statsMs },
        };
        points.push(point);
        console.log(`bench scale: ${size} nodes: ${point.bulk ? `bulk import ${point.bulk.perSecond.toFixed(0)}/s, ` : ''}${point.write.perSecond.toFixed(0)} writes/s, recall p50 ${point.recall.p50.toFixed(1)} ms, reopen ${reopenMs.toFixed(0)} ms`);
      }
      if (o.peers === true) {
        // Orama after jev-mem's namespace is closed, in the same page with the same encoder.
        await memory.close();
        peers = await runOramaInPage(observations, questions, o, encoder);
      }
    } finally {
      await memory.close().catch(() => undefined);
      await inner.close().catch(() => undefined);
      await encoder.close?.().catch(() => undefined);
    }
    document.body.dataset.state = 'done';
    const run: ScaleBrowserRun = { points, modelLoadMs: { encoder: encoderMs, systemOne: systemOneMs }, systemOneModel: inner.modelId, encoder: encoder.fingerprint, ...(peers ? { peers } : {}) };
    return run;
  },
};

/**
 * The fresh-page figure (issue 25): run in a NEW page after the namespace was grown and closed in
 * another one. Loads the encoder and the System-One worker, opens the namespace
 * (`createBrowserMemory` on the same IndexedDB database), asks every question, and reports open,
 * first recall, recall latencies and the page's heap after them.
 */
api.probe = async (questionsJson, o) => {
  const questions = JSON.parse(questionsJson) as string[];
  const baselineHeapBytes = heapBytes();
  let t = performance.now();
  const encoder: Encoder = await createGloveSifEncoder({ load: createFetchAssetLoader(models) });
  const inner = await createWorkerSystemOne({ modelBaseURL: models, wasmPaths: ort, numThreads: 1, ...onnxWorker(), executionProviders: ['wasm'] });
  const modelLoadMs = performance.now() - t;
  const modelsHeapBytes = heapBytes();
  t = performance.now();
  const memory = await createBrowserMemory({ namespace: 'scale', dbName: o.dbName, encoder, systemOne: inner, persist: false });
  const openMs = performance.now() - t;
  try {
    const latencies: number[] = [];
    for (const q of questions) {
      const tq = performance.now();
      await memory.recall(q, { k: 20 });
      latencies.push(performance.now() - tq);
    }
    const after = heapBytes();
    const nodes = (await memory.stats()).nodes;
    return {
      modelLoadMs,
      openMs,
      firstRecallMs: latencies[0] ?? Number.NaN,
      openToFirstRecallMs: openMs + (latencies[0] ?? Number.NaN),
      recall: summarize(latencies),
      questions: latencies.length,
      ...(baselineHeapBytes !== undefined ? { baselineHeapBytes } : {}),
      ...(modelsHeapBytes !== undefined ? { modelsHeapBytes } : {}),
      ...(after !== undefined ? { heapUsedBytes: after } : {}),
      nodes,
    };
  } finally {
    await memory.close().catch(() => undefined);
    await inner.close().catch(() => undefined);
  }
};

(globalThis as unknown as { jevMemScaleBench: ScaleBenchPageApi }).jevMemScaleBench = api;
document.body.dataset.state = 'ready';
