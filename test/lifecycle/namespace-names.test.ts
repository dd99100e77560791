/**
 * Issue 22, "Names are safe": one namespace-name rule (plane/store/names.ts) for every store and
 * entry point; no store maps two names to one (the SQLite store used to cut a name at its NUL, so
 * "tenant:alice\u0000x" read, exported and forgot alice's memories); names an older store holds
 * under a looser rule stay listable, exportable and forgettable.
 */
import { join } from 'node:path';
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { type IDBPDatabase, wrap } from 'idb';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { MAX_NAMESPACE_BYTES, checkNamespaceName } from '../../src/plane/store/names.js';
import { SQLITE_FILE_NAME, createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { codeOf, lifecycleFixture, stored } from './helpers.js';
import { renameNamespaceAsOlderBuild } from '../helpers/older-namespace.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('names', (e) => (encoder = e));

const ALICE = 'tenant:alice';
const NUL_ALICE = 'tenant:alice\u0000x';

/** The error `fn` throws (fails the test when it throws none). */
function thrown(fn: () => unknown): Error & { code?: string; field?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('the namespace rule', () => {
  it.each([
    ['a'],
    ['tenant:alice'],
    ['a b'],
    ['../theirs'],
    ['é (NFC)'],
    ['日本語'],
    ['x'.repeat(MAX_NAMESPACE_BYTES)],
    ['é'.repeat(MAX_NAMESPACE_BYTES / 2)], // 2 bytes each: exactly 256 bytes
  ])('accepts %j', (name) => {
    expect(checkNamespaceName(name)).toBe(name);
  });

  it.each([
    ['empty', ''],
    ['NUL', 'tenant:alice\u0000x'],
    ['BEL (Cc)', 'a\u0007b'],
    ['newline (Cc)', 'a\nb'],
    ['DEL (Cc)', 'a\u007fb'],
    ['zero-width space (Cf)', 'a\u200bb'],
    ['zero-width joiner (Cf)', 'a\u200db'],
    ['byte-order mark (Cf)', '\ufeffa'],
    ['right-to-left override (Cf)', 'a\u202eb'],
    ['soft hyphen (Cf)', 'a\u00adb'],
    ['line separator (Zl)', 'a\u2028b'],
    ['paragraph separator (Zp)', 'a\u2029b'],
    ['combining grapheme joiner (default-ignorable)', 'a\u034fb'],
    ['variation selector 16 (default-ignorable)', 'a\ufe0fb'],
    ['Hangul filler (default-ignorable)', 'a\u3164b'],
    ['a ZWJ emoji sequence', '👩\u200d👩'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', 'a\udc00'],
    ['the replacement character a lossy decoding of non-UTF-8 bytes leaves', 'a\ufffdb'],
    ['leading space', ' a'],
    ['trailing space', 'a '],
    ['trailing no-break space', 'a\u00a0'],
    ['trailing ideographic space', 'a\u3000'],
    ['not NFC (e + combining acute)', 'e\u0301'],
    ['257 bytes', 'x'.repeat(MAX_NAMESPACE_BYTES + 1)],
    ['257 bytes of 2-byte letters and one more', `${'é'.repeat(128)}a`],
  ])('refuses %s with INVALID_INPUT naming the field', (_label, name) => {
    const e = thrown(() => checkNamespaceName(name, 'options.namespace'));
    expect(isJevMemError(e, 'INVALID_INPUT')).toBe(true);
    expect(e.field).toBe('options.namespace');
  });

  it('refuses a name that is not a string', () => {
    for (const v of [undefined, null, 42, {}, ['a']]) expect(isJevMemError(thrown(() => checkNamespaceName(v)), 'INVALID_INPUT')).toBe(true);
  });

  it('shows invisible characters in the message as escapes, never raw', () => {
    const e = thrown(() => checkNamespaceName(NUL_ALICE));
    expect(e.message).toContain('"tenant:alice\\u0000x"');
    expect(e.message).not.toContain('\u0000');
    const zw = thrown(() => checkNamespaceName('a\u200bb\u202e'));
    expect(zw.message).toContain('"a\\u200bb\\u202e"');
    expect(zw.message).not.toMatch(/[\u200b\u202e]/);
  });
});

const STORES: Array<[string, () => Promise<StorageAdapter>]> = [
  ['memory', async () => createMemoryStorage()],
  ['indexeddb', () => createIdbStorage({ indexedDB: new IDBFactory(), persist: false })],
  ['SQLite file', () => createSqliteFileStorage({ dir: tempDir() })],
];

describe.each(STORES)('a NUL in a namespace name on the %s store', (_kind, make) => {
  it('is refused by every write path, and never reaches the name before the NUL', async () => {
    const storage = await make();
    const memory = await createMemory({ encoder, storage, namespace: ALICE });
    await memory.add({ text: 'Alice keeps her spare key under the blue flowerpot.' });
    const alice = await stored(storage, ALICE);
    expect(alice.nodes).toHaveLength(1);

    // The Memory API: create, write, read, export, forget.
    expect(await codeOf(createMemory({ encoder, storage, namespace: NUL_ALICE }))).toBe('INVALID_INPUT');
    const nul = { namespace: NUL_ALICE };
    expect(await codeOf(memory.add({ text: 'Mallory was here.' }, nul))).toBe('INVALID_INPUT');
    expect(await codeOf(memory.addMany([{ text: 'Mallory was here.' }], nul))).toBe('INVALID_INPUT');
    expect(await codeOf(memory.recall('spare key', nul))).toBe('INVALID_INPUT');
    expect(await codeOf(memory.export(nul))).toBe('INVALID_INPUT');
    expect(await codeOf(memory.stats(nul))).toBe('INVALID_INPUT');
    expect(await codeOf(memory.forget(NUL_ALICE))).toBe('INVALID_INPUT');
    const file = await memory.export();
    expect(await codeOf(memory.import(file, nul))).toBe('INVALID_INPUT');

    // The store itself: a commit may not create the name; reads and drops find nothing.
    const node = { ...alice.nodes[0]!, id: 'mallory', namespace: NUL_ALICE };
    expect(await codeOf(storage.commit(NUL_ALICE, { putNodes: [node] }))).toBe('INVALID_INPUT');
    expect(await stored(storage, NUL_ALICE)).toEqual({ nodes: [], edges: [], meta: {} });
    expect((await storage.counts?.(NUL_ALICE))?.nodes ?? 0).toBe(0);
    expect(await storage.getNodes(NUL_ALICE, [alice.nodes[0]!.id])).toEqual([]);
    await storage.dropNamespace(NUL_ALICE);

    expect(await storage.namespaces()).toEqual([ALICE]);
    expect(await stored(storage, ALICE)).toEqual(alice);
    expect((await memory.recall('Where is the spare key?')).memories[0]?.text).toContain('blue flowerpot');
    await memory.close();
  });
});

describe('two names never reach one namespace', () => {
  it('names that differ only after a NUL, by case, width, trailing characters or form are kept apart (SQLite file)', async () => {
    const storage = await createSqliteFileStorage({ dir: tempDir() });
    const memory = await createMemory({ encoder, storage, namespace: ALICE });
    const names = [ALICE, 'Tenant:alice', 'tenant:alice.', 'tenant:alicé', 'ｔenant:alice', 'tenant:alice:x'];
    for (const ns of names) await memory.add({ text: `the note of ${ns}` }, { namespace: ns });
    for (const ns of names) {
      const snap = await stored(storage, ns);
      expect(snap.nodes.map((n) => n.text)).toEqual([`the note of ${ns}`]);
    }
    expect(await storage.namespaces()).toEqual([...names].sort());
    // A name with a NUL is refused before any store sees it, and the store reads nothing for it.
    expect(await codeOf(memory.forget(NUL_ALICE))).toBe('INVALID_INPUT');
    expect((await storage.load(NUL_ALICE)).nodes).toEqual([]);
    expect((await stored(storage, ALICE)).nodes).toHaveLength(1);
    await memory.close();
  });
});

describe('a NUL in a node id, edge end or meta key on the SQLite store', () => {
  it('is kept whole (keys are stored as bytes, issue 22), so "n\\u0000x" never lands on "n"', async () => {
    const storage = await createSqliteFileStorage({ dir: tempDir() });
    const memory = await createMemory({ encoder, storage, namespace: ALICE });
    await memory.add({ text: 'The gate code is 4711.' });
    const before = await stored(storage, ALICE);
    const node = before.nodes[0]!;
    const twin = { ...node, id: `${node.id}\u0000x`, text: 'The gate code is 0000.' };
    await storage.commit(ALICE, { putNodes: [twin], meta: { 'generation\u0000x': 1 } });
    const after = await stored(storage, ALICE);
    expect(after.nodes.find((n) => n.id === node.id)).toEqual(node); // "n" is unchanged
    expect(after.nodes.find((n) => n.id === twin.id)?.text).toBe('The gate code is 0000.');
    expect(after.meta['generation\u0000x']).toBe(1);
    expect(after.meta).toMatchObject(before.meta);
    await storage.commit(ALICE, { deleteNodeIds: [twin.id], meta: { 'generation\u0000x': null } });
    expect(await stored(storage, ALICE)).toEqual(before);
    await memory.close();
  });
});

describe('a name from before the rule, held by an older store', () => {
  const OLD = 'team\u200dnotes '; // a zero-width joiner and a trailing space: both refused today

  /** A SQLite store holding one memory under {@link OLD}: written as "legacy", renamed in SQL as an older build could have. */
  async function oldStore(): Promise<string> {
    const dir = tempDir();
    const memory = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'legacy' });
    await memory.add({ text: 'The quarterly review moved to Thursday.' });
    await memory.add({ text: 'Bring the projector adapter.' });
    await memory.close();
    const db = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
    renameNamespaceAsOlderBuild(db, 'legacy', OLD);
    const names = db.query('SELECT DISTINCT ns FROM jev_mem_rec').map((r) => new TextDecoder().decode(r.ns as Uint8Array));
    expect(names).toEqual([OLD]);
    db.close();
    return dir;
  }

  it('is listed, counted, exported and forgotten, but takes no new writes', async () => {
    const storage = await createSqliteFileStorage({ dir: await oldStore() });
    const memory = await createMemory({ encoder, storage });
    expect(await memory.namespaces()).toEqual([OLD]);
    expect((await memory.stats({ namespace: OLD })).nodes).toBe(2);
    const file = await memory.export({ namespace: OLD });
    expect(file.namespace).toBe(OLD);
    expect(file.nodes.map((n) => n.text).sort()).toEqual(['Bring the projector adapter.', 'The quarterly review moved to Thursday.']);
    expect(await codeOf(memory.add({ text: 'new' }, { namespace: OLD }))).toBe('INVALID_INPUT');
    // Its export goes back in under a valid name.
    const refused = await memory.import(file).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'INVALID_INPUT', field: 'export.namespace' });
    expect((refused as Error).message).toContain('import it under a valid name with options.namespace');
    expect((await memory.import(file, { namespace: 'team-notes' })).nodes).toBe(2);
    await memory.forget(OLD);
    expect(await memory.namespaces()).toEqual(['team-notes']);
    await memory.close();
  });
});

