/**
 * The summary line of `jev-mem ingest` counts what this ingest committed (the results of its
 * addMany), not the namespace's totals: a second ingest of the same file writes no node, and a
 * node another writer deletes between the commit and the summary does not change the counts.
 * The totals are printed apart, under namespaceTotals.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { Memory } from '../../src/memory.js';
import { cli, SAMPLE } from './helpers.js';

/** When set, runs on the memory the CLI opened, right after its addMany committed. */
const hook: { afterAddMany?: (memory: Memory, ids: string[]) => Promise<void> } = {};

vi.mock('../../src/node.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/node.js')>();
  return {
    ...real,
    createNodeMemory: async (...args: Parameters<typeof real.createNodeMemory>) => {
      const memory = await real.createNodeMemory(...args);
      const addMany = memory.addMany.bind(memory);
      memory.addMany = async (...a: Parameters<Memory['addMany']>) => {
        const res = await addMany(...a);
        await hook.afterAddMany?.(memory, res.map((r) => r.id));
        return res;
      };
      return memory;
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-summary-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const summaryOf = (out: string[]): Record<string, unknown> => JSON.parse(out[0] as string) as Record<string, unknown>;

describe('the ingest summary', () => {
  it('counts the nodes and edges this ingest wrote; a repeat ingest writes none (the totals apart)', async () => {
    const store = join(dir, 'repeat');
    const first = await cli(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic']);
    expect(first.code).toBe(0);
    const a = summaryOf(first.out);
    expect(a).toMatchObject({ namespace: 'default', ingested: 30, nodes: 30, deduplicated: 0 });
    const totals = a.namespaceTotals as { nodes: number; edges: number };
    expect(totals.nodes).toBe(30);
    expect(a.edges).toBe(totals.edges);
    const again = await cli(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic']);
    expect(again.code).toBe(0);
    expect(summaryOf(again.out)).toMatchObject({ ingested: 30, nodes: 0, deduplicated: 30, edges: 0, namespaceTotals: { nodes: 30, edges: totals.edges } });
  });

  it('is not changed by a node another writer deletes after the commit', async () => {
    const store = join(dir, 'concurrent');
    hook.afterAddMany = async (memory, ids) => {
      expect(await memory.delete(ids[0] as string)).toBe(true);
    };
    try {
      const r = await cli(['ingest', SAMPLE, '--store', store, '--system-one', 'heuristic']);
      expect(r.code).toBe(0);
      const s = summaryOf(r.out);
      expect(s).toMatchObject({ ingested: 30, nodes: 30, deduplicated: 0, namespaceTotals: { nodes: 29 } });
      expect(s.edges as number).toBeGreaterThan((s.namespaceTotals as { edges: number }).edges);
    } finally {
      delete hook.afterAddMany;
    }
  });
});
