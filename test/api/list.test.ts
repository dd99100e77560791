/**
 * Issue 23: `Memory.list` pages every stored memory in insertion order with an opaque cursor,
 * without embeddings, validates `limit`, and filters; `Memory.history` follows explicit updates.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { codeOf, errorOf, lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-list', (e) => (encoder = e));

describe('list', () => {
  it('pages the ten turns 4 + 4 + 2 in insertion order, without embeddings, and the cursor ends', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS);
    const p1 = await memory.list({ limit: 4 });
    expect(p1.memories.map((m) => m.text)).toEqual(TURNS.slice(0, 4).map((t) => t.text));
    expect(p1.memories.map((m) => m.seq)).toEqual([1, 2, 3, 4]);
    expect(p1.memories.every((m) => !('embedding' in m))).toBe(true);
    expect(typeof p1.cursor).toBe('string');
    const p2 = await memory.list({ limit: 4, cursor: p1.cursor! });
    expect(p2.memories.map((m) => m.seq)).toEqual([5, 6, 7, 8]);
    const p3 = await memory.list({ limit: 4, cursor: p2.cursor! });
    expect(p3.memories.map((m) => m.text)).toEqual(TURNS.slice(8).map((t) => t.text));
    expect(p3.cursor).toBeUndefined();
    // default limit 50 holds all ten; the page is a copy
    const all = await memory.list();
    expect(all.memories).toHaveLength(10);
    expect(all.cursor).toBeUndefined();
    await memory.close();
  });

  it('is stable under writes and deletes: a deleted memory is skipped, a new one comes last', async () => {
    const memory = await createMemory({ encoder });
    const ids = (await memory.addMany(TURNS.slice(0, 6))).map((r) => r.id);
    const p1 = await memory.list({ limit: 3 });
    await memory.delete(ids[3]!);
    await memory.add({ text: 'Maya: I adopted a cat named Pixel.', observedAt: '2023-05-01T09:00:00Z' });
    const p2 = await memory.list({ limit: 3, cursor: p1.cursor! });
    expect(p2.memories.map((m) => m.text)).toEqual([TURNS[4]!.text, TURNS[5]!.text, 'Maya: I adopted a cat named Pixel.']);
    expect(p2.memories.map((m) => m.seq)).toEqual([5, 6, 7]);
    await memory.close();
  });

  it('filters by provenance, metadata and scope; a filtered page may be short', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS);
    const theo = await memory.list({ filter: { speaker: 'Theo' } });
    expect(theo.memories.map((m) => m.provenance.turnId)).toEqual(['S1:2', 'S1:4', 'S2:1', 'S2:3', 'S2:5']);
    const april = await memory.list({ filter: { observedAt: { $gte: '2023-04-01' }, speaker: { $in: ['Maya'] } } });
    expect(april.memories.map((m) => m.provenance.turnId)).toEqual(['S2:2', 'S2:4']);
    const s2 = await memory.list({ scope: { sessionId: 's2' }, limit: 2 });
    expect(s2.memories.map((m) => m.provenance.turnId)).toEqual(['S2:1', 'S2:2']);
    expect(s2.cursor).toBeDefined();
    await memory.close();
  });

  it('refuses a bad limit, a foreign or broken cursor, an unknown option, naming the field', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS.slice(0, 3));
    for (const limit of [0, 1001, 2.5, '5']) {
      const e = (await errorOf(memory.list({ limit: limit as number }))) as { code: string; details: { field: string } };
      expect([e.code, e.details.field]).toEqual(['INVALID_INPUT', 'options.limit']);
    }
    const page = await memory.list({ limit: 1 });
    const other = (await errorOf(memory.list({ cursor: page.cursor!, namespace: 'other' }))) as { code: string; details: { field: string }; message: string };
    expect([other.code, other.details.field]).toEqual(['INVALID_INPUT', 'options.cursor']);
    expect(other.message).toContain('another namespace');
    expect(await codeOf(memory.list({ cursor: 'not-a-cursor' }))).toBe('INVALID_INPUT');
    expect(await codeOf(memory.list({ sort: 'seq' } as never))).toBe('INVALID_OPTION');
    const f = (await errorOf(memory.list({ filter: { age: { $gt: 'soon' } } }))) as { details: { field: string } };
    expect(f.details.field).toBe('options.filter.age.$gt');
    await memory.close();
  });
});

describe('history', () => {
  it('returns the versions across two updates oldest first, from any version', async () => {
    const memory = await createMemory({ encoder });
    const a = await memory.add({ text: 'My dog is called Rex.', speaker: 'Sam', observedAt: '2023-01-01T00:00:00Z' });
    await memory.add({ text: 'I like tea.', speaker: 'Sam' });
    const b = await memory.update(a.id, { text: 'My dog is called Max now.', observedAt: '2023-02-01T00:00:00Z' });
    const c = await memory.update(b.id, { text: 'My dog is called Bolt.', observedAt: '2023-03-01T00:00:00Z' });
    const expected = ['My dog is called Rex.', 'My dog is called Max now.', 'My dog is called Bolt.'];
    expect((await memory.history(a.id)).map((m) => m.text)).toEqual(expected);
    expect((await memory.history(c.id)).map((m) => m.text)).toEqual(expected);
    expect((await memory.history(c.id)).map((m) => m.status)).toEqual(['superseded', 'superseded', 'active']);
    await expect(memory.history('nope')).rejects.toMatchObject({ code: 'NOT_FOUND', details: { field: 'id' }, message: 'no memory "nope" in namespace "default"' });
    // Deleting the middle version erases its text from every history; the chain closes over it
    // (Rex stays superseded, by Bolt: test/api/version-chain.test.ts).
    await memory.delete(b.id);
    expect((await memory.history(c.id)).map((m) => [m.text, m.status])).toEqual([
      ['My dog is called Rex.', 'superseded'],
      ['My dog is called Bolt.', 'active'],
    ]);
    expect((await memory.history(a.id)).map((m) => m.text)).toEqual(['My dog is called Rex.', 'My dog is called Bolt.']);
    await memory.close();
  });
});

describe('recall with a filter', () => {
  it('returns only memories the filter keeps, the right one first', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS);
    const r = await memory.recall('What did Theo replace on his bike?', { filter: { sessionId: 's1', speaker: 'Theo' } });
    expect(r.memories[0]?.provenance.turnId).toBe('S1:2');
    expect(new Set(r.memories.map((m) => m.provenance.turnId))).toEqual(new Set(['S1:2', 'S1:4']));
    const none = await memory.recall('What did Theo replace on his bike?', { filter: { speaker: 'Nobody' } });
    expect(none.memories).toEqual([]);
    const bad = (await errorOf(memory.recall('x?', { filter: { a: { $like: 'x' } } as never }))) as { details: { field: string } };
    expect(bad.details.field).toBe('options.filter.a.$like');
    await memory.close();
  });
});
