/**
 * `jev-mem repair` keeps every edge a read of the damaged store answers (issue 22, fresh-clone
 * review): with one adjacency record damaged by bit flips in the file, `export --skip-damaged`
 * read all 9,305 edges of a 400-turn store but repair kept 4,371 and reported `edgesDropped: 0`,
 * `edgesLost: false`. The screened scan took the damaged record out of a batch, the batch came
 * back short of its limit, and the edge scan read that as the end of the table: every adjacency
 * record after the damaged one was skipped. The repaired store must hold exactly the edges export
 * reads, and the report must say what is gone (`edgesUnread` against the kept edge counter).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import { salvageSqliteStore } from '../../src/plane/store/sql-salvage.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import type { MemoryEdge } from '../../src/types.js';
import { makeEdge, makeNode } from '../plane/fixtures.js';
import { cli, lifecycleFixture } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-repair-edges', (e) => (encoder = e));
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const byId = (edges: readonly MemoryEdge[]): string[] => edges.map((e) => e.id).sort();

/**
 * Flips bit 2 of one byte of the stored adjacency record of `node` in the file itself (SQLite
 * knows nothing of it; the record's seal fails): the byte sits in a 16-byte run of the record's
 * first chunk that occurs once in the file (older versions of the record on free pages share
 * its start, so the run is taken from its end).
 */
function flipAdjacencyBit(dir: string, namespace: string, node: string): void {
  const path = join(dir, SQLITE_FILE_NAME);
  const db = openNodeSqlDriver(path);
  let value: Buffer;
  try {
    const rows = db.query('SELECT v FROM jev_mem_rec WHERE tbl = ? AND ns = ? AND k = ? AND chunk = 0', [RECORD_TABLES.indexOf('adj'), utf8(namespace), utf8(node)]);
    expect(rows).toHaveLength(1);
    value = Buffer.from(rows[0]!.v as Uint8Array);
  } finally {
    db.close();
  }
  const file = readFileSync(path);
  for (let end = value.length; end >= 16; end -= 8) {
    const run = value.subarray(end - 16, end);
    const at = file.indexOf(run);
    if (at < 0 || file.indexOf(run, at + 1) >= 0) continue;
    file[at + 8] = file[at + 8]! ^ 0x04;
    writeFileSync(path, file);
    return;
  }
  throw new Error(`no run of the adjacency record of ${node} occurs once in the file`);
}

describe('repair of a store with a damaged adjacency record', () => {
  it('a memory of 60 turns: repair keeps every edge export --skip-damaged reads, and reports nothing dropped or lost', async () => {
    const dir = tempDir();
    const m = await createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat' });
    const turns = Array.from({ length: 60 }, (_, i) => ({
      text: `turn ${i}: we discussed the project plan, budget numbers and the trip to Kyoto ${i}`,
      speaker: i % 2 === 1 ? 'user' : 'assistant',
      observedAt: `2024-02-${String(1 + Math.floor(i / 20)).padStart(2, '0')}T${String(i % 20).padStart(2, '0')}:00:00Z`,
    }));
    await m.addMany(turns);
    const sound = await m.export();
    await m.close();
    // The first adjacency record in key order: on the base, every record after the first batch
    // of the edge scan was skipped (more than 32 of them).
    const ends = [...new Set(sound.edges.flatMap((e) => [e.from, e.to]))].sort();
    expect(ends.length).toBeGreaterThan(40);
    const victim = ends[0]!;
    flipAdjacencyBit(dir, 'chat', victim);

    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    expect(JSON.parse(check.out[0]!).namespaces).toEqual([{ namespace: 'chat', count: 1, ids: [], checkpoint: false, records: [`adj:${victim}`] }]);

    const before = await cli(['export', '--store', dir, '--namespace', 'chat', '--skip-damaged']);
    expect(before.code).toBe(0);
    const readable = (JSON.parse(before.out[0]!) as { edges: MemoryEdge[] }).edges;
    // Every edge is still readable: the victim's own are read from their other ends.
    expect(byId(readable)).toEqual(byId(sound.edges));

    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code).toBe(0);
    const [report] = (JSON.parse(repair.out[0]!) as { namespaces: Array<Record<string, unknown>> }).namespaces;
    expect(report).toEqual({ namespace: 'chat', nodes: sound.nodes.length, edges: readable.length, edgesDropped: 0, damaged: [], edgesLost: false, records: [`adj:${victim}`] });
    expect(repair.err.at(-1)).toContain(`${sound.nodes.length} node(s) and ${readable.length} edge(s) kept, 0 damaged node(s) left out;`);

    const after = await cli(['export', '--store', dir, '--namespace', 'chat']);
    expect(after.code).toBe(0);
    expect(byId((JSON.parse(after.out[0]!) as { edges: MemoryEdge[] }).edges)).toEqual(byId(readable));
    expect((await cli(['check', '--store', dir])).code).toBe(0);
  });

  it('the salvage copies every edge load reads past the damaged record, and counts the one no read reaches (a self-loop kept on the damaged record only)', async () => {
    const dir = tempDir();
    const storage = await createSqliteFileStorage({ dir });
    const ids = Array.from({ length: 80 }, (_, i) => `n${String(i).padStart(2, '0')}`);
    const chain = ids.slice(1).map((id, i) => makeEdge('ns', `chain-${i}`, ids[i]!, id));
    const loop = makeEdge('ns', 'loop', 'n05', 'n05');
    await storage.commit('ns', { putNodes: ids.map((id, i) => makeNode('ns', id, i + 1)), putEdges: [...chain, loop] });
    expect((await storage.counts('ns')).edges).toBe(80);
    await storage.close();
    flipAdjacencyBit(dir, 'ns', 'n05');

    const damaged = await createSqliteFileStorage({ dir });
    const readable = (await damaged.load('ns')).edges;
    await damaged.close();
    // n05's record held the loop and the out-entry of n05 → n06; the latter is read at n06.
    expect(byId(readable)).toEqual(byId(chain));

    const report = await salvageSqliteStore(dir);
    expect(report.namespaces).toEqual([{ namespace: 'ns', nodes: 80, edges: 79, edgesDropped: 0, damaged: [], edgesLost: true, edgesUnread: 1, records: ['adj:n05'] }]);
    const repaired = await createSqliteFileStorage({ dir });
    try {
      expect(byId((await repaired.load('ns')).edges)).toEqual(byId(chain));
      expect((await repaired.counts('ns')).edges).toBe(79);
    } finally {
      await repaired.close();
    }
  });
});
