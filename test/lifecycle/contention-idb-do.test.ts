/**
 * Two writers of one namespace at once on the browser's and the Worker's stores (issue 22,
 * "Concurrency without freezes", h-lock): the CHANGED_ELSEWHERE retry (h-retry: a refused chunk
 * committed again one observation at a time) was tested on the Node SQLite store only. Here two
 * IndexedDB connections to one database (two tabs; fake-indexeddb) and two adapters over one
 * Durable Object's storage (two requests of one object; node-sqlite3-wasm standing in for it)
 * ingest into one namespace at the same time: nothing is lost, nothing duplicated, each
 * observation has its own seq, the counts are right on both sides, and neither caller sees an error.
 */
import { IDBFactory } from 'fake-indexeddb';
import { Database } from 'node-sqlite3-wasm';
import { describe, expect, it } from 'vitest';
import { createDurableObjectStorage } from '../../src/edge/do-storage.js';
import { createMemory } from '../../src/memory.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import type { Observation } from '../../src/types.js';
import { crashEncoder } from './fixtures/crash-encoder.js';
import { fakeDoStorage } from './fake-do-storage.js';
import { quietLogger } from './stores.js';

const PLACES = ['harbour', 'orchard', 'library', 'bakery', 'station', 'market'];
const turns = (who: string, n: number): Observation[] =>
  Array.from({ length: n }, (_, i) => ({ text: `${who}: on day ${i} I walked to the ${PLACES[i % PLACES.length]} with my sister number ${i}`, speaker: who, source: who }));

describe.each([
  ['IndexedDB (two connections to one database)', async (): Promise<[StorageAdapter, StorageAdapter, () => void]> => {
    const indexedDB = new IDBFactory();
    return [await createIdbStorage({ indexedDB, dbName: 'shared' }), await createIdbStorage({ indexedDB, dbName: 'shared' }), () => undefined];
  }],
  ['Durable Object SQL (two adapters over one storage)', async (): Promise<[StorageAdapter, StorageAdapter, () => void]> => {
    const db = new Database();
    const raw = fakeDoStorage(db);
    return [createDurableObjectStorage(raw), createDurableObjectStorage(raw), () => db.close()];
  }],
])('two writers ingesting into one namespace of %s at once', (_label, pair) => {
  it('lose nothing, duplicate nothing, give every observation its own seq, and fail neither caller', async () => {
    const [a, b, close] = await pair();
    const open = (storage: StorageAdapter) => createMemory({ encoder: crashEncoder, storage, logger: quietLogger, namespace: 'ns', systemOne: undefined, parameters: { maintenanceInterval: 0 } } as never);
    const memA = await open(a);
    const memB = await open(b);
    try {
      const fromA = turns('Maya', 24);
      const fromB = turns('Tom', 24);
      // Each in chunks, interleaved by the event loop: each writer loads, plans and commits while the other does.
      const results = await Promise.allSettled([memA.addMany(fromA), memB.addMany(fromB)]);
      expect(results.map((r) => (r.status === 'rejected' ? String(r.reason) : 'ok'))).toEqual(['ok', 'ok']);
      const [addedA, addedB] = results.map((r) => (r as PromiseFulfilledResult<Array<{ id: string }>>).value);
      expect(addedA).toHaveLength(24);
      expect(addedB).toHaveLength(24);
      const nodes = (await a.load('ns')).nodes;
      expect(nodes.map((n) => n.text).sort()).toEqual([...fromA, ...fromB].map((t) => t.text).sort());
      expect(new Set(nodes.map((n) => n.id)).size).toBe(48);
      expect(new Set([...addedA, ...addedB].map((r) => r.id))).toEqual(new Set(nodes.map((n) => n.id)));
      expect(nodes.map((n) => n.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 48 }, (_, i) => i + 1));
      for (const m of [memA, memB]) expect((await m.stats()).nodes).toBe(48);
      expect((await a.counts('ns')).nodes).toBe(48);
      expect((await b.counts('ns')).nodes).toBe(48);
    } finally {
      await memA.close();
      await memB.close();
      close();
    }
  }, 120_000);
});
