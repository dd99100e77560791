import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { DB_VERSION, createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { encodeVector, quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import type { MemoryNode } from '../../src/types.js';
import type { Checkpoint } from '../../src/plane/store/storage.js';
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
    // The estimate of the record store (the same over every driver): meta record namespace "ns" 2 +
    // key "k" 1 + value "é" 2 = 5; spaces record 2 + {nodes 5+8, bytes 5+8, checkpointBytes 15+8, edges 5+8,
    // byView 6+0, explicit 8+8, floor 5+8} = 99.
    expect(await s.sizeBytes!('ns')).toBe(5 + 99);
    await s.dropNamespace('ns');
    await s.commit('ns', { putEdges: [makeEdge('ns', 'a>b:temporal:precedes', 'a', 'b')] });
    // Two adjacency records, each key 3 + s: ["b"|"a","temporal","precedes","rule","consecutive-turns"] 1+38
    // + b (adjacency format 2): format 1, classes 1+4 (view, subtype, kind, by), times 1+6 (ms as a
    // varint), entry: flags, class, peer, weight in hundredths, time index (1 byte each) → 1+18: 61 each
    // (the id is not stored);
    // spaces record: key 2 + {nodes 5+8, bytes 5+8, checkpointBytes 15+8, edges 5+8, byView 6+(8+8), explicit 8+8, floor 5+8} = 115.
    expect(await s.sizeBytes!('ns')).toBe(61 + 61 + 115);
    await s.close();
  });

  it('writeCheckpoint checks a checkpoint as a batch checkpoint is checked: no parts object is INVALID_INPUT naming checkpoint.parts, and nothing is written', async () => {
    const s = await createIdbStorage({ indexedDB: new IDBFactory() });
    await s.commit('ns', { change: 1, putNodes: [makeNode('ns', 'a', 1)] });
    const noParts = { change: 1, format: 'test@1' } as unknown as Checkpoint;
    await expect(s.writeCheckpoint!('ns', noParts)).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'checkpoint.parts' });
    expect(await s.readCheckpoint!('ns')).toBeUndefined();
    // the change log is whole: the refused checkpoint dropped nothing
    expect(await s.changesSince!('ns', 0)).toEqual(['a']);
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

