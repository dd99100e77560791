/**
 * Storage adapter on a Durable Object's SQLite storage (`ctx.storage.sql`), SPEC 2, 3, 4.6, 9:
 * one strongly consistent store per Durable Object, which the edge entry uses as one store per
 * memory namespace. The adapter itself keeps namespaces apart by a column, so it honours the
 * whole {@link StorageAdapter} contract even when one object holds several namespaces.
 *
 * Layout (schema version {@link DO_SCHEMA_VERSION}, tables prefixed `jev_mem_` by default):
 * - `<p>schema(key PRIMARY KEY, value)`: the row `('version', '1')`;
 * - `<p>nodes(ns, id, seq, body)`: one {@link MemoryNode} as JSON per row, key `(ns, id)`;
 * - `<p>edges(ns, id, body)`: one {@link MemoryEdge} as JSON per row, key `(ns, id)`;
 * - `<p>meta(ns, key, value)`: namespace metadata, the value as JSON, key `(ns, key)`.
 *
 * A commit runs inside `transactionSync`, so a thrown error leaves every table as before. The
 * SQL API is synchronous; the adapter's methods are async only to fit the interface.
 *
 * The Durable Object types are declared structurally here ({@link DurableObjectStorageLike}), so
 * this file needs neither `@cloudflare/workers-types` nor the `cloudflare:workers` module.
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import { emptyNamespaceState, toSnapshot, validateBatch, validateNamespace } from '../plane/memory-storage.js';
import type { NamespaceSnapshot, StorageAdapter, WriteBatch } from '../plane/storage.js';
import type { MemoryEdge, MemoryNode } from '../types.js';

/** Layout version this build writes and reads; a database with another one → `SCHEMA_MISMATCH`. */
export const DO_SCHEMA_VERSION = 1;

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

interface Tables {
  schema: string;
  nodes: string;
  edges: string;
  meta: string;
}

/**
 * Maps a platform failure to the error family: a value over SQLite's size limit → `TOO_LARGE`,
 * a full store → `QUOTA_EXCEEDED`, anything else → `STORAGE_FAILED`.
 */
function storageError(what: string, cause: unknown): JevMemError {
  if (isJevMemError(cause)) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (/SQLITE_TOOBIG/.test(message)) {
    return new JevMemError('TOO_LARGE', `Durable Object storage refused to ${what}: a node, edge or meta value is over the SQL value limit (2 MB on Cloudflare) (${message}); nothing was written`, { cause });
  }
  if (/SQLITE_FULL|exceeded.*storage|storage.*(limit|exceeded)|database or disk is full/i.test(message)) {
    return new JevMemError('QUOTA_EXCEEDED', `Durable Object storage refused to ${what} for lack of space (${message}); nothing was written`, { cause });
  }
  return new JevMemError('STORAGE_FAILED', `Durable Object storage failed to ${what} (${message}); nothing was written`, { cause });
}

function json(value: unknown, field: string): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new JevMemError('STORAGE_FAILED', `${field} cannot be stored as JSON (got ${typeof value}); values must be JSON-safe`, { field });
  return text;
}

