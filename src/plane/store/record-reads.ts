/**
 * Reads of the record store: whole-namespace `load`, `loadMeta`, `getNodes` / `getEdges` by id,
 * `scanNodes` / `scanEdges` in batches (key-range continuation, one short transaction per
 * batch), `counts` (the kept counters, O(1), issue 25) and `damaged` (O(1) with `scan: false`,
 * issue 25). Every node record read is checked against its checksum; a damaged one is skipped
 * and named (`store-damage.ts`).
 *
 * @module
 */
import { invalidInput } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { ONE, type RecordDriver, type RecordKey, type RecordTx } from '../drivers/record-driver.js';
import type { DamageLog } from './checksum.js';
import type { AdjacencyRecord } from './record-adjacency.js';
import { emptyNamespaceState, toSnapshot } from './record-batch.js';
import { type NodeRecord, type SpaceRecord, fromNodeRecord, nodeRecordSound } from './record-codec.js';
import { type StoreWords, guarded, nsText, storageError } from './record-errors.js';
import { adjacencyOrDamage, edgesAtOtherEnds, scanOtherRecords } from './record-screen.js';
import { damagedMethod, soundNodes } from './store-damage.js';
import type { NamespaceCounts, StorageAdapter } from './storage.js';

/** The read methods of a store. */
export type ReadMethods = Pick<StorageAdapter, 'load' | 'loadMeta' | 'getNodes' | 'getEdges' | 'scanNodes' | 'scanEdges' | 'counts' | 'damaged'>;

/** A batch size as asked: a number ≥ 1, capped at a million, whole. @throws JevMemError `INVALID_INPUT` (field `batchSize`). */
function checkBatchSize(batchSize: number): number {
  if (typeof batchSize !== 'number' || !(batchSize >= 1)) throw invalidInput('batchSize', `expected a number ≥ 1, got ${String(batchSize)}`);
  return Math.floor(Math.min(batchSize, 1e6));
}

/**
 * The read methods over `driver`. Damaged node records met are kept in `damage`; `damaged`
 * reads every record of a namespace once per connection, and its checkpoint through
 * `readCheckpoint`, and compares the records it reached with the kept node counter
 * (`DamageReport.unreadable`); `damaged(ns, { scan: false })` answers what is known without
 * that pass (`store-damage.ts` {@link damagedMethod}).
 */
