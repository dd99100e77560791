/**
 * The FTS5 lexical index the SQL record driver keeps (`record-sql.ts`, issue 13, issue 22): one
 * FTS5 table per namespace (`indexes/sql-lexical.ts`: hashed terms, contentless, secure-delete),
 * named `<p>rec_fts<LEXICAL_VERSION><lang>_<n>` with `n` from table `<p>rec_lex(ns, n)`, whose row ids
 * are the row ids of the namespace's node records. The driver keeps it in step inside the SQL
 * transaction that writes the node records: a node put is indexed with its text and speaker
 * (none when its status is `'deleted'`), the terms of the record it replaces or deletes are
 * removed (recomputed from that stored record); when that record is damaged its terms are
 * unknown, and the table is rebuilt from the sound records at the end of the transaction. A
 * namespace without a table (imported, or written under `lexical: 'none'`) gets one built from
 * its records at its first write or search; under `'none'` a table left is dropped at the first
 * write of its namespace (it would go stale and keep erased terms).
 *
 * Versions and languages (issues 22, 24): a namespace whose table is of another
 * `LEXICAL_VERSION` (a store written by an older build) has no current table, so its first write
 * or search builds one, dropping the old tables of the namespace first (their terms, erased
 * texts' included, do not outlive them). The index handle of a namespace asks for a language
 * (its `language` option): a table of another language is rebuilt at the handle's first use.
 * The first build of any namespace drops every older-version table of the store.
 * The commits keep a table in the language its name holds, so rows are removed with the terms
 * they were inserted with. A rebuild reads every node record of the namespace and analyses its
 * text: ~8.5 s of CPU at 100k LoCoMo turns in Node (`bench/scale/lexical-rebuild.ts`,
 * docs/bench/scale/PROFILE.md, stop 40).
 *
 * @module
 */
import { invalidInput } from '../../errors.js';
import { isCorruptError, unlessCorrupt } from '../store/sql-errors.js';
import type { IndexHit, LexicalIndex } from '../indexes/indexes.js';
import { FTS_LEXICAL_FORMAT, type FtsDoc, FTS_ONE_STATEMENT_TERMS, createFtsTable, ftsDelete, ftsInsert, ftsQueryTokens, ftsRankByTerm, ftsTableLanguage, ftsTableName, ftsTablePattern } from '../indexes/sql-lexical.js';
import { LEXICAL_VERSION } from '../indexes/lexical.js';
import type { LanguageCode } from '../text/language.js';
import { type NodeRecord, nodeRecordSound } from '../store/record-codec.js';
import type { RecordKey, RecordTable } from './record-driver.js';
import { joinChunks, keyOfSql, sqlKey } from './record-sql-codec.js';
import type { SqlClaim } from './sql-connection.js';

type Query = (sql: string, params?: readonly (string | number | Uint8Array | null)[]) => Array<Record<string, unknown>>;

/** What the lexical upkeep needs of the driver. */
export interface SqlLexicalContext {
  prefix: string;
  /** The record table's name. */
  rec: string;
  /** True under `lexical: 'fts5'`. */
  fts: boolean;
  /** The `tbl` code of node records. */
  nodeCode: number;
  /** Decodes the value stored under `key` of namespace `ns` (a damaged one reads as a record that fails its checksum). */
  read(table: RecordTable, blob: Uint8Array, key: RecordKey, ns: string): unknown;
  /** Runs `fn` in one SQL transaction. */
  transaction<T>(fn: () => T): T;
}

/** The hooks of one index handle into its driver. */
export interface SqlLexicalHooks {
  /** @throws JevMemError `CLOSED` after the driver's close. */
  live(): void;
  /** A SQL failure as the error family says it. */
  error(e: unknown): unknown;
  /** The driver's setup, then the database lock for the turn (`SqlConnection.ready`); its claim. */
  ready(mode: 'read' | 'write'): Promise<SqlClaim | void>;
  /** The statements that followed the `ready` that answered `claim` are done (`SqlConnection.settle`). */
  settle(claim: SqlClaim | void): void;
}

