/**
 * The errno shim of the Node SQLite driver (issue 22: a full disk is QUOTA_EXCEEDED): a call of
 * an observed node-sqlite3-wasm Database that fails after the file system answered ENOSPC or
 * EDQUOT throws SQLite's full-disk error; any other errno leaves SQLite's error as it was; the
 * fs functions are observed only while a call runs.
 */
import fs, { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { fullDiskOf, observeErrno } from '../../src/plane/drivers/sqlite-errno.js';

const dir = realpathSync(mkdtempSync(join(tmpdir(), 'jev-mem-errno-')));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** An observed database with one table, in a fresh file. */
function open(name: string): InstanceType<typeof sqlite.Database> {
  const db = observeErrno(new sqlite.Database(join(dir, name)));
  db.exec('CREATE TABLE t (v TEXT)');
  return db;
}

/** Makes the next write to a file of `dir` throw an errno error `code`. */
function failNextWrite(code: string): void {
  const real = fs.writeSync;
  let done = false;
  vi.spyOn(fs, 'writeSync').mockImplementation(((...a: unknown[]) => {
    if (!done && typeof a[0] === 'number' && fs.readlinkSync(`/proc/self/fd/${a[0]}`).startsWith(dir)) {
      done = true;
      throw Object.assign(new Error(`${code}: injected`), { code });
    }
    return (real as (...x: unknown[]) => unknown).apply(fs, a);
  }) as never);
}

/** The message a call throws. */
function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
}

describe.skipIf(process.platform !== 'linux')('observeErrno', () => {
  it.each(['ENOSPC', 'EDQUOT'])('%s during an insert is SQLite\'s full-disk error, naming the errno; the table is as before', (code) => {
    const db = open(`${code}.db`);
    failNextWrite(code);
    expect(messageOf(() => db.run('INSERT INTO t VALUES (?)', ['a']))).toBe(`database or disk is full (SQLITE_FULL: disk I/O error; the file system answered ${code} to writeSync)`);
    vi.restoreAllMocks();
    expect(db.all('SELECT v FROM t')).toEqual([]);
    db.run('INSERT INTO t VALUES (?)', ['b']); // space is back
    expect(db.all('SELECT v FROM t')).toEqual([{ v: 'b' }]);
    db.close();
  });

  it('EIO stays a plain I/O error', () => {
    const db = open('eio.db');
    failNextWrite('EIO');
    expect(messageOf(() => db.run('INSERT INTO t VALUES (?)', ['a']))).toBe('disk I/O error');
    db.close();
  });

  it('leaves no fs function replaced after a call, whether it succeeded or failed', () => {
    const before = { w: fs.writeSync, s: fs.fsyncSync, t: fs.ftruncateSync, o: fs.openSync, m: fs.mkdirSync };
    const db = open('restore.db');
    db.run('INSERT INTO t VALUES (?)', ['a']);
    expect(() => db.exec('NOT SQL')).toThrow();
    db.close();
    expect({ w: fs.writeSync, s: fs.fsyncSync, t: fs.ftruncateSync, o: fs.openSync, m: fs.mkdirSync }).toEqual(before);
  });

  it('fullDiskOf: only a full-disk errno changes the error, and a full-disk error stays as it is', () => {
    const io = new Error('disk I/O error');
    expect(fullDiskOf(io, undefined)).toBe(io);
    expect(fullDiskOf(io, { call: 'writeSync', code: 'EIO' })).toBe(io);
    const full = new Error('database or disk is full');
    expect(fullDiskOf(full, { call: 'writeSync', code: 'ENOSPC' })).toBe(full);
    expect((fullDiskOf(io, { call: 'fsyncSync', code: 'ENOSPC' }) as Error).cause).toBe(io);
  });
});
