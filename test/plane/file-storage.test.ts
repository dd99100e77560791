import { type FileHandle, appendFile, mkdir, mkdtemp, open, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createFileStorage, namespaceFolder } from '../../src/plane/store/legacy-v1.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';
import { applyToModel, emptyModel, makeEdge, makeNode, modelSnapshot } from './fixtures.js';
import { describeStorageContract } from './storage-contract.js';

const root = await mkdtemp(join(tmpdir(), 'jev-mem-file-'));
let counter = 0;
const freshDir = (): string => join(root, `store-${++counter}`);
afterAll(() => rm(root, { recursive: true, force: true }));

describeStorageContract('file (legacy v1)', () => createFileStorage({ dir: freshDir() }), 15, false);

const journalOf = (dir: string, ns: string): string => join(dir, 'ns', namespaceFolder(ns), 'journal.jsonl');
const snapshotOf = (dir: string, ns: string): string => join(dir, 'ns', namespaceFolder(ns), 'snapshot.json');
const lines = async (path: string): Promise<string[]> => (await readFile(path, 'utf8')).split('\n').filter((l) => l.length > 0);

describe('file storage: persistence', () => {
  it('a store reopened by a new adapter sees the committed data', async () => {
    const dir = freshDir();
    const first = await createFileStorage({ dir });
    await first.commit('ns', { putNodes: [makeNode('ns', 'a', 1)], putEdges: [makeEdge('ns', 'e', 'a', 'a')], meta: { k: 1 } });
    await first.close();
    const second = await createFileStorage({ dir, create: false });
    const snap = await second.load('ns');
    expect(snap.nodes.map((n) => n.id)).toEqual(['a']);
    expect(snap.edges.map((e) => e.id)).toEqual(['e']);
    expect(snap.meta).toEqual({ k: 1 });
    await second.close();
  });

  it('appends exactly one journal line per commit, numbered from 1', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    for (let i = 1; i <= 3; i++) await s.commit('ns', { putNodes: [makeNode('ns', `n${i}`, i)] });
    const seqs = (await lines(journalOf(dir, 'ns'))).map((l) => l.split('\t')[0]);
    expect(seqs).toEqual(['1', '2', '3']);
    await s.close();
  });

  it('ignores a torn last line, and the next commit cuts it off', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    await s.commit('ns', { putNodes: [makeNode('ns', 'b', 2)] });
    await s.close();
    await appendFile(journalOf(dir, 'ns'), '3\t0123456789abcdef\t{"putNodes":[{"id":"c"'); // crash mid-append
    const reopened = await createFileStorage({ dir });
    expect((await reopened.load('ns')).nodes.map((n) => n.id)).toEqual(['a', 'b']);
    await reopened.commit('ns', { putNodes: [makeNode('ns', 'd', 3)] });
    expect((await reopened.load('ns')).nodes.map((n) => n.id)).toEqual(['a', 'b', 'd']);
    expect((await lines(journalOf(dir, 'ns'))).map((l) => l.split('\t')[0])).toEqual(['1', '2', '3']);
    await reopened.close();
  });

  it('a disk-full error mid-append is QUOTA_EXCEEDED and leaves no trace', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    const probe = await open(join(dir, 'format.json'), 'r');
    const proto = Object.getPrototypeOf(probe) as FileHandle;
    await probe.close();
    const realWrite = proto.write;
    const spy = vi.spyOn(proto, 'write').mockImplementationOnce(async function (this: FileHandle, ...args: unknown[]) {
      const [buffer, offset, length] = args as [Buffer, number, number];
      await realWrite.call(this, buffer, offset, Math.floor(length / 2)); // half the line reaches the disk
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });
    try {
      await expect(s.commit('ns', { putNodes: [makeNode('ns', 'b', 2)] })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    } finally {
      spy.mockRestore();
    }
    expect((await s.load('ns')).nodes.map((n) => n.id)).toEqual(['a']);
    await s.commit('ns', { putNodes: [makeNode('ns', 'c', 3)] });
    expect((await lines(journalOf(dir, 'ns'))).map((l) => l.split('\t')[0])).toEqual(['1', '2']);
    expect((await s.load('ns')).nodes.map((n) => n.id)).toEqual(['a', 'c']);
    await s.close();
  });

  it('ignores a complete last line that fails its checksum', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    await s.close();
    await appendFile(journalOf(dir, 'ns'), '2\t0000000000000000\t{"deleteNodeIds":["a"]}\n');
    const reopened = await createFileStorage({ dir });
    expect((await reopened.load('ns')).nodes.map((n) => n.id)).toEqual(['a']);
    await reopened.close();
  });

  it('fails with STORAGE_FAILED when a line other than the last is damaged', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'first')] });
    await s.commit('ns', { putNodes: [makeNode('ns', 'b', 2)] });
    await s.close();
    const path = journalOf(dir, 'ns');
    await writeFile(path, (await readFile(path, 'utf8')).replace('first', 'fixed'));
    const reopened = await createFileStorage({ dir });
    await expect(reopened.load('ns')).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    await reopened.close();
  });
});

