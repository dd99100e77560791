/**
 * Batched point reads of the SQL record driver (`record-sql.ts`, issue 22): the `get`s a
 * transaction's work issues in one synchronous run (`Promise.all(ids.map((id) => tx.get(…)))`,
 * the record store's `getNodes` / `getEdges`) are answered by one statement per table and
 * namespace, `k IN (…)`, rather than one statement each. In Node every statement outside a SQL
 * transaction takes and drops SQLite's file lock (node-sqlite3-wasm locks with a directory:
 * a `mkdir` and a `rmdir` per statement), and a statement is prepared per SQL text; so the
 * number of keys bound is rounded up to one of {@link BATCH_SIZES} (the last key repeated), and a
 * longer list is read in statements of the largest size.
 *
 * What a batch answers is what a `get` each would: the records hold the same value, since
 * nothing is written to the database while a transaction runs (its writes wait in its overlay).
 * When SQLite finds a page damaged, each key of the batch is read alone, so the damage stays
 * with the records on that page (`readOne`).
 *
 * @module
 */
import { isCorruptError } from '../store/sql-errors.js';
import type { RecordKey, RecordTable } from './record-driver.js';
import { type StoredBytes, keyOfSql, sqlKey } from './record-sql-codec.js';
import type { SqlParam, SqlRow } from './sql-connection.js';

/**
 * Numbers of keys a batched statement binds (a batch is padded up to the next one); with the
 * table and namespace, 98 bindings at most (the Durable Object allows 100 per statement).
 */
export const BATCH_SIZES = [1, 4, 16, 48, 96] as const;

const keyId = (key: RecordKey): string => `${typeof key}:${String(key)}`;

interface Pending {
  table: RecordTable;
  ns: string;
  key: RecordKey;
  resolve(blob: StoredBytes | undefined): void;
  reject(e: unknown): void;
}

/** What a batched reader needs of the driver. */
export interface BatchReadOptions {
  /** Runs one statement. */
  q(sql: string, params: readonly SqlParam[]): SqlRow[];
  /** The record table's name. */
  rec: string;
  /** The code of a record table in the `tbl` column. */
  code(table: RecordTable): number;
  /** One key read alone (the driver's `readBlob`: damage on its page reads as an empty BLOB). */
  readOne(table: RecordTable, ns: string, key: RecordKey): Uint8Array | undefined;
}

/**
 * A reader whose `get` resolves with the stored BLOB of `(table, ns, key)` (one chunk, or its chunks in order) or
 * undefined; the gets issued before the next microtask are read together (see the module).
 * A failure of a batch's statement rejects each get of it (a busy error stays a busy error, so
 * the driver runs a read transaction again).
 */
export function batchedReader(o: BatchReadOptions): { get(table: RecordTable, ns: string, key: RecordKey): Promise<StoredBytes | undefined> } {
  let pending: Pending[] = [];

  /** The BLOBs of `keys` (distinct) of `(table, ns)`, by {@link keyId}. */
  function readMany(table: RecordTable, ns: string, keys: readonly RecordKey[]): Map<string, StoredBytes> {
    const found = new Map<string, Uint8Array[]>();
    const max: number = BATCH_SIZES[BATCH_SIZES.length - 1] as number;
    for (let at = 0; at < keys.length; at += max) {
      const part = keys.slice(at, at + max);
      const size: number = BATCH_SIZES.find((s) => s >= part.length) ?? max;
      const bound: SqlParam[] = part.map(sqlKey);
      while (bound.length < size) bound.push(bound[bound.length - 1] as SqlParam);
      const rows = o.q(`SELECT k, chunk, v FROM ${o.rec} WHERE tbl = ? AND ns = ? AND k IN (${'?, '.repeat(size - 1)}?) ORDER BY k, chunk`, [o.code(table), sqlKey(ns), ...bound]);
      for (const r of rows) {
        const id = keyId(keyOfSql(r.k));
        const chunks = found.get(id);
        // Chunks numbered 0, 1, … as written; another number (a changed byte of the key index) makes the record damaged (empty).
        const v = Number(r.chunk) === (chunks?.length ?? 0) ? (r.v as Uint8Array) : new Uint8Array(0);
        if (chunks === undefined) found.set(id, [v]);
        else chunks.push(v);
      }
    }
    const out = new Map<string, StoredBytes>();
    for (const [id, chunks] of found) out.set(id, chunks.length === 1 ? (chunks[0] as Uint8Array) : chunks); // decoded unjoined
    return out;
  }

  function flush(): void {
    const batch = pending;
    pending = [];
    const groups = new Map<string, Pending[]>();
    for (const p of batch) {
      const g = `${o.code(p.table)}:${p.ns}`;
      const list = groups.get(g);
      if (list === undefined) groups.set(g, [p]);
      else list.push(p);
    }
    for (const list of groups.values()) {
      const { table, ns } = list[0] as Pending;
      const keys = new Map<string, RecordKey>();
      for (const p of list) keys.set(keyId(p.key), p.key);
      try {
        let blobs: Map<string, StoredBytes | undefined>;
        try {
          blobs = readMany(table, ns, [...keys.values()]);
        } catch (e) {
          if (!isCorruptError(e)) throw e;
          blobs = new Map([...keys].map(([id, key]) => [id, o.readOne(table, ns, key)]));
        }
        for (const p of list) p.resolve(blobs.get(keyId(p.key)));
      } catch (e) {
        for (const p of list) p.reject(e);
      }
    }
  }

  return {
    get(table, ns, key) {
      return new Promise((resolve, reject) => {
        if (pending.length === 0) queueMicrotask(flush);
        pending.push({ table, ns, key, resolve, reject });
      });
    },
  };
}
