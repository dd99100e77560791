/**
 * Shared text helpers of the memory plane: Unicode word tokenisation (`Intl.Segmenter` for
 * scripts written without spaces), NFC and case folding, diacritic folding, language-aware
 * terms (English stop words and Porter stemming for English; per-language stop words and
 * stemmers from `language.ts` for the others). The lexical index (`lexical.ts`) and every other
 * caller that turns text into terms (keywords, word overlap, System-One features) use these, so
 * a word is processed the same way everywhere. Stored text stays verbatim: only the terms are
 * normalised.
 *
 * Issue 24: outside English, verb forms also get person-neutral keys (`inflection-*.ts`) and
 * Chinese, Japanese and Korean words their character unigrams and bigrams (`cjk.ts`).
 *
 * SPEC 10: stop words (question words such as "when", "did" included) and stemming add about
 * 10 points of recall to BM25 on LoCoMo. English text keeps exactly the terms it had before
 * issue 15 (the trained System One reads features computed from them); an English word only
 * gains a folded twin when it carries a diacritic ("café" → "café", "cafe").
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import { stemmer } from 'stemmer';
import { eng } from 'stopword';
import { textKey } from '../../util/hash.js';
import { cjkNgrams, hasCjk } from './cjk.js';
import { SEGMENT_CHUNK_CHARS, segmentWords } from './segment.js';
import { ENGLISH_STOP_SHARE, evictFrancCache, identifyLanguage, languageResources, type LanguageCode } from './language.js';

/**
 * Words the `stopword` package's English list lacks but that behave as stop words in questions
 * and chat turns (SPEC 10: "when", "did" lift every turn that contains them). Also the pieces
 * left by splitting contractions at the apostrophe ("don't" → "don", "t"; "I'm" → "i", "m").
 */
const EXTRA_STOP_WORDS: readonly string[] = [
  // question words and auxiliaries missing from `eng`
  'when', 'why', 'whom', 'whose', 'does', 'doing', 'done', 'having', 'isn', 'aren', 'wasn', 'weren',
  'hasn', 'haven', 'hadn', 'doesn', 'didn', 'don', 'won', 'wouldn', 'shouldn', 'couldn',
  // pronouns missing from `eng`
  'she', 'hers', 'herself', 'its', 'itself', 'us', 'ours', 'ourselves', 'yours', 'yourself',
  'yourselves', 'theirs', 'themselves', 'myself', 'mine',
  // contraction fragments
  's', 't', 'm', 're', 've', 'll', 'd',
];

/**
 * The English stop-word list: the `stopword` package's `eng` list plus {@link EXTRA_STOP_WORDS}.
 * All entries lower-case.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([...eng, ...EXTRA_STOP_WORDS].map((w) => w.toLowerCase()));

/**
 * One token: a run of letters, combining marks or digits, a pair of regional indicators (a
 * flag), or a pictograph / other symbol with its variation selectors, skin tones and
 * zero-width-joined parts (an emoji sequence).
 */
const TOKEN = /[\p{L}\p{M}\p{N}]+|\p{RI}{2}|(?:\p{Extended_Pictographic}|\p{So})(?:[\u{FE0E}\u{FE0F}\u{1F3FB}-\u{1F3FF}]|\u200D(?:\p{Extended_Pictographic}|\p{So}))*/gu;

/** An ASCII text (NFC already; no emoji or symbol token possible) and its words. */
const ASCII_TEXT = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;

/** Emoji variation selectors: "❤️" and "❤" are one term. */
const VARIATION_SELECTORS = /[\u{FE0E}\u{FE0F}]/gu;

/**
 * Scripts written without spaces between words: only `Intl.Segmenter`'s dictionaries find their
 * words. For every other script the segmenter's word boundaries inside a run of letters and
 * digits are the run's own ends, so {@link TOKEN} alone gives the same tokens, faster.
 */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}]/u;

/** The word segmenter (locale-independent dictionaries); `undefined` where `Intl.Segmenter` is missing. */
const SEGMENTER: Intl.Segmenter | undefined = typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function' ? new Intl.Segmenter('und', { granularity: 'word' }) : undefined;

function pushTokens(piece: string, out: string[]): void {
  for (const m of piece.matchAll(TOKEN)) {
    const t = m[0];
    const c = t.codePointAt(0) as number;
    // A symbol token (emoji, flag): drop variation selectors.
    out.push(c > 0x2000 && !/^[\p{L}\p{M}\p{N}]/u.test(t) ? t.replace(VARIATION_SELECTORS, '') : t);
  }
}

