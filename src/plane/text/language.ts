/**
 * Language identification and per-language term resources of the text pipeline (issue 15).
 *
 * - The script of a text decides its language where the script does (Han → zh, kana → ja,
 *   Hangul → ko, Arabic → ar, Hebrew → he, Devanagari → hi, Thai → th, Greek → el). Cyrillic
 *   and Latin texts long enough are identified by `franc-min` (trigram profiles) restricted to
 *   the languages we have resources for; a short text (a typical question) takes the caller's
 *   fallback (the namespace's dominant language), else English. A Latin text is taken for
 *   another language only when `franc-min` says so and more of its words are that language's
 *   stop words than English ones.
 * - English is recognised before `franc-min` is asked: a Latin text of which at least 15 % of
 *   the words are English stop words of three letters or more is English. This keeps every English text on the path
 *   the lexical index and System One were tuned and trained on (SPEC 10).
 * - Per language: a stop list from `stopword` and a Snowball stemmer from `@orama/stemmers`
 *   where they exist, plus light affix stripping where no kept library offers a stemmer
 *   (Korean particles, Arabic and Hebrew clitic prefixes), and person-neutral verb keys (issue
 *   24: `inflection-semitic.ts`, `inflection-european.ts`, `inflection-suffixing.ts`).
 * - Issue 24, never for English or an English namespace: a short question takes the namespace's
 *   language when that language's stop words explain it as well as English's; letters only one
 *   language writes decide a short Latin text; a text without English stop words but with
 *   another language's goes to franc even when short, and to the language whose stop list
 *   explains it when franc's pick explains none; Cyrillic is Ukrainian only with і ї є ґ and
 *   Bulgarian only when its stop words outnumber Russian ones.
 *
 * @module
 */
import { franc } from 'franc-min';
import { LRUCache } from 'lru-cache';
import { textKey } from '../../util/hash.js';
import { languageResources, RESOURCES, type LanguageCode } from './language-resources.js';

export { languageResources, type LanguageCode, type LanguageResources } from './language-resources.js';

/** franc's ISO 639-3 codes of the Latin-script languages we have resources for → ISO 639-1. */
const FRANC_LATIN: Readonly<Record<string, LanguageCode>> = {
  eng: 'en', spa: 'es', deu: 'de', fra: 'fr', ita: 'it', por: 'pt', nld: 'nl', tur: 'tr', vie: 'vi', swe: 'sv',
  dan: 'da', nob: 'nb', fin: 'fi', hun: 'hu', ron: 'ro', ind: 'id', pol: 'pl',
};
const FRANC_LATIN_ONLY = Object.keys(FRANC_LATIN);
/** Stop words of the Latin-script languages other than English, together. */
const LATIN_FOREIGN_STOP: ReadonlySet<string> = new Set(
  Object.values(FRANC_LATIN).flatMap((l) => [...(RESOURCES.get(l)?.stop ?? [])]),
);
const FRANC_CYRILLIC: Readonly<Record<string, LanguageCode>> = { rus: 'ru', ukr: 'uk', bul: 'bg' };
const FRANC_CYRILLIC_ONLY = Object.keys(FRANC_CYRILLIC);

/** Letters fewer than this make a text too short for `franc-min`: the fallback decides. */
export const MIN_LETTERS_FOR_IDENTIFICATION = 24;

/**
 * Issue 24: a Latin text of at least this many letters (and fewer than
 * {@link MIN_LETTERS_FOR_IDENTIFICATION}) with no English stop word and stop words of another
 * language (one with accented letters, else two) is still given to `franc-min`.
 */
export const MIN_LETTERS_FOR_SHORT_FRANC = 12;

/**
 * Share of English stop words of three letters or more ("the", "and", "you"; not "a", "me",
 * "no", which other languages share) among a Latin text's words from which the text is English.
 */
export const ENGLISH_STOP_SHARE = 0.15;