function parse<T>(text: SqlValue, where: string): T {
  if (typeof text !== 'string') throw new JevMemError('STORAGE_FAILED', `${where}: expected a JSON text column, got ${text === null ? 'null' : typeof text}`);
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new JevMemError('STORAGE_FAILED', `${where}: stored JSON is damaged (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

/**
 * Creates the adapter (`kind: 'durable-object'`) over a SQLite-backed Durable Object's storage.
 * Tables are created on first use; a database written by another layout version is refused.
 *
 * Semantics match the in-memory reference adapter: a batch is validated
 * (`validateBatch`) and deep-copied (`structuredClone`) before anything is written, then applied
 * as deletes, puts (replacing the same id) and meta (`null` removes a key) in one transaction.
 * `load` orders nodes by `seq` then id, edges by id and meta keys, with JavaScript string order.
 * `sizeBytes` is the UTF-8 length of the namespace's stored JSON bodies (an estimate: SQLite's
 * pages and indexes add to it).
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
  const sql = storage.sql;
  const t: Tables = { schema: `${prefix}schema`, nodes: `${prefix}nodes`, edges: `${prefix}edges`, meta: `${prefix}meta` };
  let closed = false;
  let ready = false;

  const live = (): void => {
    if (closed) throw new JevMemError('CLOSED', 'the Durable Object storage adapter was used after close()');
  };

  /** Creates the tables once, or checks the layout version of existing ones. */
  const ensureSchema = (): void => {
    if (ready) return;
    try {
      storage.transactionSync(() => {
        sql.exec(`CREATE TABLE IF NOT EXISTS ${t.schema} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
        const row = sql.exec(`SELECT value FROM ${t.schema} WHERE key = 'version'`).toArray()[0];
        if (row === undefined) {
          sql.exec(`INSERT INTO ${t.schema} (key, value) VALUES ('version', ?)`, String(DO_SCHEMA_VERSION));
        } else if (row.value !== String(DO_SCHEMA_VERSION)) {
          throw new JevMemError(
            'SCHEMA_MISMATCH',
            `this Durable Object's jev-mem tables have layout version ${String(row.value)}, this build reads ${DO_SCHEMA_VERSION}; export with the matching jev-mem version and import here`,
            { field: 'schema.version' },
          );
        }
        sql.exec(`CREATE TABLE IF NOT EXISTS ${t.nodes} (ns TEXT NOT NULL, id TEXT NOT NULL, seq REAL NOT NULL, body TEXT NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID`);
        sql.exec(`CREATE TABLE IF NOT EXISTS ${t.edges} (ns TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID`);
        sql.exec(`CREATE TABLE IF NOT EXISTS ${t.meta} (ns TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID`);
      });
    } catch (e) {
      throw storageError('create its tables', e);
    }
    ready = true;
  };

  return {
    kind: 'durable-object',

    async load(namespace): Promise<NamespaceSnapshot> {
      live();
      validateNamespace(namespace);
      ensureSchema();
      const state = emptyNamespaceState();
      try {
        for (const r of sql.exec(`SELECT id, body FROM ${t.nodes} WHERE ns = ?`, namespace).toArray()) state.nodes.set(String(r.id), parse<MemoryNode>(r.body as SqlValue, `node ${String(r.id)}`));
        for (const r of sql.exec(`SELECT id, body FROM ${t.edges} WHERE ns = ?`, namespace).toArray()) state.edges.set(String(r.id), parse<MemoryEdge>(r.body as SqlValue, `edge ${String(r.id)}`));
        for (const r of sql.exec(`SELECT key, value FROM ${t.meta} WHERE ns = ?`, namespace).toArray()) state.meta.set(String(r.key), parse<unknown>(r.value as SqlValue, `meta ${String(r.key)}`));
      } catch (e) {
        throw storageError(`load namespace ${JSON.stringify(namespace)}`, e);
      }
      // The reference order (JavaScript string order, not SQLite's byte order).
      return toSnapshot(state);
    },

    async commit(namespace, batch: WriteBatch): Promise<void> {
      live();
      validateBatch(namespace, batch);
      let copy: WriteBatch;
      try {
        copy = structuredClone(batch);
      } catch (cause) {
        throw new JevMemError('STORAGE_FAILED', `the batch cannot be stored: ${String(cause)} (values must be JSON-safe)`, { cause });
      }
      // Serialise everything before the transaction opens: nothing can fail half-way for JSON.
      const nodes = (copy.putNodes ?? []).map((n, i) => [n.id, n.seq, json(n, `batch.putNodes[${i}]`)] as const);
      const edges = (copy.putEdges ?? []).map((e, i) => [e.id, json(e, `batch.putEdges[${i}]`)] as const);
      const meta = Object.entries(copy.meta ?? {}).filter(([, v]) => v !== undefined).map(([k, v]) => [k, v === null ? null : json(v, `batch.meta.${k}`)] as const);
      ensureSchema();
      try {
        storage.transactionSync(() => {
          for (const id of copy.deleteNodeIds ?? []) sql.exec(`DELETE FROM ${t.nodes} WHERE ns = ? AND id = ?`, namespace, id);
          for (const id of copy.deleteEdgeIds ?? []) sql.exec(`DELETE FROM ${t.edges} WHERE ns = ? AND id = ?`, namespace, id);
          for (const [id, seq, body] of nodes) sql.exec(`INSERT OR REPLACE INTO ${t.nodes} (ns, id, seq, body) VALUES (?, ?, ?, ?)`, namespace, id, Number.isFinite(seq) ? seq : 0, body);
          for (const [id, body] of edges) sql.exec(`INSERT OR REPLACE INTO ${t.edges} (ns, id, body) VALUES (?, ?, ?)`, namespace, id, body);
          for (const [key, value] of meta) {
            if (value === null) sql.exec(`DELETE FROM ${t.meta} WHERE ns = ? AND key = ?`, namespace, key);
            else sql.exec(`INSERT OR REPLACE INTO ${t.meta} (ns, key, value) VALUES (?, ?, ?)`, namespace, key, value);
          }
        });
      } catch (e) {
        throw storageError(`commit to namespace ${JSON.stringify(namespace)}`, e);
      }
    },

    async namespaces(): Promise<string[]> {
      live();
      ensureSchema();
      try {
        const rows = sql.exec(`SELECT ns FROM ${t.nodes} UNION SELECT ns FROM ${t.edges} UNION SELECT ns FROM ${t.meta}`).toArray();
        return rows.map((r) => String(r.ns)).sort();
      } catch (e) {
        throw storageError('list namespaces', e);
      }
    },

    async dropNamespace(namespace): Promise<void> {
      live();
      validateNamespace(namespace);
      ensureSchema();
      try {
        storage.transactionSync(() => {
          for (const table of [t.nodes, t.edges, t.meta]) sql.exec(`DELETE FROM ${table} WHERE ns = ?`, namespace);
        });
      } catch (e) {
        throw storageError(`drop namespace ${JSON.stringify(namespace)}`, e);
      }
    },

    async sizeBytes(namespace): Promise<number> {
      live();
      validateNamespace(namespace);
      ensureSchema();
      try {
        let total = 0;
        for (const [table, column] of [[t.nodes, 'body'], [t.edges, 'body'], [t.meta, 'value']] as const) {
          // length() of a BLOB cast counts bytes (of TEXT it counts characters).
          const row = sql.exec(`SELECT COALESCE(SUM(length(CAST(${column} AS BLOB))), 0) AS n FROM ${table} WHERE ns = ?`, namespace).toArray()[0];
          total += Number(row?.n ?? 0);
        }
        return total;
      } catch (e) {
        throw storageError(`measure namespace ${JSON.stringify(namespace)}`, e);
      }
    },

    async close(): Promise<void> {
      closed = true;
    },
  };
}
