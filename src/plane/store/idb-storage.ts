/**
 * The IndexedDB storage adapter (browsers and extensions, and Node through fake-indexeddb): the
 * one record store (`record-store.ts`) over the IndexedDB record driver
 * (`../drivers/record-idb.ts`), with the upgrade of databases written by earlier versions
 * (`record-idb-upgrade.ts`) and the persistent-storage request (`idb-persistence.ts`). Issue 22.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import { errorName, openIdbRecordDriver } from '../drivers/record-idb.js';
import type { RecordDriver } from '../drivers/record-driver.js';
import { recoverIdbCompaction } from './idb-compact.js';
import { holdDatabaseShared, withRecoveryLock } from './idb-database-lock.js';
import { type PersistenceState, requestPersistence } from './idb-persistence.js';
import { IDB_VERSION, upgradeRecords } from './record-idb-upgrade.js';
import { createRecordStore } from './record-store.js';
import { storageError } from './record-errors.js';
import type { StorageAdapter } from './storage.js';

export { type PersistenceState, requestPersistence } from './idb-persistence.js';
export { compactIdbDatabase, type IdbCompaction } from './idb-compact.js';
export type { CheckpointRecord, NodeRecord, SpaceRecord } from './record-codec.js';

/** Schema version of the IndexedDB database (see `record-idb-upgrade.ts` for the steps). */
export const DB_VERSION = IDB_VERSION;

/** Default database name. */
export const DEFAULT_DB_NAME = 'jev-mem';

/** How the IndexedDB store names itself in its errors. */
const WORDS = {
  label: 'IndexedDB',
  quotaRemedy: 'Free space or ask for persistent storage (navigator.storage.persist()).',
};

/** Options of {@link createIdbStorage}. */
export interface IdbStorageOptions {
  /**
   * Database name; one database holds every namespace.
   * @default 'jev-mem'
   */
  dbName?: string;
  /**
   * The IndexedDB factory. In Node pass fake-indexeddb's (`new IDBFactory()`) after
   * `import 'fake-indexeddb/auto'`, which `idb` needs for the `IDB*` classes.
   * @default globalThis.indexedDB
   */
  indexedDB?: IDBFactory;
  /**
   * Ask the browser to keep this origin's storage under pressure (`navigator.storage.persist()`,
   * SPEC 9), once, when it is not persistent yet. The request is not awaited (Firefox may show
   * a prompt); its outcome is in {@link IdbStorage.persistence}. Without `navigator.storage`
   * (Node, workers of some browsers) nothing is asked.
   * @default true
   */
  persist?: boolean;
}

/** The IndexedDB adapter: a {@link StorageAdapter} that also reports its persistence. */
export interface IdbStorage extends StorageAdapter {
  readonly kind: 'indexeddb';
  /** The outcome of the persistent-storage request so far (see {@link IdbStorageOptions.persist}). */
  readonly persistence: PersistenceState;
}

