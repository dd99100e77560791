/**
 * The tables of the SQL store (schema v4: v2 of issue 13, checksums of issue 22, kept counts of
 * issue 25) shared by Node (`sqlite-file-storage.ts`) and
 * the Durable Object (`edge/do-storage.ts`), the tiny synchronous driver both speak
 * ({@link SqlDriver}) and its binding limit ({@link MAX_BINDINGS}), and the one-transaction
 * migration from the Durable Object's v1 tables.
 *
 * Tables (prefix `p`, default `jev_mem_`):
 * - `p schema(key PK, value)`: the row `('version', '4')`;
 * - `p names(ns INTEGER PK, name UNIQUE, floor)`: namespaces; `floor` is the change-log floor;
 * - `p ids(slot INTEGER PK, ns, id, UNIQUE(ns, id))`: the integer slot of every node id a node
 *   or an edge end uses (an edge may point at a node that does not exist);
 * - `p node(slot INTEGER PK, ns, seq, body, vec, sum)`: body JSON without id/namespace/seq/vector,
 *   the vector as `encodeVector` bytes, `sum` the row's checksum (`checksum.ts` `nodeRowSum`
 *   over id, seq, body, vec); index `(ns)`;
 * - `p edge(ns, src, dst, view, subtype, eid, weight, origin, created)`, key
 *   `(ns, src, dst, view, subtype, eid)` WITHOUT ROWID, index `(dst)`, unique `(ns, eid)` where
 *   `eid <> ''` (see `sql-codec.ts` for the codes);
 * - `p dict(code INTEGER PK, value UNIQUE)`: interned edge origins;
 * - `p kv(ns, key, value)`: namespace meta as JSON;
 * - `p changes(ns, change, id)`: the change log (node ids per numbered commit);
 * - `p checkpoint(ns PK, change, format)` and `p checkpoint_part(ns, name, chunk, data, sum)`: the
 *   checkpoint, its parts cut in chunks of {@link CHECKPOINT_CHUNK_BYTES}, each chunk with its
 *   checksum (`checksum.ts` {@link chunkSum});
 * - `p stat(ns PK, nodes, edges, views, bytes)`: the kept counts of each namespace, updated by
 *   every commit in its transaction (`sql-stats.ts`).
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { nodeRowSum, recordSum } from './checksum.js';

/** Layout version this build writes and reads (3: checksums on node rows and checkpoint chunks; 4: kept counts). */
export const SQL_SCHEMA_VERSION = 4;

/** The checksum of chunk `chunk` of checkpoint part `name`. */
export function chunkSum(name: string, chunk: number, data: Uint8Array): number {
  return recordSum([name, chunk, data]);
}

/** Largest checkpoint chunk in bytes (under the Durable Object's 2 MB value limit). */
export const CHECKPOINT_CHUNK_BYTES = 1 << 20;

/** A value a statement binds (BLOBs as Uint8Array). */
export type SqlParam = string | number | Uint8Array | null;

/** A stored SQL value as the drivers give it back (BLOBs as Uint8Array). */
export type SqlValue = string | number | bigint | Uint8Array | null;

/** One result row keyed by column name. */
export type SqlRow = Record<string, SqlValue>;

/**
 * The synchronous SQLite driver the store runs on: `ctx.storage.sql` of a Durable Object, or
 * node-sqlite3-wasm in Node.
 */
export interface SqlDriver {
  /**
   * Runs one statement with `?` bindings and returns its rows (none for a statement without).
   * @throws Error on any SQL failure (the store maps it to a JevMemError).
   */
  query(sql: string, params?: readonly SqlParam[]): SqlRow[];
  /** Runs `fn` as one transaction: a throw rolls every statement back and is rethrown. */
  transaction<T>(fn: () => T): T;
  /**
   * Optional: runs the statements of `fn` (reads only) under one read lock, so that they see one
   * state and lock once. Without it each statement runs on its own.
   */
  read?<T>(fn: () => T): T;
}

/** Most `?` bindings in one statement (the Durable Object allows 100). */
export const MAX_BINDINGS = 90;

/** `n` comma-separated `?` bindings, for an `IN (…)` list. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** `items` cut in runs of at most `size` (one statement each, under {@link MAX_BINDINGS}). */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The table names of one prefix. */
export interface SqlTables {
  schema: string;
  names: string;
  ids: string;
  node: string;
  edge: string;
  dict: string;
  kv: string;
  changes: string;
  checkpoint: string;
  part: string;
  stat: string;
}

