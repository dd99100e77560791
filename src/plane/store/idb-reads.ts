/**
 * Reads of the IndexedDB store: whole-namespace `load`, `loadMeta`, `getNodes` / `getEdges` by
 * id, `scanNodes` / `scanEdges` in batches (key-range continuation), `counts`, and `damaged`.
 * Every node record read is checked against its checksum; a damaged one is skipped and named
 * (`store-damage.ts`). Failures map to the adapter's errors (`idb-errors.ts`).
 *
 * @module
 */
import { invalidInput } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import type { DamageLog } from './checksum.js';
import { guarded, nsText, storageError } from './idb-errors.js';
import { type NodeRecord, decodeAdjacency, fromNodeRecord, nodeRecordSound } from './idb-records.js';
import { type LiveDb, chunksOf, namespaceRange } from './idb-schema.js';
import { emptyNamespaceState, toSnapshot } from './memory-storage.js';
import { checkExistingNamespaceName } from './names.js';
import { soundNodes, verifyDamage } from './store-damage.js';
import type { NamespaceCounts, StorageAdapter } from './storage.js';

/** The read methods of an adapter. */
export type ReadMethods = Required<Pick<StorageAdapter, 'load' | 'loadMeta' | 'getNodes' | 'getEdges' | 'scanNodes' | 'scanEdges' | 'counts' | 'damaged'>>;

/** A batch size as asked: a number ≥ 1, capped at a million, whole. @throws JevMemError `INVALID_INPUT` (field `batchSize`). */
function checkBatchSize(batchSize: number): number {
  if (typeof batchSize !== 'number' || !(batchSize >= 1)) throw invalidInput('batchSize', `expected a number ≥ 1, got ${String(batchSize)}`);
  return Math.floor(Math.min(batchSize, 1e6));
}

/** Re-batches what `produce` yields into batches of `size` (the last one shorter), mapping failures to the adapter's errors. */
async function* scan<T>(what: string, produce: () => AsyncGenerator<T[]>, size: number): AsyncGenerator<T[]> {
  let pending: T[] = [];
  const source = produce();
  for (;;) {
    let next: IteratorResult<T[]>;
    try {
      next = await source.next();
    } catch (cause) {
      throw storageError(what, cause);
    }
    if (next.done) break;
    pending = pending.concat(next.value);
    while (pending.length >= size) yield pending.splice(0, size);
  }
  if (pending.length > 0) yield pending;
}

/**
 * The read methods over the database `live`. Damaged node records met are kept in `damage`;
 * `damaged` reads every record of a namespace once per connection, and its checkpoint through
 * `readCheckpoint`.
 */
