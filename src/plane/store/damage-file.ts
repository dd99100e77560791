/**
 * What `jev-mem check` found, kept beside the store file (issue 22, "damage stays local"): the
 * damage a check's full pass finds is known to every later process at once, with no pass of its
 * own (`stats().damaged` is O(1), issue 25): `<dir>/jev-mem.sqlite.damage.json`, holding
 * `{"namespaces":[{"namespace","ids","records"}],"sqlite":[…]}` (ids and record names only, no
 * text). A store opened over it starts its damage log from it: puts into a namespace with damaged
 * records are refused, and when SQLite's own check found the file malformed (`sqlite` not empty),
 * puts into every namespace (deletes pass: erasure stays possible). A check that finds the store
 * clean removes the file, and so does `jev-mem repair` (the repaired file is new). Damage any
 * other process's reads find (a recall that warned `RECORDS_DAMAGED`) is added to the file as
 * it is found ({@link keepFoundDamage}), so the next writer refuses too (h-break14 finding 3).
 *
 * Every change of the file (a read's finding, a check, a repair, an erasure) reads, merges and
 * writes it under its own short lock (`damage-lock.ts`), renamed into place whole: two processes
 * recording damage at once both keep theirs (issue 22, h-lock). The file names the database file
 * its damage was found in (`file`, {@link storeFileIdentity}): `jev-mem repair` puts a new file in
 * place, so damage that a process still reading the replaced file finds is dropped, not written
 * back, and a file naming a replaced database is ignored at open.
 *
 * Node only (`node:fs`).
 *
 * @module
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { JevMemError } from '../../errors.js';
import type { KnownDamage } from './checksum.js';
import { withDamageLock } from './damage-lock.js';

export type { KnownDamage } from './checksum.js';

/** The file's name in the store directory. */
export const DAMAGE_FILE_NAME = 'jev-mem.sqlite.damage.json';

/** The database file's name in the store directory (`sqlite-file-storage.ts` `SQLITE_FILE_NAME`). */
const DATABASE_NAME = 'jev-mem.sqlite';

/**
 * The identity of the database file `file` (`<dev>:<inode>:<birth time ns>`), or undefined when
 * it cannot be read: a repair's rename puts a file of another identity in its place (the birth
 * time tells a reused inode apart where the file system keeps one).
 */