/**
 * Splits `text` into lower-cased tokens, after NFC: words (runs of Unicode letters, combining
 * marks and digits; spaces, punctuation and apostrophes separate them), and emoji / symbols as
 * tokens of their own (variation selectors dropped). Text in a script written without spaces
 * (Chinese, Japanese, Thai, Lao, Khmer, Myanmar) is cut into words by `Intl.Segmenter` (word
 * granularity; its word-like segments, further split at apostrophes as above).
 * `"Caroline's LGBTQ group, 2023! 🎉"` → `["caroline", "s", "lgbtq", "group", "2023", "🎉"]`;
 * `"我的猫叫小雪"` → `["我", "的", "猫", "叫", "小雪"]` (ICU's dictionary decides).
 */
export function tokenize(text: string): string[] {
  if (ASCII_TEXT.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  const norm = text.normalize('NFC').toLowerCase();
  const out: string[] = [];
  if (SEGMENTER === undefined || !UNSPACED.test(norm)) {
    pushTokens(norm, out);
    return out;
  }
  if (norm.length <= SEGMENT_CHUNK_CHARS) {
    segmentWords(SEGMENTER, norm, (segment) => pushTokens(segment, out));
    return out;
  }
  // A long text in an unspaced script costs about 2 ms per 1,000 characters to segment, and a
  // write and the recalls after it read it several times (encoder, entities, language, lexical
  // index, each candidate's facts): segmented once, then copied from the cache.
  const key = textKey(norm);
  const cached = TOKEN_CACHE.get(key);
  if (cached !== undefined) return cached.slice();
  segmentWords(SEGMENTER, norm, (segment) => pushTokens(segment, out));
  TOKEN_CACHE.set(key, out.slice());
  return out;
}

/**
 * Tokens of recent long texts in unspaced scripts (over {@link SEGMENT_CHUNK_CHARS} code units),
 * keyed by {@link textKey} of their lower-cased NFC form (never by the text, issue 22), at most
 * 500,000 tokens in all (about 750,000 characters of Chinese, some 20 MB at most). Dropped with
 * the text's other cached facts by {@link evictTextCaches}.
 */
const TOKEN_CACHE = new LRUCache<string, readonly string[]>({ maxSize: 500_000, sizeCalculation: (t) => Math.max(1, t.length) });

const FOLD_MARKS = /[\u0300-\u036f\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u064b-\u065f\u0670\u{1F3FB}-\u{1F3FF}]/gu;
const FOLD_LETTERS: Readonly<Record<string, string>> = { ß: 'ss', ı: 'i', ł: 'l', đ: 'd', ø: 'o', æ: 'ae', œ: 'oe', ς: 'σ' };
const FOLDED_LETTER = /[ßıłđøæœς]/gu;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The diacritic-insensitive form of a lower-case token: Latin, Greek and Cyrillic accents
 * (combining marks U+0300–U+036F after NFD), Hebrew points, Arabic harakat and emoji skin tones
 * removed, and a few letters without decomposition folded ("ß" → "ss", "ı" → "i", "đ" → "d",
 * "ł" → "l", "ø" → "o", final "ς" → "σ"); NFC again. `"málaga"` → `"malaga"`,
 * `"tiếng"` → `"tieng"`, `"straße"` → `"strasse"`. ASCII tokens come back unchanged.
 */
export function foldDiacritics(token: string): string {
  if (!NON_ASCII.test(token)) return token;
  return token.normalize('NFD').replace(FOLD_MARKS, '').replace(FOLDED_LETTER, (c) => FOLD_LETTERS[c] ?? c).normalize('NFC');
}

/**
 * The normalised form of a text for deciding that two texts are the same: NFC, leading and
 * trailing white space removed, every run of white space one space. Case is kept (a text
 * written differently is a different observation). `"Café \n au lait "` (NFD) → `"Café au lait"`.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/** True when the lower-cased `word` is an English stop word ({@link STOP_WORDS}). */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}

/** Porter stem of one word (lower-cases it first): `"paintings"` → `"paint"`. */
export function stem(word: string): string {
  return stemmer(word.toLowerCase());
}

/**
 * Turns one token into its English index term: lower-case, `null` for an English stop word, else
 * its Porter stem (what every token was before issue 15; {@link termsOf} adds the others).
 */
