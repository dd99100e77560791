/**
 * Issue 22, "Erasure is exact": after `delete`, `forget`, or an update whose new version is then
 * deleted, no byte the store keeps holds the erased memory: not its text, not its distinctive
 * terms, not its speaker or session name, not its vector (the int8 grid of the node directory and
 * the node rows, the float32 rows of a vector index, raw and normalised). Checked for the SQLite
 * file store (every file in its directory: database, journal, index files, checkpoint parts), for
 * IndexedDB (fake-indexeddb: every record of every object store) and for the memory store (all it
 * returns: nodes, edges, meta, checkpoint, change log). Each scan is first run before the erasure,
 * where it must find the needles, so the test fails when the scan cannot see them.
 *
 * Also: a failure while a delete writes leaves everything as it was (the node there, the
 * checkpoint consistent with the store).
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { normalizedCopy } from '../../src/plane/indexes/vector-math.js';
import { createIdbStorage, DEFAULT_DB_NAME } from '../../src/plane/store/idb-storage.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import type { SqlConnection } from '../../src/plane/drivers/record-sql.js';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import type { StorageAdapter, WriteBatch } from '../../src/plane/store/storage.js';
import type { Observation } from '../../src/types.js';
import { keepOpen, lifecycleFixture, recallView, TURNS } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('erasure', (e) => (encoder = e));

const SPEAKER = 'Quenbyrthia';
const SESSION = 'sess-Plumbrook';
const SECRET: Observation = {
  text: 'Zorblatt smuggled xylophones into Vladivostok aboard the Gribbleship.',
  observedAt: '2023-05-02T09:00:00Z',
  speaker: SPEAKER,
  sessionId: SESSION,
  turnId: 'X:1',
  source: 'chat',
};
/** Words of the secret, and its speaker and session, lower case (every scan is case-blind ASCII). */
const WORDS = ['zorblatt', 'xylophon', 'vladivostok', 'gribbleship', 'quenbyrthia', 'plumbrook'];

/** A store under test: how to open it (again, over the same bytes) and how to read every byte it keeps. */
interface Harness {
  open(): Promise<StorageAdapter>;
  /** Every byte the store keeps, after the memory closed. */
  bytes(): Promise<Uint8Array[]>;
  vectorIndex?: 'flat' | 'hnsw' | 'ann';
}

function sqliteHarness(lexical: 'fts5' | 'minisearch', vectorIndex?: 'flat' | 'hnsw' | 'ann'): () => Harness {
  return () => {
    const dir = tempDir();
    const files = (d: string): string[] => readdirSync(d).flatMap((name) => (statSync(join(d, name)).isDirectory() ? files(join(d, name)) : [join(d, name)]));
    return {
      open: () => createSqliteFileStorage({ dir, lexical }),
      bytes: async () => files(dir).map((f) => new Uint8Array(readFileSync(f))),
      ...(vectorIndex !== undefined ? { vectorIndex } : {}),
    };
  };
}

/** Strings as UTF-8, byte arrays as they are, containers walked (keys too). */
function flatten(value: unknown, out: Uint8Array[]): void {
  if (typeof value === 'string') out.push(new TextEncoder().encode(value));
  else if (value instanceof Uint8Array) out.push(value);
  else if (ArrayBuffer.isView(value)) out.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  else if (value instanceof ArrayBuffer) out.push(new Uint8Array(value));
  else if (Array.isArray(value)) for (const v of value) flatten(v, out);
  else if (value instanceof Map) for (const [k, v] of value) flatten([k, v], out);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) flatten([k, v], out);
}

function idbHarness(): Harness {
  const factory = new IDBFactory();
  return {
    open: () => createIdbStorage({ indexedDB: factory }),
    bytes: async () => {
      const db = await new Promise<IDBDatabase>((done, fail) => {
        const r = factory.open(DEFAULT_DB_NAME);
        r.onsuccess = () => done(r.result);
        r.onerror = () => fail(r.error);
      });
      const out: Uint8Array[] = [];
      for (const name of [...db.objectStoreNames]) {
        const tx = db.transaction(name, 'readonly');
        const store = tx.objectStore(name);
        const [keys, values] = await Promise.all(
          [store.getAllKeys(), store.getAll()].map(
            (r) =>
              new Promise<unknown[]>((done, fail) => {
                r.onsuccess = () => done(r.result as unknown[]);
                r.onerror = () => fail(r.error);
              }),
          ),
        );
        flatten([name, keys, values], out);
      }
      db.close();
      return out;
    },
  };
}

