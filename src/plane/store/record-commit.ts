/**
 * The commit of a {@link WriteBatch} to the record store: the checks before anything is written
 * (batch shape, damaged namespace, change number, name rule of a new namespace), then ONE write
 * transaction over the tables the batch touches, which first checks the batch's
 * {@link WriteBatch.expectMeta} against the stored meta (issue 22: two writers, one seq) and
 * then holds its node, meta, change-log, edge and checkpoint changes and the namespace's kept
 * counters; any failure leaves nothing of the batch.
 * SPEC 3, 4.6; issue 22 (one store), issue 25 (O(1) counts).
 *
 * @module
 */
import { JevMemError, invalidInput } from '../../errors.js';
import { ONE, type RecordDriver, type RecordTable, type RecordTx } from '../drivers/record-driver.js';
import type { DamageLog } from './checksum.js';
import { checkpointRecord, dropCheckpointIn, putCheckpoint, spaceOf } from './record-checkpoint.js';
import { addTally, countingTx } from './record-counters.js';
import { toNodeRecord } from './record-codec.js';
import { applyEdges } from './record-edges.js';
import { type StoreWords, guarded, nsText } from './record-errors.js';
import { changedNodeIds, validateBatch } from './record-batch.js';
import { checkNamespaceName, namespaceNameProblem } from './names.js';
import { countAgain } from './record-screen.js';
import { refuseDamagedWrite } from './store-damage.js';
import { CHANGED_ELSEWHERE, type StorageAdapter, type WriteBatch } from './storage.js';

/**
 * Refuses a batch planned on an older state of the namespace (issue 22: two writers, one seq):
 * each key of `expect` must hold the value given (`null`: absent), compared as JSON, as the SQL
 * store does (`sql-commit.ts`). Run first in the commit's write transaction, whose scope holds
 * `meta`: the driver runs write transactions over one table one at a time (IndexedDB across
 * connections and tabs too, the memory driver in its queue), so no other writer can commit
 * between this check and the batch.
 * @throws JevMemError `STORAGE_FAILED` with detail {@link CHANGED_ELSEWHERE} (the key that differed).
 */
async function refuseChanged(tx: RecordTx, namespace: string, expect: Record<string, unknown>, words: StoreWords): Promise<void> {
  const entries = Object.entries(expect);
  // every key read at once: one round trip to the driver, however many keys
  const stored = await Promise.all(entries.map(([key]) => tx.get('meta', namespace, key)));
  for (const [i, [key, want]] of entries.entries()) {
    if (JSON.stringify(stored[i] ?? null) === JSON.stringify(want ?? null)) continue;
    throw new JevMemError(
      'STORAGE_FAILED',
      `${words.label} refused a commit to namespace ${nsText(namespace)}: another writer committed to it since this one loaded it (meta ${JSON.stringify(key)} changed); nothing was written, reload and write again`,
      { field: 'namespace', [CHANGED_ELSEWHERE]: key },
    );
  }
}

/**
 * Issues the writes of one batch in `tx` (the commit, and the import of an older SQL layout,
 * `sql-legacy-import.ts`), deletes before puts, and adds what they change to the
 * namespace's kept counters (`record-counters.ts`) in the same transaction.
 */
export async function writeBatch(raw: RecordTx, namespace: string, batch: WriteBatch, words: StoreWords): Promise<void> {
  // The bookkeeping is read together with the expected meta (issue 25: one round trip less per commit).
  const bookkeeping = isEmptyBatch(batch) ? undefined : spaceOf(raw, namespace);
  bookkeeping?.catch(() => undefined); // awaited below unless the meta check throws first
  if (batch.expectMeta !== undefined) await refuseChanged(raw, namespace, batch.expectMeta, words);
  if (bookkeeping === undefined) return;
  const counting = countingTx(raw, namespace);
  const tx = counting.tx;
  for (const id of batch.deleteNodeIds ?? []) tx.delete('node', namespace, id);
  for (const node of batch.putNodes ?? []) tx.put('node', namespace, node.id, toNodeRecord(node));
  for (const [key, value] of Object.entries(batch.meta ?? {})) {
    if (value === null) tx.delete('meta', namespace, key);
    else if (value !== undefined) tx.put('meta', namespace, key, value);
  }
  if (batch.change !== undefined) tx.put('changes', namespace, batch.change, changedNodeIds(batch));
  const space = await bookkeeping;
  await applyEdges(tx, namespace, space, batch.deleteEdgeIds ?? [], batch.putEdges ?? []);
  // The checkpoint change of the batch (issue 22): in the same transaction as the node changes.
  if (batch.checkpoint === null) dropCheckpointIn(tx, namespace, space);
  else if (batch.checkpoint !== undefined) putCheckpoint(tx, namespace, checkpointRecord(batch.checkpoint), space);
  addTally(space, await counting.settle());
  // A damaged bookkeeping record was counted again (record-screen.ts): count the namespace as
  // this batch leaves it, the first count may have seen some of its writes.
  const again = countAgain(space);
  if (again !== undefined) {
    const counted = await again();
    tx.put('spaces', namespace, ONE, { ...counted, floor: Math.max(counted.floor, space.floor), checkpointBytes: space.checkpointBytes });
    return;
  }
  tx.put('spaces', namespace, ONE, space);
}

