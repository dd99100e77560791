import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isWriterElsewhere } from '../../src/errors.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import type { Logger } from '../../src/util/logger.js';
import { lexicalTerms } from '../../src/plane/indexes/lexical.js';
import { ftsToken } from '../../src/plane/indexes/sql-lexical.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { takeStoreLockWaiting, WRITER_IDLE_MS } from '../../src/plane/store/store-lock.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { makeEdge, makeNode } from './fixtures.js';
import { describeStorageContract } from './storage-contract.js';

/** The pid the store's writer lock file names. */
async function lockOwner(dir: string): Promise<number> {
  return (JSON.parse(await readFile(join(dir, 'lock'), 'utf8')) as { pid: number }).pid;
}

const root = await mkdtemp(join(tmpdir(), 'jev-mem-sqlite-'));
let counter = 0;
const freshDir = (): string => join(root, `store-${++counter}`);
afterAll(() => rm(root, { recursive: true, force: true }));

describeStorageContract('sqlite file (minisearch)', () => createSqliteFileStorage({ dir: freshDir(), lexical: 'minisearch' }), 25);
describeStorageContract('sqlite file (fts5)', () => createSqliteFileStorage({ dir: freshDir(), lexical: 'fts5' }), 25);

const filesUnder = async (dir: string): Promise<string[]> => {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else out.push(path);
  }
  return out;
};
const holds = async (dir: string, marker: string): Promise<boolean> => {
  const needle = Buffer.from(marker, 'utf8');
  for (const file of await filesUnder(dir)) if ((await readFile(file)).includes(needle)) return true;
  return false;
};

