/**
 * The import of a database of the SQL store's layouts 1–4 (before issue 22's one record store)
 * into the record table of the SQL record driver (`../drivers/record-sql.ts`), run once by the
 * driver at the first transaction on such a database. The old tables are read by the SQL store of
 * those layouts (`sql-storage.ts`, which first migrates layouts 1–3 to 4 in a transaction of its
 * own); every namespace's nodes, edges and meta are written through the record store's own
 * commit writer (`record-commit.ts` `writeBatch`: node records with their checksums, adjacency,
 * explicit edge ids, kept counters), then its checkpoint, the change-log entries above the
 * checkpoint and the floor. The driver applies all of it in one SQL transaction together with
 * {@link LegacyImport.finish}, which drops every old table (and the old FTS5 tables), so a
 * failure leaves the old layout whole; the Node driver then VACUUMs (no page of the old tables
 * is left in the file).
 *
 * Records the old store finds damaged (a node row failing its checksum) are not carried over
 * (they are counted in {@link LegacyImport.skipped}); a damaged checkpoint is dropped (the memory
 * rebuilds it from the rows).
 *
 * @module
 */
import { isJevMemError } from '../../errors.js';
import { ONE, type RecordTx } from '../drivers/record-driver.js';
import type { SqlConnection } from '../drivers/record-sql.js';
import { ftsTablePattern } from '../indexes/sql-lexical.js';
import { checkpointRecord, putCheckpoint, spaceOf } from './record-checkpoint.js';
import { addTally, countingTx } from './record-counters.js';
import { writeBatch } from './record-commit.js';
import type { StoreWords } from './record-errors.js';
import { sqlTables } from './sql-schema.js';
import { createSqlStorage } from './sql-storage.js';

/** What an import wrote, and the step that ends it inside the driver's SQL transaction. */
export interface LegacyImport {
  /** Namespaces imported. */
  namespaces: number;
  /** Node records the old store found damaged, left out. */
  skipped: number;
  /** Drops every table of the old layout (inside the transaction that applies the import). */
  finish(): void;
}

/**
 * Reads the old layout of `prefix` on `db` and writes it through `tx` (see the module).
 * @throws whatever reading the old tables throws (the driver maps it); nothing is written then.
 */
export async function importLegacySql(db: SqlConnection, prefix: string, tx: RecordTx, words: StoreWords): Promise<LegacyImport> {
  const q = (sql: string, params?: readonly (string | number | Uint8Array | null)[]) => db.query(sql, params);
  const old = createSqlStorage({ query: q, transaction: (fn) => db.transaction(fn) }, { kind: 'sqlite', label: words.label, tablePrefix: prefix, lexical: 'minisearch' });
  const t = sqlTables(prefix);
  let skipped = 0;
  const names = await old.namespaces();
  // The change log and its floor by namespace id (the old store answers no list of entries).
  const byName = new Map(q(`SELECT ns, name, floor FROM ${t.names}`).map((r) => [String(r.name), { ns: Number(r.ns), floor: Number(r.floor) }]));
  for (const namespace of names) {
    const snap = await old.load(namespace);
    skipped += (await old.damaged(namespace, { scan: false })).ids.length;
    await writeBatch(tx, namespace, { putNodes: snap.nodes, putEdges: snap.edges, meta: snap.meta }, words);
    const checkpoint = await old.readCheckpoint(namespace).catch((e: unknown) => {
      if (isJevMemError(e, 'STORE_DAMAGED')) return undefined;
      throw e;
    });
    const space = await spaceOf(tx, namespace);
    const counting = countingTx(tx, namespace);
    if (checkpoint !== undefined) putCheckpoint(counting.tx, namespace, checkpointRecord(checkpoint), space);
    const at = byName.get(namespace);
    if (at !== undefined) {
      const log = new Map<number, string[]>();
      for (const r of q(`SELECT change, id FROM ${t.changes} WHERE ns = ? AND change > ? ORDER BY change, id`, [at.ns, Math.max(at.floor, checkpoint?.change ?? -Infinity)])) {
        const change = Number(r.change);
        log.set(change, [...(log.get(change) ?? []), String(r.id)]);
      }
      for (const [change, ids] of log) counting.tx.put('changes', namespace, change, ids);
      space.floor = Math.max(space.floor, at.floor);
    }
    addTally(space, await counting.settle());
    tx.put('spaces', namespace, ONE, space);
  }
  return {
    namespaces: names.length,
    skipped,
    finish() {
      const old = new Set([...Object.values(t), `${prefix}nodes`, `${prefix}edges`, `${prefix}meta`]);
      const fts = ftsTablePattern(prefix);
      for (const r of q(`SELECT name FROM sqlite_master WHERE type = 'table'`)) {
        const name = String(r.name);
        if (name !== t.schema && (old.has(name) || fts.test(name))) q(`DROP TABLE IF EXISTS ${name}`);
      }
    },
  };
}
