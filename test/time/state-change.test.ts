/**
 * Issue 14, facts that change: maintenance links a newer state to the older one it updates with
 * an `updates` edge and marks the older `superseded` (with `supersededAt`), never deleted; "where
 * does she live?" ranks the new place first, "where did she live before?" still finds the old.
 * The decision is the keyword stand-in of system-one/state-update.ts (no trained head yet).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { STATE_UPDATE_STANDIN_ID } from '../../src/system-one/state-update.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('state-change', (e) => (encoder = e));

const OLD = { text: 'Maya: I live in Lisbon, in a flat near the river.', observedAt: '2023-03-01T10:00:00Z', speaker: 'Maya' };
const CHATTER = [
  { text: 'Maya: the pottery class was fun today.', observedAt: '2023-03-01T10:05:00Z', speaker: 'Maya' },
  { text: 'Theo: I adopted a dog called Biscuit.', observedAt: '2023-05-01T10:00:00Z', speaker: 'Theo' },
];
const NEW = { text: 'Maya: big news, I moved to Porto last month!', observedAt: '2024-03-02T10:00:00Z', speaker: 'Maya' };
const OFFICE = { text: 'Maya: I also moved my office to Braga.', observedAt: '2024-04-02T10:00:00Z', speaker: 'Maya' };

async function build(...obs: Array<typeof OLD>) {
  const memory = await createMemory({ encoder, parameters: { maintenanceInterval: 0 } });
  const ids: string[] = [];
  for (const o of obs) ids.push((await memory.add(o)).id);
  const counts = await memory.maintain();
  return { memory, ids, counts };
}

describe('a state that changes', () => {
  it('marks the old home superseded by the move, linked by an updates edge from the stand-in', async () => {
    const { memory, ids, counts } = await build(OLD, ...CHATTER, NEW);
    const [oldId, , , newId] = ids as [string, string, string, string];
    expect(counts.obsolete).toBeGreaterThanOrEqual(1);
    const old = await memory.get(oldId);
    expect(old?.status).toBe('superseded');
    expect(old?.supersededBy).toEqual([newId]);
    expect(old?.text).toBe(OLD.text); // never deleted or rewritten
    const e = (await memory.edges(oldId)).find((x) => x.subtype === 'updates');
    expect(e).toMatchObject({ from: newId, to: oldId, view: 'semantic', weight: 0.95, origin: { kind: 'system-one', by: STATE_UPDATE_STANDIN_ID } });
    // The chatter is not touched.
    expect((await memory.get(ids[1] as string))?.status).toBe('active');
    await memory.close();
  });

  it('ranks the new place first for "where does she live?" and keeps the old one, with supersededAt, for history', async () => {
    const { memory, ids } = await build(OLD, ...CHATTER, NEW);
    const [oldId, , , newId] = ids as [string, string, string, string];
    const now = (await memory.recall('Where does Maya live?')).memories;
    const order = now.map((m) => m.id);
    expect(order.indexOf(newId)).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(newId)).toBeLessThan(order.indexOf(oldId));
    expect(now.find((m) => m.id === oldId)).toMatchObject({ status: 'superseded', supersededAt: '2024-03-02T10:00:00.000Z' });
    const before = (await memory.recall('Where did Maya live before she moved?')).memories.map((m) => m.id);
    expect(before).toContain(oldId);
    await memory.close();
  });

  it('does not supersede on an addition ("I also moved my office")', async () => {
    const { memory, ids } = await build(OLD, OFFICE);
    expect((await memory.get(ids[0] as string))?.status).toBe('active');
    expect((await memory.edges(ids[0] as string)).some((e) => e.subtype === 'updates')).toBe(false);
    await memory.close();
  });

  it('does not supersede a newer memory by an older one written later', async () => {
    // The move is written first, the old home (said earlier) second: time decides, not order of writing.
    const { memory, ids } = await build(NEW, OLD);
    expect((await memory.get(ids[0] as string))?.status).toBe('active');
    expect((await memory.get(ids[1] as string))?.status).toBe('active');
    await memory.close();
  });
});