describe('sqlite file storage', () => {
  it('a store reopened by a new adapter sees the committed data, vectors exact', async () => {
    const dir = freshDir();
    const first = await createSqliteFileStorage({ dir });
    const a = makeNode('ns', 'a', 1);
    a.embedding = { encoder: 'e', vector: quantizeVector([0.1, -0.2, 0.3]) };
    await first.commit('ns', { putNodes: [a], putEdges: [makeEdge('ns', 'a>a:temporal:precedes', 'a', 'a'), makeEdge('ns', 'free-id', 'a', 'ghost')], meta: { k: 1 } });
    await first.close();
    const second = await createSqliteFileStorage({ dir, create: false });
    const snap = await second.load('ns');
    expect(snap.nodes).toEqual([a]);
    expect(snap.edges.map((e) => [e.id, e.from, e.to])).toEqual([['a>a:temporal:precedes', 'a', 'a'], ['free-id', 'a', 'ghost']]);
    expect(snap.meta).toEqual({ k: 1 });
    await second.close();
  });

  it('delete erases the text from every file of the store; the other node stays', async () => {
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir });
    const gone = 'MARKER-erase-me-7f3a9c';
    const kept = 'MARKER-keep-me-1b2d4e';
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, `${gone} and some words`), makeNode('ns', 'b', 2, `${kept} and more words`)] });
    await s.commit('ns', { putNodes: [makeNode('ns', 'c', 3, 'filler '.repeat(2000))] });
    expect(await holds(dir, gone)).toBe(true);
    await s.commit('ns', { deleteNodeIds: ['a'] });
    await s.close();
    expect(await holds(dir, gone)).toBe(false);
    expect(await holds(dir, kept)).toBe(true);
  });

  it('with the FTS5 engine, delete erases the text and the tails of its hashed terms from every file', async () => {
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir, lexical: 'fts5' });
    const gone = 'MARKER-erase-me-7f3a9c';
    const kept = 'MARKER-keep-me-1b2d4e';
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, `${gone} and some words`), makeNode('ns', 'b', 2, `${kept} and more words`)] });
    await s.commit('ns', { putNodes: [makeNode('ns', 'c', 3, 'filler '.repeat(2000))] });
    // Terms of the deleted text only ("erase", "7f3a9c"); FTS5 writes a term after the prefix it
    // shares with its neighbour, so look for the last 6 characters of each hashed token.
    const own = lexicalTerms(gone).filter((t) => !lexicalTerms(`${kept} and more words filler`).includes(t));
    expect(own).toEqual(['eras', '7f3a9c']);
    const tails = own.map((t) => ftsToken(t).slice(-6));
    expect(await holds(dir, gone)).toBe(true);
    for (const t of tails) expect(await holds(dir, t), t).toBe(true);
    await s.commit('ns', { deleteNodeIds: ['a'] });
    await s.close();
    expect(await holds(dir, gone)).toBe(false);
    for (const t of tails) expect(await holds(dir, t), t).toBe(false);
    expect(await holds(dir, kept)).toBe(true);
  });

  it('a second writer waits while the first holds the lock, and writes once the first is idle; the lock then names it', async () => {
    const dir = freshDir();
    const first = await createSqliteFileStorage({ dir });
    await first.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    const second = await createSqliteFileStorage({ dir });
    expect((await second.load('ns')).nodes.map((n) => n.id)).toEqual(['a']); // readers need no lock
    expect(await lockOwner(dir)).toBe(process.pid); // the first holds it
    const started = Date.now();
    await second.commit('ns', { putNodes: [makeNode('ns', 'b', 2)] }); // waits for the first's idle release
    expect(Date.now() - started).toBeGreaterThanOrEqual(WRITER_IDLE_MS / 2);
    expect((await first.load('ns')).nodes.map((n) => n.id)).toEqual(['a', 'b']);
    // The first writes again after the second gives the lock back; a failed take names the holder.
    const held = await takeStoreLockWaiting(dir, join(dir, 'lock'), 50).catch((e: unknown) => e);
    expect(isWriterElsewhere(held)).toBe(true);
    await first.commit('ns', { putNodes: [makeNode('ns', 'c', 3)] });
    expect((await second.load('ns')).nodes.map((n) => n.id)).toEqual(['a', 'b', 'c']);
    await first.close();
    await second.close();
    expect(await readdir(dir)).toEqual(['jev-mem.sqlite']);
  });

  it('a reader memory that replayed a live writer\'s changes closes without a checkpoint and without a warning', async () => {
    const dir = freshDir();
    const axes: Encoder = { fingerprint: 'test/axes@4', dimension: 4, embed: async (texts) => texts.map((t) => Float32Array.from([0, 1, 2, 3], (i) => (i === t.length % 4 ? 1 : 0))) };
    const seen: string[] = [];
    const logger: Logger = (_level, _message, entry) => void seen.push(entry.code);
    const first = await createMemory({ encoder: axes, storage: await createSqliteFileStorage({ dir }), logger });
    await first.addMany([{ text: 'Ana lives in Porto.' }, { text: 'Ana adopted a cat.' }]);
    await first.close(); // writes a checkpoint
    const writer = await createMemory({ encoder: axes, storage: await createSqliteFileStorage({ dir }), logger });
    await writer.add({ text: 'Ana painted the fence.' }); // logged after the checkpoint; the writer holds the lock
    const reader = await createMemory({ encoder: axes, storage: await createSqliteFileStorage({ dir }), logger });
    expect((await reader.recall('What did Ana do?')).memories.length).toBe(3);
    expect((await reader.stats()).opened).toMatchObject({ from: 'checkpoint', replayed: 1 }); // a checkpoint is due at close
    await reader.close(); // it needs the writer lock, which the writer holds: skipped, not reported
    expect(seen).toEqual([]);
    await writer.close();
  });

  it('takes over a lock left by a process that is gone, and the SQLite lock it left', async () => {
    const dir = freshDir();
    const logged: string[] = [];
    const s = await createSqliteFileStorage({ dir, logger: (_level, _message, entry) => logged.push(entry.code) });
    await writeFile(join(dir, 'lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname() })); // above Linux pid_max
    await mkdir(join(dir, 'jev-mem.sqlite.lock')); // a writer killed inside a statement
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    expect(JSON.parse(await readFile(join(dir, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    expect((await s.getNodes!('ns', ['a'])).length).toBe(1);
    expect(logged).toEqual(['STALE_LOCK_TAKEN']);
    await s.close();
    expect(await readdir(dir)).toEqual(['jev-mem.sqlite']);
  });

  it('a read that finds a SQLite lock left by a dead process clears it and runs again, its cached statements too', async () => {
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir });
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    expect((await s.getNodes!('ns', ['a'])).length).toBe(1); // the read's statements are prepared and cached
    const lockDir = join(dir, 'jev-mem.sqlite.lock');
    // The read lease ends at the first turn without a statement (at most LEASE_HOLD_MS later).
    for (let i = 0; i < 200 && existsSync(lockDir); i++) await new Promise((r) => setTimeout(r, 5));
    await mkdir(lockDir); // a process killed inside a statement, 60 s ago
    const old = new Date(Date.now() - 60_000);
    await utimes(lockDir, old, old);
    expect((await s.getNodes!('ns', ['a'])).map((n) => n.id)).toEqual(['a']);
    await s.close();
    expect(await readdir(dir)).toEqual(['jev-mem.sqlite']);
  });

  it('refuses a missing store with create: false, and a directory that is not a store', async () => {
    await expect(createSqliteFileStorage({ dir: freshDir(), create: false })).rejects.toMatchObject({ code: 'STORE_MISSING', field: 'store' });
    const dir = freshDir();
    await mkdir(dir);
    await writeFile(join(dir, 'notes.txt'), 'mine');
    await expect(createSqliteFileStorage({ dir })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'dir' });
  });
  // The import of a v1 file store: test/plane/legacy-v1-import.test.ts.
});

describe('sqlite file storage: the file is rewritten after an erasure (issue 22)', () => {
  /** Nodes of varying size (tens to thousands of bytes), so that the b-tree pages split as they are written. */
  const varied = (from: number, to: number, marker = ''): ReturnType<typeof makeNode>[] =>
    Array.from({ length: to - from }, (_, k) => {
      const i = from + k;
      return makeNode('ns', `n${i}`, i + 1, `${i === from ? marker : ''} note ${i} ${'word '.repeat(10 + ((i * 37) % 400))}`);
    });

  it('an erasure is counted as pending until vacuum() rewrites the file: free pages go, the text is in no file', async () => {
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir, vacuumBytes: 0 });
    const gone = 'MARKER-rebalanced-5d1e9a';
    for (let i = 0; i < 200; i += 20) await s.commit('ns', { putNodes: varied(i, i + 20, i === 100 ? gone : '') });
    const file = join(dir, 'jev-mem.sqlite');
    const full = (await stat(file)).size;
    expect(s.pendingErasures?.()).toBe(0);
    // Two erasures: most nodes (one batch), then the marked one.
    await s.commit('ns', { deleteNodeIds: Array.from({ length: 150 }, (_, i) => `n${i}`).filter((id) => id !== 'n100') });
    await s.commit('ns', { deleteNodeIds: ['n100'] });
    expect(s.pendingErasures?.()).toBe(2);
    // The file says "pending" from before the first erasure's commit (its exact count is written when the writer lock is given back).
    expect(Number(await readFile(join(dir, 'erasures-pending'), 'utf8'))).toBeGreaterThanOrEqual(1);
    // secure_delete zeroed the freed pages, which stay in the file until it is rewritten.
    expect((await stat(file)).size).toBe(full);
    await s.settleErasures?.(); // vacuumBytes 0: left pending
    expect(s.pendingErasures?.()).toBe(2);
    expect(await s.vacuum?.()).toBe(2);
    expect(s.pendingErasures?.()).toBe(0);
    expect(existsSync(join(dir, 'erasures-pending'))).toBe(false);
    // 150 of 200 nodes (about 3/4 of the text bytes) gone: the file is rewritten at under half its size.
    expect((await stat(file)).size).toBeLessThan(full / 2);
    expect(await holds(dir, gone)).toBe(false);
    expect((await s.load('ns')).nodes.length).toBe(50);
    await s.close();
  });

  it('erasures-pending is written when the pending state changes, not per erasure: later erasures leave it untouched, the exact count is written when the writer lock is given back (issue 22)', async () => {
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir, vacuumBytes: 0 });
    await s.commit('ns', { putNodes: varied(0, 40) });
    const path = join(dir, 'erasures-pending');
    expect(existsSync(path)).toBe(false);
    await s.commit('ns', { deleteNodeIds: ['n0'] });
    // Written before the commit: a process that dies now leaves the erasure pending.
    expect(await readFile(path, 'utf8')).toBe('1');
    const first = (await stat(path, { bigint: true })).mtimeNs;
    for (let i = 1; i < 30; i++) await s.commit('ns', { deleteNodeIds: [`n${i}`] });
    expect(s.pendingErasures()).toBe(30);
    // No write per erasure (the base code rewrote the file, read first, at each of the 29).
    expect(await readFile(path, 'utf8')).toBe('1');
    expect((await stat(path, { bigint: true })).mtimeNs).toBe(first);
    // Another connection (as the next process after a crash would) sees erasures pending.
    const other = await createSqliteFileStorage({ dir, vacuumBytes: 0 });
    expect(other.pendingErasures()).toBeGreaterThanOrEqual(1);
    await other.close();
    // Given back after WRITER_IDLE_MS without a write: the exact count, then read again by the next hold.
    const until = Date.now() + 10 * WRITER_IDLE_MS;
    while ((await readFile(path, 'utf8')) !== '30' && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(await readFile(path, 'utf8')).toBe('30');
    await s.commit('ns', { deleteNodeIds: ['n30'] });
    expect(s.pendingErasures()).toBe(31);
    expect(await s.vacuum()).toBe(31);
    expect(existsSync(path)).toBe(false);
    expect(s.pendingErasures()).toBe(0);
    await s.close();
    expect(existsSync(path)).toBe(false);
  });

  it('close() rewrites the file when erasures are pending; a memory rewrites a small file within delete, a large one at maintain()', async () => {
    const axes: Encoder = { fingerprint: 'test/axes@4', dimension: 4, embed: async (texts) => texts.map((t) => Float32Array.from([0, 1, 2, 3], (i) => (i === t.length % 4 ? 1 : 0))) };
    const dir = freshDir();
    const s = await createSqliteFileStorage({ dir, vacuumBytes: 0 });
    for (let i = 0; i < 100; i += 20) await s.commit('ns', { putNodes: varied(i, i + 20) });
    await s.commit('ns', { deleteNodeIds: Array.from({ length: 80 }, (_, i) => `n${i}`) });
    const file = join(dir, 'jev-mem.sqlite');
    const before = (await stat(file)).size;
    await s.close();
    expect((await stat(file)).size).toBeLessThan(before / 2);
    expect(existsSync(join(dir, 'erasures-pending'))).toBe(false);

    for (const [vacuumBytes, pendingAfterDelete] of [[Infinity, 0], [0, 1]] as const) {
      const mdir = freshDir();
      const memory = await createMemory({ encoder: axes, storage: await createSqliteFileStorage({ dir: mdir, vacuumBytes }), logger: () => undefined });
      const added = await memory.addMany(Array.from({ length: 12 }, (_, i) => ({ text: `Ana note ${i} ${'about the garden '.repeat(5 + i * 9)}` })));
      const kept = await memory.add({ text: 'MARKER-kept-6c2f Ana keeps bees.' });
      const gone = await memory.add({ text: 'MARKER-gone-3e8b Ana told her passport number.' });
      for (const a of added.slice(0, 10)) expect(await memory.delete(a.id)).toBe(true);
      expect(await memory.delete(gone.id)).toBe(true);
      expect((await memory.stats()).erasuresPending, `vacuumBytes ${vacuumBytes}`).toBe(pendingAfterDelete === 0 ? 0 : 11);
      expect((await memory.maintain()).expired).toBe(0);
      expect((await memory.stats()).erasuresPending).toBe(0);
      expect((await memory.get(kept.id))?.text).toContain('MARKER-kept-6c2f');
      await memory.close();
      expect(await holds(mdir, 'MARKER-gone-3e8b')).toBe(false);
      expect(await holds(mdir, 'MARKER-kept-6c2f')).toBe(true);
    }
  });
});