function memoryHarness(): Harness {
  const storage = keepOpen(createMemoryStorage());
  return {
    open: async () => storage,
    bytes: async () => {
      const out: Uint8Array[] = [];
      for (const ns of ['default', 'victim', 'other']) {
        flatten([await storage.load(ns), await storage.readCheckpoint?.(ns), await storage.changesSince?.(ns, 0)], out);
      }
      return out;
    },
  };
}

const STORES: Array<[string, () => Harness]> = [
  ['sqlite (fts5, flat)', sqliteHarness('fts5')],
  ['sqlite (minisearch, hnsw)', sqliteHarness('minisearch', 'hnsw')],
  // The pure-TypeScript HNSW's checkpoint part (issue 25).
  ['sqlite (fts5, ann)', sqliteHarness('fts5', 'ann')],
  ['indexeddb', idbHarness],
  ['memory', memoryHarness],
];

/** The needles of one node: its words, and a window of its vector in each encoding the stores use. */
function needles(vector: readonly number[]): Array<[string, Uint8Array]> {
  const d = vector.length;
  let max = 0;
  for (const x of vector) max = Math.max(max, Math.abs(x));
  const s = Math.fround(max / 127);
  const int8 = Int8Array.from(vector, (x) => Math.max(-127, Math.min(127, Math.round(x / s))));
  const raw = Float32Array.from(vector);
  const unit = normalizedCopy(raw, d);
  const from = Math.floor(d / 3);
  const window = (a: Int8Array | Float32Array, n: number): Uint8Array => new Uint8Array(a.buffer.slice(from * a.BYTES_PER_ELEMENT, (from + n) * a.BYTES_PER_ELEMENT));
  return [
    ...WORDS.map((w): [string, Uint8Array] => [`word ${w}`, new TextEncoder().encode(w)]),
    ['int8 vector', window(int8, 24)],
    ['float32 vector', window(raw, 12)],
    ['float32 unit vector', window(unit, 12)],
  ];
}

function lower(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length);
  for (let i = 0; i < b.length; i++) {
    const c = b[i] as number;
    out[i] = c >= 65 && c <= 90 ? c + 32 : c;
  }
  return out;
}

/** Names of the needles found in any of `chunks` (words case-blind). */
function found(chunks: Uint8Array[], list: Array<[string, Uint8Array]>): string[] {
  const hits = new Set<string>();
  for (const chunk of chunks) {
    const buf = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const low = Buffer.from(lower(chunk));
    for (const [name, needle] of list) if ((name.startsWith('word') ? low : buf).includes(Buffer.from(needle))) hits.add(name);
  }
  return [...hits].sort();
}

async function opened(h: Harness): Promise<{ memory: Memory; storage: StorageAdapter }> {
  const storage = await h.open();
  const memory = await createMemory({ encoder, storage, ...(h.vectorIndex !== undefined ? { vectorIndex: h.vectorIndex } : {}) });
  return { memory, storage };
}

async function closed(o: { memory: Memory; storage: StorageAdapter }): Promise<void> {
  await o.memory.close();
  await o.storage.close();
}

/** Writes the conversation and the secret; returns the secret's id and vector, and checks the scan sees it. */
async function plant(h: Harness, namespace: string, update: boolean | 'old'): Promise<{ id: string; vector: number[] }> {
  const o = await opened(h);
  await o.memory.addMany(TURNS, { namespace });
  if (namespace !== 'other') await o.memory.addMany(TURNS.slice(0, 3), { namespace: 'other' });
  let id: string;
  if (update === 'old') {
    // The secret is the old version: an update supersedes it, then it is deleted (issue 23, history).
    id = (await o.memory.add(SECRET, { namespace })).id;
    // Its own speaker and session: an update keeps the old ones when none are given.
    await o.memory.update(id, { text: 'Maya: I like green tea in the morning.', observedAt: '2023-05-02T08:00:00Z', speaker: 'Maya', sessionId: 's1', source: 'chat' }, { namespace });
  } else if (update) {
    const plain = await o.memory.add({ text: 'Maya: I like green tea in the morning.', observedAt: '2023-05-02T08:00:00Z', speaker: 'Maya', source: 'chat' }, { namespace });
    id = (await o.memory.update(plain.id, SECRET, { namespace })).id;
  } else id = (await o.memory.add(SECRET, { namespace })).id;
  const vector = [...((await o.memory.get(id, { namespace }))?.embedding.vector ?? [])];
  expect(vector.length).toBeGreaterThan(40);
  await closed(o);
  return { id, vector };
}

