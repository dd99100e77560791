/**
 * `Memory.deleteVersions(id)` (h-break15 finding 2): erases a memory and every version of it
 * across `update`, from any version's id, in one commit; `delete(id)` keeps removing one node
 * (the previous version current again). Scope and unknown ids are answered as `delete` answers
 * them (nothing erased). What stays is intact, and stays so after a reopen.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';
import { forwardPort, lifecycleFixture, TURNS } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('delete-versions', (e) => (encoder = e));

const at = (d: number): string => `2025-0${d}-01T09:00:00Z`;

/** TURNS, then a chain Porto → Vienna → Rome of user u1; returns the chain's ids, oldest first. */
async function chain(memory: Memory): Promise<string[]> {
  await memory.addMany(TURNS);
  const a = (await memory.add({ text: 'Ana lives in Porto.', observedAt: at(1), source: 't', metadata: { userId: 'u1' } })).id;
  const b = (await memory.update(a, { text: 'Ana lives in Vienna.', observedAt: at(2), source: 't' })).id;
  const c = (await memory.update(b, { text: 'Ana lives in Rome.', observedAt: at(3), source: 't' })).id;
  return [a, b, c];
}

describe('deleteVersions', () => {
  it('erases every version from a middle version\'s id, in one commit, and leaves no edge to them', async () => {
    const dir = tempDir();
    const inner = await createSqliteFileStorage({ dir });
    const committed: string[][] = [];
    const storage = forwardPort(inner, { commit: (ns: string, b: WriteBatch) => (committed.push(b.deleteNodeIds ?? []), inner.commit(ns, b)) });
    const memory = await createMemory({ encoder, storage });
    const ids = await chain(memory);
    const before = await memory.stats();
    committed.length = 0;
    expect(await memory.deleteVersions(ids[1]!)).toEqual(ids);
    for (const id of ids) expect(await memory.get(id)).toBeUndefined();
    const after = await memory.stats();
    expect(after.nodes).toBe(before.nodes - 3);
    // No memory left points at an erased one, by edge or by supersededBy.
    const left = (await memory.list({ limit: 1000 })).memories;
    expect(left).toHaveLength(TURNS.length);
    for (const m of left) {
      expect(m.supersededBy.some((x) => ids.includes(x))).toBe(false);
      for (const e of await memory.edges(m.id)) expect(ids.includes(e.from) || ids.includes(e.to)).toBe(false);
    }
    // One commit deleted the three (a delete per version would be three commits).
    expect(committed.filter((d) => d.length > 0)).toEqual([ids]);
    await memory.close();
    const again = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }) });
    for (const id of ids) expect(await again.get(id)).toBeUndefined();
    expect((await again.list({ limit: 1000 })).memories).toHaveLength(TURNS.length);
    await again.close();
  });

  it('answers an unknown id or another scope\'s memory with [] and erases nothing; delete still removes one node', async () => {
    const memory = await createMemory({ encoder });
    const ids = await chain(memory);
    expect(await memory.deleteVersions('no-such-id')).toEqual([]);
    expect(await memory.deleteVersions(ids[2]!, { scope: { userId: 'u2' } })).toEqual([]);
    expect((await memory.history(ids[2]!)).map((v) => v.id)).toEqual(ids);
    // delete keeps its documented rule: the newest removed, the previous version is current again.
    expect(await memory.delete(ids[2]!)).toBe(true);
    expect((await memory.get(ids[1]!))?.status).toBe('active');
    expect(await memory.deleteVersions(ids[0]!, { scope: { userId: 'u1' } })).toEqual(ids.slice(0, 2));
    // A memory with no other version is erased alone.
    const solo = (await memory.list({ limit: 1 })).memories[0]!.id;
    expect(await memory.deleteVersions(solo)).toEqual([solo]);
    expect((await memory.list({ limit: 1000 })).memories).toHaveLength(TURNS.length - 1);
    await memory.close();
  });
});
