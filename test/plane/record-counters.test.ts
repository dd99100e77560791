/**
 * The kept counters of the one record store (issue 22; issue 25: `counts()` and `sizeBytes()`
 * read one bookkeeping record): after random batches (puts that replace, deletes of absent ids,
 * meta set and removed, numbered commits), checkpoints that prune the change log and checkpoints
 * dropped, on both drivers, they equal a recount of the stored records.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ONE, type RecordDriver } from '../../src/plane/drivers/record-driver.js';
import { openIdbRecordDriver } from '../../src/plane/drivers/record-idb.js';
import { createMemoryRecordDriver } from '../../src/plane/drivers/record-memory.js';
import { createSqlRecordDriver } from '../../src/plane/drivers/record-sql.js';
import { memorySqlConnection } from './sql-connection.js';
import { measure, recordBytes } from '../../src/plane/store/record-counters.js';
import { IDB_VERSION, upgradeRecords } from '../../src/plane/store/record-idb-upgrade.js';
import { createRecordStore } from '../../src/plane/store/record-store.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';
import { arbitraryBatch, makeNode } from './fixtures.js';

const DRIVERS: Array<[string, () => Promise<RecordDriver>]> = [
  ['memory', async () => createMemoryRecordDriver()],
  ['indexeddb', () => openIdbRecordDriver(new IDBFactory(), 'counters', IDB_VERSION, upgradeRecords)],
  ['sql', async () => createSqlRecordDriver(memorySqlConnection(), { prefix: 'jev_mem_', label: 'the test SQL store', lexical: 'fts5', importLegacy: async () => ({ finish: () => undefined }), vacuum: false })],
];

const words = { kind: 'test', label: 'test store', quotaRemedy: '' };

/** What `counts().nodes` and `sizeBytes()` must answer, recounted from the records. */
async function recount(driver: RecordDriver, ns: string): Promise<{ nodes: number; size: number }> {
  return driver.transaction(['node', 'adj', 'edge-ids', 'meta', 'changes', 'checkpoints', 'spaces'], 'read', async (tx) => {
    const tally = await measure(tx, ns);
    if (tally.bytes === 0) return { nodes: tally.nodes, size: 0 };
    const [checkpoint, space] = await Promise.all([tx.get('checkpoints', ns, ONE), tx.get('spaces', ns, ONE)]);
    const size = tally.bytes + (checkpoint === undefined ? 0 : recordBytes(ns, ONE, checkpoint)) + recordBytes(ns, ONE, space);
    return { nodes: tally.nodes, size };
  });
}

/** One step: a batch (numbered), a checkpoint write, or a checkpoint drop. */
const step = fc.oneof(
  { weight: 6, arbitrary: arbitraryBatch('ns').map((batch) => ({ batch })) },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((text) => ({ checkpoint: new TextEncoder().encode(text) })) },
  { weight: 1, arbitrary: fc.constant({ drop: true as const }) },
);

describe.each(DRIVERS)('the kept counters over the %s driver', (_name, open) => {
  it('equal a recount of the records after random batches, checkpoints and drops', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const driver = await open();
        const store = createRecordStore(driver, words);
        let change = 0;
        for (const s of steps) {
          if ('batch' in s) await store.commit('ns', { ...s.batch, change: ++change } as WriteBatch);
          else if ('checkpoint' in s) await store.writeCheckpoint('ns', { change, format: 'test@1', parts: { a: s.checkpoint } });
          else await store.dropCheckpoint('ns');
          const expected = await recount(driver, 'ns');
          expect((await store.counts('ns')).nodes).toBe(expected.nodes);
          expect(await store.sizeBytes('ns')).toBe(expected.size);
        }
        await store.close();
      }),
      { numRuns: 25 },
    );
  });

  it('a batch with its checkpoint counts the pruned change log out and the checkpoint in; a drop of the namespace leaves 0', async () => {
    const driver = await open();
    const store = createRecordStore(driver, words);
    await store.commit('ns', { change: 1, putNodes: [makeNode('ns', 'a', 1), makeNode('ns', 'b', 2)] });
    await store.commit('ns', { change: 2, putNodes: [makeNode('ns', 'a', 1, 'replaced')], deleteNodeIds: ['b', 'never-stored'], checkpoint: { change: 2, format: 'f', parts: { p: new Uint8Array(10) } } });
    const expected = await recount(driver, 'ns');
    expect(expected.nodes).toBe(1);
    expect([(await store.counts('ns')).nodes, await store.sizeBytes('ns')]).toEqual([1, expected.size]);
    await store.dropNamespace('ns');
    expect([(await store.counts('ns')).nodes, await store.sizeBytes('ns')]).toEqual([0, 0]);
    await store.close();
  });
});