describe.each(STORES)('erasure: %s', (_name, make) => {
  /** No version history of any memory left holds the secret (issue 23). */
  const noHistoryHolds = async (m: Memory, namespace: string): Promise<void> => {
    const page = await m.list({ namespace, limit: 1000 });
    expect(page.memories.length).toBeGreaterThan(0);
    for (const n of page.memories) for (const v of await m.history(n.id, { namespace })) expect(v.text).not.toContain('Zorblatt');
  };
  const cases: Array<[string, string, boolean | 'old', (m: Memory, id: string) => Promise<void>]> = [
    ['delete', 'default', false, async (m, id) => void expect(await m.delete(id)).toBe(true)],
    ['forget', 'victim', false, async (m) => m.forget('victim')],
    ['update, then delete of the new version', 'default', true, async (m, id) => void expect(await m.delete(id)).toBe(true)],
    [
      'update, then delete of the old version (its text leaves the history)',
      'default',
      'old',
      async (m, id) => {
        const newer = (await m.list({ limit: 1000 })).memories.find((n) => n.text.startsWith('Maya: I like green tea'));
        expect((await m.history(newer!.id)).map((v) => v.text.slice(0, 8))).toEqual(['Zorblatt', 'Maya: I ']);
        expect(await m.delete(id)).toBe(true);
        expect((await m.history(newer!.id)).map((v) => v.text.slice(0, 8))).toEqual(['Maya: I ']);
        await noHistoryHolds(m, 'default');
      },
    ],
  ];
  it.each(cases)('%s leaves no byte of the memory in the store', async (_case, namespace, update, erase) => {
    const h = make();
    const { id, vector } = await plant(h, namespace, update);
    const list = needles(vector);
    // The scan sees the memory while it is stored (else this test could not fail).
    const before = found(await h.bytes(), list);
    expect(before).toEqual(expect.arrayContaining(['int8 vector', 'word gribbleship', 'word quenbyrthia', 'word zorblatt']));
    const o = await opened(h);
    await erase(o.memory, id);
    expect(await o.memory.get(id, { namespace })).toBeUndefined();
    await closed(o);
    expect(found(await h.bytes(), list)).toEqual([]);
    // The rest is intact and recallable after a reopen.
    const again = await opened(h);
    expect((await recallView(again.memory, 'What did Theo replace on his bike?', namespace === 'victim' ? 'other' : namespace)).length).toBeGreaterThan(0);
    expect((await recallView(again.memory, 'Zorblatt xylophones Vladivostok', namespace)).some((r) => r.text.includes('Zorblatt'))).toBe(false);
    await closed(again);
  });
});

/** Storage whose commits fail while `armed` says so; every other method passes through. */
function failing(inner: StorageAdapter, armed: (b: WriteBatch) => boolean): StorageAdapter & { failures: number } {
  const out = Object.create(null) as StorageAdapter & { failures: number };
  for (const key of Object.keys(inner) as Array<keyof StorageAdapter>) {
    const v = inner[key];
    (out as unknown as Record<string, unknown>)[key] = typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(inner) : v;
  }
  out.failures = 0;
  const fail = (what: string): never => {
    out.failures++;
    throw Object.assign(new Error(`injected failure: ${what}`), { code: 'EIO' });
  };
  out.commit = async (ns, b) => {
    // The checkpoint part of a delete fails: in one transaction, so the whole commit fails.
    if (armed(b) && b.checkpoint !== undefined) fail('commit with a checkpoint');
    return inner.commit(ns, b);
  };
  out.writeCheckpoint = async (ns, cp) => (armed({}) ? fail('writeCheckpoint') : inner.writeCheckpoint?.(ns, cp));
  out.dropCheckpoint = async (ns) => (armed({}) ? fail('dropCheckpoint') : inner.dropCheckpoint?.(ns));
  return out;
}

