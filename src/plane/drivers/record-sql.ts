/**
 * The SQL record driver (issue 22): the {@link RecordDriver} of the one record store over a
 * synchronous SQLite connection ({@link SqlConnection}: node-sqlite3-wasm in Node, a Durable
 * Object's `ctx.storage.sql`).
 *
 * Table `<p>rec(id INTEGER PRIMARY KEY, tbl, ns, k, chunk, v)`, unique `(tbl, ns, k, chunk)`:
 * `tbl` the index of the record table in `RECORD_TABLES`, `ns` the namespace and `k` the key as
 * `record-sql-codec.ts` writes them (strings as UTF-8 BLOBs, numbers as numbers: SQLite orders
 * them as the record store needs), `v` the value's BLOB cut in chunks of
 * {@link RECORD_CHUNK_BYTES} (under the Durable Object's 2 MB value limit; chunk 0 first). The
 * row id of a node record's chunk 0 stays with the record while it is replaced (an upsert), and
 * is its row in the namespace's FTS5 table (`record-sql-lexical.ts`). Table `<p>schema` holds
 * `('version', '8')` ({@link RECORD_SQL_VERSION}; a store of layout 5, 6 or 7 is read as it is and
 * marked 8 by its first write); a store of the SQL store's layouts 1–4 is imported at the first
 * transaction by `options.importLegacy`, in the transaction that creates these tables.
 *
 * Transactions run one at a time per driver (a queue). Reads go to the database (a read of a
 * write transaction sees its own writes, kept in an overlay, `record-sql-overlay.ts`; the gets
 * issued together are read by one statement, `record-sql-batch.ts`); `work`
 * awaits nothing but its reads, so the whole transaction runs in one turn of the event loop,
 * after `connection.ready(mode)` (Node: the database lock, and for a write the writer lock, held
 * for that turn). A write transaction's writes are then applied in one synchronous
 * `connection.transaction`, with the FTS5 upkeep of the node records it puts and deletes.
 *
 * Reads of the table, and what they do on a damaged page of it or of its key index (a rowid
 * walk), are in `record-sql-reads.ts` and `record-sql-walk.ts`.
 *
 * Failures: SQLite's damaged-file error becomes JevMemError `STORE_DAMAGED`, a value over
 * SQLite's limit `TOO_LARGE`, a full disk or store a `QuotaExceededError` (the store says
 * `QUOTA_EXCEEDED`); a read transaction that met SQLite's busy error (another process took the
 * lock) is run again, within {@link BUSY_RETRY_MS}.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import type { LexicalIndex } from '../indexes/indexes.js';
import { isCorruptError, sqlError, unlessCorrupt } from '../store/sql-errors.js';
import { RECORD_TABLES, type KeyedRecord, type RecordDriver, type RecordKey, type RecordTable, type RecordTx } from './record-driver.js';
import { batchedReader } from './record-sql-batch.js';
import { sqlKey } from './record-sql-codec.js';
import { RECORD_CHUNK_BYTES, hiddenRecordError, sqlReads } from './record-sql-reads.js';
import { encodeSealedKeyed, readRecordValue } from './record-sql-seal.js';
import { createSqlLexical, nodeDoc } from './record-sql-lexical.js';
import { Overlay, compareSqlKeys } from './record-sql-overlay.js';
import type { SqlClaim, SqlConnection, SqlParam, SqlRow } from './sql-connection.js';
import type { LanguageCode } from '../text/language.js';

export type { SqlConnection, SqlParam, SqlRow } from './sql-connection.js';

/** Options of {@link createSqlRecordDriver}. */
export interface SqlRecordDriverOptions {
  /** Prefix of the table names (letters, digits, `_`). */
  prefix: string;
  /** Words naming the store in messages (`the store at /x`). */
  label: string;
  /** `'fts5'`: keep an FTS5 index of every namespace's node records; `'none'`: keep none (and drop one left). */
  lexical: 'fts5' | 'none';
  /**
   * Imports a store of the SQL store's layouts 1–4 (`version` as found): reads the old tables and
   * writes their records through `tx` (a write transaction of this driver), and returns the step
   * that drops the old tables, run in the SQL transaction that applies those writes.
   */
  importLegacy(version: string, tx: RecordTx): Promise<{ finish(): void }>;
  /**
   * Rewrites the file after an import, so no page of the old tables stays in it (Node; a Durable
   * Object cannot): `false` never; `true` a plain `VACUUM` statement (a connection that no other
   * connection shares, as the tests' in-memory one); a function runs instead of it (the Node
   * store's, which takes the database lock as every other write does, waiting for another
   * process's lease rather than failing on it: issue 22).
   */
  vacuum: boolean | (() => Promise<void>);
  /**
   * The queue the driver's transactions wait in, one at a time (default: a queue of its own).
   * Drivers over one connection that no lock guards between turns (a Durable Object's storage,
   * whose `ready` resolves at once) share one, so that one's commit (its meta check, its writes)
   * never interleaves with another's (issue 22, h-lock: two adapters over one object's storage
   * gave two observations one seq).
   */
  queue?: TransactionQueue | undefined;
}

