/**
 * The wait of a node-sqlite3-wasm connection for the lock directory `<file>.lock` that another
 * process holds (`sqlite-node.ts`): on timers, so the event loop keeps running, and bounded; a
 * wait that runs out names the processes registered as connected to the file
 * (`sqlite-lock-holders.ts`), one of which holds the lock (issue 22, fresh-clone review: a CLI
 * ingest beside a busy MCP server failed STORAGE_FAILED without saying who held the store).
 *
 * @module
 */
import { readdirSync, readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { LockQueue, someoneWaits } from './lock-queue.js';

/** Who may hold the lock of `file`, for an error: `another process (process 1234 on host (connected since …))`, the other processes registered as connected to it. */
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

/** How long `NodeSqlDriver.ready` (sqlite-node.ts) waits for another process's lock before failing (ms). */
export const BUSY_WAIT_MS = 15_000;

/** Longest pause between two looks at a lock held by another process (ms). */
export const BUSY_BACKOFF_MAX_MS = 10;

/** The queue folder of the lock of `file` (lock-queue.ts). */
const queueOf = (file: string): string => `${file}.waiting`;

/** Whether a live connection (of any process) is queued for the lock of `file`: its holder may give it back early. */
export const someoneWaitsFor = (file: string): boolean => someoneWaits(queueOf(file));

/**
 * Calls `take` until it takes the lock of `file` (`undefined`) rather than finding it busy (the
 * busy error), pausing 1, 2, 4 … up to `maxPauseMs` ms between looks on timers (the event loop
 * keeps running). Waits in turn (lock-queue.ts): a look that finds the lock busy, or finds
 * another connection queued before this one, queues this one (`<file>.waiting/`), and `take` is
 * called only while no live waiter is queued before it; its marker goes once it took the lock or
 * gave up. Returns early once `isOpen` says the connection was closed.
 * @throws Error (`database is locked: another process (process 1234 on host …) held the lock of
 *   <file> for <n> ms`) once it waited more than `limitMs`; what `take` throws.
 */
export async function waitForLock(file: string, take: () => unknown, isOpen: () => boolean, limitMs: number, maxPauseMs: number): Promise<void> {
  const start = performance.now();
  const queue = new LockQueue(queueOf(file));
  try {
    for (let wait = 1; ; wait = Math.min(wait * 2, maxPauseMs)) {
      const busy = queue.ahead() ? new Error('database is locked (another connection waits for it first)') : take();
      if (busy === undefined) return;
      queue.join();
      const waited = performance.now() - start;
      if (waited > limitMs) throw new Error(`database is locked: ${lockHoldersText(file)} held the lock of ${file} for ${Math.round(waited)} ms`, { cause: busy });
      await new Promise<void>((done) => setTimeout(done, wait));
      if (!isOpen()) return;
    }
  } finally {
    queue.leave();
  }
}
