/**
 * Plan, then commit (issue 22): a write's and a maintenance pass's System-One calls run outside
 * the namespace lock, so a slow model stalls neither readers nor other writers of the namespace;
 * a change between the plan and the commit makes the write plan again, and the graph it commits
 * is the one a write made after that change plans.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import type { MemoryEdge } from '../../src/types.js';
import { holdingSystemOne, kindOf, lifecycleFixture, orStalled, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('plan-lock', (e) => (encoder = e));

/**
 * A memory with a fixed clock and counted ids (so two memories draw the same ids), no automatic
 * maintenance, and a write deadline far beyond the watchdog (a held request is never cut short
 * by the fallback).
 */
async function open(systemOne: SystemOneBackend, ids?: string[]): Promise<Memory> {
  let n = 0;
  const newId = ids === undefined ? () => `n${++n}` : () => ids[n++] as string;
  return createMemory({ encoder, systemOne, now: () => new Date('2024-01-01T00:00:00Z'), newId, parameters: { maintenanceInterval: 0, writeDeadlineMs: 600_000 } });
}

const edgeView = (edges: readonly MemoryEdge[]): string[] => edges.map((e) => `${e.from}>${e.to} ${e.view}/${e.subtype} ${e.weight.toFixed(4)}`).sort();

describe('System-One calls outside the namespace lock', () => {
  it('a recall, a write of another namespace and the plan of a later write complete while a write waits on its relation request', async () => {
    const s1 = holdingSystemOne();
    const memory = await open(s1.backend);
    for (const t of TURNS.slice(0, 3)) await memory.add(t);
    const held = s1.hold('relation');
    const slow = memory.add(TURNS[3]!);
    await held.entered;
    // The held write has not committed: a recall sees the three turns, and returns.
    const recalled = await orStalled(memory.recall('What did Theo replace on his bike?'));
    expect(recalled).not.toBe('stalled');
    if (recalled === 'stalled') return;
    expect(recalled.memories.map((m) => m.text)).not.toContain(TURNS[3]!.text);
    expect(recalled.memories.map((m) => m.text)).toContain(TURNS[1]!.text);
    // A later write of the same namespace plans now (its relation request is asked while the
    // held one waits), but commits after it: calls apply in issue order (memory/issue-order.ts).
    const relations = s1.seen.filter((r) => kindOf(r) === 'relation').length;
    let laterSettled = false;
    const later = memory.add(TURNS[4]!).finally(() => (laterSettled = true));
    // A write of another namespace is not ordered after it, and commits.
    const other = await orStalled(memory.add(TURNS[5]!, { namespace: 'other' }));
    expect(other).not.toBe('stalled');
    for (let i = 0; i < 400 && s1.seen.filter((r) => kindOf(r) === 'relation').length === relations; i++) await new Promise((r) => setTimeout(r, 5));
    expect(s1.seen.filter((r) => kindOf(r) === 'relation').length).toBe(relations + 1);
    expect(laterSettled).toBe(false);
    expect((await memory.stats()).nodes).toBe(3);
    held.release();
    const r = await slow;
    expect(r.deduplicated).toBe(false);
    await later;
    expect((await memory.stats()).nodes).toBe(5);
    await memory.close();
  });

  it('a write planned before an earlier-issued write committed plans again and commits what a write after it gives', async () => {
    const s1 = holdingSystemOne();
    const concurrent = await open(s1.backend);
    for (const t of TURNS.slice(0, 3)) await concurrent.add(t);
    const held = s1.hold('relation');
    const slow = concurrent.add(TURNS[3]!);
    await held.entered;
    const relationsBefore = s1.seen.filter((r) => kindOf(r) === 'relation').length;
    const laterWrite = concurrent.add(TURNS[4]!); // plans now, without the held write's node
    for (let i = 0; i < 400 && s1.seen.filter((r) => kindOf(r) === 'relation').length === relationsBefore; i++) await new Promise((r) => setTimeout(r, 5));
    expect(JSON.stringify(s1.seen.filter((r) => kindOf(r) === 'relation').at(-1)!.state)).not.toContain(TURNS[3]!.text);
    held.release();
    const first = await slow;
    const late = await laterWrite;
    // Its first plan did not know TURNS[3] (the previous turn at its commit): it planned again, once.
    expect((await concurrent.stats()).replans).toBe(1);
    expect(s1.seen.filter((r) => kindOf(r) === 'relation').length).toBe(relationsBefore + 2);
    const replanned = s1.seen.filter((r) => kindOf(r) === 'relation').at(-1)!;
    expect(JSON.stringify(replanned.state)).toContain(TURNS[3]!.text);

    // Ids are drawn as writes plan: the held write drew n4, the later one n5.
    expect(first.id).toBe('n4');
    expect(late.id).toBe('n5');
    // The same writes made one after another, in issue order, by a memory given the same ids.
    const s2 = holdingSystemOne();
    const sequential = await open(s2.backend);
    for (const t of TURNS.slice(0, 5)) await sequential.add(t);
    for (const id of ['n1', 'n2', 'n3', 'n4', 'n5']) {
      expect(edgeView(await concurrent.edges(id))).toEqual(edgeView(await sequential.edges(id)));
      const a = await concurrent.get(id);
      const b = await sequential.get(id);
      expect({ ...a, embedding: undefined }).toEqual({ ...b, embedding: undefined });
    }
    expect(late.systemOne.calls).toBe(2); // typing + the relation request that committed: the discarded plan is not counted
    await concurrent.close();
    await sequential.close();
  });

  it('an update whose node an earlier-issued delete erases while it plans fails NOT_FOUND at its commit, writing nothing', async () => {
    const s1 = holdingSystemOne();
    const memory = await open(s1.backend);
    for (const t of TURNS.slice(0, 3)) await memory.add(t);
    const held = s1.hold('relation');
    const slow = memory.add(TURNS[3]!); // holds the issue order: the delete waits behind it
    await held.entered;
    const deleting = memory.delete('n2');
    const updating = memory.update('n2', { text: 'Theo: I replaced the whole bike, not just the chain.', speaker: 'Theo' });
    held.release();
    expect((await slow).id).toBe('n4');
    expect(await deleting).toBe(true);
    const err = await updating.then(
      () => undefined,
      (e: unknown) => e as { code?: string; details?: { field?: string } },
    );
    expect(err?.code).toBe('NOT_FOUND');
    expect(err?.details?.field).toBe('id');
    const stats = await memory.stats();
    expect(stats.nodes).toBe(3);
    expect(await memory.get('n5')).toBeUndefined();
    await memory.close();
  });

  it('a write whose plan nothing changed commits it without asking again', async () => {
    const s1 = holdingSystemOne();
    const memory = await open(s1.backend);
    for (const t of TURNS.slice(0, 5)) await memory.add(t);
    // One typing and one relation request per write (the first write has no candidates).
    expect(s1.seen.filter((r) => kindOf(r) === 'relation')).toHaveLength(4);
    expect(s1.seen.filter((r) => kindOf(r) === 'typing')).toHaveLength(5);
    expect((await memory.stats()).replans).toBe(0);
    await memory.close();
  });

  it('a write completes while maintenance waits on its System-One request; the pass then plans again over the new node', async () => {
    const s1 = holdingSystemOne();
    const memory = await open(s1.backend);
    for (const t of TURNS.slice(0, 6)) await memory.add(t);
    const held = s1.hold('maintenance');
    const pass = memory.maintain();
    await held.entered;
    const added = await orStalled(memory.add(TURNS[6]!));
    expect(added).not.toBe('stalled');
    const recalled = await orStalled(memory.recall('Where is Maya travelling?'));
    expect(recalled).not.toBe('stalled');
    held.release();
    await pass;
    // The pending list grew under the plan: the pass planned again, and covered the new node too.
    expect((await memory.stats()).replans).toBe(1);
    const lastMaintenance = s1.seen.filter((r) => kindOf(r) === 'maintenance').at(-1)!;
    expect(JSON.stringify(s1.seen.filter((r) => kindOf(r) === 'maintenance').map((r) => r.state))).toContain(TURNS[6]!.text);
    expect(lastMaintenance).toBeDefined();
    // The pass committed: nothing is pending, so a second pass asks nothing.
    const asked = s1.seen.length;
    expect(await memory.maintain()).toEqual({ redundant: 0, contradiction: 0, obsolete: 0, link: 0, expired: 0 });
    expect(s1.seen.length).toBe(asked);
    await memory.close();
  });
});
