/**
 * Waiting in turn at the locks a Node store shares between processes (issue 22, h-fair): a
 * process that holds a lock through a long synchronous turn (a write's planning of a long turn,
 * 0.5–1.3 s on a loaded machine) and takes it again a few ms after giving it back used to win it
 * again and again over a waiter that looks every ≤ 10 ms (SQLite's lock) or ≤ 250 ms (the store's
 * writer lock), which then waited past 15 s and failed. Now a waiter queues
 * (`<lock>.waiting/`, src/plane/drivers/lock-queue.ts) and the holder's next take comes after it;
 * a dead waiter's marker holds nothing up. Driven from two processes and asserted as an order.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { releaseStoreLock, takeStoreLockWaiting } from '../../src/plane/store/store-lock.js';

const CHILD = fileURLToPath(new URL('./sqlite-lock-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'jev-mem-lock-turns-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A database `<folder>/db.sqlite` with a table `t` of 10 rows. */
function database(name: string): string {
  const folder = join(root, name);
  mkdirSync(folder);
  const path = join(folder, 'db.sqlite');
  const d = openNodeSqlDriver(path);
  d.transaction(() => {
    d.query('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
    for (let i = 0; i < 10; i++) d.query('INSERT INTO t (v) VALUES (?)', [`row ${i}`]);
  });
  d.close();
  return path;
}

/** Starts the child in `mode` and resolves once it printed "held"; `again` resolves with the epoch ms it printed when it took the lock again. */
async function holder(path: string, mode: string): Promise<{ child: ChildProcess; again: Promise<number> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, path, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr?.on('data', (b: Buffer) => (err += b.toString('utf8')));
  const again = new Promise<number>((done, fail) => {
    child.stdout?.on('data', (b: Buffer) => {
      out += b.toString('utf8');
      const m = /again (\d+)/.exec(out);
      if (m !== null) done(Number(m[1]));
    });
    child.once('close', () => fail(new Error(`the holder ended without taking the lock again: ${out} ${err}`)));
  });
  again.catch(() => undefined);
  await new Promise<void>((done, fail) => {
    child.stdout?.on('data', () => out.includes('held') && done());
    child.once('close', () => fail(new Error(`the holder ended: ${out} ${err}`)));
  });
  return { child, again };
}

const spin = (ms: number): void => {
  for (const until = Date.now() + ms; Date.now() < until; ) {
    // hold the lock through a synchronous turn
  }
};

describe("SQLite's lock (node-sqlite3-wasm's lock directory)", () => {
  it('goes to the waiter before the holder that gave it back takes it again', async () => {
    const path = database('sqlite');
    const { child, again } = await holder(path, 'again');
    try {
      const d = openNodeSqlDriver(path);
      await d.ready('read'); // waits while the child holds the lock through its 600 ms turn
      const mine = Date.now();
      expect(d.query('SELECT count(*) AS n FROM t')).toEqual([{ n: 10 }]);
      spin(100);
      await new Promise<void>((done) => setImmediate(done));
      d.close();
      // Before: the child took the lock again one event-loop turn after giving it back, and this
      // process (looking every ≤ 10 ms) got it only after the child's second hold.
      expect(mine).toBeLessThan(await again);
      expect(existsSync(`${path}.waiting`)).toBe(false); // every marker went with its waiter
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);

  it("passes over a dead waiter's marker (removed) and a live one's that stopped looking (kept)", async () => {
    const path = database('markers');
    const queue = `${path}.waiting`;
    mkdirSync(queue);
    const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid as number; // a pid that is gone
    const tag = ((): string => {
      let h = 0x811c9dc5;
      for (const ch of hostname()) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
      return h.toString(16).padStart(8, '0');
    })();
    const deadMarker = join(queue, `${Date.now() - 1000}-${dead}-${tag}-dead`);
    const staleMarker = join(queue, `${Date.now() - 900}-${process.pid}-${tag}-stale`);
    writeFileSync(deadMarker, '');
    writeFileSync(staleMarker, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(staleMarker, old, old); // not looked at for 10 s
    const d = openNodeSqlDriver(path);
    const start = performance.now();
    await d.ready('read');
    expect(d.query('SELECT count(*) AS n FROM t')).toEqual([{ n: 10 }]);
    expect(performance.now() - start).toBeLessThan(1_000);
    d.close();
    expect(readdirSync(queue)).toEqual([staleMarker.slice(queue.length + 1)]);
  });
});

describe("the store's writer lock (<dir>/lock)", () => {
  it('goes to the waiting writer before the holder that gave it back takes it again', async () => {
    const path = database('store');
    const dir = join(root, 'store');
    const { child, again } = await holder(path, 'store-again');
    try {
      await takeStoreLockWaiting(dir, join(dir, 'lock'), 15_000); // waits while the child holds it (600 ms)
      const mine = Date.now();
      await new Promise<void>((done) => setTimeout(done, 100));
      await releaseStoreLock(dir, join(dir, 'lock'));
      // Before: the child took it again at once, and this process (looking every ≤ 250 ms) got it
      // only after the child's second hold.
      expect(mine).toBeLessThan(await again);
      expect(existsSync(join(dir, 'lock.waiting'))).toBe(false);
    } finally {
      child.kill('SIGKILL');
    }
  }, 30_000);
});
