/**
 * The commit of a {@link WriteBatch} to the IndexedDB store: the checks before anything is
 * written (batch shape, damaged namespace, change number, name rule of a new namespace), then ONE
 * read-write transaction over the stores the batch touches, holding its node, meta, change-log,
 * edge and checkpoint changes; any failure aborts the whole batch. SPEC 3, 4.6.
 *
 * @module
 */
import type { IDBPTransaction } from 'idb';
import { invalidInput } from '../../errors.js';
import type { DamageLog } from './checksum.js';
import { checkpointRecord, putCheckpoint } from './idb-checkpoint.js';
import { applyEdges } from './idb-edges.js';
import { guarded, nsText, settleWrite } from './idb-errors.js';
import { toNodeRecord } from './idb-records.js';
import { type AnyTx, type JevMemDBSchema, type LiveDb, type Store, namespaceRange } from './idb-schema.js';
import { changedNodeIds, validateBatch } from './memory-storage.js';
import { checkNamespaceName, namespaceNameProblem } from './names.js';
import { refuseDamagedWrite } from './store-damage.js';
import type { StorageAdapter, WriteBatch } from './storage.js';

/** Issues the requests of one batch in `tx` (see {@link applyEdges}); awaits only requests of `tx`. */
async function writeBatch(tx: AnyTx, namespace: string, batch: WriteBatch, ops: Promise<unknown>[]): Promise<void> {
  if ((batch.deleteNodeIds?.length ?? 0) + (batch.putNodes?.length ?? 0) > 0) {
    const nodes = tx.objectStore('node');
    for (const id of batch.deleteNodeIds ?? []) ops.push(nodes.delete([namespace, id]));
    for (const node of batch.putNodes ?? []) ops.push(nodes.put(toNodeRecord(node), [namespace, node.id]));
  }
  const metaEntries = Object.entries(batch.meta ?? {}).filter(([, v]) => v !== undefined);
  if (metaEntries.length > 0) {
    const meta = tx.objectStore('meta');
    for (const [key, value] of metaEntries) ops.push(value === null ? meta.delete([namespace, key]) : meta.put({ namespace, key, value }));
  }
  if (batch.change !== undefined) ops.push(tx.objectStore('changes').put(changedNodeIds(batch), [namespace, batch.change]));
  await applyEdges(tx, namespace, batch.deleteEdgeIds ?? [], batch.putEdges ?? [], ops);
  // The checkpoint change of the batch (issue 22): in the same transaction as the node changes.
  if (batch.checkpoint === null) ops.push(tx.objectStore('checkpoints').delete(namespace));
  else if (batch.checkpoint !== undefined) await putCheckpoint(tx, namespace, checkpointRecord(batch.checkpoint), ops);
}

/** The stores a batch writes (a commit's transaction covers these only). */
function storesOf(batch: WriteBatch): Store[] {
  const stores: Store[] = [];
  if ((batch.deleteNodeIds?.length ?? 0) + (batch.putNodes?.length ?? 0) > 0) stores.push('node');
  if ((batch.deleteEdgeIds?.length ?? 0) + (batch.putEdges?.length ?? 0) > 0) stores.push('adj', 'edge-ids', 'spaces');
  if (Object.values(batch.meta ?? {}).some((v) => v !== undefined)) stores.push('meta');
  if (batch.change !== undefined || batch.checkpoint !== undefined) stores.push('changes');
  if (batch.checkpoint !== undefined) stores.push('checkpoints', 'spaces');
  return [...new Set(stores)];
}

/**
 * The `commit` of an adapter over the database `live`. Refuses puts into a namespace whose
 * damaged records `damage` knows (`STORE_DAMAGED`), and forgets the damage of the nodes a commit
 * deletes. Throws `INVALID_INPUT` (batch, change number, the name of a new namespace),
 * `QUOTA_EXCEEDED`, `STORAGE_FAILED`, `CLOSED`; nothing is written when it throws.
 */
export function idbCommit(live: LiveDb, damage: DamageLog): StorageAdapter['commit'] {
  /** True when the store holds a node or a meta key of `namespace`. */
  const holds = (namespace: string): Promise<boolean> =>
    guarded(`read namespace ${nsText(namespace)}`, async () => {
      const range = namespaceRange(namespace);
      const [nodes, meta] = await Promise.all([live().count('node', range), live().count('meta', range)]);
      return nodes + meta > 0;
    });

  return async (namespace, batch) => {
    validateBatch(namespace, batch);
    refuseDamagedWrite(damage, namespace, batch, {
      store: 'IndexedDB',
      namespace: nsText(namespace),
      remedy: 'Export the readable records and import them into a fresh namespace, or delete the damaged nodes',
    });
    if (batch.change !== undefined && (typeof batch.change !== 'number' || !Number.isFinite(batch.change))) {
      throw invalidInput('batch.change', `expected a finite number, got ${String(batch.change)}`);
    }
    // A new namespace takes a name only under the rule of names.ts; one the store already
    // holds (written before the rule) is kept, so it can be cleaned up.
    if (namespaceNameProblem(namespace) !== undefined && !(await holds(namespace))) checkNamespaceName(namespace);
    const stores = storesOf(batch);
    if (stores.length === 0) return;
    await guarded(`commit to namespace ${nsText(namespace)}`, async () => {
      const tx: IDBPTransaction<JevMemDBSchema, Store[], 'readwrite'> = live().transaction(stores, 'readwrite');
      await settleWrite(tx, (ops) => writeBatch(tx, namespace, batch, ops));
    });
    for (const id of batch.deleteNodeIds ?? []) damage.clear(namespace, id);
  };
}
