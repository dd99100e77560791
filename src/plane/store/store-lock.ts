/**
 * The single-writer lock of a Node store directory (`<dir>/lock`), held by the SQLite store
 * (`sqlite-file-storage.ts`), also while it imports a v1 file store. One process writes
 * a store at a time; readers need no lock. The lock file holds `{pid, host, since}`, written
 * aside and hard-linked into place (never seen half-written); a lock of a process that is gone
 * (same host, `kill(pid, 0)` fails with ESRCH) is taken over, never one because of its age.
 * The lock file also names the store folder it was taken in (`folder`, its device and inode:
 * `folderIdentity`): a lock file copied with the folder (`cp -r` while a process writes) names
 * another folder, holds nothing in the copy, and is taken over at once (issue 22, h-break5).
 *
 * @module
 */
import { link, open, readFile, readdir, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { hostname } from 'node:os';
import { JevMemError, WRITER_ELSEWHERE } from '../../errors.js';
import { folderIdentity, processAlive } from '../drivers/sqlite-lock-holders.js';
import { LockQueue, someoneWaits } from '../drivers/lock-queue.js';

/**
 * Kept for the legacy v1 store's re-export; no longer used: a lock file is written whole before
 * it appears (written aside, then hard-linked into place), so an unreadable one is never "being
 * written" and is never taken over because of its age.
 */
export const LOCK_SETTLE_MS = 10_000;

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

/**
 * The process holding the lock at `path`, or `undefined` when the lock is stale: its holder is a
 * process of this host that is gone (`kill(pid, 0)` fails with ESRCH), or it was taken in another
 * folder (a copy of the store folder: its `folder` differs from this folder's identity). A holder on another host
 * cannot be checked and counts as alive; so does an unreadable lock file (whatever its age: it
 * is never taken over, and the error names the file to delete).
 */
export async function lockHolder(path: string): Promise<{ pid: number; host: string } | undefined> {
  let holder: { pid?: unknown; host?: unknown; folder?: unknown };
  try {
    holder = JSON.parse((await readFile(path)).toString('utf8')) as { pid?: unknown; host?: unknown; folder?: unknown };
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return undefined; // released meanwhile
    return { pid: -1, host: 'unknown (the lock file cannot be read)' };
  }
  if (typeof holder.pid !== 'number' || typeof holder.host !== 'string') return { pid: -1, host: 'unknown (the lock file names no process)' };
  if (typeof holder.folder === 'string') {
    const here = folderIdentity(path);
    if (here !== undefined && here !== holder.folder) return undefined; // copied with the folder
  }
  if (holder.host !== hostname()) return { pid: holder.pid, host: holder.host }; // cannot check: assume alive
  try {
    process.kill(holder.pid, 0);
    return { pid: holder.pid, host: holder.host };
  } catch (e) {
    return errnoCode(e) === 'EPERM' ? { pid: holder.pid, host: holder.host } : undefined;
  }
}

/** Places `path` holding `content` only if it does not exist (EEXIST otherwise), never half-written. The file written aside is removed whatever fails (a full disk refuses its write: issue 22). */
async function createWhole(path: string, content: string): Promise<void> {
  const temp = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const handle = await open(temp, 'wx');
  try {
    try {
      await handle.writeFile(content);
      await handle.datasync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, path);
    } catch (e) {
      const code = errnoCode(e);
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw e;
      // A file system without hard links: create in place (a crash between create and write
      // leaves an unreadable lock, which is refused with its path, not taken over).
      await createInPlace(path, content);
    }
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Creates `path` (EEXIST when it exists) holding `content`; removed again when its write fails. */
async function createInPlace(path: string, content: string): Promise<void> {
  const direct = await open(path, 'wx');
  try {
    await direct.writeFile(content);
    await direct.datasync();
  } catch (e) {
    await direct.close().catch(() => undefined);
    await unlink(path).catch(() => undefined);
    throw e;
  }
  await direct.close();
}

/**
 * Removes the lock files written aside (`lock.<pid>-<random>`) that a process of this host left
 * behind when it died (or, before issue 22, when a full disk refused their write): the pid in
 * the name is not alive. A live process's file is left alone (it exists only while it is placed).
 */
async function sweepAsideFiles(dir: string, lockPath: string): Promise<void> {
  const base = basename(lockPath);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = /^(\d+)-[a-z0-9]+$/.exec(name.startsWith(`${base}.`) ? name.slice(base.length + 1) : '');
    if (m === null || processAlive(Number(m[1]))) continue;
    await unlink(join(dir, name)).catch(() => undefined);
  }
}

/**
 * Takes the writer lock `<dir>/lock` for this process. The lock file holds `{pid, host, since, folder}`.
 * @returns whether a stale lock of a process that is gone was taken over (its writes may have
 *   been cut short: the caller may clean up after it).
 * @throws JevMemError `STORAGE_FAILED` (field `store`, `details.lock` the path) when a live
 *   process (or an unreadable lock file) holds the lock or the lock file cannot be written;
 *   `QUOTA_EXCEEDED` (same fields) when the file system answers ENOSPC or EDQUOT (a full disk:
 *   a delete, whose commit would free space, cannot even begin).
 */
export async function takeStoreLock(dir: string, lockPath: string): Promise<{ tookOver: boolean }> {
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString(), folder: folderIdentity(lockPath) });
  let tookOver = false;
  await sweepAsideFiles(dirname(lockPath), lockPath);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await createWhole(lockPath, mine);
      return { tookOver };
    } catch (e) {
      const code = errnoCode(e);
      if (code === 'ENOSPC' || code === 'EDQUOT') {
        throw new JevMemError('QUOTA_EXCEEDED', `the disk refused to create the lock file ${lockPath} for lack of space (${code}); nothing was written. Free disk space and try again`, { cause: e, field: 'store', lock: lockPath });
      }
      if (code !== 'EEXIST') throw new JevMemError('STORAGE_FAILED', `could not create the lock file ${lockPath}: ${String(e)}`, { cause: e, field: 'store', lock: lockPath });
    }
    const holder = await lockHolder(lockPath);
    if (holder !== undefined) {
      throw new JevMemError(
        'STORAGE_FAILED',
        `the store at ${dir} is being written by process ${holder.pid} on ${holder.host}; close that memory first (its lock file is ${lockPath}; a lock whose process is gone is taken over on its own)`,
        { field: 'store', lock: lockPath, [WRITER_ELSEWHERE]: { pid: holder.pid, host: holder.host } },
      );
    }
    try {
      await unlink(lockPath); // stale lock of a process that is gone
      tookOver = true;
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') throw new JevMemError('STORAGE_FAILED', `could not remove the stale lock file ${lockPath}: ${String(e)}`, { cause: e, field: 'store', lock: lockPath });
    }
  }
  throw new JevMemError('STORAGE_FAILED', `could not take the lock ${lockPath}`, { field: 'store', lock: lockPath });
}

