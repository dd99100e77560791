/**
 * The memory's `language` option (issue 24, h-lexver): a BCP 47 tag, or one per namespace,
 * validated; the namespace reads short texts and questions in it; stored with the namespace.
 * And LEXICAL_VERSION 4 in IndexedDB (issue 22): a checkpoint whose lexical index is version 3
 * opens from a scan, reported as such (not as damaged), and is replaced at close.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { parseLanguageTag } from '../../src/memory/language-option.js';
import { createMemory } from '../../src/memory.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

let encoder: Encoder;
beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
}, 60_000);
afterAll(async () => {
  await encoder?.close?.();
});

const ITALIAN = ['Insegno storia in un liceo.', 'Abito a Torino vicino al fiume.', 'La domenica gioco a calcio con gli amici.'];

describe('the language option', () => {
  it('refuses a malformed tag, a language without resources and a non-string, naming the field', async () => {
    const make = (language: unknown) => createMemory({ encoder, language } as never);
    await expect(make('it_IT!')).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'language' });
    await expect(make('xx')).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'language' });
    await expect(make('cy-GB')).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'language' }); // Welsh: no stop list or stemmer here
    await expect(make(7)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'language' });
    await expect(make({ notes: 'de', diario: 'zz-ZZ' })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'language.diario' });
    await expect(make(['de'])).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'language' });
  });

  it('canonicalises the tag and reads its primary subtag ("no" is Norwegian Bokmål)', () => {
    expect(parseLanguageTag('pt-br', 'language')).toEqual({ tag: 'pt-BR', code: 'pt' });
    expect(parseLanguageTag('IT', 'language')).toEqual({ tag: 'it', code: 'it' });
    expect(parseLanguageTag('no', 'language')).toEqual({ tag: 'no', code: 'nb' });
    expect(parseLanguageTag('en-GB', 'language')).toEqual({ tag: 'en-GB', code: 'en' });
  });

  it('per namespace: the Italian namespace finds a short Italian turn by a question in another person; the other namespace keeps English reading', async () => {
    const storage = createMemoryStorage();
    const memory = await createMemory({ storage, encoder, systemOne: createHeuristicSystemOne(), language: { scuola: 'it' } });
    try {
      for (const ns of ['scuola', 'plain']) {
        await memory.addMany(ITALIAN.map((text, i) => ({ text, sessionId: 's1', observedAt: Date.UTC(2026, 10, 1 + i) })), { namespace: ns });
      }
      const hit = await memory.recall('Cosa insegna Marco?', { k: 1, namespace: 'scuola' });
      expect(hit.memories.map((m) => m.text)).toEqual([ITALIAN[0]]);
      expect(hit.trace.anchors.find((a) => a.id === hit.memories[0]!.id)?.lexicalRank).toBe(1);
      const plain = await memory.recall('Cosa insegna Marco?', { k: 3, namespace: 'plain' });
      const teach = plain.memories.find((m) => m.text === ITALIAN[0]);
      expect(teach === undefined ? 0 : plain.trace.anchors.find((a) => a.id === teach.id)?.lexicalRank ?? 0).toBe(0);
      expect((await storage.loadMeta('scuola')).language).toBe('it');
      expect((await storage.loadMeta('plain')).language).toBeUndefined();
    } finally {
      await memory.close();
    }
  });
});

describe('IndexedDB: a checkpoint with a version-3 lexical index', () => {
  it('opens from a scan (not damaged), recalls, and is replaced by a checkpoint of this build’s version at close', async () => {
    const indexedDB = new IDBFactory();
    let storage = await createIdbStorage({ indexedDB, dbName: 'lexver' });
    let memory = await createMemory({ storage, encoder, systemOne: createHeuristicSystemOne(), namespace: 'n', language: 'it' });
    await memory.addMany(ITALIAN.map((text, i) => ({ text, sessionId: 's1', observedAt: Date.UTC(2026, 10, 1 + i) })));
    await memory.close(); // closes the store too
    storage = await createIdbStorage({ indexedDB, dbName: 'lexver' });
    // What a build of LEXICAL_VERSION 3 left: the same checkpoint, its lexical.json of version 3.
    const cp = (await storage.readCheckpoint!('n'))!;
    const lexical = JSON.parse(new TextDecoder().decode(cp.parts['lexical.json']!)) as { version: number; language?: unknown };
    expect([lexical.version, lexical.language]).toEqual([5, 'it']);
    const { language: _language, ...v3 } = { ...lexical, version: 3 };
    await storage.writeCheckpoint!('n', { ...cp, parts: { ...cp.parts, 'lexical.json': new TextEncoder().encode(JSON.stringify(v3)) } });
    await storage.close();

    storage = await createIdbStorage({ indexedDB, dbName: 'lexver' });
    memory = await createMemory({ storage, encoder, systemOne: createHeuristicSystemOne(), namespace: 'n' });
    try {
      const r = await memory.recall('Cosa insegna Marco?', { k: 1 });
      expect(r.memories.map((m) => m.text)).toEqual([ITALIAN[0]]);
      const stats = await memory.stats();
      expect(stats.opened.from).toBe('scan');
      expect(stats.opened.reason).toMatch(/lexical index is of another version/);
      expect(stats.opened.checkpointDamaged).toBeUndefined();
    } finally {
      await memory.close();
    }
    storage = await createIdbStorage({ indexedDB, dbName: 'lexver' });
    const after = JSON.parse(new TextDecoder().decode((await storage.readCheckpoint!('n'))!.parts['lexical.json']!)) as { version: number; language: unknown };
    expect([after.version, after.language]).toEqual([5, 'it']); // the stored language, without the option
    await storage.close();
  });
});
