/**
 * Issue 22, "data you can trust": a version chain keeps its word when a version leaves it.
 * Deleting (or expiring, then erasing) a middle version of an explicit `update` chain relinks the
 * chain (a → b → c without b is a → c): the oldest stays superseded, `history` shows what is
 * left oldest first, and `update` of the oldest is still a CONFLICT naming the current version.
 * Deleting the newest makes the previous current again; deleting the oldest changes no other
 * version. A chain System One decided (state-update edges) relinks the same way. The CONFLICT's
 * `activeId` is the end of the chain however long it is.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError, type JevMemError } from '../../src/errors.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { planRelink, RELINK_RULE } from '../../src/memory/relink.js';
import type { MemoryEdge, MemoryNode } from '../../src/types.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('version-chain', (e) => (encoder = e));

let t = Date.parse('2025-01-01T00:00:00Z');
const now = (): Date => new Date(t);
let memory: Memory;
beforeEach(async () => {
  t = Date.parse('2025-01-01T00:00:00Z');
  memory = await createMemory({ encoder, systemOne: createHeuristicSystemOne(), now, parameters: { maintenanceInterval: 0 } });
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

/** Porto → Vienna → Rome by explicit updates; `viennaExpires` gives Vienna (only) an expiry. */
async function chain(m: Memory, viennaExpires?: string): Promise<[string, string, string]> {
  const a = (await m.add({ text: 'My office is in Porto', observedAt: '2024-01-01' })).id;
  const b = (await m.update(a, { text: 'My office is in Vienna', observedAt: '2024-06-01', ...(viennaExpires !== undefined ? { expiresAt: viennaExpires } : {}) })).id;
  const c = (await m.update(b, { text: 'My office is in Rome', observedAt: '2024-12-01', ...(viennaExpires !== undefined ? { expiresAt: '2099-01-01' } : {}) })).id;
  return [a, b, c];
}

/** What list() shows: text and status, in insertion order. */
async function listed(m: Memory): Promise<Array<[string, string]>> {
  return (await m.list()).memories.map((x) => [x.text, x.status]);
}

/** The chain after Vienna left it: Porto superseded by Rome, linked by an explicit update, history [Porto, Rome], update(Porto) a CONFLICT naming Rome. */
async function expectRelinked(m: Memory, a: string, c: string): Promise<void> {
  expect(await listed(m)).toEqual([
    ['My office is in Porto', 'superseded'],
    ['My office is in Rome', 'active'],
  ]);
  expect((await m.get(a))?.supersededBy).toEqual([c]);
  expect((await m.edges(a)).filter((e) => e.subtype === 'updates').map((e) => [e.from, e.to, e.weight, e.origin])).toEqual([[c, a, 1, { kind: 'rule', by: 'explicit-update' }]]);
  expect((await m.history(c)).map((v) => v.text)).toEqual(['My office is in Porto', 'My office is in Rome']);
  expect((await m.history(a)).map((v) => v.text)).toEqual(['My office is in Porto', 'My office is in Rome']);
  const e = await conflictOf(m.update(a, { text: 'My office is in Bern' }));
  expect(e.details.activeId).toBe(c);
  const r = await m.recall('Where is my office?', { k: 5 });
  expect(r.memories.find((x) => x.id === a)?.status).toBe('superseded');
}

describe('a version leaves an explicit update chain', () => {
  it('delete a middle version: the chain is relinked (a → c), a stays superseded, history(c) = [Porto, Rome], update(a) names c', async () => {
    const [a, b, c] = await chain(memory);
    expect(await memory.delete(b)).toBe(true);
    await expectRelinked(memory, a, c);
    expect((await memory.stats()).nodes).toBe(2);
  });

  it('delete two middle versions, one after the other: a → b → c → d is a → d', async () => {
    const [a, b, c] = await chain(memory);
    const d = (await memory.update(c, { text: 'My office is in Oslo', observedAt: '2025-01-01' })).id;
    await memory.delete(b);
    await memory.delete(c);
    expect((await memory.get(a))?.supersededBy).toEqual([d]);
    expect((await memory.history(d)).map((v) => v.text)).toEqual(['My office is in Porto', 'My office is in Oslo']);
    expect((await conflictOf(memory.update(a, { text: 'x' }))).details.activeId).toBe(d);
  });

  it('delete the newest: the previous is current again; delete the oldest: the others are unchanged', async () => {
    const [a, b, c] = await chain(memory);
    await memory.delete(c);
    expect(await listed(memory)).toEqual([
      ['My office is in Porto', 'superseded'],
      ['My office is in Vienna', 'active'],
    ]);
    expect((await memory.get(b))?.supersededBy).toEqual([]);
    expect((await conflictOf(memory.update(a, { text: 'x' }))).details.activeId).toBe(b);
    await memory.delete(a);
    expect(await listed(memory)).toEqual([['My office is in Vienna', 'active']]);
    expect((await memory.history(b)).map((v) => v.text)).toEqual(['My office is in Vienna']);
    expect((await memory.edges(b)).filter((e) => e.subtype === 'updates')).toEqual([]);
  });

  it('a middle version that expires is hidden at once and erased by maintain(): the same relinked chain, no trace of its text', async () => {
    const [a, b, c] = await chain(memory, '2025-02-01T00:00:00Z');
    t = Date.parse('2025-02-01T00:00:00Z');
    expect((await memory.history(c)).map((v) => v.text)).toEqual(['My office is in Porto', 'My office is in Rome']); // hidden, not erased yet
    expect((await memory.maintain()).expired).toBe(1);
    expect(await memory.get(b)).toBeUndefined();
    await expectRelinked(memory, a, c);
    expect(JSON.stringify(await memory.export())).not.toContain('Vienna');
  });

  it('a middle version due while the store was closed is erased at reopen, with the chain relinked', async () => {
    const dir = tempDir();
    const first = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), systemOne: createHeuristicSystemOne(), now, parameters: { maintenanceInterval: 0 } });
    const [a, , c] = await chain(first, '2025-02-01T00:00:00Z');
    await first.close();
    t = Date.parse('2025-03-01T00:00:00Z');
    const second = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), systemOne: createHeuristicSystemOne(), now, parameters: { maintenanceInterval: 0 } });
    try {
      await expectRelinked(second, a, c);
      expect((await second.stats()).nodes).toBe(2);
    } finally {
      await second.close();
    }
  });
});

