/**
 * Issue 7 item 6: faults. Atomic writes (a fault inside a write leaves the store and the caches as
 * before); indexes rebuilt from the store after a crash, a schema change or an encoder change;
 * QuotaExceededError / ENOSPC as QUOTA_EXCEEDED with nothing half-written; persistent storage
 * requested; a System-One worker crash loses nothing acknowledged. Issue 22: every case runs on the
 * shipped stores (Node's SQLite file store first, IndexedDB, memory) through wrappers that pass
 * the whole storage port through; process crashes (SIGKILL, torn journals, two writers) are in
 * crash.test.ts.
 */
import 'fake-indexeddb/auto';
import fs, { readlinkSync, realpathSync } from 'node:fs';
import { IDBFactory, IDBObjectStore } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { JevMemError } from '../../src/errors.js';
import { createMemory, GENERATION_META_KEY } from '../../src/memory.js';
import { createIdbStorage, requestPersistence, type PersistenceState } from '../../src/plane/store/idb-storage.js';
import { planMigrations, SCHEMA_META_KEY, SCHEMA_VERSION, type Migration } from '../../src/plane/store/schema.js';
import { HEURISTIC_MODEL_ID, createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import type { SystemOneBackend, SystemOneResponse } from '../../src/system-one/wire.js';
import { createWorkerSystemOne } from '../../src/system-one/worker-backend.js';
import { codeOf, errorOf, faulty, keepOpen, lifecycleFixture, QUESTIONS, recallView, stored, TURNS } from './helpers.js';
import { SHIPPED_STORES, storePlace } from './stores.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('faults', (e) => (encoder = e));
afterEach(() => {
  vi.restoreAllMocks();
});
const EXTRA = { text: 'Theo: I adopted a second dog called Pretzel.', observedAt: '2023-05-01T10:00:00Z', source: 'chat', speaker: 'Theo' };

describe.each(SHIPPED_STORES)('atomic writes on the %s store', (kind) => {
  const open = () => storePlace(kind, tempDir).open();

  it('a commit that fails leaves the store and the caches as before, and the next write works', async () => {
    const inner = await open();
    const storage = faulty(inner);
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await memory.addMany(TURNS.slice(0, 5));
    const before = await stored(storage, 'default');
    // `opened` says how the caches were last built; the failed commit rebuilt them from the store.
    const { opened: _opened, ...statsBefore } = await memory.stats();
    const recallBefore = await recallView(memory, 'Theo dog');
    storage.failIf = () => new Error('injected: the disk went away');
    const e = await errorOf(memory.add(EXTRA));
    expect(e).toMatchObject({ code: 'STORAGE_FAILED', details: { committed: 0 } });
    expect(await stored(storage, 'default')).toEqual(before);
    const { opened, ...statsAfter } = await memory.stats();
    expect(statsAfter).toEqual(statsBefore);
    expect(opened.from).toBe('scan');
    expect(await recallView(memory, 'Theo dog')).toEqual(recallBefore); // the half-planned node is not in the indexes
    storage.failIf = undefined;
    const ok = await memory.add(EXTRA);
    expect((await memory.get(ok.id))?.seq).toBe(6); // no gap, no reuse
    await memory.close();
    await inner.close();
  });

  it('a recall running during a write that then fails sees none of it (no uncommitted read)', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let hold = false;
    const slowQuery: Encoder = {
      fingerprint: encoder.fingerprint,
      dimension: encoder.dimension,
      embed: async (t, sig) => {
        if (hold && t[0] === 'Theo bike chain') await gate;
        return encoder.embed(t, sig);
      },
    };
    const inner = await open();
    const storage = faulty(inner);
    const memory = await createMemory({ encoder: slowQuery, storage });
    await memory.addMany(TURNS);
    const expected = await recallView(memory, 'Theo bike chain');
    expect(expected.length).toBe(5);
    hold = true;
    const pending = memory.recall('Theo bike chain', { k: 5 }); // holds the current caches
    await new Promise((r) => setTimeout(r, 0));
    storage.failIf = () => new Error('injected');
    const adding = codeOf(memory.add(EXTRA)); // plans the node into the caches, then fails to commit
    await new Promise((r) => setTimeout(r, 20));
    release();
    const r = await pending;
    expect(await adding).toBe('STORAGE_FAILED');
    expect(r.memories.map((m) => m.id)).toEqual(expected.map((m) => m.id));
    expect(r.memories.some((m) => m.text === EXTRA.text)).toBe(false);
    await memory.close();
  });

  it('a recall issued while a write is half-planned waits, and sees nothing of it when its commit fails', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let hold = false;
    const base = createHeuristicSystemOne();
    const slow: SystemOneBackend = {
      kind: 'slow',
      modelId: 'test/slow@1',
      decide: (r, o) => base.decide(r, o),
      decideMany: async (rs, o) => {
        if (hold && rs.some((r) => (r.state as { kind?: string }).kind === 'relation')) await gate;
        return base.decideMany(rs, o);
      },
      close: () => base.close(),
    };
    const inner = await open();
    const storage = faulty(inner);
    const memory = await createMemory({ encoder, storage, systemOne: slow, parameters: { writeDeadlineMs: 60_000 } });
    await memory.addMany(TURNS);
    hold = true;
    storage.failIf = () => new Error('injected');
    const adding = codeOf(memory.add({ ...EXTRA, text: 'Theo: my bike chain snapped again today.', sessionId: 's2' }));
    await new Promise((r) => setTimeout(r, 20)); // the write has planned its node and waits for System One
    const reading = memory.recall('Theo bike chain', { k: 10 });
    release();
    expect(await adding).toBe('STORAGE_FAILED');
    const r = await reading;
    expect(r.memories.some((m) => m.text.includes('snapped'))).toBe(false);
    await memory.close();
  });

  it('an abort between chunks keeps the committed chunks and leaves nothing of the next', async () => {
    const storage = await open();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    const ac = new AbortController();
    const e = await errorOf(memory.addMany(TURNS, { chunkSize: 4, signal: ac.signal, onProgress: () => ac.abort() }));
    expect(e).toMatchObject({ code: 'ABORTED', details: { committed: 4 } });
    expect((await storage.load('default')).nodes.map((n) => n.provenance.turnId)).toEqual(['S1:1', 'S1:2', 'S1:3', 'S1:4']);
    await memory.close();
    await storage.close();
  });
});

