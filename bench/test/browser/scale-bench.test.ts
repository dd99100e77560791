/**
 * `npm run bench -- scale --browser --peers`, in small: one namespace grown to 30 then 60
 * observations of the scale recipe in headless Chromium (IndexedDB, System One in a Web Worker),
 * then Orama in the same page (saved to and restored from IndexedDB). Checks that the figures are
 * well-formed (it is a benchmark: no timing is asserted). Skipped without Chromium or the LoCoMo
 * file.
 */
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultLocomoPath } from '../../lib/data.js';
import { renderScaleMarkdown, runScaleBrowserBench, type ScaleBrowserResults, type ScaleResults } from '../../scale/scale.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SIZES = [30, 60];
const MEASURED = 20;
const QUERIES = 5;

describe.skipIf(!existsSync(CHROMIUM) || !existsSync(defaultLocomoPath()))('scale bench in headless Chromium', () => {
  let r: ScaleBrowserResults;

  beforeAll(async () => {
    r = await runScaleBrowserBench({ sizes: [60, 30], measuredWrites: MEASURED, queries: QUERIES, chromiumPath: CHROMIUM, peers: true });
  }, 180_000);

  it('reports one point per size asked for, ascending, with that many observations stored', () => {
    expect(r.status).toBe('done');
    expect(r.sizes).toEqual(SIZES);
    expect(r.points.map((p) => p.size)).toEqual(SIZES);
    // LoCoMo turns of copy 0 are distinct: every observation is its own node
    for (const p of r.points) expect(p.nodes).toBe(p.size);
  });

  it('times the last measuredWrites writes before each size and asks every question', () => {
    for (const p of r.points) {
      expect(p.write.measured).toBe(MEASURED);
      expect(p.recall.n).toBe(QUERIES);
    }
  });

  it('reports finite positive figures with p50 ≤ p95 ≤ max', () => {
    for (const p of r.points) {
      const figures = [p.write.ms, p.write.perSecond, p.write.segmentMs, p.write.systemOneCallsPerWrite, p.write.systemOneMsPerWrite, p.recall.p50, p.recall.p95, p.storage.bytes, p.storage.bytesPerNode, p.reopen.ms, p.reopen.firstRecallMs];
      for (const x of figures) expect(Number.isFinite(x) && x > 0, `size ${p.size}: ${x}`).toBe(true);
      expect(p.recall.p50).toBeLessThanOrEqual(p.recall.p95);
      expect(p.recall.p95).toBeLessThanOrEqual(p.recall.max);
      // Chromium has performance.memory
      expect(p.heapUsedBytes).toBeGreaterThan(0);
    }
  });

  it('runs the shipped System-One model in a cross-origin-isolated page', () => {
    expect(r.systemOneModel).toMatch(/^jev-mem\/system-one@\d+\.\d+\.\d+$/);
    expect(r.crossOriginIsolated).toBe(true);
    expect(r.chromium).not.toBe('');
  });

  it('grows Orama in the page at the same sizes, saving to IndexedDB and restoring from it', () => {
    const o = r.peers?.orama;
    expect(o?.status).toBe('done');
    if (o?.status !== 'done') return;
    expect(o.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(o.points.map((p) => [p.size, p.insert.measured, p.search.n])).toEqual(SIZES.map((size) => [size, MEASURED, QUERIES]));
    for (const p of o.points) {
      expect(p.persist.where).toBe('indexeddb');
      const parts = p.persist.parts;
      const figures = [p.insert.perSecond, p.insert.perSecondWithEmbedding, p.search.p95, p.memory.heapUsedBytes, p.persist.saveMs, p.persist.restoreMs, p.persist.bytes, parts?.serializeMs, parts?.deserializeMs];
      for (const x of figures) expect(Number.isFinite(x) && (x as number) > 0, `size ${p.size}: ${x}`).toBe(true);
      // no retained heap in the page (no reliable baseline after jev-mem's run)
      expect(p.memory.retainedHeapBytes).toBeNull();
    }
    // the saved string (hex: 2 characters a byte) holds every document so far: 60 documents save more than 30
    expect(o.points[1]!.persist.bytes).toBeGreaterThan(o.points[0]!.persist.bytes);
  });

  it('renders a Chromium table with one row per size in the Markdown', () => {
    const nodeHalf = { format: 'jev-mem/bench-scale', version: 1, startedAt: '', durationMs: 0, machine: { cpuModel: '', cores: 0, node: '' }, git: { commit: null, dirty: false }, settings: { sizes: [], recipe: '', measuredWrites: 0, queries: 0, systemOne: '', systemOneModel: '', encoder: '', vectorIndex: 'flat', data: '' }, modelLoadMs: { encoder: 0, systemOne: 0 }, points: [], peakRssBytes: 0 };
    const md = renderScaleMarkdown({ ...nodeHalf, browser: r } as unknown as ScaleResults);
    const section = md.slice(md.indexOf('## Headless Chromium'));
    expect(md).toContain('## Headless Chromium');
    for (const size of SIZES) expect(section).toMatch(new RegExp(`^\\| ${size} \\| ${r.points.find((p) => p.size === size)?.edges} \\|`, 'm'));
    expect(section).toContain('### Peers (Chromium): Orama');
    expect(section).toContain('Where each wins (Chromium): write/insert rate:');
  });
});