/** A queue of transactions (see {@link SqlRecordDriverOptions.queue}): `tail` settles when the last one queued ends. */
export interface TransactionQueue {
  tail: Promise<unknown>;
}

/** A record driver over SQL, with the FTS5 index it keeps (undefined under `lexical: 'none'`). */
export interface SqlRecordDriver extends RecordDriver {
  /** The store-kept lexical index of `namespace` (contract: `StorageAdapter.lexicalIndex`), or undefined under `'none'`. */
  lexicalIndex(namespace: string, language?: LanguageCode): LexicalIndex | undefined;
}

export { RECORD_CHUNK_BYTES } from './record-sql-reads.js';

/**
 * Layout version of the record table (after the SQL store's 1–4). 6 (stop 33): values and
 * adjacency entries may be of format 2. 7 (issue 22): values may be sealed with their CRC-32
 * (`record-sql-codec.ts` `sealValue`). An older build would read either as damaged records, so
 * it refuses the store (`SCHEMA_MISMATCH`). A store of layout 5 or 6 is read as it is and marked
 * 7 by its first write (in that write's SQL transaction); its records are rewritten (format 2,
 * sealed) as they are next put (lazily; the others stay unsealed, and are trusted as they are).
 * 8 (h-break15 finding 1): values may be sealed with the key they were put under
 * (`record-sql-seal.ts` `KEYED`); a store of layout 7 is read as it is and marked 8 the same way,
 * its records keyed as they are next put.
 */
export const RECORD_SQL_VERSION = '8';

const OLDER_LAYOUTS = ['5', '6', '7']; // read as they are, marked RECORD_SQL_VERSION at the first write

/** How long a read transaction that meets another process's lock is run again (ms). */
export const BUSY_RETRY_MS = 15_000;

const TABLE_CODE = new Map(RECORD_TABLES.map((t, i) => [t, i]));
const code = (table: RecordTable): number => TABLE_CODE.get(table) as number;
const isBusy = (e: unknown): boolean => {
  for (let c: unknown = e; c instanceof Error; c = c.cause) if (/database is locked|SQLITE_BUSY/i.test(c.message)) return true;
  return false;
};

/**
 * The driver's form of a SQL failure (module note); busy errors and anything else stay raw.
 */
function mapped(label: string, e: unknown): unknown {
  if (e instanceof JevMemError || isBusy(e)) return e;
  const message = e instanceof Error ? e.message : String(e);
  if (isCorruptError(e) || /SQLITE_TOOBIG|string or blob too big/i.test(message)) return sqlError(label, 'read or write its records', e);
  if (/SQLITE_FULL|exceeded.*storage|storage.*(limit|exceeded)|database or disk is full/i.test(message)) {
    const full = new DOMException(`${message}`, 'QuotaExceededError');
    (full as { cause?: unknown }).cause = e;
    return full;
  }
  return e;
}

/**
 * A record driver over `db` (see the module). Tables are created, or a store of layouts 1–4
 * imported, at the first transaction.
 * @throws JevMemError `INVALID_OPTION` (field `tablePrefix`) for a bad prefix. Transactions throw
 *   as the module says, `SCHEMA_MISMATCH` for a layout newer than this build, `CLOSED` after `close()`.
 */