export function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length === 0 || STOP_WORDS.has(lower)) return null;
  return stemmer(lower);
}

/**
 * The language of a text ({@link identifyLanguage}): its script, else `franc-min` for a long
 * enough Latin or Cyrillic text that is not plainly English, else `fallback`.
 * @param fallback - language of a text too short to identify (e.g. the namespace's dominant one).
 */
export function detectLanguage(text: string, fallback?: LanguageCode): LanguageCode {
  return languageOf(text, undefined, fallback);
}

/**
 * Languages of recent texts without a fallback: one write asks about its text several times
 * (namespace counts, lexical index, keywords, candidate search). Keyed by {@link textKey}, never
 * by the text (issue 22).
 */
const LANGUAGE_CACHE = new LRUCache<string, LanguageCode>({ max: 1024 });

/**
 * Drops what this module's process-wide caches keep about `texts` (their detected languages,
 * tokens, and franc's answers for them), or everything when `texts` is undefined (a forgotten
 * namespace, whose texts are not listed). Called after a delete or forget commits (issue 22).
 */
export function evictTextCaches(texts: readonly string[] | undefined): void {
  if (texts === undefined) {
    LANGUAGE_CACHE.clear();
    TOKEN_CACHE.clear();
  } else {
    for (const t of texts) {
      LANGUAGE_CACHE.delete(textKey(t));
      TOKEN_CACHE.delete(textKey(t.normalize('NFC').toLowerCase()));
    }
  }
  evictFrancCache(texts);
}

/** {@link identifyLanguage} of `text` (its tokens `words` when known), cached when there is no fallback. */
function languageOf(text: string, words: readonly string[] | undefined, fallback: LanguageCode | undefined): LanguageCode {
  if (fallback !== undefined) return identifyLanguage(text, words ?? tokenize(text), isStopWord, fallback);
  const key = textKey(text);
  let lang = LANGUAGE_CACHE.get(key);
  if (lang === undefined) {
    lang = identifyLanguage(text, words ?? tokenize(text), isStopWord);
    LANGUAGE_CACHE.set(key, lang);
  }
  return lang;
}

/**
 * The tokens of `text` ({@link tokenize}) and its language ({@link detectLanguage}), tokenizing
 * once: what the lexical index reads a field with.
 */
export function analyzeText(text: string, fallback?: LanguageCode): { words: string[]; language: LanguageCode } {
  const words = tokenize(text);
  return { words, language: languageOf(text, words, fallback) };
}

/**
 * Index terms of one lower-case token in language `lang`, most specific first, no repeats:
 * - none for an English stop word or a stop word of `lang`;
 * - its Porter stem (the English term; for other languages a stable surface form, so a text
 *   whose language is misidentified still matches word for word);
 * - for languages with resources: the language's Snowball stem and the token with its clitics
 *   or particles stripped;
 * - the person-neutral keys of a verb form (`LanguageResources.inflect`, issue 24: "تدرس" →
 *   "درس", "fährt" → "fahr", "공부합니다" → "공부"), of the token and of its stripped form;
 * - the diacritic-folded forms of those ({@link foldDiacritics}), so "malaga" finds "Málaga"
 *   while "málaga" matches the accented spelling on two terms;
 * - outside English, the unigrams and bigrams of the token's Han / kana / Hangul runs
 *   ({@link cjkNgrams}, issue 24), so "猫" matches "猫咪"; for Korean, of the shortest of the
 *   word without its particle and its verb stems ("등산을" → "등", "산"; "일했어요" → none beyond "일"), so
 *   particles and endings (은, 요, 어요) are not terms of their own (h-lang).
 * English ASCII words give exactly `[stem(word)]`; no English token gains an inflection key or
 * an n-gram.
 */
