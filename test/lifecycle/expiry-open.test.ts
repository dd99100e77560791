/**
 * Issue 22: a private memory does not keep due memories on disk indefinitely. Memories whose
 * `expiresAt` is due are erased (not only hidden) by the first call of a memory that opens their
 * namespace, through the delete path of `maintain()` (the checkpoint loses them in the same
 * commit); a namespace with nothing due opens without a scan (the kept `expiresNext` meta value).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { EXPIRY_META_KEY, NO_EXPIRY } from '../../src/memory/expiry-meta.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import type { Logger } from '../../src/util/logger.js';
import { forwardPort, lifecycleFixture, stored, TURNS } from './helpers.js';
import { SHIPPED_STORES, storePlace, type StorePlace } from './stores.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('expiry-open', (e) => (encoder = e));

const SECRET = 'Maya: my Quxlocker code is 4417093.';
/**
 * What no byte of the store may hold once the secret is erased. No needle may be a string that a
 * random id can hold: the code was `4417` once, and a node, edge or generation id (a UUID v4,
 * whose third group is `4xxx`) read `…-4417-…` in about 1 of 150 stores, so the scan "found the
 * secret" after an erasure that was exact (the failure of stop 29, IndexedDB). Seven digits in a
 * row are in no UUID but by a 16⁻⁷ chance per window.
 */
const NEEDLES = ['Quxlocker', 'quxlocker', '4417093'];
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

/** True when `text` holds one of {@link NEEDLES}. */
const holdsSecret = (text: string): boolean => NEEDLES.some((n) => text.includes(n));

/**
 * Where the store keeps one of {@link NEEDLES}: `record`, `part <name>` of the checkpoint, or a
 * file of the SQLite store's directory (empty when erased).
 */
async function secretPlaces(place: StorePlace, storage: StorageAdapter, ns = 'default'): Promise<string[]> {
  const out: string[] = [];
  if (holdsSecret(JSON.stringify(await stored(storage, ns)))) out.push('record');
  const cp = await storage.readCheckpoint(ns);
  for (const [name, p] of Object.entries(cp?.parts ?? {})) if (holdsSecret(Buffer.from(p).toString('latin1'))) out.push(`part ${name}`);
  const files = (d: string): string[] => readdirSync(d).flatMap((name) => (statSync(join(d, name)).isDirectory() ? files(join(d, name)) : [join(d, name)]));
  for (const f of place.dir === undefined ? [] : files(place.dir)) if (holdsSecret(readFileSync(f).toString('latin1'))) out.push(`file ${f.slice(place.dir!.length + 1)}`);
  return out;
}

/** Runs `fn` over a fresh adapter of `place`, closed after it. */
async function inspect<T>(place: StorePlace, fn: (storage: StorageAdapter) => Promise<T>): Promise<T> {
  const storage = await place.open();
  try {
    return await fn(storage);
  } finally {
    await storage.close();
  }
}

/** The namespace's kept expiry bound. */
const kept = (place: StorePlace, ns = 'default'): Promise<unknown> => inspect(place, async (s) => (await s.loadMeta(ns))[EXPIRY_META_KEY]);

