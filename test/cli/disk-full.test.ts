/**
 * A full disk during `jev-mem ingest` (issue 22, "Writes the user can rely on"): the run stops
 * with QUOTA_EXCEEDED and says exactly how many observations were committed, which is what the
 * store then holds. The disk fills through a fault-injecting driver: from its Nth transaction on,
 * every transaction fails as SQLite does on a full disk (`database or disk is full`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cli } from './helpers.js';

const fault = vi.hoisted(() => ({ transactions: 0, failFrom: Number.POSITIVE_INFINITY }));
vi.mock('../../src/plane/drivers/sqlite-node.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/plane/drivers/sqlite-node.js')>();
  return {
    ...mod,
    openNodeSqlDriver: (path: string) => {
      const d = mod.openNodeSqlDriver(path);
      return {
        ...d,
        transaction: <T>(fn: () => T): T => {
          if (++fault.transactions >= fault.failFrom) throw new Error('database or disk is full');
          return d.transaction(fn);
        },
      };
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-full-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINES = 300;
const CHUNK = 64;

const file = join(dir, 'turns.jsonl');

describe('a full disk during ingest', () => {
  it('stops with QUOTA_EXCEEDED and the exact count committed, which the store then holds', async () => {
    const t0 = Date.UTC(2024, 0, 1);
    writeFileSync(
      file,
      Array.from({ length: LINES }, (_, i) => JSON.stringify({ text: `Turn ${i}: I repotted fern number ${i} on shelf ${i % 9}.`, observedAt: new Date(t0 + i * 60_000).toISOString(), speaker: i % 2 ? 'Ann' : 'Bo' })).join('\n'),
    );
    const store = join(dir, 'store');
    // Count the transactions of a whole ingest into a scratch store, then fill the disk half-way.
    fault.transactions = 0;
    const whole = await cli(['ingest', file, '--store', join(dir, 'scratch'), '--namespace', 'n', '--system-one', 'heuristic']);
    expect(whole.code).toBe(0);
    const all = fault.transactions;
    // Two neighbouring transactions: a chunk's commit and what follows it (its checkpoint), so
    // one of them fails after a commit went through.
    for (const failFrom of [Math.ceil(all / 2), Math.ceil(all / 2) + 1]) await ingestInto(`${store}-${failFrom}`, failFrom);
  });

  async function ingestInto(store: string, failFrom: number): Promise<void> {
    fault.transactions = 0;
    fault.failFrom = failFrom;
    const r = await cli(['ingest', file, '--store', store, '--namespace', 'n', '--system-one', 'heuristic']);
    fault.failFrom = Number.POSITIVE_INFINITY;
    expect(r.code).toBe(1);
    const text = r.err.join('\n');
    const m = /QUOTA_EXCEEDED: ingest stopped: disk full: (\d+) of 300 observations written/.exec(text);
    expect(m, text).not.toBeNull();
    const n = Number(m?.[1]);
    expect(n % CHUNK).toBe(0);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(LINES);
    expect(text).not.toMatch(/nothing was written/);
    expect(text).toContain(`observations ${n + 1}-${LINES} were not written`);
    const stats = await cli(['stats', '--store', store, '--namespace', 'n', '--system-one', 'heuristic']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.out[0] as string).nodes).toBe(n);
  }
});
