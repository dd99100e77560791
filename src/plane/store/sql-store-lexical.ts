/**
 * The store-kept lexical index of the SQL store (`sql-storage.ts`) under the `'fts5'` engine:
 * one FTS5 table per namespace (`indexes/sql-lexical.ts`), built from the node rows when missing
 * (or dropped under `'minisearch'`), kept in step by every commit, rebuilt from the sound rows
 * when a damaged row leaves its indexed terms unknown, and offered to the memory as a
 * {@link LexicalIndex} whose searches answer node ids.
 *
 * @module
 */
import { invalidInput } from '../../errors.js';
import type { MemoryNode } from '../../types.js';
import type { IndexHit, LexicalIndex } from '../indexes/indexes.js';
import { FTS_LEXICAL_FORMAT, type FtsDoc, createFtsTable, ftsDelete, ftsInsert, ftsSearch, ftsTableName, ftsTablePattern } from '../indexes/sql-lexical.js';
import type { LanguageCode } from '../text/language.js';
import { type SqlValue, decodeNode, num, rowSound } from './sql-codec.js';
import { sqlError } from './sql-errors.js';
import type { SqlIds } from './sql-ids.js';
import type { SqlSession } from './sql-session.js';

/** The lexical index upkeep of one session (see the module header). */
export interface SqlStoreLexical {
  /** FTS tables of namespace `ns` of any version (`current`: the one this build writes). */
  lexTables(ns: number): Array<{ name: string; current: boolean }>;
  /**
   * Inside a transaction, once per namespace per session: under 'fts5', builds the namespace's
   * FTS table from its nodes when missing (dropping other versions); under 'minisearch', drops it.
   */
  checkLexical(ns: number): void;
  /**
   * Under 'fts5': removes `slot` from the FTS table when its stored node is indexed (call before
   * the node row changes). Returns true when the row was damaged (nothing removed: rebuild).
   */
  unindex(ns: number, slot: number): boolean;
  /**
   * Writes a node row through `put`, keeping the FTS table in step (under 'fts5', unless
   * `rebuild`: the table is rebuilt at the end of the transaction anyway). Returns true when the
   * table must be rebuilt: `rebuild` was, or the row replaced was damaged.
   */
  putIndexed(ns: number, node: MemoryNode, rebuild: boolean, put: () => void): boolean;
  /** Inside a transaction: drops the namespace's FTS table and builds it again from its sound rows. */
  rebuildLexical(ns: number): void;
  /** The store-kept lexical index of `namespace` (its FTS table checked or built at first use). */
  lexicalIndex(namespace: string): LexicalIndex;
}

