/**
 * Issue 22/24: the last node of each scope is resident state. In a namespace shared by alice and
 * bob (observations without sessions, interleaved), alice's next observation is preceded
 * (`consecutive-observations`) by HER last one, not by bob's, and that last node is kept right
 * when her latest is deleted or expires, and after the namespace reopens from its checkpoint or
 * from a scan of the store. Before, the rule read the namespace's last node (bob's), so alice's
 * observations got no consecutive edge at all.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { keepOpen, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('scope-last', (e) => (encoder = e));

describe("each scope's last node", () => {
  it('precedes the scope’s next observation, through delete, expiry, a checkpoint reopen and a rescan', async () => {
    const storage = keepOpen(createMemoryStorage());
    let clock = Date.parse('2024-05-01T10:00:00Z');
    let n = 0;
    const open = (): Promise<Memory> => createMemory({ encoder, storage, systemOne: createHeuristicSystemOne(), now: () => new Date(clock), newId: () => `m${++n}`, parameters: { maintenanceInterval: 0 } });
    let memory = await open();
    const ids = new Map<string, string>();
    let day = 0;
    /** Writes `name` for `userId` a day after the previous write. */
    const write = async (name: string, userId: string, extra: Record<string, unknown> = {}): Promise<void> => {
      day++;
      const observedAt = new Date(Date.parse('2024-01-01T09:00:00Z') + day * 86_400_000).toISOString();
      ids.set(name, (await memory.add({ text: `${userId} note ${name}: item ${day * 7919} logged.`, observedAt, userId, ...extra })).id);
    };
    /** The id that precedes `name` by the consecutive-observations rule, or null. */
    const precededBy = async (name: string): Promise<string | null> => {
      const id = ids.get(name) as string;
      const e = (await memory.edges(id)).find((x) => x.to === id && x.subtype === 'precedes' && x.origin.by === 'consecutive-observations');
      return e === undefined ? null : ([...ids].find(([, v]) => v === e.from)?.[0] ?? e.from);
    };

    await write('a1', 'alice');
    await write('b1', 'bob');
    await write('a2', 'alice');
    await write('b2', 'bob');
    expect([await precededBy('a2'), await precededBy('b2')]).toEqual(['a1', 'b1']);

    // Delete alice's latest: her next observation follows the one before it.
    await memory.delete(ids.get('a2') as string);
    await write('b3', 'bob');
    await write('a3', 'alice');
    expect([await precededBy('a3'), await precededBy('b3')]).toEqual(['a1', 'b2']);

    // Her latest expires and is erased: the same.
    await write('a4', 'alice', { expiresAt: clock + 3_600_000 });
    clock += 7_200_000;
    await memory.maintain();
    expect(await memory.get(ids.get('a4') as string)).toBeUndefined();
    await write('b4', 'bob');
    await write('a5', 'alice');
    expect([await precededBy('a5'), await precededBy('b4')]).toEqual(['a3', 'b3']);

    // Reopened from its checkpoint, then from a scan of the store.
    await memory.close();
    memory = await open();
    expect((await memory.stats()).opened.from).toBe('checkpoint');
    await write('a6', 'alice');
    await write('b5', 'bob');
    await memory.close();
    await storage.dropCheckpoint!('default');
    memory = await open();
    expect((await memory.stats()).opened.from).toBe('scan');
    await write('b6', 'bob');
    await write('a7', 'alice');
    expect([await precededBy('a6'), await precededBy('b5'), await precededBy('b6'), await precededBy('a7')]).toEqual(['a5', 'b4', 'b5', 'a6']);
    await memory.close();
    await storage.reallyClose();
  });
});
