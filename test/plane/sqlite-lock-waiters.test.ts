/**
 * Fair turns at the SQLite lock between processes (issue 22, fresh-clone review: an MCP server
 * answering recalls back to back starved a CLI ingest of the same store, which failed
 * STORAGE_FAILED). A writer that finds the lock taken announces itself; a reader whose lease
 * ends then leaves the lock free long enough for it; the announcement is withdrawn once the
 * writer is in; a wait that runs out names the process registered as holding the file.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { giveWay, othersWaiting, waitForLock } from '../../src/plane/drivers/sqlite-lock-waiters.js';

const CHILD = fileURLToPath(new URL('./sqlite-lock-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-sqlite-waiters-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a writer beside a reader that reads back to back', () => {
  it('gets the lock for each of its writes, with the reader still reading; its announcement is withdrawn after', async () => {
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
      let seen = false; // the announcement, looked at while a write waits
      const look = setInterval(() => (seen ||= othersWaitingFrom(path)), 2);
      try {
        for (let i = 0; i < 8; i++) {
          await w.ready('write');
          w.transaction(() => w.query('INSERT INTO t (v) VALUES (?)', [`write ${i}`]));
        }
      } finally {
        clearInterval(look);
      }
      expect(w.query("SELECT count(*) AS n FROM t WHERE v LIKE 'write %'")).toEqual([{ n: 8 }]);
      w.close();
      expect(seen).toBe(true);
      expect(existsSync(`${path}.waiting`) ? readdirSync(`${path}.waiting`) : []).toEqual([]);
      expect(reader.exitCode).toBeNull(); // still reading all along
    } finally {
      reader.kill('SIGKILL');
    }
  }, 60_000);
});

/** Whether a waiting announcement of this process is in `<path>.waiting` (othersWaiting skips this process's own). */
function othersWaitingFrom(path: string): boolean {
  return existsSync(`${path}.waiting`) && readdirSync(`${path}.waiting`).some((n) => n.startsWith(`${process.pid}-`));
}

describe('announcements and the wait', () => {
  it('another live process waiting makes a lease give way; a dead one counts for nothing and is removed', () => {
    const file = join(dir, 'announced.sqlite');
    mkdirSync(`${file}.waiting`);
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeFileSync(join(`${file}.waiting`, `${dead}-abc`), '');
    expect(othersWaiting(file)).toBe(false);
    expect(giveWay(file)).toBeUndefined();
    expect(readdirSync(`${file}.waiting`)).toEqual([]);
    writeFileSync(join(`${file}.waiting`, `${process.ppid}-def`), ''); // a live process (vitest's parent)
    expect(othersWaiting(file)).toBe(true);
    expect(giveWay(file)).toBeInstanceOf(Promise);
  });

  it('a wait that runs out names the processes registered as connected to the file, and withdraws its announcement', async () => {
    const file = join(dir, 'held.sqlite');
    mkdirSync(`${file}.holders`);
    writeFileSync(join(`${file}.holders`, '4242-x-y'), JSON.stringify({ pid: 4242, host: 'otherhost', since: '2026-01-01T00:00:00.000Z' }));
    const busy = new Error('database is locked');
    const e = (await waitForLock(file, () => busy, () => true, 30, 5).then(() => undefined, (x: unknown) => x)) as Error;
    expect(e.message).toMatch(new RegExp(`^database is locked: another process \\(process 4242 on otherhost \\(connected since 2026-01-01T00:00:00.000Z\\)\\) held the lock of ${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} for \\d+ ms$`));
    expect(e.cause).toBe(busy);
    expect(existsSync(`${file}.waiting`)).toBe(false);
  });
});
