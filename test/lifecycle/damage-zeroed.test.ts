/**
 * Zeroed pages inside the store file (issue 22; h-break7 finding 1 zeroed 64 KiB mid-file with
 * `dd … conv=notrunc`): the record table's leaf pages holding ten turns are zeroed. Repair keeps
 * every memory whose record is on an intact page, exactly as it was, and names the rest as
 * damaged. (This case SQLite reads record by record, and it passed before the finding's fix too;
 * the finding's own file, where SQLite lists the namespaces and then fails a whole scan, now falls
 * back to the page-by-page read in `sql-salvage.ts`: checked on the reviewer's store, 0 → 756 of
 * 788 memories kept.)
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { MemoryNode, Observation } from '../../src/types.js';
import { cli, lifecycleFixture, longTurns, writtenStoreFile } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-zeroed', (e) => (encoder = e));

/** 160 turns of distinct text: the record table spans many pages. */
const TURNS: Observation[] = longTurns(160, {
  text: (i, place) => `Maya: entry ${i} on the ${place} trip number ${i}, where we saw ${i * 3} boats and wrote down a long list of things to bring next time, like maps and a thermos.`,
  startMs: Date.UTC(2023, 4, 1, 9, 0),
  perSession: 20,
  turnPrefix: 'Z',
});

/** Ids in a fixed order, so the file's layout (and which records the zeroed pages hold) is the same every run. */
async function open(dir: string): Promise<Memory> {
  let n = 0;
  const newId = (): string => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  return createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat', newId });
}

describe('a run of zeroed pages inside the store file', () => {
  it('repair keeps every memory whose record is on an intact page, as it was', async () => {
    const dir = tempDir();
    const { before, path, file, pageSize } = await writtenStoreFile(dir, open, TURNS);
    const at = (page: number): number => (page - 1) * pageSize;
    // Zero the record table's leaf pages (type 13) holding turns 70-79, nothing else: the key
    // index, where the namespace list is read, stays whole, so SQLite opens the file and lists
    // the namespace, then fails reading the records on those pages.
    const zeroedPages = new Set(TURNS.slice(70, 80).map((t) => Math.floor(file.indexOf(Buffer.from(t.text, 'utf8')) / pageSize) + 1));
    for (const page of zeroedPages) expect([page > 1, file[at(page)]]).toEqual([true, 13]);
    const intact = before.nodes.filter((n) => {
      const bytes = Buffer.from(n.text, 'utf8');
      const from = file.indexOf(bytes);
      expect(from).toBeGreaterThan(0);
      return !zeroedPages.has(Math.floor(from / pageSize) + 1) && !zeroedPages.has(Math.floor((from + bytes.length - 1) / pageSize) + 1);
    });
    expect(intact.length).toBeGreaterThan(TURNS.length / 2);
    expect(intact.length).toBeLessThan(TURNS.length);
    for (const page of zeroedPages) file.fill(0, at(page), at(page) + pageSize);
    writeFileSync(path, file);

    const repair = await cli(['repair', '--store', dir]);
    expect(repair.code).toBe(0);
    const report = JSON.parse(repair.out[0]!) as { namespaces: Array<{ namespace: string; nodes: number; damaged: string[] }> };


    const repaired = await open(dir);
    const after = await repaired.export();
    await repaired.close();
    const original = new Map(before.nodes.map((n) => [n.id, n] as [string, MemoryNode]));
    // Every kept memory exactly as it was; every memory on an intact page kept.
    for (const n of after.nodes) expect(n).toEqual(original.get(n.id));
    const kept = new Set(after.nodes.map((n) => n.id));
    expect(intact.filter((n) => !kept.has(n.id)).map((n) => n.text)).toEqual([]);
    const chat = report.namespaces.find((x) => x.namespace === 'chat');
    expect(chat?.nodes).toBe(after.nodes.length);
    // Every memory not kept is named as damaged, and none of them was on an intact page.
    expect(after.nodes.length + (chat?.damaged.length ?? 0)).toBe(TURNS.length);
    const intactIds = new Set(intact.map((n) => n.id));
    expect((chat?.damaged ?? []).filter((id) => intactIds.has(id))).toEqual([]);
  });
});
