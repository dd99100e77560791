/**
 * Issue 7 item 5: no API path returns or changes another namespace's data. Every public method
 * is called on namespace "mine" with the ids and texts of namespace "theirs", on each shipped
 * store (issue 22: Node's SQLite first, IndexedDB, memory; the whole port passed through), and
 * "theirs" must be byte-for-byte what it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import type { NamespaceSnapshot, StorageAdapter } from '../../src/plane/store/storage.js';
import { codeOf, keepOpen, lifecycleFixture, QUESTIONS, recallView, stored, TURNS } from './helpers.js';
import { SHIPPED_STORES, storePlace } from './stores.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('iso', (e) => (encoder = e));

describe.each(SHIPPED_STORES)('namespace isolation on the %s store', (kind) => {
  let storage: StorageAdapter & { reallyClose(): Promise<void> };
  let memory: Memory;
  let theirIds: string[];
  let theirs: NamespaceSnapshot;
  let theirRecall: Awaited<ReturnType<typeof recallView>>;
  const mine = { namespace: 'mine' };

  beforeAll(async () => {
    storage = keepOpen(await storePlace(kind, tempDir).open());
    memory = await createMemory({ encoder, storage, namespace: 'theirs' });
    theirIds = (await memory.addMany(TURNS.slice(0, 6))).map((r) => r.id);
    await memory.add({ text: 'Mine: a memory of my own about gardening.', source: 'chat' }, mine);
    theirs = await stored(storage, 'theirs');
    theirRecall = await recallView(memory, QUESTIONS[0] as string);
  });
  afterAll(async () => {
    // The last check of every test: their data never changed.
    expect(await stored(storage, 'theirs')).toEqual(theirs);
    expect(await recallView(memory, QUESTIONS[0] as string)).toEqual(theirRecall);
    await memory.close();
    await storage.reallyClose();
  });

  it('get and edges do not return their nodes or edges', async () => {
    for (const id of theirIds) {
      expect(await memory.get(id, mine)).toBeUndefined();
      expect(await memory.edges(id, mine)).toEqual([]);
    }
  });

  it('recall does not return their memories, even for their exact words', async () => {
    for (const t of TURNS.slice(0, 6)) {
      const { memories, trace } = await memory.recall(t.text, mine);
      expect(memories.some((m) => theirIds.includes(m.id))).toBe(false);
      expect(trace.namespace).toBe('mine');
    }
  });

  it('update of their id fails with NOT_FOUND and changes nothing', async () => {
    expect(await codeOf(memory.update(theirIds[0] as string, { text: 'hijack' }, mine))).toBe('NOT_FOUND');
    expect(await stored(storage, 'theirs')).toEqual(theirs);
  });

  it('delete of their id returns false and changes nothing', async () => {
    for (const id of theirIds) expect(await memory.delete(id, mine)).toBe(false);
    expect(await stored(storage, 'theirs')).toEqual(theirs);
  });

  it('add of their exact observation makes a node of mine, not a duplicate of theirs', async () => {
    const r = await memory.add(TURNS[0] as (typeof TURNS)[0], mine);
    expect(r.deduplicated).toBe(false);
    expect(theirIds).not.toContain(r.id);
    expect((await memory.get(r.id, mine))?.namespace).toBe('mine');
    expect(await stored(storage, 'theirs')).toEqual(theirs);
  });

  it('maintain touches only my namespace', async () => {
    await memory.maintain(mine);
    expect(await stored(storage, 'theirs')).toEqual(theirs);
  });

  it('export holds only my records; stats count only mine', async () => {
    const file = await memory.export(mine);
    expect(file.namespace).toBe('mine');
    expect(file.nodes.every((n) => n.namespace === 'mine' && !theirIds.includes(n.id))).toBe(true);
    expect(file.edges.every((e) => e.namespace === 'mine')).toBe(true);
    const s = await memory.stats(mine);
    expect(s.nodes).toBe(file.nodes.length);
  });

  it('import of their export under another name writes only that name; into mine it is refused', async () => {
    const file = await memory.export({ namespace: 'theirs' });
    expect(await codeOf(memory.import(file, mine))).toBe('INVALID_INPUT'); // mine is not empty
    await memory.import(file, { namespace: 'copy' });
    expect((await memory.get(theirIds[0] as string, { namespace: 'copy' }))?.namespace).toBe('copy');
    await memory.delete(theirIds[0] as string, { namespace: 'copy' }); // same id, other namespace
    expect(await stored(storage, 'theirs')).toEqual(theirs);
    await memory.forget('copy');
  });

  it('forget of my namespace leaves theirs', async () => {
    await memory.forget('mine');
    expect(await memory.namespaces()).toEqual(['theirs']);
    expect(await stored(storage, 'theirs')).toEqual(theirs);
  });

  // Issue 22 "Tenants can collide": the SQLite store used to cut a name at its NUL.
  it('a name that is theirs plus a NUL and more is refused or kept apart, never theirs', async () => {
    const ns = { namespace: 'theirs\u0000x' };
    const tried = await codeOf(memory.add({ text: 'Intruder: a note of my own.', source: 'chat' }, ns));
    expect(['resolved', 'INVALID_INPUT', 'INVALID_OPTION']).toContain(tried);
    for (const id of theirIds) {
      const got = await memory.get(id, ns).catch(() => undefined);
      expect(got).toBeUndefined();
    }
    const recalled = await memory.recall(TURNS[0]?.text as string, ns).catch(() => ({ memories: [] }));
    expect(recalled.memories.some((m) => theirIds.includes(m.id))).toBe(false);
    const file = await memory.export(ns).catch(() => ({ nodes: [] }));
    expect(file.nodes.some((n) => theirIds.includes(n.id))).toBe(false);
    await memory.forget(ns.namespace).catch(() => undefined);
    expect(await stored(storage, 'theirs')).toEqual(theirs);
  });

  it('names the namespace rule refuses (NUL, trailing space, zero-width) write nothing', async () => {
    for (const ns of ['the\u0000irs', 'theirs\u0000', 'theirs ', 'the\u200birs']) {
      expect(await codeOf(memory.add({ text: 'refused' }, { namespace: ns }))).toBe('INVALID_INPUT');
    }
    expect(await memory.namespaces()).toEqual(['theirs']);
  });

  it('namespaces whose names look like paths, prototypes or case variants stay apart', async () => {
    const names = ['__proto__', 'constructor', '../theirs', 'theirs/..', 'THEIRS', 'the irs', 'ｔｈｅｉｒｓ', 'théirs'];
    for (const ns of names) {
      await memory.add({ text: `note for ${JSON.stringify(ns)}` }, { namespace: ns });
      expect((await memory.stats({ namespace: ns })).nodes).toBe(1);
      expect((await memory.recall('note', { namespace: ns })).memories.every((m) => !theirIds.includes(m.id))).toBe(true);
    }
    expect(await stored(storage, 'theirs')).toEqual(theirs);
    for (const ns of names) await memory.forget(ns);
    expect(await memory.namespaces()).toEqual(['theirs']);
  });
});
