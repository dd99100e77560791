/**
 * Whole-namespace operations of the IndexedDB store: listing the namespaces held (a skip scan
 * over the keys), dropping one (every store's key range, one transaction) and estimating its
 * stored size (`sizeBytes`). SPEC 2, 9.
 *
 * @module
 */
import type { DamageLog } from './checksum.js';
import { guarded, nsText, settleWrite } from './idb-errors.js';
import { ALL_STORES, type LiveDb, RANGED_STORES, chunksOf, namespaceRange } from './idb-schema.js';
import { checkExistingNamespaceName } from './names.js';
import type { StorageAdapter } from './storage.js';

/** Rough bytes of a key or value: strings as UTF-8, numbers 8, binary at its length (see `sizeBytes`). */
function approxBytes(value: unknown, encoder: TextEncoder): number {
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

/** The namespace methods of an adapter. */
export type NamespaceMethods = Required<Pick<StorageAdapter, 'namespaces' | 'dropNamespace' | 'sizeBytes'>>;

/** The namespace methods over the database `live`; dropping a namespace forgets its damage in `damage`. */
export function idbNamespaceMethods(live: LiveDb, damage: DamageLog): NamespaceMethods {
  return {
    async namespaces() {
      return guarded('list namespaces', async () => {
        const found = new Set<string>();
        const tx = live().transaction(['node', 'adj', 'meta'], 'readonly');
        for (const name of ['node', 'adj', 'meta'] as const) {
          // Skip scan: one key per namespace, then jump past the namespace's range.
          let cursor = await tx.objectStore(name).openKeyCursor();
          while (cursor) {
            const ns = (cursor.key as [string, string])[0];
            found.add(ns);
            cursor = await cursor.continue([ns, []] as unknown as [string, string]);
          }
        }
        await tx.done;
        return [...found].sort();
      });
    },

    async dropNamespace(namespace) {
      checkExistingNamespaceName(namespace);
      await guarded(`drop namespace ${nsText(namespace)}`, async () => {
        const tx = live().transaction(ALL_STORES, 'readwrite');
        const range = namespaceRange(namespace);
        await settleWrite(tx, (ops) => {
          for (const name of RANGED_STORES) ops.push(tx.objectStore(name).delete(range));
          ops.push(tx.objectStore('checkpoints').delete(namespace), tx.objectStore('spaces').delete(namespace));
        });
      });
      damage.drop(namespace);
    },

    async sizeBytes(namespace) {
      checkExistingNamespaceName(namespace);
      return guarded(`measure namespace ${nsText(namespace)}`, async () => {
        const encoder = new TextEncoder();
        let total = 0;
        for (const name of RANGED_STORES) {
          for await (const { keys, values } of chunksOf(live, name, namespace, 500)) {
            keys.forEach((key, i) => {
              total += approxBytes(key, encoder) + approxBytes(values[i], encoder);
            });
          }
        }
        const tx = live().transaction(['checkpoints', 'spaces'], 'readonly');
        const [checkpoint, space] = await Promise.all([tx.objectStore('checkpoints').get(namespace), tx.objectStore('spaces').get(namespace), tx.done]);
        if (total === 0) return 0; // only bookkeeping left: nothing of the namespace is stored
        for (const record of [checkpoint, space]) if (record !== undefined) total += approxBytes(namespace, encoder) + approxBytes(record, encoder);
        return total;
      });
    },
  };
}
