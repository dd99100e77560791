/**
 * Issue 22: a private memory does not keep due memories on disk indefinitely. Memories whose
 * `expiresAt` is due are erased (not only hidden) by the first call of a memory that opens their
 * namespace, through the delete path of `maintain()` (the checkpoint loses them in the same
 * commit); a namespace with nothing due opens without a scan (the kept `expiresNext` meta value).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { EXPIRY_META_KEY, NO_EXPIRY } from '../../src/memory/expiry-meta.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { forwardPort, keepOpen, lifecycleFixture, stored, TURNS } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('expiry-open', (e) => (encoder = e));

const SECRET = 'Maya: my locker code is 4417.';
const DAY1 = '2026-01-01T00:00:00.000Z';
const DUE = '2026-01-02T00:00:00.000Z';
const LATER = '2026-03-01T00:00:00.000Z';

/** A clock the test moves. */
function clock(start: string): { now: () => Date; set(iso: string): void } {
  let t = Date.parse(start);
  return { now: () => new Date(t), set: (iso) => (t = Date.parse(iso)) };
}

/** `inner` with its `scanNodes` calls counted. */
function countingScans(inner: StorageAdapter): StorageAdapter & { scans: number } {
  const out = forwardPort(inner, {
    scans: 0,
    scanNodes: (ns: string, batch: number) => {
      out.scans++;
      return inner.scanNodes(ns, batch);
    },
  });
  return out;
}

/** Every byte the store keeps for the namespace that could hold a text: records, meta and checkpoint parts. */
async function storedText(storage: StorageAdapter, ns = 'default'): Promise<string> {
  const cp = await storage.readCheckpoint(ns);
  const parts = cp === undefined ? [] : Object.values(cp.parts).map((p) => Buffer.from(p).toString('latin1'));
  return JSON.stringify(await stored(storage, ns)) + parts.join('');
}

describe('expired memories at open', () => {
  it('are erased from the store, the checkpoint and list() by the first call after the clock passed them', async () => {
    const time = clock(DAY1);
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage, now: time.now });
    await a.add({ text: SECRET, expiresAt: DUE });
    await a.add({ text: 'Theo: the gym pass runs out in March.', expiresAt: LATER });
    await a.add(TURNS[0]!);
    await a.close();
    expect((await storage.loadMeta('default'))[EXPIRY_META_KEY]).toBe(Date.parse(DUE));
    expect(await storedText(storage)).toContain('4417');

    time.set('2026-01-05T00:00:00.000Z');
    const counting = countingScans(storage);
    const b = await createMemory({ encoder, storage: counting, now: time.now });
    const page = await b.list();
    expect(page.memories.map((m) => m.text)).toEqual(['Theo: the gym pass runs out in March.', TURNS[0]!.text]);
    expect(counting.scans).toBe(1); // the one pass over a due namespace
    // Erased, not hidden: no record, meta value or checkpoint part of the store holds the text.
    expect(await storedText(storage)).not.toContain('4417');
    expect(JSON.stringify(await b.export())).not.toContain('4417');
    // The next expiry is recorded exactly, so the next open does not scan before March.
    expect((await storage.loadMeta('default'))[EXPIRY_META_KEY]).toBe(Date.parse(LATER));
    await b.close();
    const c = await createMemory({ encoder, storage: counting, now: time.now });
    expect((await c.list()).memories).toHaveLength(2);
    expect(counting.scans).toBe(1);
    await c.close();
  });

  it('a namespace without expiries, or with none due, opens and reads without a scan', async () => {
    const time = clock(DAY1);
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage, now: time.now });
    await a.addMany(TURNS.slice(0, 4));
    await a.add({ text: 'Theo: the gym pass runs out in March.', expiresAt: LATER }, { namespace: 'later' });
    await a.close();
    expect((await storage.loadMeta('default'))[EXPIRY_META_KEY]).toBe(NO_EXPIRY);
    expect((await storage.loadMeta('later'))[EXPIRY_META_KEY]).toBe(Date.parse(LATER));
    time.set('2026-02-01T00:00:00.000Z');
    const counting = countingScans(storage);
    const b = await createMemory({ encoder, storage: counting, now: time.now });
    await b.recall('What did Theo replace on his bike?');
    await b.list();
    await b.stats();
    await b.list({ namespace: 'later' });
    await b.add({ text: 'Maya: the studio is closed on Mondays.' });
    expect(counting.scans).toBe(0);
    await b.close();
  });

  it('a namespace written before the expiry key is scanned once, which records it', async () => {
    const time = clock(DAY1);
    const storage = keepOpen(createMemoryStorage());
    const a = await createMemory({ encoder, storage, now: time.now });
    await a.add({ text: SECRET, expiresAt: DUE });
    await a.addMany(TURNS.slice(0, 2));
    await a.close();
    await storage.commit('default', { meta: { [EXPIRY_META_KEY]: null } }); // as written before the key
    time.set('2026-01-03T00:00:00.000Z');
    const counting = countingScans(storage);
    const b = await createMemory({ encoder, storage: counting, now: time.now });
    expect((await b.list()).memories.map((m) => m.text)).toEqual([TURNS[0]!.text, TURNS[1]!.text]);
    expect(counting.scans).toBe(1);
    expect(await storedText(storage)).not.toContain('4417');
    expect((await storage.loadMeta('default'))[EXPIRY_META_KEY]).toBe(NO_EXPIRY);
    await b.close();
    const c = await createMemory({ encoder, storage: counting, now: time.now });
    await c.list();
    expect(counting.scans).toBe(1);
    await c.close();
  });

  it('maintain() erases what fell due while the memory was open, and records the next expiry', async () => {
    const time = clock(DAY1);
    const storage = keepOpen(createMemoryStorage());
    const m = await createMemory({ encoder, storage, now: time.now });
    await m.add({ text: SECRET, expiresAt: DUE });
    await m.add({ text: 'Theo: the gym pass runs out in March.', expiresAt: LATER });
    time.set('2026-01-03T00:00:00.000Z');
    expect((await m.list()).memories).toHaveLength(1); // hidden at once
    expect((await m.maintain()).expired).toBe(1);
    expect(await storedText(storage)).not.toContain('4417');
    expect((await storage.loadMeta('default'))[EXPIRY_META_KEY]).toBe(Date.parse(LATER));
    await m.close();
  });
});