/**
 * Removes the lock file. @throws JevMemError `STORAGE_FAILED` (field `store`) when it exists and
 * cannot be removed (it would block the next writer).
 */
export async function releaseStoreLock(dir: string, lockPath: string): Promise<void> {
  try {
    await unlink(lockPath);
  } catch (e) {
    if (errnoCode(e) !== 'ENOENT') {
      throw new JevMemError('STORAGE_FAILED', `the store at ${dir} was closed, but the lock file ${lockPath} could not be removed (${String(e)}); delete it before another process writes the store`, { field: 'store' });
    }
  }
}

/**
 * Refuses at once, without waiting, what needs the writer lock while another live process holds
 * it (a reader's checkpoint at close: derived data that writer keeps).
 * @throws JevMemError `STORAGE_FAILED` (field `store`, `details.lock`, and the holder as
 *   {@link WRITER_ELSEWHERE}) when another live process holds the lock.
 */
export async function refuseIfWrittenElsewhere(dir: string, lockPath: string): Promise<void> {
  const holder = await lockHolder(lockPath);
  if (holder === undefined || (holder.pid === process.pid && holder.host === hostname())) return;
  throw new JevMemError('STORAGE_FAILED', `the store at ${dir} is being written by process ${holder.pid} on ${holder.host}; its checkpoint is left to that writer`, { field: 'store', lock: lockPath, [WRITER_ELSEWHERE]: { pid: holder.pid, host: holder.host } });
}

/** How long a write waits for another live process to give the writer lock back (ms). */
export const WRITER_WAIT_MS = 15_000;

/** How long a process keeps the writer lock after its last write began (ms): then it gives it back. */
export const WRITER_IDLE_MS = 1_000;

/**
 * How long a process keeps the writer lock after a commit refused because another process
 * committed since it loaded (`CHANGED_ELSEWHERE`, ms): its writer reloads and plans again while
 * no one else can commit, so that commit goes through (issue 22); well under {@link WRITER_WAIT_MS},
 * so a waiter is not failed by a writer that gave up meanwhile.
 */
export const WRITER_RETRY_HOLD_MS = 5_000;

/** Longest pause between two looks at a lock another live process holds (ms). */
const WRITER_POLL_MAX_MS = 250;

/** The queue folder of the writer lock at `lockPath` (`<dir>/lock.waiting/`, drivers/lock-queue.ts). */
const queueOf = (lockPath: string): string => `${lockPath}.waiting`;

/**
 * Whether another process waits for the writer lock at `lockPath` (a live waiter is queued):
 * its holder gives it back before its next write (sqlite-file-storage.ts), so a second writer
 * beside a long ingest gets its turn instead of waiting out {@link WRITER_WAIT_MS} (issue 22).
 */
export function writersWaiting(lockPath: string): boolean {
  return someoneWaits(queueOf(lockPath));
}

/**
 * {@link takeStoreLock}, waiting (without blocking the event loop: timers, signals and other
 * calls run meanwhile) up to `waitMs` while another live process holds the lock, as a process
 * that is writing only keeps it until it has been idle for {@link WRITER_IDLE_MS} or another
 * process waits ({@link writersWaiting}). Waits in turn: a process that finds the lock held
 * queues (`<dir>/lock.waiting/`, drivers/lock-queue.ts) and takes it only once no live waiter
 * queued before it is left, so a holder that gives the lock back and wants it again comes after.
 * @throws JevMemError as {@link takeStoreLock}, the holder's error when it still holds the lock
 *   after `waitMs`.
 */
export async function takeStoreLockWaiting(dir: string, lockPath: string, waitMs: number): Promise<{ tookOver: boolean }> {
  const start = Date.now();
  const queue = new LockQueue(queueOf(lockPath));
  let pause = 10;
  try {
    for (;;) {
      if (!queue.ahead()) {
        try {
          return await takeStoreLock(dir, lockPath);
        } catch (e) {
          const held = e instanceof JevMemError && e.details[WRITER_ELSEWHERE] !== undefined;
          if (!held || Date.now() - start + pause > waitMs) throw e;
        }
      } else if (Date.now() - start + pause > waitMs) {
        return await takeStoreLock(dir, lockPath); // the last look: the lock itself decides
      }
      queue.join();
      await new Promise<void>((done) => setTimeout(done, pause));
      pause = Math.min(WRITER_POLL_MAX_MS, pause * 2);
    }
  } finally {
    queue.leave();
  }
}
