/**
 * One connection of the SQL store (`sql-storage.ts`): its options and tables, the caches a
 * connection keeps (interned origins, checked lexical tables, the slots of the running write
 * transaction, the damage log), and the wrappers every method runs through: the entry checks
 * (open, valid namespace, tables created or migrated), the write gate, the transaction that
 * forgets caches on failure, and the reads that map failures to the error family.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { DamageLog } from './checksum.js';
import { checkExistingNamespaceName } from './names.js';
import { isCorruptError, sqlError } from './sql-errors.js';
import { type SqlDriver, type SqlParam, type SqlRow, type SqlTables, ensureSqlSchema, sqlTables } from './sql-schema.js';
import { recountAll } from './sql-stats.js';

/** Options of `createSqlStorage`. */
export interface SqlStorageOptions {
  /** The adapter's `kind` (`'sqlite'`, `'durable-object'`). */
  kind: string;
  /** Words naming the store in messages (`'Durable Object storage'`, `the store at /x`). */
  label: string;
  /**
   * Prefix of the table names (letters, digits, `_`; not `_cf_`, which Cloudflare reserves).
   * @default 'jev_mem_'
   */
  tablePrefix?: string;
  /** Runs before every write (the Node adapter takes its writer lock here). */
  beforeWrite?: () => Promise<void>;
  /** Runs once at the first `close()` (after the adapter stops taking calls). */
  onClose?: () => Promise<void>;
  /**
   * The lexical engine. `'fts5'`: the store keeps an FTS5 index per namespace, maintained by
   * every commit, and offers it as `StorageAdapter.lexicalIndex` (`sql-lexical.ts`); a
   * namespace without one (written under `'minisearch'`, or before this engine) has it built from
   * its nodes at its first commit or search. `'minisearch'`: the memory keeps MiniSearch in its
   * checkpoints; the store keeps no lexical index, and the first commit to a namespace drops one
   * left by `'fts5'` (it would go stale and hold erased terms).
   * @default 'minisearch'
   */
  lexical?: 'fts5' | 'minisearch';
}

/** Writes whole records of one namespace (the migration from schema v1), inside the caller's transaction. */
export type WriteRecords = (namespace: string, nodes: MemoryNode[], edges: MemoryEdge[], meta: Record<string, unknown>) => void;

/**
 * Slots of the running write transaction (key `ns:id`), so that the many edges of one commit
 * resolve each end once. Valid inside the transaction only: ids rows are removed by
 * `collectSlots` alone, which empties it, and another connection cannot write meanwhile.
 */
export class TxSlots {
  /** Slots found, by key `ns:id`. */
  readonly found = new Map<string, number>();
  /** Keys `ns:id` the running transaction found without a slot (until `ensureSlot` gives one). */
  readonly none = new Set<string>();
  /** True while a transaction runs (outside one, nothing is cached). */
  on = false;

  /** Forgets every slot. */
  clear(): void {
    this.found.clear();
    this.none.clear();
  }
}

