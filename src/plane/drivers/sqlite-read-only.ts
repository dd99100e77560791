/**
 * A Node store this process may read but not write (a directory or database file without write
 * permission for this user, `chmod -R a-w`, a read-only mount): reads work, writes are refused at
 * once with `STORAGE_FAILED` (`details.readOnly: true`).
 *
 * node-sqlite3-wasm locks a database with a directory `<file>.lock` created beside it, even to
 * read, which a read-only directory refuses (SQLite's `disk I/O error`); and it opens files
 * read-write unless asked. So a read-only store is opened read-only through a link to its file
 * in a private directory of the temp folder ({@link privateReadLink}): the lock directory is made
 * there. Its readers therefore do not exclude a writer of another user that may write the store
 * (the owner of a store shared read-only): a read then may see a commit half-done, as a read of a
 * copy taken during that commit would. Nothing of the store is copied: the link only names it.
 *
 * @module
 */
import { accessSync, constants, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JevMemError } from '../../errors.js';

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

/** Whether this process may not write `path` (permission denied, or a read-only file system). */
function unwritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return false;
  } catch (e) {
    const code = errnoCode(e);
    return code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
  }
}

/**
 * Whether the store directory `dir` with database `file` is read-only for this process: the
 * directory cannot be written (the lock and journal files are made there), or the file exists
 * and cannot be written. A missing directory is not read-only (it may be made).
 */
export function isReadOnlyStore(dir: string, file: string): boolean {
  if (!existsSync(dir)) return false;
  return unwritable(dir) || (existsSync(file) && unwritable(file));
}

/**
 * The error of a write to a read-only store.
 * @param dir - the store directory.
 * @param what - what was refused (`write`, `create the database`, `import the v1 store`).
 * @returns JevMemError `STORAGE_FAILED` (field `store`, `details.readOnly: true`, `details.dir`).
 */
export function readOnlyStoreError(dir: string, what = 'write'): JevMemError {
  return new JevMemError(
    'STORAGE_FAILED',
    `the store at ${dir} is read-only for this process (no write permission, or a read-only file system): cannot ${what}; reads work (recall, list, history, export, stats); give this user write permission on the directory and its files to write`,
    { field: 'store', readOnly: true, dir },
  );
}

/** A link to a database file in a private directory ({@link privateReadLink}). */
export interface ReadLink {
  /** The path to open (the link). */
  path: string;
  /** Removes the link and its directory. Idempotent. */
  remove(): void;
}

/**
 * Makes a private directory in the temp folder holding a symbolic link to `file`, through which
 * the read-only database is opened (module note).
 * @throws Error when the temp folder cannot be written (the caller maps it to `STORAGE_FAILED`).
 */
export function privateReadLink(file: string): ReadLink {
  const dir = mkdtempSync(join(tmpdir(), 'jev-mem-read-'));
  const path = join(dir, 'jev-mem.sqlite');
  try {
    symlinkSync(file, path);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  let removed = false;
  return {
    path,
    remove() {
      if (removed) return;
      removed = true;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
