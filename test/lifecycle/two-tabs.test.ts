/**
 * Issue 7 item 6, in Node: two memories over one IndexedDB database (two connections, as two tabs
 * have) writing one namespace. Writes take the Web Lock `jev-mem:<namespace>` (a faithful
 * in-process LockManager stands in for `navigator.locks`, which Node 20 lacks), and each memory
 * rebuilds its caches when the store's generation moved. The real two-page browser test is
 * test/browser/two-tabs.test.ts.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, LOCK_PREFIX, type Memory } from '../../src/memory.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { lifecycleFixture, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('two-tabs', (e) => (encoder = e));
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A LockManager with the Web Locks semantics used here: exclusive, FIFO per name, abortable while waiting. */
function fakeLockManager() {
  const tails = new Map<string, Promise<unknown>>();
  const log: string[] = [];
  const holding = new Map<string, number>();
  let maxHeld = 0;
  return {
    log,
    get maxHeld() {
      return maxHeld;
    },
    request<T>(name: string, options: { mode: 'exclusive'; signal?: AbortSignal }, callback: () => Promise<T>): Promise<T> {
      log.push(name);
      if (options.signal?.aborted) return Promise.reject(new DOMException('aborted', 'AbortError'));
      const prev = tails.get(name) ?? Promise.resolve();
      const run = prev.then(async () => {
        const n = (holding.get(name) ?? 0) + 1;
        holding.set(name, n);
        maxHeld = Math.max(maxHeld, n);
        try {
          return await callback();
        } finally {
          holding.set(name, (holding.get(name) ?? 1) - 1);
        }
      });
      tails.set(
        name,
        run.catch(() => undefined),
      );
      return run;
    },
  };
}

/** Two "tabs": two connections to one database, two memories on namespace `shared`. */
async function twoTabs(): Promise<{ a: Memory; b: Memory; close(): Promise<void> }> {
  const factory = new IDBFactory();
  const a = await createMemory({ encoder, namespace: 'shared', storage: await createIdbStorage({ indexedDB: factory, persist: false }) });
  const b = await createMemory({ encoder, namespace: 'shared', storage: await createIdbStorage({ indexedDB: factory, persist: false }) });
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
    },
  };
}