describe('atomic writes on one store', () => {
  it('IndexedDB: an edge put that fails after the node put aborts the whole write', async () => {
    const storage = await createIdbStorage({ indexedDB: new IDBFactory(), persist: false });
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await memory.addMany(TURNS.slice(0, 4));
    const before = await stored(storage, 'default');
    const put = IDBObjectStore.prototype.put;
    let nodePuts = 0;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'node') nodePuts++;
      if (this.name === 'adj') throw new DOMException('injected fault after the node was stored', 'UnknownError');
      return put.call(this, value, key);
    });
    const e = await errorOf(memory.add({ ...EXTRA, sessionId: 's1' }));
    vi.restoreAllMocks();
    expect(nodePuts).toBe(1); // the node was stored inside the transaction before the fault
    expect(e).toMatchObject({ code: 'STORAGE_FAILED' });
    expect(await stored(storage, 'default')).toEqual(before);
    expect((await memory.stats()).nodes).toBe(4);
    await memory.close();
    await storage.close();
  });

  it('an id generator that repeats itself cannot overwrite a stored node', async () => {
    const memory = await createMemory({ encoder, newId: () => 'same-id' });
    await memory.add(TURNS[0] as (typeof TURNS)[0]);
    const e = await errorOf(memory.add(EXTRA));
    expect(e).toMatchObject({ code: 'INVALID_OPTION', field: 'newId' });
    expect((await memory.get('same-id'))?.text).toBe(TURNS[0]?.text);
    await memory.close();
  });

});

/** Whether file descriptor `fd` is open on a file under `dir` (Linux: /proc/self/fd). */
function underDir(fd: unknown, dir: string): boolean {
  try {
    return typeof fd === 'number' && readlinkSync(`/proc/self/fd/${fd}`).startsWith(`${dir}/`);
  } catch {
    return false;
  }
}

