/**
 * The one record store (`record-store.ts`) over the SQL record driver
 * (`../drivers/record-sql.ts`), as Node (`sqlite-file-storage.ts`) and the Durable Object
 * (`edge/do-storage.ts`) open it: the store's behaviour is the record store's, the driver's FTS5
 * index answers `lexicalIndex` under `lexical: 'fts5'`, and a database of the SQL store's layouts
 * 1–4 is imported into the record table at the first transaction (`sql-legacy-import.ts`).
 * Issue 22: one store written once.
 *
 * @module
 */
import { type SqlConnection, type SqlRecordDriverOptions, createSqlRecordDriver } from '../drivers/record-sql.js';
import { type RecordStoreOptions, createRecordStore } from './record-store.js';
import { importLegacySql } from './sql-legacy-import.js';
import type { StorageAdapter } from './storage.js';

/** Options of {@link createSqlRecordStore}. */
export interface SqlRecordStoreOptions {
  /** The adapter kind (`'sqlite'`, `'durable-object'`). */
  kind: string;
  /** Words naming the store in messages (`the store at /x`, `Durable Object storage`). */
  label: string;
  /** What to do when the platform refused for space, last in a `QUOTA_EXCEEDED` message. */
  quotaRemedy: string;
  /**
   * Prefix of the table names (letters, digits, `_`; not `_cf_`, which Cloudflare reserves).
   * @default 'jev_mem_'
   */
  tablePrefix?: string;
  /**
   * `'fts5'`: the driver keeps an FTS5 index per namespace, answered by `lexicalIndex`;
   * `'minisearch'`: none (the memory keeps MiniSearch in its checkpoints; a table left by
   * `'fts5'` is dropped at its namespace's next write).
   */
  lexical: 'fts5' | 'minisearch';
  /** Rewrites the file after importing an older layout (Node: no page of the old tables stays in it); as `SqlRecordDriverOptions.vacuum`. */
  vacuum: boolean | (() => Promise<void>);
  /** Damage an earlier `jev-mem check` found (`damage-file.ts`; Node). */
  knownDamage?: RecordStoreOptions['knownDamage'];
  /** Told damage found by reads (`damage-file.ts`; Node), as `RecordStoreOptions.onDamage`. */
  onDamage?: RecordStoreOptions['onDamage'];
  /** The transaction queue shared with the other stores over the same connection (`SqlRecordDriverOptions.queue`; a Durable Object's). */
  queue?: SqlRecordDriverOptions['queue'];
}

/**
 * The record store over `db` (see the module).
 * @throws JevMemError `INVALID_OPTION` (field `tablePrefix`) for a bad prefix. Methods throw as
 *   `createRecordStore` says, and `SCHEMA_MISMATCH` for a layout newer than this build's,
 *   `STORE_DAMAGED` when SQLite finds the file damaged, `TOO_LARGE` for a value over SQLite's limit.
 */
export function createSqlRecordStore(db: SqlConnection, options: SqlRecordStoreOptions): StorageAdapter {
  const prefix = options.tablePrefix ?? 'jev_mem_';
  const driver = createSqlRecordDriver(db, {
    prefix,
    label: options.label,
    lexical: options.lexical === 'fts5' ? 'fts5' : 'none',
    importLegacy: (version, tx) => importLegacySql(db, prefix, version, tx, options),
    vacuum: options.vacuum,
    queue: options.queue,
  });
  return createRecordStore(driver, {
    kind: options.kind,
    label: options.label,
    quotaRemedy: options.quotaRemedy,
    lexicalIndex: (namespace, language) => driver.lexicalIndex(namespace, language),
    knownDamage: options.knownDamage,
    onDamage: options.onDamage,
  });
}
