/**
 * The directory of a Node store (`sqlite-file-storage.ts`): what a path holds, making it, and
 * the errors of a path that cannot be a store, each naming the path and the reason in words.
 *
 * The directory is made one level at a time from its deepest existing ancestor, not with
 * `mkdir(dir, { recursive: true })`: Node's recursive mkdir retries forever when `mkdir` answers
 * `ENOENT` under a parent that exists, which is what a virtual file system such as `/proc`
 * answers (`--store /proc/x` hung instead of failing).
 *
 * @module
 */
import { mkdir, readdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { JevMemError } from '../../errors.js';
import { errorText } from '../../util/logger.js';

function errnoCode(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : undefined;
}

/** The reason of a failed file call on a store path, in words (`undefined` for a code not listed). */
function reasonOf(code: string | undefined): string | undefined {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory';
    case 'ENOENT':
      return 'its parent cannot hold directories: a virtual file system such as /proc';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    case 'ELOOP':
      return 'too many symbolic links';
    case 'EEXIST':
      return 'a file of that name is in the way';
    default:
      return undefined;
  }
}

/**
 * The error of a store path that cannot be opened or made.
 * @param dir - the store directory (absolute).
 * @param doing - `open` or `create`.
 * @returns JevMemError `STORAGE_FAILED` (field `store`; `details.path` the directory,
 *   `details.errno` the code), its message naming the path and the reason.
 */
export function storePathError(dir: string, doing: 'open' | 'create', e: unknown): JevMemError {
  const code = errnoCode(e);
  const reason = reasonOf(code);
  const why = code === undefined ? '' : ` (${code}${reason === undefined ? '' : `: ${reason}`})`;
  return new JevMemError('STORAGE_FAILED', `could not ${doing} the store directory ${dir}${why}: ${errorText(e)}; choose a directory this process may write`, {
    cause: e,
    field: 'store',
    path: dir,
    ...(code === undefined ? {} : { errno: code }),
  });
}

/** What a store path holds: nothing yet, an empty directory, a SQLite store, a v1 store, a file, or a directory of other things. */
export type StoreDirKind = 'missing' | 'empty' | 'sqlite' | 'v1' | 'file' | 'other';

/**
 * What `dir` holds.
 * @param databaseName - the database file's name (`jev-mem.sqlite`).
 * @throws JevMemError `STORAGE_FAILED` ({@link storePathError}) when it cannot be read, or a part
 *   of the path is a file (`/etc/passwd/sub`: ENOTDIR).
 */
export async function inspectStoreDir(dir: string, databaseName: string): Promise<StoreDirKind> {
  let entries: string[];
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) return 'file';
    entries = await readdir(dir);
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') return 'missing';
    throw storePathError(dir, 'open', e);
  }
  if (entries.includes('format.json')) return 'v1';
  if (entries.includes(databaseName)) return 'sqlite';
  // `legacy-v1-<time>/`: a v1 store moved aside by an earlier build (kept: it is the user's to remove).
  const ours = (name: string): boolean => name === 'lock' || name.startsWith('lock.') || name.startsWith(databaseName) || name.startsWith('legacy-v1-');
  return entries.every(ours) ? 'empty' : 'other';
}

/**
 * Makes the directory `dir` (absolute) and its missing parents, one level at a time (module
 * note), failing at the first level that cannot be made.
 * @throws JevMemError `STORAGE_FAILED` ({@link storePathError}, naming `dir`) when a level cannot
 *   be made (EACCES, EPERM, EROFS, ENOTDIR, ENOENT under /proc, …).
 */
export async function makeStoreDir(dir: string): Promise<void> {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    try {
      const info = await stat(at);
      if (!info.isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${dir}' (${at} is a file)`), { code: 'ENOTDIR' });
      break;
    } catch (e) {
      if (errnoCode(e) !== 'ENOENT') throw storePathError(dir, 'create', e);
    }
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const level of missing) {
    try {
      await mkdir(level);
    } catch (e) {
      if (errnoCode(e) === 'EEXIST' && (await stat(level).then((s) => s.isDirectory(), () => false))) continue; // made meanwhile
      throw storePathError(dir, 'create', e);
    }
  }
}
