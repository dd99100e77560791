/**
 * Fault injection inside a Durable Object (issue 22: the fault suites run on every shipped store),
 * for `StorageProbe` (worker.ts): a commit cut at its n-th SQL statement by `ctx.abort()` (the
 * object is reset, as by a crash of its isolate), by a full store (`SQLITE_FULL`) or by a thrown
 * error; and a byte flipped in a stored row through SQL.
 *
 * The fault wrapper counts `sql.exec` calls only (no table names), so it follows the SQL store's
 * layout as it changes. {@link flipMarker} does look into the tables: it finds the rows whose
 * TEXT or BLOB values hold a marker string, in every table of the store's prefix that has a
 * rowid, and changes one byte of the marker there.
 *
 * @module
 */
import { createDurableObjectStorage, type DurableObjectStorageLike, type SqlValue } from '../../src/edge/do-storage.js';
import { isJevMemError } from '../../src/errors.js';
import type { WriteBatch } from '../../src/plane/store/storage.js';

/** How the commit is cut: the object aborted (a crash), a full store, or a plain error. */
export type FaultKind = 'abort' | 'full' | 'throw';

/** What a faulted commit answers when the object survives it. */
export interface FaultOutcome {
  /** True when the commit ran to its end before statement `at` (no fault happened). */
  completed: boolean;
  /** SQL statements the commit ran (counted up to the fault). */
  execs: number;
  /** The commit's error code, when it failed. */
  code?: string;
}

/** The part of a Durable Object's `ctx` the probe uses. */
export interface ProbeState {
  storage: DurableObjectStorageLike;
  abort?(reason?: string): void;
}

/**
 * Runs `batch` as one commit of a fresh adapter over the object's storage, with a fault at its
 * `at`-th SQL statement (counted from the commit's start; the adapter's own set-up statements
 * run before the count starts). `abort` resets the object: the request fails.
 */
export async function faultCommit(ctx: ProbeState, ns: string, batch: WriteBatch, at: number, kind: FaultKind): Promise<FaultOutcome> {
  let armed = false;
  let execs = 0;
  const real = ctx.storage;
  const storage: DurableObjectStorageLike = {
    sql: {
      exec(query: string, ...bindings: SqlValue[]) {
        if (armed && ++execs === at) {
          if (kind === 'abort') {
            if (typeof ctx.abort !== 'function') throw new Error('ctx.abort() is not available in this runtime');
            ctx.abort('jev-mem test: crash injected mid-commit');
          }
          throw new Error(kind === 'full' ? 'SQLITE_FULL: database or disk is full' : 'jev-mem test: error injected mid-commit');
        }
        return real.sql.exec(query, ...bindings);
      },
    },
    transactionSync: (fn) => real.transactionSync(fn),
  };
  const adapter = createDurableObjectStorage(storage);
  await adapter.loadMeta(ns); // set-up statements (schema check) before the count
  await adapter.counts(ns);
  armed = true;
  try {
    await adapter.commit(ns, batch);
    return { completed: true, execs };
  } catch (e) {
    return { completed: false, execs, code: isJevMemError(e) ? e.code : 'UNEXPECTED' };
  }
}

/** UTF-8 bytes of `s`. */
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);

/** Index of `needle` in `hay`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/**
 * Flips the case of the first letter of `marker` (one byte) wherever a stored TEXT or BLOB value
 * holds it, in the rowid tables named `<prefix>…` (FTS5 tables left out: their rows are the
 * index's own). Written against the SQL store's layout of issue 25 (schema v4).
 * @returns `table.column` of each value changed.
 */
export function flipMarker(storage: DurableObjectStorageLike, marker: string, prefix = 'jev_mem_'): string[] {
  const sql = storage.sql;
  const flipped: string[] = [];
  const first = marker.charCodeAt(0);
  const flippedFirst = first ^ 0x20; // ASCII letter: upper ↔ lower case
  const tables = sql
    .exec(`SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name LIKE ? ORDER BY name`, `${prefix}%`)
    .toArray()
    .filter((t) => !/VIRTUAL TABLE|WITHOUT ROWID/i.test(String(t.sql)) && !/_(data|idx|content|docsize|config)$/.test(String(t.name)));
  for (const t of tables) {
    const name = String(t.name);
    for (const row of sql.exec(`SELECT rowid AS jev_rowid, * FROM "${name}"`).toArray()) {
      for (const [col, value] of Object.entries(row)) {
        if (col === 'jev_rowid') continue;
        let next: SqlValue | undefined;
        if (typeof value === 'string' && value.includes(marker)) next = value.replace(marker, String.fromCharCode(flippedFirst) + marker.slice(1));
        else if (value instanceof ArrayBuffer) {
          const bytes = new Uint8Array(value.slice(0));
          const at = indexOf(bytes, utf8(marker));
          if (at >= 0) {
            bytes[at] = flippedFirst;
            next = bytes.buffer;
          }
        }
        if (next === undefined) continue;
        sql.exec(`UPDATE "${name}" SET "${col}" = ? WHERE rowid = ?`, next, row.jev_rowid as number);
        flipped.push(`${name}.${col}`);
      }
    }
  }
  return flipped;
}
