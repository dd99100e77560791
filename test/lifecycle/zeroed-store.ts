/**
 * The zeroed store of the damage tests of h-break9 (issue 22): 400 turns written into a SQLite
 * store file, then two of its pages zeroed as `dd if=/dev/zero … conv=notrunc` does.
 */
import { writeFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createSqliteFileStorage } from '../../src/plane/store/sqlite-file-storage.js';
import type { Observation } from '../../src/types.js';
import type { LogEntry } from '../../src/util/logger.js';
import { longTurns, writtenStoreFile } from './helpers.js';

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
export async function openFixed(encoder: Encoder, dir: string, logger?: (level: string, message: string, entry: LogEntry) => void): Promise<Memory> {
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
export async function zeroedStore(encoder: Encoder, dir: string, target: number): Promise<Awaited<ReturnType<typeof writtenStoreFile>> & { id: string; lost: number[] }> {
  const written = await writtenStoreFile(dir, (d) => openFixed(encoder, d), DAY_TURNS);
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

