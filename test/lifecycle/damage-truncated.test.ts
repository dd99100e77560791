/**
 * A store file cut short (issue 22, review of 5b559c3: "a truncated file salvages nothing"): a
 * `jev-mem.sqlite` cut at 60 % of its length is one SQLite will not open ("database disk image
 * is malformed"), and `jev-mem repair` exited 3 having salvaged nothing. Repair now reads the
 * record table page by page (`sql-page-salvage.ts`): every memory whose record lies on a page
 * still in the file is kept, as it was, and the report says what was lost (pages, the ids
 * surviving edges name). Which memories survive is computed from the file itself: those whose
 * text lies on a whole page before the cut.
 */
import { existsSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { readTablePages } from '../../src/plane/store/sqlite-pages.js';
import { createSqliteFileStorage, SQLITE_FILE_NAME } from '../../src/plane/store/sqlite-file-storage.js';
import { RECORD_TABLES } from '../../src/plane/drivers/record-driver.js';
import { openNodeSqlDriver } from '../../src/plane/drivers/sqlite-node.js';
import type { MemoryNode, Observation } from '../../src/types.js';
import { cli, lifecycleFixture, longTurns, writtenStoreFile } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-truncated', (e) => (encoder = e));

/** 80 turns of distinct text, long enough that the records fill a few dozen pages. */
const TURNS: Observation[] = longTurns(80, {
  text: (i, place) => `Maya: note ${i} about the ${place} visit number ${i}, where we counted ${i * 7} lanterns and talked about the weather, the ferries and a long list of plans for next spring.`,
  startMs: Date.UTC(2023, 2, 1, 10, 0),
  perSession: 10,
  turnPrefix: 'T',
});

async function open(dir: string): Promise<Memory> {
  return createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat' });
}

const byId = (nodes: readonly MemoryNode[]): MemoryNode[] => [...nodes].sort((a, b) => a.id.localeCompare(b.id));

describe('a store file cut at 60 % of its length', () => {
  it('repair keeps every memory whose record lies before the cut, exactly as it was, and names what it lost', async () => {
    const dir = tempDir();
    const { before, path, file, pageSize } = await writtenStoreFile(dir, open, TURNS);
    const cut = Math.floor(file.length * 0.6);
    // The memories a page-by-page read can give back: their text (in the file once) on a page wholly before the cut.
    const expected = new Set(
      before.nodes
        .filter((n) => {
          const at = file.indexOf(Buffer.from(n.text, 'utf8'));
          expect(at).toBeGreaterThan(0);
          expect(file.indexOf(Buffer.from(n.text, 'utf8'), at + 1)).toBe(-1);
          return (Math.floor(at / pageSize) + 1) * pageSize <= cut;
        })
        .map((n) => n.id),
    );
    // The adjacency records (every edge is in the records of both its ends) on such a page.
    const db = openNodeSqlDriver(path);
    const adjRows = db.query('SELECT k, v FROM jev_mem_rec WHERE tbl = ? AND chunk = 0', [RECORD_TABLES.indexOf('adj')]);
    db.close();
    const adjKept = new Set(
      adjRows
        .filter((r) => {
          const at = file.indexOf(Buffer.from(r.v as Uint8Array));
          expect(at).toBeGreaterThan(0);
          return (Math.floor(at / pageSize) + 1) * pageSize <= cut;
        })
        .map((r) => new TextDecoder().decode(r.k as Uint8Array)),
    );
    expect(expected.size).toBeGreaterThan(10);
    expect(expected.size).toBeLessThan(TURNS.length);
    truncateSync(path, cut);

    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    expect(check.err.join('\n')).toMatch(/row\(s\) of its record table can still be read page by page: jev-mem repair/);

    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code).toBe(0);
    const report = JSON.parse(repair.out[0]!) as { namespaces: Array<{ namespace: string; nodes: number; damaged: string[]; missing?: string[]; unreadable?: number }>; pages: { pages: number; pagesMissing: number } };
    expect(report.pages.pages).toBe(Math.floor(cut / pageSize));
    expect(report.pages.pagesMissing).toBeGreaterThan(0);
    const [chat] = report.namespaces;
    expect(chat).toMatchObject({ namespace: 'chat', nodes: expected.size, damaged: [] });
    // What surviving edges name of the lost memories: lost ones only.
    for (const id of chat!.missing ?? []) expect(before.nodes.some((n) => n.id === id) && !expected.has(id)).toBe(true);
    expect((chat!.missing ?? []).length).toBeGreaterThan(0);
    if (chat!.unreadable !== undefined) expect(chat!.unreadable).toBe(TURNS.length - expected.size);
    expect(repair.err.join('\n')).toContain('read page by page');
    // Pages were lost: what was on them cannot be counted (a namespace lost whole would not even
    // be listed), so the damaged file is kept, not removed (h-break7 finding 2).
    const files = JSON.parse(repair.out[0]!) as { backup: string | null; removed: string | null };
    expect(files.removed).toBeNull();
    expect(files.backup !== null && existsSync(files.backup)).toBe(true);
    expect(repair.err.join('\n')).toContain('because pages of it were lost');

    expect((await cli(['check', '--store', dir])).code).toBe(0);
    const repaired = await open(dir);
    const after = await repaired.export();
    expect(byId(after.nodes)).toEqual(byId(before.nodes.filter((n) => expected.has(n.id))));
    // Every edge between two kept memories whose record at one end or the other is kept.
    const kept = (e: { from: string; to: string }): boolean => expected.has(e.from) && expected.has(e.to) && (adjKept.has(e.from) || adjKept.has(e.to));
    expect(after.edges.map((e) => e.id).sort()).toEqual(before.edges.filter(kept).map((e) => e.id).sort());
    const hits = await repaired.recall('lanterns at the harbour', { k: 5 });
    expect(hits.memories.length).toBeGreaterThan(0);
    expect(hits.memories.every((h) => expected.has(h.id))).toBe(true);
    await repaired.close();
  });

  it('the page reader gives back the rows SQLite gives back, from an intact file', async () => {
    const dir = tempDir();
    const m = await open(dir);
    await m.addMany(TURNS.slice(0, 30));
    await m.close();
    const path = join(dir, SQLITE_FILE_NAME);
    const db = openNodeSqlDriver(path);
    const viaSql = db.query('SELECT id, tbl, ns, k, chunk, v FROM jev_mem_rec ORDER BY id').map((r) => [r.id, r.tbl, r.ns, r.k, r.chunk, r.v]);
    db.close();
    const read = readTablePages(path, 'jev_mem_rec', () => false);
    expect([read.pagesMissing, read.rowsLost, read.orphanLeaves]).toEqual([0, 0, 0]);
    const viaPages = read.rows.map((r) => [r[0], r[2], r[3], r[4], r[5], r[6]]).sort((a, b) => (a[0] as number) - (b[0] as number));
    expect(viaPages.map((r) => r.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v)))).toEqual(viaSql.map((r) => r.map((v) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))));
  });
});
