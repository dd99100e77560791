/**
 * Issue 22: the legacy v1 file store is a read-only importer (`legacy-v1.ts`) that leaves nothing
 * behind. It reads what the v1 store wrote (snapshot + journal, torn and damaged lines, awkward
 * namespace names), `createSqliteFileStorage` imports it at the first open and then REMOVES the v1
 * files, so the journal's copies of deleted memories do not survive the import.
 */
import { appendFile, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importLegacyV1Store, namespaceFolder, openLegacyV1Store } from '../../src/plane/store/legacy-v1.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';
import { v1JournalLine, writeV1Store } from '../helpers/v1-store.js';
import { applyToModel, emptyModel, makeEdge, makeNode, modelSnapshot } from './fixtures.js';

const root = await mkdtemp(join(tmpdir(), 'jev-mem-v1-'));
let counter = 0;
const freshDir = (): string => join(root, `store-${++counter}`);
afterAll(() => rm(root, { recursive: true, force: true }));

/** `n` batches of one namespace: puts, an edge, a delete and meta, so a replay order matters. */
function batches(ns: string, n: number): WriteBatch[] {
  const out: WriteBatch[] = [];
  for (let i = 1; i <= n; i++) {
    const b: WriteBatch = { putNodes: [makeNode(ns, `n${i}`, i, `memory ${i} of ${ns}`)], meta: { change: i } };
    if (i > 1) b.putEdges = [makeEdge(ns, `e${i}`, `n${i - 1}`, `n${i}`)];
    if (i % 3 === 0) b.deleteNodeIds = [`n${i - 2}`];
    out.push(b);
  }
  return out;
}