describe('file storage: compaction', () => {
  const batches = (n: number): WriteBatch[] =>
    Array.from({ length: n }, (_, i) => ({
      putNodes: [makeNode('ns', `n${i % 4}`, i + 1, `version ${i}`)],
      deleteNodeIds: i % 5 === 4 ? ['n0'] : [],
      putEdges: [makeEdge('ns', `e${i % 3}`, `n${i % 4}`, 'n0', (i % 10) / 10)],
      meta: { cursor: i, odd: i % 2 === 1 ? true : null },
    }));

  it('keeps every batch across compactions and empties the journal', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir, compactAfterBatches: 3 });
    const model = emptyModel();
    for (const b of batches(10)) {
      await s.commit('ns', b);
      applyToModel(model, b);
    }
    expect(await s.load('ns')).toEqual(modelSnapshot(model));
    // compactions after batches 4 and 8: the journal holds batches 9 and 10
    expect((await lines(journalOf(dir, 'ns'))).map((l) => l.split('\t')[0])).toEqual(['9', '10']);
    expect(JSON.parse((await readFile(snapshotOf(dir, 'ns'), 'utf8')).split('\n')[0]!)).toMatchObject({ seq: 8 });
    await s.close();
    const reopened = await createFileStorage({ dir });
    expect(await reopened.load('ns')).toEqual(modelSnapshot(model));
    await reopened.close();
  });

  it('compacts when the journal outgrows the size rule', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir, compactMinBytes: 1, compactSizeFactor: 4 });
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    // no snapshot yet (0 bytes): the first line already exceeds 4 × 0 and 1 byte
    expect((await stat(snapshotOf(dir, 'ns'))).size).toBeGreaterThan(0);
    expect(await lines(journalOf(dir, 'ns'))).toEqual([]);
    await s.close();
  });

  it('a crash after the snapshot rename but before the journal was emptied loses nothing', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir, compactAfterBatches: 4 });
    const all = batches(6);
    const model = emptyModel();
    for (const b of all.slice(0, 4)) {
      await s.commit('ns', b);
      applyToModel(model, b);
    }
    const staleJournal = await readFile(journalOf(dir, 'ns'), 'utf8'); // batches 1-4
    await s.commit('ns', all[4]!); // batch 5 triggers compaction: snapshot at 5, journal emptied
    applyToModel(model, all[4]!);
    await s.close();
    await writeFile(journalOf(dir, 'ns'), staleJournal); // as if the crash came before the truncation
    const reopened = await createFileStorage({ dir, compactAfterBatches: 4 });
    expect(await reopened.load('ns')).toEqual(modelSnapshot(model));
    await reopened.commit('ns', all[5]!);
    applyToModel(model, all[5]!);
    expect(await reopened.load('ns')).toEqual(modelSnapshot(model));
    expect((await lines(journalOf(dir, 'ns'))).map((l) => l.split('\t')[0])).toEqual(['6']);
    await reopened.close();
  });

  it('a failed compaction keeps the commit and the journal, is logged and counted in health(), and is retried once the journal doubled', async () => {
    const dir = freshDir();
    const logged: Array<[string, string, string | undefined]> = [];
    const s = await createFileStorage({ dir, compactAfterBatches: 1, logger: (level, _message, entry) => logged.push([level, entry.code, entry.namespace]) });
    const all = batches(8);
    const model = emptyModel();
    await s.commit('ns', all[0]!);
    applyToModel(model, all[0]!);
    // A folder where compaction writes its temporary file: open(tmp, 'w') fails with EISDIR.
    const obstacle = join(dir, 'ns', namespaceFolder('ns'), 'snapshot.json.tmp');
    await mkdir(obstacle);
    for (const b of all.slice(1, 4)) {
      await s.commit('ns', b); // every commit resolves: the batch is durable in the journal
      applyToModel(model, b);
    }
    // Compaction is due when the journal holds more than 1 batch: at batch 2 (fails, next try at
    // 2 × 2 = 4 batches), at batch 4 (fails, next try at 8). Two failures, nothing lost.
    expect(s.health?.('ns')).toMatchObject({ compactionFailures: 2, lastCompactionError: expect.stringContaining('snapshot.json.tmp') });
    expect(logged).toEqual([
      ['warn', 'COMPACTION_FAILED', 'ns'],
      ['warn', 'COMPACTION_FAILED', 'ns'],
    ]);
    expect((await lines(journalOf(dir, 'ns'))).map((l) => l.split('\t')[0])).toEqual(['1', '2', '3', '4']);
    expect(await s.load('ns')).toEqual(modelSnapshot(model));
    await rm(obstacle, { recursive: true });
    for (const b of all.slice(4, 8)) {
      await s.commit('ns', b);
      applyToModel(model, b);
    }
    // Batches 5-7 are under the deferral; batch 8 compacts: snapshot at 8, journal empty.
    expect(await lines(journalOf(dir, 'ns'))).toEqual([]);
    expect(JSON.parse((await readFile(snapshotOf(dir, 'ns'), 'utf8')).split('\n')[0]!)).toMatchObject({ seq: 8 });
    expect(s.health?.('ns').compactionFailures).toBe(2); // counted since open
    expect(s.health?.('other')).toEqual({ compactionFailures: 0 });
    await s.close();
    const reopened = await createFileStorage({ dir });
    expect(await reopened.load('ns')).toEqual(modelSnapshot(model));
    await reopened.close();
  });

  it('refuses a logger that is not a function', async () => {
    await expect(createFileStorage({ dir: freshDir(), logger: 'console' as never })).rejects.toMatchObject({ code: 'INVALID_OPTION', details: { field: 'logger' } });
  });

  it('fails with STORAGE_FAILED when the snapshot is damaged', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir, compactAfterBatches: 1 });
    for (const b of batches(2)) await s.commit('ns', b);
    await s.close();
    const path = snapshotOf(dir, 'ns');
    await writeFile(path, (await readFile(path, 'utf8')).replace('version 1', 'version X'));
    const reopened = await createFileStorage({ dir });
    await expect(reopened.load('ns')).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    await reopened.close();
  });
});

