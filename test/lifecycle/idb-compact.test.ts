/**
 * `compactIdbDatabase` (issue 22, `src/plane/store/idb-compact.ts`) over fake-indexeddb: the
 * rebuilt database holds exactly what the original held (every record of every object store,
 * the version, and so the same list and recall), leaves no scratch database behind, and a
 * compaction that dies half way loses nothing: the next open finishes a complete copy and drops
 * an incomplete one. (Whether the browser's files keep erased bytes is
 * `test/browser/idb-erasure.test.ts`, in Chromium.)
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { compactIdbDatabase, createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { isJevMemError } from '../../src/errors.js';
import { lifecycleFixture } from './helpers.js';
import { quietLogger } from './stores.js';

let encoder: Encoder;
lifecycleFixture('idb-compact', (e) => (encoder = e));

/** Every record of every object store of `name`, as `store: key → value` (structured values compared deeply). */
async function dump(factory: IDBFactory, name: string): Promise<{ version: number; stores: Record<string, Array<[unknown, unknown]>> }> {
  const db = await new Promise<IDBDatabase>((ok, no) => {
    const r = factory.open(name);
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const stores: Record<string, Array<[unknown, unknown]>> = {};
  for (const s of [...db.objectStoreNames]) {
    const os = db.transaction(s).objectStore(s);
    const [keys, values] = await Promise.all(
      [os.getAllKeys(), os.getAll()].map((r) => new Promise<unknown[]>((ok, no) => ((r.onsuccess = () => ok(r.result as unknown[])), (r.onerror = () => no(r.error))))),
    );
    stores[s] = keys!.map((k, i) => [k, values![i]]);
  }
  const version = db.version;
  db.close();
  return { version, stores };
}

async function filled(factory: IDBFactory): Promise<{ kept: string[]; top: string | undefined }> {
  const memory = await createMemory({ encoder, storage: await createIdbStorage({ indexedDB: factory, persist: false }), logger: quietLogger });
  for (let i = 0; i < 12; i++) await memory.add({ text: `note ${i}: the heron nests by the mill pond in spring`, speaker: 'user' });
  const gone = await memory.add({ text: 'The locker code is Vexmorrow 4411', speaker: 'Ophelius' });
  await memory.add({ text: 'The garden gate code is Keptwillow seven', speaker: 'user' }, { namespace: 'other' });
  expect(await memory.delete(gone.id)).toBe(true);
  const kept = (await memory.list({ limit: 100 })).memories.map((m) => m.text).sort();
  const top = (await memory.recall('Where does the heron nest?')).memories[0]?.text;
  await memory.close();
  return { kept, top };
}

async function reopened(factory: IDBFactory): Promise<{ kept: string[]; top: string | undefined; other: number }> {
  const memory = await createMemory({ encoder, storage: await createIdbStorage({ indexedDB: factory, persist: false }), logger: quietLogger });
  const kept = (await memory.list({ limit: 100 })).memories.map((m) => m.text).sort();
  const top = (await memory.recall('Where does the heron nest?')).memories[0]?.text;
  const other = (await memory.list({ limit: 100, namespace: 'other' })).memories.length;
  await memory.close();
  return { kept, top, other };
}

describe('compactIdbDatabase (issue 22)', () => {
  it('rebuilds the database record for record, same version, and leaves no scratch database', async () => {
    const factory = new IDBFactory();
    const before = await filled(factory);
    const bytes = await dump(factory, 'jev-mem');
    const result = await compactIdbDatabase({ indexedDB: factory });
    const total = Object.values(bytes.stores).reduce((n, r) => n + r.length, 0);
    expect(result).toEqual({ records: total, stores: Object.keys(bytes.stores).length });
    expect(await dump(factory, 'jev-mem')).toEqual(bytes);
    expect((await factory.databases()).map((d) => d.name)).toEqual(['jev-mem']);
    const after = await reopened(factory);
    expect(after.kept).toEqual(before.kept);
    expect(after.kept).toHaveLength(12);
    expect(after.top).toBe(before.top);
    expect(after.other).toBe(1);
  });

  it('a compaction that dies after deleting the original is finished by the next open, losing nothing', async () => {
    const factory = new IDBFactory();
    const before = await filled(factory);
    const bytes = await dump(factory, 'jev-mem');
    // The page "dies" when it opens the new original to copy back into.
    let deleted = false;
    const dying = Object.create(factory) as IDBFactory;
    dying.deleteDatabase = (name: string) => {
      if (name === 'jev-mem') deleted = true;
      return factory.deleteDatabase(name);
    };
    dying.open = (name: string, version?: number) => {
      if (deleted && name === 'jev-mem') throw new Error('page closed');
      return factory.open(name, version);
    };
    const failure = await compactIdbDatabase({ indexedDB: dying }).catch((e: unknown) => e);
    expect(isJevMemError(failure) && failure.code).toBe('STORAGE_FAILED');
    expect((await factory.databases()).map((d) => d.name)).toEqual(['jev-mem~compact']);
    const after = await reopened(factory); // createIdbStorage finishes the compaction
    expect(after.kept).toEqual(before.kept);
    expect(after.top).toBe(before.top);
    expect((await factory.databases()).map((d) => d.name).sort()).toEqual(['jev-mem']);
    expect(await dump(factory, 'jev-mem')).toEqual(bytes);
  });

  it('an incomplete copy (the page died while copying) is dropped at open and the original kept', async () => {
    const factory = new IDBFactory();
    const before = await filled(factory);
    await new Promise<void>((ok, no) => {
      const r = factory.open('jev-mem~compact', 4);
      r.onupgradeneeded = () => r.result.createObjectStore('node').put('half', ['x', 1]);
      r.onsuccess = () => (r.result.close(), ok());
      r.onerror = () => no(r.error);
    });
    const after = await reopened(factory);
    expect(after.kept).toEqual(before.kept);
    expect((await factory.databases()).map((d) => d.name)).toEqual(['jev-mem']);
  });

  it('refuses with CONFLICT while a memory on the database is open, changing nothing: the open memory goes on writing (issue 22)', async () => {
    const factory = new IDBFactory();
    await filled(factory);
    const memory = await createMemory({ encoder, storage: await createIdbStorage({ indexedDB: factory, persist: false }), logger: quietLogger });
    const bytes = await dump(factory, 'jev-mem');
    const refused = await compactIdbDatabase({ indexedDB: factory }).catch((e: unknown) => e);
    expect(isJevMemError(refused) && [refused.code, refused.field, refused.details.inUse]).toEqual(['CONFLICT', 'dbName', true]);
    expect((refused as Error).message).toContain('Close every memory on it');
    expect(await dump(factory, 'jev-mem')).toEqual(bytes);
    // The open memory's connection was not closed under it: its next write commits.
    await memory.add({ text: 'The kayak is stored in the red shed by the mill pond', speaker: 'user' });
    await memory.close();
    // Once every memory is closed the compaction runs (close() resolves once the database is given back), and again right after.
    expect((await compactIdbDatabase({ indexedDB: factory })).stores).toBe(Object.keys(bytes.stores).length);
    expect((await compactIdbDatabase({ indexedDB: factory })).stores).toBe(Object.keys(bytes.stores).length);
    expect((await factory.databases()).map((d) => d.name)).toEqual(['jev-mem']);
    const after = await reopened(factory);
    expect(after.kept).toHaveLength(13);
    expect(after.kept).toContain('The kayak is stored in the red shed by the mill pond');
  });

  it('writes racing a compaction lose nothing: a memory opened meanwhile waits for it, every write that resolved is in the rebuilt database (issue 22)', async () => {
    const factory = new IDBFactory();
    const before = await filled(factory);
    const compaction = compactIdbDatabase({ indexedDB: factory });
    const notes = Array.from({ length: 8 }, (_, i) => `Kayak ${i} is stored in the red shed number ${i}`);
    const written: string[] = [];
    const writer = (async () => {
      const memory = await createMemory({ encoder, storage: await createIdbStorage({ indexedDB: factory, persist: false }), logger: quietLogger });
      try {
        for (const text of notes) {
          await memory.add({ text, speaker: 'user' });
          written.push(text);
        }
      } finally {
        await memory.close().catch(() => undefined);
      }
    })();
    const [compacted, wrote] = await Promise.allSettled([compaction, writer]);
    expect(compacted.status, String((compacted as PromiseRejectedResult).reason)).toBe('fulfilled');
    expect(wrote.status, String((wrote as PromiseRejectedResult).reason)).toBe('fulfilled');
    expect((await factory.databases()).map((d) => d.name)).toEqual(['jev-mem']);
    const after = await reopened(factory);
    expect(written).toEqual(notes);
    expect(after.kept).toEqual([...before.kept, ...notes].sort());
    expect(after.other).toBe(1);
  });

  it('writes of a memory open before the compaction: each either lands or fails loudly, none resolves and is lost (issue 22)', async () => {
    const factory = new IDBFactory();
    const before = await filled(factory);
    const memory = await createMemory({ encoder, storage: await createIdbStorage({ indexedDB: factory, persist: false }), logger: quietLogger });
    const notes = Array.from({ length: 8 }, (_, i) => `Canoe ${i} is stored in the blue barn number ${i}`);
    const written: string[] = [];
    const writer = (async () => {
      for (const text of notes) {
        try {
          await memory.add({ text, speaker: 'user' });
          written.push(text);
        } catch (e) {
          expect(isJevMemError(e), String(e)).toBe(true);
        }
      }
    })();
    const compacted = await compactIdbDatabase({ indexedDB: factory }).then(
      () => 'done',
      (e: unknown) => (isJevMemError(e) ? e.code : String(e)),
    );
    await writer;
    await memory.close().catch(() => undefined);
    expect(['done', 'CONFLICT']).toContain(compacted);
    const after = await reopened(factory);
    expect(after.kept).toEqual([...before.kept, ...written].sort());
  });

  it('names the field of a bad option', async () => {
    const e = await compactIdbDatabase({ dbName: '' }).catch((x: unknown) => x);
    expect(isJevMemError(e) && [e.code, e.field]).toEqual(['INVALID_OPTION', 'dbName']);
  });
});
