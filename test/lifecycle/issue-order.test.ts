/**
 * Issue order (issue 22, hostile review): calls on one namespace made without awaiting each
 * other apply in the order they were made, as a database applies them: last write wins in issue
 * order, a get after them sees the final state. Each call's System-One plan still runs at once,
 * outside the lock; only its commit waits for the calls before it.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import type { MemoryEdge } from '../../src/types.js';
import { holdingSystemOne, lifecycleFixture, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('issue-order', (e) => (encoder = e));

/** A memory with a fixed clock and counted ids `n1, n2, …`, no automatic maintenance. */
async function open(systemOne: SystemOneBackend): Promise<Memory> {
  let n = 0;
  return createMemory({ encoder, systemOne, now: () => new Date('2024-01-01T00:00:00Z'), newId: () => `n${++n}`, parameters: { maintenanceInterval: 0, writeDeadlineMs: 600_000 } });
}

const edgeView = (edges: readonly MemoryEdge[]): string[] => edges.map((e) => `${e.from}>${e.to} ${e.view}/${e.subtype}`).sort();

/** The outcome of a settled call: its value, or its error code. */
function outcome(r: PromiseSettledResult<unknown>): unknown {
  return r.status === 'fulfilled' ? r.value : { code: (r.reason as { code?: string }).code, activeId: (r.reason as { details?: { activeId?: string } }).details?.activeId };
}

describe('calls on one memory apply in issue order', () => {
  it('update, update, delete of one id issued at once: the first update, then CONFLICT, then the delete', async () => {
    const s1 = holdingSystemOne();
    const memory = await open(s1.backend);
    for (const t of TURNS.slice(0, 3)) await memory.add(t);
    // The first update's relation request is slow: the later calls must not overtake it.
    const held = s1.hold('relation');
    const calls = [memory.update('n2', { text: 'Theo: I replaced the chain and the brakes.' }), memory.update('n2', { text: 'Theo: I sold the bike.' }), memory.delete('n2')];
    await held.entered;
    held.release();
    const [a, b, d] = (await Promise.allSettled(calls)).map(outcome);
    // In issue order: the first update makes version n4; the second updates n2, which n4
    // replaced: CONFLICT naming n4 (api.ts `update`); the delete then erases n2 (the oldest
    // version: n4 stays, active).
    expect((a as { id: string }).id).toBe('n4');
    expect(b).toEqual({ code: 'CONFLICT', activeId: 'n4' });
    expect(d).toBe(true);
    expect(await memory.get('n2')).toBeUndefined();
    const n4 = await memory.get('n4');
    expect(n4?.text).toBe('Theo: I replaced the chain and the brakes.');
    expect(n4?.status).toBe('active');
    expect((await memory.list()).memories.map((n) => n.text)).not.toContain('Theo: I sold the bike.');
    await memory.close();
  });

  it('add, delete, add mixed over two namespaces: each namespace in its issue order, the other not held up', async () => {
    const s1 = holdingSystemOne();
    const memory = await open(s1.backend);
    for (const t of TURNS.slice(0, 3)) await memory.add(t); // n1..n3 in the default namespace
    const held = s1.hold('relation');
    const first = memory.add(TURNS[3]!); // held: draws n4
    await held.entered;
    const gone = memory.delete('n3');
    const second = memory.add(TURNS[4]!);
    // Another namespace's write does not wait for the held one.
    const elsewhere = await memory.add(TURNS[5]!, { namespace: 'b' });
    const elsewhereGone = await memory.delete(elsewhere.id, { namespace: 'b' });
    expect(elsewhereGone).toBe(true);
    held.release();
    expect((await first).id).toBe('n4');
    expect(await gone).toBe(true);
    const last = await second;
    // The graph is the one of the same calls made one after another.
    const sequential = await open(holdingSystemOne().backend);
    for (const t of TURNS.slice(0, 4)) await sequential.add(t);
    expect(await sequential.delete('n3')).toBe(true);
    const seqLast = await sequential.add(TURNS[4]!);
    // Ids are drawn as writes plan: the second add planned (n5) before the other namespace's add (n6).
    expect(last.id).toBe('n5');
    expect(seqLast.id).toBe('n5');
    expect(elsewhere.id).toBe('n6');
    for (const id of ['n1', 'n2', 'n4', 'n5']) expect(edgeView(await memory.edges(id))).toEqual(edgeView(await sequential.edges(id)));
    // n5 follows n4 in the temporal view (the turn before it when it committed), not n3.
    expect(edgeView(await memory.edges('n5')).some((e) => e.includes('n4') && e.includes('temporal'))).toBe(true);
    expect((await memory.stats()).nodes).toBe(4);
    await memory.close();
    await sequential.close();
  });
});
