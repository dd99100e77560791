/**
 * The single-writer lock of a Node store directory (`<dir>/lock`), held by the SQLite store
 * (`sqlite-file-storage.ts`), also while it imports a v1 file store. One process writes
 * a store at a time; readers need no lock. The lock file holds `{pid, host, since}`; a lock of a
 * process that is gone (same host, `kill(pid, 0)` fails with ESRCH) is taken over.
 *
 * @module
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { JevMemError, WRITER_ELSEWHERE } from '../../errors.js';

/** An unreadable lock file younger than this (ms) belongs to a process that is still writing it. */
export const LOCK_SETTLE_MS = 10_000;

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

/** The live process holding the lock at `path`, or `undefined` when it is stale (or unreadable and older than {@link LOCK_SETTLE_MS}). */
export async function lockHolder(path: string): Promise<{ pid: number; host: string } | undefined> {
  let holder: { pid?: unknown; host?: unknown };
  try {
    holder = JSON.parse((await readFile(path)).toString('utf8')) as { pid?: unknown; host?: unknown };
  } catch {
    // Another process may have just created the lock and not yet written it (open 'wx' then
    // write): an unreadable lock younger than LOCK_SETTLE_MS is held, not stale.
    const age = await stat(path).then((st) => Date.now() - st.mtimeMs, () => Infinity);
    return age < LOCK_SETTLE_MS ? { pid: -1, host: 'unknown (lock being written)' } : undefined;
  }
  if (typeof holder.pid !== 'number' || typeof holder.host !== 'string') return undefined;
  if (holder.host !== hostname()) return { pid: holder.pid, host: holder.host }; // cannot check: assume alive
  try {
    process.kill(holder.pid, 0);
    return { pid: holder.pid, host: holder.host };
  } catch (e) {
    return errnoCode(e) === 'EPERM' ? { pid: holder.pid, host: holder.host } : undefined;
  }
}

/**
 * Takes the writer lock `<dir>/lock` for this process.
 * @returns whether a stale lock of a process that is gone was taken over (its writes may have
 *   been cut short: the caller may clean up after it).
 * @throws JevMemError `STORAGE_FAILED` (field `store`, `details.lock` the path) when a live
 *   process holds the lock or the lock file cannot be written; `QUOTA_EXCEEDED` is not
 *   distinguished here (the lock file is tiny).
 */
export async function takeStoreLock(dir: string, lockPath: string): Promise<{ tookOver: boolean }> {
  const mine = JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() });
  let tookOver = false;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(mine);
        await handle.datasync();
      } finally {
        await handle.close();
      }
      return { tookOver };
    } catch (e) {
      if (errnoCode(e) !== 'EEXIST') throw new JevMemError('STORAGE_FAILED', `could not create the lock file ${lockPath}: ${String(e)}`, { cause: e, field: 'store', lock: lockPath });
    }
    const holder = await lockHolder(lockPath);
    if (holder !== undefined) {
      throw new JevMemError(
        'STORAGE_FAILED',
        `the store at ${dir} is being written by process ${holder.pid} on ${holder.host}; close that memory first (or delete ${lockPath} if that process is gone)`,
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
