/**
 * A full device under the Node SQLite driver (`sqlite-node.ts`): node-sqlite3-wasm turns ENOSPC
 * into a plain I/O error, so a failed write while the device has less than
 * {@link FULL_DISK_BYTES} free is reported as `SQLITE_FULL`, which the store maps to
 * `QUOTA_EXCEEDED`. Node only.
 *
 * @module
 */

/** Free bytes on the device under which a failed write is taken for a full disk. */
export const FULL_DISK_BYTES = 1 << 20;

/**
 * SQLite's error for a failed write when the device is (nearly) full, else `e`.
 * node-sqlite3-wasm reports ENOSPC as `disk I/O error`. An error that already says the disk is
 * full (SQLite's own `SQLITE_FULL`, or this function's, when a statement's failure is reported
 * again by the transaction around it) is returned as it is: said once, not nested (hostile
 * review h-break13: "database or disk is full (SQLITE_FULL: database or disk is full (SQLITE_FULL:
 * disk I/O error with 45056 bytes free on the device) with 45056 bytes free on the device)").
 * @param freeBytes Free bytes on the device of the database (a failure to tell leaves `e` as it is).
 */
export function fullDiskError(e: unknown, freeBytes: () => number): unknown {
  if (!(e instanceof Error) || !/disk I\/O error|SQLITE_IOERR/i.test(e.message) || /database or disk is full/i.test(e.message)) return e;
  let free: number;
  try {
    free = freeBytes();
  } catch {
    return e;
  }
  if (free >= FULL_DISK_BYTES) return e;
  return new Error(`database or disk is full (SQLITE_FULL: ${e.message} with ${free} bytes free on the device)`, { cause: e });
}
