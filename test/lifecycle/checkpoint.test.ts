/**
 * Issue 13: a namespace reopens from its checkpoint (no rebuild), replays the commits logged
 * after it, rescans when the checkpoint cannot be used, and gives the same recall every way; a
 * delete leaves no term of the erased memory in the checkpoint.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { CHECKPOINT_FORMAT } from '../../src/plane/resident/namespace.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { keepOpen, lifecycleFixture, QUESTIONS, recallView, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('checkpoint', (e) => (encoder = e));

async function answers(storage: StorageAdapter): Promise<{ opened: unknown; views: unknown[]; nodes: number; edges: number }> {
  const m = await createMemory({ encoder, storage });
  const views = [];
  for (const q of QUESTIONS) views.push(await recallView(m, q));
  const s = await m.stats();
  await m.close();
  return { opened: { from: s.opened.from, replayed: s.opened.replayed }, views, nodes: s.nodes, edges: s.edges };
}

describe('checkpoints', () => {
  it('a closed memory reopens from its checkpoint with the same recall as a rescan', async () => {
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage });
    await a.addMany(TURNS);
    const before = [];
    for (const q of QUESTIONS) before.push(await recallView(a, q));
    expect((await a.stats()).opened.from).toBe('empty');
    await a.close();
    const cp = await storage.readCheckpoint!('default');
    expect(cp?.format).toBe(CHECKPOINT_FORMAT);
    const meta = await storage.loadMeta!('default');
    expect(cp?.change).toBe(meta.change);
    const fromCheckpoint = await answers(storage);
    expect(fromCheckpoint.opened).toEqual({ from: 'checkpoint', replayed: 0 });
    expect(fromCheckpoint.views).toEqual(before);
    await storage.dropCheckpoint!('default');
    const fromScan = await answers(storage);
    expect(fromScan.opened).toEqual({ from: 'scan', replayed: 0 });
    expect(fromScan.views).toEqual(before);
    expect([fromScan.nodes, fromScan.edges]).toEqual([fromCheckpoint.nodes, fromCheckpoint.edges]);
  });

  it('a checkpoint of the format before issue 22 (@1: speakers without counts) is rebuilt by a scan, then written as the current format', async () => {
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage });
    await a.addMany(TURNS);
    await a.close();
    const cp = await storage.readCheckpoint!('default');
    expect(CHECKPOINT_FORMAT).toBe('jev-mem/namespace-checkpoint@4');
    await storage.writeCheckpoint!('default', { ...cp!, format: 'jev-mem/namespace-checkpoint@1' });
    const b = await createMemory({ encoder, storage });
    expect((await b.stats()).opened.from).toBe('scan');
    await b.close();
    expect((await storage.readCheckpoint!('default'))?.format).toBe(CHECKPOINT_FORMAT);
    const c = await createMemory({ encoder, storage });
    expect((await c.stats()).opened.from).toBe('checkpoint');
    await c.close();
  });

  it('replays the nodes written after the checkpoint when the memory was not closed', async () => {
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage });
    await a.addMany(TURNS.slice(0, 6));
    await a.close(); // checkpoint at 6 nodes
    const b = await createMemory({ encoder, storage });
    await b.addMany(TURNS.slice(6)); // 4 more, never closed: no checkpoint of them
    const expected = [];
    for (const q of QUESTIONS) expected.push(await recallView(b, q));
    const replayed = await answers(storage);
    expect(replayed.opened).toEqual({ from: 'checkpoint', replayed: 4 });
    expect(replayed.views).toEqual(expected);
    expect(replayed.nodes).toBe(10);
  });

  it('rescans when the change log no longer reaches back to the checkpoint', async () => {
    const inner = createMemoryStorage();
    const storage = keepOpen(inner);
    const a = await createMemory({ encoder, storage });
    await a.addMany(TURNS);
    await a.close();
    const cp = (await storage.readCheckpoint!('default'))!;
    // An older checkpoint than the log's floor: its replay would miss changes.
    await storage.writeCheckpoint!('default', { ...cp, change: cp.change });
    await storage.writeCheckpoint!('default', { ...cp, change: cp.change - 1 });
    const m = await createMemory({ encoder, storage });
    const s = await m.stats();
    expect(s.opened.from).toBe('scan');
    expect(s.opened.reason).toMatch(/change log does not reach back/);
    expect(s.nodes).toBe(10);
    await m.close();
  });

  it('a delete leaves no term of the erased memory in the checkpoint', async () => {
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage });
    const res = await a.addMany(TURNS);
    await a.close();
    const text = (bytes: Record<string, Uint8Array>): string => Object.values(bytes).map((b) => new TextDecoder().decode(b)).join('\n');
    expect(text((await storage.readCheckpoint!('default'))!.parts)).toMatch(/lighthous/);
    const b = await createMemory({ encoder, storage });
    const victim = res[5]!.id; // "a novel about lighthouse keepers"
    expect(await b.delete(victim)).toBe(true);
    const after = text((await storage.readCheckpoint!('default'))!.parts);
    expect(after).not.toMatch(/lighthous/);
    expect(after).not.toContain(victim);
    await b.close();
    const c = await createMemory({ encoder, storage });
    expect((await c.stats()).opened.from).toBe('checkpoint');
    const r = await c.recall('lighthouse keepers novel', { k: 10 });
    expect(r.memories.some((m) => m.id === victim)).toBe(false);
    await c.close();
  });

  it('restores an HNSW index from the checkpoint instead of re-inserting its vectors', async () => {
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage, vectorIndex: 'hnsw' });
    await a.addMany(TURNS);
    const before = [];
    for (const q of QUESTIONS) before.push(await recallView(a, q));
    await a.close();
    const cp = (await storage.readCheckpoint!('default'))!;
    expect(new TextDecoder().decode(cp.parts.vectors!.subarray(0, 4))).toBe('JVIX');
    const b = await createMemory({ encoder, storage, vectorIndex: 'hnsw' });
    const s = await b.stats();
    expect([s.opened.from, s.vectorIndex]).toEqual(['checkpoint', 'hnsw']);
    for (const [i, q] of QUESTIONS.entries()) expect(await recallView(b, q)).toEqual(before[i]);
    await b.close();
    // A memory that asks for the exact index does not take the HNSW one: it rebuilds a flat one.
    const c = await createMemory({ encoder, storage, vectorIndex: 'flat' });
    expect([(await c.stats()).opened.from, (await c.stats()).vectorIndex]).toEqual(['checkpoint', 'flat']);
    await c.close();
  });

  it("restores the pure-TypeScript HNSW ('ann', kind byte 3) from the checkpoint; an hnswlib checkpoint of an older memory still opens (issue 25)", async () => {
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage, vectorIndex: 'ann' });
    await a.addMany(TURNS);
    const before = [];
    for (const q of QUESTIONS) before.push(await recallView(a, q));
    await a.close();
    const cp = (await storage.readCheckpoint!('default'))!;
    expect(new TextDecoder().decode(cp.parts.vectors!.subarray(0, 4))).toBe('JVIX');
    expect(cp.parts.vectors![4]).toBe(3);
    const b = await createMemory({ encoder, storage, vectorIndex: 'ann' });
    const s = await b.stats();
    expect([s.opened.from, s.vectorIndex]).toEqual(['checkpoint', 'ann']);
    for (const [i, q] of QUESTIONS.entries()) expect(await recallView(b, q)).toEqual(before[i]);
    await b.close();
    // A memory that asks for hnswlib's index does not take this one (it rebuilds an hnsw one).
    const c = await createMemory({ encoder, storage, vectorIndex: 'hnsw' });
    expect([(await c.stats()).opened.from, (await c.stats()).vectorIndex]).toEqual(['checkpoint', 'hnsw']);
    await c.close();
    // That memory's checkpoint (kind byte 2) opens under 'ann': the rest is restored, the ann index rebuilt from the int8 rows.
    const d = await createMemory({ encoder, storage, vectorIndex: 'ann' });
    expect([(await d.stats()).opened.from, (await d.stats()).vectorIndex]).toEqual(['checkpoint', 'ann']);
    for (const [i, q] of QUESTIONS.entries()) expect(await recallView(d, q)).toEqual(before[i]);
    await d.close();
  });
});

describe('cache option', () => {
  it('bounds the node cache: a memory with a 2-node cache recalls what a default one does', async () => {
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage });
    await a.addMany(TURNS);
    const expected = [];
    for (const q of QUESTIONS) expected.push(await recallView(a, q));
    await a.close();
    const small = await createMemory({ encoder, storage, cache: { nodes: 2, edges: 2 } });
    for (const [i, q] of QUESTIONS.entries()) expect(await recallView(small, q)).toEqual(expected[i]);
    await small.close();
  });

  it('refuses a cache size that is not a positive integer, naming the field', async () => {
    for (const [cache, field] of [
      [{ nodes: 0 }, 'cache.nodes'],
      [{ edges: 1.5 }, 'cache.edges'],
      ['big', 'cache'],
    ] as const) {
      const e = await createMemory({ encoder, cache: cache as never }).catch((x: unknown) => x);
      expect(e).toMatchObject({ code: 'INVALID_OPTION', field });
    }
  });
});
