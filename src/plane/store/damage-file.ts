/**
 * What `jev-mem check` found, kept beside the store file (issue 22, "damage stays local"): the
 * damage a check's full pass finds is known to every later process at once, with no pass of its
 * own (`stats().damaged` is O(1), issue 25): `<dir>/jev-mem.sqlite.damage.json`, holding
 * `{"namespaces":[{"namespace","ids","records"}],"sqlite":[…]}` (ids and record names only, no
 * text). A store opened over it starts its damage log from it: puts into a namespace with damaged
 * records are refused, and when SQLite's own check found the file malformed (`sqlite` not empty),
 * puts into every namespace (deletes pass: erasure stays possible). A check that finds the store
 * clean removes the file, and so does `jev-mem repair` (the repaired file is new).
 *
 * Node only (`node:fs`).
 *
 * @module
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
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
