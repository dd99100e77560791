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
import { ONE, type RecordDriver, type RecordTx } from '../../src/plane/drivers/record-driver.js';
import { openIdbRecordDriver } from '../../src/plane/drivers/record-idb.js';
import { createMemoryRecordDriver } from '../../src/plane/drivers/record-memory.js';
import { createSqlRecordDriver } from '../../src/plane/drivers/record-sql.js';
import { memorySqlConnection } from './sql-connection.js';
import { countingTx, measure, recordBytes } from '../../src/plane/store/record-counters.js';
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

describe('countingTx', () => {
  /** A memory-driver write transaction whose reads of `work` are counted by table. */
  async function withReads<T>(seed: (tx: RecordTx) => void, work: (tx: RecordTx) => Promise<T>): Promise<{ result: T; reads: string[] }> {
    const driver = createMemoryRecordDriver();
    await driver.transaction(['node', 'adj'], 'write', async (tx) => seed(tx));
    const reads: string[] = [];
    const result = await driver.transaction(['node', 'adj', 'meta'], 'write', (raw) =>
      work({ ...raw, get: (table, ns, key) => (reads.push(`${table}:${String(key)}`), raw.get(table, ns, key)) }),
    );
    return { result, reads };
  }

  it('reads the old value of a key once per transaction: not again after the work read it, nor after a write of it (issue 25)', async () => {
    const old = { s: ['x'], b: new Uint8Array(7) };
    const { result, reads } = await withReads(
      (tx) => {
        tx.put('adj', 'ns', 'a', old);
        tx.put('node', 'ns', 'n1', { text: 'old' });
      },
      async (raw) => {
        const c = countingTx(raw, 'ns');
        expect(await c.tx.get('adj', 'ns', 'a')).toEqual(old); // read by the work (as applyEdges does)
        const next = { s: ['x', 'y'], b: new Uint8Array(9) };
        c.tx.put('adj', 'ns', 'a', next); // old size from the read above
        c.tx.put('adj', 'ns', 'b', next); // never read: one read for the tally
        c.tx.put('adj', 'ns', 'b', old); // written before: the size of what was written
        c.tx.put('node', 'ns', 'n1', { text: 'new' });
        c.tx.delete('node', 'ns', 'n1'); // removes what the put above wrote
        c.tx.put('meta', 'other', 'k', 1); // another namespace: not counted, not read
        return { tally: await c.settle(), next };
      },
    );
    expect(reads).toEqual(['adj:a', 'adj:b', 'node:n1']);
    // a: -old +next; b: +next -next +old; n1: -old +new -new
    const bytes = (key: string, v: unknown): number => recordBytes('ns', key, v);
    const expected = -bytes('a', old) + bytes('a', result.next) + bytes('b', old) - bytes('n1', { text: 'old' });
    expect(result.tally).toEqual({ nodes: -1, bytes: expected });
  });

  it('reads a table again after a deleteRange of it', async () => {
    const { result, reads } = await withReads(
      (tx) => tx.put('adj', 'ns', 'a', { s: [], b: new Uint8Array(3) }),
      async (raw) => {
        const c = countingTx(raw, 'ns');
        c.tx.put('adj', 'ns', 'a', { s: [], b: new Uint8Array(5) });
        c.tx.deleteRange('adj', 'ns', undefined);
        c.tx.put('adj', 'ns', 'a', { s: [], b: new Uint8Array(2) });
        return c.settle();
      },
    );
    expect(reads).toEqual(['adj:a', 'adj:a']);
    // +5 -3 (the put), -5 (the range removes what the put wrote), +2 (absent after the range)
    const b = (n: number): number => recordBytes('ns', 'a', { s: [], b: new Uint8Array(n) });
    expect(result).toEqual({ nodes: 0, bytes: b(5) - b(3) - b(5) + b(2) });
  });
});
