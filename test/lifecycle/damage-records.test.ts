/**
 * Damage stays local for every record kind (issue 22, review of 5b559c3): a changed byte in an
 * adjacency record, in the namespace record (meta `schemaVersion`) or in the kept counters of a
 * SQLite store was not found by `jev-mem check` (exit 0), and failed recall, export and repair
 * for the whole namespace (adjacency: STORAGE_FAILED "refers to time …"; meta: SCHEMA_MISMATCH)
 * or made `stats` report 0 edges. Every record is now sealed with its CRC-32: the damaged one is
 * skipped, named (`stats().damaged.records`, `check` exit 3) and rebuilt (the adjacency from the
 * edges its other ends keep, the counters by counting, the meta as never written).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { DAMAGE_FILE_NAME } from '../../src/plane/store/damage-file.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import type { MemoryEdge } from '../../src/types.js';
import { cli, errorOf, lifecycleFixture, recallView, TURNS } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-records', (e) => (encoder = e));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** A store holding TURNS in namespace 'chat', closed; its export. */
async function filledStore(): Promise<{ dir: string; nodes: string[]; edges: MemoryEdge[] }> {
  const dir = tempDir();
  const m = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat' });
  await m.addMany(TURNS);
  const exported = await m.export();
  await m.close();
  return { dir, nodes: exported.nodes.map((n) => n.id).sort(), edges: exported.edges };
}

/** Overwrites `n` bytes in the middle of the stored value of `(table, 'chat', key)` with `bytes(old)`. */
function damage(dir: string, table: (typeof RECORD_TABLES)[number], key: string, change: (v: Uint8Array) => void): void {
  const db = openNodeSqlDriver(join(dir, SQLITE_FILE_NAME));
  try {
    const rows = db.query('SELECT id, v FROM jev_mem_rec WHERE tbl = ? AND ns = ? AND k = ? AND chunk = 0', [RECORD_TABLES.indexOf(table), utf8('chat'), utf8(key)]);
    expect(rows).toHaveLength(1);
    const v = new Uint8Array(rows[0]!.v as Uint8Array);
    change(v);
    db.query('UPDATE jev_mem_rec SET v = ? WHERE id = ?', [v, rows[0]!.id as number]);
  } finally {
    db.close();
  }
}

async function open(dir: string): Promise<Memory> {
  return createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat' });
}

const byId = (edges: readonly MemoryEdge[]): string[] => edges.map((e) => e.id).sort();

