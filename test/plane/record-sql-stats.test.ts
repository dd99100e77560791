/**
 * The kept counts of the record store on Node's SQLite (issue 25, issue 22): `stats()` reads no
 * node record (O(1)); records the kept counter says exist but no read reaches are named by the
 * full damage pass and by `jev-mem check`. (That the kept counts equal a recount after any
 * sequence of commits is record-counters.test.ts, run on the SQL driver too.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { createMemory } from '../../src/memory.js';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { createSqlRecordStore } from '../../src/plane/store/sql-record-store.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { crashEncoder } from '../lifecycle/fixtures/crash-encoder.js';
import { memorySqlConnection } from './sql-connection.js';

const NODE = RECORD_TABLES.indexOf('node');
const dirs: string[] = [];
const newDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'jev-sql-stats-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('the kept counts of the record store over SQL', () => {
  it('stats() reads no node record of the namespace (O(1), issue 25)', async () => {
    const conn = memorySqlConnection();
    const seen: Array<{ sql: string; params: readonly unknown[] }> = [];
    const spy = { ...conn, query: (sql: string, params: readonly (string | number | Uint8Array | null)[] = []) => (seen.push({ sql, params }), conn.query(sql, params)) };
    const storage = createSqlRecordStore(spy, { kind: 'sqlite', label: 'spied store', quotaRemedy: '', lexical: 'fts5', vacuum: false });
    const m = await createMemory({ encoder: crashEncoder, storage, namespace: 'ns', logger: () => undefined, parameters: { maintenanceInterval: 0 } });
    await m.addMany(['the keeper logged three ships', 'a storm came in at dawn', 'the lamp was lit at dusk'].map((text) => ({ text })));
    seen.length = 0;
    const s = await m.stats();
    expect([s.nodes, s.damaged.count]).toEqual([3, 0]);
    const nodeReads = seen.filter((q) => /FROM jev_mem_rec\b/.test(q.sql) && q.params[0] === NODE);
    expect(nodeReads, JSON.stringify(nodeReads.map((q) => q.sql))).toEqual([]);
    expect(s.edges).toBe((await storage.load('ns')).edges.length);
    expect(s.edges).toBeGreaterThan(0);
    await m.close();
    conn.close();
  });
});

describe('records the kept counter says exist but no read reaches', () => {
  it('are named by the full pass of damaged() and by jev-mem check ("N records unreadable"), not hidden', async () => {
    const dir = newDir();
    const m = await createMemory({ encoder: crashEncoder, storage: await createSqliteFileStorage({ dir, logger: () => undefined }), namespace: 'a', logger: () => undefined, parameters: { maintenanceInterval: 0 } });
    await m.addMany(['one note', 'two notes', 'three notes', 'four notes'].map((text) => ({ text })));
    await m.close();
    // Two node records vanish behind the store's back (as records a damaged index no longer reaches).
    const raw = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
    raw.transaction(() => raw.query(`DELETE FROM jev_mem_rec WHERE id IN (SELECT id FROM jev_mem_rec WHERE tbl = ${NODE} ORDER BY id LIMIT 2)`));
    raw.close();

    const store = await createSqliteFileStorage({ dir, logger: () => undefined });
    expect(await store.damaged('a', { scan: false })).toEqual({ ids: [], checkpoint: false }); // nothing known before the pass
    expect(await store.damaged('a')).toEqual({ ids: [], checkpoint: false, unreadable: 2 });
    expect(await store.damaged('a', { scan: false })).toEqual({ ids: [], checkpoint: false, unreadable: 2 });
    await store.close();

    const out: string[] = [];
    const err: string[] = [];
    const code = await runCheck(dir, undefined, { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } as never);
    expect(code).not.toBe(0);
    const report = JSON.parse(out[0]!) as { clean: boolean; namespaces: Array<{ namespace: string; count: number; unreadable?: number }> };
    expect(report.clean).toBe(false);
    expect(report.namespaces).toEqual([{ namespace: 'a', count: 2, ids: [], unreadable: 2, checkpoint: false }]);
    expect(err.join('\n')).toContain('2 records unreadable');
  });
});
