/**
 * The lexical index I^lex (eq. (5)) kept by the SQL store itself (issue 13): one SQLite FTS5
 * table per namespace, maintained inside the store's commit transaction, searched with FTS5's
 * `bm25()`. The Durable Object uses it always (its 128 MB isolate cannot hold MiniSearch at 100k
 * memories); Node may (`createSqliteFileStorage({ lexical: 'fts5' })`). Used by the SQL record driver (`../drivers/record-sql-lexical.ts`);
 * no SQL of the other tables here.
 *
 * Terms: exactly the terms MiniSearch indexes for the same field ({@link lexicalTerms},
 * `lexical.ts`: tokenize → language → `termsOf`), each written as one ASCII token
 * ({@link ftsToken}: the base-36 53-bit hash of the term), so FTS5's `unicode61` tokenizer only
 * ever sees `[a-z0-9]` words and splits nothing itself. The store thus holds no readable term
 * (a hash of a dictionary word can still be guessed by hashing the dictionary).
 *
 * Table `<prefix>fts<LEXICAL_VERSION><lang>_<ns>` (`ns`: the namespace's integer id, `lang` the
 * index's language, issue 24: the namespace's `language` option, which short texts are read in;
 * empty for none, e.g. `jev_mem_rec_fts5_1`, `jev_mem_rec_fts5it_1`):
 * `fts5(text, speaker, content='', detail=full)` with rowid = the node's slot. Contentless (no
 * copy of the text); `detail=full` because FTS5's `bm25()` needs term frequencies (with
 * `detail=column` or `none` it scores every row 0); `columnsize` kept (bm25 needs the lengths).
 * Erasure: `secure-delete` is set on the table (SQLite ≥ 3.42; node-sqlite3-wasm ships 3.53,
 * workerd a recent one), and a row is removed with FTS5's `'delete'` command and the terms it was
 * inserted with (recomputed from the stored text), which removes its entries from the index
 * b-tree in place; with `PRAGMA secure_delete` (Node) the freed bytes are zeroed. A
 * `contentless_delete=1` table was tried and rejected: it deletes by tombstone, and the deleted
 * terms stayed in the file.
 *
 * The terms of a row must be recomputed identically at its delete: a change of the term
 * analysis (text.ts, language.ts, the stemmer or stop-word packages) must bump
 * `LEXICAL_VERSION` (lexical.ts), which names a new table, built afresh from the nodes (the old
 * tables of the namespace are dropped first); rows are always inserted and deleted in the
 * language the table's name holds, and another language asked for builds a new table too.
 *
 * @module
 */
import type { LanguageCode } from '../text/language.js';
import { LEXICAL_VERSION, lexicalTerms } from './lexical.js';
import { hash53 } from '../resident/node-directory.js';
import type { SqlParam, SqlRow } from '../drivers/sql-connection.js';

/** A statement runner (`SqlDriver.query`). */
type Query = (sql: string, params?: readonly SqlParam[]) => SqlRow[];

/** What one row of the FTS table indexes: a node's text and speaker. */
export interface FtsDoc {
  text: string;
  speaker?: string | undefined;
}

/** One hit: the node's slot and its score (−bm25, higher is better). */
export interface FtsHit {
  slot: number;
  score: number;
}

/** Format tag of the store-kept index's `toJSON()` marker (nothing to restore: the store keeps it). */
export const FTS_LEXICAL_FORMAT = 'jev-mem/lexical-fts5' as const;

/** The ASCII token of one term: its 53-bit hash (`hash53`, node-directory.ts) in base 36, ≤ 11 characters of `[0-9a-z]`. */
export function ftsToken(term: string): string {
  return hash53(term).toString(36);
}

/** The tokens of one field value: {@link ftsToken} of each {@link lexicalTerms} term, space-separated. */
export function ftsField(text: string, language?: LanguageCode): string {
  return lexicalTerms(text, language).map(ftsToken).join(' ');
}

/** Name of the FTS table of namespace id `ns` whose short texts are read in `language` (none: their own). */
export function ftsTableName(prefix: string, ns: number, language?: LanguageCode): string {
  if (language !== undefined && !/^[a-z]{2,3}$/.test(language)) throw new RangeError(`not a language code: ${JSON.stringify(language)}`);
  return `${prefix}fts${LEXICAL_VERSION}${language ?? ''}_${ns}`;
}