describe('a version leaves a chain System One decided', () => {
  it('Lisbon → Porto → Braga by state updates: deleting Porto leaves Lisbon superseded by Braga, linked by a relinked edge', async () => {
    const lisbon = (await memory.add({ text: 'Maya: I live in Lisbon, in a flat near the river.', observedAt: '2023-03-01T10:00:00Z', speaker: 'Maya' })).id;
    const porto = (await memory.add({ text: 'Maya: big news, I moved to Porto last month!', observedAt: '2024-03-02T10:00:00Z', speaker: 'Maya' })).id;
    const braga = (await memory.add({ text: 'Maya: big news, I moved to Braga last month!', observedAt: '2025-03-02T10:00:00Z', speaker: 'Maya' })).id;
    expect((await memory.get(lisbon))?.supersededBy).toEqual([porto]);
    expect((await memory.get(porto))?.supersededBy).toEqual([braga]);
    const weights = (await memory.edges(porto)).filter((e) => e.subtype === 'updates').map((e) => e.weight);
    await memory.delete(porto);
    expect((await memory.get(lisbon))?.status).toBe('superseded');
    expect((await memory.get(lisbon))?.supersededBy).toEqual([braga]);
    const relinked = (await memory.edges(lisbon)).filter((e) => e.subtype === 'updates');
    expect(relinked.map((e) => [e.from, e.to, e.weight, e.origin])).toEqual([[braga, lisbon, Math.min(...weights), { kind: 'rule', by: RELINK_RULE }]]);
    expect((await memory.history(braga)).map((v) => v.id)).toEqual([braga]); // not an explicit version chain
  });
});

describe('CONFLICT activeId on a long chain', () => {
  it('105 updates: updating the first version names the last one, itself current', async () => {
    const ids = [(await memory.add({ text: 'The gate code is 0.' })).id];
    for (let i = 1; i <= 105; i++) ids.push((await memory.update(ids[i - 1] as string, { text: `The gate code is ${i}.` })).id);
    const last = ids[105] as string;
    expect((await conflictOf(memory.update(ids[0] as string, { text: 'x' }))).details.activeId).toBe(last);
    expect((await memory.get(last))?.status).toBe('active');
    expect((await memory.update(last, { text: 'The gate code is 106.' })).deduplicated).toBe(false);
  }, 120_000);
});

describe('planRelink (pure)', () => {
  const node = (id: string, supersededBy: string[]): MemoryNode => ({ id, supersededBy, status: supersededBy.length > 0 ? 'superseded' : 'active' }) as unknown as MemoryNode;
  const edge = (from: string, to: string, by: string, weight = 1): MemoryEdge =>
    ({ id: `${from}>${to}:semantic:updates`, from, to, view: 'semantic', subtype: 'updates', weight, origin: { kind: by === 'explicit-update' || by === RELINK_RULE ? 'rule' : 'system-one', by } }) as MemoryEdge;
  const base = { removedId: 'b', exists: (x: string) => x !== 'b', namespace: 'ns', nowIso: '2025-01-01T00:00:00.000Z' };

  it('puts the successors in the removed id\'s place, keeps other superseders, and never links a node to itself', () => {
    const plan = planRelink({
      ...base,
      removed: node('b', ['c', 'a']),
      removedEdges: [edge('b', 'a', 'explicit-update'), edge('c', 'b', 'explicit-update'), edge('a', 'b', 'm', 0.9)],
      predecessors: [node('a', ['x', 'b', 'c'])],
      storedEdge: () => undefined,
    });
    expect(plan.nodes.map((n) => [n.id, n.status, n.supersededBy])).toEqual([['a', 'superseded', ['x', 'c']]]);
    expect(plan.edges.map((e) => [e.from, e.to, e.origin.by, e.weight])).toEqual([['c', 'a', 'explicit-update', 1]]);
  });

  it('an explicit relink replaces a stored System-One edge between the two; a relinked one keeps it', () => {
    const args = { ...base, removed: node('b', ['c']), predecessors: [node('a', ['b'])], storedEdge: (id: string) => (id === 'c>a:semantic:updates' ? edge('c', 'a', 'model', 0.9) : undefined) };
    expect(planRelink({ ...args, removedEdges: [edge('b', 'a', 'explicit-update'), edge('c', 'b', 'explicit-update')] }).edges.map((e) => e.origin.by)).toEqual(['explicit-update']);
    expect(planRelink({ ...args, removedEdges: [edge('b', 'a', 'model', 0.95), edge('c', 'b', 'explicit-update')] }).edges).toEqual([]);
  });

  it('a removed node of unknown body (a damaged record) only releases its predecessors', () => {
    const plan = planRelink({ ...base, removed: undefined, removedEdges: [], predecessors: [node('a', ['b'])], storedEdge: () => undefined });
    expect(plan.nodes.map((n) => [n.status, n.supersededBy])).toEqual([['active', []]]);
    expect(plan.edges).toEqual([]);
  });
});
