/**
 * The import of a SQL store of layout v4 (written by BASE 27aa880's SQL store,
 * `fixtures/make-sqlite-v4.ts`) into the record table (issue 22): every node, edge, meta key,
 * count, checkpoint and change-log answer reads back as the old store gave it, the FTS5 index
 * finds what it found, the old tables are gone, and the deleted node's text is in no byte of the
 * file after the import's VACUUM.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import { memorySqlConnection } from './sql-connection.js';

const FIXTURE = join(import.meta.dirname, 'fixtures/sqlite-v4-base.sqlite');
const expected = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures/sqlite-v4-base.json'), 'utf8')) as Record<string, any>;
const root = mkdtempSync(join(tmpdir(), 'jev-mem-legacy-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const b64 = (u: Uint8Array): string => Buffer.from(u).toString('base64');

describe('a SQLite store of layout v4', () => {
  it('opens on the record tables with every record, count, checkpoint and change-log answer as before, and keeps no old table or erased text', async () => {
    const path = join(root, 'v4.sqlite');
    copyFileSync(FIXTURE, path);
    expect(readFileSync(path).includes(Buffer.from('Theo adopted a dog'))).toBe(true); // the old tables are there
    const conn = memorySqlConnection(path);
    const store = createSqlRecordStore(conn, { kind: 'sqlite', label: 'the imported store', quotaRemedy: 'Free space.', lexical: 'fts5', vacuum: true });
    expect(await store.namespaces()).toEqual(['alpha', 'tenant:beta']);
    for (const ns of ['alpha', 'tenant:beta']) {
      const want = expected[ns];
      expect(JSON.parse(JSON.stringify(await store.load(ns))), ns).toEqual(want.load);
      expect(await store.counts(ns), ns).toEqual(want.counts);
      expect(await store.changesSince(ns, 0), ns).toEqual(want.changesSince0);
      expect(await store.changesSince(ns, 1), ns).toEqual(want.changesSince1);
      const cp = await store.readCheckpoint(ns);
      expect(cp === undefined ? null : { change: cp.change, format: cp.format, parts: Object.fromEntries(Object.entries(cp.parts).map(([k, v]) => [k, b64(v)])) }, ns).toEqual(want.checkpoint);
      expect(store.lexicalIndex(ns)!.search('Biscuit dog', 5).map((h) => h.id), ns).toEqual(want.lexical.map((h: { id: string }) => h.id));
      expect((await store.damaged(ns)).ids, ns).toEqual([]);
    }
    // explicit edge ids and vectors came over exactly
    const alpha = await store.load('alpha');
    expect(alpha.edges.map((e) => e.id).sort()).toEqual(['a1>a2:temporal:precedes', 'explicit-edge', 'second-explicit']);
    expect((await store.getNodes('alpha', ['a2']))[0]!.embedding.vector).toEqual([0.25, -0.5, 0.75]);
    expect(await store.getNodes('alpha', ['a-gone'])).toEqual([]);
    expect(await store.sizeBytes('alpha')).toBeGreaterThan(0);
    // the old tables are gone; the layout is 5
    const tables = conn.query(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).map((r) => String(r.name));
    expect(tables.filter((n) => /^jev_mem_(names|ids|node|edge|dict|kv|changes|checkpoint|checkpoint_part|stat|fts\d+_\d+)$/.test(n))).toEqual([]);
    expect(conn.query(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]!.value).toBe('8');
    // writes go on, and the next open needs no import
    await store.commit('alpha', { deleteNodeIds: ['a1'], change: 3 });
    expect(await store.changesSince('alpha', 2)).toEqual(['a1']);
    await store.close();
    conn.close();
    const bytes = readFileSync(path);
    expect(bytes.includes(Buffer.from('zanzibarquux'))).toBe(false);
    expect(bytes.includes(Buffer.from('Maya is travelling'))).toBe(false); // a1, deleted after the import
    const again = memorySqlConnection(path);
    const reopened = createSqlRecordStore(again, { kind: 'sqlite', label: 'the imported store', quotaRemedy: 'Free space.', lexical: 'fts5', vacuum: true });
    expect((await reopened.load('alpha')).nodes.map((n) => n.id)).toEqual(['a2']);
    expect(reopened.lexicalIndex('alpha')!.search('Biscuit', 5).map((h) => h.id)).toEqual(['a2']);
    await reopened.close();
    again.close();
  });
});
