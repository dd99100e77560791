/**
 * Load-independent counters for the profile scripts (issue 25): the file-system calls of the
 * SQLite store counted by wrapping `node:fs` (node-sqlite3-wasm calls `fs.mkdirSync` /
 * `fs.rmdirSync` on `<file>.lock` to take and drop its lock, `fs.fsyncSync` at each commit), so a
 * change in lock takes or syncs per operation shows whatever the load of the machine. Install
 * before the store is opened; bench only.
 *
 * @module
 */
import fs from 'node:fs';

/** What {@link countFsCalls} has counted so far. */
export interface FsCounts {
  /** Takes of the SQLite lock directory (`mkdirSync` of a `.lock` path that succeeded). */
  lockTakes: number;
  /** Failed takes (the directory existed: another connection held it). */
  lockBusy: number;
  /** `fsyncSync` calls (commits sync the journal and the database). */
  fsyncs: number;
  /** Bytes written by `writeSync` (pages of the database file and of its rollback journal). */
  bytesWritten: number;
}

/** Wraps `fs.mkdirSync` / `fs.fsyncSync` / `fs.writeSync` once and returns the live counts. */
export function countFsCalls(): FsCounts {
  const counts: FsCounts = { lockTakes: 0, lockBusy: 0, fsyncs: 0, bytesWritten: 0 };
  const mkdir = fs.mkdirSync;
  const fsync = fs.fsyncSync;
  const write = fs.writeSync as (...a: unknown[]) => number;
  (fs as { mkdirSync: unknown }).mkdirSync = (path: fs.PathLike, options?: fs.MakeDirectoryOptions): string | undefined => {
    const lock = String(path).endsWith('.lock');
    try {
      const out = mkdir(path, options as fs.MakeDirectoryOptions & { recursive: true });
      if (lock) counts.lockTakes++;
      return out;
    } catch (e) {
      if (lock) counts.lockBusy++;
      throw e;
    }
  };
  (fs as { fsyncSync: unknown }).fsyncSync = (fd: number): void => {
    counts.fsyncs++;
    fsync(fd);
  };
  (fs as { writeSync: unknown }).writeSync = (...a: unknown[]): number => {
    const n = write(...a);
    counts.bytesWritten += n;
    return n;
  };
  return counts;
}

/** The counts taken since `before` (a copy of an earlier {@link FsCounts}). */
export function since(now: FsCounts, before: FsCounts): FsCounts {
  return { lockTakes: now.lockTakes - before.lockTakes, lockBusy: now.lockBusy - before.lockBusy, fsyncs: now.fsyncs - before.fsyncs, bytesWritten: now.bytesWritten - before.bytesWritten };
}