/** Pattern of every FTS table name of `prefix` (any version): captures the version, the language (may be empty) and the namespace id. */
export function ftsTablePattern(prefix: string): RegExp {
  return new RegExp(`^${prefix}fts(\\d+)([a-z]*)_(\\d+)$`);
}

/** The language a table of {@link ftsTableName} reads short texts in; `undefined` for none. */
export function ftsTableLanguage(name: string): LanguageCode | undefined {
  const m = /fts\d+([a-z]*)_\d+$/.exec(name);
  return m === null || m[1] === '' ? undefined : (m[1] as LanguageCode);
}

/** Creates the FTS table `table` (which must not exist) with secure-delete on. */
export function createFtsTable(q: Query, table: string): void {
  q(`CREATE VIRTUAL TABLE ${table} USING fts5(text, speaker, content='', detail=full)`);
  q(`INSERT INTO ${table} (${table}, rank) VALUES ('secure-delete', 1)`);
}

/** Indexes `doc` under `slot` (the slot must not be indexed), short texts read in the table's language. */
export function ftsInsert(q: Query, table: string, slot: number, doc: FtsDoc): void {
  const lang = ftsTableLanguage(table);
  q(`INSERT INTO ${table} (rowid, text, speaker) VALUES (?, ?, ?)`, [slot, ftsField(doc.text, lang), doc.speaker ? ftsField(doc.speaker, lang) : '']);
}

/** Removes `slot`, which was indexed with exactly `doc` (FTS5's `'delete'` command needs its terms, recomputed in the table's language). */
export function ftsDelete(q: Query, table: string, slot: number, doc: FtsDoc): void {
  const lang = ftsTableLanguage(table);
  q(`INSERT INTO ${table} (${table}, rowid, text, speaker) VALUES ('delete', ?, ?, ?)`, [slot, ftsField(doc.text, lang), doc.speaker ? ftsField(doc.speaker, lang) : '']);
}

/** The query terms of `query` as {@link ftsToken}s (analysed as MiniSearch analyses a query, `language` for a short one), repeats and order kept. */
export function ftsQueryTokens(query: string, language?: LanguageCode): string[] {
  return lexicalTerms(query, language).map(ftsToken);
}

/**
 * The FTS5 `MATCH` expression of `query` that {@link ftsSearch} runs: its terms (analysed as
 * MiniSearch analyses a query, `language` for a short one), each as its quoted {@link ftsToken},
 * OR-ed, repeats kept; `undefined` for an empty or stop-word-only query. For a caller that ranks
 * exactly as {@link ftsSearch} inside a statement of its own (`SELECT … WHERE <table> MATCH ?
 * ORDER BY bm25(<table>), rowid`).
 */
export function ftsMatch(query: string, language?: LanguageCode): string | undefined {
  const tokens = ftsQueryTokens(query, language);
  return tokens.length === 0 ? undefined : tokens.map((t) => `"${t}"`).join(' OR ');
}

/**
 * Most query terms (repeats counted) ranked by one FTS5 `MATCH` of them all; a longer query is
 * ranked term by term ({@link ftsRankByTerm}), with the same scores. Issue 25: FTS5 lists each
 * matching row's instances of all the query's phrases by scanning every phrase per instance
 * (`fts5CacheInstArray`), O(instances × phrases) a row, so one statement for the ~600 terms of a
 * long write probe (a 3,800-character passage, write/passage.ts) against 2,000-20,000-character
 * rows cost ~0.2-0.7 s of CPU a search; a question of a few terms costs little either way.
 */
export const FTS_ONE_STATEMENT_TERMS = 16;
/**
 * Distinct terms a statement of {@link ftsRankByTerm} looks up at most (a power of 2): the arms of
 * one `UNION ALL`. The Durable Object's SQLite refuses a compound SELECT of 64 arms ("too many
 * terms in compound SELECT": workerd sets a limit far under SQLite's default 500; 4 runs there),
 * so every driver uses 4.
 */
export const FTS_TERMS_PER_STATEMENT = 4;

