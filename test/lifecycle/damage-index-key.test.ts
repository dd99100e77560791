/**
 * One changed byte of a key in SQLite's key index (h-break15 finding 1): the index entry of a
 * node record names another id (`g0000000-…` for `00000000-…`), the table row is whole. Before,
 * a scan through the index served the record under the changed id (its value's id follows the
 * key, `record-sql-binary.ts` `KEY`), `delete(id)` answered true while the row stayed, and
 * `check` and `export` said nothing (quick_check does not compare an index with its table).
 * Now the record's key is sealed with it (`record-sql-seal.ts` `KEYED`): reached under the
 * changed key it is a damaged record named by its own id, the delete is refused, `check` finds
 * the index damaged (`integrity_check`) and `repair` keeps every other memory.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import type { Memory } from '../../src/memory.js';
import type { MemoryExport } from '../../src/plane/store/export.js';
import { cli, codeOf, lifecycleFixture, writtenStoreFile } from './helpers.js';
import { DAY_TURNS, openFixed } from './zeroed-store.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-index-key', (e) => (encoder = e));

const TURNS = DAY_TURNS.slice(0, 120);
const TARGET = 70;

/**
 * The store of {@link TURNS} with the first byte of turn `TARGET`'s id changed to `g` in its node
 * record's entry of the key index (a leaf page, type 10; the entry's header: 6 bytes, `tbl` 0 as
 * serial type 8, `ns` `chat` as 20), nothing else.
 */
async function keyChanged(dir: string): Promise<{ before: MemoryExport; id: string; forged: string; path: string }> {
  const { before, file, path, pageSize } = await writtenStoreFile(dir, (d) => openFixed(encoder, d), TURNS);
  const id = before.nodes.find((n) => n.text === TURNS[TARGET]!.text)!.id;
  const at: number[] = [];
  for (let o = file.indexOf(id); o >= 0; o = file.indexOf(id, o + 1)) {
    if (file[Math.floor(o / pageSize) * pageSize] === 10 && file.toString('latin1', o - 4, o) === 'chat' && file[o - 10] === 6 && file[o - 9] === 8 && file[o - 8] === 20) at.push(o);
  }
  expect(at).toHaveLength(1); // the one index entry of the node record
  const damaged = Buffer.from(file);
  damaged[at[0]!] = 'g'.charCodeAt(0);
  writeFileSync(path, damaged);
  return { before, id, forged: `g${id.slice(1)}`, path };
}

async function listedIds(m: Memory): Promise<string[]> {
  const out: string[] = [];
  for (let cursor: string | undefined, first = true; first || cursor !== undefined; first = false) {
    const page = await m.list({ limit: 100, ...(cursor !== undefined ? { cursor } : {}) });
    out.push(...page.memories.map((x) => x.id));
    cursor = page.cursor;
  }
  return out;
}

describe('a changed key in the key index, the table whole (h-break15 finding 1)', () => {
  it('the record is never served under the changed id, is named damaged by its own id, and its delete is not answered done', async () => {
    const dir = tempDir();
    const { before, id, forged } = await keyChanged(dir);
    const m = await openFixed(encoder, dir, () => undefined);
    try {
      const listed = await listedIds(m);
      expect(listed).not.toContain(forged);
      expect(listed).toHaveLength(TURNS.length - 1);
      expect(listed.sort()).toEqual(before.nodes.map((n) => n.id).filter((x) => x !== id).sort());
      const stats = await m.stats();
      expect(stats.damaged.ids).toContain(id);
      expect(stats.damaged.ids).not.toContain(forged);
      // The row is in the table, the index does not lead to it: the delete is refused, never `true`.
      expect(await codeOf(m.delete(id))).toBe('STORE_DAMAGED');
      expect(await listedIds(m)).not.toContain(forged);
      const recalled = await m.recall(TURNS[TARGET]!.text, { k: 5 });
      expect(recalled.memories.map((x) => x.id)).not.toContain(forged);
      expect(await m.get(forged)).toBeUndefined();
    } finally {
      await m.close();
    }
    expect(readFileSync(`${dir}/jev-mem.sqlite`).includes(Buffer.from(TURNS[TARGET]!.text))).toBe(true); // nothing claimed erased
  }, 300_000);

  it('check finds it (the index and its damaged record), export names it damaged, repair keeps every other memory', async () => {
    const dir = tempDir();
    const { before, id, forged, path } = await keyChanged(dir);
    const bytes = readFileSync(path);
    const check = await cli(['check', '--store', dir]);
    expect(check.code).toBe(3);
    const found = JSON.parse(check.out[0]!) as { clean: boolean; namespaces: Array<{ ids: string[] }>; sqlite: string[] };
    expect(found.clean).toBe(false);
    expect(found.namespaces.flatMap((n) => n.ids)).toEqual([id]);
    expect(found.sqlite.join('\n')).toMatch(/missing from index jev_mem_rec_key/);
    expect(readFileSync(path).equals(bytes)).toBe(true); // reads only
    const exported = await cli(['export', '--store', dir, '--namespace', 'chat']);
    expect(exported.code).toBe(3);
    expect(exported.err.join('\n')).toContain(id);
    expect(exported.out.join('\n')).not.toContain(forged);
    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code, repair.err.join('\n')).toBe(0);
    const report = JSON.parse(repair.out[0]!) as { namespaces: Array<{ nodes: number; damaged: string[] }> };
    expect(report.namespaces.map((n) => [n.nodes, n.damaged])).toEqual([[TURNS.length - 1, [id]]]);
    const m = await openFixed(encoder, dir);
    try {
      expect((await m.export()).nodes).toEqual(before.nodes.filter((n) => n.id !== id));
      expect((await m.stats()).damaged.count).toBe(0);
    } finally {
      await m.close();
    }
  }, 300_000);
});
