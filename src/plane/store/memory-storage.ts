/**
 * The in-memory storage adapter (tests and ephemeral use): the one record store
 * (`record-store.ts`) over the in-memory record driver (`../drivers/record-memory.ts`). The
 * batch semantics every store shares live in `record-batch.ts` and are re-exported here for the
 * modules that import them from this file. SPEC 2, 3, 4.6; issue 22.
 *
 * @module
 */
import { createMemoryRecordDriver } from '../drivers/record-memory.js';
import { createRecordStore } from './record-store.js';
import type { StorageAdapter } from './storage.js';

export { type NamespaceState, applyBatch, changedNodeIds, cloneBatch, emptyNamespaceState, toSnapshot, validateBatch, validateCheckpoint } from './record-batch.js';

/**
 * Creates an in-memory storage adapter (`kind: 'memory'`). Nothing survives the process; its
 * `close()` drops the data (zeroing the byte arrays it held).
 *
 * It is the record store of every other record platform (IndexedDB), so it behaves as that
 * store does: a commit is one transaction of the driver, rolled back whole on any failure;
 * values are stored and returned as structured clones, so callers can never change stored data
 * by mutating what they passed in or got back; node records carry their checksum; `counts` and
 * `sizeBytes` read kept counters (O(1); the size is the estimate of `record-counters.ts`: keys and
 * values, strings as UTF-8, numbers 8, binary at its length); `namespaces()` lists the namespaces
 * that hold at least one node, edge or meta key. Nothing outside this process can damage what it
 * keeps, so `damaged` reports no damage.
 *
 * Errors: `commit` throws JevMemError `INVALID_INPUT` on a malformed batch and `STORAGE_FAILED`
 * when a value cannot be cloned (a function, a symbol); every method throws `CLOSED` after
 * `close()`.
 */
export function createMemoryStorage(): StorageAdapter {
  return createRecordStore(createMemoryRecordDriver(), {
    kind: 'memory',
    label: 'the memory store',
    quotaRemedy: 'Free memory or use a persistent store.',
  });
}
