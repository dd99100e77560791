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
 * Node only (`node:fs`).
 *
 * @module
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KnownDamage } from './checksum.js';

export type { KnownDamage } from './checksum.js';

/** The file's name in the store directory. */
export const DAMAGE_FILE_NAME = 'jev-mem.sqlite.damage.json';

/** Whether `value` is a {@link KnownDamage}. */
function isKnownDamage(value: unknown): value is KnownDamage {
  const v = value as KnownDamage;
  const strings = (a: unknown): boolean => Array.isArray(a) && a.every((s) => typeof s === 'string');
  return (
    typeof v === 'object' && v !== null && strings(v.sqlite) && Array.isArray(v.namespaces) &&
    v.namespaces.every((n) => typeof n === 'object' && n !== null && typeof n.namespace === 'string' && strings(n.ids) && strings(n.records))
  );
}

/** The damage kept in `dir`, or undefined when there is no such file (or it is not one: it is then ignored). */
export function readDamageFile(dir: string): KnownDamage | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, DAMAGE_FILE_NAME), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const value: unknown = JSON.parse(text);
    return isKnownDamage(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps `found` in `dir`, or removes the file when `found` holds no damage.
 * @throws the file system's error when the file cannot be written or removed.
 */
export function writeDamageFile(dir: string, found: KnownDamage): void {
  const path = join(dir, DAMAGE_FILE_NAME);
  const damaged = found.sqlite.length > 0 || found.namespaces.some((n) => n.ids.length + n.records.length > 0);
  if (!damaged) rmSync(path, { force: true });
  else writeFileSync(path, JSON.stringify({ namespaces: found.namespaces.filter((n) => n.ids.length + n.records.length > 0), sqlite: found.sqlite }));
}

/**
 * Takes erased records out of the file in `dir` (issue 22: it names what is damaged, not what
 * was erased): node ids `ids` of `namespace`, with their adjacency records, or, with `ids`
 * undefined, the whole namespace. The file is removed when nothing damaged is left; no file,
 * nothing to do. A failure to write it is not an error (the next `jev-mem check` writes it anew).
 */
export function forgetInDamageFile(dir: string, namespace: string, ids: readonly string[] | undefined): void {
  const known = readDamageFile(dir);
  if (known === undefined) return;
  const gone = new Set(ids ?? []);
  const namespaces = known.namespaces
    .filter((n) => ids !== undefined || n.namespace !== namespace)
    .map((n) => (n.namespace !== namespace ? n : { ...n, ids: n.ids.filter((id) => !gone.has(id)), records: n.records.filter((r) => !(r.startsWith('adj:') && gone.has(r.slice(4)))) }));
  if (JSON.stringify(namespaces) === JSON.stringify(known.namespaces)) return;
  try {
    writeDamageFile(dir, { namespaces, sqlite: known.sqlite });
  } catch {
    // kept as it was: it names one erased id too many until the next check
  }
}

/**
 * A listener for the store's damage log (`RecordStoreOptions.onDamage`) that adds the damage a
 * read of this process finds to the file in `dir`: what one synchronous run of reads finds is
 * merged at once (a microtask later) into what the file holds, written to a temporary file and
 * renamed over it, so a reader of the file never sees half of it. A failure to write it is not
 * an error of the read (the read already skipped and named the record; `jev-mem check` writes
 * the file anew).
 */
export function keepFoundDamage(dir: string): (namespace: string, found: { ids: string[]; records: string[] }) => void {
  let batch: Array<[string, { ids: string[]; records: string[] }]> = [];
  const flush = (): void => {
    const found = batch;
    batch = [];
    const known = readDamageFile(dir) ?? { namespaces: [], sqlite: [] };
    const byName = new Map(known.namespaces.map((n) => [n.namespace, { namespace: n.namespace, ids: new Set(n.ids), records: new Set(n.records) }]));
    for (const [namespace, f] of found) {
      let n = byName.get(namespace);
      if (n === undefined) byName.set(namespace, (n = { namespace, ids: new Set(), records: new Set() }));
      for (const id of f.ids) n.ids.add(id);
      for (const r of f.records) n.records.add(r);
    }
    const namespaces = [...byName.values()].map((n) => ({ namespace: n.namespace, ids: [...n.ids].sort(), records: [...n.records].sort() }));
    const path = join(dir, DAMAGE_FILE_NAME);
    const temp = `${path}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify({ namespaces, sqlite: known.sqlite }));
      renameSync(temp, path);
    } catch {
      rmSync(temp, { force: true });
    }
  };
  return (namespace, found) => {
    if (batch.length === 0) queueMicrotask(flush);
    batch.push([namespace, found]);
  };
}