const SCRIPT = /(\p{sc=Han})|([\p{sc=Hiragana}\p{sc=Katakana}])|(\p{sc=Hangul})|(\p{sc=Arabic})|(\p{sc=Hebrew})|(\p{sc=Devanagari})|(\p{sc=Thai})|(\p{sc=Cyrillic})|(\p{sc=Greek})|(\p{sc=Latin})/gu;
const SCRIPT_LANG: readonly LanguageCode[] = ['zh', 'ja', 'ko', 'ar', 'he', 'hi', 'th', 'ru', 'el', 'latin'];
const ASCII = /^[\x00-\x7f]*$/;

/**
 * Identifies the language of a text from its script and, for Latin and Cyrillic texts of at
 * least {@link MIN_LETTERS_FOR_IDENTIFICATION} letters, `franc-min` (restricted to the languages
 * with resources). Japanese wins over Chinese as soon as kana appear.
 *
 * @param text - the text (any normalisation).
 * @param words - its tokens (`tokenize(text)`), used for the English stop-word share.
 * @param isEnglishStop - the English stop-word test.
 * @param fallback - the language of a text too short to identify (a Latin or Cyrillic one);
 *   default `"en"` for Latin.
 * @returns an ISO 639-1 code; `"und"` for a text without letters.
 */
export function identifyLanguage(text: string, words: readonly string[], isEnglishStop: (w: string) => boolean, fallback?: LanguageCode): LanguageCode {
  let script: string | undefined;
  let letters = 0;
  if (ASCII.test(text)) {
    if (words.length === 0) return fallback ?? 'und';
    if (fallbackExplains(words, isEnglishStop, fallback)) return fallback as LanguageCode;
    if (englishByStopWords(words, isEnglishStop)) return 'en';
    for (let i = 0; i < text.length; i += 1) {
      const c = text.charCodeAt(i) | 0x20;
      if (c >= 0x61 && c <= 0x7a) letters += 1;
    }
    script = letters > 0 ? 'latin' : undefined;
  } else {
    const counts = new Array<number>(SCRIPT_LANG.length).fill(0);
    for (const m of text.matchAll(SCRIPT)) {
      for (let g = 1; g <= SCRIPT_LANG.length; g += 1) {
        if (m[g] !== undefined) {
          counts[g - 1]! += 1;
          break;
        }
      }
    }
    // Kana mark Japanese even when kanji outnumber them.
    if (counts[1]! > 0) counts[1]! += counts[0]!;
    let best = -1;
    for (let s = 0; s < counts.length; s += 1) {
      letters += counts[s]!;
      if (counts[s]! > 0 && (best < 0 || counts[s]! > counts[best]!)) best = s;
    }
    script = best < 0 ? undefined : (SCRIPT_LANG[best] as LanguageCode);
  }
  if (script === undefined) return fallback ?? 'und';
  if (script === 'ru') {
    if (letters < MIN_LETTERS_FOR_IDENTIFICATION) return fallback !== undefined && FRANC_CYRILLIC_ONLY.some((k) => FRANC_CYRILLIC[k] === fallback) ? fallback : 'ru';
    return cyrillicLanguage(text, words);
  }
  if (script !== 'latin') return script;
  if (fallbackExplains(words, isEnglishStop, fallback)) return fallback as LanguageCode;
  const latinFallback = fallback !== undefined && Object.values(FRANC_LATIN).includes(fallback) ? fallback : 'en';
  // h-person2, only in a namespace of another Latin-script language: letters only that language
  // writes decide a text of any length ("Can: Elif çok güzel resim yapıyor."), and a text with
  // letters English does not write is not English for a stop word the two languages share
  // (Turkish "her", every: "Her sabah denizde yüzüyorum." was read as English).
  const ownLetters = latinFallback !== 'en' && distinctiveLatin(text) === latinFallback;
  if (ownLetters) return latinFallback;
  if (latinFallback === 'en' && englishByStopWords(words, isEnglishStop)) return 'en';
  if (latinFallback !== 'en' && englishByStopWords(words, isEnglishStop) && !/[\u00c0-\u024f]/u.test(text)) return 'en';
  const short = letters < MIN_LETTERS_FOR_IDENTIFICATION;
  if (short) {
    const distinct = distinctiveLatin(text);
    if (distinct !== undefined) return distinct;
  }
  // Trigrams alone mistake plain English chat for Dutch or Danish: the language must also hold
  // more of the text's words in its stop list than English does. Checked first against the
  // union of the stop lists, which spares franc most English texts.
  let english = 0;
  let foreign = 0;
  for (const w of words) {
    if (isEnglishStop(w)) english += 1;
    if (LATIN_FOREIGN_STOP.has(w)) foreign += 1;
  }
  // Issue 24: a text with accented letters and no English stop word at all ("Cumartesi günleri
  // sahilde bisiklet sürüyorum") is not English for want of stop words: franc decides it.
  const accented = english === 0 && !ASCII.test(text);
  // A short one is decided by franc only without any English stop word and with a stop word of
  // another language (two when it has no accented letter): "Cultivo fresas en el balcón.",
  // "Ela canta num coral da igreja."; else by the fallback. One stop word of another language is
  // not enough without an accent, however long: English keyword text holds such words ("dog
  // training tips": Danish "dog"; "hat size chart", "Bin day schedule": German; "van rental
  // prices": Dutch), so "Ich backe sonntags Brot." stays with the fallback (h-lang tried one
  // word of three letters; reverted at the merge for these).
  const foreignEnough = english === 0 && foreign >= (accented ? 1 : 2);
  if (short && !(foreignEnough && letters >= MIN_LETTERS_FOR_SHORT_FRANC)) return latinFallback;
  if (foreign <= english && !accented) return latinFallback;
  let lang = FRANC_LATIN[cachedFranc(text, FRANC_LATIN_ONLY)] ?? latinFallback;
  if (lang === 'en') return lang;
  // h-person2: in a namespace of another Latin-script language, franc's pick on a text no stop
  // list explains is a guess on a few trigrams ("Üniversitede tarih okudum." → Dutch): the
  // namespace's language is taken instead.
  if (accented && foreign === 0) return latinFallback !== 'en' ? latinFallback : lang;
  if (!words.some((w) => w.length >= 3 && isEnglishStop(w))) lang = bestStopExplained(words, lang, english);
  const stop = languageResources(lang)?.stop;
  const fallbackStop = latinFallback !== lang ? languageResources(latinFallback)?.stop : undefined;
  let own = 0;
  let fallbackOwn = 0;
  for (const w of words) {
    if (stop?.has(w) === true) own += 1;
    if (fallbackStop?.has(w) === true) fallbackOwn += 1;
  }
  // The namespace's own language wins over franc's pick when its stop list explains the text as
  // well (franc confuses Spanish, Portuguese and Galician on one sentence).
  if (fallbackStop !== undefined && fallbackOwn >= own && fallbackOwn > english) return latinFallback;
  return own > english ? lang : latinFallback;
}

