/**
 * A full disk during `jev-mem ingest` (issue 22, "Writes the user can rely on"): the run stops
 * with QUOTA_EXCEEDED and says exactly how many observations were committed, which is what the
 * store then holds. The disk fills through a fault-injecting driver: from its Nth transaction on,
 * every transaction fails as SQLite does on a full disk (`database or disk is full`).
 */
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cli } from './helpers.js';

const fault = vi.hoisted(() => ({ transactions: 0, failFrom: Number.POSITIVE_INFINITY, vacuumFails: false }));
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
        // On a full disk the rewrite of the file fails too (it needs a copy of the database).
        vacuum: (): Promise<void> => (fault.vacuumFails ? Promise.reject(new Error('database or disk is full')) : d.vacuum()),
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

describe('a full disk during delete and forget', () => {
  it('is QUOTA_EXCEEDED saying why an erasure needs space and how much to free; the same command works once there is space', async () => {
    const store = join(dir, 'erase');
    const small = join(dir, 'small.jsonl');
    writeFileSync(small, ['Ann: I repotted the fern.', 'Bo: I fixed the bike.'].map((text) => JSON.stringify({ text })).join('\n'));
    fault.failFrom = Number.POSITIVE_INFINITY;
    expect((await cli(['ingest', small, '--store', store, '--system-one', 'heuristic'])).code).toBe(0);
    const listed = await cli(['list', '--store', store, '--json']);
    const id = (JSON.parse(listed.out[0] as string) as { memories: { id: string }[] }).memories[0]!.id;
    const bytes = statSync(join(store, 'jev-mem.sqlite')).size;
    const file = join(store, 'jev-mem.sqlite');
    for (const [cmd, args] of [['delete', [id]], ['forget', ['--namespace', 'default']]] as const) {
      fault.transactions = 0;
      fault.failFrom = 1;
      fault.vacuumFails = true;
      const warned: string[] = [];
      const warn = vi.spyOn(console, 'warn').mockImplementation((...a: unknown[]) => void warned.push(a.join(' ')));
      const r = await cli([cmd, ...args, '--store', store, '--system-one', 'heuristic']).finally(() => warn.mockRestore());
      fault.failFrom = Number.POSITIVE_INFINITY;
      fault.vacuumFails = false;
      expect(warned.filter((w) => w.includes('VACUUM_FAILED'))).toEqual([]);
      expect([r.code, r.out]).toEqual([1, []]);
      // Nothing was erased, so nothing is pending: no erasures-pending file, and no VACUUM_FAILED
      // line saying erasures were left pending (h-break10 finding 6).
      expect(existsSync(join(store, 'erasures-pending'))).toBe(false);
      expect(r.err).toEqual([
        `jev-mem: QUOTA_EXCEEDED: ${cmd} refused: the disk is full and nothing was erased. SQLite needs free space to commit an erasure too: it copies every page it changes into its rollback journal before it commits; free some space (${(bytes / 2 ** 20).toFixed(1)} MiB, the size of ${file}, is enough, usually far less) and run the same ${cmd} again`,
      ]);
    }
    expect(JSON.parse((await cli(['stats', '--store', store, '--system-one', 'heuristic'])).out[0] as string).nodes).toBe(2);
    const again = await cli(['delete', id, '--store', store, '--system-one', 'heuristic']);
    expect([again.code, again.out]).toEqual([0, [JSON.stringify({ deleted: true, id })]]);
  });
});

