/**
 * The rowid walk of the SQL record driver's table (issue 22, damage stays local): when SQLite
 * finds a page of the key index `<p>rec_key (tbl, ns, k, chunk)` damaged, every read that goes
 * through the index fails, although the records whose keys lie on that page are whole in the
 * table's own B-tree, which is ordered by rowid. The walk reads the key columns of every row (not
 * its value, so no overflow page) in rowid order, `NOT INDEXED`, in steps of {@link WALK_STEP}
 * rows, and builds the map from keys to rowids the damaged index no longer gives; the values are
 * then read by rowid, one row each (`record-sql-reads.ts`).
 *
 * A damaged page of the table itself fails the step that reaches it. The walk then halves its
 * step up to it (O(log) statements), and skips the rowids it holds: a probe `id >= x LIMIT 1` fails for every `x` whose
 * search ends on the damaged page and succeeds past it, so the first readable rowid after it is
 * found by doubling the step, then halving the last interval (O(log) probes per damaged run of
 * pages, whatever their size). The skipped ranges are kept (`partial`): a key not found by a
 * partial walk may be on them, so the caller reads it as damaged, not absent.
 *
 * Cost: one pass over the table's leaf pages (808 rows, a 900 KB store: 12-78 ms, median of 7,
 * on the loaded 2-core build machine), and O(log) probes per damaged run of pages; once per connection and database version (the driver drops the walk at its own writes and
 * when `PRAGMA data_version` says another connection wrote).
 *
 * @module
 */
import { compareSqlKeys } from './record-sql-overlay.js';
import { keyOfSql } from './record-sql-codec.js';
import type { RecordKey } from './record-driver.js';
import type { SqlParam, SqlRow } from './sql-connection.js';
import { isCorruptError } from '../store/sql-errors.js';

/** Rows of the table read per statement of the walk. */
export const WALK_STEP = 2000;

/** Largest rowid the walk probes for (SQLite's rowids are 64-bit; a JS number is exact to 2^53). */
const MAX_ROWID = Number.MAX_SAFE_INTEGER;

/** One record (its chunk rows) as the walk found it. */
interface Walked {
  key: RecordKey;
  /** Rowids of its chunks, by chunk number (a hole: a chunk the walk did not find). */
  chunks: number[];
}

/** What the rowid walk found (see the module). */
export interface RowidWalk {
  /** The rowids of the chunks of `(tbl, ns, k)` in chunk order, or undefined when the walk found none. */
  chunks(tbl: number, ns: string, key: RecordKey): number[] | undefined;
  /** The records of `(tbl, ns)` with their chunks' rowids, in the index's key order. */
  records(tbl: number, ns: string): Array<[RecordKey, number[]]>;
  /** The namespaces holding a row of `tbl`, in the index's order (by their stored bytes). */
  namespaces(tbl: number): string[];
  /** Rowid ranges `[from, to]` the walk could not read (damaged table pages): keys there are unknown. */
  readonly skipped: ReadonlyArray<readonly [number, number]>;
  /** Rows read. */
  readonly rows: number;
}

const keyId = (key: RecordKey): string => `${typeof key}:${String(key)}`;

/**
 * Walks the table `rec` by rowid (see the module).
 * @param q - runs one statement.
 * @throws what a statement throws other than SQLite's damaged-file error.
 */
export function walkRowids(q: (sql: string, params: readonly SqlParam[]) => SqlRow[], rec: string): RowidWalk {
  const byTable = new Map<number, Map<string, Map<string, Walked>>>();
  const skipped: Array<readonly [number, number]> = [];
  let rows = 0;
  const add = (r: SqlRow): void => {
    const tbl = Number(r.tbl);
    const ns = keyOfSql(r.ns) as string;
    const key = keyOfSql(r.k);
    let spaces = byTable.get(tbl);
    if (spaces === undefined) byTable.set(tbl, (spaces = new Map()));
    let records = spaces.get(ns);
    if (records === undefined) spaces.set(ns, (records = new Map()));
    let w = records.get(keyId(key));
    if (w === undefined) records.set(keyId(key), (w = { key, chunks: [] }));
    w.chunks[Number(r.chunk)] = Number(r.id);
    rows++;
  };
  const select = `SELECT id, tbl, ns, k, chunk FROM ${rec} NOT INDEXED WHERE id >= ? ORDER BY id LIMIT ?`;
  /** The rows from rowid `from` on, `limit` at most; undefined when SQLite finds a page damaged. */
  const read = (from: number, limit: number): SqlRow[] | undefined => {
    try {
      return q(select, [from, limit]);
    } catch (e) {
      if (!isCorruptError(e)) throw e;
      return undefined;
    }
  };
  let from = -MAX_ROWID;
  let limit = WALK_STEP;
  while (from <= MAX_ROWID) {
    const step = read(from, limit);
    if (step !== undefined) {
      for (const r of step) add(r);
      if (step.length < limit) break; // the last row
      from = Number(step[step.length - 1]!.id) + 1;
      limit = Math.min(WALK_STEP, limit * 2);
      continue;
    }
    // A damaged page within the next `limit` rows: the rows before it in halved steps.
    if (limit > 1) {
      limit = Math.floor(limit / 2);
      continue;
    }
    // `from` is on the damaged page: the first rowid past it, by doubling, then halving.
    let bad = from;
    let span = 1;
    let good: number | undefined;
    while (good === undefined && bad < MAX_ROWID) {
      const probe = Math.min(MAX_ROWID, bad + span);
      if (read(probe, 1) !== undefined) good = probe;
      else {
        bad = probe;
        span *= 2;
      }
    }
    if (good === undefined) {
      skipped.push([from, MAX_ROWID]);
      break;
    }
    let first: number = good;
    while (first - bad > 1) {
      const mid: number = bad + Math.floor((first - bad) / 2);
      if (read(mid, 1) !== undefined) first = mid;
      else bad = mid;
    }
    skipped.push([from, first - 1]);
    from = first;
    limit = WALK_STEP;
  }
  return {
    chunks(tbl, ns, key) {
      return byTable.get(tbl)?.get(ns)?.get(keyId(key))?.chunks;
    },
    records(tbl, ns) {
      const found = byTable.get(tbl)?.get(ns);
      if (found === undefined) return [];
      return [...found.values()].sort((a, b) => compareSqlKeys(a.key, b.key)).map((w) => [w.key, w.chunks]);
    },
    namespaces(tbl) {
      return [...(byTable.get(tbl)?.keys() ?? [])].sort(compareSqlKeys);
    },
    skipped,
    rows,
  };
}
