import { describe, expect, it } from 'vitest';
import type { Aggregate } from '../lib/metrics.js';
import { headlineSplit, pct, renderReadmeSection, renderResultsMarkdown } from '../locomo/report.js';
import type { LocomoResults, SystemResult } from '../locomo/results.js';

function agg(r10: number, n = 10): Aggregate {
  const g = { n, recall: { 5: r10 - 0.1, 10: r10, 20: r10 + 0.1 }, hit: { 5: 0.1, 10: 0.2, 20: 0.3 } };
  return { byCategory: { '1': g, '2': g, '3': g, '4': g, '5': g }, overall: g };
}

function system(name: SystemResult['name'], r10: number, extra: Partial<SystemResult> = {}): SystemResult {
  return { name, description: name, status: 'ok', splits: { dev: agg(r10 - 0.05), test: agg(r10) }, perConversation: {}, latencyMs: { n: 10, mean: 2, p50: 1.5, p95: 4, max: 9 }, ...extra };
}

function results(): LocomoResults {
  return {
    format: 'jev-mem/bench-locomo',
    version: 1,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
    durationMs: 60_000,
    command: 'npm run bench -- locomo --split all',
    machine: { cpuModel: 'Test CPU', cores: 2, totalMemoryBytes: 2 ** 30, node: 'v20.0.0', v8: '11', platform: 'linux', osRelease: '6', arch: 'x64' },
    git: { commit: 'a'.repeat(40), dirty: false },
    settings: {
      data: { path: '/data/locomo10.json', sha256: 'f'.repeat(64) },
      split: 'all',
      quick: false,
      systems: ['jev-mem', 'bm25', 'no-graph'],
      ks: [5, 10, 20],
      questions: 20,
      systemOne: { name: 'local', modelId: 'm@1' },
      encoder: 'enc@1',
      vectorIndex: 'flat',
      parameters: null,
      flatLearned: { pool: { bm25: 50, dense: 50, neighbourHits: 10 }, l2: 1, trainCategories: [1, 2, 3, 4], features: [] },
    },
    conversations: [
      { sampleId: 'conv-26', split: 'dev', turns: 4, questions: 10 },
      { sampleId: 'conv-44', split: 'test', turns: 4, questions: 10 },
    ],
    systems: {
      'jev-mem': system('jev-mem', 0.7, { systemOnePerQuery: { calls: 4, fallbacks: 0, ms: 2.5 } }),
      bm25: system('bm25', 0.6),
      'no-graph': { name: 'no-graph', description: 'x', status: 'failed', error: 'SYSTEM_ONE_FAILED: boom', splits: {}, perConversation: {} },
    },
    efficiency: {
      modelLoadMs: { encoder: 40, systemOne: 300, heuristic: null },
      baselineBuildMs: { lexical: 10, embed: 20 },
      builds: {},
      peakRssBytes: { sampled: 300 * 2 ** 20, process: 310 * 2 ** 20 },
      heapUsedBytes: 100 * 2 ** 20,
    },
    flatLearnedModels: [],
    notes: ['a note'],
  };
}

describe('pct', () => {
  it('prints a fraction as a percentage with one decimal', () => {
    expect(pct(0.6183)).toBe('61.8');
    expect(pct(undefined)).toBe('–');
  });
});

describe('headlineSplit', () => {
  it('leads with the test split when the run has it', () => {
    expect(headlineSplit(results())).toBe('test');
  });
});

describe('renderReadmeSection', () => {
  it('puts each system’s test-split recall in one row', () => {
    const md = renderReadmeSection(results());
    // jev-mem test split: R@5 60.0, R@10 70.0, R@20 80.0, hit@10 20.0, p50 1.5 ms
    expect(md).toContain('| jev-mem | 60.0 | 70.0 | 80.0 | 20.0 | 1.5 ms |');
    expect(md).toContain('| bm25 | 50.0 | 60.0 | 70.0 | 20.0 | 1.5 ms |');
  });

  it('shows a failed system as failed rather than as zeros', () => {
    expect(renderReadmeSection(results())).toContain('| no-graph | failed |');
  });

  it('links the charts under the given folder', () => {
    expect(renderReadmeSection(results(), { chartsDir: 'docs/bench/' })).toContain('](docs/bench/recall10-by-category.svg)');
  });
});

describe('renderResultsMarkdown', () => {
  it('reports every split and the error of a failed system', () => {
    const md = renderResultsMarkdown(results());
    expect(md).toContain('split `dev`');
    expect(md).toContain('split `test`');
    expect(md).toContain('- no-graph: SYSTEM_ONE_FAILED: boom');
  });
});
