/**
 * An erasing commit of the SQLite store (a batch with `deleteNodeIds`: delete, forget, an update
 * that also deletes) and `dropNamespace` check their input before they take the writer lock
 * (issue 22 leftover): bad input fails at once with `INVALID_INPUT` naming the field, never waits
 * for another process's lock (up to WRITER_WAIT_MS, 15 s, then STORAGE_FAILED on the base code),
 * never takes the lock and never counts an erasure in `erasures-pending`.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PENDING_ERASURES_FILE } from '../../src/plane/store/sqlite-erasures.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';
import { makeNode } from './fixtures.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('an erasing commit with bad input, while another process holds the writer lock', () => {
  it('fails with INVALID_INPUT naming the field, without waiting for the lock or touching the store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-erasure-input-'));
    dirs.push(dir);
    const first = await createSqliteFileStorage({ dir });
    await first.commit('ns', { putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2)] });
    await first.close();
    // A writer on another host: it cannot be checked, so it counts as alive and is never taken over.
    const lock = join(dir, 'lock');
    const held = JSON.stringify({ pid: 4242, host: 'otherhost', since: Date.now() });
    writeFileSync(lock, held);
    const pending = join(dir, PENDING_ERASURES_FILE);
    expect(existsSync(pending)).toBe(false);

    const storage = await createSqliteFileStorage({ dir });
    try {
      const bad: Array<[WriteBatch, string]> = [
        [{ deleteNodeIds: [''] }, 'batch.deleteNodeIds[0]'],
        [{ deleteNodeIds: ['a', 7 as unknown as string] }, 'batch.deleteNodeIds[1]'],
        // an update that deletes: the new version names another namespace
        [{ deleteNodeIds: ['a'], putNodes: [makeNode('elsewhere', 'a2', 3)] }, 'batch.putNodes[0].namespace'],
        [{ deleteNodeIds: ['a'], putEdges: 'e' as unknown as [] }, 'batch.putEdges'],
        [{ deleteNodeIds: ['a'], change: Number.NaN }, 'batch.change'],
      ];
      for (const [batch, field] of bad) {
        await expect(storage.commit('ns', batch), field).rejects.toMatchObject({ code: 'INVALID_INPUT', field });
      }
      await expect(storage.commit('', { deleteNodeIds: ['a'] })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'namespace' });
      await expect(storage.dropNamespace('')).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'namespace' });
      // Nothing was taken, counted or erased.
      expect(readFileSync(lock, 'utf8')).toBe(held);
      expect(existsSync(pending)).toBe(false);
      expect(storage.pendingErasures()).toBe(0);
      expect((await storage.load('ns')).nodes.map((n) => n.id).sort()).toEqual(['a', 'b']);
      // A good erasure still waits for the holder (it is not refused for the bad calls before it).
      await expect(storage.commit('ns', { deleteNodeIds: ['a'] })).rejects.toMatchObject({ code: 'STORAGE_FAILED', details: { writerElsewhere: { pid: 4242, host: 'otherhost' } } });
    } finally {
      await storage.close();
    }
  }, 60_000);
});
