/**
 * The reads of the SQL record driver's table (`record-sql.ts`, issue 22: damage stays local):
 * one record by key, a key range of a namespace, the namespaces of a record table. Each goes
 * through the key index `(tbl, ns, k, chunk)`; when SQLite finds a page damaged on the way:
 *
 * - a damaged table page (the index whole): the keys are read from the index alone and each
 *   value by its row, so the damage costs the records on that page only (each reads as damaged,
 *   an empty BLOB);
 * - a damaged index page: the keys are found by the rowid walk of the table
 *   (`record-sql-walk.ts`), and each value read by its rowid, so the records whose keys lay on
 *   the page read as they are. A key the walk did not find is absent, unless the walk skipped
 *   damaged table pages (then it reads as damaged: a caller asks for keys it knows).
 *
 * The walk is made once and kept until the driver writes ({@link SqlReads.forget}) or another
 * connection does (`PRAGMA data_version`, where the connection answers it).
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import { isCorruptError, unlessCorrupt } from '../store/sql-errors.js';
import type { RecordKey, RecordTable } from './record-driver.js';
import { joinChunks, keyOfSql, sqlKey } from './record-sql-codec.js';
import { compareSqlKeys } from './record-sql-overlay.js';
import { type RowidWalk, walkRowids } from './record-sql-walk.js';
import type { SqlParam, SqlRow } from './sql-connection.js';

/** Largest chunk of a stored value in bytes (the Durable Object refuses values over 2 MB). */
export const RECORD_CHUNK_BYTES = 1 << 20;

/** The reads of the record table (see the module). */
export interface SqlReads {
  /** The value of `(table, ns, key)` as its chunks joined, undefined when absent, an empty BLOB when damaged. */
  readBlob(table: RecordTable, ns: string, key: RecordKey): Uint8Array | undefined;
  /** Records of `(table, ns)` after `after` in key order, `limit` at most (chunks joined; a damaged one as an empty BLOB). */
  readScan(table: RecordTable, ns: string, after: RecordKey | undefined, limit: number): Array<[RecordKey, Uint8Array]>;
  /** Namespaces holding a record in `table`, sorted by their stored bytes. */
  readNamespaces(table: RecordTable): string[];
  /**
   * Whether the table itself holds a row of `(table, ns, key)`, by a fresh rowid walk (not through
   * the key index): a delete whose statement removed nothing asks it, since a damaged index
   * entry hides the row from the statement (h-break15 finding 1). A full pass over the table's
   * key columns: for that rare case only.
   */
  holds(table: RecordTable, ns: string, key: RecordKey): boolean;
  /** Drops the rowid walk (the table changed). */
  forget(): void;
}

/**
 * The reads of table `rec` through `q` (see the module).
 * @param code - the `tbl` code of a record table.
 */