export function createSqlRecordDriver(db: SqlConnection, options: SqlRecordDriverOptions): SqlRecordDriver {
  const { prefix, label } = options;
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(prefix) || prefix.startsWith('_cf_')) {
    throw new JevMemError('INVALID_OPTION', `option tablePrefix: expected letters, digits and _ (not starting with _cf_), got ${JSON.stringify(prefix)}`, { field: 'tablePrefix' });
  }
  const rec = `${prefix}rec`;
  const schema = `${prefix}schema`;
  const q = (sql: string, params: readonly SqlParam[] = []): SqlRow[] => db.query(sql, params);
  const lexical = createSqlLexical(q, { prefix, rec, fts: options.lexical === 'fts5', nodeCode: code('node'), read: readRecordValue, transaction: (fn) => db.transaction(fn) });
  let closed = false;
  let setUp = false;
  let older = false; // a store of layout 5, 6 or 7: the next write transaction marks it 8
  const queue: TransactionQueue = options.queue ?? { tail: Promise.resolve() };

  const { readBlob, readScan, readNamespaces, holds, forget: forgetWalk } = sqlReads(q, rec, code);

  /**
   * Writes `blob` under `(table, ns, key)` in chunks; returns the row id of chunk 0. The chunks
   * a longer value left after the new last one are deleted, unless `noTail` (the caller knows
   * the key holds one chunk at most: one statement less per put, issue 22).
   */
  function writeBlob(table: RecordTable, ns: string, key: RecordKey, blob: Uint8Array, noTail = false): number {
    const head = [code(table), sqlKey(ns), sqlKey(key)] as const;
    let first = 0;
    let chunk = 0;
    for (let at = 0; chunk === 0 || at < blob.byteLength; at += RECORD_CHUNK_BYTES, chunk++) {
      const part = blob.subarray(at, Math.min(blob.byteLength, at + RECORD_CHUNK_BYTES));
      const row = q(`INSERT INTO ${rec} (tbl, ns, k, chunk, v) VALUES (?, ?, ?, ?, ?) ON CONFLICT (tbl, ns, k, chunk) DO UPDATE SET v = excluded.v RETURNING id`, [...head, chunk, part])[0];
      if (chunk === 0) first = Number(row?.id);
    }
    if (!noTail) q(`DELETE FROM ${rec} WHERE tbl = ? AND ns = ? AND k = ? AND chunk >= ?`, [...head, chunk]);
    return first;
  }

  /** Applies the writes of a transaction, in order, with the FTS5 upkeep (inside `db.transaction`). */
  function apply(overlay: Overlay): void {
    forgetWalk();
    const upkeep = lexical.upkeep();
    for (const op of overlay.ops) {
      if (op.kind === 'put') {
        if (op.table === 'node') upkeep.before(op.ns, op.key);
        const id = writeBlob(op.table, op.ns, op.key, op.blob, overlay.hasOneChunk(op.table, op.ns, op.key));
        if (op.table === 'node') upkeep.after(op.ns, id, nodeDoc(op.value));
      } else if (op.kind === 'delete') {
        if (op.table === 'node') upkeep.before(op.ns, op.key);
        const gone = q(`DELETE FROM ${rec} WHERE tbl = ? AND ns = ? AND k = ? RETURNING id`, [code(op.table), sqlKey(op.ns), sqlKey(op.key)]);
        // A node record the statement did not find may still be in the table, its entry of the
        // key index changed (h-break15 finding 1): the delete is refused, not answered done.
        if (gone.length === 0 && op.table === 'node' && holds(op.table, op.ns, op.key)) throw hiddenRecordError(label, op.ns, op.key);
        if (op.table === 'node') upkeep.after(op.ns, -1, undefined);
      } else {
        const upTo = op.upTo === undefined ? [] : [sqlKey(op.upTo)];
        q(`DELETE FROM ${rec} WHERE tbl = ? AND ns = ?${op.upTo === undefined ? '' : ' AND k <= ?'}`, [code(op.table), sqlKey(op.ns), ...upTo]);
        if (op.table === 'node') upkeep.cleared(op.ns, op.upTo === undefined);
      }
    }
    upkeep.finish();
  }

  /** Creates the tables, or imports an older layout, once (module note); concurrent callers share it. */
  let setting: Promise<void> | undefined;
  function setup(): Promise<void> {
    if (setUp) return Promise.resolve();
    setting ??= runSetup().finally(() => {
      setting = undefined;
    });
    return setting;
  }
  async function runSetup(): Promise<void> {
    const claims: Array<SqlClaim | void> = [];
    try {
      await setUpTables(claims);
    } finally {
      for (const claim of claims) db.settle(claim);
    }
  }
  async function setUpTables(claims: Array<SqlClaim | void>): Promise<void> {
    claims.push(await db.ready('read'));
    let version = readVersion();
    if (version === RECORD_SQL_VERSION || OLDER_LAYOUTS.includes(version ?? '')) {
      older = version !== RECORD_SQL_VERSION;
      setUp = true;
      return;
    }
    // An older layout is imported as the one writer; a new store's tables need the database lock only.
    if (version !== undefined) {
      claims.push(await db.ready('write'));
      version = readVersion();
      if (version === RECORD_SQL_VERSION) {
        setUp = true;
        return;
      }
    }
    if (version !== undefined && !['1', '2', '3', '4'].includes(version)) {
      throw new JevMemError(
        'SCHEMA_MISMATCH',
        `this store's jev-mem tables have layout version ${version}, this build reads ${RECORD_SQL_VERSION}` +
          (Number(version) > Number(RECORD_SQL_VERSION) ? ' (upgrade jev-mem)' : '') + '; export with the matching jev-mem version and import here',
        { field: 'schema.version', found: version, expected: RECORD_SQL_VERSION },
      );
    }
    db.transaction(() => {
      q(`CREATE TABLE IF NOT EXISTS ${schema} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
      q(`CREATE TABLE IF NOT EXISTS ${rec} (id INTEGER PRIMARY KEY, tbl INTEGER NOT NULL, ns BLOB NOT NULL, k NOT NULL, chunk INTEGER NOT NULL, v BLOB NOT NULL)`);
      q(`CREATE UNIQUE INDEX IF NOT EXISTS ${rec}_key ON ${rec} (tbl, ns, k, chunk)`);
      lexical.createTables();
      if (version === undefined) setVersion();
    });
    if (version !== undefined) {
      // The old layout stays whole until the transaction that applies the import drops it. Its
      // reads run under the database lock, in one turn as a write transaction's do (the COMMIT
      // above let it go; a statement without it fails at once while another process reads).
      const overlay = new Overlay(RECORD_CHUNK_BYTES);
      claims.push(await db.ready('write'));
      const imported = await options.importLegacy(version, txOf('write', overlay));
      claims.push(await db.ready('write'));
      db.transaction(() => {
        apply(overlay);
        imported.finish();
        setVersion();
      });
      if (typeof options.vacuum === 'function') await options.vacuum();
      else if (options.vacuum) q('VACUUM');
    }
    setUp = true;
  }
  function setVersion(): void {
    q(`INSERT INTO ${schema} (key, value) VALUES ('version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [RECORD_SQL_VERSION]);
  }
  function readVersion(): string | undefined {
    if (q(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [schema]).length === 0) return undefined;
    const row = q(`SELECT value FROM ${schema} WHERE key = 'version'`)[0];
    return row === undefined ? undefined : String(row.value);
  }

  /** One transaction's view: the database under its overlay. */
  function txOf(mode: 'read' | 'write', overlay: Overlay): RecordTx {
    const writable = (): void => {
      if (mode !== 'write') throw new DOMException('a read-only transaction cannot write', 'ReadOnlyError');
    };
    const reader = batchedReader({ q, rec, code, readOne: readBlob });
    const get = (table: RecordTable, ns: string, key: RecordKey): Uint8Array | undefined => {
      const known = overlay.answer(table, ns, key);
      if (known === 'absent') return undefined;
      return known === undefined ? readBlob(table, ns, key) : known.blob;
    };
    return {
      async get(table, ns, key) {
        const known = overlay.answer(table, ns, key);
        if (known === 'absent') return undefined;
        const blob = known === undefined ? await reader.get(table, ns, key) : known.blob;
        // In one chunk (or absent) in the database: a put of it has no later chunk to delete (the overlay's rule).
        if (known === undefined && (blob === undefined || (blob instanceof Uint8Array && blob.byteLength > 0))) overlay.noteOneChunk(table, ns, key);
        return blob === undefined ? undefined : readRecordValue(table, blob, key, ns);
      },
      put(table, ns, key, value) {
        writable();
        overlay.add({ kind: 'put', table, ns, key, blob: encodeSealedKeyed(value, table, ns, key), value });
      },
      delete(table, ns, key) {
        writable();
        overlay.add({ kind: 'delete', table, ns, key });
      },
      deleteRange(table, ns, upTo) {
        writable();
        overlay.add({ kind: 'range', table, ns, upTo });
      },
      async scan(table, ns, after, limit) {
        if (!overlay.touches(table, ns)) return readScan(table, ns, after, limit).map(([k, blob]): KeyedRecord => [k, readRecordValue(table, blob, k, ns)]);
        const keys = new Map<string, RecordKey>();
        for (const [k] of readScan(table, ns, after, Infinity)) keys.set(`${typeof k}:${k}`, k);
        for (const k of overlay.putKeys(table, ns, after)) keys.set(`${typeof k}:${k}`, k);
        const out: KeyedRecord[] = [];
        for (const k of [...keys.values()].sort(compareSqlKeys)) {
          if (out.length >= limit) break;
          const blob = get(table, ns, k);
          if (blob !== undefined) out.push([k, readRecordValue(table, blob, k, ns)]);
        }
        return out;
      },
      async namespaces(table) {
        const found = readNamespaces(table);
        if (!overlay.touchesTable(table)) return found;
        const out: string[] = [];
        for (const ns of new Set([...found, ...overlay.putNamespaces(table)])) if ((await this.scan(table, ns, undefined, 1)).length > 0) out.push(ns);
        return out.sort((a, b) => compareSqlKeys(a, b));
      },
    };
  }

  async function run<T>(mode: 'read' | 'write', work: (tx: RecordTx) => Promise<T>): Promise<T> {
    if (closed) throw new JevMemError('CLOSED', `${label} was used after close()`);
    try {
      await setup();
    } catch (e) {
      lexical.forget();
      throw mapped(label, e);
    }
    const start = performance.now();
    for (;;) {
      const claim = await db.ready(mode);
      const overlay = new Overlay(RECORD_CHUNK_BYTES);
      try {
        const result = await work(txOf(mode, overlay));
        if (overlay.ops.length > 0) {
          try {
            db.transaction(() => {
              apply(overlay);
              if (older) setVersion();
            });
            older = false;
          } catch (e) {
            lexical.forget();
            throw e;
          }
        }
        return result;
      } catch (e) {
        // A read met another process's lock: it is repeatable, so run it again.
        if (mode === 'read' && isBusy(e) && performance.now() - start < BUSY_RETRY_MS) continue;
        throw mapped(label, e);
      } finally {
        db.settle(claim); // a lock another process waits for is given back now (sql-connection.ts)
      }
    }
  }

  return {
    transaction(_tables, mode, work) {
      if (closed) return Promise.reject(new JevMemError('CLOSED', `${label} was used after close()`));
      const result = queue.tail.then(() => run(mode, work));
      queue.tail = result.catch(() => undefined);
      return result;
    },
    close() {
      closed = true;
    },
    lexicalIndex(namespace, language) {
      if (options.lexical !== 'fts5') return undefined;
      return lexical.index(namespace, {
        live: () => {
          if (closed) throw new JevMemError('CLOSED', `${label} was used after close()`);
        },
        error: (e) => sqlError(label, `read the lexical index of namespace ${JSON.stringify(namespace)}`, e),
        ready: async (mode) => {
          await setup();
          return db.ready(mode);
        },
        settle: (claim) => db.settle(claim),
      }, language);
    },
  };
}
