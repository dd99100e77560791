/**
 * How the Node SQLite store reads its `erasures-pending` file (issue 22: erasure is exact): the
 * count of erasures not yet followed by a rewrite of the database file (VACUUM). The store writes
 * the count in decimal and removes the file at 0, so an absent file is the one clean answer. A
 * file that holds anything else (damaged, cut short, written by hand) or cannot be read is not
 * known to be clean: it reads as 1 pending erasure, so that `stats().erasuresPending` says so and
 * the next rewrite runs (and then removes the file). Before, such a file read as 0, which the
 * README calls byte-clean, and nothing rewrote the file.
 *
 * @module
 */
import { readFileSync } from 'node:fs';

/**
 * The pending erasures the file at `path` counts: 0 when it does not exist, its number when it
 * holds a whole decimal number (surrounding white space allowed), else 1 (see the module).
 * Never throws.
 */
export function readPendingErasures(path: string): number {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? 0 : 1;
  }
  const digits = text.trim();
  if (!/^\d{1,15}$/.test(digits)) return 1;
  return Number(digits);
}
