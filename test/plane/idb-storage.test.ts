import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { DB_VERSION, createIdbStorage } from '../../src/plane/idb-storage.js';
import { makeEdge, makeNode } from './fixtures.js';
import { describeStorageContract } from './storage-contract.js';

describeStorageContract('indexeddb', () => createIdbStorage({ indexedDB: new IDBFactory() }), 25);

describe('IndexedDB storage', () => {
  it('a second connection to the same database sees committed data', async () => {
    const factory = new IDBFactory();
    const first = await createIdbStorage({ indexedDB: factory, dbName: 'shared' });
    await first.commit('ns', { putNodes: [makeNode('ns', 'a', 1)], meta: { k: 'v' } });
    await first.close();
    const second = await createIdbStorage({ indexedDB: factory, dbName: 'shared' });
    const snap = await second.load('ns');
    expect(snap.nodes.map((n) => n.id)).toEqual(['a']);
    expect(snap.meta).toEqual({ k: 'v' });
    await second.close();
  });

  it('a put that fails mid-batch leaves every store exactly as before', async () => {
    const s = await createIdbStorage({ indexedDB: new IDBFactory() });
    await s.commit('ns', {
      putNodes: [makeNode('ns', 'a', 1, 'kept')],
      putEdges: [makeEdge('ns', 'e1', 'a', 'a')],
      meta: { cursor: 1 },
    });
    const before = await s.load('ns');
    const poisoned = makeNode('ns', 'bad', 3);
    (poisoned.provenance.metadata as Record<string, unknown>).fn = () => 'not cloneable';
    const err = await s
      .commit('ns', {
        deleteNodeIds: ['a'],
        deleteEdgeIds: ['e1'],
        putNodes: [makeNode('ns', 'b', 2), poisoned, makeNode('ns', 'c', 4)],
        meta: { cursor: 2 },
      })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'JevMemError', code: 'STORAGE_FAILED' });
    expect(await s.load('ns')).toEqual(before);
    await s.close();
  });

  it('maps a QuotaExceededError to QUOTA_EXCEEDED and writes nothing', async () => {
    const s = await createIdbStorage({ indexedDB: new IDBFactory() });
    const node = makeNode('ns', 'big', 1);
    // The structured clone inside put() reads this getter, which fails the way a full disk does.
    Object.defineProperty(node.provenance, 'metadata', {
      enumerable: true,
      get() {
        throw new DOMException('the quota has been exceeded', 'QuotaExceededError');
      },
    });
    await expect(s.commit('ns', { putNodes: [makeNode('ns', 'a', 2), node] })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((await s.load('ns')).nodes).toEqual([]);
    await s.close();
  });

  it('refuses a database written by a newer schema with SCHEMA_MISMATCH', async () => {
    const factory = new IDBFactory();
    await new Promise<void>((resolve, reject) => {
      const req = factory.open('jev-mem', DB_VERSION + 1);
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    await expect(createIdbStorage({ indexedDB: factory })).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
  });

  it('closes itself when another connection upgrades the database', async () => {
    const factory = new IDBFactory();
    const s = await createIdbStorage({ indexedDB: factory });
    await new Promise<void>((resolve, reject) => {
      const req = factory.open('jev-mem', DB_VERSION + 1);
      req.onsuccess = () => {
        req.result.close();
        resolve();
      };
      req.onerror = () => reject(req.error);
    });
    await expect(s.load('ns')).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    await s.close();
  });

  it('sizeBytes sums the bytes of keys and values (strings as UTF-8, numbers 8, binary at its length)', async () => {
    const s = await createIdbStorage({ indexedDB: new IDBFactory() });
    expect(await s.sizeBytes!('ns')).toBe(0);
    await s.commit('ns', { meta: { k: 'é' } });
    // key ["ns","k"] 3 + {namespace:"ns",key:"k",value:"é"} (9+2)+(3+1)+(5+2) = 25
    expect(await s.sizeBytes!('ns')).toBe(25);
    await s.dropNamespace('ns');
    await s.commit('ns', { putEdges: [makeEdge('ns', 'a>b:temporal:precedes', 'a', 'b')] });
    // Two adjacency records, each key 3 + s: ["b"|"a","temporal","precedes","rule","consecutive-turns"] 1+38
    // + b: flags, peer, view, subtype, kind, by (1 byte each), weight 8, time 8 → 1+22: 65 each (the id is not stored);
    // spaces record: key 2 + {edges 5+8, byView 6+(8+8), explicit 8+8, floor 5+8} = 66.
    expect(await s.sizeBytes!('ns')).toBe(65 + 65 + 66);
    await s.close();
  });

  it('without an IndexedDB factory fails with INVALID_OPTION naming indexedDB', async () => {
    const saved = globalThis.indexedDB;
    // @ts-expect-error simulate an environment without IndexedDB
    delete globalThis.indexedDB;
    try {
      await expect(createIdbStorage()).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'indexedDB' });
    } finally {
      globalThis.indexedDB = saved;
    }
  });
});