/**
 * Issue 24: a short question in a namespace whose dominant language is not English is read in
 * that language when its stop words explain at least as many of the question's words as English
 * ones do ("Was liest Jonas?" in a German namespace: "was" is a stop word of both). Never for a
 * fallback of English or none, so English is read as before.
 */
function fallbackExplains(words: readonly string[], isEnglishStop: (w: string) => boolean, fallback: LanguageCode | undefined): boolean {
  if (fallback === undefined || fallback === 'en') return false;
  const stop = RESOURCES.get(fallback)?.stop;
  if (stop === undefined || !Object.values(FRANC_LATIN).includes(fallback)) return false;
  let letters = 0;
  let own = 0;
  let english = 0;
  for (const w of words) {
    letters += w.length;
    if (stop.has(w)) own += 1;
    if (isEnglishStop(w)) english += 1;
  }
  return letters < MIN_LETTERS_FOR_IDENTIFICATION && own > 0 && own >= english;
}

/**
 * Letters only one of the Latin-script languages with resources uses (issue 24), which decide a
 * text too short for `franc-min`: Turkish ğ ı ş, Vietnamese ơ ư ă and the letters with a dot
 * below or hook above, Spanish ñ ¿ ¡, German ß. `undefined` when none appears.
 */
function distinctiveLatin(text: string): LanguageCode | undefined {
  const t = text.normalize('NFC');
  if (/[ğışİĞŞ]/u.test(t)) return 'tr';
  if (/[ơưăđĐƠƯĂẠ-ỹ]/u.test(t)) return 'vi';
  if (/[ñÑ¿¡]/u.test(t)) return 'es';
  if (/ß/u.test(t)) return 'de';
  return undefined;
}