/** Opens `name` at `version` with raw IndexedDB, running `upgrade` in the version change. */
function rawOpen(factory: IDBFactory, name: string, version?: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = version === undefined ? factory.open(name) : factory.open(name, version);
    req.onupgradeneeded = () => upgrade?.(req.result);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** Writes records in the version-1 layout (nodes / edges / meta keyed [namespace, id|key], index by-namespace). */
async function writeV1(factory: IDBFactory, nodes: MemoryNode[], edges: unknown[], meta: Array<{ namespace: string; key: string; value: unknown }>): Promise<void> {
  const db = await rawOpen(factory, 'jev-mem', 1, (d) => {
    d.createObjectStore('nodes', { keyPath: ['namespace', 'id'] }).createIndex('by-namespace', 'namespace');
    d.createObjectStore('edges', { keyPath: ['namespace', 'id'] }).createIndex('by-namespace', 'namespace');
    d.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
  });
  const tx = db.transaction(['nodes', 'edges', 'meta'], 'readwrite');
  for (const n of nodes) tx.objectStore('nodes').put(n);
  for (const e of edges) tx.objectStore('edges').put(e);
  for (const m of meta) tx.objectStore('meta').put(m);
  await done(tx);
  db.close();
}

/** Every record of every store of the database, as text (binary values decoded as UTF-8). */
async function everyStoredText(factory: IDBFactory): Promise<string> {
  const db = await rawOpen(factory, 'jev-mem');
  const names = [...db.objectStoreNames];
  const tx = db.transaction(names, 'readonly');
  const all = await Promise.all(
    names.map(
      (name) =>
        new Promise<unknown[]>((resolve, reject) => {
          const req = tx.objectStore(name).getAll();
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        }),
    ),
  );
  db.close();
  const decoder = new TextDecoder('utf-8', { fatal: false });
  return JSON.stringify(all, (_k, v: unknown) => (v instanceof Uint8Array ? decoder.decode(v) : v));
}

describe('IndexedDB storage: version-1 migration', () => {
  const u = (i: number): string => `0000000${i}-aaaa-4bbb-8ccc-00000000000${i}`;
  const nodeA = { ...makeNode('ns', u(1), 1, 'first'), embedding: { encoder: 'e@1', vector: [0.123456, -0.5, 1e-9] } };
  const nodeB = { ...makeNode('ns', u(2), 2, 'second'), embedding: { encoder: 'e@1', vector: quantizeVector([0.3, -0.2, 0.9]) } };
  const other = makeNode('other', 'x', 1, 'other namespace');
  const canonical = { ...makeEdge('ns', `${u(1)}>${u(2)}:semantic:related`, u(1), u(2), 0.8125), view: 'semantic' as const, subtype: 'related' as const };
  const explicit = makeEdge('ns', 'legacy-edge', u(2), u(1), 0.3);
  const loop = makeEdge('other', 'x>x:temporal:precedes', 'x', 'x');

  it('rewrites nodes, edges and meta to the new layout and loses nothing', async () => {
    const factory = new IDBFactory();
    await writeV1(factory, [nodeB, nodeA, other], [canonical, explicit, loop], [
      { namespace: 'ns', key: 'encoder', value: 'e@1' },
      { namespace: 'ns', key: 'change', value: 7 },
    ]);
    const s = await createIdbStorage({ indexedDB: factory });
    expect(await s.load('ns')).toEqual({ nodes: [nodeA, nodeB], edges: [canonical, explicit].sort((a, b) => (a.id < b.id ? -1 : 1)), meta: { change: 7, encoder: 'e@1' } });
    expect(await s.load('other')).toEqual({ nodes: [other], edges: [loop], meta: {} });
    expect(await s.getNodes!('ns', [u(2), u(1)])).toEqual([nodeB, nodeA]);
    expect((await s.getEdges!('ns', [u(1)])).map((e) => e.id).sort()).toEqual([canonical.id, explicit.id].sort());
    expect(await s.counts!('ns')).toEqual({ nodes: 2, edges: 2, edgesByView: { semantic: 1, temporal: 1 } });
    // No log reaches back before the migration: the change meta key becomes the log's floor.
    expect(await s.changesSince!('ns', 0)).toBeUndefined();
    expect(await s.changesSince!('ns', 7)).toEqual([]);
    expect(await s.namespaces()).toEqual(['ns', 'other']);
    // The legacy id still deletes its edge.
    await s.commit('ns', { deleteEdgeIds: ['legacy-edge'] });
    expect((await s.getEdges!('ns', [u(1)])).map((e) => e.id)).toEqual([canonical.id]);
    await s.close();
    const db = await rawOpen(factory, 'jev-mem');
    expect([db.version, [...db.objectStoreNames].sort()]).toEqual([DB_VERSION, ['adj', 'changes', 'checkpoints', 'edge-ids', 'meta', 'node', 'spaces']]);
    db.close();
  });

  it('a migration that fails leaves the version-1 database as it was', async () => {
    const factory = new IDBFactory();
    const broken = { ...makeEdge('ns', 'bad', u(1), u(2)), origin: undefined };
    await writeV1(factory, [nodeA], [broken], []);
    await expect(createIdbStorage({ indexedDB: factory })).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    const db = await rawOpen(factory, 'jev-mem');
    expect([db.version, [...db.objectStoreNames].sort()]).toEqual([1, ['edges', 'meta', 'nodes']]);
    const tx = db.transaction('nodes', 'readonly');
    const req = tx.objectStore('nodes').getAll();
    await done(tx);
    expect(req.result).toEqual([nodeA]);
    db.close();
  });
});

describe('IndexedDB storage: erasure', () => {
  it('after a delete, no record of any store holds the deleted text', async () => {
    const factory = new IDBFactory();
    const s = await createIdbStorage({ indexedDB: factory });
    const secret = 'my passport number is X1234567';
    const gone = makeNode('ns', 'gone', 2, secret);
    const kept = makeNode('ns', 'kept', 1, 'harmless');
    await s.commit('ns', {
      change: 1,
      putNodes: [kept, gone],
      putEdges: [makeEdge('ns', 'kept>gone:temporal:precedes', 'kept', 'gone'), makeEdge('ns', 'gone>kept:temporal:after', 'gone', 'kept')],
      meta: { change: 1 },
    });
    await s.writeCheckpoint!('ns', { change: 1, format: 'test@1', parts: { lexical: new TextEncoder().encode(JSON.stringify({ docs: [secret] })) } });
    expect(await everyStoredText(factory)).toContain(secret);
    await s.commit('ns', { change: 2, deleteNodeIds: ['gone'], deleteEdgeIds: ['kept>gone:temporal:precedes', 'gone>kept:temporal:after'], meta: { change: 2 } });
    await s.dropCheckpoint!('ns');
    const stored = await everyStoredText(factory);
    expect(stored).not.toContain('passport');
    expect(stored).toContain('harmless');
    expect(await s.changesSince!('ns', 1)).toEqual(['gone']);
    await s.close();
  });
});

describe('IndexedDB storage: vectors', () => {
  it('keeps −0 exactly, and a quantized vector holds no −0 (so it stays on the 5 + d byte grid form)', async () => {
    const q = quantizeVector([-0.001, 0.5, -0.3]);
    expect(Object.is(q[0], 0)).toBe(true); // round(−0.001 / s) · s is −0 without the fix
    expect(encodeVector(q).length).toBe(5 + 3);
    expect(encodeVector([-0, 0.5]).length).toBe(1 + 8 * 2);
    const s = await createIdbStorage({ indexedDB: new IDBFactory() });
    const a = { ...makeNode('ns', 'a', 1), embedding: { encoder: 'e', vector: [-0, 0.5] } };
    await s.commit('ns', { putNodes: [a] });
    const [back] = await s.getNodes!('ns', ['a']);
    expect(Object.is(back!.embedding.vector[0], -0)).toBe(true);
    await s.close();
  });
});
