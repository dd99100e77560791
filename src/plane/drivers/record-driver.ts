/**
 * The record driver (issue 22): the small per-platform interface under the one record store
 * (`record-store.ts`), in the spirit of Dexie's small database interface with the features
 * layered over it. A driver offers named tables of records keyed by `(namespace, key)` and
 * transactions over them: get, put, delete, delete a key range, scan a key range in key order,
 * and list the namespaces a table holds. Everything else (validation, the change log,
 * checkpoints and their checksums, kept counters, damage, error mapping) is the store's, written
 * once. Drivers: in-memory Maps (`record-memory.ts`) and IndexedDB through `idb`
 * (`record-idb.ts`). No member is optional and no driver has a slow path the other lacks.
 *
 * @module
 */

/**
 * The tables of the record store (their names are also the IndexedDB object stores of database
 * version 2 and later, so databases written before issue 22 open as they are):
 * - `node`: key node id → node record (`record-codec.ts`);
 * - `adj`: key node id → adjacency record (every edge touching the node, `record-adjacency.ts`);
 * - `edge-ids`: key edge id → `[from, to]` of an edge whose id is not the write path's;
 * - `meta`: key meta key → JSON-safe value;
 * - `changes`: key change number → node ids changed by that commit (the change log);
 * - `checkpoints`, `spaces`: one record per namespace, under the key {@link ONE}.
 */
export type RecordTable = 'node' | 'adj' | 'edge-ids' | 'meta' | 'changes' | 'checkpoints' | 'spaces';

/** Every table, in a fixed order. */
export const RECORD_TABLES: readonly RecordTable[] = ['node', 'adj', 'edge-ids', 'meta', 'changes', 'checkpoints', 'spaces'];

/** The key of the one record a namespace has in the tables `checkpoints` and `spaces`. */
export const ONE = '' as const;

/**
 * A key inside one namespace of a table: a string (ids, meta keys) or a number (change
 * numbers). Keys of one table are of one type; numbers sort before strings, strings by UTF-16
 * code units (the IndexedDB key order).
 */
export type RecordKey = string | number;

/**
 * What a driver answers for a stored record whose bytes fail their checksum or cannot be decoded
 * (issue 22, "damage stays local"), in the tables other than `node` and `checkpoints` (whose
 * readers check their own sums: there a damaged record reads as a value that fails them). The
 * store skips such a record, logs and names it (`record-screen.ts`), and never decodes it.
 * The SQL driver (`record-sql-seal.ts`) and the IndexedDB driver (`record-idb-seal.ts`) seal
 * what they store; the memory driver keeps live objects and never answers one.
 */
export class DamagedRecord {
  /** @param reason - what failed, for messages (`checksum`, `decode`, `page`). */
  constructor(readonly reason: string) {}
}

/** Whether `value` is a {@link DamagedRecord}. */
export function isDamagedRecord(value: unknown): value is DamagedRecord {
  return value instanceof DamagedRecord;
}

/** One record of a scan: its key and its value. */
export type KeyedRecord = readonly [key: RecordKey, value: unknown];

/**
 * One transaction of a driver. Reads resolve in the transaction; writes are issued at once and
 * take effect with the transaction (a write transaction sees its own writes). Work inside a
 * transaction awaits nothing but the transaction's own reads. Values are stored as copies
 * (structured clone): a value that cannot be cloned fails the transaction.
 */
export interface RecordTx {
  /** The value under `(namespace, key)` in `table`, or undefined. */
  get(table: RecordTable, namespace: string, key: RecordKey): Promise<unknown>;
  /** Stores `value` under `(namespace, key)`, replacing any value there. Write transactions only. */
  put(table: RecordTable, namespace: string, key: RecordKey, value: unknown): void;
  /** Removes the value under `(namespace, key)` (nothing when absent). Write transactions only. */
  delete(table: RecordTable, namespace: string, key: RecordKey): void;
  /**
   * Removes every record of `namespace` in `table` whose key is ≤ `upTo`, or every record of the
   * namespace when `upTo` is undefined. Write transactions only.
   */
  deleteRange(table: RecordTable, namespace: string, upTo: RecordKey | undefined): void;
  /**
   * Up to `limit` records of `namespace` in `table` with keys after `after` (from the first when
   * undefined), in key order. `limit` is a whole number ≥ 1 or `Infinity`.
   */
  scan(table: RecordTable, namespace: string, after: RecordKey | undefined, limit: number): Promise<KeyedRecord[]>;
  /** The namespaces holding at least one record in `table`, sorted. */
  namespaces(table: RecordTable): Promise<string[]>;
}

/**
 * A record driver: transactions over named tables. A write transaction is atomic: when `work`
 * throws or a write fails, nothing of it is kept and the failure is rethrown raw (a DOMException
 * such as `QuotaExceededError` or `DataCloneError`, which the store maps to its error codes).
 */
export interface RecordDriver {
  /**
   * Runs `work` in one transaction over `tables` (`'write'` may change them) and resolves with
   * its result once the transaction has finished.
   * @throws JevMemError `CLOSED` after `close()`, `STORAGE_FAILED` when the connection was lost;
   *   otherwise the raw failure of `work` or of a request.
   */
  transaction<T>(tables: readonly RecordTable[], mode: 'read' | 'write', work: (tx: RecordTx) => Promise<T>): Promise<T>;
  /** Releases the driver; later transactions throw `CLOSED`. Idempotent. */
  close(): void;
}
