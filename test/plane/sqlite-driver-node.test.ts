/**
 * The read lease of the node-sqlite3-wasm driver: reads share one read transaction (one take of
 * the lock directory) across turns of the event loop that use the connection, for at most the
 * lease's hold (`leaseMs`); the first turn without a statement ends it, and so does a write of
 * the same or another connection of this process.
 */
import fs, { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { openNodeSqlDriver, type NodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';

const dirs: string[] = [];
const open: NodeSqlDriver[] = [];
const spies: MockInstance[] = [];
afterEach(() => {
  for (const s of spies.splice(0)) s.mockRestore();
  for (const d of open.splice(0)) d.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function database(leaseMs?: number): { file: string; a: NodeSqlDriver; b: NodeSqlDriver } {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-driver-'));
  dirs.push(dir);
  const file = join(dir, 'store.sqlite');
  const a = openNodeSqlDriver(file, leaseMs === undefined ? {} : { leaseMs });
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

/**
 * Counts the takes of `file`'s lock directory from now on (node-sqlite3-wasm takes it with
 * `fs.mkdirSync`); the count is read by the returned function.
 */
function lockTakes(file: string): () => number {
  let n = 0;
  const mkdir = fs.mkdirSync;
  const spy = vi.spyOn(fs, 'mkdirSync').mockImplementation(((path: fs.PathLike, options?: fs.MakeDirectoryOptions) => {
    const out = mkdir(path, options);
    if (String(path) === `${file}.lock`) n++;
    return out;
  }) as typeof fs.mkdirSync);
  spies.push(spy);
  return () => n;
}

describe('the read lease of the Node SQLite driver', () => {
  it('holds the lock after a read across turns of the event loop while the hold lasts, one take for all the reads', async () => {
    const { file, a } = database(60_000); // a hold no test run outlasts
    const takes = lockTakes(file);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(count(a)).toBe(1);
    expect(existsSync(`${file}.lock`)).toBe(true); // the lease: the lock is still held
    expect(count(a)).toBe(1); // a second read of the same turn shares it
    await nextTurn();
    await a.ready('read'); // a fresh lease is kept as it is
    expect(existsSync(`${file}.lock`)).toBe(true);
    expect(count(a)).toBe(1);
    expect(takes()).toBe(1);
  });

  it('releases the lock at the first turn without a statement, however long the hold', async () => {
    const { file, a } = database(60_000);
    expect(count(a)).toBe(1);
    expect(existsSync(`${file}.lock`)).toBe(true);
    await new Promise((r) => setTimeout(r, 30)); // turns go by with no statement: the process waits for something else
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it('keeps the lease across turns that each run a statement', async () => {
    const { file, a } = database(60_000);
    const takes = lockTakes(file);
    for (let i = 0; i < 5; i++) {
      expect(count(a)).toBe(1);
      await nextTurn();
    }
    expect(takes()).toBe(1);
  });

  it('ends a lease used in every turn at the end of the first turn past its hold', async () => {
    const short = database(1);
    const shortTakes = lockTakes(short.file);
    expect(count(short.a)).toBe(1);
    const t = performance.now();
    while (performance.now() - t < 5); // older than its 1 ms hold
    await nextTurn();
    expect(existsSync(`${short.file}.lock`)).toBe(false); // ended at the end of the turn, though used
    expect(count(short.a)).toBe(1);
    expect(shortTakes()).toBe(2);
  });

  it('ends a lease older than its hold at the next ready, lets one turn pass, then opens a new one', async () => {
    const { file, a } = database(1);
    const takes = lockTakes(file);
    expect(count(a)).toBe(1);
    const t = performance.now();
    while (performance.now() - t < 5); // older than the hold, in the same turn (the timer has not run)
    await a.ready('read');
    expect(existsSync(`${file}.lock`)).toBe(true);
    expect(takes()).toBe(2);
  });

  it('runs a write made ready while a read lease is open inside that lease (no second take), and its commit releases the lock', async () => {
    const { file, a } = database(60_000);
    const takes = lockTakes(file);
    expect(count(a)).toBe(1);
    await a.ready('write');
    a.transaction(() => a.query('INSERT INTO t VALUES (2)'));
    expect(takes()).toBe(1);
    expect(existsSync(`${file}.lock`)).toBe(false);
    expect(count(a)).toBe(2);
  });

  it('refuses a hold that is not a positive number of milliseconds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-driver-'));
    dirs.push(dir);
    expect(() => openNodeSqlDriver(join(dir, 'x.sqlite'), { leaseMs: 0 })).toThrow(/leaseMs/);
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