/**
 * The contribution of each distinct term of `tokens` to the `bm25()` of every row that holds it:
 * one single-phrase FTS5 query per term (`bm25()` of a one-phrase query is that phrase's term
 * of the sum), {@link FTS_TERMS_PER_STATEMENT} of them `UNION ALL`-ed in a statement, the last
 * ones in statements of 2 and 1 (so at most 3 statement texts per table).
 */
function termContributions(q: Query, table: string, distinct: readonly string[]): Map<string, Array<[slot: number, part: number]>> {
  const parts = new Map<string, Array<[number, number]>>(distinct.map((t) => [t, []]));
  for (let i = 0; i < distinct.length; ) {
    let n = FTS_TERMS_PER_STATEMENT;
    while (n > distinct.length - i) n >>= 1;
    const run = distinct.slice(i, i + n);
    const sql = run.map((_, j) => `SELECT ${j} AS t, rowid AS slot, bm25(${table}) AS s FROM ${table} WHERE ${table} MATCH ?`).join(' UNION ALL ');
    for (const r of q(sql, run.map((t) => `"${t}"`))) parts.get(run[Number(r.t)] as string)?.push([Number(r.slot), -Number(r.s)]);
    i += n;
  }
  return parts;
}

/**
 * Best `k` rows for the OR of `tokens` ({@link ftsToken}s, repeats kept), ranked exactly as one
 * FTS5 statement `… MATCH '"t1" OR "t2" OR …' ORDER BY bm25(), rowid` ranks them, without that
 * statement's O(instances × phrases) cost per row (see {@link FTS_ONE_STATEMENT_TERMS}).
 *
 * Why the scores are the same, bit for bit: FTS5's `bm25()` (fts5_aux.c) sums, over the query's
 * phrases i in order from 0.0, IDF_i · f_i·(k1 + 1) / (f_i + k1·(1 − b + b·|D|/avgdl)), where
 * IDF_i (from the phrase's own row count), f_i (the phrase's instances in the row), |D| and avgdl
 * depend on that phrase and row only; a phrase not in the row adds exactly 0. The single-phrase
 * query of a term returns that term's summand (as −bm25: 0.0 + x, negated, both exact). So the
 * sum is rebuilt here in the same order with the same double additions: for each query term in
 * order, repeats included, its summand is added to each row that holds it.
 */
export function ftsRankByTerm(q: Query, table: string, tokens: readonly string[], k: number): FtsHit[] {
  if (tokens.length === 0 || k <= 0) return [];
  const parts = termContributions(q, table, [...new Set(tokens)]);
  const score = new Map<number, number>();
  for (const t of tokens) {
    for (const [slot, part] of parts.get(t) ?? []) score.set(slot, (score.get(slot) ?? 0) + part);
  }
  const hits = [...score].map(([slot, s]) => ({ slot, score: s }));
  hits.sort((a, b) => b.score - a.score || a.slot - b.slot);
  return hits.length > k ? hits.slice(0, k) : hits;
}

/**
 * Best `k` rows for `query`: its terms (analysed as MiniSearch analyses a query, `language` for a
 * short one, else the table's language) OR-ed, ranked by FTS5's `bm25()` (k1 = 1.2, b = 0.75, both columns weight 1; IDF
 * `ln((N − n + 0.5) / (n + 0.5))`, floored at 1e-6 by FTS5), best first, ties by slot. A repeated
 * query term counts once per repeat (as in MiniSearch). Empty or stop-word-only query → `[]`.
 * A query of more than {@link FTS_ONE_STATEMENT_TERMS} terms is ranked by {@link ftsRankByTerm} (same hits and scores).
 */
export function ftsSearch(q: Query, table: string, query: string, k: number, language?: LanguageCode): FtsHit[] {
  const tokens = ftsQueryTokens(query, language ?? ftsTableLanguage(table));
  if (tokens.length === 0 || k <= 0) return [];
  if (tokens.length > FTS_ONE_STATEMENT_TERMS) return ftsRankByTerm(q, table, tokens, k);
  const match = tokens.map((t) => `"${t}"`).join(' OR ');
  return q(`SELECT rowid AS slot, bm25(${table}) AS s FROM ${table} WHERE ${table} MATCH ? ORDER BY s, rowid LIMIT ?`, [match, k]).map((r) => ({
    slot: Number(r.slot),
    score: -Number(r.s),
  }));
}
