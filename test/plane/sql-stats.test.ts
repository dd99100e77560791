/**
 * The kept counts of the SQL store (schema v4, issue 25; src/plane/store/sql-stats.ts): after
 * any sequence of commits (puts, replaces, deletes of nodes and edges with explicit and
 * canonical ids, meta set and removed, namespaces dropped) `counts` and `sizeBytes` answer from
 * the kept row exactly what a full pass over the rows gives; `stats()` reads no node row; a
 * store of the base commit's layout (v3) opens and is counted once; and records the kept counter
 * says exist but no read reaches are named by the full damage pass and by `jev-mem check`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { createMemory } from '../../src/memory.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { canonicalEdgeId } from '../../src/plane/store/sql-codec.js';
import { sqlTables } from '../../src/plane/store/sql-schema.js';
import { recount } from '../../src/plane/store/sql-stats.js';
import { createSqlStorage } from '../../src/plane/store/sql-storage.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';
import type { MemoryEdge } from '../../src/types.js';
import { crashEncoder } from '../lifecycle/fixtures/crash-encoder.js';
import { makeEdge, makeNode } from './fixtures.js';

const dirs: string[] = [];
const newDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'jev-sql-stats-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const T = sqlTables('jev_mem_');
const ids = fc.constantFrom('a', 'b', 'c', 'd', 'é');
const views = fc.constantFrom('temporal', 'semantic', 'entity', 'custom-view');

/** Random batches over a small id space: explicit and canonical edge ids, views old and new. */
function batchOf(namespace: string): fc.Arbitrary<WriteBatch> {
  const edge = fc.tuple(ids, ids, views, fc.boolean(), fc.constantFrom('', '1')).map(([from, to, view, canonical, tag]): MemoryEdge => {
    const e = { ...makeEdge(namespace, '', from, to), view: view as MemoryEdge['view'] };
    return { ...e, id: canonical ? canonicalEdgeId(from, to, view, e.subtype) : `e-${from}${tag}` };
  });
  return fc.record(
    {
      putNodes: fc.array(fc.tuple(ids, fc.integer({ min: 1, max: 50 }), fc.string({ maxLength: 30 })).map(([id, seq, text]) => makeNode(namespace, id, seq, text)), { maxLength: 4 }),
      putEdges: fc.array(edge, { maxLength: 4 }),
      deleteNodeIds: fc.array(ids, { maxLength: 2 }),
      deleteEdgeIds: fc.array(edge.map((e) => e.id), { maxLength: 2 }),
      meta: fc.dictionary(fc.constantFrom('cursor', 'x'), fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 9 })), { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  );
}

describe('the kept counts of the SQL store', () => {
  it('equal a full count of the rows after any sequence of commits and drops', async () => {
    const dir = newDir();
    let run = 0;
    const step = fc.oneof(
      batchOf('n1').map((batch) => ({ ns: 'n1', batch: batch as WriteBatch | undefined })),
      batchOf('n2').map((batch) => ({ ns: 'n2', batch: batch as WriteBatch | undefined })),
      fc.constantFrom('n1', 'n2').map((ns) => ({ ns, batch: undefined as WriteBatch | undefined })),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const driver = openNodeSqlDriver(join(dir, `run-${run++}.sqlite`));
        const store = createSqlStorage(driver, { kind: 'sqlite', label: 'test store', lexical: 'fts5' });
        try {
          for (const { ns, batch } of steps) {
            if (batch === undefined) await store.dropNamespace(ns);
            else await store.commit(ns, batch);
            for (const name of ['n1', 'n2']) {
              const nsRow = driver.query(`SELECT ns FROM ${T.names} WHERE name = ?`, [name])[0];
              const full = nsRow === undefined ? { nodes: 0, edges: 0, views: {}, bytes: 0 } : recount(driver.query, T, Number(nsRow.ns));
              const counts = await store.counts(name);
              const loaded = await store.load(name);
              expect(counts).toEqual({ nodes: full.nodes, edges: full.edges, edgesByView: full.views });
              expect([counts.nodes, counts.edges]).toEqual([loaded.nodes.length, loaded.edges.length]);
              expect(await store.sizeBytes(name)).toBe(full.bytes);
            }
          }
        } finally {
          await store.close();
          driver.close();
        }
      }),
      { numRuns: 15 },
    );
  });

  it('stats() reads no node or edge row of the namespace (O(1), issue 25)', async () => {
    const dir = newDir();
    const driver = openNodeSqlDriver(join(dir, 'db.sqlite'));
    const seen: string[] = [];
    const spy = { ...driver, query: (sql: string, params?: readonly (string | number | Uint8Array | null)[]) => (seen.push(sql), driver.query(sql, params)), transaction: driver.transaction, read: driver.read };
    const storage = createSqlStorage(spy, { kind: 'sqlite', label: 'spied store', lexical: 'fts5' });
    const m = await createMemory({ encoder: crashEncoder, storage, namespace: 'ns', logger: () => undefined, parameters: { maintenanceInterval: 0 } });
    await m.addMany(['the keeper logged three ships', 'a storm came in at dawn', 'the lamp was lit at dusk'].map((text) => ({ text })));
    seen.length = 0;
    const s = await m.stats();
    expect([s.nodes, s.damaged.count]).toEqual([3, 0]);
    const scans = seen.filter((q) => /FROM jev_mem_(node|edge)\b/.test(q));
    expect(scans, JSON.stringify(scans)).toEqual([]);
    expect(s.edges).toBe((await storage.load('ns')).edges.length);
    expect(s.edges).toBeGreaterThan(0);
    await m.close();
    driver.close();
  });
});

