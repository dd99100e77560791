/**
 * Whole-namespace operations of the record store: listing the namespaces held, dropping one
 * (every table's key range, one transaction) and estimating its stored size (`sizeBytes`).
 * SPEC 2, 9.
 *
 * @module
 */
import { RECORD_TABLES, type RecordDriver, type RecordKey, type RecordTable } from '../drivers/record-driver.js';
import type { DamageLog } from './checksum.js';
import { type StoreWords, guarded, nsText } from './record-errors.js';
import type { StorageAdapter } from './storage.js';

/** Rough bytes of a key or value: strings as UTF-8, numbers 8, binary at its length (see `sizeBytes`). */
export function approxBytes(value: unknown, encoder: TextEncoder): number {
  if (typeof value === 'string') return encoder.encode(value).length;
  if (typeof value === 'number') return 8;
  if (value === null || typeof value !== 'object') return 1;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + approxBytes(v, encoder), 0);
  let n = 0;
  for (const [k, v] of Object.entries(value)) n += encoder.encode(k).length + approxBytes(v, encoder);
  return n;
}

/** The namespace methods of a store. */
export type NamespaceMethods = Pick<StorageAdapter, 'namespaces' | 'dropNamespace' | 'sizeBytes'>;

/** Tables whose records make a namespace "hold data" (the change log and bookkeeping do not). */
const HOLDING: readonly RecordTable[] = ['node', 'adj', 'meta'];
/** Tables of many records per namespace (scanned in chunks by `sizeBytes`). */
const RANGED: readonly RecordTable[] = ['node', 'adj', 'edge-ids', 'meta', 'changes'];

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
     * An estimate: the bytes of the namespace's keys (namespace and key) and values (strings as
     * UTF-8, numbers 8, binary at its length), read in chunks of 500 records; not the platform's
     * file size. 0 when the namespace holds nothing but bookkeeping.
     */
    async sizeBytes(namespace) {
      return guarded(words, `measure namespace ${nsText(namespace)}`, async () => {
        const encoder = new TextEncoder();
        const keyBytes = approxBytes(namespace, encoder);
        let total = 0;
        for (const table of RANGED) {
          let after: RecordKey | undefined;
          for (;;) {
            const rows = await driver.transaction([table], 'read', (tx) => tx.scan(table, namespace, after, 500));
            for (const [key, value] of rows) total += keyBytes + approxBytes(key, encoder) + approxBytes(value, encoder);
            if (rows.length < 500) break;
            after = (rows[rows.length - 1] as readonly [RecordKey, unknown])[0];
          }
        }
        if (total === 0) return 0; // only bookkeeping left: nothing of the namespace is stored
        const singles = await driver.transaction(['checkpoints', 'spaces'], 'read', (tx) =>
          Promise.all([tx.scan('checkpoints', namespace, undefined, 1), tx.scan('spaces', namespace, undefined, 1)]),
        );
        for (const [, value] of singles.flat()) total += keyBytes + approxBytes(value, encoder);
        return total;
      });
    },
  };
}
