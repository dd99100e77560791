/**
 * Erasure of the bytes IndexedDB keeps after a delete (issue 22). Chromium stores an origin's
 * IndexedDB in one LevelDB: a deleted or overwritten value stays in the write-ahead log and the
 * table files until a compaction that holds both the value and its deletion drops it, and a page
 * cannot ask for a compaction. Measured with Chromium 156 (`test/browser/idb-erasure.test.ts`):
 * neither writes nor `clear()` nor `deleteObjectStore` nor many megabytes of filler writes
 * removed an erased text; what does is `deleteDatabase`, which deletes the database's key range
 * and then compacts that range (Chromium's `kDeferredWithCompaction`), once the range is in table
 * files (a range compaction first writes the in-memory table out, and does not compact what that
 * just wrote).
 *
 * {@link compactIdbDatabase} therefore rebuilds the database: it writes out LevelDB's in-memory
 * table (a scratch database created and deleted), copies every object store of `dbName`, record
 * by record, into `<dbName>~compact`, marks the copy complete, deletes `dbName`, copies back into
 * a new `dbName` (same name and version, so no pointer is needed), deletes `<dbName>~compact`,
 * and writes out the in-memory table again (which also removes the table files the compactions
 * made obsolete). A page that dies between the steps loses nothing: {@link recoverIdbCompaction}
 * (run by `createIdbStorage` at open) finishes a copy that was marked complete, and deletes one
 * that was not (then `dbName` is untouched).
 *
 * @module
 */
import { JevMemError } from '../../errors.js';

/** Suffix of the copy's database name. */
export const COMPACT_SUFFIX = '~compact';
/** Suffix of the scratch database whose deletion writes out LevelDB's in-memory table. */
const FLUSH_SUFFIX = '~flush';
/** The object store that marks a copy complete (only in the copy). */
const DONE_STORE = '~complete';
/** Records read and written per transaction while copying. */
const BATCH = 1000;

/** What {@link compactIdbDatabase} did. */
export interface IdbCompaction {
  /** Records copied per pass (the database holds this many records, over all object stores). */
  records: number;
  /** Object stores copied. */
  stores: number;
}

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error ?? new Error('transaction aborted'));
  });
}

/** Opens `name` (at `version` when given), running `upgrade` in a version change. */
function open(factory: IDBFactory, name: string, version?: number, upgrade?: (db: IDBDatabase, tx: IDBTransaction) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = version === undefined ? factory.open(name) : factory.open(name, version);
    r.onupgradeneeded = () => {
      try {
        upgrade?.(r.result, r.transaction as IDBTransaction);
      } catch (e) {
        r.transaction?.abort();
        reject(e);
      }
    };
    r.onsuccess = () => {
      // Another tab's later open or delete must not wait on this short-lived connection.
      r.result.onversionchange = () => r.result.close();
      resolve(r.result);
    };
    r.onerror = () => reject(r.error);
  });
}

/** Deletes database `name`; other jev-mem connections close themselves on the version change. */
function remove(factory: IDBFactory, name: string): Promise<void> {
  return request(factory.deleteDatabase(name) as IDBRequest<unknown>).then(() => undefined);
}

async function exists(factory: IDBFactory, name: string): Promise<boolean | undefined> {
  if (typeof factory.databases !== 'function') return undefined;
  return (await factory.databases()).some((d) => d.name === name);
}

/** Writes LevelDB's in-memory table out to a table file (a scratch database, created and deleted). */
async function flushLog(factory: IDBFactory, dbName: string): Promise<void> {
  const name = dbName + FLUSH_SUFFIX;
  const db = await open(factory, name, 1, (d) => d.createObjectStore('x'));
  const tx = db.transaction('x', 'readwrite');
  tx.objectStore('x').put(1, 1);
  await done(tx);
  db.close();
  await remove(factory, name);
}

/** Copies every object store of `from` (but the marker) into a new database `to` at `version`. */
async function copy(factory: IDBFactory, from: IDBDatabase, to: string, version: number, mark: boolean): Promise<IdbCompaction> {
  const stores = [...from.objectStoreNames].filter((s) => s !== DONE_STORE);
  const shapes = stores.map((s) => {
    const os = from.transaction(s).objectStore(s);
    const indexes = [...os.indexNames].map((i) => os.index(i)).map((ix) => ({ name: ix.name, keyPath: ix.keyPath, unique: ix.unique, multiEntry: ix.multiEntry }));
    return { name: s, keyPath: os.keyPath, autoIncrement: os.autoIncrement, indexes };
  });
  const target = await open(factory, to, version, (db) => {
    for (const s of shapes) {
      const os = db.createObjectStore(s.name, { keyPath: s.keyPath, autoIncrement: s.autoIncrement });
      for (const ix of s.indexes) os.createIndex(ix.name, ix.keyPath, { unique: ix.unique, multiEntry: ix.multiEntry });
    }
  });
  let records = 0;
  try {
    for (const s of shapes) {
      let after: IDBValidKey | undefined;
      for (;;) {
        const read = from.transaction(s.name).objectStore(s.name);
        const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
        const [keys, values] = await Promise.all([request(read.getAllKeys(range, BATCH)), request(read.getAll(range, BATCH))]);
        if (keys.length === 0) break;
        const tx = target.transaction(s.name, 'readwrite');
        const os = tx.objectStore(s.name);
        keys.forEach((k, i) => (s.keyPath === null ? os.put(values[i], k) : os.put(values[i])));
        await done(tx);
        records += keys.length;
        after = keys[keys.length - 1];
        if (keys.length < BATCH) break;
      }
    }
  } finally {
    target.close();
  }
  if (mark) (await open(factory, to, version + 1, (db) => db.createObjectStore(DONE_STORE))).close();
  return { records, stores: shapes.length };
}

