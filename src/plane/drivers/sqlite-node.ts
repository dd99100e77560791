/**
 * The {@link SqlDriver} over node-sqlite3-wasm (SQLite compiled to WebAssembly with file I/O):
 * one database file, prepared statements cached per SQL text, `PRAGMA secure_delete = ON` (a
 * deleted row's bytes are overwritten with zeros) and the rollback journal in `DELETE` mode (the
 * journal file, which holds the pages a transaction changed, is removed at every commit), so a
 * deleted memory's text is in no file of the store once its commit returns. Node only.
 *
 * node-sqlite3-wasm locks the database with a directory `<file>.lock` that any statement holds
 * while it runs. Nothing here waits for it synchronously (no `Atomics.wait`: the event loop never
 * freezes): {@link NodeSqlDriver.ready} waits asynchronously (`setTimeout` back-off, up to
 * {@link BUSY_WAIT_MS}) and then holds the lock for the current turn of the event loop (a
 * *lease*, below), so the synchronous statements that follow in that turn find it theirs. A
 * synchronous statement that finds the lock taken fails at once with SQLite's busy error.
 *
 * Every connection registers itself in `<file>.holders/` (one file `{pid, host, since}` per open
 * driver, removed at close). A lock directory is taken over only when its holder is gone: every
 * registered process other than this one is on this host and dead (`kill(pid, 0)` fails with
 * ESRCH), never because of its age; a dead writer's rollback journal is then played back
 * (`sqlite-hot-journal.ts`) before anything reads the file.
 *
 * Taking and dropping that lock costs a directory create and remove (~1 ms together, more on a
 * loaded machine: 0.1-0.2 s per 1,000 writes of a bulk import), so statements share a *lease*:
 * the first read opens a read transaction, and the reads and writes that follow for up to
 * {@link LEASE_HOLD_MS} run inside it, across turns of the event loop (a recall's index lookups
 * between its System-One calls, a bulk chunk's candidate lookups and its commit, issue 25). It
 * ends at a timer {@link LEASE_HOLD_MS} after it opened (the hold is bounded: the first turn that
 * begins after that ends it), at a `ready` that comes later than that (which lets one turn pass
 * before opening the next), at a write's COMMIT (the write runs inside it: the lock directory
 * excludes every other connection), at `close`, and at process exit. So another process waits
 * at most {@link LEASE_HOLD_MS} plus one synchronous turn for the lock (its {@link NodeSqlDriver.ready}
 * waits up to {@link BUSY_WAIT_MS}), and a read never sees a commit of its own connection late.
 *
 * A write that fails with SQLite's I/O error while the device has less than
 * {@link FULL_DISK_BYTES} free is reported as `SQLITE_FULL` (node-sqlite3-wasm turns ENOSPC
 * into a plain I/O error), so the store maps it to `QUOTA_EXCEEDED`.
 *
 * Strings are bound as C strings: node-sqlite3-wasm passes a string parameter to SQLite only up
 * to its first U+0000, and reads text back the same way. So the SQL store checks what it looks
 * up by name (a namespace name read back must equal the one asked for) and refuses a NUL in the
 * ids and keys it binds: the SQL record driver binds names, ids and keys as UTF-8 BLOBs (record-sql-codec.ts), and a node's text and speaker travel inside its value's JSON, where a
 * NUL is written as `\u0000` (only the FTS5 index sees a text up to its first NUL).
 *
 * @module
 */
import { existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import type { SqlConnection, SqlParam, SqlRow } from './record-sql.js';
import { registerHolder, takeOverDeadHolder, unregisterHolder } from './sqlite-lock-holders.js';

const { Database } = sqlite;
type Database = InstanceType<typeof Database>;
type Statement = ReturnType<Database['prepare']>;

/** SQLite page cache of one store connection (KiB): 32 MiB. */
export const PAGE_CACHE_KIB = 32_768;

/** How long {@link NodeSqlDriver.ready} waits for another process's lock before failing (ms). */
export const BUSY_WAIT_MS = 15_000;

/** Longest pause between two looks at a lock held by another process (ms). */
export const BUSY_BACKOFF_MAX_MS = 10;

/**
 * Longest a lease holds the database lock (ms; the bound other processes wait for, module note):
 * a timer ends it this long after it opened, and a `ready` that comes later than this ends it,
 * lets one turn of the event loop pass and opens a new one, so a long chain of reads (a
 * rebuild's scan, a bulk chunk) lets other processes in between. 100 ms: a bulk chunk of 64
 * writes takes about 4 leases instead of one per 25 ms (issue 25), while a reader of another
 * process waits a tenth of a second at most per lease.
 */
export const LEASE_HOLD_MS = 100;

/** Options of {@link openNodeSqlDriver}. */
export interface NodeSqlDriverOptions {
  /** How long a lease holds the lock (ms, > 0; tests use a short or long one). @default LEASE_HOLD_MS */
  leaseMs?: number;
}

/** Free bytes on the device under which a failed write is taken for a full disk. */
export const FULL_DISK_BYTES = 1 << 20;

/**
 * The lease enders of the open drivers, with their database file: run at process exit (one
 * listener for them all), and by a connection of this process that finds the lock taken (the
 * holder may be another connection of this thread, which cannot end its lease while this one
 * waits).
 */
const openLeases = new Map<() => boolean, string>();
const onExit = (): void => {
  for (const end of openLeases.keys()) end();
};
const forget = (end: () => boolean): void => {
  openLeases.delete(end);
  if (openLeases.size === 0) process.off('exit', onExit);
};

/** A {@link SqlDriver} that owns its database handle. */
export interface NodeSqlDriver extends SqlConnection {
  /** Runs the statements of `fn` (reads only) under one read lock, so that they see one state and lock once. */
  read<T>(fn: () => T): T;
  /**
   * Waits (asynchronously) until this connection holds the database lock, and holds it for the
   * rest of this turn of the event loop: `'read'` opens a read lease, `'write'` a write
   * transaction that the next {@link SqlDriver.transaction} of the turn runs in. A lock whose
   * holder is gone (module note) is taken over on the way.
   * @throws Error (`database is locked`) when another live process holds the lock for longer
   *   than {@link BUSY_WAIT_MS}.
   */
  ready(mode: 'read' | 'write'): Promise<void>;
  /** Finalizes the statements and closes the database. Idempotent. */
  close(): void;
}

const isBusy = (e: unknown): boolean => e instanceof Error && /database is locked|SQLITE_BUSY/i.test(e.message);

/**
 * SQLite's error for a failed write when the device of `path` is (nearly) full, else `e`.
 * node-sqlite3-wasm reports ENOSPC as `disk I/O error`.
 */
export function fullDiskError(e: unknown, freeBytes: () => number): unknown {
  if (!(e instanceof Error) || !/disk I\/O error|SQLITE_IOERR/i.test(e.message)) return e;
  let free: number;
  try {
    free = freeBytes();
  } catch {
    return e;
  }
  if (free >= FULL_DISK_BYTES) return e;
  const full = new Error(`database or disk is full (SQLITE_FULL: ${e.message} with ${free} bytes free on the device)`, { cause: e });
  return full;
}

/**
 * Opens (or creates) the database file at `path`.
 * @throws Error (node-sqlite3-wasm's `SQLite3Error`) when the file cannot be opened, or when the
 *   build does not support `secure_delete` (the caller maps it to `STORAGE_FAILED`).
 */
export function openNodeSqlDriver(path: string, options: NodeSqlDriverOptions = {}): NodeSqlDriver {
  const leaseMs = options.leaseMs ?? LEASE_HOLD_MS;
  if (!(leaseMs > 0)) throw new RangeError(`option leaseMs: expected a positive number of milliseconds, got ${leaseMs}`);
  const file = resolve(path);
  // Register before the first statement, so that a lock of ours is never taken for a dead one.
  const registration = registerHolder(file);
  const freeBytes = (): number => {
    const st = statfsSync(dirname(file));
    return Number(st.bavail) * Number(st.bsize);
  };
  let db: Database;
  try {
    db = new Database(path);
  } catch (e) {
    unregisterHolder(registration);
    throw e;
  }
  const statements = new Map<string, Statement>();
  let inTransaction = false;
  /** When the open lease began (`performance.now()`), or undefined when none is open. */
  let leaseSince: number | undefined;
  /** The timer that ends the open lease ({@link LEASE_HOLD_MS}). */
  let leaseTimer: ReturnType<typeof setTimeout> | undefined;
  /** Ends the open lease, if any (COMMIT releases the lock); true when one was open. */
  const endLease = (): boolean => {
    if (leaseTimer !== undefined) {
      clearTimeout(leaseTimer);
      leaseTimer = undefined;
    }
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
  if (openLeases.size === 1) process.once('exit', onExit);

  /** Ends the leases of this process's other connections to the file; true when one was open. */
  const endOtherLeases = (): boolean => {
    let ended = false;
    for (const [end, of] of openLeases) {
      if (of === file && end !== endLease && end()) ended = true;
    }
    return ended;
  };
  /**
   * SQLite's busy error for an FTS5 statement prepared while another connection holds the lock:
   * FTS5 reads its configuration when the statement is prepared, and reports the busy read as
   * `vtable constructor failed: <table>` (the `STORAGE_FAILED … vtable constructor failed` of
   * CLI reads during an ingest). Any other error is returned as it is.
   */
  const lockedVtable = (e: unknown): unknown =>
    e instanceof Error && !inTransaction && /vtable constructor failed/i.test(e.message) && existsSync(`${file}.lock`)
      ? new Error(`database is locked (${e.message}, while another connection held the lock)`, { cause: e })
      : e;
  /**
   * Runs `fn` once more when its lock was held by a lease of this process's other connection or
   * by a process that is gone; otherwise fails with the busy error at once (never inside a
   * transaction: the lock is ours there). Never waits.
   */
  const freeing = <T>(fn: () => T): T => {
    for (let attempt = 0; ; attempt++) {
      try {
        return fn();
      } catch (caught) {
        const e = lockedVtable(caught);
        if (!isBusy(e) || inTransaction || attempt >= 3) throw e;
        if (!endOtherLeases() && !takeOverDeadHolder(file, registration !== undefined)) throw e;
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
  const reported = (e: unknown): unknown => fullDiskError(e, freeBytes);
  const query = (sql: string, params: readonly SqlParam[] = []): SqlRow[] => {
    try {
      return freeing(() => run(sql, params));
    } catch (e) {
      throw reported(e);
    }
  };

  /**
   * Whether the connection is configured: `journal_mode = DELETE`, `secure_delete = ON`,
   * `foreign_keys = OFF` and the page cache. Any statement's first preparation reads the schema,
   * so it needs the lock: when another process holds it at open, this runs at the first lease.
   */
  let configured = false;
  const configure = (): void => {
    if (configured) return;
    db.exec('PRAGMA journal_mode = DELETE');
    const secure = db.get('PRAGMA secure_delete = ON') as { secure_delete?: unknown } | null;
    if (secure?.secure_delete !== 1) throw new Error(`this SQLite build does not support PRAGMA secure_delete (answered ${JSON.stringify(secure)})`);
    db.exec('PRAGMA foreign_keys = OFF');
    // A page cache that holds the hot part of a large store (the read path's point lookups);
    // SQLite's default is 2 MiB. In KiB when negative.
    db.exec(`PRAGMA cache_size = -${PAGE_CACHE_KIB}`);
    configured = true;
  };
  try {
    freeing(configure);
  } catch (e) {
    if (!isBusy(e)) {
      close();
      throw e;
    }
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
      throw reported(e);
    } finally {
      inTransaction = false;
    }
  };
  /** Opens a lease (the lock taken now, or SQLite's busy error). */
  const openLease = (mode: 'read' | 'write'): void => {
    freeing(() => {
      configure();
      if (mode === 'write') db.exec('BEGIN IMMEDIATE');
      else {
        db.exec('BEGIN');
        try {
          db.exec('PRAGMA schema_version'); // reads page 1: takes the lock
        } catch (e) {
          try {
            db.exec('ROLLBACK');
          } catch {
            // nothing was begun on disk
          }
          throw e;
        }
      }
    });
    leaseSince = performance.now();
    inTransaction = true;
    // Bounded (module note); unref'd: an open lease never keeps the process alive (exit ends it).
    leaseTimer = setTimeout(endLease, leaseMs);
    leaseTimer.unref?.();
  };

  function close(): void {
    if (!db.isOpen) return;
    endLease();
    forget(endLease);
    for (const s of statements.values()) if (!s.isFinalized) s.finalize();
    statements.clear();
    db.close();
    unregisterHolder(registration);
  }

  return {
    query,
    transaction<T>(fn: () => T): T {
      if (inTransaction && leaseSince === undefined) return fn();
      if (leaseSince !== undefined) {
        // A lease holds the lock directory, which excludes every other connection: the
        // transaction runs inside it, and its COMMIT ends the lease.
        leaseSince = undefined;
        if (leaseTimer !== undefined) clearTimeout(leaseTimer);
        leaseTimer = undefined;
        return within(() => undefined, fn);
      }
      // The lock is taken now or not at all (ready('write') waits for it); the work itself is
      // not retried (it may not be repeatable).
      return within(
        () =>
          freeing(() => {
            configure();
            db.exec('BEGIN IMMEDIATE');
          }),
        fn,
      );
    },
    read<T>(fn: () => T): T {
      // An open lease is used whatever its age: ending it inside a turn would let another process
      // take the lock, and the synchronous reads that follow cannot wait for it. ready() renews it.
      if (leaseSince !== undefined || inTransaction) {
        try {
          return fn();
        } catch (e) {
          if (leaseSince !== undefined) endLease();
          throw e;
        }
      }
      // A read is repeatable: when the lock was held by a lease of this process or by a dead
      // process, the whole read runs again. The lease stays open after it (module note).
      openLease('read');
      try {
        return fn();
      } catch (e) {
        endLease();
        throw e;
      }
    },
    async ready(mode: 'read' | 'write'): Promise<void> {
      if (!db.isOpen) return;
      if (leaseSince !== undefined) {
        // A fresh lease serves a write too: the lock directory is this connection's, so nothing
        // was committed since the lease's reads, and the next transaction runs inside it.
        if (performance.now() - leaseSince <= leaseMs) return;
        endLease();
        // A long chain of reads lets other processes in between (one turn of the event loop).
        await new Promise<void>((done) => setImmediate(done));
        if (!db.isOpen) return;
      }
      if (inTransaction) return; // inside a write transaction of this connection
      const start = performance.now();
      for (let wait = 1; ; wait = Math.min(wait * 2, BUSY_BACKOFF_MAX_MS)) {
        try {
          openLease(mode);
          return;
        } catch (e) {
          if (!isBusy(e)) throw reported(e);
          const waited = performance.now() - start;
          if (waited > BUSY_WAIT_MS) {
            throw new Error(`database is locked: another process held the lock of ${file} for ${Math.round(waited)} ms`, { cause: e });
          }
        }
        await new Promise<void>((done) => setTimeout(done, wait));
        if (!db.isOpen) return;
      }
    },
    close,
  };
}