/**
 * Makes the `n`-th call (from 1) of `fs[fn]` on a file under `dir` throw an errno error `code`
 * (node-sqlite3-wasm does its file I/O through these synchronous calls); `calls()` counts the
 * calls on files under `dir` seen so far.
 */
function failNth(fn: 'writeSync' | 'fsyncSync', dir: string, n: number, code: string): { calls(): number } {
  const real = fs[fn] as (...a: unknown[]) => unknown;
  let seen = 0;
  vi.spyOn(fs, fn).mockImplementation(((...a: unknown[]) => {
    if (underDir(a[0], dir) && ++seen === n) throw Object.assign(new Error(`${code}: injected at call ${n}`), { code });
    return real.apply(fs, a);
  }) as never);
  return { calls: () => seen };
}

describe.skipIf(process.platform !== 'linux')('SQLite file store: an I/O fault at any point of a write', () => {
  it.each(['writeSync', 'fsyncSync'] as const)('%s failing at each of its calls leaves the store as before (or the write whole), on disk too; the next write works', async (fn) => {
    const place = storePlace('sqlite', tempDir);
    const dir = realpathSync(place.dir as string);
    const storage = await place.open();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await memory.addMany(TURNS.slice(0, 3));
    let points = 0;
    for (let n = 1; n < 200; n++) {
      const before = await stored(storage, 'default');
      const probe = failNth(fn, dir, n, 'EIO');
      const text = `Theo: fault point ${n}, the kettle whistled at dawn.`;
      const outcome = await codeOf(memory.add({ ...EXTRA, text }));
      vi.restoreAllMocks();
      const hit = probe.calls() >= n;
      const after = await stored(storage, 'default');
      if (outcome === 'resolved') {
        expect(after.nodes.length, `point ${n}`).toBe(before.nodes.length + 1);
        expect(after.nodes.at(-1)?.text).toBe(text);
      } else {
        expect(hit, `point ${n}: failed without a fault (${outcome})`).toBe(true);
        expect(outcome, `point ${n}`).toBe('STORAGE_FAILED');
        expect(after, `point ${n}: a failed write left something`).toEqual(before);
        points++;
      }
      const fresh = await place.open(); // what another process reads from the files
      expect(await stored(fresh, 'default'), `point ${n} on disk`).toEqual(after);
      await fresh.close();
      if (!hit) break; // the write made fewer than n calls: every point was tried
    }
    expect(points).toBeGreaterThan(0);
    const ok = await memory.add(EXTRA);
    expect((await memory.get(ok.id))?.text).toBe(EXTRA.text);
    expect((await memory.recall('Pretzel dog', { k: 3 })).memories[0]?.text).toBe(EXTRA.text);
    await memory.close();
    await storage.close();
  }, 60_000);

  // node-sqlite3-wasm's VFS turns ENOSPC into a plain "disk I/O error"; the driver observes the
  // errno of the file calls SQLite makes (src/plane/drivers/sqlite-errno.ts), so a full disk is
  // QUOTA_EXCEEDED whatever the free space the device reports afterwards (here: a roomy disk).
  it('ENOSPC at any write of an add is QUOTA_EXCEEDED saying nothing was written, with nothing half-written', async () => {
    const place = storePlace('sqlite', tempDir);
    const dir = realpathSync(place.dir as string);
    const storage = await place.open();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await memory.add(TURNS[0] as (typeof TURNS)[0]);
    let points = 0;
    for (let n = 1; n < 200; n++) {
      const before = await stored(storage, 'default');
      const probe = failNth('writeSync', dir, n, 'ENOSPC');
      const e = await memory.add({ ...EXTRA, text: `Theo: full disk point ${n}, the kettle whistled.` }).then(() => undefined, (x: unknown) => x);
      vi.restoreAllMocks();
      const hit = probe.calls() >= n;
      const after = await stored(storage, 'default');
      if (e === undefined) {
        expect(after.nodes.length, `point ${n}`).toBe(before.nodes.length + 1);
      } else {
        expect(hit, `point ${n}: failed without a fault (${String(e)})`).toBe(true);
        expect(e, `point ${n}`).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { committed: 0 } });
        expect((e as Error).message, `point ${n}`).toMatch(/nothing was written/);
        expect(after, `point ${n}: a failed write left something`).toEqual(before);
        points++;
      }
      if (!hit) break;
    }
    expect(points).toBeGreaterThan(0);
    expect((await memory.add(EXTRA)).deduplicated).toBe(false); // space is back
    await memory.close();
    await storage.close();
  }, 60_000);

  it('ENOSPC in the second chunk of an addMany: the first chunk stays, the error counts it', async () => {
    const place = storePlace('sqlite', tempDir);
    const dir = realpathSync(place.dir as string);
    const storage = await place.open();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    const real = fs.writeSync;
    let armed = false;
    vi.spyOn(fs, 'writeSync').mockImplementation(((...a: unknown[]) => {
      if (armed && underDir(a[0], dir)) {
        armed = false;
        throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      }
      return (real as (...x: unknown[]) => unknown).apply(fs, a);
    }) as never);
    const e = await errorOf(memory.addMany(TURNS.slice(0, 3), { chunkSize: 1, onProgress: (p) => void (p.done === 1 && (armed = true)) }));
    vi.restoreAllMocks();
    expect(e).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { committed: 1 } });
    expect((await stored(storage, 'default')).nodes.map((n) => n.text)).toEqual([TURNS[0]!.text]);
    await memory.close();
    const fresh = await place.open(); // what another process reads from the files
    expect((await stored(fresh, 'default')).nodes.map((n) => n.text)).toEqual([TURNS[0]!.text]);
    await fresh.close();
    await storage.close();
  });
});

