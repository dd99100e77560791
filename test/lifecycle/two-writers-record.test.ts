/**
 * Issue 22 ("one store written once"): the record store checks `WriteBatch.expectMeta` as the
 * SQL store does (`two-writers-seq.test.ts`), so two writers of one record store without
 * `navigator.locks` (two tabs on one IndexedDB database, two Memory instances over one memory
 * driver) never give two nodes the same `seq`. The race is made deterministic as there: writer
 * B's whole write runs inside writer A's commit, after A loaded and planned and before A's batch
 * reaches the store. Before the record store checked `expectMeta`, A committed the seq B had just
 * taken (the six nodes got seqs 1, 1, 2, 2, 3, 3); now A's batch is refused and A plans again.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { createMemory, type Memory } from '../../src/memory.js';
import { createMemoryRecordDriver } from '../../src/plane/drivers/record-memory.js';
import type { RecordDriver } from '../../src/plane/drivers/record-driver.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { createRecordStore } from '../../src/plane/store/record-store.js';
import { CHANGED_ELSEWHERE, type StorageAdapter } from '../../src/plane/store/storage.js';
import { crashEncoder } from './fixtures/crash-encoder.js';
import { quietLogger } from './stores.js';

/** Two stores over one database; `hook` runs before each of the first store's commits. */
type Pair = (hook: () => Promise<void>) => Promise<{ a: StorageAdapter; b: StorageAdapter; close: () => Promise<void> }>;

/** `inner` with `hook` awaited before each commit (where a second writer slips in). */
function gated(inner: StorageAdapter, hook: () => Promise<void>): StorageAdapter {
  const out = Object.create(inner) as StorageAdapter;
  out.commit = async (ns, batch) => {
    await hook();
    return inner.commit(ns, batch);
  };
  return out;
}

const memoryPair: Pair = async (hook) => {
  const driver = createMemoryRecordDriver();
  // Each store closes its driver at close(): share one that only the test closes.
  const shared: RecordDriver = { transaction: (tables, mode, work) => driver.transaction(tables, mode, work), close: () => undefined };
  const words = { kind: 'memory', quotaRemedy: 'Free memory.' };
  return {
    a: gated(createRecordStore(shared, { ...words, label: 'memory store A' }), hook),
    b: createRecordStore(shared, { ...words, label: 'memory store B' }),
    close: async () => driver.close(),
  };
};

const idbPair: Pair = async (hook) => {
  const factory = new IDBFactory();
  const a = await createIdbStorage({ indexedDB: factory, dbName: 'two-tabs', persist: false });
  const b = await createIdbStorage({ indexedDB: factory, dbName: 'two-tabs', persist: false });
  return {
    a: gated(a, hook),
    b,
    close: async () => {
      await a.close();
      await b.close();
    },
  };
};

describe.each([
  ['memory record store (two stores over one memory driver)', memoryPair],
  ['IndexedDB (two connections to one database, fake-indexeddb)', idbPair],
])('two writers of one %s', (_label, pair) => {
  it('write alternately, B committing while A is between its load and its commit: every node gets its own seq, in commit order', async () => {
    let memB: Memory | undefined;
    let pendingB: string | undefined;
    const order: string[] = [];
    const hook = async (): Promise<void> => {
      const text = pendingB;
      if (text === undefined) return;
      pendingB = undefined;
      const { id } = await (memB as Memory).add({ text, source: 'b' });
      order.push(id);
    };
    const { a, b, close } = await pair(hook);
    const memA = await createMemory({ encoder: crashEncoder, storage: a, logger: quietLogger, namespace: 'ns', parameters: { maintenanceInterval: 0 } });
    memB = await createMemory({ encoder: crashEncoder, storage: b, logger: quietLogger, namespace: 'ns', parameters: { maintenanceInterval: 0 } });
    try {
      for (let i = 1; i <= 3; i++) {
        pendingB = `writer b turn ${i} about the harbour`;
        const { id } = await memA.add({ text: `writer a turn ${i} about the lighthouse`, source: 'a' });
        order.push(id);
      }
      // B wrote first each time (inside A's commit), then A committed after planning again.
      expect(order).toHaveLength(6);
      const nodes = (await b.load('ns')).nodes;
      const seqOf = new Map(nodes.map((n) => [n.id, n.seq]));
      expect(nodes).toHaveLength(6);
      expect(order.map((id) => seqOf.get(id))).toEqual([1, 2, 3, 4, 5, 6]);
      // A's three commits were each refused once and planned again.
      expect((await memA.stats()).replans).toBe(3);
      expect((await memA.stats()).nodes).toBe(6);
    } finally {
      await memA.close();
      await memB.close();
      await close();
    }
  });

  it('the store refuses a batch whose expected generation is not the stored one, with nothing written', async () => {
    const { a, b, close } = await pair(async () => undefined);
    try {
      await a.commit('ns', { meta: { generation: 'g1' } });
      const stale = a.commit('ns', { meta: { generation: 'g2', marker: 1 }, deleteNodeIds: ['x'], change: 7, expectMeta: { generation: 'g0' } });
      await expect(stale).rejects.toMatchObject({ code: 'STORAGE_FAILED', details: { [CHANGED_ELSEWHERE]: 'generation' } });
      expect(await b.loadMeta('ns')).toEqual({ generation: 'g1' });
      expect(await b.changesSince('ns', 0)).toEqual([]);
      // A batch that writes nothing is still checked.
      await expect(a.commit('ns', { expectMeta: { generation: 'g0' } })).rejects.toMatchObject({ code: 'STORAGE_FAILED', details: { [CHANGED_ELSEWHERE]: 'generation' } });
      await a.commit('ns', { expectMeta: { generation: 'g1' } });
      await a.commit('ns', { meta: { generation: 'g2' }, expectMeta: { generation: 'g1' } });
      await expect(a.commit('other', { meta: { x: 1 }, expectMeta: { generation: 'g1' } })).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
      expect(await b.namespaces()).toEqual(['ns']);
      await a.commit('other', { meta: { x: 1 }, expectMeta: { generation: null } });
      expect(await b.loadMeta('ns')).toEqual({ generation: 'g2' });
      expect(await b.loadMeta('other')).toEqual({ x: 1 });
      await expect(a.commit('ns', { meta: { y: 1 }, expectMeta: [] as unknown as Record<string, unknown> })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'batch.expectMeta' });
    } finally {
      await close();
    }
  });
});
