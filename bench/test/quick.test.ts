import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBenchCommand } from '../cli.js';
import { defaultLocomoPath } from '../lib/data.js';
import { LOCOMO_OUTPUT_FILES } from '../locomo/report.js';
import { SYSTEM_NAMES, type LocomoResults } from '../locomo/results.js';

const data = defaultLocomoPath();

/**
 * Runs `npm run bench -- locomo --quick` in-process (conv-26, 30 questions, every system) and checks
 * that the harness works and its numbers are in range. Needs the LoCoMo file, which is not in
 * the repository.
 */
describe.skipIf(!existsSync(data))('npm run bench -- locomo --quick', () => {
  let out: string;
  let code: number;
  let results: LocomoResults;
  const stderr: string[] = [];

  beforeAll(async () => {
    out = await mkdtemp(join(tmpdir(), 'jev-mem-bench-test-'));
    code = await runBenchCommand(['locomo'], { quick: true, out, data }, { out: () => undefined, err: (s) => stderr.push(s) });
    results = JSON.parse(await readFile(join(out, LOCOMO_OUTPUT_FILES.json), 'utf8')) as LocomoResults;
  }, 120_000);

  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('exits 0 and writes a results.json of the right format', () => {
    expect(code, stderr.join('\n')).toBe(0);
    expect(results.format).toBe('jev-mem/bench-locomo');
    expect(results.settings.quick).toBe(true);
  });

  it('reports every system, none failed', () => {
    expect(Object.keys(results.systems).sort()).toEqual([...SYSTEM_NAMES].sort());
    for (const s of Object.values(results.systems)) expect(s?.status, `${s?.name}: ${s?.error}`).toBe('ok');
  });

  it('evaluates 30 questions of conv-26, six per category', () => {
    expect(results.conversations).toEqual([{ sampleId: 'conv-26', split: 'dev', turns: 419, questions: 30 }]);
    const dev = results.systems.bm25?.splits.dev;
    expect([1, 2, 3, 4, 5].map((c) => dev?.byCategory[String(c)]?.n)).toEqual([6, 6, 6, 6, 6]);
    expect(dev?.overall.n).toBe(24);
  });

  it('keeps every recall and hit in [0, 1] and non-decreasing in K', () => {
    for (const s of Object.values(results.systems)) {
      for (const a of Object.values(s?.splits ?? {})) {
        for (const g of [a.overall, ...Object.values(a.byCategory)]) {
          for (const m of [g.recall, g.hit]) {
            for (const v of Object.values(m)) {
              expect(v).toBeGreaterThanOrEqual(0);
              expect(v).toBeLessThanOrEqual(1);
            }
            expect(m[5]).toBeLessThanOrEqual(m[10]);
            expect(m[10]).toBeLessThanOrEqual(m[20]);
          }
          expect(g.hit[10]).toBeLessThanOrEqual(g.recall[10]);
        }
      }
    }
  });

  it('gives BM25 a recall@10 between 0.3 and 1 on these questions', () => {
    const r = results.systems.bm25?.splits.dev?.overall.recall[10] as number;
    expect(r).toBeGreaterThan(0.3);
    expect(r).toBeLessThanOrEqual(1);
  });

  it('scores conv-26 with a flat-learned model trained on the other development conversations only', () => {
    expect(results.flatLearnedModels.map((m) => m.trainedOn)).toEqual([['conv-30', 'conv-41', 'conv-42', 'conv-43']]);
  });

  it('measures latency, builds and System-One use', () => {
    for (const s of Object.values(results.systems)) {
      const l = s?.latencyMs;
      expect(l?.n).toBe(30);
      expect(l?.p50).toBeLessThanOrEqual(l?.p95 as number);
      expect(l?.p95).toBeLessThanOrEqual(l?.max as number);
    }
    const b = results.efficiency.builds.configured;
    expect(b?.observations).toBe(419);
    expect(b?.perWrite.calls).toBeGreaterThan(0);
    expect(b?.storageBytesPerNode).toBeGreaterThan(0);
    expect(results.efficiency.builds.heuristic?.observations).toBe(419);
    expect(results.systems['jev-mem']?.systemOnePerQuery?.calls).toBeGreaterThan(0);
    expect(results.efficiency.peakRssBytes.sampled).toBeGreaterThan(0);
  });

  it('writes the Markdown report and the charts', async () => {
    const md = await readFile(join(out, LOCOMO_OUTPUT_FILES.markdown), 'utf8');
    expect(md).toContain('| bm25 | 24 |');
    for (const f of [LOCOMO_OUTPUT_FILES.recallChart, LOCOMO_OUTPUT_FILES.ablationChart, LOCOMO_OUTPUT_FILES.latencyChart]) {
      expect((await readFile(join(out, f), 'utf8')).startsWith('<svg')).toBe(true);
    }
  });
});