describe('two tabs, one namespace', () => {
  it('concurrent writes from both store every observation once, each at its own place in order', async () => {
    const locks = fakeLockManager();
    vi.stubGlobal('navigator', { locks });
    const { a, b, close } = await twoTabs();
    const half = TURNS.length / 2;
    const [ra, rb] = await Promise.all([
      (async () => {
        const out = [];
        for (const t of TURNS.slice(0, half)) out.push(await a.add(t));
        return out;
      })(),
      (async () => {
        const out = [];
        for (const t of TURNS.slice(half)) out.push(await b.add(t));
        return out;
      })(),
    ]);
    const ids = [...ra, ...rb].map((r) => r.id);
    expect(new Set(ids).size).toBe(TURNS.length);
    const seqs = await Promise.all(ids.map(async (id) => (await a.get(id))?.seq as number));
    expect([...seqs].sort((x, y) => x - y)).toEqual(TURNS.map((_, i) => i + 1)); // no seq taken twice, none skipped
    expect(locks.maxHeld).toBe(1);
    expect(new Set(locks.log)).toEqual(new Set([`${LOCK_PREFIX}shared`]));
    expect((await a.stats()).nodes).toBe(TURNS.length);
    expect((await b.stats()).nodes).toBe(TURNS.length);
    await close();
  });

  it('each tab recalls what the other wrote, without reopening', async () => {
    vi.stubGlobal('navigator', { locks: fakeLockManager() });
    const { a, b, close } = await twoTabs();
    await a.addMany(TURNS.slice(0, 5));
    const warm = await b.recall('pottery'); // b builds its caches now
    expect(warm.memories.length).toBeGreaterThan(0);
    const { id } = await a.add({ text: 'Theo: I adopted a second dog called Pretzel.', source: 'chat' });
    const { memories } = await b.recall('What is the name of the second dog?');
    expect(memories[0]?.id).toBe(id);
    expect((await b.get(id))?.text).toMatch(/Pretzel/);
    await close();
  });

  it('an exact repeat written in the other tab is merged into the first tab’s node', async () => {
    vi.stubGlobal('navigator', { locks: fakeLockManager() });
    const { a, b, close } = await twoTabs();
    await b.stats(); // b's caches are built before a writes
    const first = await a.add(TURNS[0] as (typeof TURNS)[0]);
    const again = await b.add({ ...(TURNS[0] as (typeof TURNS)[0]), turnId: 'from-tab-b' });
    expect(again).toMatchObject({ id: first.id, deduplicated: true });
    expect((await a.get(first.id))?.duplicates?.map((d) => d.turnId)).toEqual(['from-tab-b']);
    await close();
  });

  it('a namespace forgotten in one tab is empty in the other', async () => {
    vi.stubGlobal('navigator', { locks: fakeLockManager() });
    const { a, b, close } = await twoTabs();
    await a.addMany(TURNS.slice(0, 3));
    expect((await b.stats()).nodes).toBe(3);
    await a.forget('shared');
    expect((await b.stats()).nodes).toBe(0);
    expect((await b.recall('pottery')).memories).toEqual([]);
    await close();
  });

  it('a read still running when the other tab’s write makes this tab rebuild finishes on intact indexes', async () => {
    vi.stubGlobal('navigator', { locks: fakeLockManager() });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let hold = false;
    const slow: Encoder = {
      fingerprint: encoder.fingerprint,
      dimension: encoder.dimension,
      embed: async (t, sig) => {
        if (hold && t[0] === 'bicycle repairs') await gate;
        return encoder.embed(t, sig);
      },
    };
    const factory = new IDBFactory();
    const a = await createMemory({ encoder: slow, namespace: 'shared', storage: await createIdbStorage({ indexedDB: factory, persist: false }) });
    const b = await createMemory({ encoder, namespace: 'shared', storage: await createIdbStorage({ indexedDB: factory, persist: false }) });
    await a.addMany(TURNS);
    const expected = (await a.recall('bicycle repairs', { k: 5 })).memories.map((m) => m.id);
    expect(expected.length).toBe(5); // found by the vector index alone (no shared word)
    hold = true;
    const slowRead = a.recall('bicycle repairs', { k: 5 }); // holds a's current caches
    await new Promise((r) => setTimeout(r, 10));
    await b.add({ text: 'Maya: I bought a new kiln.', source: 'chat' });
    expect((await a.stats()).nodes).toBe(TURNS.length + 1); // a rebuilt its caches from the store
    release();
    expect((await slowRead).memories.map((m) => m.id)).toEqual(expected);
    await a.close();
    await b.close();
  });

  it('without Web Locks, writes taking turns still continue from the other tab’s state', async () => {
    const { a, b, close } = await twoTabs();
    await a.add(TURNS[0] as (typeof TURNS)[0]);
    await b.add(TURNS[1] as (typeof TURNS)[1]);
    const last = await a.add(TURNS[2] as (typeof TURNS)[2]);
    expect((await a.get(last.id))?.seq).toBe(3);
    const precedes = (await a.edges(last.id)).find((e) => e.subtype === 'precedes');
    expect((await a.get(precedes?.from as string))?.provenance.turnId).toBe('S1:2'); // b's turn, not a stale one
    await close();
  });

  it('reads take no lock; a write waiting for the lock can be aborted', async () => {
    const locks = fakeLockManager();
    vi.stubGlobal('navigator', { locks });
    const { a, close } = await twoTabs();
    await a.add(TURNS[0] as (typeof TURNS)[0]);
    const writes = locks.log.length;
    await a.recall('pottery');
    await a.get('x');
    await a.stats();
    expect(locks.log.length).toBe(writes);
    const ac = new AbortController();
    ac.abort();
    await expect(a.add(TURNS[1] as (typeof TURNS)[1], { signal: ac.signal })).rejects.toMatchObject({ code: 'ABORTED' });
    expect((await a.stats()).nodes).toBe(1);
    await close();
  });
});