export function termsOf(token: string, lang: LanguageCode = 'en'): string[] {
  if (token.length === 0 || STOP_WORDS.has(token)) return [];
  const res = lang === 'en' ? undefined : languageResources(lang);
  if (res !== undefined && res.stop.has(token)) return [];
  const base = stemmer(token);
  if (res === undefined && !NON_ASCII.test(token)) return [base];
  const out = [base];
  const add = (t: string | undefined): void => {
    if (t !== undefined && t.length > 0 && !out.includes(t)) out.push(t);
  };
  // Korean: the n-grams of the word's content part (h-lang), not of its particle or ending.
  let grams = token;
  if (res !== undefined) {
    const stripped = res.strip?.(token);
    // Korean: a stop word before its case particle is a stop word ("씨는" → "씨", "저는" → "저").
    // Not for Arabic and Hebrew, whose stop lists hold words that are content behind the article
    // ("المساء", the evening).
    // A verb's polite 요 is no particle: "봐요" keeps its stem (보) though "봐" is a stop word.
    if (lang === 'ko' && stripped !== undefined && !token.endsWith('요') && res.stop.has(stripped)) return [];
    add(stripped);
    if (res.stem !== undefined) {
      add(res.stem(token));
      if (stripped !== undefined) add(res.stem(stripped));
    }
    let keys: string[] = [];
    if (res.inflect !== undefined) {
      keys = res.inflect(token);
      if (stripped !== undefined) keys = [...keys, ...res.inflect(stripped)];
      for (const k of keys) add(k);
    }
    // The verb stem before the particle-stripped form at equal length ("배워요": 배우, not 배워).
    if (lang === 'ko') for (const c of [...keys, stripped]) if (c !== undefined && c.length > 0 && c.length < grams.length) grams = c;
  }
  const n = out.length;
  for (let i = 0; i < n; i += 1) add(foldDiacritics(out[i] as string));
  if (NON_ASCII.test(token)) add(stemmer(foldDiacritics(token)));
  if (lang !== 'en' && hasCjk(token)) for (const g of cjkNgrams(grams, res?.stop ?? EMPTY)) add(g);
  return out;
}

/**
 * Content terms of `text`, in order, repeats kept: {@link tokenize} → the language of the text
 * ({@link detectLanguage}, `fallback` for a short one) → {@link termsOf} per token.
 * `"When did Caroline go to the LGBTQ support group?"` →
 * `["carolin", "go", "lgbtq", "support", "group"]`.
 * @param tokens - `tokenize(text)` when the caller has it already (not copied, not changed);
 *   the result is the same as without it.
 * @param stemOf - the content stem of a lower-case word, `false` for a stop word, as
 *   `isStopWord(w) ? false : stem(w)` gives it, memoised by the caller (the namespace's memo,
 *   issue 25); used for English words in ASCII. The result is the same as without it.
 */
export function contentTerms(text: string, fallback?: LanguageCode, tokens?: readonly string[], stemOf?: (word: string) => string | false): string[] {
  const words = tokens ?? tokenize(text);
  const english = stemOf === undefined ? stemmer : (word: string): string => stemOf(word) || stemmer(word);
  if (ASCII_TEXT.test(text)) {
    // The common case, English in ASCII, in one pass: its terms while counting the stop words
    // that make it English for identifyLanguage (runs per candidate per query).
    const out: string[] = [];
    let stops = 0;
    for (const word of words) {
      if (STOP_WORDS.has(word)) {
        if (word.length >= 3) stops += 1;
      } else out.push(english(word));
    }
    if (words.length > 0 && stops >= ENGLISH_STOP_SHARE * words.length) return out;
  }
  const lang = languageOf(text, words, fallback);
  const out: string[] = [];
  for (const word of words) {
    if (lang === 'en' && !NON_ASCII.test(word)) {
      // termsOf's English ASCII case, without its array: this runs per candidate per query.
      if (!STOP_WORDS.has(word)) out.push(english(word));
      continue;
    }
    for (const t of termsOf(word, lang)) out.push(t);
  }
  return out;
}

const EMPTY: ReadonlySet<string> = new Set();

const WORD_RUN = /[\p{L}\p{M}\p{N}]+/gu;

/**
 * Capitalised words that do not start a sentence (likely names), in order, as written: runs of
 * letters, marks and digits (after NFC) whose first character is upper case, other than "I" and
 * other than a word with only spaces between it and the text start or a `.` `!` `?` `:` `"`
 * ("Then Caroline went to Paris." → ["Caroline", "Paris"]; "Paris is big." → []).
 */
export function midSentenceCapitalised(text: string): string[] {
  const out: string[] = [];
  const norm = text.normalize('NFC');
  for (const m of norm.matchAll(WORD_RUN)) {
    const word = m[0];
    const first = word[0] ?? '';
    if (first === first.toLowerCase() || word === 'I') continue;
    let j = m.index - 1;
    while (j >= 0 && /\s/u.test(norm[j] as string)) j--;
    const prev = j < 0 ? undefined : norm[j];
    if (prev === undefined || prev === '.' || prev === '!' || prev === '?' || prev === ':' || prev === '"') continue;
    out.push(word);
  }
  return out;
}