function expected(list: readonly WriteBatch[]): ReturnType<typeof modelSnapshot> {
  const model = emptyModel();
  for (const b of list) applyToModel(model, b);
  return modelSnapshot(model);
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if ((await stat(path)).isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
}

describe('reading a v1 store', () => {
  it('loads snapshot plus journal, skipping journal lines the snapshot covers', async () => {
    const dir = freshDir();
    const all = batches('ns', 7);
    await writeV1Store(dir, { ns: { batches: all, snapshotted: 4 } });
    // A crash after the snapshot was renamed but before the journal was emptied: lines 3-4 again.
    const folder = join(dir, 'ns', namespaceFolder('ns'));
    const journal = await readFile(join(folder, 'journal.jsonl'), 'utf8');
    await writeFile(join(folder, 'journal.jsonl'), v1JournalLine(3, all[2]!) + v1JournalLine(4, all[3]!) + journal);
    const v1 = await openLegacyV1Store(dir);
    expect(await v1.namespaces()).toEqual(['ns']);
    expect(await v1.load('ns')).toEqual(expected(all));
    expect(await v1.load('absent')).toEqual({ nodes: [], edges: [], meta: {} });
  });

  it('ignores a torn last line; a damaged line before the last, or a damaged snapshot, is STORAGE_FAILED', async () => {
    const dir = freshDir();
    const all = batches('ns', 3);
    await writeV1Store(dir, { ns: { batches: all, tail: '4\tdeadbeefdeadbeef\t{"putNodes":[' } });
    expect(await (await openLegacyV1Store(dir)).load('ns')).toEqual(expected(all));

    const bad = freshDir();
    const folders = await writeV1Store(bad, { ns: { batches: all } });
    const lines = (await readFile(join(folders.ns!, 'journal.jsonl'), 'utf8')).split('\n');
    lines[1] = lines[1]!.replace('memory 2', 'memory X'); // fails its checksum, not the last line
    await writeFile(join(folders.ns!, 'journal.jsonl'), lines.join('\n'));
    await expect((await openLegacyV1Store(bad)).load('ns')).rejects.toMatchObject({ code: 'STORAGE_FAILED' });

    const snap = freshDir();
    const f2 = await writeV1Store(snap, { ns: { batches: all, snapshotted: 2 } });
    await appendFile(join(f2.ns!, 'snapshot.json'), 'tampered');
    await expect((await openLegacyV1Store(snap)).load('ns')).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
  });

  it('refuses a folder without format.json (STORE_MISSING) and another layout version (SCHEMA_MISMATCH)', async () => {
    const dir = freshDir();
    await writeV1Store(dir, {});
    await rm(join(dir, 'format.json'));
    await expect(openLegacyV1Store(dir)).rejects.toMatchObject({ code: 'STORE_MISSING', field: 'store' });
    await writeFile(join(dir, 'format.json'), JSON.stringify({ format: 'jev-mem/file-store', version: 2 }));
    await expect(openLegacyV1Store(dir)).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
  });

  it('lists awkward namespace names back from their folders (escaped, and hashed when long)', async () => {
    const dir = freshDir();
    const names = ['Alice', 'a/b', '..', 'ünï', 'x'.repeat(300)];
    await writeV1Store(dir, Object.fromEntries(names.map((ns) => [ns, { batches: [{ putNodes: [makeNode(ns, 'n', 1)] }] }])));
    const v1 = await openLegacyV1Store(dir);
    expect(await v1.namespaces()).toEqual([...names].sort());
    for (const ns of names) expect((await v1.load(ns)).nodes.map((n) => n.id)).toEqual(['n']);
  });

  it('importLegacyV1Store copies every namespace into another store', async () => {
    const dir = freshDir();
    const a = batches('alice', 5);
    const b = batches('bob', 2);
    await writeV1Store(dir, { alice: { batches: a, snapshotted: 2 }, bob: { batches: b } });
    const into = createMemoryStorage();
    expect(await importLegacyV1Store(dir, into, 2)).toEqual({ namespaces: 2, nodes: expected(a).nodes.length + 2, edges: 4 + 1 });
    expect(await into.load('alice')).toEqual(expected(a));
    expect(await into.load('bob')).toEqual(expected(b));
  });
});

describe('the import into the SQLite store leaves nothing of the v1 store behind', () => {
  it('imports at first open, removes the v1 files, and keeps no copy of a deleted memory', async () => {
    const dir = freshDir();
    const secret = 'Zorblatt smuggled xylophones into Vladivostok';
    const alice: WriteBatch[] = [
      { putNodes: [makeNode('alice', 'n0', 1, 'alice memory 0'), makeNode('alice', 'n1', 2, secret), makeNode('alice', 'n2', 3, 'alice memory 2')], putEdges: [makeEdge('alice', 'e1', 'n0', 'n1')], meta: { change: 1 } },
      { deleteNodeIds: ['n1'], deleteEdgeIds: ['e1'], meta: { change: 2, cursor: { seq: 3 } } },
    ];
    const bob: WriteBatch[] = [{ putNodes: [makeNode('bob', 'x', 1)], putEdges: [makeEdge('bob', 'e', 'x', 'x')] }];
    await writeV1Store(dir, { alice: { batches: alice }, bob: { batches: bob } });
    // The v1 journal holds the deleted memory's text: that is what must not survive.
    expect((await Promise.all((await filesUnder(dir)).map((f) => readFile(f, 'utf8')))).some((t) => t.includes('Zorblatt'))).toBe(true);

    const logged: string[] = [];
    const s = await createSqliteFileStorage({ dir, logger: (_level, _message, entry) => logged.push(entry.code) });
    expect(await s.namespaces()).toEqual(['alice', 'bob']);
    expect(await s.load('alice')).toEqual(expected(alice));
    expect(await s.load('bob')).toEqual(expected(bob));
    expect(logged).toEqual(['STORE_MIGRATED', 'LEGACY_REMOVED']);
    await s.close();
    expect((await readdir(dir)).sort()).toEqual([SQLITE_FILE_NAME]);
    for (const f of await filesUnder(dir)) expect((await readFile(f)).includes(Buffer.from('Zorblatt'))).toBe(false);

    const again = await createSqliteFileStorage({ dir, logger: (_level, _message, entry) => logged.push(entry.code) });
    expect((await again.load('alice')).nodes.map((n) => n.id)).toEqual(['n0', 'n2']);
    expect(logged).toHaveLength(2); // no second import
    await again.close();
  });

  it('a crash after the import but before the removal: the next open removes the v1 files without importing again', async () => {
    const dir = freshDir();
    const all = batches('ns', 3);
    await writeV1Store(dir, { ns: { batches: all } });
    const first = await createSqliteFileStorage({ dir, logger: () => undefined });
    await first.commit('ns', { putNodes: [makeNode('ns', 'later', 9)] }); // written after the import
    await first.close();
    await writeV1Store(dir, { ns: { batches: all } }); // the v1 files as a crash would have left them
    const logged: string[] = [];
    const s = await createSqliteFileStorage({ dir, logger: (_level, _message, entry) => logged.push(entry.code) });
    expect(logged).toEqual(['LEGACY_REMOVED']);
    expect((await s.load('ns')).nodes.map((n) => n.id)).toEqual([...expected(all).nodes.map((n) => n.id), 'later']);
    await s.close();
    expect((await readdir(dir)).sort()).toEqual([SQLITE_FILE_NAME]);
  });
});