/** Table names for `prefix`. */
export function sqlTables(prefix: string): SqlTables {
  return {
    schema: `${prefix}schema`,
    names: `${prefix}names`,
    ids: `${prefix}ids`,
    node: `${prefix}node`,
    edge: `${prefix}edge`,
    dict: `${prefix}dict`,
    kv: `${prefix}kv`,
    changes: `${prefix}changes`,
    checkpoint: `${prefix}checkpoint`,
    part: `${prefix}checkpoint_part`,
    stat: `${prefix}stat`,
  };
}

function createTables(db: SqlDriver, t: SqlTables, prefix: string): void {
  const ddl = [
    `CREATE TABLE IF NOT EXISTS ${t.names} (ns INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, floor INTEGER NOT NULL DEFAULT 0)`,
    `CREATE TABLE IF NOT EXISTS ${t.ids} (slot INTEGER PRIMARY KEY, ns INTEGER NOT NULL, id TEXT NOT NULL, UNIQUE (ns, id))`,
    `CREATE TABLE IF NOT EXISTS ${t.node} (slot INTEGER PRIMARY KEY, ns INTEGER NOT NULL, seq REAL NOT NULL, body TEXT NOT NULL, vec BLOB, sum INTEGER)`,
    `CREATE INDEX IF NOT EXISTS ${prefix}node_ns ON ${t.node} (ns)`,
    // view, subtype and created hold an integer code or a text (no type: no affinity conversion).
    `CREATE TABLE IF NOT EXISTS ${t.edge} (ns INTEGER NOT NULL, src INTEGER NOT NULL, dst INTEGER NOT NULL, view NOT NULL, subtype NOT NULL, eid TEXT NOT NULL, weight REAL, origin INTEGER NOT NULL, created, PRIMARY KEY (ns, src, dst, view, subtype, eid)) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS ${prefix}edge_dst ON ${t.edge} (dst)`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${prefix}edge_eid ON ${t.edge} (ns, eid) WHERE eid <> ''`,
    `CREATE TABLE IF NOT EXISTS ${t.dict} (code INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE)`,
    `CREATE TABLE IF NOT EXISTS ${t.kv} (ns INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS ${t.changes} (ns INTEGER NOT NULL, change INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (ns, change, id)) WITHOUT ROWID`,
    `CREATE TABLE IF NOT EXISTS ${t.checkpoint} (ns INTEGER PRIMARY KEY, change INTEGER NOT NULL, format TEXT NOT NULL)`,
    `CREATE TABLE IF NOT EXISTS ${t.part} (ns INTEGER NOT NULL, name TEXT NOT NULL, chunk INTEGER NOT NULL, data BLOB NOT NULL, sum INTEGER)`,
    `CREATE UNIQUE INDEX IF NOT EXISTS ${prefix}checkpoint_part_key ON ${t.part} (ns, name, chunk)`,
    `CREATE TABLE IF NOT EXISTS ${t.stat} (ns INTEGER PRIMARY KEY, nodes INTEGER NOT NULL, edges INTEGER NOT NULL, views TEXT NOT NULL, bytes INTEGER NOT NULL)`,
  ];
  for (const statement of ddl) db.query(statement);
}

/**
 * Creates the v4 tables, or checks the version of existing ones, in one transaction. A store
 * at version 1 (the Durable Object's JSON-body tables `p nodes`, `p edges`, `p meta`) is
 * migrated in the same transaction: its rows are written as v4 rows through `writeV2`, the v1
 * tables dropped, and the version set to 4; a failure leaves the v1 tables as they were. A store
 * at version 2 gets its `sum` columns, each node row and checkpoint chunk its checksum computed
 * from the row as it is (so a row damaged before the upgrade is not detected), in the same
 * transaction. A store at version 1, 2 or 3 gets its `p stat` table, each namespace counted once
 * in full by `countAll` (issue 25), in the same transaction.
 *
 * @param writeV2 - writes one namespace's records as v2 rows (the store's own commit path).
 * @param countAll - counts every namespace and keeps the counts (`sql-stats.ts` `recountAll`).
 * @throws JevMemError `SCHEMA_MISMATCH` when the store has another version (field
 *   `schema.version`); SQL errors pass through.
 */
export function ensureSqlSchema(
  db: SqlDriver,
  prefix: string,
  writeV2: (namespace: string, nodes: MemoryNode[], edges: MemoryEdge[], meta: Record<string, unknown>) => void,
  countAll: () => void,
): void {
  const t = sqlTables(prefix);
  db.transaction(() => {
    db.query(`CREATE TABLE IF NOT EXISTS ${t.schema} (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    const row = db.query(`SELECT value FROM ${t.schema} WHERE key = 'version'`)[0];
    const version = row === undefined ? undefined : String(row.value);
    if (version === String(SQL_SCHEMA_VERSION)) return;
    if (version !== undefined && version !== '1' && version !== '2' && version !== '3') {
      throw new JevMemError(
        'SCHEMA_MISMATCH',
        `this store's jev-mem tables have layout version ${version}, this build reads ${SQL_SCHEMA_VERSION}` +
          (Number(version) > SQL_SCHEMA_VERSION ? ' (upgrade jev-mem)' : '') + '; export with the matching jev-mem version and import here',
        { field: 'schema.version', found: version, expected: SQL_SCHEMA_VERSION },
      );
    }
    if (version === '2') migrateV2(db, t);
    createTables(db, t, prefix);
    if (version === '1') migrateV1(db, prefix, writeV2);
    if (version !== undefined) countAll();
    db.query(`INSERT OR REPLACE INTO ${t.schema} (key, value) VALUES ('version', ?)`, [String(SQL_SCHEMA_VERSION)]);
  });
}

/** Schema v2 → v3 inside the caller's transaction: the `sum` columns, filled from the rows. */
function migrateV2(db: SqlDriver, t: SqlTables): void {
  db.query(`ALTER TABLE ${t.node} ADD COLUMN sum INTEGER`);
  db.query(`ALTER TABLE ${t.part} ADD COLUMN sum INTEGER`);
  for (const r of db.query(`SELECT n.slot AS slot, i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot`)) {
    const vec = r.vec instanceof Uint8Array ? r.vec : null;
    db.query(`UPDATE ${t.node} SET sum = ? WHERE slot = ?`, [nodeRowSum(String(r.id), Number(r.seq), String(r.body), vec), Number(r.slot)]);
  }
  for (const r of db.query(`SELECT ns, name, chunk, data FROM ${t.part}`)) {
    const data = r.data instanceof Uint8Array ? r.data : new Uint8Array(0);
    db.query(`UPDATE ${t.part} SET sum = ? WHERE ns = ? AND name = ? AND chunk = ?`, [chunkSum(String(r.name), Number(r.chunk), data), Number(r.ns), String(r.name), Number(r.chunk)]);
  }
}

/** Schema v1 (Durable Object, JSON bodies) → v3, namespace by namespace, inside the caller's transaction. */
function migrateV1(db: SqlDriver, prefix: string, writeV2: (namespace: string, nodes: MemoryNode[], edges: MemoryEdge[], meta: Record<string, unknown>) => void): void {
  const v1 = { nodes: `${prefix}nodes`, edges: `${prefix}edges`, meta: `${prefix}meta` };
  const exists = (table: string): boolean => db.query(`SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = ?`, [table]).length > 0;
  const present = Object.values(v1).filter(exists);
  if (present.length === 0) return;
  const names = new Set<string>();
  for (const table of present) for (const r of db.query(`SELECT DISTINCT ns FROM ${table}`)) names.add(String(r.ns));
  const parse = (text: SqlValue, where: string): unknown => {
    if (typeof text !== 'string') throw new JevMemError('STORAGE_FAILED', `${where}: expected a JSON text column in the v1 tables, got ${text === null ? 'null' : typeof text}`);
    return JSON.parse(text) as unknown;
  };
  for (const ns of [...names].sort()) {
    const nodes = present.includes(v1.nodes) ? db.query(`SELECT id, body FROM ${v1.nodes} WHERE ns = ?`, [ns]).map((r) => parse(r.body ?? null, `v1 node ${String(r.id)}`) as MemoryNode) : [];
    const edges = present.includes(v1.edges) ? db.query(`SELECT id, body FROM ${v1.edges} WHERE ns = ?`, [ns]).map((r) => parse(r.body ?? null, `v1 edge ${String(r.id)}`) as MemoryEdge) : [];
    const meta: Record<string, unknown> = {};
    if (present.includes(v1.meta)) for (const r of db.query(`SELECT key, value FROM ${v1.meta} WHERE ns = ?`, [ns])) meta[String(r.key)] = parse(r.value ?? null, `v1 meta ${String(r.key)}`);
    writeV2(ns, nodes, edges, meta);
  }
  for (const table of present) db.query(`DROP TABLE ${table}`);
}
