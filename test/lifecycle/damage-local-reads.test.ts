/**
 * Damage stays local on the read path (issue 22; h-break9 finding 8): a run of 12 zeroed pages
 * in the middle of a store file of 400 memories (`dd if=/dev/zero … seek=60 count=12
 * conv=notrunc`; here the two pages of it that matter) made every `recall` fail with STORE_DAMAGED (CLI exit 3), since the look-up that
 * tells a damaged record from an absent one read a zeroed index page too and failed the whole
 * read. A recall now leaves the unreadable records out, answers from the rest, counts them in
 * `trace.damaged` and `stats().damaged`, and warns once (`RECORDS_DAMAGED`).
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { Observation } from '../../src/types.js';
import type { LogEntry } from '../../src/util/logger.js';
import { cli, lifecycleFixture, longTurns, writtenStoreFile } from './helpers.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('damage-local-reads', (e) => (encoder = e));

const PEOPLE = ['Theo', 'Priya', 'Jonas', 'Lena', 'Omar'];
const DOINGS = ['paint the fence', 'bake rye bread', 'fix a bicycle', 'plant tulips', 'learn the violin', 'repair a kite', 'sort old letters', 'knit a scarf', 'carve a spoon', 'photograph owls'];

/** 400 turns, each a different place, person and activity (8 × 5 × 10), so a question finds one. */
export const DAY_TURNS: Observation[] = longTurns(400, {
  text: (i, place) => `Maya: on day ${i} I went to the ${place} with ${PEOPLE[Math.floor(i / 8) % 5]} to ${DOINGS[Math.floor(i / 40) % 10]}.`,
  startMs: Date.UTC(2023, 0, 1, 9, 0),
  perSession: 20,
  turnPrefix: 'D',
});

/** Ids in a fixed order, so the file's layout (and which records the zeroed pages hold) is the same every run. */
export async function openFixed(dir: string, logger?: (level: string, message: string, entry: LogEntry) => void): Promise<Memory> {
  let n = 0;
  const newId = (): string => `00000000-0000-4000-8000-${(++n).toString(16).padStart(12, '0')}`;
  return createMemory({ encoder, storage: await createSqliteFileStorage({ dir }), namespace: 'chat', newId, ...(logger !== undefined ? { logger } : {}) });
}

/**
 * A store of {@link DAY_TURNS} with two of its pages zeroed (`dd if=/dev/zero … conv=notrunc`):
 * the record table's leaf page (type 13) holding the node record of turn `target`, and the
 * leaf page (type 10) of the table's key index holding that record's key, so that SQLite can
 * neither read the record nor tell from the index whether it exists (the reviewer's 12 zeroed
 * pages hit both kinds). Returns the export before the damage, the target's id and the turns
 * whose records or keys were on the zeroed pages.
 */
export async function zeroedStore(dir: string, target: number): Promise<Awaited<ReturnType<typeof writtenStoreFile>> & { id: string; lost: number[] }> {
  const written = await writtenStoreFile(dir, (d) => openFixed(d), DAY_TURNS);
  const { file, path, pageSize, before } = written;
  const id = before.nodes.find((n) => n.text === DAY_TURNS[target]!.text)!.id;
  const pageOf = (at: number): number => Math.floor(at / pageSize);
  const record = pageOf(file.indexOf(Buffer.from(DAY_TURNS[target]!.text, 'utf8')));
  expect(file[record * pageSize]).toBe(13);
  const key = Buffer.from(id, 'utf8');
  let index: number | undefined;
  for (let at = file.indexOf(key); at >= 0 && index === undefined; at = file.indexOf(key, at + 1)) if (file[pageOf(at) * pageSize] === 10) index = pageOf(at);
  expect(index).toBeDefined();
  const zeroed = Buffer.from(file);
  for (const page of [record, index!]) zeroed.fill(0, page * pageSize, (page + 1) * pageSize);
  writeFileSync(path, zeroed);
  // The turns whose record text lies on the zeroed record page, or whose key lies on the zeroed index page.
  // (and the key after the last of them: SQLite's search for it descends into the zeroed page too).
  const onIndex = DAY_TURNS.flatMap((t, i) => (file.subarray(index! * pageSize, (index! + 1) * pageSize).includes(Buffer.from(before.nodes.find((n) => n.text === t.text)!.id, 'utf8')) ? [i] : []));
  const lost = DAY_TURNS.flatMap((t, i) => (pageOf(file.indexOf(Buffer.from(t.text, 'utf8'))) === record || onIndex.includes(i) || i === Math.max(...onIndex) + 1 ? [i] : []));
  return { ...written, id, lost };
}

