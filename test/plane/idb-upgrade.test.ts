/**
 * Old stores open (issue 22): a database written by the IndexedDB store of commit 446c1c5
 * (version 3, before the one record store) is rebuilt record by record from
 * `fixtures/idb-v3-base.json` (made by `fixtures/make-idb-v3.ts` with that commit's code) and
 * opened with today's store, which upgrades it to version 4 (the kept node counters) and must
 * answer what the old store answered.
 */
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDBFactory } from 'fake-indexeddb';
import { describe, expect, it } from 'vitest';
import { ONE } from '../../src/plane/drivers/record-driver.js';
import { openIdbRecordDriver } from '../../src/plane/drivers/record-idb.js';
import { DB_VERSION, createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { measure, recordBytes } from '../../src/plane/store/record-counters.js';
import { upgradeRecords } from '../../src/plane/store/record-idb-upgrade.js';
import { makeNode } from './fixtures.js';

interface Fixture {
  commit: string;
  version: number;
  stores: Record<string, Array<[IDBValidKey, unknown]>>;
  answers: Record<string, any>;
}

const revive = (_k: string, v: unknown): unknown =>
  typeof v === 'object' && v !== null && Array.isArray((v as { $bytes?: unknown }).$bytes) ? new Uint8Array((v as { $bytes: number[] }).$bytes) : v;
const fixture = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/idb-v3-base.json'), 'utf8'), revive) as Fixture;

function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((done, fail) => {
    r.onsuccess = () => done(r.result);
    r.onerror = () => fail(r.error);
  });
}

/** The version-3 database of the fixture, every record put back raw (the object stores as version 3 made them). */
async function writeBase(factory: IDBFactory): Promise<void> {
  const open = factory.open('jev-mem', fixture.version);
  open.onupgradeneeded = () => {
    const db = open.result;
    db.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
    for (const name of ['node', 'adj', 'edge-ids', 'changes', 'checkpoints', 'spaces']) db.createObjectStore(name);
  };
  const db = await request(open);
  const tx = db.transaction(Object.keys(fixture.stores), 'readwrite');
  for (const [name, records] of Object.entries(fixture.stores)) {
    for (const [key, value] of records) {
      if (name === 'meta') tx.objectStore(name).put(value);
      else tx.objectStore(name).put(value, key);
    }
  }
  await new Promise<void>((done, fail) => {
    tx.oncomplete = () => done();
    tx.onerror = () => fail(tx.error);
  });
  db.close();
}

describe('an IndexedDB database written by commit 446c1c5 (version 3)', () => {
  it('is the fixture it claims to be', () => {
    expect([fixture.commit, fixture.version]).toEqual(['446c1c5', 3]);
    expect(Object.keys(fixture.stores).sort()).toEqual(['adj', 'changes', 'checkpoints', 'edge-ids', 'meta', 'node', 'spaces']);
    expect(fixture.stores['node']).toHaveLength(5);
  });

  it('opens with the one record store and answers every read as the old store did', async () => {
    const factory = new IDBFactory();
    await writeBase(factory);
    const s = await createIdbStorage({ indexedDB: factory, persist: false });
    expect(await s.namespaces()).toEqual(fixture.answers['namespaces']);
    for (const ns of ['chat', 'other', 'meta-only']) {
      const old = fixture.answers[ns];
      expect(await s.load(ns), ns).toEqual(old.load);
      expect(await s.counts(ns), ns).toEqual(old.counts);
      expect((await s.changesSince(ns, 0)) ?? null, ns).toEqual(old.changesSince0);
      expect((await s.changesSince(ns, 1)) ?? null, ns).toEqual(old.changesSince1);
      expect((await s.readCheckpoint(ns)) ?? null, ns).toEqual(old.checkpoint);
      expect(await s.damaged(ns), ns).toEqual({ ids: [], checkpoint: false });
    }
    // by hand: chat holds turns 1, 2, 3, 5 (4 was deleted) and edges 1>2, 2>3 (temporal), 1>3 (semantic), kept-legacy (temporal)
    expect(await s.counts('chat')).toEqual({ nodes: 4, edges: 4, edgesByView: { temporal: 3, semantic: 1 } });
    const sizes = await Promise.all(['chat', 'other', 'meta-only'].map((ns) => s.sizeBytes(ns)));
    await s.close();
    // the size counter the upgrade kept equals a recount of the records
    const driver = await openIdbRecordDriver(factory, 'jev-mem', DB_VERSION, upgradeRecords);
    const recounted = await driver.transaction(['node', 'adj', 'edge-ids', 'meta', 'changes', 'checkpoints', 'spaces'], 'read', (tx) =>
      Promise.all(
        ['chat', 'other', 'meta-only'].map(async (ns) => {
          const [tally, cp, space] = await Promise.all([measure(tx, ns), tx.get('checkpoints', ns, ONE), tx.get('spaces', ns, ONE)]);
          return tally.bytes + (cp === undefined ? 0 : recordBytes(ns, ONE, cp)) + (space === undefined ? 0 : recordBytes(ns, ONE, space));
        }),
      ),
    );
    driver.close();
    expect(sizes).toEqual(recounted);
    expect(sizes.every((n) => n > 0)).toBe(true);
    const raw = await request(factory.open('jev-mem'));
    expect(raw.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBe(5);
    raw.close();
  });

  it('after the upgrade, commits keep the counters, the explicit edge id still deletes its edge, and a reopen needs no upgrade', async () => {
    const factory = new IDBFactory();
    await writeBase(factory);
    const s = await createIdbStorage({ indexedDB: factory, persist: false });
    const first = fixture.answers['chat'].load.nodes[0].id as string;
    await s.commit('chat', { change: 3, putNodes: [makeNode('chat', 'new', 9)], deleteNodeIds: [first], deleteEdgeIds: ['kept-legacy'] });
    // a put of a stored id replaces it: the count does not change
    await s.commit('chat', { change: 4, putNodes: [makeNode('chat', 'new', 9, 'rewritten')] });
    await s.close();
    const again = await createIdbStorage({ indexedDB: factory, persist: false });
    const snap = await again.load('chat');
    expect(snap.nodes).toHaveLength(4);
    expect(snap.nodes.map((n) => n.id)).not.toContain(first);
    expect(snap.edges.map((e) => e.id)).not.toContain('kept-legacy');
    expect(await again.counts('chat')).toEqual({ nodes: 4, edges: 3, edgesByView: { temporal: 2, semantic: 1 } });
    expect(await again.changesSince('chat', 2)).toEqual([first, 'new']);
    await again.close();
  });
});