/** The FTS document of a stored node record: its text and speaker, or undefined when it is not indexed (deleted, or not a node). */
export function nodeDoc(value: unknown): FtsDoc | undefined {
  const record = value as Partial<NodeRecord> | undefined;
  if (typeof record?.text !== 'string' || record.status === 'deleted') return undefined;
  return { text: record.text, speaker: record.provenance?.speaker };
}

const sameDoc = (a: FtsDoc, b: FtsDoc): boolean => a.text === b.text && (a.speaker || '') === (b.speaker || '');

/** The lexical upkeep of a driver (see the module). */
export function createSqlLexical(q: Query, c: SqlLexicalContext) {
  const lex = `${c.rec}_lex`;
  const tablePrefix = `${c.rec}_`;
  /** Namespaces whose FTS table was found current this session (→ its name), or dropped under 'none'. */
  const known = new Map<string, string | undefined>();
  /** The language each namespace's index handle asks for (`index`); a namespace not in it keeps its table's. */
  const wanted = new Map<string, LanguageCode | undefined>();

  const stored = (ns: string): number | undefined => {
    const row = q(`SELECT n FROM ${lex} WHERE ns = ?`, [sqlKey(ns)])[0];
    return row === undefined ? undefined : Number(row.n);
  };
  /**
   * The current-version table of namespace number `n`, in whatever language, when there is
   * exactly one. Several (a store written by 91c30ab, whose language change kept the old
   * language's table beside the new one, stale since) count as none: the next use rebuilds the
   * namespace's table and drops them all.
   */
  const existing = (n: number): string | undefined => {
    const pattern = new RegExp(`^${tablePrefix}fts${LEXICAL_VERSION}[a-z]*_${n}$`);
    const found = q(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, [`${tablePrefix}fts${LEXICAL_VERSION}%`])
      .map((r) => String(r.name))
      .filter((name) => pattern.test(name));
    return found.length === 1 ? found[0] : undefined;
  };
  const exists = (name: string): boolean => q(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [name]).length > 0;
  /** True when `name` is a current-version table of namespace number `n`. */
  const isTableOf = (name: string, n: number): boolean => new RegExp(`^${tablePrefix}fts${LEXICAL_VERSION}[a-z]*_${n}$`).test(name);
  /** Drops every table of namespace number `n`: any version, any language. */
  const dropAll = (n: number): void => {
    const pattern = new RegExp(`^${tablePrefix}fts\\d+[a-z]*_${n}$`);
    for (const r of q(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, [`${tablePrefix}fts%`])) {
      if (pattern.test(String(r.name))) q(`DROP TABLE ${String(r.name)}`);
    }
  };
  /** The sound node records of `ns` with their row ids. */
  const records = (ns: string): Array<{ id: number; value: unknown }> =>
    q(`SELECT id, k, v FROM ${c.rec} WHERE tbl = ? AND ns = ? AND chunk = 0`, [c.nodeCode, sqlKey(ns)]).map((r) => {
      let blob = r.v as Uint8Array;
      if (blob.byteLength === 1 << 20) {
        const parts = q(`SELECT v FROM ${c.rec} WHERE tbl = ? AND ns = ? AND k = ? ORDER BY chunk`, [c.nodeCode, sqlKey(ns), r.k as Uint8Array]).map((p) => p.v as Uint8Array);
        blob = joinChunks(parts) ?? blob;
      }
      return { id: Number(r.id), value: c.read('node', blob, keyOfSql(r.k), ns) };
    });
  /** Drops the tables of an older `LEXICAL_VERSION`, of every namespace: their terms would outlive an erasure (each namespace's table is rebuilt at its first use). */
  const dropOlder = (): void => {
    const pattern = ftsTablePattern(tablePrefix);
    for (const r of q(`SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE ?`, [`${tablePrefix}fts%`])) {
      const m = pattern.exec(String(r.name));
      if (m !== null && Number(m[1]) !== LEXICAL_VERSION) q(`DROP TABLE ${String(r.name)}`);
    }
  };
  /** Drops the namespace's tables (and every table of an older version) and builds the current one from its sound records; returns its name. */
  const build = (ns: string): string => {
    let n = stored(ns);
    if (n === undefined) {
      n = Number(q(`SELECT COALESCE(MAX(n), 0) + 1 AS n FROM ${lex}`)[0]?.n);
      q(`INSERT INTO ${lex} (ns, n) VALUES (?, ?)`, [sqlKey(ns), n]);
    }
    dropAll(n);
    dropOlder();
    const name = ftsTableName(tablePrefix, n, wanted.get(ns));
    createFtsTable(q as never, name);
    for (const { id, value } of records(ns)) {
      const doc = nodeRecordSound(value as NodeRecord) ? nodeDoc(value) : undefined;
      if (doc !== undefined) ftsInsert(q as never, name, id, doc);
    }
    known.set(ns, name);
    return name;
  };
  /**
   * The table found for `ns` this session, when it is still the namespace's: another connection
   * (a second process, or a second store on the same file) may have dropped it (`forget`) and
   * given its number to another namespace since. One primary-key read of `<p>rec_lex`.
   */
  const current = (ns: string): string | undefined => {
    const cached = known.get(ns);
    if (cached === undefined) return undefined;
    const n = stored(ns);
    if (n !== undefined && isTableOf(cached, n)) return cached;
    known.delete(ns);
    return undefined;
  };
  /**
   * The namespace's current FTS table, built when missing (inside a transaction); with `asked`,
   * also when the table's language is not the one its index handle asks for.
   */
  const ensure = (ns: string, asked = false): string => {
    const cached = current(ns);
    if (cached !== undefined && (!asked || ftsTableLanguage(cached) === wanted.get(ns))) return cached;
    const n = stored(ns);
    const name = n === undefined ? undefined : existing(n);
    if (name !== undefined && (!asked || ftsTableLanguage(name) === wanted.get(ns))) {
      known.set(ns, name);
      return name;
    }
    return build(ns);
  };
  /** Drops the namespace's tables and its `n` (inside a transaction). */
  const drop = (ns: string): void => {
    const n = stored(ns);
    if (n !== undefined) {
      dropAll(n);
      q(`DELETE FROM ${lex} WHERE ns = ?`, [sqlKey(ns)]);
    }
    known.delete(ns);
  };

  return {
    /** Creates the namespace map (inside the setup transaction). */
    createTables(): void {
      q(`CREATE TABLE IF NOT EXISTS ${lex} (ns BLOB PRIMARY KEY, n INTEGER NOT NULL UNIQUE)`);
    },
    /** Forgets what this session found (a failed transaction may have undone it). */
    forget(): void {
      known.clear();
    },
    /** The upkeep of one transaction's node writes, in order, then `finish()`. */
    upkeep() {
      const rebuild = new Set<string>();
      let old: { id: number; doc: FtsDoc | undefined } | undefined;
      return {
        /** Before a put or delete of node `key`: notes the terms indexed for the record there. */
        before(ns: string, key: string | number): void {
          old = undefined;
          if (!c.fts) {
            if (!known.has(ns)) {
              drop(ns);
              known.set(ns, undefined);
            }
            return;
          }
          if (rebuild.has(ns)) return;
          ensure(ns);
          const rows = q(`SELECT id, v FROM ${c.rec} WHERE tbl = ? AND ns = ? AND k = ? ORDER BY chunk`, [c.nodeCode, sqlKey(ns), sqlKey(key)]);
          if (rows.length === 0) return;
          const value = c.read('node', joinChunks(rows.map((r) => r.v as Uint8Array)) as Uint8Array, key, ns);
          if (!nodeRecordSound(value as NodeRecord)) rebuild.add(ns);
          else old = { id: Number(rows[0]?.id), doc: nodeDoc(value) };
        },
        /** After it: indexes `doc` under row `id` (-1 and undefined for a delete). */
        after(ns: string, id: number, doc: FtsDoc | undefined): void {
          if (!c.fts || rebuild.has(ns)) return;
          const table = ensure(ns);
          if (old?.doc !== undefined && doc !== undefined && old.id === id && sameDoc(old.doc, doc)) return;
          if (old?.doc !== undefined) ftsDelete(q as never, table, old.id, old.doc);
          if (doc !== undefined) ftsInsert(q as never, table, id, doc);
        },
        /** After node records of `ns` were deleted by range (`whole`: all of them). */
        cleared(ns: string, whole: boolean): void {
          if (whole) {
            rebuild.delete(ns);
            drop(ns);
          } else if (c.fts) rebuild.add(ns);
        },
        /** Rebuilds the tables whose terms went unknown. */
        finish(): void {
          for (const ns of rebuild) build(ns);
        },
      };
    },
    /** The index handle of `namespace` (contract: `StorageAdapter.lexicalIndex`). */
    index(namespace: string, hooks: SqlLexicalHooks, language?: LanguageCode): LexicalIndex {
      wanted.set(namespace, language);
      /** True when table `name` reads short texts in the language this handle asks for. */
      const fits = (name: string): boolean => ftsTableLanguage(name) === language;
      /** The table, found or (when the namespace has node records) built; undefined when it has none. */
      const table = (): string | undefined => {
        hooks.live();
        try {
          // A table found this session may since have been dropped by another connection's
          // `forget` (`reading` then looks again) or given to another namespace (the reads join
          // the hits to this namespace's records only).
          const cached = known.get(namespace);
          if (cached !== undefined && fits(cached)) return cached;
          if (!exists(lex)) return undefined; // a store with no table yet holds nothing
          const n = stored(namespace);
          const name = n === undefined ? undefined : existing(n);
          if (name !== undefined && fits(name)) {
            known.set(namespace, name);
            return name;
          }
          if (q(`SELECT 1 FROM ${c.rec} WHERE tbl = ? AND ns = ? LIMIT 1`, [c.nodeCode, sqlKey(namespace)]).length === 0) return undefined;
          return c.transaction(() => ensure(namespace, true));
        } catch (e) {
          known.delete(namespace);
          throw hooks.error(e);
        }
      };
      /**
       * The claims of the handle's `ready` calls not yet settled: the synchronous read that
       * follows settles them (issue 22, h-lock), so the lease they hold ends as soon as another
       * process waits and no record transaction of this connection still runs in it, instead of
       * lasting through the caller's planning that follows (up to the lease's hold).
       */
      let owed: Array<SqlClaim | void> = [];
      const settled = <T>(read: () => T): T => {
        try {
          return read();
        } finally {
          const claims = owed;
          owed = [];
          for (const claim of claims) hooks.settle(claim);
        }
      };
      const reading = <T>(fn: (name: string) => T, none: T, again = true): T => settled(() => readingOnce(fn, none, again));
      const readingOnce = <T>(fn: (name: string) => T, none: T, again: boolean): T => {
        const name = table();
        if (name === undefined) return none;
        try {
          return fn(name);
        } catch (e) {
          known.delete(namespace);
          // Another connection dropped the table between the look-up and the read (its `forget`): look again once.
          if (again && e instanceof Error && /no such table/i.test(e.message)) return readingOnce(fn, none, false);
          throw hooks.error(e);
        }
      };
      return {
        add(): void {
          // the driver's commits maintain the index
        },
        remove(): void {
          // the driver's commits maintain the index
        },
        has(id: string): boolean {
          return reading((name) => {
            // A damaged page of the key index answers false (issue 22): `remove` is a no-op here,
            // so the caller's erasure goes on to its commit, which says what SQLite refuses.
            const row = unlessCorrupt(() => q(`SELECT id FROM ${c.rec} WHERE tbl = ? AND ns = ? AND k = ? AND chunk = 0`, [c.nodeCode, sqlKey(namespace), sqlKey(id)])[0], undefined);
            return row !== undefined && q(`SELECT rowid FROM ${name} WHERE rowid = ?`, [Number(row.id)]).length > 0;
          }, false);
        },
        get language(): LanguageCode | undefined {
          return language;
        },
        get size(): number {
          return reading((name) => Number(q(`SELECT COUNT(*) AS n FROM ${name}`)[0]?.n ?? 0), 0);
        },
        search(query: string, k: number, lang?: string): IndexHit[] {
          if (!Number.isInteger(k) || k < 0) throw invalidInput('k', `expected a non-negative integer, got ${k}`);
          if (k === 0 || typeof query !== 'string' || query.trim().length === 0) return settled(() => []);
          return reading((name) => {
            const tokens = ftsQueryTokens(query, (lang as LanguageCode | undefined) ?? ftsTableLanguage(name));
            if (tokens.length === 0) return [];
            // One statement (issue 25): the best k rows (ranked as ftsSearch ranks them) joined to
            // their record keys. A damaged page fails it whole; the two-step search below then
            // leaves out only the hits whose records lie on damaged pages. A long query (a
            // write's probe) is ranked term by term (ftsRankByTerm: same hits and scores), then
            // its hits' keys read in runs.
            if (tokens.length <= FTS_ONE_STATEMENT_TERMS) {
              try {
                const match = tokens.map((t) => `"${t}"`).join(' OR ');
                const rows = q(
                  `SELECT t.slot AS slot, t.s AS s, r.k AS k FROM (SELECT rowid AS slot, bm25(${name}) AS s FROM ${name} WHERE ${name} MATCH ? ORDER BY s, rowid LIMIT ?) AS t ` +
                    `LEFT JOIN ${c.rec} AS r ON r.id = t.slot AND r.ns = ? ORDER BY t.s, t.slot`,
                  [match, k, sqlKey(namespace)],
                );
                return rows.flatMap((r) => (r.k === null || r.k === undefined ? [] : [{ id: String(keyOfSql(r.k)), score: -Number(r.s) }]));
              } catch (e) {
                if (!isCorruptError(e)) throw e;
              }
            }
            const hits = ftsRankByTerm(q as never, name, tokens, k);
            if (hits.length === 0) return [];
            const keys = new Map<number, string>();
            // In runs of 90 bindings (the Durable Object allows 100 per statement).
            // A hit whose record lies on a damaged page is left out (damage stays local).
            const keysOf = (run: number[]): void => {
              try {
                for (const r of q(`SELECT id, k FROM ${c.rec} WHERE ns = ? AND id IN (${run.map(() => '?').join(', ')})`, [sqlKey(namespace), ...run])) keys.set(Number(r.id), String(keyOfSql(r.k)));
              } catch (e) {
                if (run.length === 1 || !isCorruptError(e)) {
                  if (isCorruptError(e)) return;
                  throw e;
                }
                for (const id of run) keysOf([id]);
              }
            };
            for (let i = 0; i < hits.length; i += 90) keysOf(hits.slice(i, i + 90).map((h) => h.slot));
            return hits.flatMap((h) => {
              const id = keys.get(h.slot);
              return id === undefined ? [] : [{ id, score: h.score }];
            });
          }, []);
        },
        toJSON(): unknown {
          return { format: FTS_LEXICAL_FORMAT, namespace };
        },
        async ready(): Promise<void> {
          owed.push(await hooks.ready('read'));
          const cached = known.get(namespace);
          if (cached !== undefined && fits(cached)) return;
          // A first use may build the table (a write): take the write lock for it, then read.
          const n = stored(namespace);
          const name = n === undefined ? undefined : existing(n);
          if (name === undefined || !fits(name)) {
            owed.push(await hooks.ready('write'));
            table();
            owed.push(await hooks.ready('read'));
          }
        },
      };
    },
  };
}
