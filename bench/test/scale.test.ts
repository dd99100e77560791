import { describe, expect, it } from 'vitest';
import { renderScaleMarkdown, type ScaleResults } from '../scale/scale.js';

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