describe('erasure: a failed delete changes nothing', () => {
  it.each([
    ['memory', async () => keepOpen(createMemoryStorage())],
    ['sqlite', async () => keepOpen(await createSqliteFileStorage({ dir: tempDir() }))],
  ] as const)('%s: writing the checkpoint fails, so the node and the checkpoint stay as they were', async (_n, make) => {
    const inner = await make();
    let on = false;
    const storage = failing(inner, () => on);
    const memory = await createMemory({ encoder, storage });
    await memory.addMany(TURNS);
    const { id } = await memory.add(SECRET);
    await memory.close(); // writes the checkpoint
    const before = await inner.readCheckpoint?.('default');
    expect(before).toBeDefined();

    const m2 = await createMemory({ encoder, storage });
    on = true;
    await expect(m2.delete(id)).rejects.toThrow();
    on = false;
    expect(storage.failures).toBeGreaterThan(0);
    expect((await m2.get(id))?.text).toBe(SECRET.text);
    expect((await recallView(m2, 'Zorblatt smuggled xylophones')).map((r) => r.id)).toContain(id);
    expect((await m2.stats()).nodes).toBe(TURNS.length + 1);
    // The checkpoint is the one from before, and a reopen from it (no rescan) has the node.
    expect(await inner.readCheckpoint?.('default')).toEqual(before);
    await m2.close();
    const m3 = await createMemory({ encoder, storage: keepOpen(inner) });
    expect((await m3.stats()).opened.from).toBe('checkpoint');
    expect((await recallView(m3, 'Zorblatt smuggled xylophones')).map((r) => r.id)).toContain(id);
    // Now it can go, and does.
    expect(await m3.delete(id)).toBe(true);
    expect(await m3.get(id)).toBeUndefined();
    await m3.close();
    await inner.reallyClose();
  });
});

describe('erasure: the delete and its checkpoint are one SQL transaction', () => {
  it('a statement writing the checkpoint record fails inside the transaction: the node delete rolls back with it', async () => {
    const dir = tempDir();
    const driver = openNodeSqlDriver(join(dir, 'db.sqlite'));
    let armed = false;
    let failures = 0;
    const CHECKPOINTS = RECORD_TABLES.indexOf('checkpoints');
    const wrapped: SqlConnection = {
      query(sql, params) {
        if (armed && /^INSERT INTO \S*rec\b/i.test(sql.trim()) && params?.[0] === CHECKPOINTS) {
          failures++;
          throw new Error('injected: disk I/O error while writing the checkpoint record');
        }
        return driver.query(sql, params);
      },
      transaction: (fn) => driver.transaction(fn),
      ready: (mode) => driver.ready(mode),
      settle: () => driver.settle(),
    };
    const storage = keepOpen(createSqlRecordStore(wrapped, { kind: 'sqlite', label: 'test store', quotaRemedy: '', lexical: 'minisearch', vacuum: false }));
    const m1 = await createMemory({ encoder, storage });
    await m1.addMany(TURNS);
    const { id } = await m1.add(SECRET);
    await m1.close();
    const before = await storage.readCheckpoint!('default');
    const m2 = await createMemory({ encoder, storage });
    armed = true;
    await expect(m2.delete(id)).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    armed = false;
    expect(failures).toBe(1);
    expect((await storage.getNodes!('default', [id])).map((n) => n.text)).toEqual([SECRET.text]);
    expect(await storage.readCheckpoint!('default')).toEqual(before);
    expect((await m2.get(id))?.text).toBe(SECRET.text);
    await m2.close();
    const m3 = await createMemory({ encoder, storage });
    expect((await m3.stats()).opened.from).toBe('checkpoint');
    expect(await m3.delete(id)).toBe(true);
    await m3.close();
    expect(await storage.getNodes!('default', [id])).toEqual([]);
    await storage.reallyClose();
    driver.close();
  });
});
