/**
 * The IndexedDB store seals every record besides nodes and checkpoints with its CRC-32 (database
 * version 5, issue 22), as the SQL driver does: a changed byte in an adjacency, edge-id, meta,
 * change-log or bookkeeping record is found, named in `damaged().records` and the store goes on
 * without it (edges from their other ends, counts counted again, the change log not whole). Before,
 * these records were structured clones without a checksum, and a changed value was served as it
 * was (a wrong count, a wrong edge). The checkpoint record's head (change number, format, part
 * sums) has its own sum. A database of version 4 (values unsealed) opens and reads as before;
 * its records are sealed as they are next written.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import { ONE, RECORD_TABLES, type RecordTable } from '../../src/plane/drivers/record-driver.js';
import { createMemoryRecordDriver } from '../../src/plane/drivers/record-memory.js';
import { SEALED } from '../../src/plane/drivers/record-sql-seal.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { createRecordStore } from '../../src/plane/store/record-store.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { makeEdge, makeNode } from './fixtures.js';

const A = 'alpha';

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((done, fail) => {
    r.onsuccess = () => done(r.result);
    r.onerror = () => fail(r.error);
  });
}

/** The raw key of `(table, A, key)` in the database layout. */
function rawKey(table: RecordTable, key: string | number): IDBValidKey {
  return table === 'checkpoints' || table === 'spaces' ? A : [A, key];
}

/** Runs `change` on the stored value of `(table, A, key)` and puts what it returns back, raw. */
async function rawChange(factory: IDBFactory, table: RecordTable, key: string | number, change: (stored: any) => unknown): Promise<void> {
  const db = await request(factory.open('jev-mem'));
  const tx = db.transaction(table, 'readwrite');
  const store = tx.objectStore(table);
  const stored = await request(store.get(rawKey(table, key)));
  expect(stored).toBeDefined();
  const changed = change(stored);
  if (table === 'meta') store.put(changed);
  else store.put(changed, rawKey(table, key));
  await new Promise<void>((done, fail) => {
    tx.oncomplete = () => done();
    tx.onerror = () => fail(tx.error);
  });
  db.close();
}

/** One bit of the stored value changed: in the middle of its bytes when it is sealed, else in the field `field` (a number) or string `field`. */
function flipBit(field: string): (stored: any) => unknown {
  return (stored) => {
    const bytes: unknown = stored instanceof Uint8Array ? stored : stored?.sealed;
    if (bytes instanceof Uint8Array) {
      bytes[bytes.length >> 1] = bytes[bytes.length >> 1]! ^ 0x10;
      return stored;
    }
    // The value as a build before version 5 stored it: the same flip, in the value itself.
    const target = 'value' in stored && typeof stored.value === 'object' ? stored.value : stored;
    const v = target[field];
    if (typeof v === 'number') target[field] = v ^ 0x10;
    else if (typeof v === 'string') target[field] = String.fromCharCode(v.charCodeAt(0) ^ 0x10) + v.slice(1);
    else throw new Error(`no field ${field} in ${JSON.stringify(stored)}`);
    return stored;
  };
}

/** Three nodes a → b → c, an edge with an explicit id a → c, meta, two changes. */
async function fill(store: StorageAdapter): Promise<void> {
  const [a, b, c] = ['a', 'b', 'c'].map((id, i) => makeNode(A, id, i + 1));
  await store.commit(A, { putNodes: [a!, b!, c!], putEdges: [makeEdge(A, 'a>b:temporal:precedes', 'a', 'b'), makeEdge(A, 'b>c:temporal:precedes', 'b', 'c')], meta: { schemaVersion: 1, note: { text: 'kept' } }, change: 1 });
  await store.commit(A, { putEdges: [makeEdge(A, 'explicit-1', 'a', 'c')], change: 2 });
}

const ids = (edges: ReadonlyArray<{ id: string }>): string[] => edges.map((e) => e.id).sort();