/** One connection's state and wrappers (see the module header). */
export interface SqlSession {
  readonly db: SqlDriver;
  readonly options: SqlStorageOptions;
  /** Prefix of the table names. */
  readonly prefix: string;
  /** Table names of {@link prefix}. */
  readonly t: SqlTables;
  /** Words naming the store in messages. */
  readonly label: string;
  /** True under the `'fts5'` lexical engine. */
  readonly fts: boolean;
  /** Damaged records met by reads of this connection (issue 22). */
  readonly damage: DamageLog;
  /** Interned origins (code → JSON text); cleared when a transaction fails (its codes may be gone). */
  readonly dictByCode: Map<number, string>;
  /** Interned origins (JSON text → code). */
  readonly dictByValue: Map<string, number>;
  /** Namespaces whose lexical table was checked this session (built under 'fts5', dropped under 'minisearch'). */
  readonly lexChecked: Set<number>;
  readonly txSlots: TxSlots;
  /** Runs one statement. */
  q(sql: string, params?: readonly SqlParam[]): SqlRow[];
  /** @throws JevMemError `CLOSED` after {@link close}. */
  live(): void;
  /** Stops taking calls; true the first time, false when already closed. */
  close(): boolean;
  /** A transaction with the slot cache on; its failure forgets the dictionary and lexical caches. */
  tx<T>(fn: () => T): T;
  /** Runs reads under one read lock where the driver has one; a failure is mapped by `sqlError` (`what`: the operation). */
  read<T>(what: string, fn: () => T): T;
  /** {@link read}, answering undefined when SQLite finds a damaged page. */
  readUnlessCorrupt<T>(what: string, fn: () => T): T | undefined;
  /** Creates or migrates the tables at the first call. @throws JevMemError as `sqlError` maps it. */
  ensureReady(): void;
  /** Common entry of every read: live, valid namespace, tables there. */
  enter(namespace?: string): void;
  /** The write gate: `beforeWrite` (the writer lock), then live. */
  write(): Promise<void>;
}

/**
 * The session of a connection over `db`.
 * @param writeRecords - the migration's writer of v1 records (called at the first
 *   {@link SqlSession.ensureReady} only, so it may be bound after this call).
 * @throws JevMemError `INVALID_OPTION` (field `tablePrefix`) for a bad prefix.
 */
export function createSqlSession(db: SqlDriver, options: SqlStorageOptions, writeRecords: WriteRecords): SqlSession {
  const prefix = options.tablePrefix ?? 'jev_mem_';
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(prefix) || prefix.startsWith('_cf_')) {
    throw new JevMemError('INVALID_OPTION', `option tablePrefix: expected letters, digits and _ (not starting with _cf_), got ${JSON.stringify(prefix)}`, { field: 'tablePrefix' });
  }
  const { label } = options;
  let closed = false;
  let ready = false;
  const dictByCode = new Map<number, string>();
  const dictByValue = new Map<string, number>();
  const lexChecked = new Set<number>();
  const txSlots = new TxSlots();

  const s: SqlSession = {
    db,
    options,
    prefix,
    t: sqlTables(prefix),
    label,
    fts: options.lexical === 'fts5',
    damage: new DamageLog(),
    dictByCode,
    dictByValue,
    lexChecked,
    txSlots,
    q: (sql, params) => db.query(sql, params),
    live(): void {
      if (closed) throw new JevMemError('CLOSED', `${label} was used after close()`);
    },
    close(): boolean {
      if (closed) return false;
      closed = true;
      return true;
    },
    tx<T>(fn: () => T): T {
      try {
        return db.transaction(() => {
          txSlots.clear();
          txSlots.on = true;
          try {
            return fn();
          } finally {
            txSlots.on = false;
            txSlots.clear();
          }
        });
      } catch (e) {
        dictByCode.clear();
        dictByValue.clear();
        lexChecked.clear();
        throw e;
      }
    },
    read<T>(what: string, fn: () => T): T {
      try {
        return db.read === undefined ? fn() : db.read(fn);
      } catch (e) {
        throw sqlError(label, what, e);
      }
    },
    readUnlessCorrupt<T>(what: string, fn: () => T): T | undefined {
      try {
        return db.read === undefined ? fn() : db.read(fn);
      } catch (e) {
        if (isCorruptError(e)) return undefined;
        throw sqlError(label, what, e);
      }
    },
    ensureReady(): void {
      if (ready) return;
      try {
        ensureSqlSchema(db, prefix, writeRecords, () => recountAll(s.q, s.t));
      } catch (e) {
        dictByCode.clear();
        dictByValue.clear();
        throw sqlError(label, 'create or migrate its tables', e);
      }
      ready = true;
    },
    enter(namespace?: string): void {
      s.live();
      if (namespace !== undefined) checkExistingNamespaceName(namespace);
      s.ensureReady();
    },
    async write(): Promise<void> {
      await options.beforeWrite?.();
      s.live();
    },
  };
  return s;
}