describe('quota', () => {
  const quotaOnPut = (after: number) => {
    const put = IDBObjectStore.prototype.put;
    let n = 0;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (++n > after) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.call(this, value, key);
    });
  };

  it('IndexedDB QuotaExceededError reaches the caller as QUOTA_EXCEEDED, with nothing half-written', async () => {
    const storage = await createIdbStorage({ indexedDB: new IDBFactory(), persist: false });
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await memory.addMany(TURNS.slice(0, 3));
    const before = await stored(storage, 'default');
    quotaOnPut(1); // the node goes in, its first edge does not
    const e = await errorOf(memory.add({ ...EXTRA, sessionId: 's1' }));
    vi.restoreAllMocks();
    expect(e).toBeInstanceOf(JevMemError);
    expect(e).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect((e as Error).message).toMatch(/nothing was written/);
    expect(await stored(storage, 'default')).toEqual(before);
    expect((await memory.stats()).nodes).toBe(3);
    const ok = await memory.add(EXTRA); // space is back
    expect((await memory.get(ok.id))?.text).toBe(EXTRA.text);
    await memory.close();
    await storage.close();
  });

  it('addMany: chunks before the full disk stay, the failing chunk leaves nothing, the error says how many', async () => {
    const storage = await createIdbStorage({ indexedDB: new IDBFactory(), persist: false });
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    const put = IDBObjectStore.prototype.put;
    let commits = 0;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
      if (this.name === 'node' && (value as { seq: number }).seq === 5) commits++;
      if (commits > 0) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return put.call(this, value, key);
    });
    const e = await errorOf(memory.addMany(TURNS, { chunkSize: 4 }));
    vi.restoreAllMocks();
    expect(e).toMatchObject({ code: 'QUOTA_EXCEEDED', details: { committed: 4 } });
    expect((await storage.load('default')).nodes.map((n) => n.seq)).toEqual([1, 2, 3, 4]);
    expect((await memory.stats()).nodes).toBe(4);
    await memory.close();
    await storage.close();
  });

  it('asks the browser for persistent storage once, without waiting for the answer', async () => {
    const states: PersistenceState[] = [];
    let calls = 0;
    let answer: (v: boolean) => void = () => undefined;
    requestPersistence((s) => states.push(s), {
      persisted: async () => false,
      persist: () => {
        calls++;
        return new Promise<boolean>((r) => (answer = r));
      },
    });
    await new Promise((r) => setTimeout(r, 0));
    expect(states).toEqual(['pending']); // returned before the user answered
    answer(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(states).toEqual(['pending', 'granted']);
    expect(calls).toBe(1);
  });

  it('does not ask again when storage is already persistent; reports a refusal; never throws', async () => {
    const seen: PersistenceState[][] = [[], [], []];
    let asked = false;
    requestPersistence((s) => seen[0]?.push(s), { persisted: async () => true, persist: async () => ((asked = true), true) });
    requestPersistence((s) => seen[1]?.push(s), { persisted: async () => false, persist: async () => false });
    requestPersistence((s) => seen[2]?.push(s), { persist: () => Promise.reject(new Error('SecurityError')) });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toBe(false);
    expect(seen).toEqual([
      ['pending', 'granted'],
      ['pending', 'denied'],
      ['pending', 'failed'],
    ]);
  });

  it('the IndexedDB adapter asks through navigator.storage unless persist is false', async () => {
    const persist = vi.fn(async () => true);
    vi.stubGlobal('navigator', { storage: { persisted: async () => false, persist } });
    try {
      const s = await createIdbStorage({ indexedDB: new IDBFactory() });
      await new Promise((r) => setTimeout(r, 0));
      expect(persist).toHaveBeenCalledTimes(1);
      expect(s.persistence).toBe('granted');
      const off = await createIdbStorage({ indexedDB: new IDBFactory(), persist: false });
      expect(off.persistence).toBe('off');
      expect(persist).toHaveBeenCalledTimes(1);
      await s.close();
      await off.close();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe.each(SHIPPED_STORES)('rebuilt indexes on the %s store', (kind) => {
  it('a fresh memory over the same store rebuilds indexes that recall exactly like the live ones', async () => {
    const place = storePlace(kind, tempDir);
    const live = await createMemory({ encoder, storage: await place.open() });
    await live.addMany(TURNS);
    const views = await Promise.all(QUESTIONS.map((q) => recallView(live, q)));
    const reopened = await createMemory({ encoder, storage: await place.open() }); // a reader, while the writer lives
    expect(await Promise.all(QUESTIONS.map((q) => recallView(reopened, q)))).toEqual(views);
    await reopened.close();
    await live.close();
  });
});

describe('System One failures during ingestion', () => {
  it('a worker crash mid-ingest loses nothing: every observation is stored', async () => {
    const worker = await createWorkerSystemOne({ engine: 'ts' });
    try {
      const memory = await createMemory({ encoder, systemOne: worker });
      let crashed = false;
      const res = await memory.addMany(TURNS, {
        chunkSize: 3,
        onProgress: () => {
          if (!crashed) {
            crashed = true;
            void worker.crashForTest();
          }
        },
      });
      expect(crashed).toBe(true);
      expect(worker.starts).toBeGreaterThan(1); // the worker really died and was replaced
      expect(res.map((r) => r.deduplicated)).toEqual(TURNS.map(() => false));
      const texts = await Promise.all(res.map(async (r) => (await memory.get(r.id))?.text));
      expect(texts).toEqual(TURNS.map((t) => t.text));
      await memory.close();
    } finally {
      await worker.close();
    }
  });

  it('a backend that fails every call after the first ones still stores every observation, answered by the fallback', async () => {
    // The flaky backend answers its first two calls with a signature no real backend gives (every
    // noul 0.99, its own model id), then fails; the fallback (the heuristic stand-in) answers the rest.
    const SIGNATURE = 0.99;
    let calls = 0;
    const signed = (r: SystemOneResponse): SystemOneResponse => ({
      ...r,
      model: 'test/flaky@1',
      answers: Object.fromEntries(Object.entries(r.answers).map(([k, a]) => [k, a.type === 'noul' ? { type: 'noul', noul: SIGNATURE } : a])),
    });
    const base = createHeuristicSystemOne();
    const flaky: SystemOneBackend = {
      kind: 'flaky',
      modelId: 'test/flaky@1',
      decide: async (r, o) => (++calls > 2 ? Promise.reject(new JevMemError('SYSTEM_ONE_FAILED', 'down')) : signed(await base.decide(r, o))),
      decideMany: async (r, o) => (++calls > 2 ? Promise.reject(new JevMemError('SYSTEM_ONE_FAILED', 'down')) : (await base.decideMany(r, o)).map(signed)),
      close: () => base.close(),
    };
    const memory = await createMemory({ encoder, systemOne: flaky });
    const res = await memory.addMany(TURNS, { chunkSize: 2 });
    expect(calls).toBeGreaterThan(2);
    expect((await memory.stats()).nodes).toBe(TURNS.length);
    expect(new Set(res.map((r) => r.id)).size).toBe(TURNS.length);
    // the same observations typed by the heuristic alone (what the fallback answers)
    const reference = await createMemory({ encoder });
    const refTypes = new Map<string | undefined, unknown>();
    for (const r of await reference.addMany(TURNS, { chunkSize: 2 })) {
      const n = await reference.get(r.id);
      refTypes.set(n?.provenance.turnId, n?.types);
    }
    const nodes = await Promise.all(res.map((r) => memory.get(r.id)));
    const signature = { episodic: SIGNATURE, semantic: SIGNATURE, procedural: SIGNATURE, preference: SIGNATURE };
    // chunk 1 was typed by the flaky backend's first call: its signature
    expect(nodes.slice(0, 2).map((n) => n?.types)).toEqual([signature, signature]);
    // every later chunk was typed by the fallback: the heuristic's numbers, not the signature
    for (const n of nodes.slice(2)) {
      expect(n?.types).not.toEqual(signature);
      expect(n?.types, n?.provenance.turnId).toEqual(refTypes.get(n?.provenance.turnId));
    }
    // and the fallback's relation answers made edges under its own model id
    const edges = (await Promise.all(res.slice(2).map((r) => memory.edges(r.id)))).flat();
    expect(edges.some((e) => e.origin.kind === 'system-one' && e.origin.by === HEURISTIC_MODEL_ID)).toBe(true);
    await memory.close();
    await reference.close();
  });
});

describe.each(SHIPPED_STORES)('schema versioning on the %s store', (kind) => {
  const open = () => storePlace(kind, tempDir).open();

  it('writes the schema version with the first commit of a namespace', async () => {
    const storage = await open();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    await memory.add(EXTRA);
    expect((await storage.load('default')).meta[SCHEMA_META_KEY]).toBe(SCHEMA_VERSION);
    await memory.close();
    await storage.close();
  });

  it('refuses a namespace of a newer schema with SCHEMA_MISMATCH, reading or writing, and changes nothing', async () => {
    const storage = await open();
    const writer = await createMemory({ encoder, storage: keepOpen(storage) });
    await writer.add(EXTRA);
    await writer.close();
    await storage.commit('default', { meta: { [SCHEMA_META_KEY]: SCHEMA_VERSION + 1 } }); // a newer build wrote here
    const before = await storage.load('default');
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    const e = await errorOf(memory.recall('dog'));
    expect(e).toMatchObject({ code: 'SCHEMA_MISMATCH' });
    expect((e as Error).message).toMatch(/upgrade jev-mem/i);
    expect(await codeOf(memory.add(EXTRA))).toBe('SCHEMA_MISMATCH');
    expect(await codeOf(memory.get('x'))).toBe('SCHEMA_MISMATCH');
    expect(await storage.load('default')).toEqual(before);
    expect((await memory.stats({ namespace: 'other' })).nodes).toBe(0); // other namespaces still open
    await memory.close();
    await storage.close();
  });

  it('opens a namespace written before versioning (no key) as version 1 and stamps it on the next commit', async () => {
    const storage = await open();
    const writer = await createMemory({ encoder, storage: keepOpen(storage) });
    const { id } = await writer.add(EXTRA);
    await writer.close();
    await storage.commit('default', { meta: { [SCHEMA_META_KEY]: null, [GENERATION_META_KEY]: null } });
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    expect((await memory.get(id))?.text).toBe(EXTRA.text);
    await memory.add(TURNS[0] as (typeof TURNS)[0]);
    expect((await storage.load('default')).meta[SCHEMA_META_KEY]).toBe(SCHEMA_VERSION);
    await memory.close();
    await storage.close();
  });

  it('plans migration steps in order, each with its version, without writing anything', () => {
    const addFlag: Migration = {
      from: 1,
      description: 'test: mark every node',
      migrate: (snap) => ({ putNodes: snap.nodes.map((n) => ({ ...n, keywords: [...n.keywords, 'migrated'] })) }),
    };
    const node = { id: 'a', keywords: ['x'] } as unknown as import('../../src/types.js').MemoryNode;
    const snap = { nodes: [node], edges: [], meta: { [SCHEMA_META_KEY]: 1 } };
    const plan = planMigrations(snap, 'ns', [addFlag], 2);
    expect(plan.steps).toHaveLength(1);
    expect(plan.steps[0]?.version).toBe(2);
    expect(plan.steps[0]?.batch.meta).toEqual({ [SCHEMA_META_KEY]: 2 });
    expect(plan.snapshot.nodes[0]?.keywords).toEqual(['x', 'migrated']);
    expect(plan.snapshot.meta[SCHEMA_META_KEY]).toBe(2);
    expect(snap.nodes[0]?.keywords).toEqual(['x']); // input untouched
    expect(planMigrations(snap, 'ns', [], 1).steps).toEqual([]);
  });

  it('refuses a missing step or a malformed version with SCHEMA_MISMATCH', () => {
    const snap = { nodes: [], edges: [], meta: { [SCHEMA_META_KEY]: 1 } };
    expect(() => planMigrations(snap, 'ns', [], 2)).toThrow(expect.objectContaining({ code: 'SCHEMA_MISMATCH' }) as Error);
    expect(() => planMigrations({ ...snap, meta: { [SCHEMA_META_KEY]: 'one' } }, 'ns')).toThrow(expect.objectContaining({ code: 'SCHEMA_MISMATCH' }) as Error);
  });
});

describe.each(SHIPPED_STORES)('encoder change on the %s store', (kind) => {
  const open = () => storePlace(kind, tempDir).open();

  /** The same vectors under another fingerprint (an "older model"). */
  const renamed = (inner: Encoder, fingerprint: string): Encoder => ({ fingerprint, dimension: inner.dimension, embed: (t, s) => inner.embed(t, s) });

  it('re-embeds, on open, nodes embedded by another encoder; texts untouched, recall as before', async () => {
    const storage = await open();
    const old = await createMemory({ encoder: renamed(encoder, 'glove-old@1'), storage: keepOpen(storage) });
    await old.addMany(TURNS);
    const views = await Promise.all(QUESTIONS.map((q) => recallView(old, q)));
    await old.close();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    expect(await Promise.all(QUESTIONS.map((q) => recallView(memory, q)))).toEqual(views);
    const snap = await storage.load('default');
    expect(snap.nodes.every((n) => n.embedding.encoder === encoder.fingerprint)).toBe(true);
    expect(snap.nodes.map((n) => n.text)).toEqual(TURNS.map((t) => t.text));
    await memory.close();
    await storage.close();
  });

  it('re-embeds vectors of another dimension instead of failing', async () => {
    const storage = await open();
    const wide: Encoder = {
      fingerprint: 'wide@1',
      dimension: 3,
      embed: async (t) => t.map(() => Float32Array.from([1, 0, 0])),
    };
    const old = await createMemory({ encoder: wide, storage: keepOpen(storage) });
    await old.addMany(TURNS.slice(0, 3));
    await old.close();
    const memory = await createMemory({ encoder, storage: keepOpen(storage) });
    expect((await memory.recall('pottery class')).memories[0]?.text).toBe(TURNS[0]?.text);
    await memory.close();
    await storage.close();
  });
});
