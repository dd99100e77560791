/**
 * Damage stays local for every record kind (issue 22): the record store reads its driver through
 * {@link screenedDriver}, which takes the {@link DamagedRecord}s a driver answers (a record whose
 * stored bytes fail their seal or do not decode: `record-sql-codec.ts`) out of every read, logs
 * and names each one (`DamageLog.record`, `stats().damaged`, `jev-mem check`), and answers
 * instead what the store can stand on:
 * - adjacency (`adj`), edge ids (`edge-ids`), meta (`meta`): as absent (the node keeps its other
 *   edges on the other side's records; a lost meta key reads as never written, so a lost
 *   `schemaVersion` is version 1, this build's);
 * - the bookkeeping (`spaces`): counted again from the records ({@link recount}) with the
 *   change-log floor raised past every stored change, so the next open rebuilds the checkpoint
 *   from the rows; the next commit writes the counted record back (repaired);
 * - a change list (`changes`): kept as the marker, which `changesSince` answers as a log that
 *   is not whole (the checkpoint is rebuilt from the rows).
 * Node records and checkpoints pass as they are: their readers check their own sums.
 *
 * An adjacency record from before the seal that does not decode is named the same way
 * ({@link adjacencyOrDamage}).
 *
 * @module
 */
import type { EdgeSubtype, MemoryEdge } from '../../types.js';
import { ONE, RECORD_TABLES, type KeyedRecord, type RecordDriver, type RecordKey, type RecordTable, type RecordTx, isDamagedRecord } from '../drivers/record-driver.js';
import type { DamageLog } from './checksum.js';
import { type Adjacency, type AdjacencyRecord, decodeAdjacency } from './record-adjacency.js';
import { type SpaceRecord, emptySpace } from './record-codec.js';
import { measure, recordBytes } from './record-counters.js';

/** Records read per step when counting again. */
const STEP = 500;

/**
 * The adjacency `record` of `node` packs, or none when it does not decode (a record written
 * before the seal, with a changed byte): then it is logged in `damage` and read as empty.
 */
export function adjacencyOrDamage(damage: DamageLog, namespace: string, node: string, record: AdjacencyRecord | undefined, subtype?: EdgeSubtype): Adjacency {
  try {
    return decodeAdjacency(namespace, node, record, subtype);
  } catch {
    damage.record(namespace, 'adj', node);
    return { out: new Map(), in: new Map() };
  }
}

/** Every record of `(table, namespace)` through `tx`, in steps. */
async function* all(tx: RecordTx, table: RecordTable, namespace: string): AsyncGenerator<KeyedRecord> {
  let after: RecordKey | undefined;
  for (;;) {
    const rows = await tx.scan(table, namespace, after, STEP);
    yield* rows;
    if (rows.length < STEP) return;
    after = (rows[rows.length - 1] as KeyedRecord)[0];
  }
}

/**
 * The bookkeeping of `namespace` counted from its records through `tx` (a screened one: damaged
 * records are left out): nodes and bytes (`record-counters.ts` {@link measure}), edges per view
 * from the adjacency records' out-entries, explicit edge ids, the checkpoint's bytes, and the
 * change-log floor past every stored change (the log is not trusted whole).
 */
export async function recount(tx: RecordTx, damage: DamageLog, namespace: string): Promise<SpaceRecord> {
  const space = emptySpace();
  const tally = await measure(tx, namespace);
  space.nodes = tally.nodes;
  space.bytes = tally.bytes;
  const count = (e: MemoryEdge): void => {
    space.edges++;
    space.byView[e.view] = (space.byView[e.view] ?? 0) + 1;
  };
  for await (const [key, value] of all(tx, 'adj', namespace)) for (const e of adjacencyOrDamage(damage, namespace, String(key), value as AdjacencyRecord).out.values()) count(e);
  // The edges of a damaged adjacency record, from the in-entries at their other ends.
  if (damage.records(namespace).some((r) => r.startsWith('adj:'))) {
    for await (const [key, value] of all(tx, 'adj', namespace)) {
      for (const e of adjacencyOrDamage(damage, namespace, String(key), value as AdjacencyRecord).in.values()) if (e.from !== String(key) && damage.hasRecord(namespace, 'adj', e.from)) count(e);
    }
  }
  for await (const _ of all(tx, 'edge-ids', namespace)) space.explicit++;
  for await (const [key] of all(tx, 'changes', namespace)) if (typeof key === 'number') space.floor = Math.max(space.floor, key);
  const checkpoint = await tx.get('checkpoints', namespace, ONE);
  if (checkpoint !== undefined) space.checkpointBytes = recordBytes(namespace, ONE, checkpoint);
  return space;
}

/**
 * Bookkeeping records counted again by a screen, each with the count to run once more at the end
 * of a write transaction: its first count may have seen some of the transaction's own writes.
 */
const RECOUNTED = new WeakMap<object, () => Promise<SpaceRecord>>();

/**
 * For a bookkeeping record the screen counted again (the stored one was damaged), the count of
 * the namespace as the transaction leaves it, to put instead of the record plus the
 * transaction's tally; undefined for a record read as stored.
 */
