/**
 * Opening the IndexedDB database and bringing it to {@link DB_VERSION}: the object stores of a
 * new database, the version 1 → 2 rewrite (compact node records, adjacency records, change-log
 * floors) and the version 2 → 3 checksums, all inside the version-change transaction, so a
 * failed upgrade leaves the database as it was.
 *
 * @module
 */
import { type IDBPDatabase, type IDBPTransaction, wrap } from 'idb';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { partSums } from './idb-checkpoint.js';
import { applyEdges } from './idb-edges.js';
import { firstFailure } from './idb-errors.js';
import { nodeRecordSum, toNodeRecord } from './idb-records.js';
import { type AnyTx, DB_VERSION, type JevMemDBSchema, emptySpace } from './idb-schema.js';
import { CHANGE_META_KEY } from './storage.js';

/**
 * Brings a version-1 database to version 2 inside the version-change transaction: every node
 * record to its compact form (vector as bytes), every edge into the adjacency records of its
 * ends (in chunks, so memory stays bounded), the change-log floor of each namespace from its
 * `change` meta key; then removes the version-1 `nodes` and `edges` stores. A failure aborts the
 * transaction, which leaves the version-1 database as it was.
 */
async function migrateFromV1(db: IDBPDatabase<JevMemDBSchema>, tx: AnyTx): Promise<void> {
  type V1 = { nodes: { key: [string, string]; value: MemoryNode }; edges: { key: [string, string]; value: MemoryEdge } };
  const old = tx as unknown as IDBPTransaction<V1, ['nodes', 'edges'], 'versionchange'>;
  const nodes = tx.objectStore('node');
  const ops: Promise<unknown>[] = [];
  const flush = async (): Promise<void> => {
    const failure = firstFailure(await Promise.allSettled(ops.splice(0)));
    if (failure !== undefined) throw failure;
  };
  try {
    let nodeCursor = await old.objectStore('nodes').openCursor();
    while (nodeCursor) {
      const n = nodeCursor.value;
      ops.push(nodes.put(toNodeRecord(n), [n.namespace, n.id]));
      if (ops.length >= 1000) await flush();
      nodeCursor = await nodeCursor.continue();
    }
    await flush();
    const CHUNK = 2000;
    let chunk: MemoryEdge[] = [];
    const applyChunk = async (): Promise<void> => {
      const first = chunk[0];
      if (first === undefined) return;
      await applyEdges(tx, first.namespace, [], chunk, ops);
      chunk = [];
      await flush();
    };
    let edgeCursor = await old.objectStore('edges').openCursor();
    while (edgeCursor) {
      const e = edgeCursor.value;
      if (chunk.length >= CHUNK || (chunk.length > 0 && chunk[0]!.namespace !== e.namespace)) await applyChunk();
      chunk.push(e);
      edgeCursor = await edgeCursor.continue();
    }
    await applyChunk();
    let metaCursor = await tx.objectStore('meta').openCursor();
    const spaces = tx.objectStore('spaces');
    while (metaCursor) {
      const { namespace, key, value } = metaCursor.value;
      if (key === CHANGE_META_KEY && typeof value === 'number' && value > 0) {
        const space = (await spaces.get(namespace)) ?? emptySpace();
        space.floor = value;
        await spaces.put(space, namespace);
      }
      metaCursor = await metaCursor.continue();
    }
  } catch (cause) {
    for (const op of ops) op.catch(() => undefined); // the abort that follows rejects them
    throw cause;
  }
  (db as unknown as IDBPDatabase<V1>).deleteObjectStore('nodes');
  (db as unknown as IDBPDatabase<V1>).deleteObjectStore('edges');
}

/**
 * Brings the database from `oldVersion` to {@link DB_VERSION}, one step per version, inside the
 * version-change transaction. Steps never delete user data (version 1 → 2 rewrites it).
 */
async function upgradeSchema(db: IDBPDatabase<JevMemDBSchema>, tx: AnyTx, oldVersion: number): Promise<void> {
  if (oldVersion < 1) {
    db.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
  }
  if (oldVersion < 2) {
    for (const name of ['node', 'adj', 'edge-ids', 'changes', 'checkpoints', 'spaces'] as const) db.createObjectStore(name);
    if (oldVersion >= 1) await migrateFromV1(db, tx);
  }
  if (oldVersion >= 1 && oldVersion < 3) await addSums(tx);
}

/** Version 2 → 3: the checksum of every node record and checkpoint part, from the records as they are. */
async function addSums(tx: AnyTx): Promise<void> {
  let nodeCursor = await tx.objectStore('node').openCursor();
  while (nodeCursor) {
    const record = nodeCursor.value;
    if (record.sum === undefined) await nodeCursor.update({ ...record, sum: nodeRecordSum(record) });
    nodeCursor = await nodeCursor.continue();
  }
  let cpCursor = await tx.objectStore('checkpoints').openCursor();
  while (cpCursor) {
    const record = cpCursor.value;
    if (record.sums === undefined) await cpCursor.update({ ...record, sums: partSums(record.parts) });
    cpCursor = await cpCursor.continue();
  }
}

/**
 * Opens database `dbName` at {@link DB_VERSION}, creating or upgrading it.
 * @throws the failure of the upgrade step (the upgrade is aborted), or the open request's error
 *   (a `VersionError` when the stored database is newer); raw, the caller maps it.
 */
export function openDatabase(factory: IDBFactory, dbName: string): Promise<IDBPDatabase<JevMemDBSchema>> {
  const request = factory.open(dbName, DB_VERSION);
  let upgradeFailure: unknown;
  request.addEventListener('upgradeneeded', (event) => {
    const db = wrap(request.result) as unknown as IDBPDatabase<JevMemDBSchema>;
    const tx = wrap(request.transaction as IDBTransaction) as unknown as AnyTx;
    tx.done.catch(() => undefined); // an abort is reported through the open request
    upgradeSchema(db, tx, event.oldVersion).catch((cause: unknown) => {
      upgradeFailure = cause;
      try {
        request.transaction?.abort();
      } catch {
        // already finished
      }
    });
  });
  return (wrap(request) as unknown as Promise<IDBPDatabase<JevMemDBSchema>>).catch((cause: unknown) => {
    throw upgradeFailure ?? cause;
  });
}
