/**
 * The {@link SqlDriver} over node-sqlite3-wasm (SQLite compiled to WebAssembly with file I/O):
 * one database file, prepared statements cached per SQL text, `PRAGMA secure_delete = ON` (a
 * deleted row's bytes are overwritten with zeros) and the rollback journal in `DELETE` mode (the
 * journal file, which holds the pages a transaction changed, is removed at every commit), so a
 * deleted memory's text is in no file of the store once its commit returns. Node only.
 *
 * node-sqlite3-wasm locks the database with a directory `<file>.lock` that any statement holds
 * while it runs. Nothing here waits for it synchronously (the event loop never freezes):
 * {@link NodeSqlDriver.ready} waits asynchronously (`setTimeout` back-off, up to
 * {@link BUSY_WAIT_MS}) and then holds it as a *lease* (below), so the synchronous statements
 * that follow find it theirs; a statement that finds it taken fails at once with the busy error.
 * Every connection registers itself in `<file>.holders/` (one file `{pid, host, since}` per open
 * driver): a lock directory is taken over only when its holder is gone (every other registered
 * process on this host and dead, never because of its age), and a dead writer's rollback
 * journal is then played back (`sqlite-hot-journal.ts`) before anything reads the file.
 *
 * Taking and dropping that lock costs a directory create and remove (~1 ms, several on a loaded
 * machine), so statements share a lease: the first read opens a read transaction, and the reads
 * and writes that follow run inside it, across turns of the event loop while each turn uses the
 * connection (a bulk chunk's lookups and its commit, issue 25), for up to {@link LEASE_HOLD_MS}.
 * It ends at the first turn in which this connection ran no statement (the lock is free while
 * the process waits for a model, the network, a timer), at a turn or a `ready` more than
 * {@link LEASE_HOLD_MS} after it opened (a `ready` then lets one turn pass before the next), at a
 * write's COMMIT (the write runs inside it), at `close`, and at process exit; and when SQLite rolled
 * its transaction back on its own (after an I/O, full-disk or out-of-memory error of a statement in
 * it, which lets the lock go): `ready`, `read` and `transaction` then take the lock afresh. So another process
 * waits at most {@link LEASE_HOLD_MS} plus one synchronous turn for a gap (it looks every
 * {@link BUSY_BACKOFF_MAX_MS} at most), and a read never sees a commit of its own connection late.
 * Waiters queue (`<file>.waiting/`, sqlite-lock-waiters.ts) and take the lock in the order they
 * came, the holder's next `ready` included; while one waits, `settle(claim)` (a record transaction's
 * end, a lexical search's) ends the lease at once when every `ready` answered in it is settled, not at the end of a
 * turn the caller's own work may hold up (issue 22: a write's planning after its last read kept
 * the lock 0.5–1.3 s on a loaded machine). A wait that runs out names the connected processes.
 * A failed write on a full device is reported as `SQLITE_FULL` (`sqlite-full-disk.ts`).
 *
 * Strings are bound as C strings: node-sqlite3-wasm passes a string parameter to SQLite only up
 * to its first U+0000, and reads text back the same way. So the SQL store checks what it looks
 * up by name (a namespace name read back must equal the one asked for) and refuses a NUL in the
 * ids and keys it binds: the SQL record driver binds names, ids and keys as UTF-8 BLOBs (record-sql-codec.ts), and a node's text and speaker travel inside its value's BLOB, where a
 * NUL is kept whole (record-sql-binary.ts; only the FTS5 index sees a text up to its first NUL).
 *
 * @module
 */
import { existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';
import { invalidOption } from '../../errors.js';
import type { SqlConnection, SqlParam, SqlRow } from './record-sql.js';
import { observeErrno } from './sqlite-errno.js';
import { registerHolder, takeOverDeadHolder, unregisterHolder } from './sqlite-lock-holders.js';
import { BUSY_BACKOFF_MAX_MS, BUSY_WAIT_MS, someoneWaitsFor, waitForLock } from './sqlite-lock-waiters.js';
import { fullDiskError } from './sqlite-full-disk.js';
import { privateReadLink } from './sqlite-read-only.js';
export { FULL_DISK_BYTES, fullDiskError } from './sqlite-full-disk.js';
export { BUSY_BACKOFF_MAX_MS, BUSY_WAIT_MS } from './sqlite-lock-waiters.js';

const { Database } = sqlite;
type Database = InstanceType<typeof Database>;
type Statement = ReturnType<Database['prepare']>;

/** SQLite page cache of one store connection (KiB): 32 MiB. */
export const PAGE_CACHE_KIB = 32_768;

/**
 * Longest a lease holds the database lock (ms; module note): the first turn, or `ready`, later
 * than this after it opened ends it, so a long chain of reads (a rebuild's scan, a bulk chunk)
 * lets other processes in between. 100 ms: a bulk chunk of 64 writes takes a few leases, not one
 * per 25 ms as before (issue 25); a reader of another process waits 0.1 s at most per lease.
 */
export const LEASE_HOLD_MS = 100;

/** Options of {@link openNodeSqlDriver}: `leaseMs`, the longest hold of a lease (ms, > 0; default {@link LEASE_HOLD_MS}); `readOnly`, open the file read-only through a private link (`sqlite-read-only.ts`). */
export interface NodeSqlDriverOptions { leaseMs?: number; readOnly?: boolean }

/**
 * The lease enders of the open drivers, with their database file: run at process exit (one
 * listener for them all), and by a connection of this process that finds the lock taken (the
 * holder may be another connection of this thread, which cannot end its lease while this one
 * waits).
 */
const openLeases = new Map<() => boolean, string>();
const onExit = (): void => openLeases.forEach((_, end) => end());
const forget = (end: () => boolean): void => void (openLeases.delete(end) && openLeases.size === 0 && process.off('exit', onExit));

/** A {@link SqlDriver} that owns its database handle. */
export interface NodeSqlDriver extends SqlConnection {
  /** Runs the statements of `fn` (reads only) under one read lock, so that they see one state and lock once. */
  read<T>(fn: () => T): T;
  /**
   * Waits (asynchronously) until this connection holds the database lock, and holds it for the
   * rest of this turn of the event loop: `'read'` opens a read lease, `'write'` a write
   * transaction that the next {@link SqlDriver.transaction} of the turn runs in. A lock whose
   * holder is gone (module note) is taken over on the way.
   * @returns the claim for {@link SqlDriver.settle}: the lease's number (0: no lease, inside a transaction or closed).
   * @throws Error (`database is locked`) when another live process holds the lock for longer
   *   than {@link BUSY_WAIT_MS}.
   */
  ready(mode: 'read' | 'write'): Promise<number>;
  /**
   * Rewrites the database file (`VACUUM`): every page is written afresh, so no unused space of a
   * page keeps an older copy of a cell that SQLite moved while rebalancing the b-tree (which
   * `secure_delete` does not reach; issue 22). Ends this connection's lease and waits for the
   * lock as {@link NodeSqlDriver.ready} does; O(file size).
   * @throws Error (`database is locked`) as `ready` does; `SQLITE_FULL` without the space for the copy.
   */
  vacuum(): Promise<void>;
  /** Finalizes the statements and closes the database. Idempotent. */
  close(): void;
}

const isBusy = (e: unknown): boolean => e instanceof Error && /database is locked|SQLITE_BUSY/i.test(e.message);

/**
 * Opens (or creates) the database file at `path`.
 * @throws Error (node-sqlite3-wasm's `SQLite3Error`) when the file cannot be opened, or when the
 *   build does not support `secure_delete` (the caller maps it to `STORAGE_FAILED`); JevMemError
 *   `INVALID_OPTION` (field `leaseMs`) for a hold that is not a positive number.
 */
export function openNodeSqlDriver(path: string, options: NodeSqlDriverOptions = {}): NodeSqlDriver {
  const leaseMs = options.leaseMs ?? LEASE_HOLD_MS;
  if (!(leaseMs > 0)) throw invalidOption('leaseMs', `expected a positive number of milliseconds, got ${leaseMs}`);
  const link = options.readOnly === true ? privateReadLink(resolve(path)) : undefined;
  const file = link?.path ?? resolve(path);
  // Register before the first statement, so that a lock of ours is never taken for a dead one.
  const registration = link === undefined ? registerHolder(file) : undefined;
  const release = (): void => { unregisterHolder(registration); link?.remove(); };
  const freeBytes = (): number => { const st = statfsSync(dirname(file)); return Number(st.bavail) * Number(st.bsize); };
  let db: Database;
  try {
    db = observeErrno(link === undefined ? new Database(path) : new Database(file, { readOnly: true })); // ENOSPC → SQLITE_FULL (sqlite-errno.ts)
  } catch (e) {
    release();
    throw e;
  }
  /** Rolls back; nothing was begun on disk, or SQLite rolled back on its own (e.g. after SQLITE_FULL). */
  const rollback = (): void => { try { db.exec('ROLLBACK'); } catch { /* nothing to roll back */ } };
  const statements = new Map<string, Statement>();
  let inTransaction = false;
  /** When the open lease began (`performance.now()`), or undefined when none is open. */
  let leaseSince: number | undefined;
  /** The end-of-turn look at the open lease, and whether the connection was used since the last one ({@link armCheck}). */
  let leaseCheck: ReturnType<typeof setImmediate> | undefined;
  let used = false;
  let claims = 0; // `ready()` calls answered during the open lease and not yet settled (module note)
  let lease = 0; // the number of the open lease (or of the last one): a claim names it
  /** Ends the open lease, if any (COMMIT releases the lock); true when one was open. */
  const endLease = (): boolean => {
    if (leaseCheck !== undefined) clearImmediate(leaseCheck);
    leaseCheck = undefined;
    if (leaseSince === undefined) return false;
    leaseSince = undefined;
    claims = 0;
    inTransaction = false;
    try {
      db.exec('COMMIT');
    } catch {
      rollback();
    }
    return true;
  };
  /** Whether a lease is open and still holds its SQLite transaction (module note); a lost one is dropped. */
  const leaseHeld = (): boolean => leaseSince !== undefined && (db.inTransaction || !endLease());
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
    const s = statements.get(sql) ?? db.prepare(sql);
    statements.set(sql, s);
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
      try { s.finalize(); } catch { /* finalize reports the step's failure again */ }
      throw e;
    }
  };
  const reported = (e: unknown): unknown => fullDiskError(e, freeBytes);
  const query = (sql: string, params: readonly SqlParam[] = []): SqlRow[] => {
    used = true;
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
      rollback();
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
          rollback();
          throw e;
        }
      }
    });
    leaseSince = performance.now();
    lease++;
    inTransaction = true;
    armCheck();
  };
  /**
   * Looks at the lease at the end of this turn: it is kept for the next turn only when the turn
   * used the connection and the lease is younger than the hold (module note). Not unref'd: an unref'd
   * immediate waits while the process idles for I/O (an MCP server between requests), and the lease
   * held the lock until its next event (h-lock); this keeps the process one turn more at most.
   */
  function armCheck(): void {
    used = false;
    leaseCheck = setImmediate(() => {
      leaseCheck = undefined;
      if (leaseSince === undefined) return;
      if (used && performance.now() - leaseSince <= leaseMs) armCheck();
      else endLease();
    });
  }

  function close(): void {
    if (!db.isOpen) return;
    endLease();
    forget(endLease);
    for (const s of statements.values()) if (!s.isFinalized) s.finalize();
    statements.clear();
    db.close();
    release();
  }

  return {
    query,
    transaction<T>(fn: () => T): T {
      if (inTransaction && leaseSince === undefined) return fn();
      if (leaseHeld()) {
        // A lease holds the lock directory, which excludes every other connection: the
        // transaction runs inside it, and its COMMIT ends the lease.
        leaseSince = undefined;
        claims = 0;
        if (leaseCheck !== undefined) clearImmediate(leaseCheck);
        leaseCheck = undefined;
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
      used = true;
      // An open lease is used whatever its age: ending it inside a turn would let another process
      // take the lock, and the synchronous reads that follow cannot wait for it. ready() renews it.
      if (leaseHeld() || inTransaction) {
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
    async vacuum(): Promise<void> {
      // VACUUM cannot run inside a transaction: take the lock, drop the lease, VACUUM in the same turn.
      for (const start = performance.now(); db.isOpen; ) {
        await this.ready('write');
        endLease();
        try {
          freeing(() => db.exec('VACUUM'));
          return;
        } catch (e) {
          if (!isBusy(e) || performance.now() - start > BUSY_WAIT_MS) throw reported(e);
        }
      }
    },
    async ready(mode: 'read' | 'write'): Promise<number> {
      if (!db.isOpen) return 0;
      used = true;
      if (leaseHeld() && leaseSince !== undefined) {
        // A fresh lease serves a write too (the lock is this connection's: nothing was committed
        // since its reads). An old one ends, and one turn lets other processes in between.
        if (performance.now() - leaseSince <= leaseMs) return claims++, lease;
        endLease();
        await new Promise<void>((done) => setImmediate(done));
        if (!db.isOpen) return 0;
      }
      if (inTransaction) return 0; // inside a write transaction of this connection
      const take = (): unknown => { try { openLease(mode); return undefined; } catch (e) { if (!isBusy(e)) throw reported(e); return e; } };
      await waitForLock(file, take, () => db.isOpen, BUSY_WAIT_MS, BUSY_BACKOFF_MAX_MS);
      return leaseSince === undefined ? 0 : (claims++, lease);
    },
    settle(claim?: number | void): void {
      if (leaseSince === undefined || claim === 0 || (claim !== undefined && claim !== lease)) return;
      if ((claims = Math.max(0, claims - 1)) === 0 && someoneWaitsFor(file)) endLease();
    },
    close,
  };
}