describe('file storage: namespaces on disk', () => {
  it('encodes awkward namespace names into distinct safe folders and lists them back', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    const names = ['.', '..', 'a/b', 'A', 'a', 'Zoë 😀', 'x'.repeat(300), '%41'];
    for (const [i, ns] of names.entries()) await s.commit(ns, { putNodes: [makeNode(ns, `n${i}`, i + 1)] });
    expect(await s.namespaces()).toEqual([...names].sort());
    for (const [i, ns] of names.entries()) expect((await s.load(ns)).nodes.map((n) => n.id)).toEqual([`n${i}`]);
    const folders = await readdir(join(dir, 'ns'));
    expect(folders).toHaveLength(names.length);
    for (const f of folders) expect(f).toMatch(/^n[sh]_[a-z0-9_%A-F-]*$/);
    await s.close();
  });

  it('dropNamespace removes that folder only', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    await s.commit('alice', { putNodes: [makeNode('alice', 'a', 1)] });
    await s.commit('bob', { putNodes: [makeNode('bob', 'b', 1)] });
    await s.dropNamespace('alice');
    expect(await readdir(join(dir, 'ns'))).toEqual([namespaceFolder('bob')]);
    expect((await s.load('bob')).nodes.map((n) => n.id)).toEqual(['b']);
    await s.close();
  });

  it('sizeBytes is the sum of the namespace files', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    expect(await s.sizeBytes!('ns')).toBe(0);
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    expect(await s.sizeBytes!('ns')).toBe((await stat(journalOf(dir, 'ns'))).size);
    await s.close();
  });
});

describe('file storage: opening', () => {
  it('create: false on a missing directory fails with STORE_MISSING naming store', async () => {
    await expect(createFileStorage({ dir: freshDir(), create: false })).rejects.toMatchObject({ code: 'STORE_MISSING', field: 'store' });
  });

  it('a format.json of a newer layout fails with SCHEMA_MISMATCH', async () => {
    const dir = freshDir();
    await mkdir(dir);
    await writeFile(join(dir, 'format.json'), JSON.stringify({ format: 'jev-mem/file-store', version: 2 }));
    await expect(createFileStorage({ dir })).rejects.toMatchObject({ code: 'SCHEMA_MISMATCH' });
  });

  it('refuses a non-empty directory that is not a store', async () => {
    const dir = freshDir();
    await mkdir(dir);
    await writeFile(join(dir, 'notes.txt'), 'mine');
    await expect(createFileStorage({ dir })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'dir' });
  });

  it('a second writer is refused while the first holds the lock, and allowed after close', async () => {
    const dir = freshDir();
    const first = await createFileStorage({ dir });
    await first.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    const second = await createFileStorage({ dir });
    await expect(second.commit('ns', { putNodes: [makeNode('ns', 'b', 2)] })).rejects.toMatchObject({ code: 'STORAGE_FAILED', field: 'store' });
    expect((await second.load('ns')).nodes.map((n) => n.id)).toEqual(['a']); // readers need no lock
    await first.close();
    await second.commit('ns', { putNodes: [makeNode('ns', 'b', 2)] });
    expect((await second.load('ns')).nodes.map((n) => n.id)).toEqual(['a', 'b']);
    await second.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = freshDir();
    const s = await createFileStorage({ dir });
    const { hostname } = await import('node:os');
    await writeFile(join(dir, 'lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname() })); // above Linux pid_max
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    expect(JSON.parse(await readFile(join(dir, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    await s.close();
  });
});

describe('writer lock while another process is still writing its lock file', () => {
  it('treats a fresh, still-empty lock as held: the second writer fails with STORAGE_FAILED and writes nothing', async () => {
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { createFileStorage } = await import('../../src/plane/store/legacy-v1.js');
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-lock-'));
    try {
      const first = await createFileStorage({ dir });
      writeFileSync(join(dir, 'lock'), ''); // created with 'wx' by another process, not yet written
      const second = await createFileStorage({ dir });
      const err = await second.commit('ns', { meta: { a: 1 } }).catch((e: unknown) => e);
      expect((err as { code: string }).code).toBe('STORAGE_FAILED');
      expect((await second.load('ns')).meta).toEqual({});
      await second.close();
      await first.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
