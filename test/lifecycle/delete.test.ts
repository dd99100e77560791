/**
 * Issue 7 item 2: `delete(id)` removes the node, its edges and its index entries (gone from
 * recall at once and after a reload); `forget(namespace)` removes one namespace and nothing else;
 * the CLI's `delete` and `forget`.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { cli, keepOpen, lifecycleFixture, QUESTIONS, recallView, stored, TURNS } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('delete', (e) => (encoder = e));

/** A memory holding TURNS; returns the id of each turn by turnId. */
async function filled(memory: Memory, namespace?: string): Promise<Map<string, string>> {
  const res = await memory.addMany(TURNS, namespace === undefined ? {} : { namespace });
  return new Map(TURNS.map((t, i) => [t.turnId as string, res[i]?.id as string]));
}

describe('delete', () => {
  it('removes the node and every edge that touches it', async () => {
    const memory = await createMemory({ encoder });
    const ids = await filled(memory);
    const victim = ids.get('S1:4') as string; // Biscuit and the bike chain: temporal and entity edges
    const touching = await memory.edges(victim);
    expect(touching.length).toBeGreaterThan(0);
    const before = await memory.stats();
    expect(await memory.delete(victim)).toBe(true);
    expect(await memory.get(victim)).toBeUndefined();
    expect(await memory.edges(victim)).toEqual([]);
    for (const e of touching) {
      const other = e.from === victim ? e.to : e.from;
      expect((await memory.edges(other)).some((x) => x.from === victim || x.to === victim)).toBe(false);
    }
    const after = await memory.stats();
    expect(after.nodes).toBe(before.nodes - 1);
    expect(after.edges).toBe(before.edges - touching.length);
    await memory.close();
  });

  it('takes the node out of recall at once, even for its own words', async () => {
    const memory = await createMemory({ encoder });
    const ids = await filled(memory);
    const victim = ids.get('S1:2') as string;
    expect((await recallView(memory, 'Theo replaced the chain on his bike')).map((m) => m.id)).toContain(victim);
    await memory.delete(victim);
    const r = await memory.recall('Theo replaced the chain on his bike', { k: 40 });
    expect(r.memories.map((m) => m.id)).not.toContain(victim);
    expect(r.trace.anchors.map((a) => a.id)).not.toContain(victim); // out of both indexes
    await memory.close();
  });

  it('stays deleted after the store is reopened', async () => {
    const dir = tempDir();
    const first = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }) });
    const ids = await filled(first);
    const victim = ids.get('S2:3') as string;
    await first.delete(victim);
    await first.close();
    const second = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }) });
    expect(await second.get(victim)).toBeUndefined();
    expect((await second.recall('What did Biscuit learn to fetch?', { k: 40 })).memories.map((m) => m.id)).not.toContain(victim);
    expect((await second.stats()).nodes).toBe(TURNS.length - 1);
    await second.close();
  });

  it('returns false for an unknown id and changes nothing', async () => {
    const storage = createMemoryStorage();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await filled(memory);
    const before = await storage.load('default');
    expect(await memory.delete('no-such-id')).toBe(false);
    expect(await storage.load('default')).toEqual(before);
    await memory.close();
  });

  it('makes the version it superseded current again when the newer one is deleted', async () => {
    const memory = await createMemory({ encoder });
    const a = await memory.add({ text: 'Maya: I live in Lisbon.', observedAt: '2023-01-01T00:00:00Z' });
    const b = await memory.update(a.id, { text: 'Maya: I live in Porto now.', observedAt: '2023-06-01T00:00:00Z' });
    await memory.delete(b.id);
    expect(await memory.get(a.id)).toMatchObject({ status: 'active', supersededBy: [] });
    expect((await memory.recall('Where does Maya live?')).memories[0]?.supersededAt).toBeUndefined();
    await memory.close();
  });

  it('lets the same observation be written again as a new node (no ghost of the deleted one)', async () => {
    const memory = await createMemory({ encoder });
    const first = await memory.add(TURNS[0] as (typeof TURNS)[0]);
    await memory.delete(first.id);
    const again = await memory.add(TURNS[0] as (typeof TURNS)[0]);
    expect(again.deduplicated).toBe(false);
    expect(again.id).not.toBe(first.id);
    expect((await memory.get(again.id))?.text).toBe(TURNS[0]?.text);
    await memory.close();
  });
});