describe('a name from before the rule, held by an older IndexedDB store', () => {
  const OLD = 'inbox\u2060 '; // a word joiner and a trailing space

  it('takes commits to the name it holds, and refuses to create a new invalid one', async () => {
    const indexedDB = new IDBFactory();
    const storage = await createIdbStorage({ indexedDB, dbName: 'old', persist: false });
    const memory = await createMemory({ encoder, storage, namespace: 'legacy' });
    await memory.add({ text: 'Renew the passport before June.' });
    await memory.close();
    // Copy the node and meta records under OLD, as an older build could have written them.
    const raw = (await wrap(indexedDB.open('old'))) as unknown as IDBPDatabase;
    const tx = raw.transaction(['node', 'meta'], 'readwrite');
    const range = IDBKeyRange.bound(['legacy'], ['legacy', []]);
    const node = tx.objectStore('node');
    const [keys, values] = await Promise.all([node.getAllKeys(range), node.getAll(range)]);
    await Promise.all(keys.map((k, i) => node.put(values[i], [OLD, (k as [string, string])[1]])));
    const meta = tx.objectStore('meta');
    for (const m of await meta.getAll(range)) await meta.put({ ...m, namespace: OLD });
    await tx.done;
    raw.close();

    const store = await createIdbStorage({ indexedDB, dbName: 'old', persist: false });
    expect(await store.namespaces()).toEqual([OLD, 'legacy']);
    await store.commit(OLD, { meta: { note: 'cleaned up' } });
    expect((await store.loadMeta(OLD)).note).toBe('cleaned up');
    expect((await store.load(OLD)).nodes.map((n) => n.text)).toEqual(['Renew the passport before June.']);
    expect(await codeOf(store.commit('outbox\u2060 ', { meta: { note: 'new' } }))).toBe('INVALID_INPUT');
    await store.dropNamespace(OLD);
    expect(await store.namespaces()).toEqual(['legacy']);
    await store.close();
  });
});
