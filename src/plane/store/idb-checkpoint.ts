/**
 * Checkpoints and the change log of the IndexedDB store: the checkpoint record with a checksum
 * per part (written, read back and checked, dropped), the pruning of the change log a checkpoint
 * covers (the namespace's `floor`), and `changesSince`. SPEC 4.6; issue 22 for the sums.
 *
 * @module
 */
import { JevMemError, invalidInput } from '../../errors.js';
import { partSum, type DamageLog } from './checksum.js';
import { guarded, nsText, settleWrite } from './idb-errors.js';
import { type AnyTx, type CheckpointRecord, type LiveDb, emptySpace } from './idb-schema.js';
import { validateCheckpoint } from './memory-storage.js';
import { checkExistingNamespaceName } from './names.js';
import type { Checkpoint, StorageAdapter } from './storage.js';

/** The checksum of each checkpoint part (`checksum.ts` {@link partSum}). */
export function partSums(parts: Record<string, Uint8Array>): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const [name, data] of Object.entries(parts)) sums[name] = partSum(name, data);
  return sums;
}

/**
 * The record that stores `checkpoint`, with the sum of each part; a part that is a view of a
 * larger buffer is copied (the whole buffer would be stored otherwise).
 * @throws JevMemError `INVALID_INPUT` naming the field at fault (`memory-storage.ts` `validateCheckpoint`).
 */
export function checkpointRecord(checkpoint: Checkpoint): CheckpointRecord {
  validateCheckpoint(checkpoint);
  const parts: Record<string, Uint8Array> = {};
  for (const [name, part] of Object.entries(checkpoint.parts)) {
    parts[name] = part.byteOffset === 0 && part.byteLength === part.buffer.byteLength ? part : part.slice();
  }
  return { change: checkpoint.change, format: checkpoint.format, parts, sums: partSums(parts) };
}

/** Replaces the namespace's checkpoint in `tx` and drops the change log it covers (raises the floor). */
export async function putCheckpoint(tx: AnyTx, namespace: string, record: CheckpointRecord, ops: Promise<unknown>[]): Promise<void> {
  ops.push(tx.objectStore('checkpoints').put(record, namespace));
  ops.push(tx.objectStore('changes').delete(IDBKeyRange.bound([namespace], [namespace, record.change])));
  const spaces = tx.objectStore('spaces');
  const space = (await spaces.get(namespace)) ?? emptySpace();
  space.floor = Math.max(space.floor, record.change);
  ops.push(spaces.put(space, namespace));
}

/** The checkpoint and change-log methods of an adapter. */
export type CheckpointMethods = Required<Pick<StorageAdapter, 'readCheckpoint' | 'writeCheckpoint' | 'dropCheckpoint' | 'changesSince'>>;

/**
 * The checkpoint and change-log methods over the database `live`; a checkpoint part that fails
 * its sum is logged in `damage` and answered with `STORE_DAMAGED` (the caller rebuilds it).
 */
export function idbCheckpointMethods(live: LiveDb, damage: DamageLog): CheckpointMethods {
  return {
    async readCheckpoint(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`read the checkpoint of namespace ${nsText(namespace)}`, async () => {
        const record = await live().get('checkpoints', namespace);
        if (record === undefined) return undefined;
        for (const [name, data] of Object.entries(record.parts)) {
          const sum = record.sums?.[name];
          if (!(data instanceof Uint8Array) || sum !== partSum(name, data)) {
            damage.checkpoint(namespace);
            throw new JevMemError('STORE_DAMAGED', `IndexedDB: part ${JSON.stringify(name)} of the checkpoint of namespace ${nsText(namespace)} fails its checksum; it is rebuilt from the node records`, { field: 'checkpoint', ids: [] });
          }
        }
        return { change: record.change, format: record.format, parts: record.parts };
      });
    },

    async writeCheckpoint(namespace, checkpoint) {
      checkExistingNamespaceName(namespace);
      const record = checkpointRecord(checkpoint);
      await guarded(`write the checkpoint of namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(['checkpoints', 'changes', 'spaces'], 'readwrite');
        await settleWrite(tx, (ops) => putCheckpoint(tx, namespace, record, ops));
      });
    },

    async dropCheckpoint(namespace) {
      checkExistingNamespaceName(namespace);
      await guarded(`drop the checkpoint of namespace ${nsText(namespace)}`, () => live().delete('checkpoints', namespace));
    },

    async changesSince(namespace, after) {
      checkExistingNamespaceName(namespace);
      if (typeof after !== 'number' || Number.isNaN(after)) throw invalidInput('after', `expected a number, got ${String(after)}`);
      return guarded(`read the change log of namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(['changes', 'spaces'], 'readonly');
        const [space, lists] = await Promise.all([
          tx.objectStore('spaces').get(namespace),
          tx.objectStore('changes').getAll(IDBKeyRange.bound([namespace, after], [namespace, []], true, false)),
          tx.done,
        ]);
        if (after < (space?.floor ?? 0)) return undefined;
        return [...new Set(lists.flat())];
      });
    },
  };
}
