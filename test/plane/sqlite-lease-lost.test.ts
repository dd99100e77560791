/**
 * A lease whose SQLite transaction ended behind it (issue 22, h-lockflake): SQLite rolls a
 * transaction back on its own after an I/O, full-disk or out-of-memory error of any statement in
 * it, and lets the lock directory go. A `ready` that follows must take the lock again rather
 * than resolve on the lost lease, and the write transaction after it must be all or nothing.
 */
import fs, { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-sqlite-lease-lost-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** A database with table t: 200 rows of ~1 kB (about 60 pages of 4 KiB), `v` unique. */
function makeDb(name: string): string {
  const path = join(dir, name);
  const d = openNodeSqlDriver(path);
  d.transaction(() => {
    d.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT UNIQUE)');
    for (let i = 0; i < 200; i++) d.query('INSERT INTO t (v) VALUES (?)', [`row ${i} ${'.'.repeat(1000)}`]);
  });
  d.close();
  return path;
}

/** Opens a read lease on `path` and fails its next file read with EIO: SQLite rolls the lease's transaction back. */
async function lostLease(path: string): Promise<ReturnType<typeof openNodeSqlDriver>> {
  const w = openNodeSqlDriver(path);
  await w.ready('read');
  const scan = 'SELECT count(*) AS n FROM t WHERE id > ?';
  expect(w.query(scan, [1_000_000])).toEqual([{ n: 0 }]); // prepared; reads the last leaf only
  expect(existsSync(`${path}.lock`)).toBe(true);
  vi.spyOn(fs, 'readSync').mockImplementationOnce(() => {
    throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
  });
  expect(() => w.query(scan, [0])).toThrow(/disk I\/O error/); // the scan reads a page not cached yet
  expect(existsSync(`${path}.lock`)).toBe(false); // SQLite rolled back and let the lock go
  return w;
}

describe('a lease whose transaction SQLite rolled back', () => {
  it("is dropped by ready('write'), which takes the lock again", async () => {
    const path = makeDb('ready.sqlite');
    const w = await lostLease(path);
    await w.ready('write');
    expect(existsSync(`${path}.lock`)).toBe(true);
    w.transaction(() => w.query('INSERT INTO t (v) VALUES (?)', ['after']));
    expect(existsSync(`${path}.lock`)).toBe(false); // the COMMIT let it go
    expect(w.query("SELECT count(*) AS n FROM t WHERE v = 'after'")).toEqual([{ n: 1 }]);
    w.close();
  });

  it('does not carry a write transaction, which stays all or nothing', async () => {
    const path = makeDb('atomic.sqlite');
    const w = await lostLease(path);
    // The second insert breaks the UNIQUE constraint: the first must not stay either.
    expect(() =>
      w.transaction(() => {
        w.query('INSERT INTO t (v) VALUES (?)', ['twice']);
        w.query('INSERT INTO t (v) VALUES (?)', ['twice']);
      }),
    ).toThrow(/UNIQUE constraint failed/);
    expect(w.query("SELECT count(*) AS n FROM t WHERE v = 'twice'")).toEqual([{ n: 0 }]);
    expect(existsSync(`${path}.lock`)).toBe(false);
    w.close();
  });

  it('is opened afresh by read(), which holds the lock while it reads', async () => {
    const path = makeDb('read.sqlite');
    const w = await lostLease(path);
    expect(w.read(() => [existsSync(`${path}.lock`), w.query('SELECT count(*) AS n FROM t')])).toEqual([true, [{ n: 200 }]]);
    w.close();
  });
});
