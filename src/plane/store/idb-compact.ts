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
import { wrap } from 'idb';
import { JevMemError } from '../../errors.js';
import type { RawDb } from '../drivers/record-idb.js';
import { tryHoldDatabaseExclusive } from './idb-database-lock.js';

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

/**
 * Opens `name` of `factory` through `idb` (at `version` when given), running `upgrade` in the
 * version change; a throw there aborts the version change and is what the open rejects with.
 * (`idb`'s `openDB` / `deleteDB` always use the global `indexedDB`, so the request of the given
 * factory is wrapped instead.)
 */
async function open(factory: IDBFactory, name: string, version?: number, upgrade?: (db: RawDb) => void): Promise<RawDb> {
  const request = version === undefined ? factory.open(name) : factory.open(name, version);
  let failure: unknown;
  if (upgrade !== undefined) {
    request.addEventListener('upgradeneeded', () => {
      try {
        upgrade(wrap(request.result) as RawDb);
      } catch (e) {
        failure = e;
        request.transaction?.abort();
      }
    });
  }
  const db = await (wrap(request) as unknown as Promise<RawDb>).catch((e: unknown) => {
    throw failure ?? e;
  });
  // Another tab's later open or delete must not wait on this short-lived connection.
  db.addEventListener('versionchange', () => db.close());
  return db;
}

/** Deletes database `name`; other jev-mem connections close themselves on the version change. */
async function remove(factory: IDBFactory, name: string): Promise<void> {
  await wrap(factory.deleteDatabase(name));
}

async function exists(factory: IDBFactory, name: string): Promise<boolean | undefined> {
  if (typeof factory.databases !== 'function') return undefined;
  return (await factory.databases()).some((d) => d.name === name);
}

/** Writes LevelDB's in-memory table out to a table file (a scratch database, created and deleted). */
async function flushLog(factory: IDBFactory, dbName: string): Promise<void> {
  const name = dbName + FLUSH_SUFFIX;
  const db = await open(factory, name, 1, (d) => d.createObjectStore('x'));
  const tx = db.transaction('x', 'readwrite', { durability: 'strict' });
  await Promise.all([tx.store.put(1, 1), tx.done]);
  db.close();
  await remove(factory, name);
}

/** Copies every object store of `from` (but the marker) into a new database `to` at `version`. */
async function copy(factory: IDBFactory, from: RawDb, to: string, version: number, mark: boolean): Promise<IdbCompaction> {
  const stores = [...from.objectStoreNames].filter((s) => s !== DONE_STORE);
  const shapes = stores.map((s) => {
    const os = from.transaction(s).store;
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
        const read = from.transaction(s.name).store;
        const range = after === undefined ? undefined : IDBKeyRange.lowerBound(after, true);
        const [keys, values] = await Promise.all([read.getAllKeys(range, BATCH), read.getAll(range, BATCH)]);
        if (keys.length === 0) break;
        const tx = target.transaction(s.name, 'readwrite', { durability: 'strict' }); // on disk before the source is deleted
        await Promise.all([...keys.map((k, i) => (s.keyPath === null ? tx.store.put!(values[i], k) : tx.store.put!(values[i]))), tx.done]);
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
 * cannot list databases (`indexedDB.databases()`, absent in some older browsers). The caller
 * holds the database exclusive (a compaction) or its recovery lock (`createIdbStorage`, holding
 * it shared), so no compaction runs meanwhile and openers recover one at a time.
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
 * `delete` / `forget` / `reset`, with every memory on the database closed, in this page and in
 * every other tab, worker or extension page of the origin: it holds the database exclusive
 * for the whole rebuild (`idb-database-lock.ts`: the Web Lock `jev-mem-idb-database:<dbName>`,
 * which every open IndexedDB store holds shared), so it refuses to start while a store is open,
 * and a store opened meanwhile waits for it to end. No write can therefore commit between the
 * copy and the deletion of the original. (Without Web Locks, or with a factory other than the
 * page's own `indexedDB`, the same holds for the stores of this page only.)
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
 * @throws JevMemError `INVALID_OPTION` (field `indexedDB`) without IndexedDB; `CONFLICT` (field
 *   `dbName`, `details.inUse: true`) while a memory or store on the database is open (this page
 *   or another tab) or another compaction of it runs: nothing was changed, close them and call
 *   again; `STORAGE_FAILED` when a step fails (what was copied is kept in `<dbName>~compact`;
 *   the next open finishes or drops it, so no record is lost).
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
  const release = await tryHoldDatabaseExclusive(factory, dbName);
  if (release === undefined) {
    throw new JevMemError(
      'CONFLICT',
      `IndexedDB database ${JSON.stringify(dbName)} is in use: a memory or store on it is open (in this page or another tab, worker or extension page of the origin), or another compaction runs; nothing was changed. Close every memory on it (memory.close()) and call compactIdbDatabase() again`,
      { field: 'dbName', inUse: true },
    );
  }
  try {
    return await compactHeld(factory, dbName);
  } finally {
    await release();
  }
}

/** {@link compactIdbDatabase} once the database is held exclusive. */
async function compactHeld(factory: IDBFactory, dbName: string): Promise<IdbCompaction> {
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
