/**
 * The namespace-wide answers of the SQL store (`sql-storage.ts`): the list of namespaces, a
 * namespace's counts, its estimated size, its change log since a change, and the removal of a
 * whole namespace (its rows, checkpoint, log, name and FTS tables, in one transaction).
 *
 * @module
 */
import type { View } from '../../types.js';
import { num } from './sql-codec.js';
import { sqlError } from './sql-errors.js';
import type { SqlIds } from './sql-ids.js';
import type { SqlSession } from './sql-session.js';
import { readStat, recount } from './sql-stats.js';
import type { SqlStoreLexical } from './sql-store-lexical.js';
import type { NamespaceCounts, StorageAdapter } from './storage.js';

export { EDGE_FIXED_BYTES } from './sql-stats.js';

/** The namespace-wide methods of the adapter. */
export type SqlNamespaceMethods = Pick<StorageAdapter, 'namespaces' | 'counts' | 'sizeBytes' | 'changesSince' | 'dropNamespace'>;

/** The namespace-wide methods over session `s` (see the module header). */
export function sqlNamespaces(s: SqlSession, ids: SqlIds, lexical: SqlStoreLexical): SqlNamespaceMethods {
  const { q, t } = s;
  const { nsId } = ids;
  return {
    async counts(namespace): Promise<NamespaceCounts> {
      s.enter(namespace);
      return s.read(`count namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return { nodes: 0, edges: 0, edgesByView: {} };
        // The kept counts (issue 25): O(1). A namespace without its row (none after the
        // migration to v4) is counted in full.
        const stat = readStat(q, t, ns) ?? recount(q, t, ns);
        return { nodes: stat.nodes, edges: stat.edges, edgesByView: { ...stat.views } as Partial<Record<View, number>> };
      });
    },

    async changesSince(namespace, after): Promise<string[] | undefined> {
      s.enter(namespace);
      return s.read(`read the change log of namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return [];
        const floor = num(q(`SELECT floor FROM ${t.names} WHERE ns = ?`, [ns])[0]?.floor);
        if (after < floor) return undefined;
        return q(`SELECT DISTINCT id FROM ${t.changes} WHERE ns = ? AND change > ?`, [ns, after]).map((r) => String(r.id));
      });
    },

    async namespaces(): Promise<string[]> {
      s.enter();
      return s.read('list namespaces', () =>
        q(
          `SELECT name FROM ${t.names} m WHERE EXISTS (SELECT 1 FROM ${t.node} WHERE ns = m.ns) OR EXISTS (SELECT 1 FROM ${t.edge} WHERE ns = m.ns) OR EXISTS (SELECT 1 FROM ${t.kv} WHERE ns = m.ns)`,
        )
          .map((r) => String(r.name))
          .sort(),
      );
    },

    async dropNamespace(namespace): Promise<void> {
      s.enter(namespace);
      await s.write();
      try {
        s.tx(() => {
          const ns = nsId(namespace);
          if (ns === undefined) return;
          for (const table of [t.node, t.edge, t.ids, t.kv, t.changes, t.checkpoint, t.part, t.stat, t.names]) q(`DELETE FROM ${table} WHERE ns = ?`, [ns]);
          for (const table of lexical.lexTables(ns)) q(`DROP TABLE ${table.name}`);
          s.lexChecked.delete(ns);
        });
        s.damage.drop(namespace);
      } catch (e) {
        throw sqlError(s.label, `drop namespace ${JSON.stringify(namespace)}`, e);
      }
    },

    async sizeBytes(namespace): Promise<number | undefined> {
      s.enter(namespace);
      // A damaged page under the namespace's rows: the size is unknown (the damage is reported by `damaged`).
      return s.readUnlessCorrupt(`measure namespace ${JSON.stringify(namespace)}`, () => {
        const ns = nsId(namespace);
        if (ns === undefined) return 0;
        // The kept counts (issue 25): O(1).
        return (readStat(q, t, ns) ?? recount(q, t, ns)).bytes;
      });
    },
  };
}
