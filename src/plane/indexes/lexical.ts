/**
 * The lexical index I^lex (eq. (5)): BM25 over node text and speaker, built on MiniSearch over
 * the language-aware terms of `text.ts` (SPEC 2, 10; issue 15): Porter stemming and English stop
 * words for English, per-language stop words and stems otherwise, diacritic-folded twins, emoji.
 * A derived cache: it can always be rebuilt from the nodes in the store.
 *
 * @module
 */
import MiniSearch, { type AsPlainObject, type Options } from 'minisearch';
import { JevMemError, invalidInput } from '../../errors.js';
import type { IndexHit, LexicalDoc, LexicalIndex } from './indexes.js';
import type { LanguageCode } from '../text/language.js';
import { analyzeText, termsOf } from '../text/text.js';

/** Format tag of {@link LexicalIndex.toJSON} snapshots. */
export const LEXICAL_FORMAT = 'jev-mem/lexical' as const;

/**
 * Version of {@link LexicalIndex.toJSON} snapshots; {@link loadLexicalIndex} refuses others.
 * 2: language-aware terms (issue 15); version 1 snapshots hold English-only terms.
 * 3: person-inflection keys and CJK character n-grams of non-English words (issue 24; English
 *    terms unchanged).
 * 4: h-lang's rules (issue 24: short-text language identification, more person keys, stop
 *    words) changed the terms of non-English text again without a new version, so stores
 *    written before them kept terms today's queries do not produce; and the snapshot names the
 *    index's {@link LexicalSnapshot.language}. English terms unchanged. A store holding an
 *    older index rebuilds it from its nodes at open (`resident/open.ts`, `record-sql-lexical.ts`).
 * 5: h-person2's rules (issue 24: Arabic doubled and Hebrew hollow verbs, German ablaut, Russian
 *    past tense / perfective prefixes / consonant alternation, Hindi irregular perfectives, stop
 *    list changes in ko, ja, pt, tr, hi, and the namespace language deciding more short texts).
 *    English terms unchanged.
 */
export const LEXICAL_VERSION = 5 as const;

/** The snapshot written by {@link LexicalIndex.toJSON}. */
export interface LexicalSnapshot {
  format: typeof LEXICAL_FORMAT;
  version: typeof LEXICAL_VERSION;
  /**
   * The language the index read short texts in (`createLexicalIndex`'s `language`), or `null`
   * for none (each text's own language, English when too short to tell).
   */
  language: LanguageCode | null;
  /** MiniSearch's own serialisation (`MiniSearch#toJSON`). */
  minisearch: AsPlainObject;
}

/**
 * MiniSearch's tokenize and processTerm, sharing the language of the text being read: MiniSearch
 * tokenizes a field, then processes its tokens one by one, synchronously, so `tokenize` notes the
 * text's language for the `processTerm` calls that follow. Field lengths (BM25's |d|) stay the
 * number of distinct tokens, stop words included, as before issue 15.
 */
class Analyzer {
  #lang: LanguageCode = 'en';

  /** @param language - the fallback of a short indexed text (the namespace's language), if any. */
  constructor(readonly language?: LanguageCode) {}

  /** Tokens of `text` (`analyzeText`, text.ts); notes its language (`fallback`, else the index's language, for a short text). */
  tokenize(text: string, fallback: LanguageCode | undefined = this.language): string[] {
    const { words, language } = analyzeText(text, fallback);
    this.#lang = language;
    return words;
  }

