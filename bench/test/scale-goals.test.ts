import { describe, expect, it } from 'vitest';
import { folderBytes } from '../scale/edge.js';
import type { EdgeScalePoint } from '../scale/edge.js';
import type { OpenProbeReport } from '../scale/open-probe.js';
import { bulkFigures, goalCells, renderGoalsMarkdown, runtimeSeries, type ScalePoint, type ScaleResults } from '../scale/scale.js';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MiB = 2 ** 20;

function results(points: ScalePoint[], edge?: ScaleResults['edge']): ScaleResults {
  return {
    format: 'jev-mem/bench-scale',
    version: 1,
    startedAt: '2026-11-30T00:00:00.000Z',
    durationMs: 1,
    machine: {} as ScaleResults['machine'],
    git: { commit: null, dirty: null },
    settings: { sizes: points.map((p) => p.size), recipe: 'r', measuredWrites: 1000, queries: 50, systemOne: 'local', systemOneModel: 'm', encoder: 'e', vectorIndex: 'auto', data: 'd' },
    modelLoadMs: { encoder: 1, systemOne: 1 },
    points,
    peakRssBytes: 0,
    browser: { status: 'todo', note: '' },
    ...(edge ? { edge } : {}),
  };
}

const lat = (p95: number): ScalePoint['recall'] => ({ n: 50, mean: p95, p50: p95, p95, max: p95 });

function fresh(openToFirstRecallMs: number, heapMiB: number): OpenProbeReport {
  const mem = { heapUsedBytes: heapMiB * MiB, rssBytes: 2 * heapMiB * MiB };
  return { modelLoadMs: 1, openMs: 1, openToFirstRecallMs, firstRecallMs: 1, recall: lat(1), questions: 50, baseline: mem, after: mem, peakRssBytes: mem.rssBytes, nodes: 1 };
}

function node(size: number, o: { perSecond: number; p95: number; bytesPerNode: number; fresh?: OpenProbeReport }): ScalePoint {
  return {
    size,
    nodes: size,
    edges: 0,
    write: { measured: 1000, ms: 1, perSecond: o.perSecond, systemOneCallsPerWrite: 1, systemOneMsPerWrite: 1, segmentMs: 1 },
    recall: lat(o.p95),
    memory: { rssBytes: 900 * MiB, heapUsedBytes: 700 * MiB },
    storage: { bytes: o.bytesPerNode * size, bytesPerNode: o.bytesPerNode },
    reopen: { ms: 5000, firstRecallMs: 70 },
    ...(o.fresh ? { fresh: o.fresh } : {}),
  };
}

function edgePoint(size: number): EdgeScalePoint {
  return {
    size,
    nodes: size,
    edges: 0,
    write: { measured: 1000, ms: 1, perSecond: 150, batch: 100, segmentMs: 1 },
    recall: lat(55),
    open: { restartMs: 1, modelLoadMs: 1, openToFirstRecallMs: 2500, recall: lat(1) },
    memory: { baseline: { rssBytes: 100 * MiB, peakRssBytes: 100 * MiB }, after: { rssBytes: 160 * MiB, peakRssBytes: 170 * MiB }, isolateHeapBytes: null },
    storage: { bytes: 2000 * size, bytesPerNode: 2000, reportedBytes: null },
  };
}

