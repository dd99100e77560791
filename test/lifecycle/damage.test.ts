/**
 * Damage stays local (issue 22): one damaged node record, a damaged checkpoint or a damaged
 * SQLite page costs the damaged records only. Reads skip and name them (stats().damaged,
 * export().damaged), writes that put records are refused with STORE_DAMAGED naming the ids, a
 * damaged checkpoint is rebuilt from the rows and logged, and `jev-mem check` / `repair` report
 * and salvage.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { createIdbStorage } from '../../src/plane/store/idb-storage.js';
import { toNodeRecord } from '../../src/plane/store/record-codec.js';
import { makeNode } from '../plane/fixtures.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import type { Observation } from '../../src/types.js';
import type { LogEntry } from '../../src/util/logger.js';
import { cli, errorOf, lifecycleFixture, recallView, TURNS } from './helpers.js';

let encoder: Encoder;
/** `tbl` codes of the SQL record driver's table (`RECORD_TABLES` order). */
const NODE = RECORD_TABLES.indexOf('node');
const CHECKPOINTS = RECORD_TABLES.indexOf('checkpoints');
const { tempDir } = lifecycleFixture('damage', (e) => (encoder = e));

const DAMAGED_TEXT = 'Theo: Biscuit learned to fetch the newspaper.';
const OTHER_TEXT = 'Theo: My dog Biscuit chewed the old bike chain.';
const COLOURS = ['amber', 'cobalt', 'crimson', 'jade', 'ochre', 'violet', 'teal', 'silver'];
/** TURNS and 40 short notes after them, so that the node rows fill several pages. */
const MANY: Observation[] = [
  ...TURNS,
  ...Array.from({ length: 40 }, (_, i) => ({ text: `Note ${i}: the ${COLOURS[i % 8]} kite number ${i} flew over hill ${Math.floor(i / 8)}.`, observedAt: new Date(Date.UTC(2023, 5, 1, 9, i)).toISOString(), speaker: 'Maya', sessionId: 's3', source: 'chat' })),
];

/** A store holding TURNS in namespace 'chat', closed (so it has a checkpoint); ids by text. */
async function filledStore(turns: Observation[] = TURNS): Promise<{ dir: string; idOf: Map<string, string> }> {
  const dir = tempDir();
  const m = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat' });
  const results = await m.addMany(turns);
  const idOf = new Map(turns.map((t, i) => [t.text, results[i]!.id]));
  await m.close();
  return { dir, idOf };
}

/** Byte offsets of every occurrence of `needle` in `hay`. */
function occurrences(hay: Uint8Array, needle: string | Buffer): number[] {
  const n = typeof needle === 'string' ? Buffer.from(needle, 'utf8') : needle;
  const out: number[] = [];
  for (let at = Buffer.from(hay).indexOf(n); at >= 0; at = Buffer.from(hay).indexOf(n, at + 1)) out.push(at);
  return out;
}

/**
 * The bytes a node record stores its text as (record-sql-binary.ts): member key `text`
 * (dictionary word 1: varint 4), string tag 6, the UTF-8 length (one byte under 128), the text.
 */
function textBytes(text: string): Buffer {
  const utf8 = Buffer.from(text, 'utf8');
  expect(utf8.length).toBeLessThan(128);
  return Buffer.concat([Buffer.from([4, 6, utf8.length]), utf8]);
}

/** Offset of the stored text of the node with this text (`textBytes`). */
function bodyOffset(file: Uint8Array, text: string): number {
  const n = textBytes(text);
  const at: number[] = [];
  for (let i = Buffer.from(file).indexOf(n); i >= 0; i = Buffer.from(file).indexOf(n, i + 1)) at.push(i);
  expect(at).toHaveLength(1);
  return at[0]! + 3; // first byte of the text itself
}

async function open(dir: string, logs: LogEntry[] = []): Promise<Memory> {
  return createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat', logger: (_level, _message, entry) => logs.push(entry) });
}