/** The lexical index upkeep over session `s`. */
export function createSqlStoreLexical(s: SqlSession, ids: SqlIds): SqlStoreLexical {
  const { q, t, prefix, fts, lexChecked } = s;
  /** What the FTS table holds for a stored node body: its text and speaker, or undefined when not indexed (deleted). */
  const ftsDocOf = (body: SqlValue | undefined): FtsDoc | undefined => {
    if (body === undefined || body === null) return undefined;
    const n = decodeNode('', '', 0, body, null);
    return n.status === 'deleted' ? undefined : { text: n.text, speaker: n.provenance?.speaker };
  };
  const lexTables = (ns: number): Array<{ name: string; current: boolean }> => {
    const pattern = ftsTablePattern(prefix);
    const want = ftsTableName(prefix, ns);
    return q(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, [`${prefix}fts%`])
      .map((r) => String(r.name))
      .filter((name) => pattern.exec(name)?.[2] === String(ns))
      .map((name) => ({ name, current: name === want }));
  };
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
   * under are then unknown, and the namespace's FTS table must be rebuilt.
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
  /** The namespace's FTS table, built when missing; undefined for a namespace the store does not know. */
  const lexicalTable = (namespace: string): { ns: number; table: string } | undefined => {
    s.enter(namespace);
    const ns = s.read(`read namespace ${JSON.stringify(namespace)}`, () => ids.nsId(namespace));
    if (ns === undefined) return undefined;
    if (!lexChecked.has(ns)) {
      // Read first: a namespace whose FTS table is already the current one needs no write
      // transaction (a reader never takes the write lock, and a damaged page elsewhere in the
      // file does not stop the search).
      const tables = s.read(`read namespace ${JSON.stringify(namespace)}`, () => lexTables(ns));
      if (fts && tables.length === 1 && tables[0]?.current === true) lexChecked.add(ns);
    }
    if (!lexChecked.has(ns)) {
      try {
        s.tx(() => checkLexical(ns));
      } catch (e) {
        throw sqlError(s.label, `build the lexical index of namespace ${JSON.stringify(namespace)}`, e);
      }
    }
    return { ns, table: ftsTableName(prefix, ns) };
  };
  return {
    lexTables,
    checkLexical,
    unindex(ns, slot) {
      if (!fts) return false;
      const doc = storedDoc(slot);
      if (doc === 'damaged') return true;
      if (doc !== undefined) ftsDelete(q, ftsTableName(prefix, ns), slot, doc);
      return false;
    },
    putIndexed(ns, node, rebuild, put) {
      const before = ids.slotOf(ns, node.id);
      const stored = before === undefined || !fts || rebuild ? undefined : storedDoc(before);
      const damaged = stored === 'damaged';
      const old = damaged ? undefined : stored;
      put();
      if (!fts || rebuild || damaged) return rebuild || damaged;
      const doc: FtsDoc | undefined = node.status === 'deleted' ? undefined : { text: node.text, speaker: node.provenance?.speaker };
      // A re-put with the same text and speaker (status, duplicates, links) leaves the index as it is.
      if (old !== undefined && doc !== undefined && old.text === doc.text && (old.speaker || '') === (doc.speaker || '')) return false;
      const table = ftsTableName(prefix, ns);
      const slot = before ?? (ids.slotOf(ns, node.id) as number);
      if (old !== undefined) ftsDelete(q, table, slot, old);
      if (doc !== undefined) ftsInsert(q, table, slot, doc);
      return false;
    },
    rebuildLexical(ns) {
      for (const table of lexTables(ns)) q(`DROP TABLE ${table.name}`);
      lexChecked.delete(ns);
      checkLexical(ns);
    },
    lexicalIndex: (namespace) => ({
      add(): void {
        // the store's commits maintain the index
      },
      remove(): void {
        // the store's commits maintain the index
      },
      has(id: string): boolean {
        const at = lexicalTable(namespace);
        if (at === undefined) return false;
        return s.read(`read the lexical index of namespace ${JSON.stringify(namespace)}`, () => {
          const slot = ids.slotOf(at.ns, id);
          return slot !== undefined && q(`SELECT rowid FROM ${at.table} WHERE rowid = ?`, [slot]).length > 0;
        });
      },
      get size(): number {
        const at = lexicalTable(namespace);
        if (at === undefined) return 0;
        return s.read(`read the lexical index of namespace ${JSON.stringify(namespace)}`, () => num(q(`SELECT COUNT(*) AS n FROM ${at.table}`)[0]?.n));
      },
      search(query: string, k: number, language?: string): IndexHit[] {
        if (!Number.isInteger(k) || k < 0) throw invalidInput('k', `expected a non-negative integer, got ${k}`);
        if (k === 0 || typeof query !== 'string' || query.trim().length === 0) return [];
        const at = lexicalTable(namespace);
        if (at === undefined) return [];
        return s.read(`search the lexical index of namespace ${JSON.stringify(namespace)}`, () => {
          const hits = ftsSearch(q, at.table, query, k, language as LanguageCode | undefined);
          const found = ids.idsOf(hits.map((h) => h.slot));
          return hits.flatMap((h) => {
            const id = found.get(h.slot);
            return id === undefined ? [] : [{ id, score: h.score }];
          });
        });
      },
      toJSON(): unknown {
        return { format: FTS_LEXICAL_FORMAT, namespace };
      },
    }),
  };
}