export function readMethods(driver: RecordDriver, damage: DamageLog, words: StoreWords, readCheckpoint: (namespace: string) => Promise<unknown>): ReadMethods {
  /** The nodes of stored records, checked and decoded; a damaged record is left out and logged. */
  const nodesOf = (namespace: string, records: ReadonlyArray<NodeRecord | undefined>, ids: readonly RecordKey[]): MemoryNode[] =>
    soundNodes(damage, namespace, records, {
      id: (r, i) => (typeof r.id === 'string' ? r.id : String(ids[i] ?? r.id)),
      sound: nodeRecordSound,
      decode: (r) => fromNodeRecord(namespace, r),
    });

  /** Re-batches records of `table` read in chunks of `chunk` into batches of `size` (the last one shorter). */
  async function* scan<T>(what: string, table: 'node' | 'adj', namespace: string, chunk: number, size: number, decode: (keys: RecordKey[], values: unknown[]) => T[]): AsyncGenerator<T[]> {
    let pending: T[] = [];
    let after: RecordKey | undefined;
    for (;;) {
      let rows;
      try {
        rows = await driver.transaction([table], 'read', (tx) => tx.scan(table, namespace, after, chunk));
        pending = pending.concat(decode(rows.map((r) => r[0]), rows.map((r) => r[1])));
      } catch (cause) {
        throw storageError(words, what, cause);
      }
      if (rows.length === 0) break;
      while (pending.length >= size) yield pending.splice(0, size);
      if (rows.length < chunk) break;
      after = (rows[rows.length - 1] as readonly [RecordKey, unknown])[0];
    }
    if (pending.length > 0) yield pending;
  }

  const nodeBatches = (namespace: string, size: number): AsyncGenerator<MemoryNode[]> =>
    scan(`scan nodes of namespace ${nsText(namespace)}`, 'node', namespace, size, size, (keys, values) => nodesOf(namespace, values as NodeRecord[], keys));

  /**
   * The edges of adjacency records: each record's out-entries, and the in-entries whose other end
   * has a damaged adjacency record (its out-entries are lost there; this end still holds them).
   */
  const edgesOf = (namespace: string, keys: RecordKey[], values: unknown[]): MemoryEdge[] => {
    const decoded = keys.map((key, i) => adjacencyOrDamage(damage, namespace, String(key), values[i] as AdjacencyRecord));
    const out: MemoryEdge[] = [];
    for (const a of decoded) for (const e of a.out.values()) out.push(e);
    if (damage.records(namespace).length > 0) for (const a of decoded) for (const e of a.in.values()) if (damage.hasRecord(namespace, 'adj', e.from)) out.push(e);
    return out;
  };

  const spaceOf = async (tx: RecordTx, namespace: string): Promise<Partial<SpaceRecord> | undefined> => (await tx.get('spaces', namespace, ONE)) as Partial<SpaceRecord> | undefined;

  return {
    async load(namespace) {
      return guarded(words, `load namespace ${nsText(namespace)}`, async () => {
        const [nodes, adj, meta] = await driver.transaction(['node', 'adj', 'meta'], 'read', (tx) =>
          Promise.all([tx.scan('node', namespace, undefined, Infinity), tx.scan('adj', namespace, undefined, Infinity), tx.scan('meta', namespace, undefined, Infinity)]),
        );
        const state = emptyNamespaceState();
        for (const n of nodesOf(namespace, nodes.map((r) => r[1] as NodeRecord), nodes.map((r) => r[0]))) state.nodes.set(n.id, n);
        for (const e of edgesOf(namespace, adj.map((r) => r[0]), adj.map((r) => r[1]))) state.edges.set(e.id, e);
        for (const [key, value] of meta) state.meta.set(String(key), value);
        return toSnapshot(state);
      });
    },

    async loadMeta(namespace) {
      return guarded(words, `load the meta of namespace ${nsText(namespace)}`, async () => {
        const records = await driver.transaction(['meta'], 'read', (tx) => tx.scan('meta', namespace, undefined, Infinity));
        const meta: Record<string, unknown> = {};
        for (const [key, value] of records) meta[String(key)] = value; // keys come sorted
        return meta;
      });
    },

    async getNodes(namespace, ids) {
      if (ids.length === 0) return [];
      return guarded(words, `read nodes of namespace ${nsText(namespace)}`, async () => {
        const records = await driver.transaction(['node'], 'read', (tx) => Promise.all(ids.map((id) => tx.get('node', namespace, id))));
        return nodesOf(namespace, records as Array<NodeRecord | undefined>, ids);
      });
    },

    async getEdges(namespace, nodeIds, filter) {
      if (nodeIds.length === 0) return [];
      return guarded(words, `read edges of namespace ${nsText(namespace)}`, async () => {
        const unique = [...new Set(nodeIds)];
        const records = await driver.transaction(['adj'], 'read', (tx) => Promise.all(unique.map((id) => tx.get('adj', namespace, id))));
        const edges = new Map<string, MemoryEdge>();
        const subtype = filter?.subtype;
        unique.forEach((id, i) => {
          const record = records[i] as AdjacencyRecord | undefined;
          if (record === undefined) return;
          const a = adjacencyOrDamage(damage, namespace, id, record, subtype);
          // One adjacency record per node holds all its edges: the filter saves decoding work only
          // (decodeAdjacency skips the entries of other subtypes).
          for (const e of a.out.values()) if (subtype === undefined || e.subtype === subtype) edges.set(e.id, e);
          for (const e of a.in.values()) if (subtype === undefined || e.subtype === subtype) edges.set(e.id, e);
        });
        // A node whose adjacency record is damaged: its edges are read from their other ends.
        const lost = new Set(damage.records(namespace).length === 0 ? [] : unique.filter((id) => damage.hasRecord(namespace, 'adj', id)));
        if (lost.size > 0) for (const e of await edgesAtOtherEnds(driver, damage, namespace, lost, subtype)) edges.set(e.id, e);
        return [...edges.values()];
      });
    },

    scanNodes(namespace, batchSize) {
      const size = checkBatchSize(batchSize);
      return nodeBatches(namespace, size);
    },

    scanEdges(namespace, batchSize) {
      const size = checkBatchSize(batchSize);
      // An adjacency record holds ~2 × 17 entries: read about size/16 records per step.
      return scan(`scan edges of namespace ${nsText(namespace)}`, 'adj', namespace, Math.max(1, Math.ceil(size / 16)), size, (keys, values) => edgesOf(namespace, keys, values));
    },

    async counts(namespace): Promise<NamespaceCounts> {
      return guarded(words, `count namespace ${nsText(namespace)}`, async () => {
        const space = await driver.transaction(['spaces'], 'read', (tx) => spaceOf(tx, namespace));
        return { nodes: space?.nodes ?? 0, edges: space?.edges ?? 0, edgesByView: { ...(space?.byView ?? {}) } };
      });
    },

    damaged: damagedMethod(damage, {
      // nodeBatches checks every record and logs the damaged ones
      scanNodes: (namespace) => nodeBatches(namespace, 500),
      readCheckpoint,
      scanOthers: (namespace) => guarded(words, `read the records of namespace ${nsText(namespace)}`, () => scanOtherRecords(driver, damage, namespace)),
      keptNodes: (namespace) =>
        guarded(words, `count namespace ${nsText(namespace)}`, async () => {
          const space = await driver.transaction(['spaces'], 'read', (tx) => spaceOf(tx, namespace));
          return typeof space?.nodes === 'number' ? space.nodes : undefined;
        }),
    }),
  };
}
