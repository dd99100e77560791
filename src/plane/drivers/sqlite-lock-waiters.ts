/**
 * Fair turns at the lock directory `<file>.lock` of a node-sqlite3-wasm database between
 * processes (issue 22, fresh-clone review: an MCP server answering recalls in a loop starved a
 * CLI `ingest` of the same store, which failed STORAGE_FAILED). A connection that finds the lock
 * taken announces itself in `<file>.waiting/` (one empty file `<pid>-<random>`, removed when it
 * gets the lock or gives up, and at process exit); a connection whose lease has run its
 * longest hold (`LEASE_HOLD_MS`, sqlite-node.ts) then leaves the lock free for {@link YIELD_MS} (a timer: its
 * event loop keeps running) instead of one turn of its event loop, which a waiter looking every
 * few milliseconds almost never hits; so does a connection about to take the lock afresh. An announcement of a dead process counts for nothing and
 * is removed by the next connection that looks. And a wait that runs out names the processes
 * registered as connected to the file (`sqlite-lock-holders.ts`), one of which holds the lock.
 *
 * @module
 */
import { mkdirSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from './sqlite-lock-holders.js';

/** How long a connection whose lease ended leaves the lock free while another process waits (ms): twice a waiter's longest pause between looks. */
export const YIELD_MS = 25;

/** Announcements of this process (removed at exit). */
const mine = new Set<string>();
const onExit = (): void => {
  for (const f of mine) {
    try {
      unlinkSync(f);
    } catch {
      // gone
    }
  }
};

/**
 * Announces that this process waits for the lock of `file`; returns what withdraws it
 * (idempotent). A folder that cannot be written (a read-only store) announces nothing.
 */
export function announceWaiter(file: string): () => void {
  const dir = `${file}.waiting`;
  const path = join(dir, `${process.pid}-${Math.random().toString(36).slice(2, 10)}`);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(path, '');
  } catch {
    return () => undefined;
  }
  if (mine.size === 0) process.once('exit', onExit);
  mine.add(path);
  return () => {
    if (!mine.delete(path)) return;
    if (mine.size === 0) process.off('exit', onExit);
    try {
      unlinkSync(path);
      rmdirSync(dir); // the last waiter removes the folder
    } catch {
      // another waiter is announced, or gone already
    }
  };
}

/** Whether another live process of this host announced that it waits for the lock of `file` (a dead one's announcement is removed). */
export function othersWaiting(file: string): boolean {
  const dir = `${file}.waiting`;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return false;
  }
  let waiting = false;
  for (const name of names) {
    const pid = Number(/^(\d+)-/.exec(name)?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    if (processAlive(pid)) waiting = true;
    else {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // removed by another process
      }
    }
  }
  return waiting;
}

/** A pause of {@link YIELD_MS} (on a timer) while another live process waits for the lock of `file`, else `undefined`: what a connection about to take the lock again awaits first. */
export function giveWay(file: string): Promise<void> | undefined {
  return othersWaiting(file) ? new Promise<void>((done) => setTimeout(done, YIELD_MS)) : undefined;
}

/** Who may hold the lock of `file`, for an error: `process 1234 on host (connected since …)`, the other processes registered as connected to it. */
export function lockHoldersText(file: string): string {
  const dir = `${file}.holders`;
  const here = hostname();
  const found: string[] = [];
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    // none registered
  }
  for (const name of names) {
    try {
      const h = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { pid?: unknown; host?: unknown; since?: unknown };
      if (typeof h.pid !== 'number' || (h.pid === process.pid && h.host === here)) continue;
      found.push(`process ${h.pid} on ${String(h.host)}${typeof h.since === 'string' ? ` (connected since ${h.since})` : ''}`);
    } catch {
      // being written or removed
    }
  }
  return found.length > 0 ? `another process (${[...new Set(found)].join(', ')})` : 'another process';
}

/**
 * Calls `take` until it takes the lock of `file` (`undefined`) rather than finding it busy (the
 * busy error), pausing 1, 2, 4 … up to `maxPauseMs` ms between looks on timers (the event loop
 * keeps running), announced as waiting meanwhile ({@link announceWaiter}). Returns early once
 * `isOpen` says the connection was closed.
 * @throws Error (`database is locked: another process (process 1234 on host …) held the lock of
 *   <file> for <n> ms`) once it waited more than `limitMs`; what `take` throws.
 */
export async function waitForLock(file: string, take: () => unknown, isOpen: () => boolean, limitMs: number, maxPauseMs: number): Promise<void> {
  const start = performance.now();
  let withdraw: (() => void) | undefined;
  try {
    for (let wait = 1; ; wait = Math.min(wait * 2, maxPauseMs)) {
      const busy = take();
      if (busy === undefined) return;
      withdraw ??= announceWaiter(file);
      const waited = performance.now() - start;
      if (waited > limitMs) throw new Error(`database is locked: ${lockHoldersText(file)} held the lock of ${file} for ${Math.round(waited)} ms`, { cause: busy });
      await new Promise<void>((done) => setTimeout(done, wait));
      if (!isOpen()) return;
    }
  } finally {
    withdraw?.();
  }
}