describe('goalCells (issue 13 goals at 100k)', () => {
  it('reads Node at 100k from the fresh process and checks each bound (max: ≤, min: ≥)', () => {
    const r = results([node(1000, { perSecond: 1, p95: 1, bytesPerNode: 1 }), node(100_000, { perSecond: 400, p95: 41, bytesPerNode: 2000, fresh: fresh(900, 260) })]);
    const cells = goalCells(r);
    expect(cells.map((c) => [c.runtime, c.size, c.figure, c.value, c.ok])).toEqual([
      ['Node', 100_000, 'open to first recall ms', 900, true],
      ['Node', 100_000, 'heap after open + 50 recalls MiB', 260, false],
      ['Node', 100_000, 'writes/s', 400, true],
      ['Node', 100_000, 'recall p95 ms', 41, false],
      ['Node', 100_000, 'stored bytes/node', 2000, true],
    ]);
  });

  it('falls back to the largest size, and to the in-process reopen and writer heap without a probe (noted)', () => {
    const cells = goalCells(results([node(10_000, { perSecond: 500, p95: 30, bytesPerNode: 6000 }), node(1000, { perSecond: 1, p95: 1, bytesPerNode: 1 })]));
    const open = cells.find((c) => c.figure === 'open to first recall ms');
    // reopen 5000 + first recall 70
    expect([open?.size, open?.value, open?.ok, open?.note]).toEqual([10_000, 5070, false, 'in-process reopen + first recall']);
    expect(cells.find((c) => c.figure === 'heap after open + 50 recalls MiB')?.value).toBe(700);
  });

  it('gives the Durable Object no heap value (not observable) and its own bounds', () => {
    const cells = goalCells(results([node(1000, { perSecond: 1, p95: 1, bytesPerNode: 1 })], { status: 'done', sizes: [1000], setup: 's', heapNote: 'h', points: [edgePoint(1000)], durationMs: 1 })).filter((c) => c.runtime === 'Durable Object');
    expect(cells.map((c) => [c.figure, c.value, c.bound, c.ok])).toEqual([
      ['open to first recall ms', 2500, 2000, false],
      ['heap after open + 50 recalls MiB', null, 100, null],
      ['writes/s', 150, 200, false],
      ['recall p95 ms', 55, 60, true],
      ['stored bytes/node', 2000, 2500, true],
    ]);
    expect(cells[1]?.note).toBe('isolate heap not observable; workerd RSS 160 MiB');
  });

  it('checks the bulk-import rate (issue 25) where a run timed it, and leaves the row out where none did', () => {
    const timed: ScalePoint = { ...node(100_000, { perSecond: 400, p95: 41, bytesPerNode: 2000 }), bulk: bulkFigures(99_000, 60_000) as NonNullable<ScalePoint['bulk']> };
    const cell = goalCells(results([timed])).find((c) => c.figure === 'bulk import memories/s');
    // 99,000 memories in 60 s = 1,650/s against Node's 1,500/s
    expect([cell?.value, cell?.bound, cell?.ok]).toEqual([1650, 1500, true]);
    expect(goalCells(results([node(100_000, { perSecond: 400, p95: 41, bytesPerNode: 2000 })])).some((c) => c.figure === 'bulk import memories/s')).toBe(false);
    expect(bulkFigures(0, 10)).toBeUndefined();
  });

  it('reads Chromium from the fresh page (issue 25) when it ran at the goal size, else from the writing page', () => {
    const page = { ...node(10_000, { perSecond: 100, p95: 45, bytesPerNode: 2000 }), heapUsedBytes: 400 * MiB, reopen: { ms: 900, firstRecallMs: 300 } };
    const freshPage = { size: 10_000, modelLoadMs: 1, openMs: 200, firstRecallMs: 500, openToFirstRecallMs: 700, recall: lat(40), questions: 50, heapUsedBytes: 180 * MiB, nodes: 10_000 };
    const browser = (f?: object): ScaleResults['browser'] => ({ status: 'done', chromium: 'c', crossOriginIsolated: true, sizes: [10_000], setup: 's', durationMs: 1, points: [page], modelLoadMs: { encoder: 1, systemOne: 1 }, systemOneModel: 'm', encoder: 'e', ...(f ? { freshPage: f } : {}) }) as ScaleResults['browser'];
    const chromium = (b: ScaleResults['browser']) => goalCells({ ...results([]), browser: b }).filter((c) => c.runtime === 'Chromium');
    const withFresh = chromium(browser(freshPage));
    expect(withFresh.find((c) => c.figure === 'open to first recall ms')).toMatchObject({ value: 700, ok: true, note: 'fresh page' });
    expect(withFresh.find((c) => c.figure === 'heap after open + 50 recalls MiB')).toMatchObject({ value: 180, ok: true, note: 'fresh page' });
    const without = chromium(browser());
    // reopen 900 + first recall 300; the writing page's 400 MiB
    expect(without.find((c) => c.figure === 'open to first recall ms')?.value).toBe(1200);
    expect(without.find((c) => c.figure === 'heap after open + 50 recalls MiB')?.value).toBe(400);
    // a fresh page at another size is not used
    expect(chromium(browser({ ...freshPage, size: 1000 })).find((c) => c.figure === 'open to first recall ms')?.value).toBe(1200);
  });

  it('renders one column per runtime that ran', () => {
    const md = renderGoalsMarkdown(results([node(100_000, { perSecond: 400, p95: 41, bytesPerNode: 2000, fresh: fresh(900, 260) })])).join('\n');
    expect(md).toContain('| figure | Node at 100000 |');
    expect(md).toContain('| writes/s | 400 (≥ 400) ✓ |');
    expect(md).toContain('| recall p95 ms | 41.0 (≤ 40) ✗ |');
  });
});

describe('runtimeSeries', () => {
  it('puts each runtime on the union of the sizes, null where it did not run', () => {
    const r = results([node(1000, { perSecond: 1, p95: 1, bytesPerNode: 1, fresh: fresh(200, 60) })], { status: 'done', sizes: [1000, 10_000], setup: 's', heapNote: 'h', points: [edgePoint(10_000)], durationMs: 1 });
    const s = runtimeSeries(r);
    expect(s.x).toEqual([1000, 10_000]);
    expect(s.open).toEqual([
      { name: 'Node (fresh process)', values: [200, null] },
      { name: 'Durable Object (fresh workerd)', values: [null, 2500] },
    ]);
    expect(s.heap.find((x) => x.name === 'workerd RSS (no isolate heap)')?.values).toEqual([null, 160]);
  });
});

describe('folderBytes', () => {
  it('sums the files below a folder, and is 0 for a missing one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'jev-mem-folder-bytes-'));
    try {
      await mkdir(join(dir, 'a', 'b'), { recursive: true });
      await writeFile(join(dir, 'x.sqlite'), 'x'.repeat(100));
      await writeFile(join(dir, 'a', 'b', 'y.sqlite-wal'), 'y'.repeat(23));
      expect(await folderBytes(dir)).toBe(123);
      expect(await folderBytes(join(dir, 'missing'))).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
