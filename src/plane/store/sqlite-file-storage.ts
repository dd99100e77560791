/**
 * The Node store (CLI, `createNodeMemory({ store })`): one SQLite database `jev-mem.sqlite` in a
 * directory, through node-sqlite3-wasm, holding the one record store (`record-store.ts`, issue
 * 22) over the SQL record driver (`../drivers/record-sql.ts`, layout 6: one record table and an
 * FTS5 index per namespace). A database of the SQL store's layouts 1–4 is imported at the first
 * open (`sql-legacy-import.ts`, one transaction, then VACUUM under the database lock). Node only.
 *
 * Layout under `dir`:
 * ```
 * jev-mem.sqlite            the database (rollback journal jev-mem.sqlite-journal only during a commit)
 * jev-mem.sqlite.holders/   one file {pid, host, since} per open connection (sqlite-node.ts), so that
 *                           a lock is taken over only from a process that is gone
 * lock                      held by the one process that writes (pid, host), as in the v1 store
 * lock.waiting/             one empty file per process waiting to write it, in the order they came
 *                           (store-lock.ts, drivers/lock-queue.ts); the folder only while one waits
 * jev-mem.sqlite.waiting/   the same for connections waiting for SQLite's lock (sqlite-lock-waiters.ts)
 * ```
 * A directory that holds a v1 file store (`legacy-v1.ts`, read only: `format.json`, snapshot +
 * journal per namespace) is imported at the first open: under the writer lock, namespace by
 * namespace, in transactions of {@link MIGRATION_CHUNK} records, into `jev-mem.sqlite.migrating`,
 * which is renamed to `jev-mem.sqlite` once every namespace is in; only then are the v1 files
 * removed (issue 22: the v1 journal holds deleted memories' text, so no copy is kept). A crash at
 * any step leaves the v1 store whole, and the next open starts over (or finishes the removal).
 *
 * @module
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JevMemError, isJevMemError } from '../../errors.js';
import { expandHomePath } from '../../util/home-path.js';
import { consoleLogger, errorText, type Logger } from '../../util/logger.js';
import { importV1 } from './sqlite-v1-import.js';
import type { SqlConnection } from '../drivers/record-sql.js';
import { type NodeSqlDriver, openNodeSqlDriver } from '../drivers/sqlite-node.js';
import { isReadOnlyStore, readOnlyStoreError } from '../drivers/sqlite-read-only.js';
import { lockWaitError, sqlError } from './sql-errors.js';
import { inspectStoreDir, makeStoreDir } from './store-dir.js';
import { checkExistingNamespaceName } from './names.js';
import { validateBatch } from './record-batch.js';
import { createSqlRecordStore } from './sql-record-store.js';
import { keepFoundDamage, readDamageFile, storeFileIdentity } from './damage-file.js';
import { eraseOrRefuse, PendingErasures, PENDING_ERASURES_FILE } from './sqlite-erasures.js';
import { isChangedElsewhere, type StorageAdapter, type WriteBatch } from './storage.js';
import { refuseIfWrittenElsewhere, releaseStoreLock, takeStoreLockWaiting, WRITER_IDLE_MS, WRITER_RETRY_HOLD_MS, WRITER_WAIT_MS, writersWaiting } from './store-lock.js';

/** File name of the database inside the store directory. */
export const SQLITE_FILE_NAME = 'jev-mem.sqlite';

/**
 * Largest database file (bytes) that an erasing call rewrites (VACUUM) before it returns: 32
 * MiB. Measured (node-sqlite3-wasm, a loaded 2-core machine; `process.cpuUsage`): VACUUM of a
 * 4.3 MiB store (1k memories with 384-dimension vectors) 0.20 s CPU (0.66 s wall), of a 41 MiB
 * store (10k) 0.77 s CPU (4.7 s wall, file I/O); so a call's VACUUM stays within a few seconds,
 * and a reader of another process (which waits up to 15 s for the lock) does not fail for it.
 * A larger file keeps its erasures pending (`erasures-pending`) for `maintain()`, `close()` and
 * the CLI.
 */
export const VACUUM_INLINE_BYTES = 32 * 1024 * 1024;

export { PENDING_ERASURES_FILE } from './sqlite-erasures.js';

export { MIGRATION_CHUNK } from './sqlite-v1-import.js';


