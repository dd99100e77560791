/**
 * Issue 23: chat messages as input, scopes (userId / agentId / sessionId) in list, recall and
 * reset, expiry (never returned once due, erased by maintain; injected clock), and reset.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { errorOf, lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-scope', (e) => (encoder = e));

describe('chat messages', () => {
  it('role → speaker, name over role, content → text; other fields kept', async () => {
    const memory = await createMemory({ encoder });
    const [a, b] = await memory.addMany([
      { role: 'user', content: 'I moved to Lisbon.', observedAt: '2024-01-02T10:00:00Z' },
      { role: 'assistant', content: 'Noted, Lisbon it is.', name: 'Jev', sessionId: 'chat-1' },
    ]);
    const na = await memory.get(a!.id);
    const nb = await memory.get(b!.id);
    expect([na?.text, na?.provenance.speaker, na?.observedAt]).toEqual(['I moved to Lisbon.', 'user', '2024-01-02T10:00:00.000Z']);
    expect([nb?.text, nb?.provenance.speaker, nb?.provenance.sessionId]).toEqual(['Noted, Lisbon it is.', 'Jev', 'chat-1']);
    await memory.close();
  });

  it('refuses a message with text too, or a non-string content, naming the field', async () => {
    const memory = await createMemory({ encoder });
    const e1 = (await errorOf(memory.add({ role: 'user', content: 'x', text: 'y' } as never))) as { details: { field: string } };
    expect(e1.details.field).toBe('observation.text');
    const e2 = (await errorOf(memory.addMany([{ text: 'ok' }, { role: 'user', content: [{ type: 'text' }] } as never]))) as { details: { field: string } };
    expect(e2.details.field).toBe('observations[1].content');
    await memory.close();
  });
});

describe('scopes', () => {
  it('stores userId/agentId in metadata (also from options.scope) and selects by them', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS.slice(0, 5), { scope: { userId: 'maya-user', agentId: 'coach' } });
    await memory.addMany(TURNS.slice(5), { scope: { userId: 'theo-user' } });
    await memory.add({ text: 'Maya: I prefer window seats.', userId: 'maya-user' });
    const page = await memory.list({ scope: { userId: 'maya-user' } });
    expect(page.memories.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5, 11]);
    expect(page.memories[0]!.provenance.metadata).toEqual({ userId: 'maya-user', agentId: 'coach' });
    expect((await memory.list({ scope: { agentId: 'coach', sessionId: 's1' } })).memories).toHaveLength(5);
    // Recall within a scope never returns another user's memories, and still finds the right one.
    const r = await memory.recall('What did Theo replace on his bike?', { scope: { userId: 'theo-user' } });
    expect(r.memories.length).toBeGreaterThan(0);
    expect(r.memories.every((m) => m.provenance.metadata?.userId === 'theo-user')).toBe(true);
    const r2 = await memory.recall('What did Theo replace on his bike?', { scope: { userId: 'maya-user' } });
    expect(r2.memories.map((m) => m.provenance.turnId)).toContain('S1:2');
    expect(r2.memories.every((m) => m.provenance.metadata?.userId === 'maya-user')).toBe(true);
    await memory.close();
  });

  it('keeps the scope across update; refuses a scope that differs from metadata', async () => {
    const memory = await createMemory({ encoder });
    const a = await memory.add({ text: 'My dog is Rex.', userId: 'u1' });
    const b = await memory.update(a.id, { text: 'My dog is Max.' });
    expect((await memory.get(b.id))?.provenance.metadata).toEqual({ userId: 'u1' });
    const e = (await errorOf(memory.add({ text: 'x', userId: 'u1', metadata: { userId: 'u2' } }))) as { code: string; details: { field: string } };
    expect([e.code, e.details.field]).toEqual(['INVALID_INPUT', 'observation.userId']);
    const e2 = (await errorOf(memory.list({ scope: { user: 'u1' } as never }))) as { details: { field: string } };
    expect(e2.details.field).toBe('options.scope.user');
    await memory.close();
  });

  it("one scope's statement never supersedes another scope's state (a shared namespace)", async () => {
    const memory = await createMemory({ encoder });
    const porto = await memory.add({ text: 'I live in Porto.', speaker: 'user', userId: 'u1', observedAt: '2025-01-01' });
    const unscoped = await memory.add({ text: 'I live in Lyon.', speaker: 'user', observedAt: '2025-02-01' });
    const rome = await memory.add({ text: 'I live in Rome.', speaker: 'user', userId: 'u2', observedAt: '2025-07-01' });
    for (const id of [porto.id, unscoped.id]) {
      const n = await memory.get(id);
      expect([n?.status, n?.supersededBy]).toEqual(['active', []]);
    }
    const r = await memory.recall('Where do I live?', { scope: { userId: 'u1' } });
    expect(r.memories.map((m) => [m.id, m.status])).toEqual([[porto.id, 'active']]);
    // Within one scope the same pair is a move: the state-update decision still applies there.
    const lisbon = await memory.add({ text: 'I live in Lisbon now.', speaker: 'user', userId: 'u2', observedAt: '2025-09-01' });
    expect((await memory.get(rome.id))?.supersededBy).toEqual([lisbon.id]);
    await memory.close();
  });
});

describe('expiry (injected clock)', () => {
  it('hides a memory from get, list, recall and history once due, and maintain erases it', async () => {
    let t = Date.parse('2024-01-01T00:00:00Z');
    const storage = createMemoryStorage();
    const memory = await createMemory({ encoder, storage, now: () => new Date(t) });
    const keep = await memory.add({ text: 'Theo: My dog Biscuit chewed the old bike chain.' });
    const temp = await memory.add({ text: 'Theo: The bike shop code is 4417 this week.', expiresAt: '2024-01-08T00:00:00Z' });
    expect((await memory.get(temp.id))?.provenance.metadata).toEqual({ expiresAt: '2024-01-08T00:00:00.000Z' });
    expect((await memory.recall('What is the bike shop code?')).memories.map((m) => m.id)).toContain(temp.id);
    t = Date.parse('2024-01-08T00:00:00Z'); // due at exactly this instant
    expect(await memory.get(temp.id)).toBeUndefined();
    expect((await memory.list()).memories.map((m) => m.id)).toEqual([keep.id]);
    expect((await memory.recall('What is the bike shop code?')).memories.map((m) => m.id)).not.toContain(temp.id);
    await expect(memory.history(temp.id)).rejects.toMatchObject({ code: 'NOT_FOUND', details: { field: 'id' } });
    const m = await memory.maintain();
    expect(m.expired).toBe(1);
    expect((await memory.stats()).nodes).toBe(1);
    const exported = JSON.stringify(await memory.export());
    expect(exported).not.toContain('4417');
    await memory.close();
  });

  it('refuses an update whose new version would already be due, leaving the current version as it was', async () => {
    const t = Date.parse('2024-01-01T00:00:00Z');
    const memory = await createMemory({ encoder, now: () => new Date(t) });
    const a = await memory.add({ text: 'Theo: The gate code is 1111.' });
    const b = await memory.update(a.id, { text: 'Theo: The gate code is 2222.' });
    const e = (await errorOf(memory.update(b.id, { text: 'Theo: The gate code is 3333.', expiresAt: '2023-12-31T00:00:00Z' }))) as { code: string; details: { field: string } };
    expect([e.code, e.details.field]).toEqual(['INVALID_INPUT', 'observation.expiresAt']);
    expect((await memory.list()).memories.map((m) => [m.text, m.status])).toEqual([
      ['Theo: The gate code is 1111.', 'superseded'],
      ['Theo: The gate code is 2222.', 'active'],
    ]);
    await memory.close();
  });

  it('add and addMany refuse an expiresAt at or before the write time, as update does, writing nothing', async () => {
    const t = Date.parse('2024-01-01T00:00:00Z');
    const memory = await createMemory({ encoder, now: () => new Date(t) });
    const e1 = (await errorOf(memory.add({ text: 'Theo: The gate code is 1111.', expiresAt: '2024-01-01T00:00:00Z' }))) as { code: string; message: string; details: { field: string } };
    expect([e1.code, e1.details.field, e1.message]).toEqual([
      'INVALID_INPUT',
      'observation.expiresAt',
      'observation.expiresAt: is already due (2024-01-01T00:00:00.000Z): the memory would never be returned by any read; give a later expiresAt, or leave it out for a lasting memory',
    ]);
    const e2 = (await errorOf(memory.add({ text: 'Theo: The gate code is 1111.', metadata: { expiresAt: '2023-06-01' } }))) as { details: { field: string } };
    expect(e2.details.field).toBe('observation.expiresAt');
    const e3 = (await errorOf(memory.addMany([{ text: 'Theo: my bike is blue.' }, { text: 'Theo: The gate code is 1111.', expiresAt: '2020-01-01' }]))) as { code: string; details: { field: string } };
    expect([e3.code, e3.details.field]).toEqual(['INVALID_INPUT', 'observations[1].expiresAt']);
    expect((await memory.stats()).nodes).toBe(0);
    const ok = await memory.add({ text: 'Theo: The gate code is 1111.', expiresAt: '2024-01-01T00:00:00.001Z' });
    expect(ok.deduplicated).toBe(false);
    await memory.close();
  });

  it('export leaves out memories due but not yet erased, as get/list/recall do, so an import holds what it reports', async () => {
    let t = Date.parse('2024-01-01T00:00:00Z');
    const memory = await createMemory({ encoder, now: () => new Date(t) });
    await memory.add({ text: 'Theo: my bike is blue.' });
    const temp = await memory.add({ text: 'Theo: the locker code is 5150.', expiresAt: '2024-01-02T00:00:00Z' });
    const a = await memory.add({ text: 'My office is in Porto', observedAt: '2023-01-01' });
    const b = await memory.update(a.id, { text: 'My office is in Vienna', observedAt: '2023-06-01', expiresAt: '2024-01-02T00:00:00Z' });
    const c = await memory.update(b.id, { text: 'My office is in Rome', observedAt: '2023-12-01', expiresAt: '2099-01-01T00:00:00Z' });
    await memory.list(); // the namespace is open: what falls due now is hidden, not yet erased
    t = Date.parse('2024-01-02T00:00:00Z');
    const file = await memory.export();
    expect(JSON.stringify(file)).not.toMatch(/5150|Vienna/);
    expect(file.nodes.map((n) => n.text)).toEqual(['Theo: my bike is blue.', 'My office is in Porto', 'My office is in Rome']);
    expect(file.nodes.find((n) => n.id === a.id)?.supersededBy).toEqual([c.id]);
    expect(file.edges.some((e) => [e.from, e.to].includes(temp.id) || [e.from, e.to].includes(b.id))).toBe(false);
    const other = await createMemory({ encoder, now: () => new Date(t) });
    const r = await other.import(file);
    expect([r.nodes, (await other.stats()).nodes, (await other.list()).memories.length]).toEqual([3, 3, 3]);
    expect((await other.history(c.id)).map((v) => v.text)).toEqual(['My office is in Porto', 'My office is in Rome']);
    await other.close();
    await memory.close();
  });

  it('keeps the expiry across update, unless the update gives its own', async () => {
    let t = Date.parse('2026-01-01T00:00:00Z');
    const memory = await createMemory({ encoder, now: () => new Date(t) });
    const a = await memory.add({ text: 'The door code is 1111.', expiresAt: '2026-01-02T00:00:00Z', userId: 'u1' });
    const b = await memory.update(a.id, { text: 'The door code is 2222.' });
    expect((await memory.get(b.id))?.provenance.metadata).toEqual({ userId: 'u1', expiresAt: '2026-01-02T00:00:00.000Z' });
    const c = await memory.update(b.id, { text: 'The door code is 3333.', expiresAt: '2026-03-01T00:00:00Z' });
    expect((await memory.get(c.id))?.provenance.metadata).toEqual({ userId: 'u1', expiresAt: '2026-03-01T00:00:00.000Z' });
    t = Date.parse('2026-01-02T00:00:00Z');
    expect((await memory.list()).memories.map((m) => m.text)).toEqual(['The door code is 3333.']);
    expect((await memory.maintain()).expired).toBe(2);
    expect(JSON.stringify(await memory.export())).not.toMatch(/1111|2222/);
    await memory.close();
  });

  it('stats counts what list returns: memories due since the open are erased first', async () => {
    let t = Date.parse('2024-01-01T00:00:00Z');
    const memory = await createMemory({ encoder, now: () => new Date(t) });
    await memory.add({ text: 'Theo: the locker code is 5150.', expiresAt: '2024-01-02T00:00:00Z' });
    await memory.add({ text: 'Theo: the wifi code is 8080.', expiresAt: '2024-01-03T00:00:00Z' });
    await memory.add({ text: 'Theo: my bike is blue.' });
    expect((await memory.stats()).activeNodes).toBe(3);
    t = Date.parse('2024-01-02T12:00:00Z');
    const s = await memory.stats();
    expect([s.nodes, s.activeNodes]).toEqual([2, 2]);
    expect((await memory.list()).memories).toHaveLength(2);
    expect(JSON.stringify(await memory.export())).not.toContain('5150');
    expect((await memory.maintain()).expired).toBe(0);
    await memory.close();
  });

  it('refuses an expiry that cannot be read', async () => {
    const memory = await createMemory({ encoder });
    const e = (await errorOf(memory.add({ text: 'x', expiresAt: 'next week' }))) as { details: { field: string } };
    expect(e.details.field).toBe('observation.expiresAt');
    await memory.close();
  });
});

describe('reset', () => {
  it('erases one scope exactly, or the whole namespace', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS.slice(0, 4), { scope: { userId: 'a' } });
    await memory.addMany(TURNS.slice(4, 10), { scope: { userId: 'b' } });
    expect(await memory.reset({ scope: { userId: 'a' } })).toEqual({ deleted: 4 });
    const left = await memory.list();
    expect(left.memories.map((m) => m.provenance.metadata?.userId)).toEqual(['b', 'b', 'b', 'b', 'b', 'b']);
    const exported = JSON.stringify(await memory.export());
    for (const t of TURNS.slice(0, 4)) expect(exported).not.toContain(t.text);
    expect(await memory.reset()).toEqual({ deleted: 6 });
    expect((await memory.list()).memories).toEqual([]);
    expect(await memory.namespaces()).toEqual([]);
    expect(await memory.reset()).toEqual({ deleted: 0 });
    expect(await memory.reset({ scope: { userId: 'a' } })).toEqual({ deleted: 0 });
    const e = (await errorOf(memory.reset({ all: true } as never))) as { code: string };
    expect(e.code).toBe('INVALID_OPTION');
    await memory.close();
  });

  it('refuses a selection an unset variable emptied, erasing nothing (never "everything")', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS.slice(0, 3), { scope: { userId: 'a' } });
    await memory.addMany(TURNS.slice(3, 5), { scope: { userId: 'b' } });
    const cases: Array<[unknown, string]> = [
      [{ scope: { userId: undefined } }, 'options.scope.userId'],
      [{ scope: {} }, 'options.scope'],
      [{ filter: {} }, 'options.filter'],
      [{ filter: { userId: undefined } }, 'options.filter.userId'],
    ];
    for (const [options, field] of cases) {
      const err = (await errorOf(memory.reset(options as never))) as { code: string; details: { field: string } };
      expect([err.code, err.details.field]).toEqual(['INVALID_INPUT', field]);
    }
    // Reads refuse the undefined scope value too: it would show every user's memories.
    const r = (await errorOf(memory.recall('bike', { scope: { userId: undefined } }))) as { details: { field: string } };
    expect(r.details.field).toBe('options.scope.userId');
    // And an empty scope or filter, on every call that takes them (docs/api.md).
    const reads: Array<[Promise<unknown>, string]> = [
      [memory.recall('bike', { scope: {} }), 'options.scope'],
      [memory.recall('bike', { filter: {} }), 'options.filter'],
      [memory.list({ scope: {} }), 'options.scope'],
      [memory.list({ filter: {} }), 'options.filter'],
    ];
    for (const [call, field] of reads) {
      const err = (await errorOf(call)) as { code: string; details: { field: string } };
      expect([err.code, err.details.field]).toEqual(['INVALID_INPUT', field]);
    }
    expect((await memory.list()).memories).toHaveLength(5);
    await memory.close();
  });
});
