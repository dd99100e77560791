/**
 * A SQLite store written before the compact record values (stop 33: BASE f54a82d, record values
 * as JSON, adjacency entries of format 1; `fixtures/make-sqlite-v5.ts`) opens and reads the same
 * nodes, edges, counts, change log and lexical hits; its records are rewritten in the compact
 * format as they are next written (lazily: the others stay as they are and read the same).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BINARY_FORMAT } from '../../src/plane/drivers/record-sql-binary.js';
import { decodeRecordValue, keyOfSql } from '../../src/plane/drivers/record-sql-codec.js';
import { unsealValue } from '../../src/plane/drivers/record-sql-seal.js';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import type { MemoryEdge } from '../../src/types.js';
import { makeEdge, makeNode } from './fixtures.js';
import { memorySqlConnection } from './sql-connection.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/sqlite-v5-f54a82d.sqlite');
const expected = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/sqlite-v5-f54a82d.json'), 'utf8')) as Record<string, any>;
const root = mkdtempSync(join(tmpdir(), 'jev-mem-format2-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const A = 'alpha';
const OLD = '0b0e7a52-3f1c-4d6e-9a8b-1c2d3e4f5a6b';

/** The record format of each row of tables node (0) and adj (1): `tbl key` → 1 or 2. */
function formats(conn: ReturnType<typeof memorySqlConnection>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of conn.query(`SELECT tbl, k, v FROM jev_mem_rec WHERE tbl IN (0, 1) ORDER BY tbl, k`)) {
    out[`${String(r.tbl)} ${String(keyOfSql(r.k))}`] = (unsealValue(r.v as Uint8Array) as Uint8Array)[0] === BINARY_FORMAT ? 2 : 1;
  }
  return out;
}

describe('a SQLite store written by BASE f54a82d (JSON record values)', () => {
  it('reads every node, edge, count, change and lexical hit as before, and rewrites a record in the compact format when it is next written', async () => {
    const path = join(root, 'v5.sqlite');
    copyFileSync(FIXTURE, path);
    const conn = memorySqlConnection(path);
    const store = createSqlRecordStore(conn, { kind: 'sqlite', label: 'the old store', quotaRemedy: 'Free space.', lexical: 'fts5', vacuum: true });
    const loaded = await store.load(A);
    expect(JSON.parse(JSON.stringify(loaded))).toEqual(expected.load);
    expect(loaded.nodes.find((n) => n.id === '7f3e2d1c-0b9a-4876-b543-210fedcba987')!.provenance.metadata).toStrictEqual({
      lone: '\ud800x', nul: '\u0000b0', big: 2 ** 60, neg: -12.5, tiny: 1.2345678901234567e-300, t: true, z: null, list: [1, 'two', { three: 3 }],
    });
    expect(await store.counts(A)).toEqual(expected.counts);
    expect(await store.sizeBytes!(A)).toBe(expected.sizeBytes);
    expect(await store.changesSince(A, 0)).toEqual(expected.changesSince0);
    expect(store.lexicalIndex(A)!.search('Lisbon', 5)).toEqual(expected.lexical);
    expect((await store.damaged(A)).ids).toEqual([]);
    const version = (): unknown => conn.query(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]!.value;
    expect(version()).toBe('5'); // read as it is: a read-only store opens too
    const before = formats(conn);
    expect(new Set(Object.values(before))).toEqual(new Set([1]));

    // A new node with an edge to OLD: the node records written and both adjacency records are format 2.
    const fresh = makeNode(A, 'c1d2e3f4-0000-4000-8000-000000000001', 10, 'A new note about Lisbon.');
    const edge: MemoryEdge = makeEdge(A, `${fresh.id}>${OLD}:temporal:precedes`, fresh.id, OLD, 0.57);
    await store.commit(A, { putNodes: [fresh], putEdges: [edge], change: 2 });
    // The first write marks the layout 8 (7 before the keyed seal): a build of layout 5, 6 or 7 now refuses the store
    // (SCHEMA_MISMATCH) instead of reading its format 2 (keyed, sealed) records as damaged.
    expect(version()).toBe('8');
    const after = formats(conn);
    const rewritten = Object.keys(after).filter((k) => after[k] === 2).sort();
    expect(rewritten).toEqual([`0 ${fresh.id}`, `1 ${OLD}`, `1 ${fresh.id}`]);
    const again = await store.load(A);
    expect(JSON.parse(JSON.stringify({ ...again, nodes: again.nodes.filter((n) => n.id !== fresh.id), edges: again.edges.filter((e) => e.id !== edge.id) }))).toEqual(expected.load);
    expect(again.nodes.find((n) => n.id === fresh.id)).toEqual(fresh);
    expect(again.edges.find((e) => e.id === edge.id)).toEqual(edge);
    // Every stored value of either format still decodes.
    for (const r of conn.query(`SELECT k, v FROM jev_mem_rec`)) expect(() => decodeRecordValue(unsealValue(r.v as Uint8Array), keyOfSql(r.k))).not.toThrow();
    await store.close();
  });
});