function storageFailed(dbName: string, step: string, cause: unknown): JevMemError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new JevMemError('STORAGE_FAILED', `IndexedDB compaction of ${JSON.stringify(dbName)} (${step}): ${message}`, { cause });
}

/**
 * Finishes or drops a compaction of `dbName` that a closed page left half done: when
 * `<dbName>~compact` is marked complete, `dbName` is rebuilt from it; otherwise it is deleted
 * (`dbName` was not touched yet). Nothing is done when there is no copy, or when the factory
 * cannot list databases (`indexedDB.databases()`, absent in some older browsers).
 * @returns whether a copy was found.
 * @throws JevMemError `STORAGE_FAILED` when a step fails (the copy is kept; the next open retries).
 */
export async function recoverIdbCompaction(factory: IDBFactory, dbName: string): Promise<boolean> {
  const copyName = dbName + COMPACT_SUFFIX;
  if ((await exists(factory, copyName)) !== true) return false;
  try {
    const held = await open(factory, copyName);
    if (!held.objectStoreNames.contains(DONE_STORE)) {
      held.close();
      await remove(factory, copyName);
      return true;
    }
    await remove(factory, dbName);
    await copy(factory, held, dbName, held.version - 1, false);
    held.close();
    await remove(factory, copyName);
    await flushLog(factory, dbName);
    return true;
  } catch (cause) {
    throw storageFailed(dbName, 'finishing an interrupted compaction', cause);
  }
}

/**
 * Rebuilds IndexedDB database `dbName` so that no byte of what was deleted from it stays in the
 * browser's files (Chromium's LevelDB log and table files; see the module). Run it after
 * `delete` / `forget` / `reset`, with the memory closed and no other tab or worker of the origin
 * using it: it takes no lock, so a write another tab commits while the records are copied is
 * lost. Connections still open to `dbName` (other tabs of jev-mem) are closed by the deletion
 * and fail with `STORAGE_FAILED` until reloaded; a connection that does not close on
 * `versionchange` makes this wait.
 *
 * Cost: every record is read and written twice (O(size of the database), all namespaces), plus
 * two short scratch databases. Measured on a loaded 2-core machine, Chromium 156: see the README's
 * Erasure section.
 *
 * Not covered: bytes the file system or the disk keeps after LevelDB deletes or rewrites a file
 * (free blocks, SSD remapping, snapshots, backups), and other browsers' engines (Firefox and
 * Safari store IndexedDB in SQLite; untested here).
 *
 * @param options.dbName database name (default `'jev-mem'`, as `createIdbStorage`).
 * @param options.indexedDB the factory (default `globalThis.indexedDB`).
 * @returns the records and object stores copied.
 * @throws JevMemError `INVALID_OPTION` (field `indexedDB`) without IndexedDB, `STORAGE_FAILED`
 *   when a step fails (what was copied is kept in `<dbName>~compact`; the next open finishes or
 *   drops it, so no record is lost).
 */
export async function compactIdbDatabase(options: { dbName?: string; indexedDB?: IDBFactory } = {}): Promise<IdbCompaction> {
  const dbName = options.dbName ?? 'jev-mem';
  if (typeof dbName !== 'string' || dbName.length === 0) {
    throw new JevMemError('INVALID_OPTION', `option dbName: expected a non-empty string, got ${JSON.stringify(dbName)}`, { field: 'dbName' });
  }
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (factory === undefined || factory === null) {
    throw new JevMemError('INVALID_OPTION', 'option indexedDB: this environment has no IndexedDB', { field: 'indexedDB' });
  }
  await recoverIdbCompaction(factory, dbName);
  if ((await exists(factory, dbName)) === false) return { records: 0, stores: 0 };
  const copyName = dbName + COMPACT_SUFFIX;
  let step = 'writing out the log';
  try {
    await flushLog(factory, dbName);
    step = 'copying';
    const source = await open(factory, dbName);
    const version = source.version;
    let result: IdbCompaction;
    try {
      result = await copy(factory, source, copyName, version, true);
    } finally {
      source.close();
    }
    step = 'deleting the original';
    await remove(factory, dbName);
    step = 'copying back';
    const held = await open(factory, copyName);
    try {
      await copy(factory, held, dbName, version, false);
    } finally {
      held.close();
    }
    step = 'deleting the copy';
    await remove(factory, copyName);
    await flushLog(factory, dbName);
    return result;
  } catch (cause) {
    throw storageFailed(dbName, step, cause);
  }
}
