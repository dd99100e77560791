/**
 * The storage adapter over SQLite (schema v2, issue 13), shared by Node
 * (`sqlite-file-storage.ts`, node-sqlite3-wasm) and the Durable Object (`edge/do-storage.ts`,
 * `ctx.storage.sql`): every method of the {@link StorageAdapter} port answered by index lookups
 * (a node by id, the edges of a node from either end, counts), so no operation but `load` reads
 * a whole namespace. Tables and driver: `sql-schema.ts`; row encoding: `sql-codec.ts`.
 *
 * @module
 */
import { JevMemError, invalidInput, isJevMemError } from '../../errors.js';
import type { MemoryEdge, MemoryNode, View } from '../../types.js';
import { changedNodeIds, emptyNamespaceState, toSnapshot, validateBatch } from './memory-storage.js';
import { checkExistingNamespaceName, checkNamespaceName } from './names.js';
import { quoteVisible } from '../../util/invisible.js';
import { type EdgeRow, type SqlValue, canonicalSplits, decodeEdge, decodeNode, encodeEdge, encodeNode, subtypeCode, viewCode, viewName } from './sql-codec.js';
import type { IndexHit, LexicalIndex } from '../indexes/indexes.js';
import type { LanguageCode } from '../text/language.js';
import { FTS_LEXICAL_FORMAT, type FtsDoc, createFtsTable, ftsDelete, ftsInsert, ftsSearch, ftsTableName, ftsTablePattern } from '../indexes/sql-lexical.js';
import { CHECKPOINT_CHUNK_BYTES, type SqlDriver, type SqlParam, type SqlRow, chunkSum, ensureSqlSchema, sqlTables } from './sql-schema.js';
import { DamageLog, type DamageReport, nodeRowSum } from './checksum.js';
import type { Checkpoint, NamespaceCounts, NamespaceSnapshot, StorageAdapter, WriteBatch } from './storage.js';

/** Options of {@link createSqlStorage}. */
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
   * every commit, and offers it as {@link StorageAdapter.lexicalIndex} (`sql-lexical.ts`); a
   * namespace without one (written under `'minisearch'`, or before this engine) has it built from
   * its nodes at its first commit or search. `'minisearch'`: the memory keeps MiniSearch in its
   * checkpoints; the store keeps no lexical index, and the first commit to a namespace drops one
   * left by `'fts5'` (it would go stale and hold erased terms).
   * @default 'minisearch'
   */
  lexical?: 'fts5' | 'minisearch';
}

/** Most `?` bindings in one statement (the Durable Object allows 100). */
const MAX_BINDINGS = 90;

/** Bytes counted by `sizeBytes` per edge for its integer and real columns (slots, codes, weight, time). */
export const EDGE_FIXED_BYTES = 24;

const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

function chunked<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Whether `cause` is SQLite reporting a damaged file (`SQLITE_CORRUPT`, `SQLITE_NOTADB`, "malformed"). */
export function isCorruptError(cause: unknown): boolean {
  const message = cause instanceof Error ? cause.message : String(cause);
  return /SQLITE_CORRUPT|SQLITE_NOTADB|malformed|file is not a database/i.test(message);
}

/**
 * Maps a SQLite failure to the error family: a value over SQLite's size limit → `TOO_LARGE`, a
 * full store → `QUOTA_EXCEEDED`, a damaged file (`SQLITE_CORRUPT`, "malformed") →
 * `STORE_DAMAGED` (run `jev-mem repair`), anything else → `STORAGE_FAILED`; a JevMemError passes
 * through.
 */
export function sqlError(label: string, what: string, cause: unknown): JevMemError {
  if (isJevMemError(cause)) return cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  if (isCorruptError(cause)) {
    return new JevMemError('STORE_DAMAGED', `${label} failed to ${what}: SQLite reports the file damaged (${message}); nothing was written. Run \`jev-mem check\` and \`jev-mem repair\``, { cause, ids: [] });
  }
  if (/SQLITE_TOOBIG|string or blob too big/i.test(message)) {
    return new JevMemError('TOO_LARGE', `${label} refused to ${what}: a node, edge or meta value is over the SQL value limit (2 MB on Cloudflare) (${message}); nothing was written`, { cause });
  }
  if (/SQLITE_FULL|exceeded.*storage|storage.*(limit|exceeded)|database or disk is full/i.test(message)) {
    return new JevMemError('QUOTA_EXCEEDED', `${label} refused to ${what} for lack of space (${message}); nothing was written`, { cause });
  }
  return new JevMemError('STORAGE_FAILED', `${label} failed to ${what} (${message}); nothing was written`, { cause });
}

/**
 * Refuses a batch with a U+0000 in a node or edge id or a meta key: a driver may bind a string
 * only up to its first NUL (node-sqlite3-wasm does), which would store `"a\u0000b"` as `"a"`,
 * one record for two names.
 * @throws JevMemError `INVALID_INPUT` naming the field (`batch.putNodes[2].id`).
 */
function refuseNul(batch: WriteBatch): void {
  const check = (field: string, value: unknown): void => {
    if (typeof value === 'string' && value.includes('\u0000')) throw invalidInput(field, `${quoteVisible(value)} holds U+0000, which this store cannot keep whole`);
  };
  batch.putNodes?.forEach((n, i) => check(`batch.putNodes[${i}].id`, n.id));
  batch.putEdges?.forEach((e, i) => {
    for (const key of ['id', 'from', 'to'] as const) check(`batch.putEdges[${i}].${key}`, e[key]);
  });
  for (const key of Object.keys(batch.meta ?? {})) check(`batch.meta.${key}`, key);
}

function num(v: SqlValue | undefined): number {
  return v === null || v === undefined ? 0 : Number(v);
}

function bytes(v: SqlValue | undefined): Uint8Array {
  if (v instanceof Uint8Array) return v;
  if (v === null || v === undefined) return new Uint8Array(0);
  throw new Error(`expected a BLOB, got ${typeof v}`);
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0] as Uint8Array;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

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
 * and meta keys and values, plus {@link EDGE_FIXED_BYTES} per edge (SQLite's pages and indexes
 * add to it).
 *
 * @throws JevMemError `INVALID_OPTION` (field `tablePrefix`) for a bad prefix. The methods throw
 *   `INVALID_INPUT` naming the field (malformed batch or namespace), `SCHEMA_MISMATCH` (another
 *   layout version), `QUOTA_EXCEEDED` (storage full; nothing written), `TOO_LARGE` (a value over
 *   the SQL value limit; nothing written), `STORAGE_FAILED` (SQL failure, a value that is not
 *   JSON-safe, a damaged row; nothing written) and `CLOSED` after `close()`.
 */