describe('forget', () => {
  it('removes one namespace and leaves every other exactly as it was', async () => {
    const storage = createMemoryStorage();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await filled(memory, 'work');
    await filled(memory, 'home');
    const homeBefore = await stored(storage, 'home');
    const homeRecall = await recallView(memory, QUESTIONS[0] as string, 'home');
    await memory.forget('work');
    expect(await memory.namespaces()).toEqual(['home']);
    expect(await storage.load('work')).toEqual({ nodes: [], edges: [], meta: {} });
    expect((await memory.stats({ namespace: 'work' })).nodes).toBe(0);
    expect((await memory.recall(QUESTIONS[0] as string, { namespace: 'work' })).memories).toEqual([]);
    expect(await stored(storage, 'home')).toEqual(homeBefore);
    expect(await recallView(memory, QUESTIONS[0] as string, 'home')).toEqual(homeRecall);
    await memory.close();
  });

  it('is gone after a reopen too, and the namespace can be used again from empty', async () => {
    const dir = tempDir();
    const first = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }) });
    await filled(first, 'work');
    await first.forget('work');
    await first.close();
    const second = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }) });
    expect(await second.namespaces()).toEqual([]);
    const r = await second.add(TURNS[0] as (typeof TURNS)[0], { namespace: 'work' });
    expect(r.deduplicated).toBe(false);
    expect((await second.stats({ namespace: 'work' })).nodes).toBe(1);
    await second.close();
  });
});

describe('CLI delete and forget', () => {
  const base = ['--system-one', 'heuristic'];

  it('deletes one node by id from a store; an unknown id prints deleted: false with a warning and exits 0, as Memory.delete returns false', async () => {
    const store = join(tempDir(), 'store');
    const setup = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir: store }), namespace: 'chat' });
    const ids = await filled(setup);
    await setup.close();
    const victim = ids.get('S1:1') as string;
    const r = await cli(['delete', victim, '--store', store, '--namespace', 'chat', ...base]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toEqual({ deleted: true, id: victim });
    expect(r.err).toEqual([]);
    // Deleting it again is what Memory.delete says (false), not an error: exit 0, a warning.
    const missing = await cli(['delete', victim, '--store', store, '--namespace', 'chat', ...base]);
    expect(missing.code).toBe(0);
    expect(JSON.parse(missing.out[0] as string)).toEqual({ deleted: false, id: victim });
    expect(missing.err).toEqual([`jev-mem: warning: namespace "chat" holds no node "${victim}"; nothing was deleted`]);
    const check = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir: store }), namespace: 'chat' });
    expect(await check.get(victim)).toBeUndefined();
    expect((await check.stats()).nodes).toBe(TURNS.length - 1);
    await check.close();
  });

  it('forgets one namespace of a store and keeps the others; --namespace is required', async () => {
    const store = join(tempDir(), 'store');
    const setup = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir: store }) });
    await filled(setup, 'a');
    await filled(setup, 'b');
    await setup.close();
    const usage = await cli(['forget', '--store', store, ...base]);
    expect(usage.code).toBe(2);
    const r = await cli(['forget', '--store', store, '--namespace', 'a', ...base]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out[0] as string)).toEqual({ forgotten: 'a', existed: true });
    const check = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir: store }) });
    expect(await check.namespaces()).toEqual(['b']);
    expect((await check.stats({ namespace: 'b' })).nodes).toBe(TURNS.length);
    await check.close();
  });
});
