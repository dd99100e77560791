/**
 * The row writes of the SQL store (`sql-storage.ts`), each inside the caller's transaction: a
 * node row with its checksum, an edge row (its ends' slots made and its origin interned), the
 * removal of an edge by id (explicit or canonical), a meta key, and the collection of slots no
 * row uses any more. Also the writer of whole records that the migration from schema v1 calls.
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { nodeRowSum } from './checksum.js';
import { type EdgeRow, type NodeRow, canonicalSplits, encodeEdges, encodeMeta, encodeNodes, num, subtypeCode, viewCode } from './sql-codec.js';
import type { SqlIds } from './sql-ids.js';
import type { SqlSession, WriteRecords } from './sql-session.js';

/** The row writes of one session (see the module header). */
export interface SqlRows {
  /**
   * Removes the edge(s) with this id; returns the end slots they used. `put` is the edge about
   * to be written with this id: when its row is canonical, the canonical row of its own ends is
   * left for the `INSERT OR REPLACE` that follows (same key, same ends).
   */
  deleteEdgeById(ns: number, id: string, put?: { edge: MemoryEdge; row: EdgeRow }): number[];
  /** Drops id rows that no node and no edge uses any more (and empties the transaction's slot cache). */
  collectSlots(ns: number, slots: Iterable<number>): void;
  /** Writes (or replaces) the row of `node` with its checksum. */
  putNodeRow(ns: number, node: MemoryNode, row: NodeRow): void;
  /** Writes (or replaces) the row of `edge`. */
  putEdgeRow(ns: number, edge: MemoryEdge, row: EdgeRow): void;
  /** Sets meta key `key` to JSON text `value`; `null` removes it. */
  setMeta(ns: number, key: string, value: string | null): void;
  /** Writes whole records (migration from v1): puts only, inside the caller's transaction. */
  writeRecords: WriteRecords;
}

/** The row writes over session `s`. */
export function createSqlRows(s: SqlSession, ids: SqlIds): SqlRows {
  const { q, t, txSlots } = s;
  const { slotOf, ensureSlot } = ids;
  const rows: SqlRows = {
    deleteEdgeById(ns, id, put) {
      const freed: number[] = [];
      const explicit = q(`SELECT src, dst FROM ${t.edge} WHERE ns = ? AND eid = ? AND eid <> ''`, [ns, id]);
      if (explicit.length > 0) {
        for (const r of explicit) freed.push(num(r.src), num(r.dst));
        q(`DELETE FROM ${t.edge} WHERE ns = ? AND eid = ? AND eid <> ''`, [ns, id]);
      }
      for (const split of canonicalSplits(id)) {
        if (put !== undefined && put.row.eid === '' && split.from === put.edge.from && split.to === put.edge.to) continue;
        const src = slotOf(ns, split.from);
        const dst = src === undefined ? undefined : slotOf(ns, split.to);
        if (src === undefined || dst === undefined) continue;
        const key = [ns, src, dst, viewCode(split.view), subtypeCode(split.subtype)];
        if (q(`SELECT 1 AS x FROM ${t.edge} WHERE ns = ? AND src = ? AND dst = ? AND view = ? AND subtype = ? AND eid = ''`, key).length === 0) continue;
        q(`DELETE FROM ${t.edge} WHERE ns = ? AND src = ? AND dst = ? AND view = ? AND subtype = ? AND eid = ''`, key);
        freed.push(src, dst);
      }
      return freed;
    },
    collectSlots(ns, slots) {
      txSlots.clear();
      for (const slot of new Set(slots)) {
        q(
          `DELETE FROM ${t.ids} WHERE slot = ? AND NOT EXISTS (SELECT 1 FROM ${t.node} WHERE slot = ?) AND NOT EXISTS (SELECT 1 FROM ${t.edge} WHERE ns = ? AND src = ?) AND NOT EXISTS (SELECT 1 FROM ${t.edge} WHERE dst = ?)`,
          [slot, slot, ns, slot, slot],
        );
      }
    },
    putNodeRow(ns, node, row) {
      const slot = ensureSlot(ns, node.id);
      q(`INSERT OR REPLACE INTO ${t.node} (slot, ns, seq, body, vec, sum) VALUES (?, ?, ?, ?, ?, ?)`, [slot, ns, row.seq, row.body, row.vec, nodeRowSum(node.id, row.seq, row.body, row.vec)]);
    },
    putEdgeRow(ns, edge, row) {
      const src = ensureSlot(ns, edge.from);
      const dst = ensureSlot(ns, edge.to);
      q(`INSERT OR REPLACE INTO ${t.edge} (ns, src, dst, view, subtype, eid, weight, origin, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, [
        ns, src, dst, row.view, row.subtype, row.eid, row.weight, ids.intern(row.origin), row.created,
      ]);
    },
    setMeta(ns, key, value) {
      if (value === null) q(`DELETE FROM ${t.kv} WHERE ns = ? AND key = ?`, [ns, key]);
      else q(`INSERT OR REPLACE INTO ${t.kv} (ns, key, value) VALUES (?, ?, ?)`, [ns, key, value]);
    },
    writeRecords(namespace, nodes, edges, meta) {
      const ns = ids.ensureNs(namespace, true);
      const nodeRows = encodeNodes(nodes, 'nodes');
      const edgeRows = encodeEdges(edges, 'edges');
      nodes.forEach((n, i) => rows.putNodeRow(ns, n, nodeRows[i] as NodeRow));
      edges.forEach((e, i) => {
        rows.deleteEdgeById(ns, e.id);
        rows.putEdgeRow(ns, e, edgeRows[i] as EdgeRow);
      });
      for (const [k, v] of encodeMeta(meta)) rows.setMeta(ns, k, v);
    },
  };
  return rows;
}
