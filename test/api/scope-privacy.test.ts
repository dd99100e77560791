/**
 * Scope privacy of the id-addressed calls and of export (a `scope` option is honoured, never
 * dropped), and the option-key check of every public method: an option a method does not take is
 * `INVALID_OPTION` naming it.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { errorOf, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-scope-privacy', (e) => (encoder = e));

/** A memory holding one memory of alice and one of bob (bob's linked to nothing of alice's). */
async function twoUsers(): Promise<{ memory: Memory; alice: string; bob: string }> {
  const memory = await createMemory({ encoder });
  const { id: alice } = await memory.add({ text: 'My passport number is X1234567.', userId: 'alice', observedAt: '2024-01-02T10:00:00Z' });
  const { id: bob } = await memory.add({ text: 'My bank PIN is 4321.', userId: 'bob', agentId: 'helper', observedAt: '2024-01-03T10:00:00Z' });
  return { memory, alice, bob };
}

const fieldOf = async (p: Promise<unknown>): Promise<[string, string]> => {
  const e = (await errorOf(p)) as { code: string; field: string };
  return [e.code, e.field];
};

describe('scope on the id-addressed calls', () => {
  it('get, delete, history and update of another scope act as for an unknown id, and change nothing', async () => {
    const { memory, bob } = await twoUsers();
    const asAlice = { scope: { userId: 'alice' } };
    expect(await memory.get(bob, asAlice)).toBeUndefined();
    expect(await memory.delete(bob, asAlice)).toBe(false);
    expect(await fieldOf(memory.history(bob, asAlice))).toEqual(['NOT_FOUND', 'id']);
    expect(await fieldOf(memory.update(bob, { text: 'My bank PIN is 0000.' }, asAlice))).toEqual(['NOT_FOUND', 'id']);
    // The same answers as an id that does not exist: nothing tells bob's memory exists.
    expect(await fieldOf(memory.history('nope', asAlice))).toEqual(['NOT_FOUND', 'id']);
    expect(await memory.delete('nope', asAlice)).toBe(false);
    // Bob's memory is untouched.
    expect((await memory.get(bob))?.text).toBe('My bank PIN is 4321.');
    expect((await memory.list()).memories.map((m) => m.text)).toEqual(['My passport number is X1234567.', 'My bank PIN is 4321.']);
    await memory.close();
  });

  it('acts on a memory of the scope (agentId too), and keeps an update inside it', async () => {
    const { memory, alice, bob } = await twoUsers();
    expect((await memory.get(bob, { scope: { userId: 'bob', agentId: 'helper' } }))?.text).toBe('My bank PIN is 4321.');
    expect(await memory.get(bob, { scope: { userId: 'bob', agentId: 'other' } })).toBeUndefined();
    const next = await memory.update(alice, { text: 'My passport number is Y7654321.' }, { scope: { userId: 'alice' } });
    expect((await memory.get(next.id))?.provenance.metadata).toEqual({ userId: 'alice' });
    expect((await memory.history(next.id, { scope: { userId: 'alice' } })).map((m) => m.text)).toEqual(['My passport number is X1234567.', 'My passport number is Y7654321.']);
    // An update may not move the memory out of the scope it was found in.
    expect(await fieldOf(memory.update(next.id, { text: 'x', userId: 'bob' }, { scope: { userId: 'alice' } }))).toEqual(['INVALID_INPUT', 'observation.userId']);
    expect(await fieldOf(memory.update(next.id, { text: 'x', metadata: { userId: 'bob' } }, { scope: { userId: 'alice' } }))).toEqual(['INVALID_INPUT', 'observation.userId']);
    expect(await memory.delete(bob, { scope: { userId: 'bob' } })).toBe(true);
    expect(await memory.get(bob)).toBeUndefined();
    await memory.close();
  });

  it('refuses a scope given but empty or with an unset field, as list and recall do', async () => {
    const { memory, bob } = await twoUsers();
    expect(await fieldOf(memory.delete(bob, { scope: {} }))).toEqual(['INVALID_INPUT', 'options.scope']);
    expect(await fieldOf(memory.get(bob, { scope: { userId: undefined } }))).toEqual(['INVALID_INPUT', 'options.scope.userId']);
    expect(await memory.get(bob)).toBeDefined();
    await memory.close();
  });
});

describe('export with a scope or filter', () => {
  it('exports only the selected memories and the edges between them; the file imports', async () => {
    const { memory, alice } = await twoUsers();
    const { id: alice2 } = await memory.add({ text: 'My passport expires in 2030.', userId: 'alice', observedAt: '2024-01-02T10:05:00Z' });
    const whole = await memory.export();
    expect(whole.nodes.length).toBe(3);
    const mine = await memory.export({ scope: { userId: 'alice' } });
    expect(mine.nodes.map((n) => n.id)).toEqual([alice, alice2]);
    const kept = new Set([alice, alice2]);
    expect(mine.edges.every((e) => kept.has(e.from) && kept.has(e.to))).toBe(true);
    expect(mine.edges.length).toBe(whole.edges.filter((e) => kept.has(e.from) && kept.has(e.to)).length);
    expect(JSON.stringify(mine)).not.toContain('bank PIN');
    const filtered = await memory.export({ filter: { observedAt: { $gte: '2024-01-03' } } });
    expect(filtered.nodes.map((n) => n.text)).toEqual(['My bank PIN is 4321.']);
    const target = await createMemory({ encoder });
    expect(await target.import(mine, { namespace: 'alice' })).toEqual({ nodes: 2, edges: mine.edges.length, namespace: 'alice' });
    expect((await target.list({ namespace: 'alice' })).memories.map((m) => m.id)).toEqual([alice, alice2]);
    expect(await fieldOf(memory.export({ scope: {} }))).toEqual(['INVALID_INPUT', 'options.scope']);
    await target.close();
    await memory.close();
  });
});

describe('option keys', () => {
  it('every method refuses an option it does not take, naming it, before acting', async () => {
    const { memory, bob } = await twoUsers();
    const bad = { scpoe: { userId: 'alice' } } as never;
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['add', () => memory.add({ text: 'x' }, bad)],
      ['addMany', () => memory.addMany([{ text: 'x' }], bad)],
      ['recall', () => memory.recall('PIN', bad)],
      ['answer', () => memory.answer('PIN', bad)],
      ['list', () => memory.list(bad)],
      ['history', () => memory.history(bob, bad)],
      ['get', () => memory.get(bob, bad)],
      ['edges', () => memory.edges(bob, bad)],
      ['update', () => memory.update(bob, { text: 'x' }, bad)],
      ['delete', () => memory.delete(bob, bad)],
      ['reset', () => memory.reset(bad)],
      ['maintain', () => memory.maintain(bad)],
      ['export', () => memory.export(bad)],
      ['import', () => memory.import({}, bad)],
      ['stats', () => memory.stats(bad)],
    ];
    for (const [name, call] of calls) expect([name, ...(await fieldOf(call()))]).toEqual([name, 'INVALID_OPTION', 'options.scpoe']);
    // `maintain` and `stats` take no scope: refused, not ignored.
    expect(await fieldOf(memory.stats({ scope: { userId: 'alice' } } as never))).toEqual(['INVALID_OPTION', 'options.scope']);
    expect(await fieldOf(memory.delete(bob, 'alice' as never))).toEqual(['INVALID_OPTION', 'options']);
    expect((await memory.get(bob))?.text).toBe('My bank PIN is 4321.');
    expect((await memory.stats()).nodes).toBe(2);
    await memory.close();
  });
});
