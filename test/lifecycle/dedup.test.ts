/**
 * Issue 7 item 4: exact repeats (same text, same time, same source) are stored once, and every
 * repeat's provenance is kept.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import type { Observation } from '../../src/types.js';
import { lifecycleFixture } from './helpers.js';
import { SHIPPED_STORES, storePlace } from './stores.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('dedup', (e) => (encoder = e));

const BASE: Observation = { text: 'Theo: I replaced the chain on my bike.', observedAt: '2023-03-01T10:01:00Z', source: 'chat', speaker: 'Theo', turnId: 'S1:2' };
const NOW = new Date('2024-01-01T00:00:00Z');

describe('exact repeats', () => {
  it('stores an exact repeat once and keeps its provenance in `duplicates`', async () => {
    const memory = await createMemory({ encoder, now: () => NOW });
    const first = await memory.add(BASE);
    const second = await memory.add({ ...BASE, observedAt: '2023-03-01T11:01:00+01:00', turnId: 'copy-7', sessionId: 'import-2' });
    // A repeat still asks its typing request (1 call), answered by the default heuristic itself (no fallback).
    expect(second).toEqual({ id: first.id, deduplicated: true, edges: 0, systemOne: { calls: 1, fallbacks: 0, model: memory.systemOne.modelId } });
    const node = await memory.get(first.id);
    expect(node?.provenance).toEqual({ source: 'chat', speaker: 'Theo', turnId: 'S1:2' });
    expect(node?.duplicates).toEqual([{ source: 'chat', speaker: 'Theo', turnId: 'copy-7', sessionId: 'import-2', ingestedAt: NOW.toISOString() }]);
    expect((await memory.stats()).nodes).toBe(1);
    await memory.close();
  });

  it.each([
    ['another time', { observedAt: '2023-03-02T10:01:00Z' }],
    ['no time', { observedAt: undefined }],
    ['another source', { source: 'email' }],
    ['no source', { source: undefined }],
    // A trailing space or another Unicode normalisation is the same text since issue 15
    // (test/integration/multilingual.test.ts); one letter more is another text.
    ['text that differs by one letter', { text: 'Theo: I replaced the chains on my bike.' }],
    // Issue 22/25 (h-break10 finding 5): metadata is part of what a memory is.
    ['metadata where it had none', { metadata: { file: 'b.jsonl' } }],
  ] as Array<[string, Partial<Observation>]>)('keeps a repeat with %s as its own node', async (_label, change) => {
    const memory = await createMemory({ encoder });
    const a = await memory.add(BASE);
    const b = await memory.add({ ...BASE, ...change });
    expect(b.deduplicated).toBe(false);
    expect(b.id).not.toBe(a.id);
    expect((await memory.stats()).nodes).toBe(2);
    await memory.close();
  });

  it('treats an empty source and no source as different sources (merges only certain repeats)', async () => {
    const memory = await createMemory({ encoder });
    const { source: _s, ...noSource } = BASE;
    const a = await memory.add(noSource);
    const b = await memory.add({ ...noSource, source: '' });
    expect(b.deduplicated).toBe(false);
    expect(b.id).not.toBe(a.id);
    await memory.close();
  });

  it('merges repeats inside one addMany batch, in order, losing no provenance', async () => {
    const memory = await createMemory({ encoder });
    const res = await memory.addMany([BASE, { ...BASE, turnId: 'b' }, { text: 'Maya: Nice!', source: 'chat' }, { ...BASE, turnId: 'c' }]);
    expect(res.map((r) => r.deduplicated)).toEqual([false, true, false, true]);
    expect(res[1]?.id).toBe(res[0]?.id);
    expect(res[3]?.id).toBe(res[0]?.id);
    expect((await memory.get(res[0]?.id as string))?.duplicates?.map((d) => d.turnId)).toEqual(['b', 'c']);
    expect((await memory.stats()).nodes).toBe(2);
    await memory.close();
  });

  it.each(SHIPPED_STORES)('recognises a repeat after the store is reopened, and keeps the merged provenance on disk (%s store)', async (kind) => {
    const place = storePlace(kind, tempDir);
    const first = await createMemory({ encoder, storage: await place.open() });
    const a = await first.add(BASE);
    await first.add({ ...BASE, turnId: 'again-1' });
    await first.close();
    const second = await createMemory({ encoder, storage: await place.open() });
    const b = await second.add({ ...BASE, turnId: 'again-2' });
    expect(b).toMatchObject({ id: a.id, deduplicated: true });
    expect((await second.get(a.id))?.duplicates?.map((d) => d.turnId)).toEqual(['again-1', 'again-2']);
    await second.close();
  });

  it('does not merge across namespaces', async () => {
    const memory = await createMemory({ encoder });
    const a = await memory.add(BASE, { namespace: 'one' });
    const b = await memory.add(BASE, { namespace: 'two' });
    expect(b.deduplicated).toBe(false);
    expect(b.id).not.toBe(a.id);
    expect((await memory.get(a.id, { namespace: 'one' }))?.duplicates).toBeUndefined();
    await memory.close();
  });

  it('a repeat does not disturb recall: one hit, not two', async () => {
    const memory = await createMemory({ encoder });
    await memory.add(BASE);
    await memory.add({ ...BASE, turnId: 'x' });
    await memory.add({ text: 'Maya: My teacher explains glazing clearly.', source: 'chat' });
    const { memories } = await memory.recall('What did Theo replace on his bike?');
    expect(memories.filter((m) => m.text === BASE.text)).toHaveLength(1);
    await memory.close();
  });

  it('keeps the same text with other metadata as two memories, and merges the same metadata in any key order', async () => {
    const memory = await createMemory({ encoder });
    const a = await memory.add({ text: 'Meeting at 10', metadata: { project: 'A', tags: { room: 'B2', floor: 3 } } });
    const b = await memory.add({ text: 'Meeting at 10', metadata: { project: 'B', tags: { room: 'B2', floor: 3 } } });
    expect(b.deduplicated).toBe(false);
    expect(b.id).not.toBe(a.id);
    expect((await memory.list({ filter: { project: 'B' } })).memories.map((m) => m.id)).toEqual([b.id]);
    expect((await memory.list({ filter: { project: 'A' } })).memories.map((m) => m.id)).toEqual([a.id]);
    // The same metadata with its keys (nested ones too) in another order is the same memory.
    const c = await memory.add({ text: 'Meeting at 10', metadata: { tags: { floor: 3, room: 'B2' }, project: 'A' } });
    expect(c).toMatchObject({ id: a.id, deduplicated: true });
    // Scope fields are the scope, not "other metadata": a scoped repeat still merges.
    const u1 = await memory.add({ text: 'Meeting at 10', userId: 'u1', metadata: { project: 'A' } });
    const u1again = await memory.add({ text: 'Meeting at 10', metadata: { project: 'A', userId: 'u1' } });
    expect(u1again).toMatchObject({ id: u1.id, deduplicated: true });
    expect(u1.id).not.toBe(a.id);
    expect((await memory.stats()).nodes).toBe(3);
    await memory.close();
  });
});