describe('a store of the base layout (v3, before kept counts)', () => {
  it('opens: the migration counts every namespace once, and the counts are those of the rows', async () => {
    const dir = newDir();
    const m = await createMemory({ encoder: crashEncoder, storage: await createSqliteFileStorage({ dir, logger: () => undefined }), namespace: 'a', logger: () => undefined, parameters: { maintenanceInterval: 0 } });
    await m.addMany(['first note about the harbour', 'second note about the harbour', 'third note about the lighthouse'].map((text) => ({ text })));
    await m.add({ text: 'a note in another namespace' }, { namespace: 'b' });
    const before = { a: await m.stats({ namespace: 'a' }), b: await m.stats({ namespace: 'b' }) };
    await m.close();
    // Back to the v3 layout of 446c1c5: no stat table, version 3.
    const path = join(dir, SQLITE_FILE_NAME);
    const raw = openNodeSqlDriver(path);
    raw.transaction(() => {
      raw.query('DROP TABLE jev_mem_stat');
      raw.query(`UPDATE jev_mem_schema SET value = '3' WHERE key = 'version'`);
    });
    raw.close();

    const reopened = await createMemory({ encoder: crashEncoder, storage: await createSqliteFileStorage({ dir, logger: () => undefined }), namespace: 'a', logger: () => undefined });
    for (const ns of ['a', 'b'] as const) {
      const s = await reopened.stats({ namespace: ns });
      expect([s.nodes, s.edges, s.edgesByView, s.storageBytes]).toEqual([before[ns].nodes, before[ns].edges, before[ns].edgesByView, before[ns].storageBytes]);
    }
    expect((await reopened.stats({ namespace: 'a' })).nodes).toBe(3);
    await reopened.add({ text: 'fourth note after the upgrade' });
    expect((await reopened.stats({ namespace: 'a' })).nodes).toBe(4);
    await reopened.close();
    const check = openNodeSqlDriver(path);
    expect(check.query(`SELECT value FROM jev_mem_schema WHERE key = 'version'`)[0]!.value).toBe('4');
    expect(check.query('SELECT COUNT(*) AS n FROM jev_mem_stat')[0]!.n).toBe(2);
    check.close();
  });
});

describe('records the kept counter says exist but no read reaches', () => {
  it('are named by the full pass of damaged() and by jev-mem check ("N records unreadable"), not hidden', async () => {
    const dir = newDir();
    const m = await createMemory({ encoder: crashEncoder, storage: await createSqliteFileStorage({ dir, logger: () => undefined }), namespace: 'a', logger: () => undefined, parameters: { maintenanceInterval: 0 } });
    await m.addMany(['one note', 'two notes', 'three notes', 'four notes'].map((text) => ({ text })));
    await m.close();
    // Two node rows vanish behind the store's back (as rows a damaged index no longer reaches).
    const raw = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
    raw.transaction(() => raw.query('DELETE FROM jev_mem_node WHERE slot IN (SELECT slot FROM jev_mem_node ORDER BY slot LIMIT 2)'));
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
