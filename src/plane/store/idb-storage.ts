/**
 * IndexedDB storage adapter (browsers, extensions; Node through fake-indexeddb), built on `idb`
 * with a typed schema. SPEC 2, 3, 4.6, 9. This module opens the database and assembles the
 * adapter from the store's parts:
 *
 * - `idb-schema.ts`: schema version, object stores, stored record shapes, namespace key ranges;
 * - `idb-records.ts`: compact node records (with checksums) and packed adjacency records;
 * - `idb-upgrade.ts`: opening the database and the upgrades from older versions;
 * - `idb-commit.ts` + `idb-edges.ts`: the commit of a write batch, edges into adjacency records;
 * - `idb-checkpoint.ts`: checkpoints (with part checksums) and the change log;
 * - `idb-reads.ts`: loads, reads by id, scans, counts, damage;
 * - `idb-namespaces.ts`: listing, dropping and measuring namespaces;
 * - `idb-errors.ts`: DOMException names to the adapter's error codes;
 * - `idb-persistence.ts`: the persistent-storage request;
 * - shared with the other stores: `memory-storage.ts` (batch and checkpoint validation, snapshot
 *   order), `names.ts` (namespace names), `checksum.ts` and `store-damage.ts` (damaged records).
 *
 * @module
 */
import type { IDBPDatabase } from 'idb';
import { JevMemError } from '../../errors.js';
import { DamageLog } from './checksum.js';
import { idbCheckpointMethods } from './idb-checkpoint.js';
import { idbCommit } from './idb-commit.js';
import { errorName, storageError } from './idb-errors.js';
import { idbNamespaceMethods } from './idb-namespaces.js';
import { type PersistenceState, requestPersistence } from './idb-persistence.js';
import { idbReadMethods } from './idb-reads.js';
import { DB_VERSION, DEFAULT_DB_NAME, type JevMemDBSchema } from './idb-schema.js';
import { openDatabase } from './idb-upgrade.js';
import type { StorageAdapter } from './storage.js';

export { DB_VERSION, DEFAULT_DB_NAME, type CheckpointRecord, type JevMemDBSchema, type MetaRecord, type SpaceRecord } from './idb-schema.js';
export { type PersistenceState, requestPersistence } from './idb-persistence.js';

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
 * Layout (version {@link DB_VERSION}, see {@link JevMemDBSchema}): `node` (compact node records,
 * vectors as bytes), `adj` (one record per node packing every edge that touches it, see
 * `idb-records.ts`), `edge-ids` (ends of edges whose id is not the write path's), `meta`,
 * `changes` (change log), `checkpoints`, `spaces` (edge counts and the change-log floor). Every
 * key starts with the namespace, so a namespace is a key range: no `by-namespace` index, and no
 * operation but `load` and `sizeBytes` reads a whole namespace.
 *
 * - `getNodes` / `getEdges`: one read-only transaction, all gets issued at once (`getEdges`
 *   reads the adjacency record of each asked node: edges from either end, each once).
 * - `scanNodes` / `scanEdges`: `getAll` with a key range and a count, continued after the last
 *   key, one short transaction per batch.
 * - `counts`: nodes by a key-range count, edges (per view) from the namespace's bookkeeping.
 * - `commit` is ONE read-write transaction over the stores the batch touches: node puts and
 *   deletes are issued at once, then the adjacency records of the edges' ends are read together,
 *   changed and put; nothing but requests of the transaction is awaited, so a failing request, a
 *   value that cannot be cloned or a quota error aborts the whole batch. A commit costs what it
 *   writes and the degree of the nodes it touches, not the size of the store.
 * - `writeCheckpoint` replaces the checkpoint and prunes the change log in one transaction.
 * - A version-1 database is migrated at open (see {@link DB_VERSION}); a failed migration leaves
 *   it untouched and the open fails with `STORAGE_FAILED`.
 * - `namespaces` lists namespaces with at least one node, edge or meta key.
 * - `sizeBytes` is an estimate: the bytes of the namespace's keys and values (strings as UTF-8,
 *   numbers 8, binary at its length), read in batches; not the browser's file size
 *   (`navigator.storage.estimate()`).
 * - When another tab opens a newer schema version, this connection closes itself; further calls
 *   fail with `STORAGE_FAILED`.
 * - `loadMeta` reads one namespace's meta only (one key range).
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

  let db: IDBPDatabase<JevMemDBSchema>;
  try {
    db = await openDatabase(factory, dbName);
  } catch (cause) {
    if (errorName(cause) === 'VersionError') {
      throw new JevMemError(
        'SCHEMA_MISMATCH',
        `IndexedDB database ${JSON.stringify(dbName)} has a schema newer than version ${DB_VERSION}, which this build reads; upgrade jev-mem`,
        { cause, expected: DB_VERSION },
      );
    }
    throw storageError(`open database ${JSON.stringify(dbName)}`, cause);
  }

  let persistence: PersistenceState = 'off';
  if (options.persist !== false) {
    requestPersistence((state) => {
      persistence = state;
    });
  }

  let closed = false;
  let lostReason: string | undefined;
  db.addEventListener('versionchange', () => {
    lostReason = 'another tab or worker opened a newer version of the database; reload to continue';
    db.close();
  });
  db.addEventListener('close', () => {
    lostReason ??= 'the browser closed the database connection';
  });

  const live = (): IDBPDatabase<JevMemDBSchema> => {
    if (closed) throw new JevMemError('CLOSED', 'the IndexedDB storage adapter was used after close()');
    if (lostReason !== undefined) throw new JevMemError('STORAGE_FAILED', `IndexedDB: ${lostReason}`);
    return db;
  };

  /** Damaged records met by this connection's reads (issue 22). */
  const damage = new DamageLog();
  const checkpoints = idbCheckpointMethods(live, damage);
  const adapter: IdbStorage = {
    kind: 'indexeddb',
    get persistence() {
      return persistence;
    },
    ...idbReadMethods(live, damage, (namespace) => checkpoints.readCheckpoint(namespace)),
    commit: idbCommit(live, damage),
    ...checkpoints,
    ...idbNamespaceMethods(live, damage),
    /** The memory keeps its own lexical index (in its checkpoint) for this store. */
    lexicalIndex: () => undefined,
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
  return adapter;
}