/** Options of {@link createSqliteFileStorage}. */
export interface SqliteFileStorageOptions {
  /** The store directory; a leading `~` or `~/` is the home directory (`os.homedir()`), as in a shell. */
  dir: string;
  /**
   * Create the directory and the database when missing. With `false`, a missing store fails
   * with `STORE_MISSING`.
   * @default true
   */
  create?: boolean;
  /**
   * Receives what the adapter recovers from without failing a call (a v1 store imported, a
   * stale lock taken over).
   * @default consoleLogger
   */
  logger?: Logger;
  /**
   * The lexical engine: `'fts5'`, an FTS5 index kept in the database and updated by every commit
   * (`sql-lexical.ts`; nothing to load at open, no lexical part in checkpoints), or
   * `'minisearch'`, MiniSearch in the memory's checkpoints. Switching is safe either way (the
   * FTS5 index is built from the nodes, or dropped, at the next commit or search). The default
   * is FTS5, chosen on LoCoMo's development split (R@10 79.5 against MiniSearch's 78.7; test
   * split 79.5 against 78.7) and because it loads nothing at open.
   * @default 'fts5'
   */
  lexical?: 'fts5' | 'minisearch';
  /**
   * Largest database file (bytes, ≥ 0) that an erasing call rewrites before it returns (see
   * {@link VACUUM_INLINE_BYTES}); `Infinity`: always; `0`: never (erasures stay pending until
   * `maintain()`, `close()` or `vacuum()`).
   * @default VACUUM_INLINE_BYTES
   */
  vacuumBytes?: number;
}

/**
 * Opens (or creates) a store directory and returns its storage adapter (`kind: 'sqlite'`). Node
 * only. A v1 file store in `dir` is imported first (see the module comment).
 *
 * - Every method of the storage port, by the record store over the SQL record driver; a commit
 *   is one SQLite transaction (rollback journal, synced).
 * - Erasure: `PRAGMA secure_delete = ON` and the rollback journal in DELETE mode zero a deleted
 *   node where it lives when `commit` returns; an older copy that a b-tree rebalance left in
 *   another page's unused space goes when the file is rewritten (`vacuum`, issue 22): every
 *   erasure is counted in `<dir>/erasures-pending` (`pendingErasures`), under the writer lock:
 *   the file is read once per hold of the lock, written before the first erasure's commit when
 *   none was pending (so a crash leaves the erasures pending) and given the exact count when
 *   the lock is given back (a crash meanwhile leaves a count ≥ 1 but maybe lower), not read or
 *   written per erasure; `settleErasures` (the
 *   end of the memory's delete / forget / reset / maintain) rewrites a file of at most
 *   `vacuumBytes`, and `close()` rewrites whatever is pending when this adapter erased or wrote.
 * - One process writes a store at a time: a write takes `<dir>/lock`, waiting up to
 *   `WRITER_WAIT_MS` (15 s) for another live process to give it back; it is given back after
 *   `WRITER_IDLE_MS` (1 s) without a write (`WRITER_RETRY_HOLD_MS`, 5 s, after a commit refused
 *   because another process committed meanwhile, so the re-planned commit goes through), before the next write when another process waits
 *   for it (that one writes first; waiters take it in the order they came: issue 22), and by
 *   `close()` (a lock left by a dead process on this host is taken over). Readers need no lock.
 *
 * @throws JevMemError `STORE_MISSING` (field `store`; `details.dir`, `details.reason`) when
 *   `create` is false and there is no store; `INVALID_OPTION` (field `dir`) for a missing option,
 *   a file, or a non-empty directory that is not a store (`details.path`); `STORAGE_FAILED`
 *   (field `store`, `details.path`, `details.errno`: `store-dir.ts`) for a path that cannot be
 *   read or made (a part of it a file, no permission, a read-only or virtual file system), (field `logger`) for a logger that is
 *   not a function, (field `lexical`) for an engine other than `'fts5'` / `'minisearch'`; `STORAGE_FAILED` when the database cannot be opened, a v1 store cannot be
 *   imported, or another process holds the lock during an import; `SCHEMA_MISMATCH` for a
 *   database of another layout version. Methods throw as `createRecordStore` says (and `STORE_DAMAGED` when SQLite finds the file damaged); writes also
 *   throw `STORAGE_FAILED` (field `store`) while another process holds the lock.
 *   A store this process may not write (`sqlite-read-only.ts`) opens for reads; every write
 *   then throws `STORAGE_FAILED` with `details.readOnly: true` at once (so does the open when
 *   the database would have to be created or a v1 store imported).
 */
