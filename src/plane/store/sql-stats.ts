/**
 * The kept counts of the SQL store (schema v4, issue 25; `sql-storage.ts`): one row per
 * namespace in `p stat(ns PK, nodes, edges, views, bytes)` holding what `counts` and
 * `sizeBytes` answer (node rows, edge rows, edges per view as JSON `{view: n}`, and the bytes
 * `sizeBytes` estimates), so that `stats()` costs O(1) instead of a pass over the namespace.
 *
 * Every commit keeps the row exact in its own transaction without knowing how each statement
 * changed it: it measures the rows the batch can touch before and after ({@link measureTouched}:
 * the node rows of the ids it deletes or puts, the edge rows leaving the nodes its edges start
 * from, the meta keys it sets) and adds the difference. The migration to v4 counts each
 * namespace once in full ({@link recount}).
 *
 * @module
 */
import { num, viewName } from './sql-codec.js';
import { MAX_BINDINGS, type SqlParam, type SqlRow, type SqlTables, chunked, placeholders } from './sql-schema.js';

/** Bytes counted by `sizeBytes` per edge for its integer and real columns (slots, codes, weight, time). */
export const EDGE_FIXED_BYTES = 24;

/** Runs one statement (the session's `q`, or a driver's `query`). */
export type Query = (sql: string, params?: readonly SqlParam[]) => SqlRow[];

/** The kept counts of one namespace. */
export interface SqlStat {
  /** Node rows. */
  nodes: number;
  /** Edge rows. */
  edges: number;
  /** Edge rows per view name (views with none left out). */
  views: Record<string, number>;
  /** The estimate `sizeBytes` answers (see `sql-storage.ts`). */
  bytes: number;
}

/** A stat of nothing. */
export function emptyStat(): SqlStat {
  return { nodes: 0, edges: 0, views: {}, bytes: 0 };
}

/** SQL of the bytes of node rows `n` joined with their ids `i` (as `sizeBytes` counts them). */
const NODE_BYTES = 'length(CAST(n.body AS BLOB)) + COALESCE(length(n.vec), 0) + length(CAST(i.id AS BLOB))';
/** SQL of the bytes of edge rows (as `sizeBytes` counts them). */
const EDGE_BYTES = `length(CAST(eid AS BLOB)) + ${EDGE_FIXED_BYTES}`;
/** SQL of the bytes of meta rows. */
const KV_BYTES = 'length(CAST(key AS BLOB)) + length(CAST(value AS BLOB))';

function addEdgeRows(out: SqlStat, rows: SqlRow[]): void {
  for (const r of rows) {
    const n = num(r.n);
    out.edges += n;
    const view = viewName(r.view ?? null);
    out.views[view] = (out.views[view] ?? 0) + n;
    out.bytes += num(r.b);
  }
}

/** The counts of namespace `ns` by a full pass over its rows (O(namespace): the migration only). */
export function recount(q: Query, t: SqlTables, ns: number): SqlStat {
  const out = emptyStat();
  const nodes = q(`SELECT COUNT(*) AS n, COALESCE(SUM(${NODE_BYTES}), 0) AS b FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.ns = ?`, [ns])[0];
  // A node row without its id row counts as a node (as `COUNT(*)` of the node table did).
  out.nodes = num(q(`SELECT COUNT(*) AS n FROM ${t.node} WHERE ns = ?`, [ns])[0]?.n);
  out.bytes += num(nodes?.b);
  addEdgeRows(out, q(`SELECT view, COUNT(*) AS n, COALESCE(SUM(${EDGE_BYTES}), 0) AS b FROM ${t.edge} WHERE ns = ? GROUP BY view`, [ns]));
  out.bytes += num(q(`SELECT COALESCE(SUM(${KV_BYTES}), 0) AS b FROM ${t.kv} WHERE ns = ?`, [ns])[0]?.b);
  return out;
}

/**
 * The counts of the rows one batch can touch: node rows of `slots`, edge rows of namespace `ns`
 * leaving `srcSlots`, meta rows of `keys`. O(batch and the edges of its nodes).
 */
export function measureTouched(q: Query, t: SqlTables, ns: number, slots: Iterable<number>, srcSlots: Iterable<number>, keys: readonly string[]): SqlStat {
  const out = emptyStat();
  for (const part of chunked([...new Set(slots)], MAX_BINDINGS)) {
    const r = q(`SELECT COUNT(*) AS n, COALESCE(SUM(${NODE_BYTES}), 0) AS b FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.slot IN (${placeholders(part.length)})`, part)[0];
    out.nodes += num(r?.n);
    out.bytes += num(r?.b);
  }
  for (const part of chunked([...new Set(srcSlots)], MAX_BINDINGS - 1)) {
    addEdgeRows(out, q(`SELECT view, COUNT(*) AS n, COALESCE(SUM(${EDGE_BYTES}), 0) AS b FROM ${t.edge} WHERE ns = ? AND src IN (${placeholders(part.length)}) GROUP BY view`, [ns, ...part]));
  }
  for (const part of chunked([...new Set(keys)], MAX_BINDINGS - 1)) {
    out.bytes += num(q(`SELECT COALESCE(SUM(${KV_BYTES}), 0) AS b FROM ${t.kv} WHERE ns = ? AND key IN (${placeholders(part.length)})`, [ns, ...part])[0]?.b);
  }
  return out;
}

/** `base` plus `after` minus `before` (views that reach 0 are left out). */
export function applyDelta(base: SqlStat, before: SqlStat, after: SqlStat): SqlStat {
  const views: Record<string, number> = { ...base.views };
  for (const v of new Set([...Object.keys(before.views), ...Object.keys(after.views)])) {
    const n = (views[v] ?? 0) + (after.views[v] ?? 0) - (before.views[v] ?? 0);
    if (n === 0) delete views[v];
    else views[v] = n;
  }
  return { nodes: base.nodes + after.nodes - before.nodes, edges: base.edges + after.edges - before.edges, views, bytes: base.bytes + after.bytes - before.bytes };
}

/** The kept row of namespace `ns`, or undefined when it has none. */
export function readStat(q: Query, t: SqlTables, ns: number): SqlStat | undefined {
  const r = q(`SELECT nodes, edges, views, bytes FROM ${t.stat} WHERE ns = ?`, [ns])[0];
  if (r === undefined) return undefined;
  const views = JSON.parse(String(r.views)) as Record<string, number>;
  return { nodes: num(r.nodes), edges: num(r.edges), views, bytes: num(r.bytes) };
}

/** Writes the kept row of namespace `ns`. */
export function writeStat(q: Query, t: SqlTables, ns: number, stat: SqlStat): void {
  q(`INSERT OR REPLACE INTO ${t.stat} (ns, nodes, edges, views, bytes) VALUES (?, ?, ?, ?, ?)`, [ns, stat.nodes, stat.edges, JSON.stringify(stat.views), stat.bytes]);
}

/** Counts every namespace of the store in full and keeps the rows (the migration to v4). */
export function recountAll(q: Query, t: SqlTables): void {
  for (const r of q(`SELECT ns FROM ${t.names}`)) {
    const ns = num(r.ns);
    writeStat(q, t, ns, recount(q, t, ns));
  }
}
