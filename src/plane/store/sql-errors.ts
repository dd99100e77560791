/**
 * Error mapping of the SQL record driver (`../drivers/record-sql.ts`): how a failure SQLite reports (the Node
 * driver or a Durable Object's `ctx.storage.sql`) becomes one error of the {@link JevMemError}
 * family with a stable code, and how a damaged file is recognised. Pure functions.
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../../errors.js';

/** Whether `cause` is SQLite reporting a damaged file (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, "malformed"). */
export function isCorruptError(cause: unknown): boolean {
  const message = cause instanceof Error ? cause.message : String(cause);
  return /SQLITE_CORRUPT|SQLITE_NOTADB|malformed|file is not a database/i.test(message);
}

/**
 * `read()`, or `none` when SQLite finds a page it reads damaged (damage stays local: the caller
 * reads the record as damaged or absent instead of failing the whole read); other errors throw.
 */
export function unlessCorrupt<T>(read: () => T, none: T): T {
  try {
    return read();
  } catch (e) {
    if (!isCorruptError(e)) throw e;
    return none;
  }
}

/**
 * Maps a SQLite failure to the error family: a value over SQLite's size limit → `TOO_LARGE`, a
 * full store → `QUOTA_EXCEEDED`, a damaged file (`SQLITE_CORRUPT`, "malformed") →
 * `STORE_DAMAGED` (run `jev-mem repair`), anything else → `STORAGE_FAILED`; a JevMemError passes
 * through.
 * @param label - words naming the store (`the store at /x`).
 * @param what - the failed operation, as words after "failed to" (`commit to namespace "a"`).
 */
export function sqlError(label: string, what: string, cause: unknown): JevMemError {
  if (isJevMemError(cause)) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (isCorruptError(cause)) {
    return new JevMemError('STORE_DAMAGED', `${label} failed to ${what}: SQLite reports the file damaged (${message}); nothing was written. Run \`jev-mem check\` and \`jev-mem repair\``, { cause, ids: [] });
  }
  if (/SQLITE_TOOBIG|string or blob too big/i.test(message)) {
    return new JevMemError('TOO_LARGE', `${label} refused to ${what}: a node, edge or meta value is over the SQL value limit (2 MB on Cloudflare) (${message}); nothing was written`, { cause });
  }
  if (/SQLITE_FULL|exceeded.*storage|storage.*(limit|exceeded)|database or disk is full/i.test(message)) {
    return new JevMemError('QUOTA_EXCEEDED', `${label} refused to ${what} for lack of space (${message}); nothing was written`, { cause });
  }
  return new JevMemError('STORAGE_FAILED', `${label} failed to ${what} (${message}); nothing was written`, { cause });
}

/**
 * The error of a wait for the database lock that ran out (`sqlite-file-storage.ts`). SQLite's
 * lock is taken for every read, a write's too (a write plans over the store as it is now, then
 * commits), so a read's wait is not only a reader's: the second of two ingests into one store
 * failed "to take the database lock to read" while it was waiting to write (hostile review
 * h-break13). The message says what the lock is for, that another process kept it through the
 * whole wait with its writes, and what to do; other failures are {@link sqlError}'s.
 * @param label - words naming the store (`the store at /x`).
 * @param mode - what the wait was for: a read (also the reads before a write) or a write's commit.
 */
export function lockWaitError(label: string, mode: 'read' | 'write', cause: unknown): JevMemError {
  const what = mode === 'write' ? 'take the database lock to commit a write' : 'take the database lock to read (every command reads under it, a write also before it commits)';
  const base = sqlError(label, what, cause);
  if (base.code !== 'STORAGE_FAILED' || !/database is locked|SQLITE_BUSY/i.test(cause instanceof Error ? cause.message : String(cause))) return base;
  return new JevMemError(
    'STORAGE_FAILED',
    `${base.message}. The other process was writing and held the lock through the whole wait; run this again when its write has ended, and run two writes into one store one after the other (or into separate stores)`,
    { cause, field: 'store' },
  );
}
