/**
 * Storage adapter on a Durable Object's SQLite storage (`ctx.storage.sql`), SPEC 2, 3, 4.6, 9:
 * one strongly consistent store per Durable Object, which the edge entry uses as one store per
 * memory namespace. The store is the one record store (`plane/store/record-store.ts`, issue 22)
 * over the SQL record driver (`plane/drivers/record-sql.ts`: one record table, values in 1 MiB
 * chunks under the object's 2 MB value limit, an FTS5 index per namespace kept in the commit's
 * transaction), so a namespace is bounded by the object's SQLite storage, not by the isolate's
 * 128 MB. A database of the SQL store's layouts 1–4 (v1: tables `<p>nodes`, `<p>edges`, `<p>meta`
 * with JSON bodies) is imported into the record table in one transaction at the first call.
 *
 * The Durable Object types are declared structurally here ({@link DurableObjectStorageLike}), so
 * this file needs neither `@cloudflare/workers-types` nor the `cloudflare:workers` module.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import { RECORD_SQL_VERSION, type SqlConnection, type SqlParam, type SqlRow, type TransactionQueue } from '../plane/drivers/record-sql.js';
import { createSqlRecordStore } from '../plane/store/sql-record-store.js';
import type { StorageAdapter } from '../plane/store/storage.js';

/** Layout version this build writes and reads (the record table, `plane/drivers/record-sql.ts`; layouts 1–4 are imported). */
export const DO_SCHEMA_VERSION = Number(RECORD_SQL_VERSION);

/** A SQL value as the Durable Object SQL API takes and returns it. */
export type SqlValue = string | number | null | ArrayBuffer;

/** The part of a Durable Object SQL cursor the adapter uses. */
export interface SqlCursorLike {
  /** Every remaining row as an object keyed by column name. */
  toArray(): Array<Record<string, SqlValue>>;
}

/** The part of `ctx.storage.sql` (Cloudflare `SqlStorage`) the adapter uses. */
export interface SqlStorageLike {
  /** Runs one statement with `?` bindings. Throws on SQL errors. */
  exec(query: string, ...bindings: SqlValue[]): SqlCursorLike;
}

/** The part of `ctx.storage` (Cloudflare `DurableObjectStorage`, SQLite-backed) the adapter uses. */
export interface DurableObjectStorageLike {
  readonly sql: SqlStorageLike;
  /** Runs `fn` as one SQLite transaction: a throw rolls every statement back. */
  transactionSync<T>(fn: () => T): T;
}

/** Options of {@link createDurableObjectStorage}. */
export interface DurableObjectStorageOptions {
  /**
   * Prefix of the table names (letters, digits, `_`; must not start with `_cf_`, which
   * Cloudflare reserves).
   * @default 'jev_mem_'
   */
  tablePrefix?: string;
}

/**
 * The {@link SqlConnection} over `ctx.storage`: BLOBs cross as ArrayBuffer there, as Uint8Array
 * here; one object runs one request's statements at a time, so `ready` resolves at once.
 */
function durableObjectConnection(storage: DurableObjectStorageLike): SqlConnection {
  const toSql = (v: SqlParam): SqlValue => (v instanceof Uint8Array ? v.slice().buffer : v);
  return {
    query(sql: string, params: readonly SqlParam[] = []): SqlRow[] {
      const rows = storage.sql.exec(sql, ...params.map(toSql)).toArray();
      for (const row of rows) for (const [k, v] of Object.entries(row)) if (v instanceof ArrayBuffer) (row as SqlRow)[k] = new Uint8Array(v);
      return rows as SqlRow[];
    },
    transaction: (fn) => storage.transactionSync(fn),
    ready: async () => undefined,
    settle: () => undefined,
  };
}

/**
 * The transaction queue of each object's storage, shared by every adapter over it: nothing locks
 * the storage between the turns of one commit (its meta check, then its writes), so two adapters'
 * commits (two requests of one object, each with its own memory) must not interleave (issue 22,
 * h-lock: they gave two observations one seq). Keyed by the storage object, dropped with it.
 */
const queues = new WeakMap<DurableObjectStorageLike, TransactionQueue>();

/**
 * Creates the adapter (`kind: 'durable-object'`) over a SQLite-backed Durable Object's storage.
 * The store keeps the lexical index (FTS5, `plane/indexes/sql-lexical.ts`: `lexicalIndex`), so the
 * isolate holds no MiniSearch. Tables are created (or v1 tables migrated, in one transaction) on first use; a database
 * written by a newer layout version is refused. Semantics, `sizeBytes` and errors are those of
 * the record store (`createRecordStore`, plane/store/record-store.ts).
 *
 * @param storage - `ctx.storage` of a Durable Object declared with `new_sqlite_classes`.
 * @throws JevMemError `INVALID_OPTION` (field `tablePrefix`) for a bad prefix, and `INVALID_OPTION`
 *   (field `storage`) when `storage.sql` is missing (a key-value-backed Durable Object).
 *   The adapter's methods throw `INVALID_INPUT` naming the field (malformed batch or namespace),
 *   `SCHEMA_MISMATCH` (another layout version), `QUOTA_EXCEEDED` (the object's storage is full;
 *   nothing written), `TOO_LARGE` (one record over the SQL value limit, 2 MB; nothing written), `STORAGE_FAILED` (SQL failure, a value that is not JSON-safe, damaged
 *   rows; nothing written) and `CLOSED` after `close()`.
 */
export function createDurableObjectStorage(storage: DurableObjectStorageLike, options: DurableObjectStorageOptions = {}): StorageAdapter {
  const prefix = options.tablePrefix ?? 'jev_mem_';
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(prefix) || prefix.startsWith('_cf_')) {
    throw new JevMemError('INVALID_OPTION', `option tablePrefix: expected letters, digits and _ (not starting with _cf_), got ${JSON.stringify(prefix)}`, { field: 'tablePrefix' });
  }
  if (!storage || typeof storage.sql?.exec !== 'function' || typeof storage.transactionSync !== 'function') {
    throw new JevMemError(
      'INVALID_OPTION',
      'option storage: expected a SQLite-backed Durable Object storage (ctx.storage with sql and transactionSync); declare the class under new_sqlite_classes in wrangler.toml migrations',
      { field: 'storage' },
    );
  }
  return createSqlRecordStore(durableObjectConnection(storage), {
    kind: 'durable-object',
    label: 'Durable Object storage',
    quotaRemedy: "Delete memories or forget namespaces of this object, or raise the object's storage limit.",
    tablePrefix: prefix,
    lexical: 'fts5',
    vacuum: false,
    queue: queueOf(storage),
  });
}

function queueOf(storage: DurableObjectStorageLike): TransactionQueue {
  let queue = queues.get(storage);
  if (queue === undefined) queues.set(storage, (queue = { tail: Promise.resolve() }));
  return queue;
}
