/**
 * The database lock of the Node SQLite driver (issue 22, "Concurrency without freezes"): a lock
 * is taken over only when its holder is gone (a dead process on this host), never because of
 * its age; waiting for a live holder is asynchronous, so the event loop keeps ticking; and the
 * journal a killed writer left is played back at once, so the first read after a crash neither
 * waits nor reads half-written pages.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { fullDiskError, openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { takeStoreLock } from '../../src/plane/store/store-lock.js';

const CHILD = fileURLToPath(new URL('./sqlite-lock-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-sqlite-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A database with table t holding `rows` rows of ~1 kB (`row <i> ...`); returns its path. */
function makeDb(name: string, rows: number): string {
  const path = join(dir, name);
  const d = openNodeSqlDriver(path);
  d.transaction(() => {
    d.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    for (let i = 0; i < rows; i++) d.query('INSERT INTO t (v) VALUES (?)', [`row ${i} ${'.'.repeat(1000)}`]);
  });
  d.close();
  return path;
}

function child(path: string, mode: 'hold' | 'store' | 'crash'): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', CHILD, path, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
}
const exited = (c: ChildProcess): Promise<unknown> => new Promise((done) => c.once('close', (code, signal) => done(code ?? signal)));
const printed = (c: ChildProcess, what: string): Promise<void> =>
  new Promise((done, fail) => {
    let out = '';
    c.stdout?.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      if (out.includes(what)) done();
    });
    c.once('close', () => fail(new Error(`the child ended before printing ${what}`)));
  });

describe('the SQLite lock of a dead process', () => {
  it('is taken over at once, and the killed writer\'s half-written transaction is rolled back', async () => {
    const path = makeDb('crash.sqlite', 40);
    const c = child(path, 'crash');
    expect(await exited(c)).toBe('SIGKILL');
    // What the killed writer left: its lock directory and a journal whose pages it had begun to
    // write into the database.
    expect(existsSync(`${path}.lock`)).toBe(true);
    expect(existsSync(`${path}-journal`)).toBe(true);
    const d = openNodeSqlDriver(path);
    try {
      // A synchronous read, which cannot wait: it goes through only because the holder is gone.
      const rows = d.read(() => d.query('SELECT COUNT(*) AS n FROM t'));
      expect(rows).toEqual([{ n: 40 }]);
      // Every row as it was before the killed transaction, none of its in-place changes.
      const kept = d.read(() => d.query("SELECT COUNT(*) AS n FROM t WHERE v = 'row ' || (id - 1) || ' ' || ?", ['.'.repeat(1000)]));
      expect(kept).toEqual([{ n: 40 }]);
      expect(d.read(() => d.query('PRAGMA integrity_check'))).toEqual([{ integrity_check: 'ok' }]);
      expect(existsSync(`${path}-journal`)).toBe(false);
    } finally {
      d.close();
    }
  });
});

describe('the SQLite lock of a live process', () => {
  it('is never taken over, however old; a wait for it keeps the event loop ticking and ends when the holder is gone', async () => {
    const path = makeDb('live.sqlite', 3);
    const c = child(path, 'hold');
    await printed(c, 'held');
    // An hour-old lock directory: age alone must not free it.
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(`${path}.lock`, hourAgo, hourAgo);
    const d = openNodeSqlDriver(path);
    try {
      expect(() => d.read(() => d.query('SELECT COUNT(*) AS n FROM t'))).toThrow(/database is locked/);
      expect(existsSync(`${path}.lock`)).toBe(true);
      // Wait asynchronously; count the ticks of a timer meanwhile.
      let ticks = 0;
      const timer = setInterval(() => ticks++, 5);
      let done = false;
      const waiting = d.ready('read').then(() => (done = true));
      while (ticks < 20) await new Promise((r) => setTimeout(r, 5));
      expect(done).toBe(false); // still waiting, and 20 ticks ran meanwhile
      c.kill('SIGKILL');
      await exited(c);
      await waiting;
      clearInterval(timer);
      // The holder's open transaction ("held") was rolled back with its journal.
      expect(d.read(() => d.query('SELECT COUNT(*) AS n FROM t'))).toEqual([{ n: 3 }]);
    } finally {
      c.kill('SIGKILL');
      d.close();
    }
  });
});

describe('the SQLite lock of a process whose pid was reused', () => {
  it('is taken over: the live process with that pid started after the registration, so it is not the holder', async () => {
    const path = makeDb('reused.sqlite', 2);
    const c = child(path, 'hold');
    const d = openNodeSqlDriver(path);
    try {
      await printed(c, 'held');
      expect(() => d.read(() => d.query('SELECT COUNT(*) AS n FROM t'))).toThrow(/database is locked/);
      // The registration now says it was written long before the process with its pid started.
      const reg = readdirSync(`${path}.holders`).find((n) => n.startsWith(`${c.pid}-`));
      expect(reg).toBeDefined();
      const file = join(`${path}.holders`, reg as string);
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), since: '2020-01-01T00:00:00.000Z' }));
      expect(d.read(() => d.query('SELECT COUNT(*) AS n FROM t'))).toEqual([{ n: 2 }]);
    } finally {
      c.kill('SIGKILL');
      await exited(c);
      d.close();
    }
  });
});

