/**
 * The short lock of the damage file beside a Node store (`damage-file.ts`, issue 22: two processes
 * recording damage at once lost an entry, each writing back what it had read before the other's
 * write). Whoever changes the file (a read that found damage, `jev-mem check`, `repair`, an
 * erasure) reads, merges and writes it under this lock: `<dir>/jev-mem.sqlite.damage.lock`,
 * holding `{pid, host, since}`, written aside and hard-linked into place (never seen half
 * written). It is held only for the synchronous read-merge-write (well under a millisecond on
 * an idle disk), so a process that finds it taken waits on timers (the event loop never freezes)
 * and looks again; a lock whose holder is a process of this host that is gone
 * (`processAlive`) is taken over at once, never one because of its age. Node only.
 *
 * @module
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { processAlive } from '../drivers/sqlite-lock-holders.js';

/** The lock's file name in the store directory. */
export const DAMAGE_LOCK_NAME = 'jev-mem.sqlite.damage.lock';

/** Longest wait (ms) for another live process to give the lock back; then the change is given up (it is never an error of the caller's read). */
export const DAMAGE_LOCK_WAIT_MS = 5_000;

/** Longest pause (ms) between two looks at a taken lock. */
const DAMAGE_LOCK_POLL_MAX_MS = 20;

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}

/** Whether the lock file at `path` was left by a process of this host that is gone (its holder can never give it back). */
function heldByTheDead(path: string): boolean {
  let holder: { pid?: unknown; host?: unknown; since?: unknown };
  try {
    holder = JSON.parse(readFileSync(path, 'utf8')) as typeof holder;
  } catch (e) {
    return errnoCode(e) === 'ENOENT'; // given back meanwhile: look again
  }
  if (typeof holder.pid !== 'number' || holder.host !== hostname()) return false;
  return !processAlive(holder.pid, typeof holder.since === 'string' ? holder.since : undefined);
}

/**
 * Runs `fn` under the lock of `dir` when the lock can be taken now, synchronously; `undefined`
 * (and `fn` not run) while another live process holds it. A dead holder's lock is taken over.
 * @throws what `fn` throws (the lock is given back first); the file system's error when the
 *   lock cannot be written for another reason than its being taken (a full disk, no permission).
 */
export function tryWithDamageLock<T>(dir: string, fn: () => T): { value: T } | undefined {
  const path = join(dir, DAMAGE_LOCK_NAME);
  const temp = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  writeFileSync(temp, JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() }), { flag: 'wx' });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(temp, path);
        break;
      } catch (e) {
        if (errnoCode(e) !== 'EEXIST' || attempt > 0 || !heldByTheDead(path)) {
          if (errnoCode(e) === 'EEXIST') return undefined;
          throw e;
        }
        removeQuietly(path); // its holder is gone
      }
    }
  } finally {
    removeQuietly(temp);
  }
  try {
    return { value: fn() };
  } finally {
    removeQuietly(path);
  }
}

/**
 * {@link tryWithDamageLock}, waiting on timers (1, 2, 4 … up to 20 ms between looks) up to
 * `waitMs` while another live process holds the lock.
 * @returns `{ value }` of `fn`, or `undefined` when the lock was still held after `waitMs`.
 * @throws as {@link tryWithDamageLock}.
 */
export async function withDamageLock<T>(dir: string, fn: () => T, waitMs = DAMAGE_LOCK_WAIT_MS): Promise<{ value: T } | undefined> {
  const start = Date.now();
  for (let pause = 1; ; pause = Math.min(pause * 2, DAMAGE_LOCK_POLL_MAX_MS)) {
    const done = tryWithDamageLock(dir, fn);
    if (done !== undefined || Date.now() - start + pause > waitMs) return done;
    await new Promise<void>((resolve) => setTimeout(resolve, pause));
  }
}
