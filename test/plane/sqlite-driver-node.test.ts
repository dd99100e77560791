/**
 * The read lease of the node-sqlite3-wasm driver: reads of one turn share one read transaction
 * (one take of the lock directory), a write of the same or another connection of this process
 * ends it, and it is gone by the next turn of the event loop.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openNodeSqlDriver, type NodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';

const dirs: string[] = [];
const open: NodeSqlDriver[] = [];
afterEach(() => {
  for (const d of open.splice(0)) d.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function database(): { file: string; a: NodeSqlDriver; b: NodeSqlDriver } {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-driver-'));
  dirs.push(dir);
  const file = join(dir, 'store.sqlite');
  const a = openNodeSqlDriver(file);
  open.push(a);
  a.transaction(() => {
    a.query('CREATE TABLE t (x INTEGER)');
    a.query('INSERT INTO t VALUES (1)');
  });
  const b = openNodeSqlDriver(file);
  open.push(b);
  return { file, a, b };
}

const count = (d: NodeSqlDriver): number => Number(d.read!(() => d.query('SELECT count(*) AS n FROM t'))[0]?.n);
const nextTurn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('the read lease of the Node SQLite driver', () => {
  it('holds the lock after a read until the next turn of the event loop, then releases it', async () => {
    const { file, a } = database();
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(count(a)).toBe(1);
    expect(existsSync(`${file}.lock`)).toBe(true); // the lease: the lock is still held
    expect(count(a)).toBe(1); // a second read of the same turn shares it
    await nextTurn();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('lets a write of the same connection in the same turn through, and the next read sees it', () => {
    const { a } = database();
    expect(count(a)).toBe(1);
    a.transaction(() => a.query('INSERT INTO t VALUES (2)'));
    expect(count(a)).toBe(2);
  });

  it('lets a write of another connection of this process in the same turn through (it ends the lease), at once', () => {
    const { a, b } = database();
    expect(count(a)).toBe(1);
    const started = performance.now();
    b.transaction(() => b.query('INSERT INTO t VALUES (2)'));
    expect(performance.now() - started).toBeLessThan(1000); // not the 15 s busy wait
    expect(count(a)).toBe(2);
    expect(count(b)).toBe(2);
  });

  it('ends the lease at close, leaving no lock directory', () => {
    const { file, a } = database();
    expect(count(a)).toBe(1);
    a.close();
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
