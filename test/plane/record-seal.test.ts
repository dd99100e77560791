/**
 * Every value of the SQL record driver is sealed with the CRC-32 of its stored bytes (layout 7,
 * issue 22) and, since layout 8, of the key it was put under (h-break15 finding 1), on the driver
 * the Node SQLite store and the Durable Object store share: a changed byte in a record of any
 * table is found and named, and the store goes on without it. A store of layout 6 (values
 * without the seal) or 7 (sealed without the key) opens and reads as before, and its records are
 * keyed as they are next written.
 */
import { describe, expect, it } from 'vitest';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { encodeRecordValue } from '../../src/plane/drivers/record-sql-codec.js';
import { KEYED, SEALED, sealValue, unsealValue } from '../../src/plane/drivers/record-sql-seal.js';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import type { StorageAdapter } from '../../src/plane/store/storage.js';
import { makeEdge, makeNode } from './fixtures.js';
import { memorySqlConnection } from './sql-connection.js';

const A = 'alpha';
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
type Conn = ReturnType<typeof memorySqlConnection>;

function storeOn(conn: Conn): StorageAdapter {
  return createSqlRecordStore(conn, { kind: 'sqlite', label: 'the test store', quotaRemedy: 'Free space.', lexical: 'fts5', vacuum: false });
}

/** A store of three nodes a → b → c, an edge with an explicit id, meta and two changes. */
async function filled(conn: Conn): Promise<StorageAdapter> {
  const store = storeOn(conn);
  const [a, b, c] = ['a', 'b', 'c'].map((id, i) => makeNode(A, id, i + 1));
  await store.commit(A, { putNodes: [a!, b!, c!], putEdges: [makeEdge(A, 'a>b:temporal:precedes', 'a', 'b'), makeEdge(A, 'b>c:temporal:precedes', 'b', 'c')], meta: { schemaVersion: 1, note: 'x' }, change: 1 });
  await store.commit(A, { putEdges: [makeEdge(A, 'explicit-1', 'a', 'c')], change: 2 });
  return store;
}

/** The first byte of each stored value, by `tbl key`. */
function firstBytes(conn: Conn): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of conn.query('SELECT tbl, k, v FROM jev_mem_rec')) out[`${RECORD_TABLES[Number(r.tbl)]} ${r.k instanceof Uint8Array ? new TextDecoder().decode(r.k) : String(r.k)}`] = (r.v as Uint8Array)[0]!;
  return out;
}

/** Flips one bit in the middle of the stored value of `(table, A, key)`. */
function flip(conn: Conn, table: (typeof RECORD_TABLES)[number], key: string | number): void {
  const rows = conn.query('SELECT id, v FROM jev_mem_rec WHERE tbl = ? AND ns = ? AND k = ?', [RECORD_TABLES.indexOf(table), utf8(A), typeof key === 'string' ? utf8(key) : key]);
  expect(rows).toHaveLength(1);
  const v = new Uint8Array(rows[0]!.v as Uint8Array);
  v[v.length >> 1] = v[v.length >> 1]! ^ 0x10;
  conn.query('UPDATE jev_mem_rec SET v = ? WHERE id = ?', [v, rows[0]!.id as number]);
}

