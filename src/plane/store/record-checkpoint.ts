/**
 * Checkpoints and the change log of the record store: the checkpoint record with a CRC-32 per
 * part (written, read back and checked, dropped), the pruning of the change log a checkpoint
 * covers (the namespace's `floor`), and `changesSince`. SPEC 4.6; issue 22 for the sums.
 *
 * @module
 */
import { JevMemError, invalidInput } from '../../errors.js';
import { ONE, type RecordDriver, type RecordTx } from '../drivers/record-driver.js';
import { type DamageLog, partSum, recordSum } from './checksum.js';
import { validateCheckpoint } from './record-batch.js';
import { type CheckpointRecord, type SpaceRecord, emptySpace, sealHeld } from './record-codec.js';
import { countAgain } from './record-screen.js';
import { addTally, countingTx, recordBytes } from './record-counters.js';
import { type StoreWords, guarded, nsText } from './record-errors.js';
import type { Checkpoint, StorageAdapter } from './storage.js';

/** The checksum of each checkpoint part (`checksum.ts` {@link partSum}). */
export function partSums(parts: Record<string, Uint8Array>): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const [name, data] of Object.entries(parts)) sums[name] = partSum(name, data);
  return sums;
}

/**
 * The checksum of a checkpoint record's head (issue 22): its change number, its format and the
 * sum of each part (so, with the part sums, every byte of the record is covered: a changed
 * `change` would make the memory skip changes the checkpoint does not hold).
 */
export function checkpointHeadSum(record: Pick<CheckpointRecord, 'change' | 'format' | 'sums'>): number {
  return recordSum([JSON.stringify([record.change, record.format, record.sums ?? null])]);
}

/**
 * The record that stores `checkpoint`, with the sum of each part; a part that is a view of a
 * larger buffer is copied (the whole buffer would be stored otherwise).
 * @throws JevMemError `INVALID_INPUT` naming the field at fault (`record-batch.ts` `validateCheckpoint`).
 */
export function checkpointRecord(checkpoint: Checkpoint): CheckpointRecord {
  validateCheckpoint(checkpoint);
  const parts: Record<string, Uint8Array> = {};
  for (const [name, part] of Object.entries(checkpoint.parts)) {
    parts[name] = part.byteOffset === 0 && part.byteLength === part.buffer.byteLength ? part : part.slice();
  }
  const record: CheckpointRecord = { change: checkpoint.change, format: checkpoint.format, parts, sums: partSums(parts) };
  record.head = checkpointHeadSum(record);
  return record;
}

/**
 * Replaces the namespace's checkpoint in `tx` and drops the change log it covers (raises
 * `space.floor`, sets `space.checkpointBytes`; the caller puts `space`).
 */
export function putCheckpoint(tx: RecordTx, namespace: string, record: CheckpointRecord, space: SpaceRecord): void {
  tx.put('checkpoints', namespace, ONE, record);
  tx.deleteRange('changes', namespace, record.change);
  space.floor = Math.max(space.floor, record.change);
  space.checkpointBytes = recordBytes(namespace, ONE, record);
}

/** Removes the namespace's checkpoint in `tx` (the caller puts `space`). */
export function dropCheckpointIn(tx: RecordTx, namespace: string, space: SpaceRecord): void {
  tx.delete('checkpoints', namespace, ONE);
  space.checkpointBytes = 0;
}

/** The namespace's bookkeeping in `tx` (an empty one when none is stored). */
export async function spaceOf(tx: RecordTx, namespace: string): Promise<SpaceRecord> {
  const stored = (await tx.get('spaces', namespace, ONE)) as Partial<SpaceRecord> | undefined;
  // A record the screen counted again is whole, and keeps its identity (record-screen.ts countAgain).
  if (stored !== undefined && countAgain(stored) !== undefined) return stored as SpaceRecord;
  return { ...emptySpace(), ...(stored ?? {}) };
}

