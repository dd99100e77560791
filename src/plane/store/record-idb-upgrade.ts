/**
 * The data steps that bring an IndexedDB database written by earlier versions of jev-mem to
 * {@link IDB_VERSION}, run by the IndexedDB record driver inside the version-change transaction
 * (so a failed step leaves the database as it was):
 * - 1 → 2: every node record to its compact form (vector as bytes), every edge into the
 *   adjacency records of its ends (in chunks, so memory stays bounded), the change-log floor of
 *   each namespace from its `change` meta key; the version-1 `nodes` and `edges` stores removed;
 * - 2 → 3: the checksum of every node record and checkpoint part (issue 22);
 * - 3 → 4: the kept counters of every namespace (`spaces.nodes`, `spaces.bytes`,
 *   `spaces.checkpointBytes`: the one record store's O(1) counts and size, issue 22 / 25),
 *   counted once here;
 * - 4 → 5: no data step: the values of the tables but `node` and `checkpoints` are sealed with
 *   their CRC-32 as they are next put (`../drivers/record-idb-seal.ts`); a value from before is
 *   trusted as it is. The version is raised so that a build of version 4, which would read a
 *   sealed value as a broken record, refuses the database (`SCHEMA_MISMATCH`) instead.
 * Steps never drop user data.
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { ONE } from '../drivers/record-driver.js';
import { type RawDb, type RawTx, firstFailure, idbRecordTx } from '../drivers/record-idb.js';
import { partSums, spaceOf } from './record-checkpoint.js';
import { type CheckpointRecord, type NodeRecord, nodeRecordSum, toNodeRecord } from './record-codec.js';
import { SIZED_TABLES, measure, recordBytes } from './record-counters.js';
import { applyEdges } from './record-edges.js';
import { CHANGE_META_KEY } from './storage.js';

/**
 * Schema version of the IndexedDB database. 1: one JSON-like record per node and per edge;
 * 2: compact nodes, adjacency records, change log, checkpoints (issue 13); 3: a checksum on every
 * node record (`sum`) and checkpoint part (`sums`) (issue 22); 4: the kept counters in `spaces`
 * (node records, bytes; issue 22, the one record store; issue 25, O(1) counts and size); 5: the
 * values of `adj`, `edge-ids`, `meta`, `changes` and `spaces` sealed with their CRC-32 when
 * written (issue 22, damage stays local for every record).
 */
export const IDB_VERSION = 5;

/** Awaits the write requests issued so far; throws the first real failure. */
async function flush(ops: Promise<unknown>[]): Promise<void> {
  const failure = firstFailure(await Promise.allSettled(ops.splice(0)));
  if (failure !== undefined) throw failure;
}

/** Version 1 → 2 (see the module). */
async function migrateFromV1(db: RawDb, tx: RawTx, ops: Promise<unknown>[]): Promise<void> {
  const records = idbRecordTx(tx, ops);
  try {
    let nodeCursor = await tx.objectStore('nodes').openCursor();
    while (nodeCursor) {
      const n = nodeCursor.value as MemoryNode;
      records.put('node', n.namespace, n.id, toNodeRecord(n));
      if (ops.length >= 1000) await flush(ops);
      nodeCursor = await nodeCursor.continue();
    }
    await flush(ops);
    const CHUNK = 2000;
    let chunk: MemoryEdge[] = [];
    const applyChunk = async (): Promise<void> => {
      const first = chunk[0];
      if (first === undefined) return;
      const space = await spaceOf(records, first.namespace);
      await applyEdges(records, first.namespace, space, [], chunk);
      records.put('spaces', first.namespace, ONE, space);
      chunk = [];
      await flush(ops);
    };
    let edgeCursor = await tx.objectStore('edges').openCursor();
    while (edgeCursor) {
      const e = edgeCursor.value as MemoryEdge;
      if (chunk.length >= CHUNK || (chunk.length > 0 && chunk[0]!.namespace !== e.namespace)) await applyChunk();
      chunk.push(e);
      edgeCursor = await edgeCursor.continue();
    }
    await applyChunk();
    let metaCursor = await tx.objectStore('meta').openCursor();
    while (metaCursor) {
      const { namespace, key, value } = metaCursor.value as { namespace: string; key: string; value: unknown };
      if (key === CHANGE_META_KEY && typeof value === 'number' && value > 0) {
        const space = await spaceOf(records, namespace);
        space.floor = value;
        records.put('spaces', namespace, ONE, space);
        await flush(ops);
      }
      metaCursor = await metaCursor.continue();
    }
  } catch (cause) {
    for (const op of ops) op.catch(() => undefined); // the abort that follows rejects them
    throw cause;
  }
  db.deleteObjectStore('nodes');
  db.deleteObjectStore('edges');
}

/** Version 2 → 3: the checksum of every node record and checkpoint part, from the records as they are. */
async function addSums(tx: RawTx): Promise<void> {
  let nodeCursor = await tx.objectStore('node').openCursor();
  while (nodeCursor) {
    const record = nodeCursor.value as NodeRecord;
    if (record.sum === undefined) await nodeCursor.update!({ ...record, sum: nodeRecordSum(record) });
    nodeCursor = await nodeCursor.continue();
  }
  let cpCursor = await tx.objectStore('checkpoints').openCursor();
  while (cpCursor) {
    const record = cpCursor.value as CheckpointRecord;
    if (record.sums === undefined) await cpCursor.update!({ ...record, sums: partSums(record.parts) });
    cpCursor = await cpCursor.continue();
  }
}

/**
 * Version 3 → 4: the kept counters of every namespace that has records or bookkeeping: its node
 * records and the estimated bytes of its records and checkpoint (`record-counters.ts`
 * `measure`), read once here.
 */
async function addCounters(tx: RawTx, ops: Promise<unknown>[]): Promise<void> {
  const records = idbRecordTx(tx, ops);
  const namespaces = new Set<string>();
  for (const table of [...SIZED_TABLES, 'checkpoints', 'spaces'] as const) for (const ns of await records.namespaces(table)) namespaces.add(ns);
  for (const namespace of namespaces) {
    const space = await spaceOf(records, namespace);
    const counted = await measure(records, namespace);
    space.nodes = counted.nodes;
    space.bytes = counted.bytes;
    const checkpoint = await records.get('checkpoints', namespace, ONE);
    space.checkpointBytes = checkpoint === undefined ? 0 : recordBytes(namespace, ONE, checkpoint);
    records.put('spaces', namespace, ONE, space);
  }
  await flush(ops);
}

/** Runs the data steps from `oldVersion` to {@link IDB_VERSION} in the version-change transaction `tx`. */
export async function upgradeRecords(db: RawDb, tx: RawTx, oldVersion: number): Promise<void> {
  if (oldVersion < 1) return; // a new database: the driver created the stores, nothing to rewrite
  const ops: Promise<unknown>[] = [];
  if (oldVersion < 2) await migrateFromV1(db, tx, ops);
  if (oldVersion < 3) await addSums(tx);
  if (oldVersion < 4) await addCounters(tx, ops);
}
