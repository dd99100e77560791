/**
 * One language per namespace, whichever process opens it (issue 22, h-damage4 item 3): two
 * memories opening one namespace with different `language` options rebuilt its lexical index
 * against each other at every open, and each write stored its own language over the other's
 * (ping-pong). Now the stored language wins: an option of another language fails the
 * namespace's first use with LANGUAGE_MISMATCH (naming the option's field, the stored and the
 * given tag), rebuilding and writing nothing; a tag of the same language reads it as stored;
 * `changeLanguage: true` changes it on purpose. The same on every store: in-memory, IndexedDB,
 * the Node SQLite store and the Durable Object's (two adapters over one database each, as two
 * processes or two isolates have).
 */
import 'fake-indexeddb/auto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import sqlite from 'node-sqlite3-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDurableObjectStorage } from '../../src/edge/do-storage.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory, type MemoryOptions } from '../../src/memory.js';
import { LEXICAL_VERSION } from '../../src/plane/indexes/lexical.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { fakeDoStorage } from '../lifecycle/fake-do-storage.js';

let encoder: Encoder;
const dirs: string[] = [];
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
}, 60_000);
afterAll(async () => {
  await encoder?.close?.();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Opens a new adapter over the one store of a case (a second process's, for the persistent stores). */
type Opener = () => Promise<StorageAdapter>;

const STORES: Array<[string, () => Opener]> = [
  ['in-memory', () => {
    const one = createMemoryStorage();
    return async () => ({ ...one, close: async () => undefined }); // each memory closes its adapter: the one store stays
  }],
  ['IndexedDB', () => {
    const indexedDB = new IDBFactory();
    return () => createIdbStorage({ indexedDB, dbName: 'jev-mem-language' });
  }],
  ['SQLite', () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-language-'));
    dirs.push(dir);
    return () => createSqliteFileStorage({ dir, logger: () => undefined });
  }],
  ['Durable Object', () => {
    const db = new sqlite.Database(':memory:');
    return async () => createDurableObjectStorage(fakeDoStorage(db));
  }],
];

const GERMAN = ['Ich habe eine Katze.', 'Wir wohnen in Leipzig.'];
let day = 0;
const add = (m: Memory, text: string, namespace?: string) => m.add({ text, sessionId: 's1', observedAt: Date.UTC(2024, 3, 1 + day++) }, namespace !== undefined ? { namespace } : undefined);
const mismatch = async (p: Promise<unknown>): Promise<Record<string, unknown>> => {
  const e = (await p.then(() => undefined, (x: unknown) => x)) as { code?: string; field?: string; details?: Record<string, unknown>; message?: string } | undefined;
  expect(e?.code, String(e?.message)).toBe('LANGUAGE_MISMATCH');
  return { field: e!.field, stored: e!.details!.stored, given: e!.details!.given, namespace: e!.details!.namespace, message: e!.message };
};

describe.each(STORES)('the language of a namespace two memories open (%s store)', (_name, makeStore) => {
  /** A memory over a new adapter of the case's store (closed with it), and what the store holds. */
  const setup = () => {
    const open = makeStore();
    const memory = async (options: Partial<MemoryOptions>): Promise<Memory> => createMemory({ storage: await open(), encoder, systemOne: createHeuristicSystemOne(), logger: () => undefined, ...options });
    const read = async <T>(fn: (s: StorageAdapter) => Promise<T>): Promise<T> => {
      const s = await open();
      try {
        return await fn(s);
      } finally {
        await s.close();
      }
    };
    return { memory, read };
  };

  it('is the stored one: another language is refused, rebuilding and writing nothing; the same language in another tag reads as stored', async () => {
    const { memory, read } = setup();
    const a = await memory({ language: 'de' });
    for (const t of GERMAN) await add(a, t);
    const metaBefore = await read((s) => s.loadMeta('default'));
    expect(metaBefore.language).toBe('de');

    // A second memory (another process) with Italian: refused at the namespace's first use.
    const b = await memory({ language: 'it' });
    const refused = await mismatch(b.recall('Katze', { k: 3 }));
    expect(refused).toMatchObject({ field: 'language', stored: 'de', given: 'it', namespace: 'default' });
    expect(refused.message).toContain('namespace "default" is stored in language "de", the option gives "it"');
    expect(refused.message).toContain('changeLanguage: true');
    expect((await mismatch(add(b, 'Abito a Torino.'))).field).toBe('language');
    await b.close();
    // Nothing written: the meta is as A left it (no language, generation or change stamped), no node added.
    expect(await read((s) => s.loadMeta('default'))).toEqual(metaBefore);
    expect((await read((s) => s.counts('default'))).nodes).toBe(2);

    // The per-namespace form names its field.
    const c = await memory({ language: { default: 'es' } });
    expect(await mismatch(c.recall('Katze', { k: 3 }))).toMatchObject({ field: 'language.default', stored: 'de', given: 'es' });
    await c.close();

    // A keeps reading and writing in German.
    await add(a, 'Meine Schwester spielt Geige.');
    expect((await a.recall('Geige', { k: 1 })).memories[0]?.text).toBe('Meine Schwester spielt Geige.');
    await a.close();

    // The same language under another tag, and no option: read as stored, the stored tag kept.
    for (const language of ['de-AT', undefined]) {
      const d = await memory(language === undefined ? {} : { language });
      expect((await d.recall('Katze', { k: 1 })).memories[0]?.text).toBe('Ich habe eine Katze.');
      await add(d, `Der Hund heißt Bello ${language ?? 'ohne'}.`);
      await d.close();
      expect((await read((s) => s.loadMeta('default'))).language).toBe('de');
    }
  }, 120_000);

  it('changes on purpose with changeLanguage, after which the old language is the refused one; two first writes in two languages store one', async () => {
    const { memory, read } = setup();
    const a = await memory({ language: 'de' });
    await add(a, GERMAN[0]!);
    await a.close();
    const b = await memory({ language: 'it', changeLanguage: true });
    await add(b, 'Insegno storia in un liceo.');
    expect((await b.recall('Dove insegno storia?', { k: 1 })).memories[0]?.text).toBe('Insegno storia in un liceo.');
    await b.close();
    expect((await read((s) => s.loadMeta('default'))).language).toBe('it');
    const again = await memory({ language: 'de' });
    expect(await mismatch(again.recall('Katze', { k: 1 }))).toMatchObject({ stored: 'it', given: 'de' });
    await again.close();
    await expect(memory({ changeLanguage: 'yes' as never })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'changeLanguage' });

    // A namespace with no language stored yet, opened in two languages: the first write stores
    // its language, and the other memory's write is then refused (it does not overwrite it).
    const x = await memory({ language: 'de' });
    const y = await memory({ language: 'it' });
    await x.recall('Katze', { k: 1, namespace: 'fresh' });
    await y.recall('liceo', { k: 1, namespace: 'fresh' });
    await add(x, 'Wir wohnen in Leipzig.', 'fresh');
    await mismatch(add(y, 'Abito a Torino.', 'fresh'));
    await x.close();
    await y.close();
    expect((await read((s) => s.loadMeta('fresh'))).language).toBe('de');
    expect((await read((s) => s.counts('fresh'))).nodes).toBe(1);
  }, 120_000);
});

describe('the FTS5 index of a SQLite namespace a second process opens in another language', () => {
  it('is not rebuilt: the table of the stored language stays the one table', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-language-fts-'));
    dirs.push(dir);
    const memory = async (language: string): Promise<Memory> =>
      createMemory({ storage: await createSqliteFileStorage({ dir, logger: () => undefined }), encoder, systemOne: createHeuristicSystemOne(), logger: () => undefined, language });
    const tables = (): string[] => {
      const db = new sqlite.Database(join(dir, SQLITE_FILE_NAME));
      try {
        return (db.all(`SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'jev_mem_rec_fts*'`) as Array<{ name: string }>).map((r) => r.name).filter((n) => /_fts\d+[a-z]*_\d+$/.test(n));
      } finally {
        db.close();
      }
    };
    const a = await memory('de');
    await add(a, GERMAN[0]!);
    expect(tables()).toEqual([`jev_mem_rec_fts${LEXICAL_VERSION}de_1`]);
    // On 62d7345 the Italian open rebuilt the index in Italian (jev_mem_rec_fts4it_1 at lexical version 4), and A's next use rebuilt it back.
    const b = await memory('it');
    await mismatch(b.recall('Katze', { k: 1 }));
    await b.close();
    expect(tables()).toEqual([`jev_mem_rec_fts${LEXICAL_VERSION}de_1`]);
    expect((await a.recall('Katze', { k: 1 })).memories[0]?.text).toBe(GERMAN[0]);
    await a.close();
  }, 60_000);
});
