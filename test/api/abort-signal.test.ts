/**
 * Issue 22 (break3 item 3): `CallOptions.signal` is honoured by every method whose options take
 * it: an already aborted signal ends the call with `ABORTED` before any work (no store read, not
 * even the namespace's open), and a long `list` checks it between the batches it reads.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { codeOf, lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-abort', (e) => (encoder = e));

/** `storage` with every method call counted in `calls` (close excluded). */
function counting(storage: StorageAdapter, calls: string[]): StorageAdapter {
  return new Proxy(storage, {
    get(target, key, receiver) {
      const v = Reflect.get(target, key, receiver) as unknown;
      if (typeof v !== 'function' || key === 'close') return v;
      return (...args: unknown[]) => {
        calls.push(String(key));
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

describe('an aborted signal', () => {
  it('ends list, history, get, edges, export, stats, maintain, delete, recall, add, addMany, update, reset and import with ABORTED before any store read', async () => {
    const base = createMemoryStorage();
    const seed = await createMemory({ encoder, storage: base });
    const [first] = await seed.addMany(TURNS);
    const id = first!.id;
    const calls: string[] = [];
    const m = await createMemory({ encoder, storage: counting(base, calls) });
    const signal = AbortSignal.abort();
    const runs: Array<[string, (m: Memory) => Promise<unknown>]> = [
      ['list', (x) => x.list({ signal })],
      ['history', (x) => x.history(id, { signal })],
      ['get', (x) => x.get(id, { signal })],
      ['edges', (x) => x.edges(id, { signal })],
      ['export', (x) => x.export({ signal })],
      ['stats', (x) => x.stats({ signal })],
      ['maintain', (x) => x.maintain({ signal })],
      ['delete', (x) => x.delete(id, { signal })],
      ['recall', (x) => x.recall('pottery', { signal })],
      ['add', (x) => x.add({ text: 'A new note.' }, { signal })],
      ['addMany', (x) => x.addMany([{ text: 'A new note.' }], { signal })],
      ['update', (x) => x.update(id, { text: 'An edited note.' }, { signal })],
      ['reset', (x) => x.reset({ signal })],
      ['import', (x) => x.import({}, { signal, namespace: 'other' })],
    ];
    const codes: Record<string, unknown> = {};
    for (const [name, run] of runs) codes[name] = await codeOf(run(m));
    expect(Object.entries(codes).filter(([, c]) => c !== 'ABORTED')).toEqual([]);
    expect(Object.keys(codes)).toHaveLength(14);
    expect(calls).toEqual([]);
    // Nothing was erased, and the memory still answers without a signal.
    expect((await m.get(id))?.id).toBe(id);
    expect((await m.list()).memories).toHaveLength(10);
    await m.close();
  });

  it('a list aborted while it reads stops between batches with ABORTED', async () => {
    const base = createMemoryStorage();
    const seed = await createMemory({ encoder, storage: base });
    await seed.addMany(Array.from({ length: 300 }, (_, i) => ({ text: `Entry ${i} of the long log about item ${i}.` })));
    const stop = new AbortController();
    let reads = 0;
    let armed = false;
    const storage = new Proxy(base, {
      get(target, key, receiver) {
        const v = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'getNodes' || typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          if (armed) {
            reads++;
            stop.abort(new Error('enough'));
          }
          return (v as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const m = await createMemory({ encoder, storage });
    await m.get('none'); // the namespace is open before the list starts
    armed = true;
    // A filter that keeps nothing makes list read ahead batch after batch (256 nodes each).
    const code = await codeOf(m.list({ limit: 10, filter: { speaker: 'Nobody' }, signal: stop.signal }));
    expect(code).toBe('ABORTED');
    expect(reads).toBe(1);
    await m.close();
  });
});
