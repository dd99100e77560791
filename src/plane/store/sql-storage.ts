/**
 * The storage adapter over SQLite (schema v4: v2 of issue 13, checksums of issue 22, kept counts of issue 25), shared
 * by Node (`sqlite-file-storage.ts`, node-sqlite3-wasm) and the Durable Object
 * (`edge/do-storage.ts`, `ctx.storage.sql`): every method of the {@link StorageAdapter} port
 * answered by index lookups (a node by id, the edges of a node from either end, counts), so no
 * operation but `load` reads a whole namespace.
 *
 * This file assembles the adapter from its parts, one job each:
 * - `sql-session.ts`: the connection's options, caches and wrappers (entry, write gate,
 *   transaction, reads);
 * - `sql-errors.ts`: SQLite failures mapped to the error family;
 * - `sql-schema.ts`: tables, driver and migrations; `sql-codec.ts`: row encoding and checksums;
 * - `sql-ids.ts`: namespace ids, node slots, the origin dictionary;
 * - `sql-rows.ts`: row writes; `sql-row-reads.ts`: rows read back, damage kept local;
 * - `sql-commit.ts`: the commit of a batch; `sql-reads.ts`: record reads;
 * - `sql-checkpoint.ts`: checkpoints; `sql-namespaces.ts`: counts, sizes, change log, drop;
 * - `sql-store-lexical.ts`: the FTS5 index kept by the store;
 * - `store-damage.ts`: what every persistent store does with damaged records.
 *
 * @module
 */
import { createSqlCheckpoints } from './sql-checkpoint.js';
import { sqlCommit } from './sql-commit.js';
import { createSqlIds } from './sql-ids.js';
import { sqlNamespaces } from './sql-namespaces.js';
import { sqlReads } from './sql-reads.js';
import { createSqlRowReads } from './sql-row-reads.js';
import { createSqlRows } from './sql-rows.js';
import type { SqlDriver } from './sql-schema.js';
import { type SqlStorageOptions, createSqlSession } from './sql-session.js';
import { createSqlStoreLexical } from './sql-store-lexical.js';
import type { StorageAdapter } from './storage.js';
import { readStat } from './sql-stats.js';
import { damagedMethod } from './store-damage.js';

export { isCorruptError, sqlError } from './sql-errors.js';
export { EDGE_FIXED_BYTES } from './sql-namespaces.js';
export type { SqlStorageOptions } from './sql-session.js';

/**
 * Creates the SQL storage adapter over a synchronous driver. Tables are created (or a Durable
 * Object's v1 tables migrated, see `sql-schema.ts`) on the first call.
 *
 * Semantics match the in-memory reference adapter: a batch is validated (`validateBatch`) and
 * checked to be cloneable before anything is written, then applied as deletes, puts (replacing
 * the same id) and meta (`null` removes a key) in one transaction, with its change-log entry.
 * `load` orders nodes by `seq` then id, edges by id and meta keys, in JavaScript string order.
 * `namespaces` lists the namespaces with a node, an edge or a meta key. `sizeBytes` is an
 * estimate: the UTF-8 bytes of the namespace's node ids, bodies, vectors, non-canonical edge ids
 * and meta keys and values, plus `EDGE_FIXED_BYTES` per edge (SQLite's pages and indexes
 * add to it).
 *
 * @throws JevMemError `INVALID_OPTION` (field `tablePrefix`) for a bad prefix. The methods throw
 *   `INVALID_INPUT` naming the field (malformed batch or namespace), `SCHEMA_MISMATCH` (another
 *   layout version), `QUOTA_EXCEEDED` (storage full; nothing written), `TOO_LARGE` (a value over
 *   the SQL value limit; nothing written), `STORAGE_FAILED` (SQL failure, a value that is not
 *   JSON-safe, a damaged row; nothing written), `STORE_DAMAGED` (a damaged file, checkpoint, or
 *   writes into a namespace with damaged records) and `CLOSED` after `close()`.
 */
export function createSqlStorage(db: SqlDriver, options: SqlStorageOptions): StorageAdapter {
  // The migration's writer is bound below; the session calls it at the first use only.
  const s = createSqlSession(db, options, (namespace, nodes, edges, meta) => rows.writeRecords(namespace, nodes, edges, meta));
  const ids = createSqlIds(s);
  const rows = createSqlRows(s, ids);
  const rowReads = createSqlRowReads(s, ids);
  const lexical = createSqlStoreLexical(s, ids);
  const checkpoints = createSqlCheckpoints(s, ids);
  const damaged = damagedMethod(s.damage, {
    scanNodes: (namespace) => adapter.scanNodes(namespace, 500),
    readCheckpoint: (namespace) => adapter.readCheckpoint(namespace),
    keptNodes: async (namespace) =>
      s.read(`read the counts of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = ids.nsId(namespace);
        return ns === undefined ? undefined : readStat(s.q, s.t, ns)?.nodes;
      }),
  });

  const adapter: StorageAdapter = {
    kind: options.kind,
    ...sqlReads(s, ids, rowReads),
    commit: sqlCommit(s, { ids, rows, lexical, checkpoints }),
    ...checkpoints.methods,
    ...sqlNamespaces(s, ids, lexical),

    // The shared damage method (store-damage.ts): O(1) with `scan: false`, else the full pass
    // against the kept node counter (issue 25).
    damaged: async (namespace, opts) => {
      s.enter(namespace);
      return damaged(namespace, opts);
    },

    lexicalIndex: (namespace) => (s.fts ? lexical.lexicalIndex(namespace) : undefined),

    async close(): Promise<void> {
      if (!s.close()) return;
      await options.onClose?.();
    },
  };
  return adapter;
}