export function countAgain(space: object): (() => Promise<SpaceRecord>) | undefined {
  return RECOUNTED.get(space);
}

/** The bookkeeping counted again through `tx`, marked for {@link countAgain}. */
async function recounted(tx: RecordTx, damage: DamageLog, namespace: string): Promise<SpaceRecord> {
  const space = await recount(tx, damage, namespace);
  RECOUNTED.set(space, () => recount(tx, damage, namespace));
  return space;
}

/** `tx` with its damaged records taken out of its reads (see the module). */
function screenedTx(tx: RecordTx, damage: DamageLog): RecordTx {
  const screened: RecordTx = {
    async get(table, namespace, key) {
      const value = await tx.get(table, namespace, key);
      if (!isDamagedRecord(value)) return value;
      damage.record(namespace, table, key);
      if (table === 'changes') return value;
      if (table === 'spaces') return recounted(screened, damage, namespace);
      return undefined;
    },
    async scan(table, namespace, after, limit) {
      let asked = limit;
      let rows = await tx.scan(table, namespace, after, asked);
      if (!rows.some((r) => isDamagedRecord(r[1]))) return rows;
      const out: KeyedRecord[] = [];
      // A damaged record taken out leaves the answer short of `limit`, which every caller reads as
      // the end of the table: the scan reads on past it until `limit` records or the end, so the
      // records after a damaged one are not lost (repair kept only the edges before it).
      for (;;) {
        for (const [key, value] of rows) {
          if (!isDamagedRecord(value)) out.push([key, value]);
          else {
            damage.record(namespace, table, key);
            if (table === 'changes') out.push([key, value]);
            else if (table === 'spaces') out.push([key, await recounted(screened, damage, namespace)]);
          }
        }
        if (rows.length < asked || out.length >= limit) return out;
        after = (rows[rows.length - 1] as KeyedRecord)[0];
        asked = limit - out.length;
        rows = await tx.scan(table, namespace, after, asked);
      }
    },
    put: (table, namespace, key, value) => {
      tx.put(table, namespace, key, value);
      // A record written again is sound; the bookkeeping is one record per namespace.
      damage.rewritten(namespace, table, key);
    },
    delete: (table, namespace, key) => {
      tx.delete(table, namespace, key);
      damage.rewritten(namespace, table, key);
    },
    deleteRange: (table, namespace, upTo) => tx.deleteRange(table, namespace, upTo),
    namespaces: (table) => tx.namespaces(table),
  };
  return screened;
}

/**
 * `driver` with every transaction's reads screened for damaged records (see the module). A
 * transaction over the bookkeeping (`spaces`) spans every table: a damaged bookkeeping record is
 * counted again from the others inside it (an IndexedDB transaction reaches only its own stores).
 */
export function screenedDriver(driver: RecordDriver, damage: DamageLog): RecordDriver {
  return {
    transaction: (tables, mode, work) => driver.transaction(tables.includes('spaces') ? RECORD_TABLES : tables, mode, (tx) => work(screenedTx(tx, damage))),
    close: () => driver.close(),
  };
}

/**
 * The edges touching the nodes `lost` (whose adjacency records are damaged), read from the
 * adjacency records at their other ends: every other adjacency record of the namespace is read
 * once through `driver` (a screened one), so this costs a pass over the namespace's edges; the
 * store asks it only while such damage is known (until repair rewrites the records). A self-loop
 * of a lost node is kept on its record only, and is lost with it. With `subtype`, only edges of
 * that subtype.
 */
export async function edgesAtOtherEnds(driver: RecordDriver, damage: DamageLog, namespace: string, lost: ReadonlySet<string>, subtype?: EdgeSubtype): Promise<MemoryEdge[]> {
  const found: MemoryEdge[] = [];
  await driver.transaction(['adj'], 'read', async (tx) => {
    for await (const [key, value] of all(tx, 'adj', namespace)) {
      if (lost.has(String(key))) continue;
      const a = adjacencyOrDamage(damage, namespace, String(key), value as AdjacencyRecord, subtype);
      for (const side of [a.out, a.in]) for (const e of side.values()) if ((lost.has(e.from) || lost.has(e.to)) && (subtype === undefined || e.subtype === subtype)) found.push(e);
    }
  });
  return found;
}

/**
 * Reads every record of the tables a node pass does not reach (adjacency, edge ids, meta, the
 * change log, the bookkeeping) through `driver` (a screened one), so the damaged ones are logged.
 */
export async function scanOtherRecords(driver: RecordDriver, damage: DamageLog, namespace: string): Promise<void> {
  await driver.transaction(['adj', 'edge-ids', 'meta', 'changes', 'spaces'], 'read', async (tx) => {
    for (const table of ['edge-ids', 'meta', 'changes', 'spaces'] as const) for await (const _ of all(tx, table, namespace)) void _;
    for await (const [key, value] of all(tx, 'adj', namespace)) adjacencyOrDamage(damage, namespace, String(key), value as AdjacencyRecord);
  });
}
