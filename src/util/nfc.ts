/**
 * Unicode form NFC for the names and ids a memory compares (issue 22): `"José"` typed as
 * `e` + U+0301 (NFD, as macOS input and file names often give it) and as U+00E9 are one name.
 * The write path stores scope ids (`userId`, `agentId`, `sessionId`, `role`) and `speaker` in
 * NFC (memory/input.ts, write/validate.ts); reads compare in NFC on both sides, so values a store
 * written before that rule holds in NFD are still found (read/filter.ts).
 *
 * @module
 */

/** `v` in Unicode form NFC when it is a string, else `v` unchanged. */
export function nfc<T>(v: T): T {
  return (typeof v === 'string' ? v.normalize('NFC') : v) as T;
}

/** True when `a` and `b` are equal, strings compared in Unicode form NFC (canonically equivalent). */
export function sameNfc(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  return typeof a === 'string' && typeof b === 'string' && a.normalize('NFC') === b.normalize('NFC');
}