  /** Terms of one token in the noted language ({@link termsOf}); `null` for a stop word. */
  processTerm(token: string): string | string[] | null {
    const terms = termsOf(token, this.#lang);
    return terms.length === 0 ? null : terms.length === 1 ? (terms[0] as string) : terms;
  }
}

/**
 * The index terms MiniSearch reads from one field value (or one query): {@link Analyzer.tokenize}
 * then {@link Analyzer.processTerm} per token, flattened, stop words dropped, repeats and order
 * kept. The store-kept FTS5 engine (`sql-lexical.ts`) indexes exactly these, so both engines see
 * the same terms. `language` is the fallback of a text too short to identify (queries pass the
 * `language` given to `search`; indexed fields the index's own `language`, none by default).
 * `"Caroline's LGBTQ group"` → `["carolin", "lgbtq", "group"]`.
 */
export function lexicalTerms(text: string, language?: LanguageCode): string[] {
  const analyzer = new Analyzer();
  const out: string[] = [];
  for (const token of analyzer.tokenize(text, language)) {
    const terms = analyzer.processTerm(token);
    if (terms === null) continue;
    if (typeof terms === 'string') out.push(terms);
    else out.push(...terms);
  }
  return out;
}

/**
 * The one place the MiniSearch options are set. BM25 parameters are MiniSearch's defaults
 * (BM25+, k = 1.2, b = 0.7, d = 0.5); exact term matches only (no prefix, no fuzzy), so scores
 * are plain BM25+ sums.
 */
function miniSearchOptions(analyzer: Analyzer): Options<LexicalDoc> {
  return {
    idField: 'id',
    fields: ['text', 'speaker'],
    storeFields: [],
    tokenize: (text: string) => analyzer.tokenize(text),
    processTerm: (term: string) => analyzer.processTerm(term),
    searchOptions: { prefix: false, fuzzy: false, combineWith: 'OR' },
  };
}

class MiniSearchLexicalIndex implements LexicalIndex {
  readonly #search: MiniSearch<LexicalDoc>;
  readonly #analyzer: Analyzer;

  constructor(search: MiniSearch<LexicalDoc>, analyzer: Analyzer) {
    this.#search = search;
    this.#analyzer = analyzer;
  }

  get size(): number {
    return this.#search.documentCount;
  }