export function sqlReads(q: (sql: string, params?: readonly SqlParam[]) => SqlRow[], rec: string, code: (table: RecordTable) => number): SqlReads {
  let walked: { walk: RowidWalk; version: unknown } | undefined;
  /** SQLite's count of other connections' commits (undefined where the connection does not answer it). */
  const version = (): unknown => {
    try {
      return q('PRAGMA data_version')[0]?.data_version;
    } catch {
      return undefined;
    }
  };
  /** The rowid walk of the table as it is now (made again when another connection wrote). */
  const walk = (): RowidWalk => {
    const now = version();
    if (walked === undefined || walked.version !== now) walked = { walk: walkRowids(q, rec), version: now };
    return walked.walk;
  };
  /** The value in the rows `ids` (chunks in order), checked to be `(tbl, ns, key)`'s; an empty BLOB when one is unreadable. */
  const byRowids = (tbl: number, ns: string, key: RecordKey, ids: readonly number[]): Uint8Array => {
    const chunks: Uint8Array[] = [];
    for (let chunk = 0; chunk < ids.length; chunk++) {
      const id = ids[chunk];
      const row = id === undefined ? undefined : unlessCorrupt(() => q(`SELECT tbl, ns, k, chunk, v FROM ${rec} WHERE id = ?`, [id])[0], undefined);
      if (row === undefined || Number(row.tbl) !== tbl || keyOfSql(row.ns) !== ns || keyOfSql(row.k) !== key || Number(row.chunk) !== chunk || !(row.v instanceof Uint8Array)) return new Uint8Array(0);
      chunks.push(row.v);
    }
    return joinChunks(chunks) ?? new Uint8Array(0);
  };

  function readBlob(table: RecordTable, ns: string, key: RecordKey): Uint8Array | undefined {
    try {
      const rows = q(`SELECT chunk, v FROM ${rec} WHERE tbl = ? AND ns = ? AND k = ? ORDER BY chunk`, [code(table), sqlKey(ns), sqlKey(key)]);
      // Chunks numbered 0, 1, … as written; another number (a changed byte of the key index): damaged.
      for (let i = 0; i < rows.length; i++) if (Number(rows[i]!.chunk) !== i) return new Uint8Array(0);
      return joinChunks(rows.map((r) => r.v as Uint8Array));
    } catch (e) {
      if (!isCorruptError(e)) throw e;
      // Is there such a record (its key is in the index)? Then its value by rowid: an empty BLOB
      // when its table page is damaged; whole when only the index page after its key is (the
      // first read went on to it, looking for more chunks). Absent when the index says so.
      const there = unlessCorrupt(() => q(`SELECT id FROM ${rec} WHERE tbl = ? AND ns = ? AND k = ? AND chunk = 0`, [code(table), sqlKey(ns), sqlKey(key)]), undefined);
      if (there?.length === 0) return undefined;
      if (there !== undefined) {
        const first = byRowids(code(table), ns, key, [Number(there[0]!.id)]);
        if (first.byteLength < RECORD_CHUNK_BYTES) return first;
      }
      // The index page of its key is damaged (or it has more chunks): the rowid walk.
      const w = walk();
      const ids = w.chunks(code(table), ns, key);
      if (ids === undefined) return w.skipped.length > 0 ? new Uint8Array(0) : undefined;
      return byRowids(code(table), ns, key, ids);
    }
  }

  function readScan(table: RecordTable, ns: string, after: RecordKey | undefined, limit: number): Array<[RecordKey, Uint8Array]> {
    const params: SqlParam[] = [code(table), sqlKey(ns)];
    if (after !== undefined) params.push(sqlKey(after));
    if (Number.isFinite(limit)) params.push(limit);
    const where = `WHERE tbl = ? AND ns = ?${after === undefined ? '' : ' AND k > ?'} AND chunk = 0 ORDER BY k${Number.isFinite(limit) ? ' LIMIT ?' : ''}`;
    const whole = (key: RecordKey, blob: Uint8Array): [RecordKey, Uint8Array] => [key, blob.byteLength === RECORD_CHUNK_BYTES ? (readBlob(table, ns, key) ?? blob) : blob];
    try {
      return q(`SELECT k, v FROM ${rec} ${where}`, params).map((r) => whole(keyOfSql(r.k), r.v as Uint8Array));
    } catch (e) {
      if (!isCorruptError(e)) throw e;
    }
    try {
      return q(`SELECT id, k FROM ${rec} ${where}`, params).map((r) => {
        const blob = unlessCorrupt(() => q(`SELECT v FROM ${rec} WHERE id = ?`, [Number(r.id)])[0]?.v as Uint8Array | undefined, undefined);
        return whole(keyOfSql(r.k), blob ?? new Uint8Array(0));
      });
    } catch (e) {
      if (!isCorruptError(e)) throw e;
    }
    // The index is damaged where the range lies: the keys from the rowid walk.
    const out: Array<[RecordKey, Uint8Array]> = [];
    for (const [key, ids] of walk().records(code(table), ns)) {
      if (out.length >= limit) break;
      if (after === undefined || compareSqlKeys(key, after) > 0) out.push([key, byRowids(code(table), ns, key, ids)]);
    }
    return out;
  }

  function readNamespaces(table: RecordTable): string[] {
    const out: string[] = [];
    try {
      for (let last: Uint8Array | undefined; ; ) {
        const row = q(`SELECT ns FROM ${rec} WHERE tbl = ?${last === undefined ? '' : ' AND ns > ?'} ORDER BY ns LIMIT 1`, last === undefined ? [code(table)] : [code(table), last])[0];
        if (row === undefined) return out;
        last = row.ns as Uint8Array;
        out.push(keyOfSql(last) as string);
      }
    } catch (e) {
      if (!isCorruptError(e)) throw e;
      return walk().namespaces(code(table));
    }
  }

  return {
    readBlob,
    readScan,
    readNamespaces,
    holds(table, ns, key) {
      walked = undefined;
      const found = walk().chunks(code(table), ns, key) !== undefined;
      walked = undefined;
      return found;
    },
    forget() {
      walked = undefined;
    },
  };
}

/**
 * The error of a delete that could not remove a node record: the table holds its row, but the
 * key index does not lead to it (a damaged index page), so no statement through the index
 * reaches it. `STORE_DAMAGED`, field `namespace`, `ids` the record's key; nothing was written.
 */
export function hiddenRecordError(label: string, ns: string, key: RecordKey): JevMemError {
  return new JevMemError(
    'STORE_DAMAGED',
    `${label}: the record of node ${JSON.stringify(key)} in namespace ${JSON.stringify(ns)} is in the table but its key index does not lead to it (a damaged index page), so it could not be deleted; nothing was written. Run \`jev-mem check\` and \`jev-mem repair\``,
    { field: 'namespace', ids: [String(key)] },
  );
}
