import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { count, type AnyOrama } from '@orama/orama';
import { partialLines, peerWins, renderScaleMarkdown, scaleBrowserPeerWins, scalePeerWins, type ScaleBrowserResults, type ScalePoint, type ScaleResults } from '../scale/scale.js';
import { runOramaScale, type OramaScalePoint } from '../scale/peers.js';
import { growOrama, oramaFailure, OramaStepError } from '../scale/orama-grow.js';
import { letterEncoder } from './fixtures.js';

function results(browser: ScaleResults['browser']): ScaleResults {
  return {
    format: 'jev-mem/bench-scale',
    version: 1,
    startedAt: '2026-11-29T00:00:00.000Z',
    durationMs: 1000,
    machine: { cpuModel: 'cpu', cores: 2, node: 'v20', platform: 'linux', arch: 'x64', totalMemoryBytes: 1 } as unknown as ScaleResults['machine'],
    git: { commit: 'abc', dirty: false } as unknown as ScaleResults['git'],
    settings: { sizes: [], recipe: 'r', measuredWrites: 1000, queries: 50, systemOne: 'local', systemOneModel: 'm', encoder: 'e', vectorIndex: 'auto', data: 'd' },
    modelLoadMs: { encoder: 1, systemOne: 1 },
    points: [],
    peakRssBytes: 0,
    browser,
  };
}

describe('renderScaleMarkdown', () => {
  it('says why the browser half is missing when it failed, and keeps the Node table', () => {
    const md = renderScaleMarkdown(results({ status: 'failed', note: 'the headless-Chromium half failed: quota' }));
    expect(md).toContain('Browser (headless Chromium): failed — the headless-Chromium half failed: quota');
    expect(md).toContain('| size | edges | bulk import/s | writes/s |');
  });
});

