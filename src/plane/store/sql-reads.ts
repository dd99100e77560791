/**
 * The record reads of the SQL store (`sql-storage.ts`): a whole namespace (`load`), its meta,
 * nodes by id, the edges of nodes from either end, and node and edge scans in batches. Every one
 * is answered by index lookups but `load`, reads under one read lock where the driver has one,
 * and keeps damage local: a damaged node row is skipped and named in the damage log
 * (`sql-row-reads.ts`).
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { emptyNamespaceState, toSnapshot } from './memory-storage.js';
import { num, subtypeCode } from './sql-codec.js';
import { isCorruptError } from './sql-errors.js';
import type { SqlIds } from './sql-ids.js';
import { EDGE_COLUMNS, EDGE_COLUMNS_E, type SqlRowReads } from './sql-row-reads.js';
import { MAX_BINDINGS, type SqlParam, type SqlRow, chunked, placeholders } from './sql-schema.js';
import type { SqlSession } from './sql-session.js';
import type { NamespaceSnapshot, StorageAdapter } from './storage.js';

/** The record reads of the adapter. */
export type SqlReadMethods = Pick<StorageAdapter, 'load' | 'loadMeta' | 'getNodes' | 'getEdges' | 'scanNodes' | 'scanEdges'>;

/** The record reads over session `s` (see the module header). */
export function sqlReads(s: SqlSession, ids: SqlIds, rows: SqlRowReads): SqlReadMethods {
  const { q, t, prefix } = s;
  const { nsId } = ids;
  return {
    async load(namespace): Promise<NamespaceSnapshot> {
      s.enter(namespace);
      const state = emptyNamespaceState();
      s.read(`load namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return;
        const found = rows.nodeRowsOr(
          namespace,
          () => q(`SELECT i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.ns = ?`, [ns]),
          () => q(`SELECT slot, id FROM ${t.ids} WHERE ns = ?`, [ns]).map((r) => [num(r.slot), String(r.id)] as [number, string]),
        );
        const nodes = rows.nodesOfRows(namespace, found);
        for (const n of nodes) state.nodes.set(n.id, n);
        for (const e of rows.edgesOfRows(namespace, q(`SELECT ${EDGE_COLUMNS} FROM ${t.edge} WHERE ns = ?`, [ns]))) state.edges.set(e.id, e);
        for (const r of q(`SELECT key, value FROM ${t.kv} WHERE ns = ?`, [ns])) state.meta.set(String(r.key), JSON.parse(String(r.value)) as unknown);
      });
      return toSnapshot(state);
    },

    async loadMeta(namespace): Promise<Record<string, unknown>> {
      s.enter(namespace);
      return s.read(`load the meta of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        const meta: Record<string, unknown> = {};
        if (ns === undefined) return meta;
        const pairs = q(`SELECT key, value FROM ${t.kv} WHERE ns = ?`, [ns]).map((r) => [String(r.key), String(r.value)] as const);
        pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        for (const [k, v] of pairs) meta[k] = JSON.parse(v) as unknown;
        return meta;
      });
    },

    async getNodes(namespace, wanted): Promise<MemoryNode[]> {
      s.enter(namespace);
      if (wanted.length === 0) return [];
      return s.read(`read nodes of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return [];
        const found = new Map<string, MemoryNode>();
        for (const part of chunked([...new Set(wanted)], MAX_BINDINGS)) {
          const got = rows.nodeRowsOr(
            namespace,
            () => q(`SELECT i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.ids} i JOIN ${t.node} n ON n.slot = i.slot WHERE i.ns = ? AND i.id IN (${placeholders(part.length)})`, [ns, ...part]),
            () => [...ids.slotsOf(ns, part)].map(([id, slot]) => [slot, id] as [number, string]),
          );
          for (const n of rows.nodesOfRows(namespace, got)) found.set(n.id, n);
        }
        const out: MemoryNode[] = [];
        for (const id of wanted) {
          const n = found.get(id);
          if (n !== undefined) out.push(out.includes(n) ? structuredClone(n) : n);
        }
        return out;
      });
    },

    async getEdges(namespace, nodeIds, filter): Promise<MemoryEdge[]> {
      s.enter(namespace);
      if (nodeIds.length === 0) return [];
      // The subtype is a column of the primary key, so `edge_dst` covers it too: rows of other
      // subtypes are skipped inside the index searches, before any row is built.
      const only = filter?.subtype === undefined ? '' : ' AND e.subtype = ?';
      const onlyParam: SqlParam[] = filter?.subtype === undefined ? [] : [subtypeCode(filter.subtype)];
      return s.read(`read edges of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return [];
        const idOfSlot = new Map<number, string>();
        for (const [id, slot] of ids.slotsOf(ns, nodeIds)) idOfSlot.set(slot, id);
        const slots = [...idOfSlot.keys()];
        const out: MemoryEdge[] = [];
        // On a damaged page, the slots are asked one at a time and those whose edges lie on it
        // are left without edges: damage costs the damaged rows only (issue 22).
        const edgeRows = (part: number[], run: (part: number[]) => SqlRow[]): SqlRow[] => {
          try {
            return run(part);
          } catch (e) {
            if (!isCorruptError(e)) throw e;
            return part.flatMap((slot) => {
              try {
                return run([slot]);
              } catch (e1) {
                if (!isCorruptError(e1)) throw e1;
                return [];
              }
            });
          }
        };
        // Two index searches instead of one UNION (which SQLite plans as a merge that scans the
        // namespace's edges for the dst side): the edges leaving the asked nodes by the primary
        // key, then those entering them by `edge_dst`, skipping the ones the first search gave
        // (their src is an asked node). The other end's id comes with the row (one rowid lookup).
        for (const part of chunked(slots, MAX_BINDINGS - 2)) {
          for (const r of edgeRows(part, (p) => q(`SELECT ${EDGE_COLUMNS_E}, i.id AS other FROM ${t.edge} e LEFT JOIN ${t.ids} i ON i.slot = e.dst WHERE e.ns = ? AND e.src IN (${placeholders(p.length)})${only}`, [ns, ...p, ...onlyParam]))) {
            const e = rows.edgeOfRow(namespace, r, idOfSlot.get(num(r.src)), r.other);
            if (e !== undefined) out.push(e);
          }
        }
        for (const part of chunked(slots, MAX_BINDINGS - 2)) {
          for (const r of edgeRows(part, (p) => q(`SELECT ${EDGE_COLUMNS_E}, i.id AS other FROM ${t.edge} e INDEXED BY ${prefix}edge_dst LEFT JOIN ${t.ids} i ON i.slot = e.src WHERE e.dst IN (${placeholders(p.length)}) AND e.ns = ?${only}`, [...p, ns, ...onlyParam]))) {
            if (idOfSlot.has(num(r.src))) continue;
            const e = rows.edgeOfRow(namespace, r, r.other, idOfSlot.get(num(r.dst)));
            if (e !== undefined) out.push(e);
          }
        }
        return out;
      });
    },

    async *scanNodes(namespace, batchSize): AsyncIterable<MemoryNode[]> {
      s.enter(namespace);
      const size = Math.max(1, Math.floor(batchSize));
      let after = -1;
      for (;;) {
        s.live();
        const batch = s.read(`scan nodes of namespace ${JSON.stringify(namespace)}`, () => {
          const ns = nsId(namespace);
          if (ns === undefined) return { nodes: [], more: false };
          let more = false;
          const found = rows.nodeRowsOr(
            namespace,
            () => {
              const got = q(`SELECT n.slot AS slot, i.id AS id, n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n JOIN ${t.ids} i ON i.slot = n.slot WHERE n.ns = ? AND n.slot > ? ORDER BY n.slot LIMIT ?`, [ns, after, size]);
              more = got.length === size;
              if (got.length > 0) after = num(got[got.length - 1]?.slot);
              return got;
            },
            () => {
              // A damaged page: walk the id rows (another b-tree) and read each node row alone.
              const pairs = q(`SELECT slot, id FROM ${t.ids} WHERE ns = ? AND slot > ? ORDER BY slot LIMIT ?`, [ns, after, size]);
              more = pairs.length === size;
              if (pairs.length > 0) after = num(pairs[pairs.length - 1]?.slot);
              return pairs.map((r) => [num(r.slot), String(r.id)] as [number, string]);
            },
          );
          return { nodes: rows.nodesOfRows(namespace, found), more };
        });
        if (batch.nodes.length > 0) yield batch.nodes;
        if (!batch.more) return;
      }
    },

    async *scanEdges(namespace, batchSize): AsyncIterable<MemoryEdge[]> {
      s.enter(namespace);
      const size = Math.max(1, Math.floor(batchSize));
      let after: SqlParam[] | undefined;
      for (;;) {
        s.live();
        const batch = s.read(`scan edges of namespace ${JSON.stringify(namespace)}`, () => {
          const ns = nsId(namespace);
          if (ns === undefined) return [];
          const found =
            after === undefined
              ? q(`SELECT ${EDGE_COLUMNS} FROM ${t.edge} WHERE ns = ? ORDER BY ns, src, dst, view, subtype, eid LIMIT ?`, [ns, size])
              : q(`SELECT ${EDGE_COLUMNS} FROM ${t.edge} WHERE ns = ? AND (src, dst, view, subtype, eid) > (?, ?, ?, ?, ?) ORDER BY ns, src, dst, view, subtype, eid LIMIT ?`, [ns, ...after, size]);
          const last = found[found.length - 1];
          if (last !== undefined) after = [num(last.src), num(last.dst), last.view as SqlParam, last.subtype as SqlParam, String(last.eid)];
          return rows.edgesOfRows(namespace, found);
        });
        if (batch.length === 0) return;
        yield batch;
        if (batch.length < size) return;
      }
    },
  };
}