describe('a SQLite store with one damaged record besides the node records', () => {
  it('adjacency: check exits 3 naming it; recall, export, delete and repair work; the edges it held are read from their other ends', async () => {
    const { dir, nodes, edges } = await filledStore();
    // The node with the most edges of its own (out-entries on its record).
    const outs = new Map<string, number>();
    for (const e of edges) outs.set(e.from, (outs.get(e.from) ?? 0) + 1);
    const [victim] = [...outs.entries()].sort((a, b) => b[1] - a[1])[0]!;
    expect(outs.get(victim)).toBeGreaterThan(1);
    damage(dir, 'adj', victim, (v) => v.fill(0xff, v.length >> 1, (v.length >> 1) + 8));

    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    expect(JSON.parse(check.out[0]!).namespaces).toEqual([{ namespace: 'chat', count: 1, ids: [], checkpoint: false, records: [`adj:${victim}`] }]);
    expect(check.err.join('\n')).toContain(`adj:${victim}`);

    const m = await open(dir);
    expect((await recallView(m, 'What did Biscuit chew?')).length).toBeGreaterThan(0);
    const exported = await m.export();
    expect(exported.nodes.map((n) => n.id).sort()).toEqual(nodes);
    // Every edge is still there: the victim's out-edges are read from their targets' in-entries.
    expect(byId(exported.edges)).toEqual(byId(edges));
    await m.close();
    const skipped = await cli(['export', '--store', dir, '--namespace', 'chat']);
    expect(skipped.code).toBe(0);

    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code).toBe(0);
    expect(JSON.parse(repair.out[0]!).namespaces).toEqual([expect.objectContaining({ namespace: 'chat', nodes: nodes.length, damaged: [], records: [`adj:${victim}`], edges: edges.length, edgesDropped: 0 })]);
    expect((await cli(['check', '--store', dir])).code).toBe(0);
    const repaired = await open(dir);
    expect(byId((await repaired.export()).edges)).toEqual(byId(edges));
    expect(await repaired.delete(victim)).toBe(true);
    const left = await repaired.export();
    expect(left.nodes.map((n) => n.id)).not.toContain(victim);
    expect(left.edges.filter((e) => e.from === victim || e.to === victim)).toEqual([]);
    await repaired.close();
  });

  it('adjacency: recall, export and deleting the node it belongs to work in the process that meets it, before any repair', async () => {
    const { dir, nodes, edges } = await filledStore();
    const victim = edges[0]!.from;
    damage(dir, 'adj', victim, (v) => v.fill(0xff, v.length >> 1, (v.length >> 1) + 8));
    const m = await open(dir);
    expect((await recallView(m, 'What did Biscuit chew?')).length).toBeGreaterThan(0);
    expect((await m.export()).nodes).toHaveLength(nodes.length);
    expect((await m.stats()).damaged.records).toEqual([`adj:${victim}`]);
    // A put would write over what a repair rebuilds: refused, naming the record.
    const refused = await errorOf(m.add({ text: 'Theo: a new note after the damage.', observedAt: '2023-05-01T10:00:00Z' }));
    expect(isJevMemError(refused, 'STORE_DAMAGED')).toBe(true);
    expect((refused as { details: { records: string[] } }).details.records).toEqual([`adj:${victim}`]);
    expect(await m.delete(victim)).toBe(true);
    const left = await m.export();
    expect(left.nodes.map((n) => n.id)).not.toContain(victim);
    await m.close();
  });

  it("adjacency: getEdges of the node it belongs to answers every edge of the node, read from the other ends, before any full read or repair", async () => {
    const { dir, edges } = await filledStore();
    const victim = edges[0]!.from;
    const touching = edges.filter((e) => e.from === victim || e.to === victim);
    expect(touching.length).toBeGreaterThan(1);
    damage(dir, 'adj', victim, (v) => v.fill(0xff, v.length >> 1, (v.length >> 1) + 8));
    const storage = await createSqliteFileStorage({ dir });
    try {
      // The first read of the damaged record, in a fresh process: no load, scan or check before it.
      expect(byId(await storage.getEdges('chat', [victim]))).toEqual(byId(touching));
      expect((await storage.damaged('chat', { scan: false })).records).toEqual([`adj:${victim}`]);
      const precedes = touching.filter((e) => e.subtype === 'precedes');
      expect(precedes.length).toBeGreaterThan(0);
      expect(byId(await storage.getEdges('chat', [victim], { subtype: 'precedes' }))).toEqual(byId(precedes));
    } finally {
      await storage.close();
    }
  });

  it('namespace record (meta schemaVersion): check exits 3 naming it; recall, export and repair work (read as version 1)', async () => {
    const { dir, nodes, edges } = await filledStore();
    damage(dir, 'meta', 'schemaVersion', (v) => (v[v.length - 1] = v[v.length - 1]! ^ 0x01));

    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    expect(JSON.parse(check.out[0]!).namespaces).toEqual([{ namespace: 'chat', count: 1, ids: [], checkpoint: false, records: ['meta:schemaVersion'] }]);

    const m = await open(dir);
    expect((await recallView(m, 'Where is Maya travelling?')).length).toBeGreaterThan(0);
    const exported = await m.export();
    expect(exported.nodes.map((n) => n.id).sort()).toEqual(nodes);
    expect(byId(exported.edges)).toEqual(byId(edges));
    await m.close();

    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code).toBe(0);
    expect(JSON.parse(repair.out[0]!).namespaces).toEqual([expect.objectContaining({ namespace: 'chat', nodes: nodes.length, records: ['meta:schemaVersion'] })]);
    expect((await cli(['check', '--store', dir])).code).toBe(0);
    const repaired = await open(dir);
    expect((await repaired.export()).nodes).toHaveLength(nodes.length);
    await repaired.close();
  });

  it('kept counters: stats counts the records again (not 0 edges) and names the damage; the next write stores them sound', async () => {
    const { dir, nodes, edges } = await filledStore();
    const before = await open(dir);
    const sound = await before.stats();
    await before.close();
    expect(sound.edges).toBe(edges.length);
    damage(dir, 'spaces', '', (v) => (v[v.length >> 1] = v[v.length >> 1]! ^ 0x04));

    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    expect(JSON.parse(check.out[0]!).namespaces).toEqual([{ namespace: 'chat', count: 1, ids: [], checkpoint: false, records: ['spaces:'] }]);

    const m = await open(dir);
    const s = await m.stats();
    expect(s.nodes).toBe(nodes.length);
    expect(s.edges).toBe(edges.length);
    expect(s.edgesByView).toEqual(sound.edgesByView);
    expect(s.storageBytes).toBe(sound.storageBytes);
    expect(s.damaged).toEqual({ count: 1, ids: [], checkpoint: false, records: ['spaces:'] });
    await m.add({ text: 'Maya: the kiln finally arrived at the studio.', observedAt: '2023-05-02T10:00:00Z', speaker: 'Maya' });
    const after = await m.stats();
    expect(after.nodes).toBe(nodes.length + 1);
    expect(after.damaged.count).toBe(0);
    const edgesNow = (await m.export()).edges.length;
    expect(after.edges).toBe(edgesNow);
    await m.close();
    expect((await cli(['check', '--store', dir])).code).toBe(0);
  });
});