describe.each(SHIPPED_STORES)('expired memories at open (%s store)', (kind) => {
  it('are erased from the store, the checkpoint and list() by the first call after the clock passed them', async () => {
    const time = clock(DAY1);
    const place = storePlace(kind, tempDir);
    const a = await createMemory({ encoder, storage: await place.open(), now: time.now });
    await a.add({ text: SECRET, expiresAt: DUE });
    await a.add({ text: 'Theo: the gym pass runs out in March.', expiresAt: LATER });
    await a.add(TURNS[0]!);
    await a.close();
    expect(await kept(place)).toBe(Date.parse(DUE));
    expect(await inspect(place, (s) => secretPlaces(place, s))).not.toEqual([]);

    time.set('2026-01-05T00:00:00.000Z');
    const counting = countingScans(await place.open());
    const b = await createMemory({ encoder, storage: counting, now: time.now });
    const page = await b.list();
    expect(page.memories.map((m) => m.text)).toEqual(['Theo: the gym pass runs out in March.', TURNS[0]!.text]);
    expect(counting.scans).toBe(1); // the one pass over a due namespace
    expect(holdsSecret(JSON.stringify(await b.export()))).toBe(false);
    await b.close();
    // Erased, not hidden: no record, meta value or checkpoint part (no byte of the SQLite files) holds it.
    expect(await inspect(place, (s) => secretPlaces(place, s))).toEqual([]);
    // The next expiry is recorded exactly, so the next open does not scan before March.
    expect(await kept(place)).toBe(Date.parse(LATER));
    const again = countingScans(await place.open());
    const c = await createMemory({ encoder, storage: again, now: time.now });
    expect((await c.list()).memories).toHaveLength(2);
    expect(again.scans).toBe(0);
    await c.close();
  });

  it('a namespace without expiries, or with none due, opens and reads without a scan', async () => {
    const time = clock(DAY1);
    const place = storePlace(kind, tempDir);
    const a = await createMemory({ encoder, storage: await place.open(), now: time.now });
    await a.addMany(TURNS.slice(0, 4));
    await a.add({ text: 'Theo: the gym pass runs out in March.', expiresAt: LATER }, { namespace: 'later' });
    await a.close();
    expect(await kept(place)).toBe(NO_EXPIRY);
    expect(await kept(place, 'later')).toBe(Date.parse(LATER));
    time.set('2026-02-01T00:00:00.000Z');
    const counting = countingScans(await place.open());
    const b = await createMemory({ encoder, storage: counting, now: time.now });
    await b.recall('What did Theo replace on his bike?');
    await b.list();
    await b.stats();
    expect((await b.list({ namespace: 'later' })).memories).toHaveLength(1);
    await b.add({ text: 'Maya: the studio is closed on Mondays.' });
    expect(counting.scans).toBe(0);
    await b.close();
  });

  it('a namespace written before the expiry key is scanned once, which records it', async () => {
    const time = clock(DAY1);
    const place = storePlace(kind, tempDir);
    const warnings: string[] = [];
    const logger: Logger = (_level, message, entry) => void warnings.push(`${entry.code}: ${message}`);
    const a = await createMemory({ encoder, storage: await place.open(), now: time.now, logger });
    await a.add({ text: SECRET, expiresAt: DUE });
    await a.addMany(TURNS.slice(0, 2));
    await a.close();
    await inspect(place, (s) => s.commit('default', { meta: { [EXPIRY_META_KEY]: null } })); // as written before the key
    expect(await kept(place)).toBeUndefined();
    time.set('2026-01-03T00:00:00.000Z');
    const counting = countingScans(await place.open());
    const b = await createMemory({ encoder, storage: counting, now: time.now, logger });
    expect((await b.list()).memories.map((m) => m.text)).toEqual([TURNS[0]!.text, TURNS[1]!.text]);
    expect(counting.scans).toBe(1);
    await b.close();
    expect({ warnings, places: await inspect(place, (s) => secretPlaces(place, s)) }).toEqual({ warnings: [], places: [] });
    expect(await kept(place)).toBe(NO_EXPIRY);
    const again = countingScans(await place.open());
    const c = await createMemory({ encoder, storage: again, now: time.now });
    await c.list();
    expect(again.scans).toBe(0);
    await c.close();
  });

  it('maintain() erases what fell due while the memory was open, and records the next expiry', async () => {
    const time = clock(DAY1);
    const place = storePlace(kind, tempDir);
    const m = await createMemory({ encoder, storage: await place.open(), now: time.now });
    await m.add({ text: SECRET, expiresAt: DUE });
    await m.add({ text: 'Theo: the gym pass runs out in March.', expiresAt: LATER });
    time.set('2026-01-03T00:00:00.000Z');
    expect((await m.list()).memories).toHaveLength(1); // hidden at once
    expect((await m.maintain()).expired).toBe(1);
    await m.close();
    expect(await inspect(place, (s) => secretPlaces(place, s))).toEqual([]);
    expect(await kept(place)).toBe(Date.parse(LATER));
  });
});