/**
 * A long Cyrillic text: Ukrainian when it has a letter only Ukrainian writes (і ї є ґ), Bulgarian
 * when `franc-min` says so and Bulgarian stop words outnumber Russian ones, else Russian (issue
 * 24: franc alone took most Russian turns of the multilingual set for Ukrainian or Bulgarian).
 */
function cyrillicLanguage(text: string, words: readonly string[]): LanguageCode {
  if (/[іїєґІЇЄҐ]/u.test(text)) return 'uk';
  if (FRANC_CYRILLIC[cachedFranc(text, FRANC_CYRILLIC_ONLY)] !== 'bg') return 'ru';
  const bg = RESOURCES.get('bg')?.stop;
  const ru = RESOURCES.get('ru')?.stop;
  let b = 0;
  let r = 0;
  for (const w of words) {
    if (bg?.has(w) === true) b += 1;
    if (ru?.has(w) === true) r += 1;
  }
  return b > r ? 'bg' : 'ru';
}

/**
 * Issue 24: franc's pick, unless another Latin-script language's stop list holds more distinct
 * words of the text than the pick's does: at least three when the pick's holds some, else two
 * (h-lang; before, only when the pick's held none; one word of three letters was tried and
 * dropped: English keyword text, "dog training tips"), and more than the English stop words
 * among them (franc takes "Ela canta num coral da igreja." for Spanish,
 * whose list holds none of its words; Portuguese holds "ela", "num", "da"). Called only for a
 * text without English stop words of three letters or more.
 */
function bestStopExplained(words: readonly string[], pick: LanguageCode, english: number): LanguageCode {
  const distinct = [...new Set(words)];
  const count = (l: LanguageCode, minLength = 1): number => {
    const stop = RESOURCES.get(l)?.stop;
    let n = 0;
    if (stop !== undefined) for (const w of distinct) if (w.length >= minLength && stop.has(w)) n += 1;
    return n;
  };
  // h-lang: franc's pick unless another language's list explains strictly more of the text
  // (on a sentence franc takes Portuguese for Italian or Spanish: "Li um livro ótimo sobre a
  // história do Brasil.", "Trabalho numa padaria perto de casa.").
  let best = pick;
  const own = count(pick);
  let most = Math.max(english, own);
  for (const l of Object.values(FRANC_LATIN)) {
    if (l === 'en' || l === pick) continue;
    const n = count(l);
    const enough = own > 0 ? n >= 3 : n >= 2;
    if (n > most && enough) {
      best = l;
      most = n;
    }
  }
  return best;
}

function englishByStopWords(words: readonly string[], isEnglishStop: (w: string) => boolean): boolean {
  let stops = 0;
  for (const w of words) if (w.length >= 3 && isEnglishStop(w)) stops += 1;
  return words.length > 0 && stops >= ENGLISH_STOP_SHARE * words.length;
}

/**
 * franc answers per text (the read path asks about the same node texts query after query),
 * keyed by {@link textKey} of the text, never by the text (issue 22).
 */
const FRANC_CACHE = new LRUCache<string, string>({ max: 4096 });

/** Drops franc's cached answers for `texts` (both candidate lists), or all when undefined (issue 22). */
export function evictFrancCache(texts: readonly string[] | undefined): void {
  if (texts === undefined) FRANC_CACHE.clear();
  else {
    for (const t of texts) {
      FRANC_CACHE.delete(textKey(t));
      FRANC_CACHE.delete(`*${textKey(t)}`);
    }
  }
}

function cachedFranc(text: string, only: string[]): string {
  const key = only === FRANC_LATIN_ONLY ? textKey(text) : `*${textKey(text)}`;
  let hit = FRANC_CACHE.get(key);
  if (hit === undefined) {
    hit = franc(text, { only, minLength: 1 });
    FRANC_CACHE.set(key, hit);
  }
  return hit;
}
