/**
 * Bounded resources per open namespace (issue 22): `maxOpenNamespaces` keeps at most that many
 * namespaces open, releasing the least recently used idle one (checkpointed first); a released
 * namespace reopens with its data; one with a write in flight is never released.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, DEFAULT_MAX_OPEN_NAMESPACES, type Memory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';
import { codeOf, lifecycleFixture, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('residency', (e) => (encoder = e));

/** An in-memory store that counts, per namespace, the checkpoints read (one per open) and written. */
function countingStorage(): { storage: StorageAdapter; opened: Map<string, number>; checkpointed: Map<string, number> } {
  const inner = createMemoryStorage();
  const opened = new Map<string, number>();
  const checkpointed = new Map<string, number>();
  const bump = (m: Map<string, number>, ns: string): void => void m.set(ns, (m.get(ns) ?? 0) + 1);
  const storage = new Proxy(inner, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (key === 'readCheckpoint') bump(opened, args[0] as string);
        if (key === 'writeCheckpoint') bump(checkpointed, args[0] as string);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { storage, opened, checkpointed };
}

async function open(storage: StorageAdapter, maxOpenNamespaces: number, systemOne?: SystemOneBackend): Promise<Memory> {
  return createMemory({ encoder, storage, maxOpenNamespaces, ...(systemOne ? { systemOne } : {}), parameters: { maintenanceInterval: 0, writeDeadlineMs: 600_000 } });
}

describe('maxOpenNamespaces', () => {
  it('defaults to 64 and refuses a bound that is not a positive integer, naming the option', async () => {
    expect(DEFAULT_MAX_OPEN_NAMESPACES).toBe(64);
    for (const bad of [0, -1, 2.5, '3', Number.NaN]) {
      expect(await codeOf(createMemory({ encoder, maxOpenNamespaces: bad as number }))).toBe('INVALID_OPTION');
    }
    const err = await createMemory({ encoder, maxOpenNamespaces: 0 }).catch((e: unknown) => e as { details: { field?: string } });
    expect(err.details.field).toBe('maxOpenNamespaces');
  });

  it('opening 5 namespaces with a bound of 3 releases the least recently used, checkpointed; each reopens with its data', async () => {
    const { storage, opened, checkpointed } = countingStorage();
    const memory = await open(storage, 3);
    const ids: Record<string, string> = {};
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const [i, ns] of names.entries()) {
      ids[ns] = (await memory.add(TURNS[i]!, { namespace: ns })).id;
      expect((await memory.stats({ namespace: ns })).openNamespaces).toBe(Math.min(i + 1, 3));
      if (ns === 'c') await memory.recall('pottery', { namespace: 'a' }); // a is used again: b is now the least recent
    }
    // Opening d released b (not a, used after it); opening e released c.
    expect(Object.fromEntries(checkpointed)).toEqual({ b: 1, c: 1 });
    expect(Object.fromEntries(opened)).toEqual({ a: 1, b: 1, c: 1, d: 1, e: 1 });
    // Every namespace still holds its memory; b reopens from its checkpoint (releasing a).
    const b = await memory.stats({ namespace: 'b' });
    expect(b.nodes).toBe(1);
    expect(b.opened.from).toBe('checkpoint');
    expect(b.openNamespaces).toBe(3);
    expect(opened.get('b')).toBe(2);
    expect(checkpointed.get('a')).toBe(1);
    for (const [i, ns] of names.entries()) {
      expect((await memory.get(ids[ns]!, { namespace: ns }))?.text).toBe(TURNS[i]!.text);
      const r = await memory.recall(TURNS[i]!.text, { namespace: ns });
      expect(r.memories.map((m) => m.id)).toEqual([ids[ns]]);
    }
    expect((await memory.stats({ namespace: 'e' })).openNamespaces).toBe(3);
    await memory.close();
  });

  it('never releases a namespace with a write in flight: the next least recently used goes', async () => {
    const { storage, opened, checkpointed } = countingStorage();
    const inner = createHeuristicSystemOne();
    let hold: { enter: () => void; gate: Promise<void> } | undefined;
    const systemOne: SystemOneBackend = {
      kind: 'stub',
      modelId: inner.modelId,
      decide: async (r, o) => (await systemOne.decideMany([r], o))[0] as never,
      decideMany: async (requests, o) => {
        const h = hold;
        if (h !== undefined && requests.some((r) => (r.state as { kind?: string }).kind === 'relation')) {
          hold = undefined;
          h.enter();
          await h.gate;
        }
        return inner.decideMany(requests, o);
      },
      close: () => inner.close(),
    };
    const memory = await open(storage, 2, systemOne);
    await memory.add(TURNS[0]!, { namespace: 'a' });
    let release!: () => void;
    const entered = new Promise<void>((enter) => {
      hold = { enter, gate: new Promise<void>((r) => (release = r)) };
    });
    const slow = memory.add(TURNS[1]!, { namespace: 'a' }); // plans outside the lock, held there
    await entered;
    await memory.add(TURNS[2]!, { namespace: 'b' });
    await memory.add(TURNS[3]!, { namespace: 'c' }); // a is the least recent but busy: b goes
    expect(Object.fromEntries(checkpointed)).toEqual({ b: 1 });
    expect((await memory.stats({ namespace: 'c' })).openNamespaces).toBe(2);
    release();
    await slow;
    expect((await memory.stats({ namespace: 'a' })).nodes).toBe(2);
    expect(opened.get('a')).toBe(1); // never reopened: the write committed into the state it planned on
    // Idle again, a is released like any other.
    await memory.add(TURNS[4]!, { namespace: 'd' });
    expect(checkpointed.get('c')).toBe(1);
    expect((await memory.stats({ namespace: 'b' })).nodes).toBe(1);
    expect(checkpointed.get('a')).toBe(1);
    await memory.close();
  });
});