describe('the seal of every SQL record value', () => {
  it('covers every table: a flipped bit in an edge-id record or a change list is named, and the change log answers "not whole"', async () => {
    const conn = memorySqlConnection();
    const sound = await filled(conn);
    const before = await sound.load(A);
    expect(Object.values(firstBytes(conn)).every((b) => b === KEYED)).toBe(true);
    await sound.close();
    flip(conn, 'edge-ids', 'explicit-1');
    flip(conn, 'changes', 1);
    const store = storeOn(conn);
    // The explicit edge is still read from its ends' adjacency records: only its id record is lost.
    expect((await store.load(A)).edges.map((e) => e.id).sort()).toEqual(before.edges.map((e) => e.id).sort());
    expect(await store.changesSince(A, 0)).toBeUndefined();
    expect(await store.damaged(A)).toEqual({ ids: [], checkpoint: false, records: ['changes:1', 'edge-ids:explicit-1'] });
    await store.close();
  });

  it.each([
    ['6', 'no seals', (v: Uint8Array): Uint8Array => unsealValue(v) as Uint8Array],
    ['7', 'sealed without their keys', (v: Uint8Array): Uint8Array => sealValue(unsealValue(v) as Uint8Array)],
  ])('a store of layout %s (%s) opens and reads as before; a written record is keyed and the layout marked 8', async (layout, _what, asStored) => {
    const conn = memorySqlConnection();
    const sound = await filled(conn);
    const before = await sound.load(A);
    const counts = await sound.counts(A);
    await sound.close();
    // As a build of that layout wrote it: every value without its key part (and without its seal for 6).
    for (const r of conn.query('SELECT id, v FROM jev_mem_rec')) conn.query('UPDATE jev_mem_rec SET v = ? WHERE id = ?', [asStored(r.v as Uint8Array), r.id as number]);
    conn.query(`UPDATE jev_mem_schema SET value = ? WHERE key = 'version'`, [layout]);
    expect(Object.values(firstBytes(conn)).some((b) => b === KEYED)).toBe(false);
    expect(Object.values(firstBytes(conn)).every((b) => (b === SEALED) === (layout === '7'))).toBe(true);

    const store = storeOn(conn);
    expect(await store.load(A)).toEqual(before);
    expect(await store.counts(A)).toEqual(counts);
    expect(await store.damaged(A)).toEqual({ ids: [], checkpoint: false });
    expect(conn.query(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]!.value).toBe(layout);
    await store.commit(A, { putNodes: [makeNode(A, 'd', 4)], putEdges: [makeEdge(A, 'c>d:temporal:precedes', 'c', 'd')], change: 3 });
    expect(conn.query(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]!.value).toBe('8');
    const bytes = firstBytes(conn);
    expect(bytes['node d']).toBe(KEYED);
    expect(bytes['adj c']).toBe(KEYED);
    expect(bytes['adj d']).toBe(KEYED);
    expect(bytes['node a']).not.toBe(KEYED); // the others stay as they are until written
    expect((await store.load(A)).nodes.map((n) => n.id)).toEqual(['a', 'b', 'c', 'd']);
    await store.close();
  });

  it('an unsealed adjacency record (layout 6) that does not decode is named, not a failure of the namespace', async () => {
    const conn = memorySqlConnection();
    await (await filled(conn)).close();
    conn.query(`UPDATE jev_mem_schema SET value = '6' WHERE key = 'version'`);
    // A record that decodes as a value but whose packed entries refer to strings it lacks
    // (the review's "adjacency record of … refers to time 24 of 6").
    const broken = encodeRecordValue({ s: [], b: new Uint8Array([0x82, 5, 9, 9, 9, 9]) });
    conn.query('UPDATE jev_mem_rec SET v = ? WHERE tbl = ? AND ns = ? AND k = ?', [broken, RECORD_TABLES.indexOf('adj'), utf8(A), utf8('b')]);
    const store = storeOn(conn);
    const edges = (await store.load(A)).edges.map((e) => e.id).sort();
    // b's own out-edge b → c is read from c's in-entries.
    expect(edges).toEqual(['a>b:temporal:precedes', 'b>c:temporal:precedes', 'explicit-1']);
    // And b's edges, asked by id, from the records at their other ends (a's out-entry, c's in-entry).
    expect((await store.getEdges(A, ['b'])).map((e) => e.id).sort()).toEqual(['a>b:temporal:precedes', 'b>c:temporal:precedes']);
    expect((await store.damaged(A)).records).toEqual(['adj:b']);
    await store.close();
  });

  it('sealValue puts the CRC-32 of the value bytes after the SEALED byte (big-endian)', () => {
    const sealed = sealValue(new TextEncoder().encode('123456789'));
    // 0xCBF43926: the CRC-32 check value of "123456789".
    expect([...sealed.subarray(0, 5)]).toEqual([SEALED, 0xcb, 0xf4, 0x39, 0x26]);
  });
});