export async function createSqliteFileStorage(options: SqliteFileStorageOptions): Promise<StorageAdapter> {
  if (typeof options?.dir !== 'string' || options.dir.length === 0) {
    throw new JevMemError('INVALID_OPTION', `option dir: expected a directory path, got ${JSON.stringify(options?.dir)}`, { field: 'dir' });
  }
  const logger = options.logger ?? consoleLogger;
  if (typeof logger !== 'function') {
    throw new JevMemError('INVALID_OPTION', `option logger: expected a function (level, message, entry), got ${typeof options.logger}`, { field: 'logger' });
  }
  const lexical = options.lexical ?? 'fts5';
  if (lexical !== 'fts5' && lexical !== 'minisearch') {
    throw new JevMemError('INVALID_OPTION', `option lexical: expected 'fts5' or 'minisearch', got ${JSON.stringify(options.lexical)}`, { field: 'lexical' });
  }
  const vacuumBytes = options.vacuumBytes ?? VACUUM_INLINE_BYTES;
  if (typeof vacuumBytes !== 'number' || !(vacuumBytes >= 0)) {
    throw new JevMemError('INVALID_OPTION', `option vacuumBytes: expected a number of bytes ≥ 0 (Infinity: always), got ${JSON.stringify(options.vacuumBytes)}`, { field: 'vacuumBytes' });
  }
  const dir = resolve(expandHomePath(options.dir));
  const create = options.create ?? true;
  const lockPath = join(dir, 'lock');
  const missing = (why: string): JevMemError =>
    new JevMemError('STORE_MISSING', `no jev-mem store at ${dir} (${why}); pass create: true to make one`, { field: 'store', dir, reason: why });

  const found = await inspectStoreDir(dir, SQLITE_FILE_NAME);
  if (found === 'file' || found === 'other') {
    const what = found === 'file' ? 'is a file, not a directory' : 'is a non-empty directory that holds no jev-mem store';
    throw new JevMemError('INVALID_OPTION', `option dir: ${dir} ${what}; choose an empty or new directory`, { field: 'dir', path: dir });
  }
  if ((found === 'missing' || found === 'empty') && !create) throw missing(found === 'missing' ? 'the directory does not exist' : `${SQLITE_FILE_NAME} is missing`);
  if (found === 'missing') await makeStoreDir(dir);

  // A store this process may read but not write: opened read-only, every write refused at once.
  const file = join(dir, SQLITE_FILE_NAME);
  const readOnly = isReadOnlyStore(dir, file);
  if (readOnly && found === 'v1') throw readOnlyStoreError(dir, 'import its v1 files into a database');
  if (readOnly && !existsSync(file)) throw readOnlyStoreError(dir, `create ${SQLITE_FILE_NAME}`);

  let lockHeld = false;
  let lock: Promise<void> | undefined;
  let driver: NodeSqlDriver | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  const acquire = async (): Promise<void> => {
    const { tookOver } = await takeStoreLockWaiting(dir, lockPath, WRITER_WAIT_MS);
    lockHeld = true;
    // A writer that died inside a statement left SQLite's lock directory behind: the driver
    // takes it over (and plays back its journal) at its next statement.
    if (tookOver) {
      logger('warn', `took over the lock of ${dir} left by a process that is gone`, { code: 'STALE_LOCK_TAKEN' });
    }
  };
  const writerLock = (): Promise<void> => {
    lock ??= acquire().catch((e: unknown) => {
      lock = undefined;
      throw e;
    });
    return lock;
  };
  /**
   * Gives the writer lock back once this process has not begun a write for `idleMs`
   * ({@link WRITER_IDLE_MS}; {@link WRITER_RETRY_HOLD_MS} after a refused commit), so another process (a second MCP client on the same store, a CLI
   * ingest) can write while this one is idle; the next write takes it again. A write still
   * running when it fires is safe: the record store checks at commit what another writer changed.
   */
  const releaseWhenIdle = (idleMs = WRITER_IDLE_MS): void => {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      idleTimer = undefined;
      const held = lock;
      if (held === undefined || closing !== undefined) return;
      void held.then(() => giveBack(held), () => undefined);
    }, idleMs);
    idleTimer.unref?.();
  };
  /** Gives the writer lock back (the hold `held`, unless a newer hold replaced it); the next write takes it again. */
  const giveBack = async (held: Promise<void>): Promise<void> => {
    if (lock !== held || !lockHeld) return;
    lock = undefined;
    try {
      pending.release();
    } catch (e) {
      logger('warn', `could not write ${PENDING_ERASURES_FILE} (${errorText(e)}); it says erasures are pending, with a lower count`, { code: 'VACUUM_FAILED' });
    }
    lockHeld = false;
    await releaseStoreLock(dir, lockPath).catch((e: unknown) => logger('warn', errorText(e), { code: 'LOCK_RELEASE_FAILED' }));
  };

  if (found === 'v1') {
    await writerLock();
    try {
      await importV1(dir, join(dir, SQLITE_FILE_NAME), logger);
    } catch (e) {
      await releaseStoreLock(dir, lockPath).catch(() => undefined);
      throw e instanceof JevMemError ? e : new JevMemError('STORAGE_FAILED', `could not import the v1 store at ${dir} (${errorText(e)}); it is unchanged`, { cause: e, field: 'store' });
    }
  }

  // The database file this connection reads (before it opens it): damage its reads find is kept
  // beside the store only while this file is the store's (a repair replaces it: damage-file.ts).
  const opened = storeFileIdentity(file);
  try {
    driver = openNodeSqlDriver(file, { readOnly });
  } catch (e) {
    if (lockHeld) await releaseStoreLock(dir, lockPath).catch(() => undefined);
    throw sqlError(`the store at ${dir}`, `open ${SQLITE_FILE_NAME}`, e);
  }
  const db = driver;
  const damageKept = readOnly ? undefined : keepFoundDamage(dir, opened ?? storeFileIdentity(file));
  const locked = async (mode: 'read' | 'write', wait: () => Promise<number>): Promise<number> => {
    try {
      return await wait();
    } catch (e) {
      throw lockWaitError(`the store at ${dir}`, mode, e);
    }
  };
  const connection: SqlConnection = {
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => {
      if (readOnly) throw readOnlyStoreError(dir);
      return db.transaction(fn);
    },
    async ready(mode) {
      if (mode === 'write') {
        if (readOnly) throw readOnlyStoreError(dir);
        await writerLock();
        releaseWhenIdle();
        // SQLite runs synchronously here: yield one event-loop turn per write so that signal
        // handlers (Ctrl-C of the CLI) and timers run between commits.
        await new Promise<void>((done) => setImmediate(done));
      }
      // Wait for the database lock without blocking (readers of other processes hold it briefly).
      return locked(mode, () => db.ready(mode));
    },
    settle: (claim) => db.settle(claim),
  };
  const inner = createSqlRecordStore(connection, {
    kind: 'sqlite',
    label: `the store at ${dir}`,
    quotaRemedy: 'Free disk space and write again; a delete or forget needs free space too (SQLite copies the pages it changes into its rollback journal before it commits: about as much as the database file is enough).',
    lexical,
    vacuum: () => rewriteAfterImport(), // after an import of layouts 1–4, under the database lock (issue 22)
    knownDamage: readDamageFile(dir), // what a check or a read found (kept by onDamage): stats() knows it, puts are refused
    onDamage: damageKept?.onDamage,
  });
  let closing: Promise<void> | undefined;
  /** An erasure: `erase`, then `eraseOrRefuse`'s bookkeeping (sqlite-erasures.ts). */
  const erasing = (namespace: string, ids: readonly string[] | undefined, erase: () => Promise<void>): Promise<void> => eraseOrRefuse({ dir, file, readOnly }, namespace, ids, erase);
  const pending = new PendingErasures(dir);
  /** Erasures of this adapter not yet rewritten: {@link settleErasures} looks at them. */
  let unsettled = 0;
  /** Counts an erasure as pending before it commits (the caller took the writer lock). */
  const markErasure = (): boolean => {
    if (readOnly) return false;
    unsettled++;
    pending.mark(lockHeld);
    return true;
  };
  /** Runs a marked erasure; one SQLite rolled back (a full disk, a refused page) erased nothing, so its mark is taken back (h-break10 finding 6). */
  const unlessRolledBack = async (marked: boolean, run: () => Promise<void>): Promise<void> => {
    try {
      await run();
    } catch (e) {
      if (marked && (isJevMemError(e, 'QUOTA_EXCEEDED') || isJevMemError(e, 'STORE_DAMAGED'))) (unsettled = Math.max(0, unsettled - 1)), pending.unmark(lockHeld);
      throw e;
    }
  };
  const vacuum = async (force = false): Promise<number> => {
    if (readOnly || (pending.count() === 0 && !force)) return 0;
    await writerLock();
    releaseWhenIdle();
    const cleared = pending.beforeRewrite();
    try {
      await db.vacuum();
    } catch (e) {
      throw sqlError(`the store at ${dir}`, 'rewrite the database file after an erasure (VACUUM)', e);
    }
    // Erasures counted while this one ran stay pending.
    pending.afterRewrite(cleared);
    unsettled = 0;
    return cleared;
  };
  /** The old tables an import dropped count as an erasure until the rewrite; one that fails stays pending (maintain(), close()). */
  const rewriteAfterImport = async (): Promise<void> => {
    markErasure();
    await vacuum().catch((e: unknown) => logger('warn', `the old tables of ${dir} are dropped but not yet rewritten (${errorText(e)}); maintain() or close() rewrites the file`, { code: 'VACUUM_FAILED' }));
  };
  const fileBytes = (): number => {
    try {
      return statSync(file).size;
    } catch {
      return Infinity;
    }
  };
  const adapter: StorageAdapter = {
    ...inner,
    pendingErasures: () => pending.count(),
    // A checkpoint is derived data: a process that does not write (a reader's close) never waits for another's writer lock for it.
    writeCheckpoint: async (namespace, cp) => (lockHeld || readOnly || (await refuseIfWrittenElsewhere(dir, lockPath)), inner.writeCheckpoint(namespace, cp)),
    vacuum: (o) => vacuum(o?.force === true),
    async settleErasures() {
      if (unsettled === 0 || closing !== undefined || fileBytes() > vacuumBytes) return;
      await vacuum().catch((e: unknown) => logger('warn', `erasures left pending (${errorText(e)}); maintain() or close() rewrites the file`, { code: 'VACUUM_FAILED' }));
    },
    async commit(namespace, batch) {
      let marked = false;
      if (batch !== null && typeof batch === 'object' && (batch.deleteNodeIds ?? []).length > 0 && !readOnly && closing === undefined) {
        // Bad input fails first (INVALID_INPUT naming the field): it never waits for another
        // process's lock, takes it, or counts an erasure in erasures-pending.
        validateBatch(namespace, batch);
        await writerLock();
        marked = markErasure();
      }
      const erasure = batch !== null && typeof batch === 'object' && (batch.putNodes ?? []).length + (batch.putEdges ?? []).length === 0 && (batch.deleteNodeIds ?? []).length > 0;
      try {
        await unlessRolledBack(marked, () => (erasure ? erasing(namespace, batch.deleteNodeIds, () => inner.commit(namespace, batch)) : inner.commit(namespace, batch)));
      } catch (e) {
        // Refused: another process committed since this one loaded (issue 22). The lock is kept
        // through the writer's reload and re-plan, so its next commit cannot be refused again.
        if (lockHeld && closing === undefined && isChangedElsewhere(e)) releaseWhenIdle(WRITER_RETRY_HOLD_MS);
        throw e;
      }
      // Another process waits to write (issue 22: a second writer beside an ingest that commits
      // back to back): the lock is given back after this commit, not in the middle of a write
      // (between its reads and its commit), and this process's next write queues behind it.
      if (lockHeld && lock !== undefined && closing === undefined && writersWaiting(lockPath)) await giveBack(lock);
    },
    async dropNamespace(namespace) {
      checkExistingNamespaceName(namespace); // before the lock, as commit's validation
      let marked = false;
      if (!readOnly && closing === undefined) {
        await writerLock();
        marked = markErasure();
      }
      return unlessRolledBack(marked, () => erasing(namespace, undefined, () => inner.dropNamespace(namespace)));
    },
    close: () =>
      (closing ??= (async () => {
        if (idleTimer !== undefined) clearTimeout(idleTimer);
        await inner.close();
        await damageKept?.flushed();
        // The erasures still pending, when this adapter erased or writes: the file is rewritten
        // now, whatever its size (a reader does not wait here for another process's writer lock).
        if (unsettled > 0 || lockHeld) await vacuum().catch((e: unknown) => logger('warn', `erasures left pending at close (${errorText(e)}); the next maintain() or close() rewrites the file`, { code: 'VACUUM_FAILED' }));
        await lock?.catch(() => undefined);
        db.close();
        if (lockHeld) {
          pending.release();
          lockHeld = false;
          await releaseStoreLock(dir, lockPath);
        }
      })()),
  };
  // Create the tables (or import an older layout) now, so that a damaged or foreign database fails at open.
  await adapter.namespaces().catch(async (e: unknown) => {
    await adapter.close().catch(() => undefined);
    throw e;
  });
  return adapter;
}