/** The tables a batch writes (a commit's transaction covers these only). */
function tablesOf(batch: WriteBatch): RecordTable[] {
  const tables: RecordTable[] = ['spaces'];
  if ((batch.deleteNodeIds?.length ?? 0) + (batch.putNodes?.length ?? 0) > 0) tables.push('node');
  if ((batch.deleteEdgeIds?.length ?? 0) + (batch.putEdges?.length ?? 0) > 0) tables.push('adj', 'edge-ids');
  if (Object.values(batch.meta ?? {}).some((v) => v !== undefined)) tables.push('meta');
  if (batch.change !== undefined || batch.checkpoint !== undefined) tables.push('changes');
  if (batch.checkpoint !== undefined) tables.push('checkpoints');
  return tables;
}

/** True when the batch changes nothing (no table but the bookkeeping would be written). */
function isEmptyBatch(batch: WriteBatch): boolean {
  return tablesOf(batch).length === 1;
}

/** The tables of a commit's transaction: those the batch writes, and `meta` for its `expectMeta`. */
function scopeOf(batch: WriteBatch): RecordTable[] {
  const tables = tablesOf(batch);
  if (batch.expectMeta !== undefined && !tables.includes('meta')) tables.push('meta');
  return tables;
}

/**
 * The `commit` of a store over `driver`. Refuses puts into a namespace whose damaged records
 * `damage` knows (`STORE_DAMAGED`), and forgets the damage of the nodes a commit deletes. Throws
 * `INVALID_INPUT` (batch, change number, the name of a new namespace), `QUOTA_EXCEEDED`,
 * `STORAGE_FAILED`, `CLOSED`; nothing is written when it throws.
 */
export function recordCommit(driver: RecordDriver, damage: DamageLog, words: StoreWords): StorageAdapter['commit'] {
  /** True when the store holds a node or a meta key of `namespace`. */
  const holds = (namespace: string): Promise<boolean> =>
    guarded(words, `read namespace ${nsText(namespace)}`, () =>
      driver.transaction(['node', 'meta'], 'read', async (tx) => {
        const [nodes, meta] = await Promise.all([tx.scan('node', namespace, undefined, 1), tx.scan('meta', namespace, undefined, 1)]);
        return nodes.length + meta.length > 0;
      }),
    );

  return async (namespace, batch) => {
    validateBatch(namespace, batch);
    refuseDamagedWrite(damage, namespace, batch, {
      store: words.label,
      namespace: nsText(namespace),
      remedy: 'Export the readable records and import them into a fresh namespace, or delete the damaged nodes',
    });
    // A new namespace takes a name only under the rule of names.ts; one the store already
    // holds (written before the rule) is kept, so it can be cleaned up.
    if (namespaceNameProblem(namespace) !== undefined && !(await holds(namespace))) checkNamespaceName(namespace);
    if (batch.expectMeta !== undefined && (typeof batch.expectMeta !== 'object' || batch.expectMeta === null || Array.isArray(batch.expectMeta))) {
      throw invalidInput('batch.expectMeta', `expected a plain object or undefined, got ${Array.isArray(batch.expectMeta) ? 'an array' : String(batch.expectMeta)}`);
    }
    // A batch that changes nothing writes nothing; its expectMeta is still checked (and refused).
    if (isEmptyBatch(batch) && batch.expectMeta === undefined) return;
    await guarded(words, `commit to namespace ${nsText(namespace)}`, () =>
      driver.transaction(scopeOf(batch), isEmptyBatch(batch) ? 'read' : 'write', (tx) => writeBatch(tx, namespace, batch, words)),
    );
    for (const id of batch.deleteNodeIds ?? []) damage.clear(namespace, id);
  };
}