describe('a flipped byte in one node record of a SQLite store', () => {
  it('costs that node only: recall, export and delete work for the others, the id is named, puts are refused with STORE_DAMAGED', async () => {
    const { dir, idOf } = await filledStore();
    const path = join(dir, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const at = bodyOffset(file, DAMAGED_TEXT) + 'Theo: Biscuit '.length; // the "l" of "learned"
    expect(String.fromCharCode(file[at]!)).toBe('l');
    file[at] = 'L'.charCodeAt(0); // still valid JSON: only the checksum tells
    writeFileSync(path, file);
    const damagedId = idOf.get(DAMAGED_TEXT)!;
    const otherId = idOf.get(OTHER_TEXT)!;

    const m = await open(dir);
    const hits = await recallView(m, 'What did Biscuit do?');
    expect(hits.map((h) => h.id)).not.toContain(damagedId);
    expect(hits.map((h) => h.id)).toContain(otherId);
    expect(hits.map((h) => h.text)).not.toContain('Theo: Biscuit Learned to fetch the newspaper.');

    const stats = await m.stats();
    expect(stats.damaged).toEqual({ count: 1, ids: [damagedId], checkpoint: false });

    const exported = await m.export();
    expect(exported.damaged).toEqual([damagedId]);
    expect(exported.nodes.map((n) => n.id).sort()).toEqual([...idOf.values()].filter((id) => id !== damagedId).sort());

    const refused = await errorOf(m.add({ text: 'Theo: a new note after the damage.', observedAt: '2023-05-01T10:00:00Z' }));
    expect(isJevMemError(refused, "STORE_DAMAGED"), String((refused as Error).stack)).toBe(true);
    expect((refused as { details: { ids: string[] } }).details.ids).toEqual([damagedId]);
    expect((refused as Error).message).toContain(damagedId);
    expect((await m.export()).nodes).toHaveLength(9); // nothing written

    expect(await m.delete(otherId)).toBe(true);
    expect((await recallView(m, 'bike chain dog')).map((h) => h.id)).not.toContain(otherId);
    expect((await m.export()).nodes).toHaveLength(8);

    // Deleting the damaged node itself clears the damage: its FTS terms are unknown, so the
    // store rebuilds its FTS table from the sound rows, and writes go on.
    expect(await m.delete(damagedId)).toBe(true);
    expect((await m.stats()).damaged).toEqual({ count: 0, ids: [], checkpoint: false });
    const added = await m.add({ text: 'Theo: Biscuit learned to open the fridge.', observedAt: '2023-05-01T10:00:00Z' });
    expect((await recallView(m, 'What did Biscuit learn?')).map((h) => h.id)).toContain(added.id);
    await m.close();
    const store = await createSqliteFileStorage({ dir });
    const lexical = store.lexicalIndex('chat')!;
    expect(lexical.size).toBe(9); // 10 - 2 deleted + 1 added
    expect(lexical.search('newspaper', 5)).toEqual([]);
    expect(lexical.has(damagedId)).toBe(false);
    await store.close();
  });
});

describe('a SQLite store whose record of one node is lost', () => {
  it('costs that node only: recall and export go on for the others (its edges, kept by its neighbours, still name it)', async () => {
    const { dir, idOf } = await filledStore();
    const lostId = idOf.get(DAMAGED_TEXT)!;
    const driver = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
    const key = new TextEncoder().encode(lostId);
    expect(driver.query(`SELECT COUNT(*) AS n FROM jev_mem_rec WHERE tbl = ${NODE} AND k = ?`, [key])[0]!.n).toBe(1);
    driver.transaction(() => driver.query(`DELETE FROM jev_mem_rec WHERE tbl = ${NODE} AND k = ?`, [key]));
    driver.close();

    const m = await open(dir);
    const hits = await recallView(m, 'What did Biscuit do?');
    expect(hits.map((h) => h.id)).toContain(idOf.get(OTHER_TEXT));
    expect(hits.map((h) => h.id)).not.toContain(lostId);
    const exported = await m.export();
    expect(exported.nodes.map((n) => n.id)).not.toContain(lostId);
    expect(exported.nodes).toHaveLength(TURNS.length - 1);
    await m.close();
  });
});

describe('a SQLite store with a damaged page of adjacency records', () => {
  it('costs those edges only: recall goes on over the nodes (it failed with STORE_DAMAGED for the whole namespace)', async () => {
    const { dir, idOf } = await filledStore(MANY);
    const path = join(dir, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const pageSize = file.readUInt16BE(16) === 1 ? 65536 : file.readUInt16BE(16);
    // A table leaf page that holds adjacency records (record-sql-binary.ts: an object of 2 members,
    // key `s` (word 29: varint 116), an array) and no node record (key `id` (word 0), the record's
    // key (tag 9), key `text` (word 1: varint 4), a string (tag 6)).
    const pages = [...new Set(occurrences(file, Buffer.from([0x0c, 2, 116, 0x0b])).map((at) => Math.floor(at / pageSize)))];
    const page = pages.find((p) => file[p * pageSize] === 0x0d && !file.subarray(p * pageSize, (p + 1) * pageSize).includes(Buffer.from([0, 9, 4, 6])));
    expect(page).toBeDefined();
    file[page! * pageSize] = 0x42; // no page type: SQLite calls the file malformed when it reads this page
    writeFileSync(path, file);

    const m = await open(dir);
    const hits = await recallView(m, OTHER_TEXT);
    expect(hits.map((h) => h.id)).toContain(idOf.get(OTHER_TEXT));
    expect((await m.export()).nodes).toHaveLength(MANY.length);
    await m.close();
  });
});

describe('a damaged checkpoint of a SQLite store', () => {
  it('is rebuilt from the rows at open, logged as CHECKPOINT_DAMAGED and reported; recall answers as before and writes go on', async () => {
    const { dir } = await filledStore();
    const before = await open(dir);
    const expected = await recallView(before, 'Where is Maya travelling?');
    expect((await before.stats()).opened.from).toBe('checkpoint');
    await before.close();
    // Flip one byte of the checkpoint record's last part (record-sql-codec.ts: the part bytes follow
    // the JSON), leaving its stored sum as it was.
    const driver = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
    const row = driver.query(`SELECT id, v FROM jev_mem_rec WHERE tbl = ${CHECKPOINTS} AND chunk = 0`)[0]!;
    const data = Uint8Array.from(row.v as Uint8Array);
    expect(data.length).toBeLessThan(1 << 20); // one chunk
    data[data.length - 3] ^= 0x01;
    driver.transaction(() => driver.query(`UPDATE jev_mem_rec SET v = ? WHERE id = ?`, [data, row.id as number]));
    driver.close();

    const logs: LogEntry[] = [];
    const m = await open(dir, logs);
    expect(await recallView(m, 'Where is Maya travelling?')).toEqual(expected);
    const stats = await m.stats();
    expect(stats.opened.from).toBe('scan');
    expect(stats.opened.checkpointDamaged).toBe(true);
    expect(stats.damaged).toEqual({ count: 0, ids: [], checkpoint: true });
    expect(logs.map((l) => l.code)).toContain('CHECKPOINT_DAMAGED');
    await m.add({ text: 'Maya: the checkpoint is derived, so writes go on.', observedAt: '2023-05-01T10:00:00Z' });
    await m.close();
    const again = await open(dir);
    const s = await again.stats();
    expect(s.opened.from).toBe('checkpoint');
    expect(s.damaged).toEqual({ count: 0, ids: [], checkpoint: false });
    expect(s.nodes).toBe(11);
    await again.close();
  });
});

describe('a damaged page of a SQLite store', () => {
  it('costs the rows on that page only: the others are recalled, exported and deleted; puts are refused with STORE_DAMAGED', async () => {
    const { dir, idOf } = await filledStore(MANY);
    const FIRST_TEXT = TURNS[0]!.text; // the first row written: its page is far from the last ones
    const path = join(dir, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const pageSize = file.readUInt16BE(16) === 1 ? 65536 : file.readUInt16BE(16);
    const page = Math.floor(bodyOffset(file, FIRST_TEXT) / pageSize);
    expect(page).toBeGreaterThan(0);
    expect(file[page * pageSize]).toBe(0x0d); // a table leaf page
    file[page * pageSize] = 0x42; // no page type: SQLite calls the file malformed when it reads this page
    writeFileSync(path, file);
    const damagedId = idOf.get(FIRST_TEXT)!;

    const m = await open(dir);
    // Issue 25: stats() reports the damage already detected, with no full pass of its own; the
    // open restored the checkpoint, so nothing was met yet. The export reads every record.
    expect((await m.stats()).damaged).toEqual({ count: 0, ids: [], checkpoint: false });
    const exported = await m.export();
    const stats = await m.stats();
    expect(stats.damaged.ids).toContain(damagedId);
    expect(stats.damaged.count).toBeLessThan(MANY.length);
    const lost = new Set(stats.damaged.ids);
    const kept = [...idOf.values()].filter((id) => !lost.has(id));
    expect(kept.length).toBeGreaterThan(0);

    expect(exported.damaged).toEqual(stats.damaged.ids);
    expect(exported.nodes.map((n) => n.id).sort()).toEqual([...kept].sort());

    const keptText = MANY.find((t) => idOf.get(t.text) === kept[0])!.text;
    expect((await recallView(m, keptText)).map((h) => h.id)).toContain(kept[0]);

    const refused = await errorOf(m.add({ text: 'Theo: a new note after the damage.', observedAt: '2023-05-01T10:00:00Z' }));
    expect(isJevMemError(refused, "STORE_DAMAGED"), String((refused as Error).stack)).toBe(true);
    const named = (refused as { details: { ids: string[] } }).details.ids;
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) expect(stats.damaged.ids).toContain(id);

    // A delete rebalances its page with its neighbours: delete the node stored farthest from the damaged page.
    const pageOf = (id: string): number => Math.floor(bodyOffset(file, MANY.find((t) => idOf.get(t.text) === id)!.text) / pageSize);
    const far = [...kept].sort((a, b) => Math.abs(pageOf(b) - page) - Math.abs(pageOf(a) - page))[0]!;
    expect(Math.abs(pageOf(far) - page)).toBeGreaterThan(1);
    expect(await m.delete(far)).toBe(true);
    expect((await m.export()).nodes.map((n) => n.id)).not.toContain(far);
    expect((await m.export()).nodes).toHaveLength(kept.length - 1);
    await m.close();

    // jev-mem check names the rows and SQLite's own findings; repair keeps every readable node.
    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    const report = JSON.parse(check.out[0]!) as { clean: boolean; namespaces: Array<{ ids: string[] }>; sqlite: string[] };
    expect(report.clean).toBe(false);
    expect(report.namespaces[0]!.ids).toEqual(stats.damaged.ids);
    expect(report.sqlite.length).toBeGreaterThan(0);
    expect((await cli(['repair', '--store', dir])).code).toBe(0);
    const after = await cli(['check', '--store', dir]);
    expect([after.code, JSON.parse(after.out[0]!).sqlite]).toEqual([0, []]);
    const repaired = await open(dir);
    expect((await repaired.export()).nodes.map((n) => n.id).sort()).toEqual(kept.filter((id) => id !== far).sort());
    expect((await repaired.stats()).damaged.count).toBe(0);
    await repaired.close();
  });
});

/** Runs `change` on the record `key` of `store` in the raw IndexedDB database `name`. */
async function rawUpdate(factory: IDBFactory, name: string, store: string, key: IDBValidKey, change: (value: any) => void): Promise<void> {
  const db = await new Promise<IDBDatabase>((done, fail) => {
    const req = factory.open(name);
    req.onsuccess = () => done(req.result);
    req.onerror = () => fail(req.error);
  });
  await new Promise<void>((done, fail) => {
    const tx = db.transaction(store, 'readwrite');
    const req = tx.objectStore(store).get(key);
    req.onsuccess = () => {
      const value = req.result;
      change(value);
      tx.objectStore(store).put(value, key);
    };
    tx.oncomplete = () => done();
    tx.onerror = () => fail(tx.error);
  });
  db.close();
}

describe('an IndexedDB store with a flipped byte', () => {
  it('in one node record costs that node only: recall, export and delete work for the others, the id is named, puts are refused with STORE_DAMAGED', async () => {
    const factory = new IDBFactory();
    const storage = async () => createIdbStorage({ indexedDB: factory, dbName: 'damage' });
    const setup = await createMemory({ encoder, storage: await storage(), namespace: 'chat' });
    const results = await setup.addMany(TURNS);
    await setup.close();
    const idOf = new Map(TURNS.map((t, i) => [t.text, results[i]!.id]));
    const damagedId = idOf.get(DAMAGED_TEXT)!;
    const otherId = idOf.get(OTHER_TEXT)!;
    await rawUpdate(factory, 'damage', 'node', ['chat', damagedId], (record) => {
      record.text = record.text.replace('learned', 'Learned');
    });

    const m = await createMemory({ encoder, storage: await storage(), namespace: 'chat' });
    const hits = await recallView(m, 'What did Biscuit do?');
    expect(hits.map((h) => h.id)).not.toContain(damagedId);
    expect(hits.map((h) => h.id)).toContain(otherId);
    expect((await m.stats()).damaged).toEqual({ count: 1, ids: [damagedId], checkpoint: false });
    const exported = await m.export();
    expect(exported.damaged).toEqual([damagedId]);
    expect(exported.nodes).toHaveLength(9);
    const refused = await errorOf(m.add({ text: 'Theo: a new note after the damage.', observedAt: '2023-05-01T10:00:00Z' }));
    expect(isJevMemError(refused, 'STORE_DAMAGED')).toBe(true);
    expect((refused as { details: { ids: string[] } }).details.ids).toEqual([damagedId]);
    expect(await m.delete(otherId)).toBe(true);
    expect((await m.export()).nodes.map((n) => n.id)).not.toContain(otherId);
    await m.close();
  });

  it('in a checkpoint part is rebuilt from the records at open and logged as CHECKPOINT_DAMAGED', async () => {
    const factory = new IDBFactory();
    const storage = async () => createIdbStorage({ indexedDB: factory, dbName: 'damage-cp' });
    const setup = await createMemory({ encoder, storage: await storage(), namespace: 'chat' });
    await setup.addMany(TURNS);
    const expected = await recallView(setup, 'Where is Maya travelling?');
    await setup.close();
    await rawUpdate(factory, 'damage-cp', 'checkpoints', 'chat', (record) => {
      const part = record.parts['book.json'] as Uint8Array;
      part[Math.floor(part.length / 2)] ^= 0x01;
    });
    const logs: LogEntry[] = [];
    const m = await createMemory({ encoder, storage: await storage(), namespace: 'chat', logger: (_l, _m, entry) => logs.push(entry) });
    expect(await recallView(m, 'Where is Maya travelling?')).toEqual(expected);
    const stats = await m.stats();
    expect([stats.opened.from, stats.opened.checkpointDamaged]).toEqual(['scan', true]);
    expect(stats.damaged).toEqual({ count: 0, ids: [], checkpoint: true });
    expect(logs.map((l) => l.code)).toContain('CHECKPOINT_DAMAGED');
    await m.close();
  });
});

describe('a SQLite store of schema v2 (before checksums)', () => {
  it('is imported into the record table: every node record gets its sum, and a byte flipped after the import is found', async () => {
    // The v4 fixture written by BASE's SQL store (test/plane/fixtures/make-sqlite-v4.ts), taken back to the v2 layout.
    const dir = tempDir();
    mkdirSync(dir, { recursive: true });
    const path = join(dir, SQLITE_FILE_NAME);
    copyFileSync(join(import.meta.dirname, '../plane/fixtures/sqlite-v4-base.sqlite'), path);
    const driver = openNodeSqlDriver(path);
    driver.transaction(() => {
      driver.query('ALTER TABLE jev_mem_node DROP COLUMN sum');
      driver.query('ALTER TABLE jev_mem_checkpoint_part DROP COLUMN sum');
      driver.query('DROP TABLE jev_mem_stat'); // the kept counts of v4 (issue 25)
      driver.query(`UPDATE jev_mem_schema SET value = '2' WHERE key = 'version'`);
    });
    driver.close();
    const upgraded = await createSqliteFileStorage({ dir });
    expect((await upgraded.load('alpha')).nodes.map((n) => n.id)).toEqual(['a1', 'a2']);
    expect((await upgraded.damaged('alpha')).ids).toEqual([]);
    await upgraded.close();
    const check = openNodeSqlDriver(path);
    expect(check.query(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]!.value).toBe('8');
    expect(check.query(`SELECT name FROM sqlite_master WHERE name = 'jev_mem_node'`)).toEqual([]);
    check.close();

    const file = readFileSync(path);
    const at = bodyOffset(file, 'Maya is travelling to Lisbon in June.') + 'Maya is travelling to '.length;
    expect(String.fromCharCode(file[at]!)).toBe('L');
    file[at] = 'l'.charCodeAt(0);
    writeFileSync(path, file);
    const reopened = await createSqliteFileStorage({ dir });
    expect((await reopened.load('alpha')).nodes.map((n) => n.id)).toEqual(['a2']);
    expect((await reopened.damaged('alpha')).ids).toEqual(['a1']);
    await reopened.close();
  });
});

describe('an IndexedDB database of version 2 (before checksums)', () => {
  it('is upgraded: every node record and checkpoint gets its sums, and a record changed afterwards is found', async () => {
    const factory = new IDBFactory();
    // The version-2 layout, written raw: records without sums.
    const db = await new Promise<IDBDatabase>((done, fail) => {
      const req = factory.open('v2', 2);
      req.onupgradeneeded = () => {
        const d = req.result;
        d.createObjectStore('meta', { keyPath: ['namespace', 'key'] }).createIndex('by-namespace', 'namespace');
        for (const name of ['node', 'adj', 'edge-ids', 'changes', 'checkpoints', 'spaces']) d.createObjectStore(name);
      };
      req.onsuccess = () => done(req.result);
      req.onerror = () => fail(req.error);
    });
    await new Promise<void>((done, fail) => {
      const tx = db.transaction(['node', 'checkpoints'], 'readwrite');
      for (const [id, seq] of [['a', 1], ['b', 2]] as const) {
        const { sum: _sum, ...record } = toNodeRecord(makeNode('ns', id, seq, `text of ${id}`));
        tx.objectStore('node').put(record, ['ns', id]);
      }
      tx.objectStore('checkpoints').put({ change: 0, format: 'test@1', parts: { a: new Uint8Array([1, 2, 3]) } }, 'ns');
      tx.oncomplete = () => done();
      tx.onerror = () => fail(tx.error);
    });
    db.close();

    const upgraded = await createIdbStorage({ indexedDB: factory, dbName: 'v2' });
    expect((await upgraded.getNodes('ns', ['a', 'b'])).map((n) => n.text)).toEqual(['text of a', 'text of b']);
    expect(Array.from((await upgraded.readCheckpoint!('ns'))!.parts.a!)).toEqual([1, 2, 3]);
    expect(await upgraded.damaged('ns')).toEqual({ ids: [], checkpoint: false });
    await upgraded.close();
    let stored: { sum?: number } = {};
    await rawUpdate(factory, 'v2', 'node', ['ns', 'b'], (record) => {
      stored = { ...record };
      record.text = 'text of B';
    });
    expect(typeof stored.sum).toBe('number');
    let sums: Record<string, number> | undefined;
    await rawUpdate(factory, 'v2', 'checkpoints', 'ns', (record) => {
      sums = record.sums;
    });
    expect(Object.keys(sums ?? {})).toEqual(['a']);
    const reopened = await createIdbStorage({ indexedDB: factory, dbName: 'v2' });
    expect((await reopened.getNodes('ns', ['a', 'b'])).map((n) => n.id)).toEqual(['a']);
    expect(await reopened.damaged('ns')).toEqual({ ids: ['b'], checkpoint: false });
    await reopened.close();
  });
});
