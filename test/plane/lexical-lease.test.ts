/**
 * A lease of SQLite's lock that the store-kept lexical index (FTS5) opens is given back as soon as
 * another process waits (issue 22, "readers never fail while another process writes", h-lock).
 * A write plans each observation with `await lexical.ready()`, a synchronous search, then record
 * reads (write/plan.ts); h-fair's `settle()` ends a lease once every `ready` answered in it is
 * settled and someone waits, but the index's `ready` was never settled, so such a lease lasted
 * its whole hold (LEASE_HOLD_MS) through the planning that followed, while a reader of another
 * process waited. Asserted as an order: how many of the holder's record reads after a search
 * begin while the other process is queued for the lock.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { makeNode } from './fixtures.js';

const CHILD = fileURLToPath(new URL('./sqlite-wait-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jev-mem-lexical-lease-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Whether a waiter is queued for the lock of `file` (a marker in `<file>.waiting/`, drivers/lock-queue.ts). */
const queued = (file: string): boolean => existsSync(`${file}.waiting`) && readdirSync(`${file}.waiting`).length > 0;

describe('a lease the lexical index opens', () => {
  it('ends at the first plan step after another process queued for the lock', async () => {
    const dir = join(root, 'store');
    const s = await createSqliteFileStorage({ dir, logger: () => undefined });
    await s.commit('chat', { putNodes: Array.from({ length: 40 }, (_, i) => makeNode('chat', `n${i}`, i + 1, `Maya rowed across the harbour on day ${i}`)) });
    const index = s.lexicalIndex('chat')!;
    const file = join(dir, SQLITE_FILE_NAME);
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, file, 'busy'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout?.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
    const closed = new Promise<number | null>((done) => child.once('close', done));
    try {
      while (!out.includes('open')) {
        if (child.exitCode !== null) throw new Error(err);
        await new Promise((done) => setTimeout(done, 20));
      }
      const steps: number[] = [];
      for (let round = 1; round <= 8; round++) {
        child.stdin!.write('go\n');
        let during = 0;
        // Plan steps, as a write plans an observation: the index's ready and search, then record
        // reads (the candidates' bodies, their neighbours …), a turn of the event loop between them.
        for (let i = 0; i < 5_000 && !out.includes(`got ${round}`); i++) {
          await index.ready!();
          expect(index.search('harbour', 5)).toHaveLength(5);
          for (let r = 0; r < 4; r++) {
            if (queued(file)) during++;
            expect(await s.getNodes('chat', [`n${(i + r) % 40}`])).toHaveLength(1);
            await new Promise((done) => setImmediate(done));
          }
        }
        steps.push(during);
        while (!out.includes(`got ${round}`)) await new Promise((done) => setTimeout(done, 5));
      }
      // Before: the lease went on through the reads until its hold (100 ms) ran out (7475b5a, per
      // round: 1 1 5 7 6 on a loaded machine). Now the read under way when the waiter queued ends
      // it, and at most one more begins as it queues (0 1 1 1 0).
      expect(Math.max(...steps), `record reads begun while the other process was queued, per round: ${steps.join(' ')}`).toBeLessThanOrEqual(2);
    } finally {
      child.stdin!.end();
      await s.close();
    }
    expect(await closed, err).toBe(0);
  }, 120_000);
});
