/**
 * `jev-mem ingest` stopped by another process holding the store's writer lock (issue 22,
 * h-break6): like Ctrl-C and a full disk, the run says how many observations were committed,
 * which is what the store then holds, before the error itself. The other writer is simulated at
 * the store's commit, where the lock is taken: once the first chunk is committed (its progress
 * line printed), every commit fails with the error `takeStoreLock` gives for a live holder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cli } from './helpers.js';

const fault = vi.hoisted(() => ({ held: false }));
vi.mock('../../src/plane/store/sqlite-file-storage.js', async (importOriginal) => {
  const mod = await importOriginal<typeof import('../../src/plane/store/sqlite-file-storage.js')>();
  const { JevMemError } = await import('../../src/errors.js');
  return {
    ...mod,
    createSqliteFileStorage: async (options: Parameters<typeof mod.createSqliteFileStorage>[0]) => {
      const storage = await mod.createSqliteFileStorage(options);
      const commit = storage.commit.bind(storage);
      storage.commit = async (ns, batch) => {
        if (fault.held) {
          const lock = join(options.dir, 'lock');
          throw new JevMemError('STORAGE_FAILED', `the store at ${options.dir} is being written by process 4242 on otherhost; close that memory first (its lock file is ${lock}; a lock whose process is gone is taken over on its own)`, { field: 'store', lock });
        }
        return commit(ns, batch);
      };
      return storage;
    },
  };
});

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINES = 200;
const file = join(dir, 'turns.jsonl');

describe('an ingest stopped by another writer', () => {
  it('prints how many observations were committed, which the store then holds, then the lock error', async () => {
    const t0 = Date.UTC(2024, 0, 1);
    writeFileSync(file, Array.from({ length: LINES }, (_, i) => JSON.stringify({ text: `Turn ${i}: I labelled jar number ${i} on shelf ${i % 7}.`, observedAt: new Date(t0 + i * 60_000).toISOString(), speaker: i % 2 ? 'Ann' : 'Bo' })).join('\n'));
    const store = join(dir, 'store');
    const err: string[] = [];
    const code = await main(['ingest', file, '--store', store, '--namespace', 'n', '--system-one', 'heuristic'], {
      out: () => undefined,
      err: (s) => {
        err.push(s);
        if (/^ingest: 64\/200 /.test(s)) fault.held = true; // the first chunk is committed; another process takes the lock
      },
    });
    fault.held = false;
    const text = err.join('\n');
    expect(code, text).toBe(1);
    expect(text).toContain('jev-mem: STORAGE_FAILED: ingest stopped: 64 of 200 observations committed to namespace "n"; they stay in store');
    expect(text).toContain('observations 65-200 were not written; the cause follows');
    expect(err.at(-1)).toMatch(/^jev-mem: STORAGE_FAILED: .*being written by process 4242/);
    const stats = await cli(['stats', '--store', store, '--namespace', 'n', '--system-one', 'heuristic']);
    expect(stats.code).toBe(0);
    expect(JSON.parse(stats.out[0] as string).nodes).toBe(64);
  }, 120_000);
});