/** Offset of the stored text `text` in the file (record-sql-binary.ts: key `text` varint 4, string tag 6, its length under 128). */
function textAt(file: Buffer, text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  const at = file.indexOf(Buffer.concat([Buffer.from([4, 6, bytes.length]), bytes]));
  expect(at).toBeGreaterThan(0);
  return at + 3;
}

describe('what jev-mem check found is known to the next process', () => {
  it('a damaged node record: stats() in a new process names it and puts are refused; deleting it works; a clean check forgets it', async () => {
    const { dir, nodes } = await filledStore();
    const m0 = await open(dir);
    const victim = (await m0.export()).nodes.find((n) => n.text === TURNS[3]!.text)!.id;
    await m0.close();
    const path = join(dir, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const at = textAt(file, TURNS[3]!.text) + 2;
    file[at] = file[at]! ^ 0x20;
    writeFileSync(path, file);
    expect((await cli(['check', '--store', dir])).code).toBe(3);
    expect(existsSync(join(dir, DAMAGE_FILE_NAME))).toBe(true);

    const m = await open(dir);
    expect((await m.stats()).damaged).toEqual({ count: 1, ids: [victim], checkpoint: false });
    const refused = await errorOf(m.add({ text: 'Maya: a note after the check.', observedAt: '2023-05-01T10:00:00Z' }));
    expect(isJevMemError(refused, 'STORE_DAMAGED')).toBe(true);
    expect(await m.delete(victim)).toBe(true);
    expect((await m.stats()).damaged.count).toBe(0);
    expect((await m.export()).nodes).toHaveLength(nodes.length - 1);
    await m.close();
    expect((await cli(['check', '--store', dir])).code).toBe(0);
    expect(existsSync(join(dir, DAMAGE_FILE_NAME))).toBe(false);
  });

  it('a file SQLite calls malformed refuses puts into every namespace, not only the damaged one; deletes still work', async () => {
    const { dir } = await filledStore();
    const other = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'other' });
    const kept = (await other.add({ text: 'Ines: the kiln reaches 1200 degrees.', observedAt: '2023-05-01T09:00:00Z' })).id;
    await other.close();
    const path = join(dir, SQLITE_FILE_NAME);
    const file = readFileSync(path);
    const pageSize = file.readUInt16BE(16) === 1 ? 65536 : file.readUInt16BE(16);
    const page = Math.floor(textAt(file, TURNS[0]!.text) / pageSize);
    expect(file[page * pageSize]).toBe(0x0d); // a table leaf page
    file[page * pageSize] = 0x42; // no page type: SQLite calls the file malformed
    writeFileSync(path, file);
    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    expect(JSON.parse(check.out[0]!).sqlite.length).toBeGreaterThan(0);

    const m = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'other' });
    const refused = await errorOf(m.add({ text: 'Ines: glazes need a second firing.', observedAt: '2023-05-02T09:00:00Z' }));
    expect(isJevMemError(refused, 'STORE_DAMAGED')).toBe(true);
    expect(String((refused as Error).message)).toContain('malformed');
    expect(await m.delete(kept)).toBe(true);
    await m.close();
  });
});
