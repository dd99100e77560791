/**
 * A writer beside a busy reader of another process (issue 22, fresh-clone review: an MCP server
 * answering recalls back to back was reported to starve a CLI ingest of the same store, which
 * failed STORAGE_FAILED): each write gets the lock while the reader keeps reading, and a wait
 * that runs out names the process registered as connected to the file.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { waitForLock } from '../../src/plane/drivers/sqlite-lock-waiters.js';

const CHILD = fileURLToPath(new URL('./sqlite-lock-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-sqlite-waiters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a writer beside a reader that reads back to back', () => {
  it('gets the lock for each of its writes, with the reader still reading', async () => {
    const path = join(dir, 'busy.sqlite');
    const d = openNodeSqlDriver(path);
    d.transaction(() => {
      d.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
      for (let i = 0; i < 100; i++) d.query('INSERT INTO t (v) VALUES (?)', [`row ${i}`]);
    });
    d.close();
    const reader = spawn(process.execPath, ['--import', 'tsx', CHILD, path, 'greedy'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((done, fail) => {
        reader.stdout?.on('data', (b: Buffer) => b.toString('utf8').includes('reading') && done());
        reader.once('close', () => fail(new Error('the reader ended')));
      });
      const w = openNodeSqlDriver(path);
      for (let i = 0; i < 8; i++) {
        await w.ready('write');
        w.transaction(() => w.query('INSERT INTO t (v) VALUES (?)', [`write ${i}`]));
      }
      // Each COMMIT ends the lease and lets the lock go, and the reader takes it whenever it is
      // free: a statement outside a lease fails busy at once (sqlite-node.ts), so the count waits
      // for the lock as a store's read does (h-lockflake: without it the count failed "database is
      // locked" whenever this process was descheduled between the last COMMIT and the count).
      await w.ready('read');
      expect(w.query("SELECT count(*) AS n FROM t WHERE v LIKE 'write %'")).toEqual([{ n: 8 }]);
      w.close();
      expect(reader.exitCode).toBeNull(); // still reading all along
    } finally {
      reader.kill('SIGKILL');
    }
  }, 60_000);
});

describe('a wait that runs out', () => {
  it('names the processes registered as connected to the file', async () => {
    const file = join(dir, 'held.sqlite');
    mkdirSync(`${file}.holders`);
    writeFileSync(join(`${file}.holders`, '4242-x-y'), JSON.stringify({ pid: 4242, host: 'otherhost', since: '2026-01-01T00:00:00.000Z' }));
    const busy = new Error('database is locked');
    const e = (await waitForLock(file, () => busy, () => true, 30, 5).then(() => undefined, (x: unknown) => x)) as Error;
    expect(e.message).toMatch(new RegExp(`^database is locked: another process \\(process 4242 on otherhost \\(connected since 2026-01-01T00:00:00.000Z\\)\\) held the lock of ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} for \\d+ ms$`));
    expect(e.cause).toBe(busy);
  });
});
