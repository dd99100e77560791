/**
 * The {@link SqlDriver} over node-sqlite3-wasm (SQLite compiled to WebAssembly with file I/O):
 * one database file, prepared statements cached per SQL text, `PRAGMA secure_delete = ON` (a
 * deleted row's bytes are overwritten with zeros) and the rollback journal in `DELETE` mode (the
 * journal file, which holds the pages a transaction changed, is removed at every commit), so a
 * deleted memory's text is in no file of the store once its commit returns. Node only.
 *
 * node-sqlite3-wasm locks the database with a directory `<file>.lock` that any statement holds
 * while it runs; a statement that finds it taken retries for up to {@link BUSY_WAIT_MS}, and a
 * lock directory older than {@link STALE_SQLITE_LOCK_MS} (left by a process killed inside a
 * statement) is removed.
 *
 * Taking and dropping that lock costs a directory create and remove (~1 ms together), so reads
 * share a *read lease*: the first read opens a read transaction, and the reads that follow in
 * the same turn of the event loop (a recall's dozen index lookups, which await nothing but
 * each other) run inside it; it ends at `setImmediate`, after {@link READ_LEASE_MS}, at the
 * next write (which commits it before `BEGIN IMMEDIATE`), at `close`, and at process exit. So
 * another process waits at most about one turn for the lock, and a read never sees a commit of
 * its own connection late.
 *
 * Strings are bound as C strings: node-sqlite3-wasm passes a string parameter to SQLite only up
 * to its first U+0000, and reads text back the same way. So the SQL store checks what it looks
 * up by name (a namespace name read back must equal the one asked for) and refuses a NUL in the
 * ids and keys it binds (sql-storage.ts); a node's text and speaker travel inside JSON, where a
 * NUL is written as `\u0000` (only the FTS5 index sees a text up to its first NUL).
 *
 * @module
 */
import { rmdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import type { SqlDriver, SqlParam, SqlRow } from '../store/sql-schema.js';

const { Database } = sqlite;
type Database = InstanceType<typeof Database>;
type Statement = ReturnType<Database['prepare']>;

/** SQLite page cache of one store connection (KiB): 32 MiB. */
export const PAGE_CACHE_KIB = 32_768;

/** How long a statement waits for another connection's lock before failing (ms). */
export const BUSY_WAIT_MS = 15_000;

/** A SQLite lock directory older than this (ms) is left by a dead process and removed. */
export const STALE_SQLITE_LOCK_MS = 10_000;

/**
 * Longest a read lease is extended (ms): a read that comes later than this after the lease
 * opened ends it and opens a new one, so a long chain of reads (a rebuild's scan) lets other
 * connections in between, and no lease nears {@link STALE_SQLITE_LOCK_MS}.
 */
export const READ_LEASE_MS = 25;

/**
 * The lease enders of the open drivers, with their database file: run at process exit (one
 * listener for them all), and by a connection of this process that finds the lock taken (the
 * holder may be another connection of this thread, which cannot end its lease while this one
 * waits).
 */
const openLeases = new Map<() => boolean, string>();
const endAllLeases = (): void => {
  for (const end of openLeases.keys()) end();
};
const forget = (end: () => boolean): void => {
  openLeases.delete(end);
  if (openLeases.size === 0) process.off('exit', endAllLeases);
};

/** A {@link SqlDriver} that owns its database handle. */
export interface NodeSqlDriver extends SqlDriver {
  /** Removes the SQLite lock directory when it is there (the caller knows its holder is gone). */
  clearStaleLock(): void;
  /** Finalizes the statements and closes the database. Idempotent. */
  close(): void;
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number): void => {
  Atomics.wait(sleeper, 0, 0, ms);
};

const isBusy = (e: unknown): boolean => e instanceof Error && /database is locked|SQLITE_BUSY/i.test(e.message);

/**
 * Opens (or creates) the database file at `path`.
 * @throws Error (node-sqlite3-wasm's `SQLite3Error`) when the file cannot be opened, or when the
 *   build does not support `secure_delete` (the caller maps it to `STORAGE_FAILED`).
 */
export function openNodeSqlDriver(path: string): NodeSqlDriver {
  const lockDir = `${path}.lock`;
  const file = resolve(path);
  const db: Database = new Database(path);
  const statements = new Map<string, Statement>();
  let inTransaction = false;
  /** When the open read lease began (`performance.now()`), or undefined when none is open. */
  let leaseSince: number | undefined;
  /** Ends the open read lease, if any (COMMIT of a read transaction releases the lock); true when one was open. */
  const endLease = (): boolean => {
    if (leaseSince === undefined) return false;
    leaseSince = undefined;
    inTransaction = false;
    try {
      db.exec('COMMIT');
    } catch {
      try {
        db.exec('ROLLBACK');
      } catch {
        // nothing was begun on disk
      }
    }
    return true;
  };
  openLeases.set(endLease, file);
  if (openLeases.size === 1) process.once('exit', endAllLeases);

  const clearStaleLock = (): void => {
    try {
      rmdirSync(lockDir);
    } catch {
      // gone already
    }
  };
  /** Runs `fn`, waiting out another connection's lock (never inside a transaction: we hold the lock there). */
  const patiently = <T>(fn: () => T): T => {
    const start = Date.now();
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        return fn();
      } catch (e) {
        if (!isBusy(e) || inTransaction) throw e;
        // Leases of this process's other connections to the file end first (module note).
        let ended = false;
        for (const [end, of] of openLeases) {
          if (of === file && end !== endLease && end()) ended = true;
        }
        if (ended) continue;
        const age = (() => {
          try {
            return Date.now() - statSync(lockDir).mtimeMs;
          } catch {
            return 0;
          }
        })();
        if (age > STALE_SQLITE_LOCK_MS) clearStaleLock();
        else if (Date.now() - start > BUSY_WAIT_MS) throw e;
        sleep(wait);
      }
    }
  };
  const statement = (sql: string): Statement => {
    let s = statements.get(sql);
    if (s === undefined) {
      s = db.prepare(sql);
      statements.set(sql, s);
    }
    return s;
  };
  /**
   * Runs one cached statement. A statement whose step failed is dropped: SQLite reports that
   * failure again at its next reset, which node-sqlite3-wasm turns into "Could not reset
   * statement" (not a busy error), so a read retried after SQLITE_BUSY would fail.
   */
  const run = (sql: string, params: readonly SqlParam[]): SqlRow[] => {
    const s = statement(sql);
    try {
      return s.all(params as SqlParam[]) as SqlRow[];
    } catch (e) {
      statements.delete(sql);
      try {
        s.finalize();
      } catch {
        // finalize reports the step's failure again
      }
      throw e;
    }
  };
  const query = (sql: string, params: readonly SqlParam[] = []): SqlRow[] => patiently(() => run(sql, params));

  try {
    patiently(() => db.exec('PRAGMA journal_mode = DELETE'));
    const secure = db.get('PRAGMA secure_delete = ON') as { secure_delete?: unknown } | null;
    if (secure?.secure_delete !== 1) throw new Error(`this SQLite build does not support PRAGMA secure_delete (answered ${JSON.stringify(secure)})`);
    db.exec('PRAGMA foreign_keys = OFF');
    // A page cache that holds the hot part of a large store (the read path's point lookups);
    // SQLite's default is 2 MiB. In KiB when negative.
    db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
  } catch (e) {
    forget(endLease);
    db.close();
    throw e;
  }

  /** Runs `fn` between `begin()` and COMMIT; any failure rolls back (SQLite may have already). */
  const within = <T>(begin: () => void, fn: () => T): T => {
    begin();
    inTransaction = true;
    try {
      const out = fn();
      db.exec('COMMIT');
      return out;
    } catch (e) {
      try {
        db.exec('ROLLBACK');
      } catch {
        // nothing was begun on disk, or SQLite rolled back on its own (e.g. after SQLITE_FULL)
      }
      throw e;
    } finally {
      inTransaction = false;
    }
  };

  return {
    query,
    transaction<T>(fn: () => T): T {
      if (inTransaction && leaseSince === undefined) return fn();
      endLease();
      // The write lock is waited for; the work itself is not retried (it may not be repeatable).
      return within(() => patiently(() => db.exec('BEGIN IMMEDIATE')), fn);
    },
    read<T>(fn: () => T): T {
      if (leaseSince !== undefined && performance.now() - leaseSince > READ_LEASE_MS) endLease();
      if (leaseSince !== undefined) {
        try {
          return fn();
        } catch (e) {
          endLease();
          throw e;
        }
      }
      if (inTransaction) return fn(); // inside a write transaction
      // A read is repeatable: when another connection holds the lock, the whole read waits and
      // runs again. The lease stays open after it (module note).
      return patiently(() => {
        db.exec('BEGIN');
        leaseSince = performance.now();
        inTransaction = true;
        try {
          const out = fn();
          setImmediate(endLease);
          return out;
        } catch (e) {
          endLease();
          throw e;
        }
      });
    },
    clearStaleLock,
    close(): void {
      if (!db.isOpen) return;
      endLease();
      forget(endLease);
      for (const s of statements.values()) if (!s.isFinalized) s.finalize();
      statements.clear();
      db.close();
    },
  };
}
