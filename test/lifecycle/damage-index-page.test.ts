/**
 * A zeroed page of the key index alone (issue 22, h-damage3 item 2): the records whose keys lay
 * on it are whole in the table, but every read through the index failed, so they read as
 * damaged (recall left 24 of 400 out), and `export`, `check` and `repair` failed whole or lost
 * them. They are now found by the rowid walk of the table (`record-sql-walk.ts`): recall, list
 * and export see every memory as it was, `check` still says the file is damaged (SQLite's
 * integrity_check, or quick_check where it stops on the zeroed page), and `repair` keeps all 400.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { cli, lifecycleFixture, writtenStoreFile } from './helpers.js';
import { DAY_TURNS, openFixed } from './zeroed-store.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-index-page', (e) => (encoder = e));

/** The store of DAY_TURNS with the index leaf page (type 10) holding turn `target`'s key zeroed, nothing else. */
async function indexZeroed(dir: string, target: number): Promise<{ before: MemoryExport; onPage: string[]; path: string }> {
  const { before, file, path, pageSize } = await writtenStoreFile(dir, (d) => openFixed(encoder, d), DAY_TURNS);
  const id = before.nodes.find((n) => n.text === DAY_TURNS[target]!.text)!.id;
  let page: number | undefined;
  for (let at = file.indexOf(id); at >= 0 && page === undefined; at = file.indexOf(id, at + 1)) if (file[Math.floor(at / pageSize) * pageSize] === 10) page = Math.floor(at / pageSize);
  expect(page).toBeDefined();
  const zeroed = file.subarray(page! * pageSize, (page! + 1) * pageSize);
  const onPage = before.nodes.filter((n) => zeroed.includes(Buffer.from(n.id, 'utf8'))).map((n) => n.id);
  expect(onPage.length).toBeGreaterThan(10); // the page held many keys, not just the target's
  const damaged = Buffer.from(file);
  damaged.fill(0, page! * pageSize, (page! + 1) * pageSize);
  writeFileSync(path, damaged);
  return { before, onPage, path };
}

describe('a zeroed page of the key index, the table whole', () => {
  it('recall, list and export read every memory as it was; nothing is counted damaged', async () => {
    const dir = tempDir();
    const { before, onPage } = await indexZeroed(dir, 200);
    const m = await openFixed(encoder, dir);
    try {
      const r = await m.recall(DAY_TURNS[200]!.text, { k: 3 });
      expect(r.memories[0]!.text).toBe(DAY_TURNS[200]!.text);
      expect(r.trace.damaged ?? 0).toBe(0);
      const byId = new Map(before.nodes.map((n) => [n.id, n]));
      // Every memory whose key was on the zeroed page reads whole by id.
      for (const id of onPage) expect((await m.get(id))?.text).toBe(byId.get(id)!.text);
      const listed: string[] = [];
      for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
        const page = await m.list({ limit: 150, ...(cursor !== undefined ? { cursor } : {}) });
        listed.push(...page.memories.map((x) => x.id));
        cursor = page.cursor;
      }
      expect(listed.sort()).toEqual([...byId.keys()].sort());
      const exported = await m.export();
      expect(exported.nodes).toEqual(before.nodes);
      expect(exported.edges).toEqual(before.edges);
      expect(exported.damaged).toBeUndefined();
      expect((await m.stats()).damaged.count).toBe(0);
    } finally {
      await m.close();
    }
  }, 120_000);

  it('jev-mem export prints the whole namespace, check says the file is damaged, repair keeps every memory', async () => {
    const dir = tempDir();
    const { before, path } = await indexZeroed(dir, 120);
    const bytes = readFileSync(path);
    const exported = await cli(['export', '--store', dir, '--namespace', 'chat']);
    expect(exported.code, exported.err.join('\n')).toBe(0);
    const out = JSON.parse(exported.out[0]!) as MemoryExport;
    expect(out.nodes).toEqual(before.nodes);
    expect(out.edges).toHaveLength(before.edges.length);
    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    const found = JSON.parse(check.out[0]!) as { namespaces: Array<{ count: number }>; sqlite: string[] };
    expect(found.namespaces).toEqual([{ namespace: 'chat', count: 0, ids: [], checkpoint: false }]);
    expect(found.sqlite.join('\n')).toMatch(/jev_mem_rec_key/);
    expect(readFileSync(path).equals(bytes)).toBe(true); // reads only
    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code, repair.err.join('\n')).toBe(0);
    const report = JSON.parse(repair.out[0]!) as { removed: string | null; namespaces: Array<{ nodes: number; edges: number; damaged: string[] }> };
    expect(report.namespaces.map((n) => [n.nodes, n.edges, n.damaged])).toEqual([[400, before.edges.length, []]]);
    expect(report.removed).not.toBeNull(); // the repaired store checks clean
    const m = await openFixed(encoder, dir);
    try {
      expect((await m.export()).nodes).toEqual(before.nodes);
    } finally {
      await m.close();
    }
  }, 180_000);
});