/**
 * Opens (and creates or upgrades) the IndexedDB database and returns a storage adapter
 * (`kind: 'indexeddb'`).
 *
 * Layout (version {@link DB_VERSION}; the tables of `record-driver.ts` as object stores): `node`
 * (compact node records with checksums, vectors as bytes, `record-codec.ts`), `adj` (one record
 * per node packing every edge that touches it, `record-adjacency.ts`), `edge-ids` (ends of edges
 * whose id is not the write path's), `meta`, `changes` (change log), `checkpoints`, `spaces`
 * (the kept node and edge counters and the change-log floor). The values of `adj`, `edge-ids`,
 * `meta`, `changes` and `spaces` are sealed with their CRC-32 (version 5,
 * `../drivers/record-idb-seal.ts`): a changed byte is a damaged record, skipped, named in
 * `damaged().records` and rebuilt (`record-screen.ts`). Every
 * key starts with the namespace, so a namespace is a key range: no `by-namespace` index, and no
 * operation but `load` and `sizeBytes` reads a whole namespace.
 *
 * - `getNodes` / `getEdges`: one read-only transaction, all gets issued at once (`getEdges`
 *   reads the adjacency record of each asked node: edges from either end, each once).
 * - `scanNodes` / `scanEdges`: `getAll` with a key range and a count, continued after the last
 *   key, one short transaction per batch.
 * - `counts`: the kept counters of the namespace's bookkeeping, one read (O(1), issue 25).
 * - `commit` is ONE read-write transaction over the stores the batch touches: node puts and
 *   deletes are issued at once, then the adjacency records of the edges' ends are read together,
 *   changed and put; nothing but requests of the transaction is awaited, so a failing request, a
 *   value that cannot be cloned or a quota error aborts the whole batch. Each write first reads
 *   the record it replaces (the kept counters), in the same transaction. A commit costs what it
 *   writes and the degree of the nodes it touches, not the size of the store.
 * - `writeCheckpoint` replaces the checkpoint and prunes the change log in one transaction.
 * - A database of an earlier version (1 to 4) is upgraded at open (`record-idb-upgrade.ts`); a
 *   failed upgrade leaves it untouched and the open fails with `STORAGE_FAILED`.
 * - `namespaces` lists namespaces with at least one node, edge or meta key.
 * - `sizeBytes` is an estimate kept as a counter (O(1)): the bytes of the namespace's keys and
 *   values (strings as UTF-8, numbers 8, binary at its length, `record-counters.ts`); not the
 *   browser's file size (`navigator.storage.estimate()`).
 * - When another tab opens a newer schema version, this connection closes itself; further calls
 *   fail with `STORAGE_FAILED`.
 * - `loadMeta` reads one namespace's meta only (one key range).
 * - The open store holds the database shared (the Web Lock `jev-mem-idb-database:<dbName>`,
 *   `idb-database-lock.ts`) until `close()`: `compactIdbDatabase` refuses to run meanwhile, and
 *   an open during a compaction waits for its end.
 * - A compaction (`compactIdbDatabase`) interrupted by a closed page is finished (or its
 *   incomplete copy dropped) before the database opens (`recoverIdbCompaction`).
 * - Unless `persist: false`, it asks once for persistent storage (see
 *   {@link IdbStorageOptions.persist}); the answer is in `persistence`.
 *
 * @throws JevMemError `INVALID_OPTION` (field `indexedDB`) when there is no IndexedDB (pass
 *   `options.indexedDB`, or use the file or memory adapter), `SCHEMA_MISMATCH` when the stored
 *   database has a version newer than {@link DB_VERSION}, `STORAGE_FAILED` when it cannot be
 *   opened or migrated. Methods throw `INVALID_INPUT` on a bad namespace, batch, batch size or
 *   checkpoint, `QUOTA_EXCEEDED`, `STORAGE_FAILED`, and `CLOSED` after `close()`.
 */
export async function createIdbStorage(options: IdbStorageOptions = {}): Promise<IdbStorage> {
  const dbName = options.dbName ?? DEFAULT_DB_NAME;
  if (typeof dbName !== 'string' || dbName.length === 0) {
    throw new JevMemError('INVALID_OPTION', `option dbName: expected a non-empty string, got ${JSON.stringify(dbName)}`, {
      field: 'dbName',
    });
  }
  const factory = options.indexedDB ?? (globalThis as { indexedDB?: IDBFactory }).indexedDB;
  if (factory === undefined || factory === null) {
    throw new JevMemError(
      'INVALID_OPTION',
      'option indexedDB: this environment has no IndexedDB; pass options.indexedDB (e.g. fake-indexeddb in Node) or use the file or memory storage adapter',
      { field: 'indexedDB' },
    );
  }
  if (typeof (globalThis as { IDBRequest?: unknown }).IDBRequest === 'undefined') {
    throw new JevMemError(
      'INVALID_OPTION',
      "option indexedDB: the IDB* classes are not globals here, and idb needs them; in Node run `import 'fake-indexeddb/auto'` first",
      { field: 'indexedDB' },
    );
  }

  // Held shared until close(): a compaction (`compactIdbDatabase`) refuses to start meanwhile,
  // and this open waits for one that runs (`idb-database-lock.ts`).
  const release = await holdDatabaseShared(factory, dbName);
  let driver: RecordDriver;
  try {
    // A compaction that a closed page left half done is finished first.
    await withRecoveryLock(factory, dbName, () => recoverIdbCompaction(factory, dbName));
    driver = await openIdbRecordDriver(factory, dbName, DB_VERSION, upgradeRecords);
  } catch (cause) {
    await release();
    if (cause instanceof JevMemError) throw cause;
    if (errorName(cause) === 'VersionError') {
      throw new JevMemError(
        'SCHEMA_MISMATCH',
        `IndexedDB database ${JSON.stringify(dbName)} has a schema newer than version ${DB_VERSION}, which this build reads; upgrade jev-mem`,
        { cause, expected: DB_VERSION },
      );
    }
    throw storageError(WORDS, `open database ${JSON.stringify(dbName)}`, cause);
  }

  let persistence: PersistenceState = 'off';
  if (options.persist !== false) {
    requestPersistence((state) => {
      persistence = state;
    });
  }
  const store = createRecordStore(driver, { kind: 'indexeddb', ...WORDS });
  // close() resolves once the database is given back, so a compaction called next can run.
  const close = async (): Promise<void> => {
    try {
      await store.close();
    } finally {
      await release();
    }
  };
  return Object.defineProperty({ ...store, kind: 'indexeddb' as const, close }, 'persistence', {
    get: () => persistence,
    enumerable: true,
  }) as IdbStorage;
}
