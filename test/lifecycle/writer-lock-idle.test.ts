/**
 * The writer lock of a Node store directory is given back when its process is idle (fresh-user
 * test of issue 22: two MCP clients on one store, the second could never write while the first
 * stayed open). A write waits for a live holder (up to WRITER_WAIT_MS) instead of failing at once,
 * and a writer that keeps writing past that wait still gets the holder's error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { WRITER_IDLE_MS, takeStoreLock, takeStoreLockWaiting } from '../../src/plane/store/store-lock.js';
import { lifecycleFixture } from './helpers.js';

let encoder: Encoder;
const fx = lifecycleFixture('writer-lock-idle', (e) => (encoder = e));
const sleep = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

describe('the writer lock of a store directory', () => {
  it('is given back after the process has been idle, so a second memory on the store can write', async () => {
    const dir = join(fx.tempDir(), 'shared');
    const a = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }) });
    const b = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }) });
    await a.add({ text: 'Maya: I keep my bike in the garage.' });
    const lock = join(dir, 'lock');
    expect(JSON.parse(readFileSync(lock, 'utf8')).pid).toBe(process.pid);
    // b waits for a's lock (held by a live process: this one) and writes once a is idle.
    const written = await b.add({ text: 'Theo: my kettle whistles at dawn.' });
    expect((await b.get(written.id))?.text).toBe('Theo: my kettle whistles at dawn.');
    await sleep(WRITER_IDLE_MS * 3);
    expect(existsSync(lock)).toBe(false);
    // Both see both memories, and a writes again after b.
    await a.add({ text: 'Maya: the garage door sticks in winter.' });
    expect((await a.list()).memories.map((m) => m.text)).toEqual(['Maya: I keep my bike in the garage.', 'Theo: my kettle whistles at dawn.', 'Maya: the garage door sticks in winter.']);
    await a.close();
    await b.close();
    expect(existsSync(lock)).toBe(false);
  }, 60_000);

  it('a wait for a holder that keeps it ends with the holder named, after the wait', async () => {
    const dir = fx.tempDir();
    const lock = join(dir, 'lock-held');
    await takeStoreLock(dir, lock); // held by this live process and never given back
    const started = Date.now();
    await expect(takeStoreLockWaiting(dir, lock, 300)).rejects.toMatchObject({ code: 'STORAGE_FAILED', details: { writerElsewhere: { pid: process.pid } } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});