describe('bench scale --peers (Orama)', () => {
  const jev = (size: number, perSecond: number, p95: number, heap: number, bytes: number, reopen: number): ScalePoint => ({
    size,
    nodes: size,
    edges: 0,
    write: { measured: 1, ms: 1, perSecond, systemOneCallsPerWrite: 1, systemOneMsPerWrite: 1, segmentMs: 1 },
    recall: { n: 1, mean: p95, p50: p95, p95, max: p95 },
    memory: { rssBytes: heap, heapUsedBytes: heap },
    storage: { bytes, bytesPerNode: bytes / size },
    reopen: { ms: reopen, firstRecallMs: 1 },
  });
  const orama = (size: number, perSecond: number, p95: number, heap: number, bytes: number, restore: number): OramaScalePoint => ({
    size,
    insert: { measured: 1, insertMs: 1, embedMs: 1, perSecond: perSecond * 2, perSecondWithEmbedding: perSecond },
    search: { n: 1, mean: p95, p50: p95, p95, max: p95 },
    searchOnly: { n: 1, mean: p95, p50: p95, p95, max: p95 },
    memory: { heapUsedBytes: heap, retainedHeapBytes: heap / 2 },
    persist: { format: 'binary', saveMs: 1, bytes, restoreMs: restore, firstSearchMs: 1 },
  });

  it('names the winner of each figure over the sizes, "mixed" when it changes', () => {
    const r = results({ status: 'todo', note: '' });
    r.points = [jev(1000, 400, 20, 100, 10, 100), jev(10000, 400, 30, 200, 100, 1000)];
    // Orama: faster inserts at both sizes; p95 lower at 1k only; heap higher at both; smaller files; restore slower at both.
    r.peers = { orama: { status: 'done', version: '3', setup: 's', durationMs: 1, points: [orama(1000, 4000, 10, 150, 5, 200), orama(10000, 4000, 40, 300, 50, 2000)] } };
    expect(scalePeerWins(r)).toEqual(['write/insert rate: Orama', 'p95 latency: mixed', 'heap: jev-mem', 'stored bytes: Orama', 'reopen/restore: jev-mem']);
    const md = renderScaleMarkdown(r);
    expect(md).toContain('| 10000 | 400 | 4000 | 30.0 | 40.0 |');
  });

  it('renders a --peers-only run without jev-mem tables, with the failure of the page run', () => {
    const r = results({ status: 'done', chromium: '140', crossOriginIsolated: true, sizes: [1000, 100000], setup: 'peers only', durationMs: 2000, modelLoadMs: { encoder: 12, systemOne: 0 }, systemOneModel: 'none', encoder: 'e', points: [], peers: { orama: { status: 'failed', note: 'Orama failed at 100,000 during save/serialize (persist \'binary\'): RangeError: Invalid array length', size: 100000, step: 'save/serialize', points: [orama(10000, 20000, 30, 150, 48 * 2 ** 20, 900)] } } });
    r.settings.peersOnly = true;
    r.peers = { orama: { status: 'done', version: '3', setup: 's', durationMs: 1, points: [orama(1000, 4000, 10, 150, 5, 200)] } };
    const md = renderScaleMarkdown(r);
    expect(md).toContain('# The peers alone at scale (`--peers-only`, no jev-mem)');
    expect(md).not.toContain('| size | edges | writes/s |');
    expect(md).not.toContain('Side by side');
    expect(md).toContain('| 1000 | 8000 | 4000 | 10.0 | 10.0 | 10.0 | 0.0 | 0.0 | 1 | 0.0 | 200 | 1.0 |');
    expect(md).toContain("### Peers (Chromium)\n\nOrama: failed — Orama failed at 100,000 during save/serialize (persist 'binary'): RangeError: Invalid array length");
    // the sizes done before the failure keep their row
    expect(md).toContain('Sizes done before it failed:');
    expect(md).toContain('| 10000 | 40000 | 20000 | 30.0 | 30.0 | 30.0 | 0.0 | 0.0 | 1 | 48.0 | 900 | 1.0 |');
  });

  it('says why Orama is missing when it failed', () => {
    const r = results({ status: 'todo', note: '' });
    r.peers = { orama: { status: 'failed', note: 'the Orama run failed: boom' } };
    expect(renderScaleMarkdown(r)).toContain('Orama: failed — the Orama run failed: boom');
    expect(scalePeerWins(r)).toEqual([]);
  });

  it('grows, searches, saves and restores one database at each size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jev-mem-orama-scale-'));
    try {
      const observations = ['a cat', 'an ox', 'the eel', 'a boat', 'one more'].map((text) => ({ text }));
      const r = await runOramaScale({ observations, questions: ['cat', 'boat'], sizes: [1, 3, 5], encoder: letterEncoder(), dir, measuredWrites: 2 });
      // measured = min(2, size − written): 1 (nothing before), then 2 and 2.
      expect(r.points.map((p) => [p.size, p.insert.measured, p.search.n])).toEqual([
        [1, 1, 2],
        [3, 2, 2],
        [5, 2, 2],
      ]);
      const bytes = r.points.map((p) => p.persist.bytes);
      expect(bytes[0]).toBeGreaterThan(0);
      // each save holds every document so far (the restored database goes on growing)
      expect(bytes[1]).toBeGreaterThan(bytes[0] as number);
      expect(bytes[2]).toBeGreaterThan(bytes[1] as number);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('peerWins', () => {
  const o = (size: number, withEmbedding: number, p95: number, heap: number, bytes: number, restore: number): OramaScalePoint => ({
    size,
    insert: { measured: 1, insertMs: 1, embedMs: 1, perSecond: 1, perSecondWithEmbedding: withEmbedding },
    search: { n: 1, mean: p95, p50: p95, p95, max: p95 },
    searchOnly: { n: 1, mean: p95, p50: p95, p95, max: p95 },
    memory: { heapUsedBytes: heap, retainedHeapBytes: null },
    persist: { format: 'binary', where: 'indexeddb', saveMs: 1, bytes, restoreMs: restore, firstSearchMs: 1, parts: { serializeMs: 20.4, writeMs: 9.6, readMs: 1.2, deserializeMs: 40.1 } },
  });

  it('leaves out a figure unknown on one side, ignores sizes only one side ran, and gives a tie to jev-mem', () => {
    const jev = [{ size: 1000, perSecond: 100, p95: 20, heapBytes: Number.NaN, storedBytes: 10, reopenMs: 60 }];
    // 1000: Orama 200/s > 100 (Orama); p95 30 > 20 (jev-mem); heap NaN (left out); 5 < 10 bytes (Orama); restore 60 = 60 (tie: jev-mem).
    // 10000 has no jev-mem point: ignored (it would make p95 "mixed").
    expect(peerWins(jev, [o(1000, 200, 30, 5, 5, 60), o(10000, 1, 1, 1, 1, 1)])).toEqual(['write/insert rate: Orama', 'p95 latency: jev-mem', 'stored bytes: Orama', 'reopen/restore: jev-mem']);
  });

  it('renders the Chromium peers table, with the save and restore parts, and the winners', () => {
    const browser = {
      status: 'done',
      chromium: '140',
      crossOriginIsolated: true,
      sizes: [1000],
      setup: 's',
      durationMs: 1,
      modelLoadMs: { encoder: 1, systemOne: 1 },
      systemOneModel: 'm',
      encoder: 'e',
      points: [{ size: 1000, nodes: 1000, edges: 7, write: { measured: 1, ms: 1, perSecond: 100, systemOneCallsPerWrite: 1, systemOneMsPerWrite: 1, segmentMs: 1 }, recall: { n: 1, mean: 20, p50: 20, p95: 20, max: 20 }, heapUsedBytes: 2 * 2 ** 20, storage: { bytes: 3 * 2 ** 20, bytesPerNode: 1 }, reopen: { ms: 50, firstRecallMs: 1 } }],
      peers: { orama: { status: 'done', version: '3.1.18', setup: 'page', durationMs: 1, points: [o(1000, 200, 30, 4 * 2 ** 20, 2 ** 20, 71.3)] } },
    } as ScaleBrowserResults;
    const r = results(browser);
    // heap 2 MiB < 4 MiB: jev-mem; stored 1 < 3 MiB: Orama; restore 71.3 > 50: jev-mem.
    expect(scaleBrowserPeerWins(browser)).toEqual(['write/insert rate: Orama', 'p95 latency: jev-mem', 'heap: jev-mem', 'stored bytes: Orama', 'reopen/restore: jev-mem']);
    const md = renderScaleMarkdown(r);
    expect(md).toContain('### Peers (Chromium): Orama');
    // save 1 ms (20 + 10 rounded), restore 71 ms (1 + 40)
    expect(md).toContain('| 1000 | 1 | 200 | 30.0 | 30.0 | 30.0 | 4.0 | — | 1 (20 + 10) | 1.0 | 71 (1 + 40) | 1.0 |');
    expect(md).toContain('| 1000 | 100 | 200 | 20.0 | 30.0 | 2.0 | 4.0 | 3.0 | 1.0 | 50 | 71 |');
    expect(md).toContain('Where each wins (Chromium): write/insert rate: Orama; p95 latency: jev-mem; heap: jev-mem; stored bytes: Orama; reopen/restore: jev-mem.');
  });
});

describe('growOrama (the core the Node and Chromium halves share)', () => {
  it('saves and restores through the given persistence after each size and goes on with the restored database', async () => {
    const observations = ['a cat', 'an ox', 'the eel', 'a boat', 'one more'].map((text) => ({ text }));
    const saved = new Map<string, AnyOrama>();
    const counts: Array<[string, number]> = [];
    let restores = 0;
    // heap() is read: once before the database (after gc), then twice per size (after the searches, after gc).
    const heaps = [100, 150, 130, 170, 160];
    let h = 0;
    let gcs = 0;
    const points = await growOrama({
      observations,
      questions: ['cat'],
      sizes: [2, 5],
      encoder: letterEncoder(),
      measuredWrites: 2,
      heap: () => heaps[h++] as number,
      gc: () => void gcs++,
      persistence: {
        where: 'indexeddb',
        async save(db, key) {
          counts.push([key, count(db)]);
          saved.set(key, db);
          return { bytes: 10 * count(db), serializeMs: 1, writeMs: 2 };
        },
        async restore(key) {
          restores++;
          return { db: saved.get(key) as AnyOrama, readMs: 3, deserializeMs: 4 };
        },
      },
    });
    expect(counts).toEqual([
      ['orama-2', 2],
      ['orama-5', 5],
    ]);
    expect(restores).toBe(2);
    expect(gcs).toBe(3);
    // retained = heap after gc − heap before the database: 130 − 100, 160 − 100.
    expect(points.map((p) => [p.memory.heapUsedBytes, p.memory.retainedHeapBytes])).toEqual([
      [150, 30],
      [170, 60],
    ]);
    expect(points.map((p) => p.persist.bytes)).toEqual([20, 50]);
    expect(points[1]?.persist.where).toBe('indexeddb');
    expect(points[1]?.persist.parts).toEqual({ serializeMs: 1, writeMs: 2, readMs: 3, deserializeMs: 4 });
  });

  it('names the size, the step the persistence labelled, the documents and the heap when a save fails', async () => {
    const observations = ['a cat', 'an ox', 'the eel', 'a boat', 'one more'].map((text) => ({ text }));
    const saved = new Map<string, AnyOrama>();
    // heap(): before the database, after the searches and after gc at 2 and at 5, then once at the failure (3 MiB).
    const heaps = [100, 150, 130, 170, 160, 3 * 2 ** 20];
    let h = 0;
    const lines: string[] = [];
    const e = await growOrama({
      observations,
      questions: ['cat'],
      sizes: [2, 5],
      encoder: letterEncoder(),
      measuredWrites: 2,
      heap: () => heaps[h++] as number,
      gc: () => undefined,
      log: (l) => lines.push(l),
      label: 'Orama',
      persistence: {
        where: 'indexeddb',
        async save(db, key, step) {
          step('save/serialize', "persist 'binary'");
          if (key === 'orama-5') throw new RangeError('Invalid array length');
          saved.set(key, db);
          return { bytes: 1 };
        },
        async restore(key) {
          return { db: saved.get(key) as AnyOrama };
        },
      },
    }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(OramaStepError);
    const note = "Orama failed at 5 during save/serialize (persist 'binary'): RangeError: Invalid array length; 5 documents in the database, heap 3 MiB";
    const { points, partial, ...failure } = (e as OramaStepError).failure;
    expect(failure).toEqual({ status: 'failed', note, size: 5, step: 'save/serialize', detail: "persist 'binary'", documents: 5, heapUsedBytes: 3 * 2 ** 20 });
    // What size 5 measured before its save failed: 2 timed inserts, 1 search, the heap after the searches (170).
    expect(partial?.size).toBe(5);
    expect(partial?.insert?.measured).toBe(2);
    expect(partial?.search?.n).toBe(1);
    expect(partial?.memory).toEqual({ heapUsedBytes: 170, retainedHeapBytes: 60 });
    expect(partialLines({ size: 100000, insert: { measured: 2, insertMs: 1, embedMs: 1, perSecond: 2000, perSecondWithEmbedding: 1000 }, search: { n: 2, mean: 2, p50: 1.5, p95: 2.5, max: 3 }, memory: { heapUsedBytes: 2048 * 2 ** 20, retainedHeapBytes: null } })).toEqual([
      'Measured at 100,000 before it failed: 2000 inserts/s (1000/s with embedding); hybrid search p50 1.5 ms, p95 2.5 ms (embedding included); heap 2048 MiB.',
      '',
    ]);
    // the size done before it failed is kept
    expect(points.map((p) => [p.size, p.persist.bytes])).toEqual([[2, 1]]);
    expect((e as OramaStepError).cause).toBeInstanceOf(RangeError);
    expect(oramaFailure(e, 'unused: ')).toBe((e as OramaStepError).failure);
    expect(lines.at(-1)).toBe(`Orama: ${note}`);
  });

  it('keeps the step growOrama set when the persistence does not narrow it, and leaves out an unknown heap', async () => {
    const observations = ['a cat', 'an ox', 'the eel'].map((text) => ({ text }));
    const e = await growOrama({
      observations,
      questions: ['cat'],
      sizes: [3],
      encoder: letterEncoder(),
      measuredWrites: 1,
      heap: () => Number.NaN,
      persistence: {
        where: 'file',
        async save() {
          return { bytes: 1 };
        },
        async restore() {
          throw new Error('no such file\nat line 2');
        },
      },
    }).catch((x: unknown) => x);
    // 3 documents: 2 in the bulk, 1 measured; the message's first line only.
    const { partial, ...failure } = (e as OramaStepError).failure;
    expect(failure).toEqual({ status: 'failed', note: 'Orama failed at 3 during restore: Error: no such file; 3 documents in the database', size: 3, step: 'restore', documents: 3, heapUsedBytes: null, points: [] });
    // Its inserts and search at 3 were measured before the restore failed; the heap is unknown.
    expect([partial?.size, partial?.insert?.measured, partial?.search?.n, partial?.memory?.heapUsedBytes]).toEqual([3, 1, 1, Number.NaN]);
    // an error from outside growOrama keeps only its note
    expect(oramaFailure(new Error('boom'), 'the Orama run failed: ')).toEqual({ status: 'failed', note: 'the Orama run failed: Error: boom' });
  });
});
