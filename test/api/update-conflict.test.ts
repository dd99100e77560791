/**
 * `update()` of a version that an earlier update already replaced used to start a second branch
 * of the version chain (the old node then listed two newer versions, both current). It is
 * refused with CONFLICT naming the current version (`details.activeId`), for a direct and a
 * chained case, also when two updates of one version race; the current version is updated as
 * before, and a version that becomes current again (its replacement deleted) can be updated.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isJevMemError, type JevMemError } from '../../src/errors.js';
import type { Memory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

let memory: Memory;
beforeEach(async () => {
  memory = await createNodeMemory({ systemOne: createHeuristicSystemOne() });
});
afterEach(async () => {
  await memory.close();
});

async function conflictOf(p: Promise<unknown>): Promise<JevMemError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  if (!isJevMemError(e, 'CONFLICT')) throw new Error(`expected CONFLICT, got ${String(e)}`);
  return e;
}

describe('update of a replaced version', () => {
  it('direct: A updated to B, then A again is CONFLICT naming B; nothing is written', async () => {
    const a = (await memory.add({ text: 'My dog Biscuit is two.', speaker: 'user' })).id;
    const b = (await memory.update(a, { text: 'My dog Biscuit is three.' })).id;
    const before = await memory.stats();
    const e = await conflictOf(memory.update(a, { text: 'My dog Biscuit is four.' }));
    expect(e.field).toBe('id');
    expect(e.details.activeId).toBe(b);
    expect(e.message).toBe(`node "${a}" in namespace "default" was already replaced by a newer version; update "${b}", its current version, instead`);
    expect((await memory.stats()).nodes).toBe(before.nodes);
    expect((await memory.get(a))?.supersededBy).toEqual([b]);
    expect((await memory.history(a)).map((v) => [v.id, v.status])).toEqual([
      [a, 'superseded'],
      [b, 'active'],
    ]);
  });

  it('chained: A → B → C; updating A or B names C; updating C works; after C is deleted, B is current again', async () => {
    const a = (await memory.add({ text: 'I live in Porto.', speaker: 'user' })).id;
    const b = (await memory.update(a, { text: 'I live in Lisbon.' })).id;
    const c = (await memory.update(b, { text: 'I live in Braga.' })).id;
    expect((await conflictOf(memory.update(a, { text: 'I live in Faro.' }))).details.activeId).toBe(c);
    expect((await conflictOf(memory.update(b, { text: 'I live in Faro.' }))).details.activeId).toBe(c);
    const d = (await memory.update(c, { text: 'I live in Faro.' })).id;
    expect((await memory.history(a)).map((v) => v.id)).toEqual([a, b, c, d]);
    expect((await memory.get(b))?.supersededBy).toEqual([c]);

    expect(await memory.delete(d)).toBe(true);
    expect(await memory.delete(c)).toBe(true); // B becomes active again (only C replaced it)
    expect((await conflictOf(memory.update(a, { text: 'I live in Évora.' }))).details.activeId).toBe(b);
    const e = (await memory.update(b, { text: 'I live in Évora.' })).id;
    expect((await memory.history(a)).map((v) => v.id)).toEqual([a, b, e]);
  });

  it('two updates of one version at once: one is written, the other is CONFLICT naming it', async () => {
    const a = (await memory.add({ text: 'My favourite tea is green tea.', speaker: 'user' })).id;
    const results = await Promise.allSettled([memory.update(a, { text: 'My favourite tea is oolong.' }), memory.update(a, { text: 'My favourite tea is rooibos.' })]);
    const ok = results.filter((r): r is PromiseFulfilledResult<{ id: string }> => r.status === 'fulfilled');
    const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(1);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.reason).toMatchObject({ code: 'CONFLICT', field: 'id', details: expect.objectContaining({ activeId: ok[0]?.value.id }) });
    expect((await memory.get(a))?.supersededBy).toEqual([ok[0]?.value.id]);
  });
});
