/**
 * Whole-namespace operations of the record store: listing the namespaces held, dropping one
 * (every table's key range, one transaction) and reading its estimated stored size (`sizeBytes`, a kept counter).
 * SPEC 2, 9.
 *
 * @module
 */
import { ONE, RECORD_TABLES, type RecordDriver, type RecordTable } from '../drivers/record-driver.js';
import type { DamageLog } from './checksum.js';
import { type SpaceRecord, emptySpace } from './record-codec.js';
import { recordBytes } from './record-counters.js';
import { type StoreWords, guarded, nsText } from './record-errors.js';
import type { StorageAdapter } from './storage.js';

/** The namespace methods of a store. */
export type NamespaceMethods = Pick<StorageAdapter, 'namespaces' | 'dropNamespace' | 'sizeBytes'>;

/** Tables whose records make a namespace "hold data" (the change log and bookkeeping do not). */
const HOLDING: readonly RecordTable[] = ['node', 'adj', 'meta'];

/** The namespace methods over `driver`; dropping a namespace forgets its damage in `damage`. */
export function namespaceMethods(driver: RecordDriver, damage: DamageLog, words: StoreWords): NamespaceMethods {
  return {
    async namespaces() {
      return guarded(words, 'list namespaces', async () => {
        const lists = await driver.transaction(HOLDING, 'read', (tx) => Promise.all(HOLDING.map((t) => tx.namespaces(t))));
        return [...new Set(lists.flat())].sort();
      });
    },

    async dropNamespace(namespace) {
      await guarded(words, `drop namespace ${nsText(namespace)}`, () =>
        driver.transaction(RECORD_TABLES, 'write', async (tx) => {
          for (const table of RECORD_TABLES) tx.deleteRange(table, namespace, undefined);
        }),
      );
      damage.drop(namespace);
    },

    /**
     * An estimate, kept as a counter (O(1), issue 25): the bytes of the namespace's records
     * (namespace, key and value each: strings as UTF-8, numbers 8, binary at its length,
     * `record-counters.ts`), its checkpoint record and its bookkeeping record; not the platform's
     * file size. 0 when the namespace holds nothing but a checkpoint and bookkeeping.
     */
    async sizeBytes(namespace) {
      return guarded(words, `measure namespace ${nsText(namespace)}`, async () => {
        const stored = await driver.transaction(['spaces'], 'read', (tx) => tx.get('spaces', namespace, ONE));
        if (stored === undefined) return 0;
        const space = { ...emptySpace(), ...(stored as Partial<SpaceRecord>) };
        if (space.bytes <= 0) return 0; // only bookkeeping left: nothing of the namespace is stored
        return space.bytes + space.checkpointBytes + recordBytes(namespace, ONE, stored);
      });
    },
  };
}