/** The checkpoint and change-log methods of a store. */
export type CheckpointMethods = Pick<StorageAdapter, 'readCheckpoint' | 'writeCheckpoint' | 'dropCheckpoint' | 'changesSince'>;

/**
 * The checkpoint and change-log methods over `driver`; a checkpoint part that fails its sum is
 * logged in `damage` and answered with `STORE_DAMAGED` (field `checkpoint`; the memory rebuilds it).
 */
export function checkpointMethods(driver: RecordDriver, damage: DamageLog, words: StoreWords): CheckpointMethods {
  return {
    async readCheckpoint(namespace) {
      const record = (await guarded(words, `read the checkpoint of namespace ${nsText(namespace)}`, () =>
        driver.transaction(['checkpoints'], 'read', (tx) => tx.get('checkpoints', namespace, ONE)),
      )) as CheckpointRecord | undefined;
      if (record === undefined) return undefined;
      // A record from before the head sum has none: its parts are still checked.
      if (record.head !== undefined && record.head !== checkpointHeadSum(record)) {
        damage.checkpoint(namespace);
        throw new JevMemError('STORE_DAMAGED', `${words.label}: the head (change number, format, part sums) of the checkpoint of namespace ${nsText(namespace)} fails its checksum; it is rebuilt from the node records`, { field: 'checkpoint', ids: [] });
      }
      // Bytes whose seal held are the ones written, with the sum of each part (record-codec.ts
      // SEAL_HELD): each part must still have its sum, but is not summed again.
      const held = sealHeld(record);
      for (const [name, data] of Object.entries(record.parts ?? {})) {
        const sum = record.sums?.[name];
        if (!(data instanceof Uint8Array) || typeof sum !== 'number' || (!held && sum !== partSum(name, data))) {
          damage.checkpoint(namespace);
          throw new JevMemError('STORE_DAMAGED', `${words.label}: part ${JSON.stringify(name)} of the checkpoint of namespace ${nsText(namespace)} fails its checksum; it is rebuilt from the node records`, { field: 'checkpoint', ids: [] });
        }
      }
      return { change: record.change, format: record.format, parts: record.parts };
    },

    async writeCheckpoint(namespace, checkpoint) {
      const record = checkpointRecord(checkpoint);
      await guarded(words, `write the checkpoint of namespace ${nsText(namespace)}`, () =>
        driver.transaction(['checkpoints', 'changes', 'spaces'], 'write', async (raw) => {
          const space = await spaceOf(raw, namespace);
          const counting = countingTx(raw, namespace);
          putCheckpoint(counting.tx, namespace, record, space);
          addTally(space, await counting.settle());
          raw.put('spaces', namespace, ONE, space);
        }),
      );
    },

    async dropCheckpoint(namespace) {
      await guarded(words, `drop the checkpoint of namespace ${nsText(namespace)}`, () =>
        driver.transaction(['checkpoints', 'spaces'], 'write', async (tx) => {
          const space = await spaceOf(tx, namespace);
          dropCheckpointIn(tx, namespace, space);
          tx.put('spaces', namespace, ONE, space);
        }),
      );
    },

    async changesSince(namespace, after) {
      if (typeof after !== 'number' || Number.isNaN(after)) throw invalidInput('after', `expected a number, got ${String(after)}`);
      return guarded(words, `read the change log of namespace ${nsText(namespace)}`, () =>
        driver.transaction(['changes', 'spaces'], 'read', async (tx) => {
          const [space, lists] = await Promise.all([spaceOf(tx, namespace), tx.scan('changes', namespace, after, Infinity)]);
          // A damaged change list (record-screen.ts): which nodes it changed is unknown.
      if (after < space.floor || lists.some(([, ids]) => !Array.isArray(ids))) return undefined;
          return [...new Set(lists.flatMap(([, ids]) => ids as string[]))];
        }),
      );
    },
  };
}