export function createSqlStorage(db: SqlDriver, options: SqlStorageOptions): StorageAdapter {
  const prefix = options.tablePrefix ?? 'jev_mem_';
  if (typeof prefix !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(prefix) || prefix.startsWith('_cf_')) {
    throw new JevMemError('INVALID_OPTION', `option tablePrefix: expected letters, digits and _ (not starting with _cf_), got ${JSON.stringify(prefix)}`, { field: 'tablePrefix' });
  }
  const t = sqlTables(prefix);
  const { label } = options;
  let closed = false;
  let ready = false;
  /** Interned origins (code ↔ JSON text); cleared when a transaction fails (its codes may be gone). */
  const dictByCode = new Map<number, string>();
  const dictByValue = new Map<string, number>();
  const fts = options.lexical === 'fts5';
  /** Namespaces whose lexical table was checked this session (built under 'fts5', dropped under 'minisearch'). */
  const lexChecked = new Set<number>();
  /** Damaged records met by reads of this connection (issue 22). */
  const damage = new DamageLog();

  const live = (): void => {
    if (closed) throw new JevMemError('CLOSED', `${label} was used after close()`);
  };
  const q = (sql: string, params?: readonly SqlParam[]): SqlRow[] => db.query(sql, params);
  /** The error of a damaged checkpoint (kept in the damage log); the memory rebuilds it from the rows. */
  const checkpointDamaged = (namespace: string, why: string): JevMemError => {
    damage.checkpoint(namespace);
    return new JevMemError('STORE_DAMAGED', `${label}: the checkpoint of namespace ${JSON.stringify(namespace)} is damaged (${why}); it is rebuilt from the node rows`, { field: 'checkpoint', ids: [] });
  };
  /** Refuses a batch that puts records into a namespace known to hold damaged ones. */
  const refuseIfDamaged = (namespace: string, batch: WriteBatch): void => {
    const ids = damage.ids(namespace);
    if (ids.length === 0 || ((batch.putNodes ?? []).length === 0 && (batch.putEdges ?? []).length === 0)) return;
    const shown = ids.slice(0, 10).map((id) => JSON.stringify(id)).join(', ') + (ids.length > 10 ? `, … (${ids.length} in all)` : '');
    throw new JevMemError(
      'STORE_DAMAGED',
      `${label}: namespace ${JSON.stringify(namespace)} holds damaged node record(s) ${shown}; writes are refused (nothing was written). Run \`jev-mem check\`, then \`jev-mem repair\` (or delete the damaged nodes)`,
      { field: 'namespace', ids },
    );
  };

  /**
   * Slots of the running write transaction (key `ns:id`), so that the many edges of one commit
   * resolve each end once. Valid inside the transaction only: ids rows are removed by
   * `collectSlots` alone, which empties it, and another connection cannot write meanwhile.
   */
  const txSlots = new Map<string, number>();
  /** Keys `ns:id` the running transaction found without a slot (until `ensureSlot` gives one). */
  const txNoSlot = new Set<string>();
  let txSlotsOn = false;

  /** A transaction with the slot cache on; its failure forgets the dictionary cache. */
  const tx = <T>(fn: () => T): T => {
    try {
      return db.transaction(() => {
        txSlots.clear();
        txNoSlot.clear();
        txSlotsOn = true;
        try {
          return fn();
        } finally {
          txSlotsOn = false;
          txSlots.clear();
          txNoSlot.clear();
        }
      });
    } catch (e) {
      dictByCode.clear();
      dictByValue.clear();
      lexChecked.clear();
      throw e;
    }
  };

  // ── namespaces, slots, dictionary ──

  /**
   * The id of namespace `name`, or undefined when the store does not hold it. A driver may bind a
   * string only up to its first NUL (node-sqlite3-wasm does), so the name read back must equal
   * the name asked for: `"alice\u0000x"` never finds `"alice"`.
   */
  const nsId = (name: string): number | undefined => {
    if (name.includes('\u0000')) return undefined;
    const r = q(`SELECT ns, name FROM ${t.names} WHERE name = ?`, [name])[0];
    return r === undefined || r.name !== name ? undefined : num(r.ns);
  };
  /**
   * The id of namespace `name`, made when missing: a new name must pass the rule of names.ts,
   * unless it is `carried` over from an older layout of this store (kept as it was, so it stays
   * listable, exportable and forgettable; a name that cannot be stored whole is refused).
   */
  const ensureNs = (name: string, carried = false): number => {
    const id = nsId(name);
    if (id !== undefined) return id;
    if (!carried) checkNamespaceName(name);
    q(`INSERT INTO ${t.names} (name, floor) VALUES (?, 0)`, [name]);
    const made = nsId(name);
    if (made === undefined) throw new Error(`namespace ${quoteVisible(name)} was not stored whole`);
    return made;
  };
  const slotOf = (ns: number, id: string): number | undefined => {
    const key = `${ns}:${id}`;
    if (txSlotsOn && (txSlots.has(key) || txNoSlot.has(key))) return txSlots.get(key);
    const r = q(`SELECT slot FROM ${t.ids} WHERE ns = ? AND id = ?`, [ns, id])[0];
    if (r === undefined) return undefined;
    const slot = num(r.slot);
    if (txSlotsOn) txSlots.set(key, slot);
    return slot;
  };
  const ensureSlot = (ns: number, id: string): number => {
    const slot = slotOf(ns, id);
    if (slot !== undefined) return slot;
    q(`INSERT INTO ${t.ids} (ns, id) VALUES (?, ?)`, [ns, id]);
    txNoSlot.delete(`${ns}:${id}`);
    return slotOf(ns, id) as number;
  };
  /** Slots of many ids: id → slot (unknown ids left out). */
  const slotsOf = (ns: number, ids: readonly string[]): Map<string, number> => {
    const out = new Map<string, number>();
    for (const part of chunked([...new Set(ids)], MAX_BINDINGS)) {
      for (const r of q(`SELECT slot, id FROM ${t.ids} WHERE ns = ? AND id IN (${placeholders(part.length)})`, [ns, ...part])) out.set(String(r.id), num(r.slot));
    }
    return out;
  };
  /** Puts the slots of these ids in the transaction's slot cache, a statement per {@link MAX_BINDINGS} ids. */
  const prefetchSlots = (ns: number, ids: Iterable<string>): void => {
    if (!txSlotsOn) return;
    const missing = new Set<string>();
    for (const id of ids) if (!txSlots.has(`${ns}:${id}`)) missing.add(id);
    const found = slotsOf(ns, [...missing]);
    for (const id of missing) {
      const slot = found.get(id);
      if (slot === undefined) txNoSlot.add(`${ns}:${id}`);
      else txSlots.set(`${ns}:${id}`, slot);
    }
  };
  /** Ids of many slots. */
  const idsOf = (slots: Iterable<number>): Map<number, string> => {
    const out = new Map<number, string>();
    for (const part of chunked([...new Set(slots)], MAX_BINDINGS)) {
      for (const r of q(`SELECT slot, id FROM ${t.ids} WHERE slot IN (${placeholders(part.length)})`, part)) out.set(num(r.slot), String(r.id));
    }
    return out;
  };
  const intern = (value: string): number => {
    const cached = dictByValue.get(value);
    if (cached !== undefined) return cached;
    let r = q(`SELECT code FROM ${t.dict} WHERE value = ?`, [value])[0];
    if (r === undefined) {
      q(`INSERT INTO ${t.dict} (value) VALUES (?)`, [value]);
      r = q(`SELECT code FROM ${t.dict} WHERE value = ?`, [value])[0] as SqlRow;
    }
    const code = num(r.code);
    dictByValue.set(value, code);
    dictByCode.set(code, value);
    return code;
  };
  const lookup = (code: number): string => {
    const cached = dictByCode.get(code);
    if (cached !== undefined) return cached;
    const r = q(`SELECT value FROM ${t.dict} WHERE code = ?`, [code])[0];
    if (r === undefined) throw new Error(`edge origin code ${code} is not in ${t.dict}`);
    const value = String(r.value);
    dictByCode.set(code, value);
    dictByValue.set(value, code);
    return value;
  };

  // ── the store-kept lexical index (sql-lexical.ts) ──

  /** What the FTS table holds for a stored node body: its text and speaker, or undefined when not indexed (deleted). */
  const ftsDocOf = (body: SqlValue | undefined): FtsDoc | undefined => {
    if (body === undefined || body === null) return undefined;
    const n = decodeNode('', '', 0, body, null);
    return n.status === 'deleted' ? undefined : { text: n.text, speaker: n.provenance?.speaker };
  };
  /** FTS tables of namespace `ns` of any version. */
  const lexTables = (ns: number): Array<{ name: string; current: boolean }> => {
    const pattern = ftsTablePattern(prefix);
    const want = ftsTableName(prefix, ns);
    return q(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, [`${prefix}fts%`])
      .map((r) => String(r.name))
      .filter((name) => pattern.exec(name)?.[2] === String(ns))
      .map((name) => ({ name, current: name === want }));
  };
  /**
   * Inside a transaction, once per namespace per session: under 'fts5', builds the namespace's
   * FTS table from its nodes when missing (dropping other versions); under 'minisearch', drops it.
   */
  const checkLexical = (ns: number): void => {
    if (lexChecked.has(ns)) return;
    const tables = lexTables(ns);
    for (const table of tables) if (!fts || !table.current) q(`DROP TABLE ${table.name}`);
    if (fts && !tables.some((table) => table.current)) {
      const name = ftsTableName(prefix, ns);
      createFtsTable(q, name);
      for (const r of q(`SELECT n.slot AS slot, i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.ns = ?`, [ns])) {
        if (!rowSound(r)) continue;
        const doc = ftsDocOf(r.body);
        if (doc !== undefined) ftsInsert(q, name, num(r.slot), doc);
      }
    }
    lexChecked.add(ns);
  };
  /**
   * The FTS document of the stored node at `slot` (undefined when none or not indexed), or
   * `'damaged'` when its row fails its checksum or cannot be decoded: the terms it was indexed
   * under are then unknown, and the namespace's FTS table must be rebuilt ({@link rebuildLexical}).
   */
  const storedDoc = (slot: number): FtsDoc | undefined | 'damaged' => {
    const r = q(`SELECT i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.slot = ?`, [slot])[0];
    if (r === undefined) return undefined;
    if (!rowSound(r)) return 'damaged';
    try {
      return ftsDocOf(r.body);
    } catch {
      return 'damaged';
    }
  };
  /**
   * Under 'fts5': removes `slot` from the FTS table when its stored node is indexed (call before
   * the node row changes). Returns true when the row was damaged (nothing removed: rebuild).
   */
  const unindex = (ns: number, slot: number): boolean => {
    if (!fts) return false;
    const doc = storedDoc(slot);
    if (doc === 'damaged') return true;
    if (doc !== undefined) ftsDelete(q, ftsTableName(prefix, ns), slot, doc);
    return false;
  };
  /** Inside a transaction: drops the namespace's FTS table and builds it again from its sound rows. */
  const rebuildLexical = (ns: number): void => {
    for (const table of lexTables(ns)) q(`DROP TABLE ${table.name}`);
    lexChecked.delete(ns);
    checkLexical(ns);
  };

  // ── rows ──

  /**
   * Removes the edge(s) with this id; returns the end slots they used. `put` is the edge about
   * to be written with this id: when its row is canonical, the canonical row of its own ends is
   * left for the `INSERT OR REPLACE` that follows (same key, same ends).
   */
  const deleteEdgeById = (ns: number, id: string, put?: { edge: MemoryEdge; row: EdgeRow }): number[] => {
    const freed: number[] = [];
    const explicit = q(`SELECT src, dst FROM ${t.edge} WHERE ns = ? AND eid = ? AND eid <> ''`, [ns, id]);
    if (explicit.length > 0) {
      for (const r of explicit) freed.push(num(r.src), num(r.dst));
      q(`DELETE FROM ${t.edge} WHERE ns = ? AND eid = ? AND eid <> ''`, [ns, id]);
    }
    for (const s of canonicalSplits(id)) {
      if (put !== undefined && put.row.eid === '' && s.from === put.edge.from && s.to === put.edge.to) continue;
      const src = slotOf(ns, s.from);
      const dst = src === undefined ? undefined : slotOf(ns, s.to);
      if (src === undefined || dst === undefined) continue;
      const key = [ns, src, dst, viewCode(s.view), subtypeCode(s.subtype)];
      if (q(`SELECT 1 AS x FROM ${t.edge} WHERE ns = ? AND src = ? AND dst = ? AND view = ? AND subtype = ? AND eid = ''`, key).length === 0) continue;
      q(`DELETE FROM ${t.edge} WHERE ns = ? AND src = ? AND dst = ? AND view = ? AND subtype = ? AND eid = ''`, key);
      freed.push(src, dst);
    }
    return freed;
  };
  /** Drops id rows that no node and no edge uses any more. */
  const collectSlots = (ns: number, slots: Iterable<number>): void => {
    txSlots.clear();
    txNoSlot.clear();
    for (const slot of new Set(slots)) {
      q(
        `DELETE FROM ${t.ids} WHERE slot = ? AND NOT EXISTS (SELECT 1 FROM ${t.node} WHERE slot = ?) AND NOT EXISTS (SELECT 1 FROM ${t.edge} WHERE ns = ? AND src = ?) AND NOT EXISTS (SELECT 1 FROM ${t.edge} WHERE dst = ?)`,
        [slot, slot, ns, slot, slot],
      );
    }
  };
  const putNodeRow = (ns: number, node: MemoryNode, row: ReturnType<typeof encodeNode>): void => {
    const slot = ensureSlot(ns, node.id);
    q(`INSERT OR REPLACE INTO ${t.node} (slot, ns, seq, body, vec, sum) VALUES (?, ?, ?, ?, ?, ?)`, [slot, ns, row.seq, row.body, row.vec, nodeRowSum(node.id, row.seq, row.body, row.vec)]);
  };
  const putEdgeRow = (ns: number, edge: MemoryEdge, row: EdgeRow): void => {
    const src = ensureSlot(ns, edge.from);
    const dst = ensureSlot(ns, edge.to);
    q(`INSERT OR REPLACE INTO ${t.edge} (ns, src, dst, view, subtype, eid, weight, origin, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
      ns, src, dst, row.view, row.subtype, row.eid, row.weight, intern(row.origin), row.created,
    ]);
  };
  const setMeta = (ns: number, key: string, value: string | null): void => {
    if (value === null) q(`DELETE FROM ${t.kv} WHERE ns = ? AND key = ?`, [ns, key]);
    else q(`INSERT OR REPLACE INTO ${t.kv} (ns, key, value) VALUES (?, ?, ?)`, [ns, key, value]);
  };
  const encodeNodes = (nodes: readonly MemoryNode[], field: string): Array<ReturnType<typeof encodeNode>> =>
    nodes.map((n, i) => {
      try {
        return encodeNode(n);
      } catch (cause) {
        throw new JevMemError('STORAGE_FAILED', `${field}[${i}] cannot be stored: ${String(cause)} (values must be JSON-safe)`, { field: `${field}[${i}]`, cause });
      }
    });
  const encodeEdges = (edges: readonly MemoryEdge[], field: string): EdgeRow[] =>
    edges.map((e, i) => {
      try {
        return encodeEdge(e);
      } catch (cause) {
        throw new JevMemError('STORAGE_FAILED', `${field}[${i}] cannot be stored: ${String(cause)} (values must be JSON-safe)`, { field: `${field}[${i}]`, cause });
      }
    });
  const encodeMeta = (meta: Record<string, unknown>): Array<[string, string | null]> =>
    Object.entries(meta)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => {
        if (v === null) return [k, null];
        const text = JSON.stringify(v);
        if (text === undefined) throw new JevMemError('STORAGE_FAILED', `batch.meta.${k} cannot be stored as JSON (got ${typeof v}); values must be JSON-safe`, { field: `batch.meta.${k}` });
        return [k, text];
      });

  /** Writes whole records (migration from v1): puts only, inside the caller's transaction. */
  const writeRecords = (namespace: string, nodes: MemoryNode[], edges: MemoryEdge[], meta: Record<string, unknown>): void => {
    const ns = ensureNs(namespace, true);
    const nodeRows = encodeNodes(nodes, 'nodes');
    const edgeRows = encodeEdges(edges, 'edges');
    nodes.forEach((n, i) => putNodeRow(ns, n, nodeRows[i] as ReturnType<typeof encodeNode>));
    edges.forEach((e, i) => {
      deleteEdgeById(ns, e.id);
      putEdgeRow(ns, e, edgeRows[i] as EdgeRow);
    });
    for (const [k, v] of encodeMeta(meta)) setMeta(ns, k, v);
  };

  const ensureReady = (): void => {
    if (ready) return;
    try {
      ensureSqlSchema(db, prefix, writeRecords);
    } catch (e) {
      dictByCode.clear();
      dictByValue.clear();
      throw sqlError(label, 'create or migrate its tables', e);
    }
    ready = true;
  };

  /** Common entry of every read: live, valid namespace, tables there. */
  const enter = (namespace?: string): void => {
    live();
    if (namespace !== undefined) checkExistingNamespaceName(namespace);
    ensureReady();
  };
  const write = async (): Promise<void> => {
    await options.beforeWrite?.();
    live();
  };
  const read = <T>(what: string, fn: () => T): T => {
    try {
      return db.read === undefined ? fn() : db.read(fn);
    } catch (e) {
      throw sqlError(label, what, e);
    }
  };

  /**
   * Whether a node row (columns id, seq, body, vec, sum) matches its checksum. A row without one
   * fails too: every row has one since schema v3 (the migration computed them).
   */
  function rowSound(r: SqlRow): boolean {
    if (r.sum === null || r.sum === undefined) return false;
    if (typeof r.body !== 'string' || (r.vec !== null && r.vec !== undefined && !(r.vec instanceof Uint8Array))) return false;
    return nodeRowSum(String(r.id), Number(r.seq), r.body, r.vec ?? null) === num(r.sum);
  }
  /** {@link read}, answering undefined when SQLite finds a damaged page. */
  const readUnlessCorrupt = <T>(what: string, fn: () => T): T | undefined => {
    try {
      return db.read === undefined ? fn() : db.read(fn);
    } catch (e) {
      if (isCorruptError(e)) return undefined;
      throw sqlError(label, what, e);
    }
  };
  /**
   * The nodes of rows (columns id, seq, body, vec, sum), each checked against its checksum and
   * decoded; a row that fails either is left out and its id kept in the damage log.
   */
  const nodesOfRows = (namespace: string, rows: SqlRow[]): MemoryNode[] => {
    const out: MemoryNode[] = [];
    for (const r of rows) {
      const id = String(r.id);
      if (!rowSound(r)) {
        damage.node(namespace, id);
        continue;
      }
      try {
        out.push(decodeNode(namespace, id, r.seq ?? null, r.body ?? null, r.vec ?? null));
      } catch {
        damage.node(namespace, id);
      }
    }
    return out;
  };
  const NODE_COLUMNS_BY_SLOT = `SELECT n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n WHERE n.slot = ?`;
  /**
   * The node rows of these (slot, id) pairs read one at a time, after SQLite found a damaged page
   * under a query of many: a row on a damaged page is left out and its id kept in the damage log.
   */
  const rowsOneByOne = (namespace: string, pairs: Iterable<[number, string]>): SqlRow[] => {
    const rows: SqlRow[] = [];
    for (const [slot, id] of pairs) {
      try {
        const r = q(NODE_COLUMNS_BY_SLOT, [slot])[0];
        if (r !== undefined) rows.push({ ...r, id, slot });
      } catch (e) {
        if (!isCorruptError(e)) throw e;
        damage.node(namespace, id);
      }
    }
    return rows;
  };
  /** Runs a query of node rows; on a damaged page, reads the rows of `pairs()` one by one instead. */
  const nodeRowsOr = (namespace: string, run: () => SqlRow[], pairs: () => Iterable<[number, string]>): SqlRow[] => {
    try {
      return run();
    } catch (e) {
      if (!isCorruptError(e)) throw e;
      return rowsOneByOne(namespace, pairs());
    }
  };
  const edgesOfRows = (namespace: string, rows: SqlRow[]): MemoryEdge[] => {
    const ids = idsOf(rows.flatMap((r) => [num(r.src), num(r.dst)]));
    return rows.map((r) => {
      const from = ids.get(num(r.src));
      const to = ids.get(num(r.dst));
      if (from === undefined || to === undefined) throw new Error(`an edge of namespace ${JSON.stringify(namespace)} points at a slot with no id`);
      return decodeEdge(namespace, from, to, { eid: r.eid ?? null, view: r.view ?? null, subtype: r.subtype ?? null, weight: r.weight ?? null, created: r.created ?? null }, lookup(num(r.origin)));
    });
  };
  const EDGE_COLUMNS = 'src, dst, view, subtype, eid, weight, origin, created';
  const EDGE_COLUMNS_E = 'e.src AS src, e.dst AS dst, e.view AS view, e.subtype AS subtype, e.eid AS eid, e.weight AS weight, e.origin AS origin, e.created AS created';
  /** The edge of a row whose end ids are known (an end without an id row is a damaged store). */
  const edgeOfRow = (namespace: string, row: SqlRow, from: SqlValue | undefined, to: SqlValue | undefined): MemoryEdge => {
    if (typeof from !== 'string' || typeof to !== 'string') throw new Error(`an edge of namespace ${JSON.stringify(namespace)} points at a slot with no id`);
    return decodeEdge(namespace, from, to, { eid: row.eid ?? null, view: row.view ?? null, subtype: row.subtype ?? null, weight: row.weight ?? null, created: row.created ?? null }, lookup(num(row.origin)));
  };

  /** Replaces the checkpoint of namespace row `ns` and drops the log it covers (inside a transaction). */
  const putCheckpoint = (ns: number, checkpoint: Checkpoint): void => {
    q(`DELETE FROM ${t.part} WHERE ns = ?`, [ns]);
    q(`INSERT OR REPLACE INTO ${t.checkpoint} (ns, change, format) VALUES (?, ?, ?)`, [ns, checkpoint.change, checkpoint.format]);
    for (const [name, data] of Object.entries(checkpoint.parts)) {
      const count = Math.max(1, Math.ceil(data.length / CHECKPOINT_CHUNK_BYTES));
      for (let c = 0; c < count; c++) {
        const chunk = data.subarray(c * CHECKPOINT_CHUNK_BYTES, (c + 1) * CHECKPOINT_CHUNK_BYTES);
        q(`INSERT INTO ${t.part} (ns, name, chunk, data, sum) VALUES (?, ?, ?, ?, ?)`, [ns, name, c, chunk, chunkSum(name, c, chunk)]);
      }
    }
    q(`DELETE FROM ${t.changes} WHERE ns = ? AND change <= ?`, [ns, checkpoint.change]);
    q(`UPDATE ${t.names} SET floor = MAX(floor, ?) WHERE ns = ?`, [checkpoint.change, ns]);
  };
  /** Removes the checkpoint of namespace row `ns` (inside a transaction). */
  const clearCheckpoint = (ns: number): void => {
    q(`DELETE FROM ${t.part} WHERE ns = ?`, [ns]);
    q(`DELETE FROM ${t.checkpoint} WHERE ns = ?`, [ns]);
  };

  const adapter: StorageAdapter = {
    kind: options.kind,

    async load(namespace): Promise<NamespaceSnapshot> {
      enter(namespace);
      const state = emptyNamespaceState();
      read(`load namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return;
        const rows = nodeRowsOr(
          namespace,
          () => q(`SELECT i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.ns = ?`, [ns]),
          () => q(`SELECT slot, id FROM ${t.ids} WHERE ns = ?`, [ns]).map((r) => [num(r.slot), String(r.id)] as [number, string]),
        );
        const nodes = nodesOfRows(namespace, rows);
        for (const n of nodes) state.nodes.set(n.id, n);
        for (const e of edgesOfRows(namespace, q(`SELECT ${EDGE_COLUMNS} FROM ${t.edge} WHERE ns = ?`, [ns]))) state.edges.set(e.id, e);
        for (const r of q(`SELECT key, value FROM ${t.kv} WHERE ns = ?`, [ns])) state.meta.set(String(r.key), JSON.parse(String(r.value)) as unknown);
      });
      return toSnapshot(state);
    },

    async loadMeta(namespace): Promise<Record<string, unknown>> {
      enter(namespace);
      return read(`load the meta of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        const meta: Record<string, unknown> = {};
        if (ns === undefined) return meta;
        const rows = q(`SELECT key, value FROM ${t.kv} WHERE ns = ?`, [ns]).map((r) => [String(r.key), String(r.value)] as const);
        rows.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        for (const [k, v] of rows) meta[k] = JSON.parse(v) as unknown;
        return meta;
      });
    },

    async commit(namespace, batch: WriteBatch): Promise<void> {
      live();
      validateBatch(namespace, batch);
      refuseNul(batch);
      try {
        structuredClone(batch);
      } catch (cause) {
        throw new JevMemError('STORAGE_FAILED', `the batch cannot be stored: ${String(cause)} (values must be JSON-safe)`, { cause });
      }
      // Encode everything before the transaction opens: nothing can fail half-way for JSON.
      const putNodes = batch.putNodes ?? [];
      const putEdges = batch.putEdges ?? [];
      const nodeRows = encodeNodes(putNodes, 'batch.putNodes');
      const edgeRows = encodeEdges(putEdges, 'batch.putEdges');
      const meta = encodeMeta(batch.meta ?? {});
      const changed = batch.change === undefined ? [] : changedNodeIds(batch);
      ensureReady();
      await write();
      refuseIfDamaged(namespace, batch);
      try {
        tx(() => {
          const ns = ensureNs(namespace);
          checkLexical(ns);
          const freed: number[] = [];
          /** A damaged row left the FTS table: rebuild it from the sound rows at the end. */
          let rebuild = false;
          for (const id of batch.deleteNodeIds ?? []) {
            const slot = slotOf(ns, id);
            if (slot === undefined) continue;
            if (unindex(ns, slot)) rebuild = true;
            q(`DELETE FROM ${t.node} WHERE slot = ?`, [slot]);
            freed.push(slot);
          }
          for (const id of batch.deleteEdgeIds ?? []) freed.push(...deleteEdgeById(ns, id));
          prefetchSlots(ns, [...putNodes.map((n) => n.id), ...putEdges.flatMap((e) => [e.from, e.to])]);
          putNodes.forEach((n, i) => {
            const before = slotOf(ns, n.id);
            const stored = before === undefined || !fts || rebuild ? undefined : storedDoc(before);
            if (stored === 'damaged') rebuild = true;
            const old = stored === 'damaged' ? undefined : stored;
            putNodeRow(ns, n, nodeRows[i] as ReturnType<typeof encodeNode>);
            if (!fts || rebuild) return;
            const doc: FtsDoc | undefined = n.status === 'deleted' ? undefined : { text: n.text, speaker: n.provenance?.speaker };
            // A re-put with the same text and speaker (status, duplicates, links) leaves the index as it is.
            if (old !== undefined && doc !== undefined && old.text === doc.text && (old.speaker || '') === (doc.speaker || '')) return;
            const table = ftsTableName(prefix, ns);
            const slot = before ?? (slotOf(ns, n.id) as number);
            if (old !== undefined) ftsDelete(q, table, slot, old);
            if (doc !== undefined) ftsInsert(q, table, slot, doc);
          });
          putEdges.forEach((e, i) => {
            const row = edgeRows[i] as EdgeRow;
            freed.push(...deleteEdgeById(ns, e.id, { edge: e, row }));
            putEdgeRow(ns, e, row);
          });
          for (const [k, v] of meta) setMeta(ns, k, v);
          for (const id of changed) q(`INSERT OR IGNORE INTO ${t.changes} (ns, change, id) VALUES (?, ?, ?)`, [ns, batch.change as number, id]);
          if (rebuild) rebuildLexical(ns);
          collectSlots(ns, freed);
          // The checkpoint change of the batch (issue 22): same transaction as the node changes.
          if (batch.checkpoint === null) clearCheckpoint(ns);
          else if (batch.checkpoint !== undefined) putCheckpoint(ns, batch.checkpoint);
        });
      } catch (e) {
        throw sqlError(label, `commit to namespace ${JSON.stringify(namespace)}`, e);
      }
      for (const id of batch.deleteNodeIds ?? []) damage.clear(namespace, id);
    },

    async getNodes(namespace, ids): Promise<MemoryNode[]> {
      enter(namespace);
      if (ids.length === 0) return [];
      return read(`read nodes of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return [];
        const found = new Map<string, MemoryNode>();
        for (const part of chunked([...new Set(ids)], MAX_BINDINGS)) {
          const rows = nodeRowsOr(
            namespace,
            () => q(`SELECT i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.ids} i JOIN ${t.node} n ON n.slot = i.slot WHERE i.ns = ? AND i.id IN (${placeholders(part.length)})`, [ns, ...part]),
            () => [...slotsOf(ns, part)].map(([id, slot]) => [slot, id] as [number, string]),
          );
          for (const n of nodesOfRows(namespace, rows)) found.set(n.id, n);
        }
        const out: MemoryNode[] = [];
        for (const id of ids) {
          const n = found.get(id);
          if (n !== undefined) out.push(out.includes(n) ? structuredClone(n) : n);
        }
        return out;
      });
    },

    async getEdges(namespace, nodeIds, filter): Promise<MemoryEdge[]> {
      enter(namespace);
      if (nodeIds.length === 0) return [];
      // The subtype is a column of the primary key, so `edge_dst` covers it too: rows of other
      // subtypes are skipped inside the index searches, before any row is built.
      const only = filter?.subtype === undefined ? '' : ' AND e.subtype = ?';
      const onlyParam: SqlParam[] = filter?.subtype === undefined ? [] : [subtypeCode(filter.subtype)];
      return read(`read edges of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return [];
        const idOfSlot = new Map<number, string>();
        for (const [id, slot] of slotsOf(ns, nodeIds)) idOfSlot.set(slot, id);
        const slots = [...idOfSlot.keys()];
        const out: MemoryEdge[] = [];
        // Two index searches instead of one UNION (which SQLite plans as a merge that scans the
        // namespace's edges for the dst side): the edges leaving the asked nodes by the primary
        // key, then those entering them by `edge_dst`, skipping the ones the first search gave
        // (their src is an asked node). The other end's id comes with the row (one rowid lookup).
        for (const part of chunked(slots, MAX_BINDINGS - 2)) {
          for (const r of q(`SELECT ${EDGE_COLUMNS_E}, i.id AS other FROM ${t.edge} e LEFT JOIN ${t.ids} i ON i.slot = e.dst WHERE e.ns = ? AND e.src IN (${placeholders(part.length)})${only}`, [ns, ...part, ...onlyParam])) {
            out.push(edgeOfRow(namespace, r, idOfSlot.get(num(r.src)), r.other));
          }
        }
        for (const part of chunked(slots, MAX_BINDINGS - 2)) {
          for (const r of q(`SELECT ${EDGE_COLUMNS_E}, i.id AS other FROM ${t.edge} e INDEXED BY ${prefix}edge_dst LEFT JOIN ${t.ids} i ON i.slot = e.src WHERE e.dst IN (${placeholders(part.length)}) AND e.ns = ?${only}`, [...part, ns, ...onlyParam])) {
            if (idOfSlot.has(num(r.src))) continue;
            out.push(edgeOfRow(namespace, r, r.other, idOfSlot.get(num(r.dst))));
          }
        }
        return out;
      });
    },

    async *scanNodes(namespace, batchSize): AsyncIterable<MemoryNode[]> {
      enter(namespace);
      const size = Math.max(1, Math.floor(batchSize));
      let after = -1;
      for (;;) {
        live();
        const batch = read(`scan nodes of namespace ${JSON.stringify(namespace)}`, () => {
          const ns = nsId(namespace);
          if (ns === undefined) return { nodes: [], more: false };
          let more = false;
          const rows = nodeRowsOr(
            namespace,
            () => {
              const found = q(`SELECT n.slot AS slot, i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.ns = ? AND n.slot > ? ORDER BY n.slot LIMIT ?`, [ns, after, size]);
              more = found.length === size;
              if (found.length > 0) after = num(found[found.length - 1]?.slot);
              return found;
            },
            () => {
              // A damaged page: walk the id rows (another b-tree) and read each node row alone.
              const ids = q(`SELECT slot, id FROM ${t.ids} WHERE ns = ? AND slot > ? ORDER BY slot LIMIT ?`, [ns, after, size]);
              more = ids.length === size;
              if (ids.length > 0) after = num(ids[ids.length - 1]?.slot);
              return ids.map((r) => [num(r.slot), String(r.id)] as [number, string]);
            },
          );
          return { nodes: nodesOfRows(namespace, rows), more };
        });
        if (batch.nodes.length > 0) yield batch.nodes;
        if (!batch.more) return;
      }
    },

    async *scanEdges(namespace, batchSize): AsyncIterable<MemoryEdge[]> {
      enter(namespace);
      const size = Math.max(1, Math.floor(batchSize));
      let after: SqlParam[] | undefined;
      for (;;) {
        live();
        const batch = read(`scan edges of namespace ${JSON.stringify(namespace)}`, () => {
          const ns = nsId(namespace);
          if (ns === undefined) return [];
          const rows =
            after === undefined
              ? q(`SELECT ${EDGE_COLUMNS} FROM ${t.edge} WHERE ns = ? ORDER BY ns, src, dst, view, subtype, eid LIMIT ?`, [ns, size])
              : q(`SELECT ${EDGE_COLUMNS} FROM ${t.edge} WHERE ns = ? AND (src, dst, view, subtype, eid) > (?, ?, ?, ?, ?) ORDER BY ns, src, dst, view, subtype, eid LIMIT ?`, [ns, ...after, size]);
          const last = rows[rows.length - 1];
          if (last !== undefined) after = [num(last.src), num(last.dst), last.view as SqlParam, last.subtype as SqlParam, String(last.eid)];
          return edgesOfRows(namespace, rows);
        });
        if (batch.length === 0) return;
        yield batch;
        if (batch.length < size) return;
      }
    },

    async counts(namespace): Promise<NamespaceCounts> {
      enter(namespace);
      return read(`count namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        const out: NamespaceCounts = { nodes: 0, edges: 0, edgesByView: {} };
        if (ns === undefined) return out;
        out.nodes = num(q(`SELECT COUNT(*) AS n FROM ${t.node} WHERE ns = ?`, [ns])[0]?.n);
        for (const r of q(`SELECT view, COUNT(*) AS n FROM ${t.edge} WHERE ns = ? GROUP BY view`, [ns])) {
          const n = num(r.n);
          out.edges += n;
          const view = viewName(r.view ?? null) as View;
          out.edgesByView[view] = (out.edgesByView[view] ?? 0) + n;
        }
        return out;
      });
    },

    async readCheckpoint(namespace): Promise<Checkpoint | undefined> {
      enter(namespace);
      return read(`read the checkpoint of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return undefined;
        const head = q(`SELECT change, format FROM ${t.checkpoint} WHERE ns = ?`, [ns])[0];
        if (head === undefined) return undefined;
        const chunks = new Map<string, Uint8Array[]>();
        let rows: SqlRow[];
        try {
          rows = q(`SELECT name, chunk, data, sum FROM ${t.part} WHERE ns = ? ORDER BY name, chunk`, [ns]);
        } catch (e) {
          if (!isCorruptError(e)) throw e;
          throw checkpointDamaged(namespace, `SQLite reports its pages damaged (${e instanceof Error ? e.message : String(e)})`);
        }
        for (const r of rows) {
          const name = String(r.name);
          const data = r.data instanceof Uint8Array ? r.data : undefined;
          if (data === undefined || r.sum === null || r.sum === undefined || chunkSum(name, num(r.chunk), data) !== num(r.sum)) {
            throw checkpointDamaged(namespace, `chunk ${num(r.chunk)} of part ${JSON.stringify(name)} fails its checksum`);
          }
          const list = chunks.get(name) ?? [];
          list.push(bytes(data));
          chunks.set(name, list);
        }
        const parts: Record<string, Uint8Array> = {};
        for (const [name, list] of chunks) parts[name] = concat(list);
        return { change: num(head.change), format: String(head.format), parts };
      });
    },

    async writeCheckpoint(namespace, checkpoint): Promise<void> {
      enter(namespace);
      await write();
      try {
        tx(() => {
          putCheckpoint(ensureNs(namespace), checkpoint);
        });
      } catch (e) {
        throw sqlError(label, `write the checkpoint of namespace ${JSON.stringify(namespace)}`, e);
      }
    },

    async dropCheckpoint(namespace): Promise<void> {
      enter(namespace);
      await write();
      try {
        tx(() => {
          const ns = nsId(namespace);
          if (ns !== undefined) clearCheckpoint(ns);
        });
      } catch (e) {
        throw sqlError(label, `drop the checkpoint of namespace ${JSON.stringify(namespace)}`, e);
      }
    },

    async changesSince(namespace, after): Promise<string[] | undefined> {
      enter(namespace);
      return read(`read the change log of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return [];
        const floor = num(q(`SELECT floor FROM ${t.names} WHERE ns = ?`, [ns])[0]?.floor);
        if (after < floor) return undefined;
        return q(`SELECT DISTINCT id FROM ${t.changes} WHERE ns = ? AND change > ?`, [ns, after]).map((r) => String(r.id));
      });
    },

    async namespaces(): Promise<string[]> {
      enter();
      return read('list namespaces', () =>
        q(
          `SELECT name FROM ${t.names} m WHERE EXISTS (SELECT 1 FROM ${t.node} WHERE ns = m.ns) OR EXISTS (SELECT 1 FROM ${t.edge} WHERE ns = m.ns) OR EXISTS (SELECT 1 FROM ${t.kv} WHERE ns = m.ns)`,
        )
          .map((r) => String(r.name))
          .sort(),
      );
    },

    async dropNamespace(namespace): Promise<void> {
      enter(namespace);
      await write();
      try {
        tx(() => {
          const ns = nsId(namespace);
          if (ns === undefined) return;
          for (const table of [t.node, t.edge, t.ids, t.kv, t.changes, t.checkpoint, t.part, t.names]) q(`DELETE FROM ${table} WHERE ns = ?`, [ns]);
          for (const table of lexTables(ns)) q(`DROP TABLE ${table.name}`);
          lexChecked.delete(ns);
        });
        damage.drop(namespace);
      } catch (e) {
        throw sqlError(label, `drop namespace ${JSON.stringify(namespace)}`, e);
      }
    },

    async sizeBytes(namespace): Promise<number | undefined> {
      enter(namespace);
      // A damaged page under the namespace's rows: the size is unknown (the damage is reported by `damaged`).
      return readUnlessCorrupt(`measure namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return 0;
        const one = (sql: string): number => num(q(sql, [ns])[0]?.n);
        return (
          one(`SELECT COALESCE(SUM(length(CAST(body AS BLOB)) + COALESCE(length(vec), 0)), 0) AS n FROM ${t.node} WHERE ns = ?`) +
          one(`SELECT COALESCE(SUM(length(CAST(i.id AS BLOB))), 0) AS n FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.ns = ?`) +
          one(`SELECT COALESCE(SUM(length(CAST(eid AS BLOB)) + ${EDGE_FIXED_BYTES}), 0) AS n FROM ${t.edge} WHERE ns = ?`) +
          one(`SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))), 0) AS n FROM ${t.kv} WHERE ns = ?`)
        );
      });
    },

    async damaged(namespace): Promise<DamageReport> {
      enter(namespace);
      if (!damage.verified(namespace)) {
        for await (const _ of adapter.scanNodes!(namespace, 500)) {
          // scanNodes checks every row and logs the damaged ones
        }
        await adapter.readCheckpoint!(namespace).catch((e: unknown) => {
          if (!isJevMemError(e, 'STORE_DAMAGED')) throw e;
        });
        damage.markVerified(namespace);
      }
      return damage.report(namespace);
    },

    lexicalIndex: (namespace) => (fts ? storeLexicalIndex(namespace) : undefined),

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await options.onClose?.();
    },
  };

  /** The namespace's FTS table, built when missing; undefined for a namespace the store does not know. */
  const lexicalTable = (namespace: string): { ns: number; table: string } | undefined => {
    enter(namespace);
    const ns = read(`read namespace ${JSON.stringify(namespace)}`, () => nsId(namespace));
    if (ns === undefined) return undefined;
    if (!lexChecked.has(ns)) {
      // Read first: a namespace whose FTS table is already the current one needs no write
      // transaction (a reader never takes the write lock, and a damaged page elsewhere in the
      // file does not stop the search).
      const tables = read(`read namespace ${JSON.stringify(namespace)}`, () => lexTables(ns));
      if (fts && tables.length === 1 && tables[0]?.current === true) lexChecked.add(ns);
    }
    if (!lexChecked.has(ns)) {
      try {
        tx(() => checkLexical(ns));
      } catch (e) {
        throw sqlError(label, `build the lexical index of namespace ${JSON.stringify(namespace)}`, e);
      }
    }
    return { ns, table: ftsTableName(prefix, ns) };
  };
  const storeLexicalIndex = (namespace: string): LexicalIndex => ({
    add(): void {
      // the store's commits maintain the index
    },
    remove(): void {
      // the store's commits maintain the index
    },
    has(id: string): boolean {
      const at = lexicalTable(namespace);
      if (at === undefined) return false;
      return read(`read the lexical index of namespace ${JSON.stringify(namespace)}`, () => {
        const slot = slotOf(at.ns, id);
        return slot !== undefined && q(`SELECT rowid FROM ${at.table} WHERE rowid = ?`, [slot]).length > 0;
      });
    },
    get size(): number {
      const at = lexicalTable(namespace);
      if (at === undefined) return 0;
      return read(`read the lexical index of namespace ${JSON.stringify(namespace)}`, () => num(q(`SELECT COUNT(*) AS n FROM ${at.table}`)[0]?.n));
    },
    search(query: string, k: number, language?: string): IndexHit[] {
      if (!Number.isInteger(k) || k < 0) throw invalidInput('k', `expected a non-negative integer, got ${k}`);
      if (k === 0 || typeof query !== 'string' || query.trim().length === 0) return [];
      const at = lexicalTable(namespace);
      if (at === undefined) return [];
      return read(`search the lexical index of namespace ${JSON.stringify(namespace)}`, () => {
        const hits = ftsSearch(q, at.table, query, k, language as LanguageCode | undefined);
        const ids = idsOf(hits.map((h) => h.slot));
        return hits.flatMap((h) => {
          const id = ids.get(h.slot);
          return id === undefined ? [] : [{ id, score: h.score }];
        });
      });
    },
    toJSON(): unknown {
      return { format: FTS_LEXICAL_FORMAT, namespace };
    },
  });
  return adapter;
}