describe('the seal of the IndexedDB record values', () => {
  it('a flipped bit in the bookkeeping record is named and the counts are counted again, not served', async () => {
    const factory = new IDBFactory();
    const sound = await createIdbStorage({ indexedDB: factory, persist: false });
    await fill(sound);
    const counts = await sound.counts(A);
    expect(counts.edges).toBe(3);
    await sound.close();
    await rawChange(factory, 'spaces', ONE, flipBit('edges'));
    const store = await createIdbStorage({ indexedDB: factory, persist: false });
    expect(await store.counts(A)).toEqual(counts);
    expect((await store.damaged(A)).records).toEqual(['spaces:']);
    await store.close();
  });

  it('a flipped bit in an adjacency record is named; every edge is still read, from the other ends', async () => {
    const factory = new IDBFactory();
    const sound = await createIdbStorage({ indexedDB: factory, persist: false });
    await fill(sound);
    const before = await sound.load(A);
    await sound.close();
    // A string of b's record (a view or subtype in its table), or a byte of the sealed value.
    await rawChange(factory, 'adj', 'b', (stored) => {
      if (!(stored instanceof Uint8Array)) stored.s[0] = String.fromCharCode(stored.s[0].charCodeAt(0) ^ 0x10) + stored.s[0].slice(1);
      else stored[stored.length >> 1] = stored[stored.length >> 1]! ^ 0x10;
      return stored;
    });
    const store = await createIdbStorage({ indexedDB: factory, persist: false });
    expect((await store.load(A)).edges).toEqual(before.edges);
    expect((await store.damaged(A)).records).toEqual(['adj:b']);
    await store.close();
  });

  it('a flipped bit in an adjacency record and in the bookkeeping at once: the counts again include the edges the damaged record held', async () => {
    const factory = new IDBFactory();
    const sound = await createIdbStorage({ indexedDB: factory, persist: false });
    await fill(sound);
    const counts = await sound.counts(A);
    await sound.close();
    await rawChange(factory, 'adj', 'a', (stored) => {
      if (!(stored instanceof Uint8Array)) stored.s[0] = String.fromCharCode(stored.s[0].charCodeAt(0) ^ 0x10) + stored.s[0].slice(1);
      else stored[stored.length >> 1] = stored[stored.length >> 1]! ^ 0x10;
      return stored;
    });
    await rawChange(factory, 'spaces', ONE, flipBit('edges'));
    const store = await createIdbStorage({ indexedDB: factory, persist: false });
    // a's two out-edges (a → b, a → c) are on b's and c's records as in-entries.
    expect(await store.counts(A)).toEqual(counts);
    expect((await store.damaged(A)).records).toEqual(['adj:a', 'spaces:']);
    await store.close();
  });

  it('a flipped bit in an edge-id record, a meta value or a change list is named; meta reads as never written, the change log as not whole', async () => {
    const factory = new IDBFactory();
    const sound = await createIdbStorage({ indexedDB: factory, persist: false });
    await fill(sound);
    const before = await sound.load(A);
    await sound.close();
    await rawChange(factory, 'edge-ids', 'explicit-1', (stored) => {
      if (Array.isArray(stored)) stored[0] = 'q'; // before version 5: [from, to]
      else stored[stored.length >> 1] = stored[stored.length >> 1]! ^ 0x10;
      return stored;
    });
    await rawChange(factory, 'meta', 'note', (stored) => flipBit('text')(stored.sealed instanceof Uint8Array ? stored : { ...stored, value: stored.value }));
    await rawChange(factory, 'changes', 1, (stored) => {
      if (Array.isArray(stored)) stored[0] = 'q'; // before version 5: the ids changed
      else stored[stored.length >> 1] = stored[stored.length >> 1]! ^ 0x10;
      return stored;
    });
    const store = await createIdbStorage({ indexedDB: factory, persist: false });
    const loaded = await store.load(A);
    expect(ids(loaded.edges)).toEqual(ids(before.edges));
    expect(loaded.meta).toEqual({ schemaVersion: 1 });
    expect(await store.changesSince(A, 0)).toBeUndefined();
    expect((await store.damaged(A)).records).toEqual(['changes:1', 'edge-ids:explicit-1', 'meta:note']);
    await store.close();
  });

  it("a flipped bit in a checkpoint's change number is STORE_DAMAGED (field checkpoint), not a checkpoint that claims other changes", async () => {
    const factory = new IDBFactory();
    const sound = await createIdbStorage({ indexedDB: factory, persist: false });
    await fill(sound);
    await sound.writeCheckpoint(A, { change: 2, format: 'test@1', parts: { a: new Uint8Array([1, 2, 3]) } });
    await sound.close();
    await rawChange(factory, 'checkpoints', ONE, flipBit('change'));
    const store = await createIdbStorage({ indexedDB: factory, persist: false });
    const failure = await store.readCheckpoint(A).catch((e: unknown) => e);
    expect(isJevMemError(failure, 'STORE_DAMAGED')).toBe(true);
    expect((failure as { details: { field: string } }).details.field).toBe('checkpoint');
    expect((await store.damaged(A)).checkpoint).toBe(true);
    await store.close();
  });

  it('a database of version 4 (values unsealed) opens and reads as before; written records are sealed, the others stay', async () => {
    // The records as a build of version 4 kept them: the store's values, as structured clones.
    const model = createMemoryRecordDriver();
    const modelStore = createRecordStore(model, { kind: 'memory', label: 'the model', quotaRemedy: 'Free memory.' });
    await fill(modelStore);
    const before = await modelStore.load(A);
    const counts = await modelStore.counts(A);
    const factory = new IDBFactory();
    const open = factory.open('jev-mem', 4);
    open.onupgradeneeded = () => {
      const db = open.result;
      db.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
      for (const name of ['node', 'adj', 'edge-ids', 'changes', 'checkpoints', 'spaces']) db.createObjectStore(name);
    };
    const db = await request(open);
    const tx = db.transaction([...RECORD_TABLES], 'readwrite');
    await model.transaction(RECORD_TABLES, 'read', async (mtx) => {
      for (const table of RECORD_TABLES) {
        for (const [key, value] of await mtx.scan(table, A, undefined, Infinity)) {
          if (table === 'meta') tx.objectStore(table).put({ namespace: A, key, value });
          else tx.objectStore(table).put(value, rawKey(table, key));
        }
      }
    });
    await new Promise<void>((done, fail) => {
      tx.oncomplete = () => done();
      tx.onerror = () => fail(tx.error);
    });
    db.close();

    const store = await createIdbStorage({ indexedDB: factory, persist: false });
    expect(await store.load(A)).toEqual(before);
    expect(await store.counts(A)).toEqual(counts);
    expect(await store.damaged(A)).toEqual({ ids: [], checkpoint: false });
    await store.commit(A, { putNodes: [makeNode(A, 'd', 4)], putEdges: [makeEdge(A, 'c>d:temporal:precedes', 'c', 'd')], change: 3 });
    expect(await store.counts(A)).toEqual({ nodes: 4, edges: 4, edgesByView: { temporal: 4 } });
    await store.close();

    const raw = await request(factory.open('jev-mem'));
    expect(raw.version).toBe(5);
    const read = (table: string, key: IDBValidKey): Promise<any> => request(raw.transaction(table, 'readonly').objectStore(table).get(key));
    for (const [table, key] of [['adj', [A, 'c']], ['adj', [A, 'd']], ['changes', [A, 3]], ['spaces', A]] as const) {
      const v = await read(table, key);
      expect([table, v instanceof Uint8Array && v[0] === SEALED]).toEqual([table, true]);
    }
    // Not written since: still the version-4 values.
    expect((await read('adj', [A, 'a'])) instanceof Uint8Array).toBe(false);
    expect((await read('meta', [A, 'note'])).value).toEqual({ text: 'kept' });
    raw.close();
  });
});
