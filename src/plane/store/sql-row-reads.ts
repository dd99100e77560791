/**
 * Rows read back into records in the SQL store (`sql-storage.ts`), with damage kept local
 * (issue 22): node rows are checked against their checksums and decoded, a failing row left out
 * and its id kept in the session's damage log; a query of many node rows that meets a damaged
 * page is retried row by row; edge rows get their ends' ids and origin from the id rows and the
 * dictionary.
 *
 * @module
 */
import type { MemoryEdge, MemoryNode } from '../../types.js';
import { type SqlValue, decodeEdge, decodeNode, num, rowSound } from './sql-codec.js';
import { isCorruptError } from './sql-errors.js';
import type { SqlIds } from './sql-ids.js';
import type { SqlRow } from './sql-schema.js';
import type { SqlSession } from './sql-session.js';
import { soundNodes } from './store-damage.js';

/** The columns of an edge row, as selected from the edge table alone. */
export const EDGE_COLUMNS = 'src, dst, view, subtype, eid, weight, origin, created';

/** The columns of an edge row, as selected from the edge table under the alias `e`. */
export const EDGE_COLUMNS_E = 'e.src AS src, e.dst AS dst, e.view AS view, e.subtype AS subtype, e.eid AS eid, e.weight AS weight, e.origin AS origin, e.created AS created';

/** The row readers of one session (see the module header). */
export interface SqlRowReads {
  /**
   * The nodes of rows (columns id, seq, body, vec, sum), each checked against its checksum and
   * decoded; a row that fails either is left out and its id kept in the damage log.
   */
  nodesOfRows(namespace: string, rows: SqlRow[]): MemoryNode[];
  /**
   * Runs a query of node rows; on a damaged page, reads the rows of the (slot, id) pairs of
   * `pairs()` one at a time instead: a row on a damaged page is left out and its id kept in the
   * damage log.
   */
  nodeRowsOr(namespace: string, run: () => SqlRow[], pairs: () => Iterable<[number, string]>): SqlRow[];
  /**
   * The edges of rows ({@link EDGE_COLUMNS}), their ends' ids looked up; an edge with an end
   * without an id row (its node's id is lost to damage, so the node cannot be read either) is
   * left out, so that damage costs the damaged node only (issue 22).
   */
  edgesOfRows(namespace: string, rows: SqlRow[]): MemoryEdge[];
  /** The edge of a row whose end ids are known; undefined for an end without an id row (a damaged store). */
  edgeOfRow(namespace: string, row: SqlRow, from: SqlValue | undefined, to: SqlValue | undefined): MemoryEdge | undefined;
}

/** The row readers over session `s`. */
export function createSqlRowReads(s: SqlSession, ids: SqlIds): SqlRowReads {
  const { q, t, damage } = s;
  const NODE_COLUMNS_BY_SLOT = `SELECT n.seq AS seq, n.body AS body, n.vec AS vec, n.sum AS sum FROM ${t.node} n WHERE n.slot = ?`;
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
  const edgeOfRow = (namespace: string, row: SqlRow, from: SqlValue | undefined, to: SqlValue | undefined): MemoryEdge | undefined => {
    if (typeof from !== 'string' || typeof to !== 'string') return undefined;
    return decodeEdge(namespace, from, to, { eid: row.eid ?? null, view: row.view ?? null, subtype: row.subtype ?? null, weight: row.weight ?? null, created: row.created ?? null }, ids.lookup(num(row.origin)));
  };
  return {
    nodesOfRows(namespace, rows) {
      return soundNodes(damage, namespace, rows, {
        id: (r) => String(r.id),
        sound: rowSound,
        decode: (r) => decodeNode(namespace, String(r.id), r.seq ?? null, r.body ?? null, r.vec ?? null),
      });
    },
    nodeRowsOr(namespace, run, pairs) {
      try {
        return run();
      } catch (e) {
        if (!isCorruptError(e)) throw e;
        return rowsOneByOne(namespace, pairs());
      }
    },
    edgesOfRows(namespace, rows) {
      const known = ids.idsOf(rows.flatMap((r) => [num(r.src), num(r.dst)]));
      return rows.flatMap((r) => edgeOfRow(namespace, r, known.get(num(r.src)), known.get(num(r.dst))) ?? []);
    },
    edgeOfRow,
  };
}