export function idbReadMethods(live: LiveDb, damage: DamageLog, readCheckpoint: (namespace: string) => Promise<unknown>): ReadMethods {
  /** The nodes of stored records, checked and decoded; a damaged record is left out and logged. */
  const nodesOf = (namespace: string, records: Array<NodeRecord | undefined>, ids?: readonly string[]): MemoryNode[] =>
    soundNodes(damage, namespace, records, {
      id: (r, i) => (typeof r.id === 'string' ? r.id : String(ids?.[i] ?? r.id)),
      sound: nodeRecordSound,
      decode: (r) => fromNodeRecord(namespace, r),
    });

  async function* nodeBatches(namespace: string, size: number): AsyncGenerator<MemoryNode[]> {
    for await (const { keys, values } of chunksOf(live, 'node', namespace, size)) {
      const nodes = nodesOf(namespace, values, keys.map((k) => k[1]));
      if (nodes.length > 0) yield nodes;
    }
  }

  async function* edgeBatches(namespace: string, size: number): AsyncGenerator<MemoryEdge[]> {
    // An adjacency record holds ~2 × 17 entries: read about size/16 records per step.
    for await (const { keys, values } of chunksOf(live, 'adj', namespace, Math.max(1, Math.ceil(size / 16)))) {
      const edges: MemoryEdge[] = [];
      keys.forEach((key, i) => edges.push(...decodeAdjacency(namespace, key[1], values[i]).out.values()));
      yield edges;
    }
  }

  return {
    async load(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`load namespace ${nsText(namespace)}`, async () => {
        const range = namespaceRange(namespace);
        const tx = live().transaction(['node', 'adj', 'meta'], 'readonly');
        const [nodes, adjKeys, adjValues, meta] = await Promise.all([
          tx.objectStore('node').getAll(range),
          tx.objectStore('adj').getAllKeys(range),
          tx.objectStore('adj').getAll(range),
          tx.objectStore('meta').getAll(range),
          tx.done,
        ]);
        const state = emptyNamespaceState();
        for (const n of nodesOf(namespace, nodes)) state.nodes.set(n.id, n);
        adjKeys.forEach((key, i) => {
          for (const e of decodeAdjacency(namespace, key[1], adjValues[i]).out.values()) state.edges.set(e.id, e);
        });
        for (const m of meta) state.meta.set(m.key, m.value);
        return toSnapshot(state);
      });
    },

    async loadMeta(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`load the meta of namespace ${nsText(namespace)}`, async () => {
        const records = await live().getAll('meta', namespaceRange(namespace));
        const meta: Record<string, unknown> = {};
        for (const m of records) meta[m.key] = m.value; // keys come sorted (the key order of strings)
        return meta;
      });
    },

    async getNodes(namespace, ids) {
      checkExistingNamespaceName(namespace);
      if (ids.length === 0) return [];
      return guarded(`read nodes of namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction('node', 'readonly');
        const store = tx.objectStore('node');
        const [records] = await Promise.all([Promise.all(ids.map((id) => store.get([namespace, id]))), tx.done]);
        return nodesOf(namespace, records, ids);
      });
    },

    async getEdges(namespace, nodeIds, filter) {
      checkExistingNamespaceName(namespace);
      if (nodeIds.length === 0) return [];
      return guarded(`read edges of namespace ${nsText(namespace)}`, async () => {
        const unique = [...new Set(nodeIds)];
        const tx = live().transaction('adj', 'readonly');
        const store = tx.objectStore('adj');
        const [records] = await Promise.all([Promise.all(unique.map((id) => store.get([namespace, id]))), tx.done]);
        const edges = new Map<string, MemoryEdge>();
        unique.forEach((id, i) => {
          const record = records[i];
          if (record === undefined) return;
          const a = decodeAdjacency(namespace, id, record);
          // One adjacency record per node holds all its edges: the filter saves decoding work only.
          for (const e of a.out.values()) if (filter?.subtype === undefined || e.subtype === filter.subtype) edges.set(e.id, e);
          for (const e of a.in.values()) if (filter?.subtype === undefined || e.subtype === filter.subtype) edges.set(e.id, e);
        });
        return [...edges.values()];
      });
    },

    scanNodes(namespace, batchSize) {
      checkExistingNamespaceName(namespace);
      const size = checkBatchSize(batchSize);
      return scan(`scan nodes of namespace ${nsText(namespace)}`, () => nodeBatches(namespace, size), size);
    },

    scanEdges(namespace, batchSize) {
      checkExistingNamespaceName(namespace);
      const size = checkBatchSize(batchSize);
      return scan(`scan edges of namespace ${nsText(namespace)}`, () => edgeBatches(namespace, size), size);
    },

    async counts(namespace): Promise<NamespaceCounts> {
      checkExistingNamespaceName(namespace);
      return guarded(`count namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(['node', 'spaces'], 'readonly');
        const [nodes, space] = await Promise.all([tx.objectStore('node').count(namespaceRange(namespace)), tx.objectStore('spaces').get(namespace), tx.done]);
        return { nodes, edges: space?.edges ?? 0, edgesByView: { ...(space?.byView ?? {}) } };
      });
    },

    async damaged(namespace) {
      checkExistingNamespaceName(namespace);
      // nodeBatches checks every record and logs the damaged ones
      return verifyDamage(damage, namespace, () => nodeBatches(namespace, 500), () => readCheckpoint(namespace));
    },
  };
}