export function storeFileIdentity(file: string): string | undefined {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.dev}:${s.ino}:${s.birthtimeNs}`;
  } catch {
    return undefined;
  }
}

/** Whether `value` is a {@link KnownDamage}. */
function isKnownDamage(value: unknown): value is KnownDamage {
  const v = value as KnownDamage;
  const strings = (a: unknown): boolean => Array.isArray(a) && a.every((s) => typeof s === 'string');
  return (
    typeof v === 'object' && v !== null && strings(v.sqlite) && Array.isArray(v.namespaces) && (v.file === undefined || typeof v.file === 'string') &&
    v.namespaces.every((n) => typeof n === 'object' && n !== null && typeof n.namespace === 'string' && strings(n.ids) && strings(n.records))
  );
}

/**
 * The damage kept in `dir`, or undefined when there is no such file, it is not one, or it names
 * another database file than the one in `dir` now (found before a repair replaced it): it is then ignored.
 */
export function readDamageFile(dir: string): KnownDamage | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, DAMAGE_FILE_NAME), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    if (!isKnownDamage(value)) return undefined;
    return value.file === undefined || value.file === storeFileIdentity(join(dir, DATABASE_NAME)) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `found` whole (aside, then renamed over the file), or removes the file when it holds no damage. Under the lock. */
function replaceDamageFile(dir: string, found: KnownDamage): void {
  const path = join(dir, DAMAGE_FILE_NAME);
  const namespaces = found.namespaces.filter((n) => n.ids.length + n.records.length > 0);
  if (found.sqlite.length === 0 && namespaces.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, JSON.stringify({ namespaces, sqlite: found.sqlite, ...(found.file !== undefined ? { file: found.file } : {}) }));
    renameSync(temp, path);
  } catch (e) {
    rmSync(temp, { force: true });
    throw e;
  }
}

/** {@link withDamageLock}, failing when the lock stays taken. @throws JevMemError `STORAGE_FAILED` (field `store`). */
async function underLock(dir: string, fn: () => void): Promise<void> {
  if ((await withDamageLock(dir, fn)) === undefined) {
    throw new JevMemError('STORAGE_FAILED', `the damage file of the store at ${dir} stayed locked by another process; run the command again`, { field: 'store' });
  }
}

/**
 * Keeps `found` (a full check's finding, for the database file in `dir` now) in `dir`, or removes
 * the file when `found` holds no damage; under the file's lock.
 * @throws the file system's error when the file cannot be written or removed; JevMemError
 *   `STORAGE_FAILED` (field `store`) when another process holds the lock past `DAMAGE_LOCK_WAIT_MS`.
 */
export async function writeDamageFile(dir: string, found: KnownDamage): Promise<void> {
  await underLock(dir, () => replaceDamageFile(dir, { ...found, file: storeFileIdentity(join(dir, DATABASE_NAME)) }));
}

/**
 * Takes erased records out of the file in `dir` (issue 22: it names what is damaged, not what
 * was erased): node ids `ids` of `namespace`, with their adjacency records, or, with `ids`
 * undefined, the whole namespace; under the file's lock. The file is removed when nothing damaged
 * is left; no file, nothing to do. A failure to write it is not an error (the next `jev-mem check` writes it anew).
 */
export async function forgetInDamageFile(dir: string, namespace: string, ids: readonly string[] | undefined): Promise<void> {
  const gone = new Set(ids ?? []);
  await withDamageLock(dir, () => {
    const known = readDamageFile(dir);
    if (known === undefined) return;
    const namespaces = known.namespaces
      .filter((n) => ids !== undefined || n.namespace !== namespace)
      .map((n) => (n.namespace !== namespace ? n : { ...n, ids: n.ids.filter((id) => !gone.has(id)), records: n.records.filter((r) => !(r.startsWith('adj:') && gone.has(r.slice(4)))) }));
    if (JSON.stringify(namespaces) !== JSON.stringify(known.namespaces)) replaceDamageFile(dir, { ...known, namespaces });
  }).catch(() => undefined); // kept as it was: it names one erased id too many until the next check
}

/** What {@link keepFoundDamage} gives the store: the damage log's listener and a wait for its writes. */
export interface FoundDamageKeeper {
  /** The listener (`RecordStoreOptions.onDamage`). */
  onDamage(namespace: string, found: { ids: string[]; records: string[] }): void;
  /** Resolves once what was found so far is written (or given up); never rejects. For `close()`. */
  flushed(): Promise<void>;
}

/**
 * Adds the damage reads of this process find to the file in `dir`: what one synchronous run of
 * reads finds is merged (a microtask later, under the file's lock: `damage-lock.ts`) into what
 * the file holds, written aside and renamed over it, so a reader of the file never sees half of
 * it and two processes recording at once both keep theirs. `opened` is the
 * {@link storeFileIdentity} of the database file this process's connection reads (taken before
 * it opened it): when another file is in its place now (a `jev-mem repair` ran meanwhile), what
 * it found is no damage of the store and is dropped. A failure to write it is not an error of
 * the read (the read already skipped and named the record; `jev-mem check` writes the file anew).
 */
export function keepFoundDamage(dir: string, opened: string | undefined): FoundDamageKeeper {
  let batch: Array<[string, { ids: string[]; records: string[] }]> = [];
  let writes: Promise<void> = Promise.resolve();
  const merge = (found: Array<[string, { ids: string[]; records: string[] }]>): void => {
    if (opened === undefined || opened !== storeFileIdentity(join(dir, DATABASE_NAME))) return; // replaced since it was opened
    const known = readDamageFile(dir) ?? { namespaces: [], sqlite: [] };
    const byName = new Map(known.namespaces.map((n) => [n.namespace, { namespace: n.namespace, ids: new Set(n.ids), records: new Set(n.records) }]));
    for (const [namespace, f] of found) {
      let n = byName.get(namespace);
      if (n === undefined) byName.set(namespace, (n = { namespace, ids: new Set(), records: new Set() }));
      for (const id of f.ids) n.ids.add(id);
      for (const r of f.records) n.records.add(r);
    }
    const namespaces = [...byName.values()].map((n) => ({ namespace: n.namespace, ids: [...n.ids].sort(), records: [...n.records].sort() }));
    replaceDamageFile(dir, { namespaces, sqlite: known.sqlite, file: opened });
  };
  const flush = (): void => {
    const found = batch;
    batch = [];
    writes = writes.then(() => withDamageLock(dir, () => merge(found))).then(() => undefined, () => undefined);
  };
  return {
    onDamage(namespace, found) {
      if (batch.length === 0) queueMicrotask(flush);
      batch.push([namespace, found]);
    },
    flushed: async () => {
      await Promise.resolve(); // a batch of this turn is queued first
      await writes;
    },
  };
}