describe('the locks of a store folder copied while another process holds them', () => {
  it('belong to the folder they were taken in: the copy is read and written at once, the original stays locked', async () => {
    const original = join(dir, 'held-store');
    mkdirSync(original);
    const rows = makeDb(join('held-store', 'jev-mem.sqlite'), 3);
    const c = child(rows, 'store');
    try {
      await printed(c, 'held');
      // `cp -r` while the child holds both locks: the copy carries the SQLite lock directory, the
      // child's registration in `<file>.holders/` and the writer lock file, all naming a live pid.
      const copy = join(dir, 'held-store-copy');
      cpSync(original, copy, { recursive: true });
      const copied = join(copy, 'jev-mem.sqlite');
      expect(existsSync(`${copied}.lock`)).toBe(true);
      expect(readdirSync(`${copied}.holders`).some((n) => n.startsWith(`${c.pid}-`))).toBe(true);
      expect(JSON.parse(readFileSync(join(copy, 'lock'), 'utf8'))).toMatchObject({ pid: c.pid });
      // The copy: a synchronous read goes through (it cannot wait), without the child's
      // uncommitted row; the writer lock is taken over.
      const d = openNodeSqlDriver(copied);
      try {
        expect(d.read(() => d.query('SELECT COUNT(*) AS n FROM t'))).toEqual([{ n: 3 }]);
      } finally {
        d.close();
      }
      expect(await takeStoreLock(copy, join(copy, 'lock'))).toEqual({ tookOver: true });
      expect(JSON.parse(readFileSync(join(copy, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
      // The original is still the child's.
      const o = openNodeSqlDriver(rows);
      try {
        expect(() => o.read(() => o.query('SELECT COUNT(*) AS n FROM t'))).toThrow(/database is locked/);
      } finally {
        o.close();
      }
      const refused = await takeStoreLock(original, join(original, 'lock')).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'STORAGE_FAILED' });
      expect((refused as Error).message).toContain(`process ${c.pid}`);
    } finally {
      c.kill('SIGKILL');
      await exited(c);
    }
  });
});

describe('an FTS5 statement prepared while another process holds the lock', () => {
  it('fails as busy (not "vtable constructor failed"), and goes through once the holder is gone', async () => {
    const path = makeDb('fts.sqlite', 1);
    const a = openNodeSqlDriver(path);
    a.transaction(() => {
      a.query('CREATE VIRTUAL TABLE f USING fts5(x)');
      a.query("INSERT INTO f VALUES ('hello world')");
    });
    a.close();
    const d = openNodeSqlDriver(path);
    const c = child(path, 'hold');
    try {
      await d.ready('read');
      d.read(() => d.query('SELECT COUNT(*) AS n FROM t')); // the schema is loaded; the FTS statement is not prepared yet
      await new Promise((r) => setImmediate(r)); // the lease ends
      await printed(c, 'held');
      const sql = "SELECT rowid FROM f WHERE f MATCH 'hello'";
      expect(() => d.query(sql)).toThrow(/^database is locked/);
      c.kill('SIGKILL');
      await exited(c);
      expect(d.query(sql)).toEqual([{ rowid: 1 }]);
    } finally {
      c.kill('SIGKILL');
      d.close();
    }
  });
});

describe('a failed write on a full device', () => {
  it('is SQLITE_FULL when the device has under 1 MiB free, and stays an I/O error otherwise', () => {
    const io = new Error('disk I/O error');
    const full = fullDiskError(io, () => 4096);
    expect(full).toBeInstanceOf(Error);
    expect((full as Error).message).toMatch(/^database or disk is full \(SQLITE_FULL: disk I\/O error with 4096 bytes free/);
    expect(fullDiskError(io, () => 10 * 2 ** 30)).toBe(io);
    const other = new Error('UNIQUE constraint failed: t.id');
    expect(fullDiskError(other, () => 0)).toBe(other);
  });

  it('says so once when the failure is reported again (a statement, then the transaction around it)', () => {
    const once = fullDiskError(new Error('disk I/O error'), () => 45056) as Error;
    expect(fullDiskError(once, () => 45056)).toBe(once);
    expect(once.message).toBe('database or disk is full (SQLITE_FULL: disk I/O error with 45056 bytes free on the device)');
  });
});

describe('the writer lock file of a store directory', () => {
  it('is never taken over because of its age: an hour-old unreadable lock is refused, naming the file', async () => {
    const store = mkdtempSync(join(dir, 'store-'));
    const lock = join(store, 'lock');
    writeFileSync(lock, '');
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(lock, hourAgo, hourAgo);
    const err = await takeStoreLock(store, lock).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'STORAGE_FAILED' });
    expect((err as Error).message).toContain(lock);
    expect(readFileSync(lock, 'utf8')).toBe('');
  });

  it('is taken over from a dead process and then holds this process, written whole', async () => {
    const store = mkdtempSync(join(dir, 'store-'));
    const lock = join(store, 'lock');
    writeFileSync(lock, JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), since: '2020-01-01T00:00:00.000Z' })); // above Linux pid_max
    expect(await takeStoreLock(store, lock)).toEqual({ tookOver: true });
    expect(JSON.parse(readFileSync(lock, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    expect(readdirSync(store)).toEqual(['lock']); // no temporary file left
  });
});