  add(doc: LexicalDoc): void {
    if (typeof doc?.id !== 'string' || doc.id.length === 0) {
      throw invalidInput('doc.id', `expected a non-empty string, got ${JSON.stringify(doc?.id)}`);
    }
    if (typeof doc.text !== 'string') {
      throw invalidInput('doc.text', `expected a string, got ${typeof doc.text}`);
    }
    if (doc.speaker !== undefined && typeof doc.speaker !== 'string') {
      throw invalidInput('doc.speaker', `expected a string or undefined, got ${typeof doc.speaker}`);
    }
    // Replacing: discard the old version first (MiniSearch allows re-adding a discarded id).
    if (this.#search.has(doc.id)) this.#search.discard(doc.id);
    const entry: LexicalDoc = { id: doc.id, text: doc.text };
    if (doc.speaker !== undefined) entry.speaker = doc.speaker;
    this.#search.add(entry);
  }

  remove(id: string): void {
    if (this.#search.has(id)) this.#search.discard(id);
  }

  has(id: string): boolean {
    return this.#search.has(id);
  }

  async vacuum(): Promise<void> {
    if (this.#search.dirtCount > 0) await this.#search.vacuum();
  }

  get language(): LanguageCode | undefined {
    return this.#analyzer.language;
  }

  search(query: string, k: number, language?: string): IndexHit[] {
    if (!Number.isInteger(k) || k < 0) {
      throw invalidInput('k', `expected a non-negative integer, got ${k}`);
    }
    if (k === 0 || typeof query !== 'string' || query.trim().length === 0) return [];
    const fallback = (language as LanguageCode | undefined) ?? this.#analyzer.language;
    const results = this.#search.search(query, { tokenize: (text: string) => this.#analyzer.tokenize(text, fallback) });
    const hits: IndexHit[] = [];
    for (const r of results) {
      if (hits.length >= k) break;
      hits.push({ id: r.id as string, score: r.score });
    }
    return hits;
  }

  toJSON(): LexicalSnapshot {
    return { format: LEXICAL_FORMAT, version: LEXICAL_VERSION, language: this.#analyzer.language ?? null, minisearch: this.#search.toJSON() };
  }
}

/**
 * Creates an empty lexical index: BM25+ (MiniSearch defaults) over the fields `text` and
 * `speaker`, terms = `tokenize` → the text's language (`detectLanguage`) → `termsOf` per token
 * (`text.ts`: its stop words dropped → Porter stem plus, for other languages, their stems;
 * diacritic-folded twins); queries are processed the same way, a short one in the `language`
 * given to `search`, else in `options.language`. `search` returns MiniSearch's raw BM25+ score
 * (unbounded, ≥ 0), best first; a query of stop words only returns `[]`.
 *
 * @param options.language - the language of an indexed text too short to identify (a supported
 *   {@link LanguageCode}, from the namespace's `language` option; issue 24): "Insegno storia in
 *   un liceo." is read as Italian in an Italian namespace, as English without one. A text long
 *   enough, or in a script that names its language, keeps its own; English text stays English.
 *
 * Errors: `add` throws JevMemError `INVALID_INPUT` (field `doc.id` / `doc.text` / `doc.speaker`)
 * on a malformed document; `search` throws `INVALID_INPUT` (field `k`) when `k` is not a
 * non-negative integer.
 *
 * Source: SPEC 2 (lexical index), SPEC 10 (BM25 + Porter stemming + English stop words).
 */
export function createLexicalIndex(options: { language?: LanguageCode | undefined } = {}): LexicalIndex {
  const analyzer = new Analyzer(options.language);
  return new MiniSearchLexicalIndex(new MiniSearch<LexicalDoc>(miniSearchOptions(analyzer)), analyzer);
}

/**
 * Rebuilds a lexical index from a {@link LexicalIndex.toJSON} snapshot (the object itself, or its
 * `JSON.stringify` text).
 *
 * @throws JevMemError `SCHEMA_MISMATCH` when the snapshot's format or version is not
 *   {@link LEXICAL_FORMAT} / {@link LEXICAL_VERSION}; `INVALID_INPUT` (field `json`) when it is
 *   not a snapshot at all (bad JSON, wrong shape, or MiniSearch refuses it).
 */
export function loadLexicalIndex(json: unknown): LexicalIndex {
  let value: unknown = json;
  if (typeof json === 'string') {
    try {
      value = JSON.parse(json);
    } catch (cause) {
      throw new JevMemError('INVALID_INPUT', 'json: the lexical index snapshot is not valid JSON', {
        field: 'json',
        cause,
      });
    }
  }
  if (typeof value !== 'object' || value === null) {
    throw invalidInput('json', `expected a lexical index snapshot object, got ${value === null ? 'null' : typeof value}`);
  }
  const snap = value as Partial<LexicalSnapshot>;
  if (snap.format !== LEXICAL_FORMAT || snap.version !== LEXICAL_VERSION) {
    throw new JevMemError(
      'SCHEMA_MISMATCH',
      `lexical index snapshot has format ${JSON.stringify(snap.format)} version ${JSON.stringify(snap.version)}; ` +
        `this build reads ${LEXICAL_FORMAT} version ${LEXICAL_VERSION}. Rebuild the index from the store.`,
      { field: 'json', found: snap.version, expected: LEXICAL_VERSION },
    );
  }
  let search: MiniSearch<LexicalDoc>;
  const analyzer = new Analyzer(typeof snap.language === 'string' ? snap.language : undefined);
  try {
    search = MiniSearch.loadJS<LexicalDoc>(snap.minisearch as AsPlainObject, miniSearchOptions(analyzer));
  } catch (cause) {
    throw new JevMemError('INVALID_INPUT', 'json: MiniSearch could not load the lexical index snapshot', {
      field: 'json',
      cause,
    });
  }
  return new MiniSearchLexicalIndex(search, analyzer);
}
