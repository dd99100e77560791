import { describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderScaleMarkdown, scalePeerWins, type ScalePoint, type ScaleResults } from '../scale/scale.js';
import { runOramaScale, type OramaScalePoint } from '../scale/peers.js';
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
    expect(md).toContain('| size | edges | writes/s |');
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