describe('recall in a store file with a run of zeroed pages', () => {
  it('answers from the readable records, counts the others in trace.damaged and stats().damaged, and warns once', async () => {
    const dir = tempDir();
    const { before, id, lost } = await zeroedStore(dir, 200);
    const warnings: Array<{ message: string; entry: LogEntry }> = [];
    const m = await openFixed(dir, (_level, message, entry) => warnings.push({ message, entry }));
    try {
      // Turn 200 is the nearest memory to this question: its record is read first, and is unreadable.
      const r = await m.recall(DAY_TURNS[200]!.text, { k: 3 });
      const damaged = (await m.stats()).damaged;
      // Turn 200 is named, and only records on the zeroed pages are.
      expect(damaged.ids).toContain(id);
      const lostIds = new Set(lost.map((i) => before.nodes.find((n) => n.text === DAY_TURNS[i]!.text)!.id));
      expect(damaged.ids.filter((x) => !lostIds.has(x))).toEqual([]);
      expect(damaged.count).toBeGreaterThanOrEqual(damaged.ids.length);
      expect(r.trace.damaged).toBeGreaterThan(0);
      expect(r.trace.damaged).toBeLessThanOrEqual(damaged.ids.length);
      // Every memory returned is one of the store's, whole, and none is a damaged one.
      const byId = new Map(before.nodes.map((n) => [n.id, n.text]));
      expect(r.memories).toHaveLength(3);
      for (const x of r.memories) {
        expect(x.text).toBe(byId.get(x.id));
        expect(damaged.ids).not.toContain(x.id);
      }
      // The answer is made of the turns next to day 200, which are readable.
      expect(r.memories.map((x) => x.id)).not.toContain(id);
      expect(warnings.filter((w) => w.entry.code === 'RECORDS_DAMAGED')).toHaveLength(1);
      expect(warnings[0]!.message).toContain(`left out ${r.trace.damaged} memory record(s)`);
      const again = await m.recall(DAY_TURNS[120]!.text, { k: 3 });
      expect(again.trace.damaged).toBeGreaterThanOrEqual(r.trace.damaged!);
      expect(again.memories[0]!.text).toBe(DAY_TURNS[120]!.text);
      // A recall warns again only when it met records it had not met unreadable before.
      expect(warnings.filter((w) => w.entry.code === 'RECORDS_DAMAGED')).toHaveLength(again.trace.damaged! > r.trace.damaged! ? 2 : 1);
    } finally {
      await m.close();
    }
  }, 120_000);

  it('jev-mem recall exits 0 with the readable memories', async () => {
    const dir = tempDir();
    const { id } = await zeroedStore(dir, 200);
    const r = await cli(['recall', DAY_TURNS[200]!.text, '--store', dir, '--namespace', 'chat', '--k', '3', '--json']);
    expect(r.code, r.err.join('\n')).toBe(0);
    const out = JSON.parse(r.out[0]!) as { memories: Array<{ id: string }>; trace: { damaged?: number } };
    expect(out.memories).toHaveLength(3);
    expect(out.memories.map((x) => x.id)).not.toContain(id);
    expect(out.trace.damaged).toBeGreaterThan(0);
  });
});
