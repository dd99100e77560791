/**
 * The per-language term resources of the text pipeline (issues 15 and 24): stop lists from
 * `stopword`, Snowball stemmers from `@orama/stemmers`, light clitic and particle stripping for
 * Korean, Arabic and Hebrew, and the person-neutral verb keys of `inflection-*.ts`. English is
 * absent: its path is the Porter stemmer and English stop list of `text.ts`.
 *
 * @module
 */
import { stemmer as arabicStem } from '@orama/stemmers/arabic';
import { stemmer as bulgarianStem } from '@orama/stemmers/bulgarian';
import { stemmer as danishStem } from '@orama/stemmers/danish';
import { stemmer as dutchStem } from '@orama/stemmers/dutch';
import { stemmer as finnishStem } from '@orama/stemmers/finnish';
import { stemmer as frenchStem } from '@orama/stemmers/french';
import { stemmer as germanStem } from '@orama/stemmers/german';
import { stemmer as greekStem } from '@orama/stemmers/greek';
import { stemmer as hindiStem } from '@orama/stemmers/indian';
import { stemmer as hungarianStem } from '@orama/stemmers/hungarian';
import { stemmer as indonesianStem } from '@orama/stemmers/indonesian';
import { stemmer as italianStem } from '@orama/stemmers/italian';
import { stemmer as norwegianStem } from '@orama/stemmers/norwegian';
import { stemmer as portugueseStem } from '@orama/stemmers/portuguese';
import { stemmer as romanianStem } from '@orama/stemmers/romanian';
import { stemmer as russianStem } from '@orama/stemmers/russian';
import { stemmer as spanishStem } from '@orama/stemmers/spanish';
import { stemmer as swedishStem } from '@orama/stemmers/swedish';
import { stemmer as turkishStem } from '@orama/stemmers/turkish';
import { stemmer as ukrainianStem } from '@orama/stemmers/ukrainian';
import { arabicPersonKeys, hebrewPersonKeys } from './inflection-semitic.js';
import { germanPersonKeys, romancePersonKeys, russianPersonKeys } from './inflection-european.js';
import { hindiPersonKeys, koreanPersonKeys, turkishPersonKeys } from './inflection-suffixing.js';
import { ara, bul, dan, deu, ell, fin, fra, heb, hin, hun, ind, ita, jpn, kor, nld, nob, pol, por, porBr, ron, rus, spa, swe, tha, tur, ukr, vie, zho } from 'stopword';

/**
 * A language code: ISO 639-1 (`"en"`, `"es"`, `"zh"`, …) for the languages the pipeline knows,
 * `"und"` when nothing is known (no letters at all).
 */
export type LanguageCode = string;

/** What the pipeline knows of one language. */
export interface LanguageResources {
  /** Lower-case stop words (from `stopword`). */
  stop: ReadonlySet<string>;
  /** Snowball stem of a lower-case word (from `@orama/stemmers`), when one exists. */
  stem?: (word: string) => string;
  /** Light affix stripping (particles, clitics) where no stemmer exists; `undefined` when nothing to strip. */
  strip?: (word: string) => string | undefined;
  /**
   * Person-neutral keys of a verb form (issue 24: `inflection-*.ts`), extra terms that join the
   * first and third person ("أدرس" / "تدرس" → "درس"); `[]` for a word that is no such form.
   */
  inflect?: (word: string) => string[];
}

const KOREAN_PARTICLES = [
  '에서는', '에게서', '으로는', '이라고', '한테서', '까지는', '에서', '에게', '한테', '으로', '께서', '까지', '부터', '보다', '처럼', '이랑',
  '이라', '라고', '이고', '이에요', '예요', '이다', '입니다', '은', '는', '이', '가', '을', '를', '에', '의', '와', '과', '도', '로', '만', '랑', '요',
];

/** Korean: the noun before a case particle ("고양이는" → "고양이"), longest particle first. */
function stripKorean(word: string): string | undefined {
  for (const p of KOREAN_PARTICLES) {
    if (word.length > p.length && word.endsWith(p)) return word.slice(0, -p.length);
  }
  return undefined;
}

const ARABIC_PREFIXES = ['وال', 'بال', 'كال', 'فال', 'لل', 'ال', 'و', 'ب', 'ل', 'ف'];

/** Arabic: the word without its clitic prefix (conjunction, preposition, article), ≥ 2 letters left. */
function stripArabic(word: string): string | undefined {
  for (const p of ARABIC_PREFIXES) {
    if (word.startsWith(p) && word.length - p.length >= 2) return word.slice(p.length);
  }
  return undefined;
}

const HEBREW_PREFIXES = ['וה', 'שה', 'בה', 'לה', 'מה', 'ה', 'ו', 'ב', 'ל', 'מ', 'ש', 'כ'];

/** Hebrew: the word without one clitic prefix (article, conjunction, preposition), ≥ 3 letters left. */
function stripHebrew(word: string): string | undefined {
  for (const p of HEBREW_PREFIXES) {
    if (word.startsWith(p) && word.length - p.length >= 3) return word.slice(p.length);
  }
  return undefined;
}

function stopSet(...lists: ReadonlyArray<readonly string[] | undefined>): ReadonlySet<string> {
  const out = new Set<string>();
  for (const list of lists) for (const w of list ?? []) out.add(w.normalize('NFC').toLowerCase());
  return out;
}

/** A stop set less content words a list holds by mistake (issue 24). */
function without(set: ReadonlySet<string>, words: readonly string[]): ReadonlySet<string> {
  const out = new Set(set);
  for (const w of words) out.delete(w);
  return out;
}

/**
 * Hindi words missing from `stopword`'s list that mark only person, tense or aspect (issue 24;
 * Y. Kachru, *Hindi*, ch. 3–4): the personal pronouns and possessives of the 1st and 2nd person
 * and the 3rd-person forms the list lacks (English "I", "my", "she" are stop words too), the
 * auxiliary हूँ / हूं ("am"), the progressive रहा / रही / रहे, and the feminine and future forms
 * of the light verb करना whose masculine forms the list already holds.
 */
const HINDI_EXTRA_STOP = [
  'मैं', 'मैंने', 'मुझे', 'मुझको', 'मेरा', 'मेरी', 'मेरे', 'हम', 'हमने', 'हमें', 'हमारा', 'हमारी', 'हमारे',
  'तुम', 'तुमने', 'तुम्हें', 'तुम्हारा', 'तुम्हारी', 'तुम्हारे', 'उसने', 'उसका', 'उसकी', 'उसके', 'वो',
  'हूँ', 'हूं', 'रहा', 'रही', 'रहे', 'करती', 'करूँगा', 'करूँगी', 'करेगा', 'करेगी', 'करेंगे',
  // question words (h-lang; SPEC 10: "what", "where", "when" are stop words in English)
  'क्या', 'कहाँ', 'कहां', 'कब', 'कैसे', 'क्यों', 'किसने', 'किससे', 'किसको', 'कितने', 'कितनी',
];

/**
 * Korean question words that `stopword`'s list lacks, in the forms a question writes them
 * (뭘 = 뭐를, 어디서 = 어디 + 에서): stop words as "what", "where", "who" are in English (h-lang).
 */
const KOREAN_EXTRA_STOP = ['뭐', '뭘', '무엇을', '어디서', '어디에', '어디로', '누가',
  // h-person2: the bound nouns of address after a name, 씨 and 님 (Sohn Ho-min, *The Korean
  // Language*, ch. 9, address terms), as English "Mr" / "Ms": "지은 씨는" names 지은, and a turn
  // that says "지은 씨" is no nearer the question for it.
  '씨', '님'];

/**
 * Japanese words `stopword`'s list lacks (h-person2, issue 24): the name suffixes of address
 * さん, 様, ちゃん, くん (as Korean 씨), the question words 何, どこ, いつ, 誰 (SPEC 10: "what",
 * "where" are stop words in English), and the pieces \`Intl.Segmenter\` cuts from the verb's
 * te-form and polite / past auxiliaries (-って, -ている, -ました; S. Martin, *A Reference Grammar
 * of Japanese*, ch. 4 and 6), which would otherwise join every verb in the te-form.
 */
const JAPANESE_EXTRA_STOP = ['さん', '様', 'ちゃん', 'くん', '何', 'どこ', 'いつ', '誰', 'って', 'っ', 'てい', 'てる', 'ま', 'した', 'でし', 'ませ'];

/**
 * `stopword`'s Brazilian list holds content words: "trabalho" (work) and "viagem" (trip), and the
 * forms of the full verbs fazer, ir / vir, dizer, ver and saber ("O que a Ana fez?" kept no term
 * at all; "vai" / "vou" could not meet). A turn about one's work, a trip or what one did would
 * lose them (issue 24). The auxiliaries (ser, estar, ter, haver, "foi") and the modals stay.
 */
const PORTUGUESE_NOT_STOP = [
  'trabalho', 'viagem',
  'faço', 'faz', 'fazeis', 'fazem', 'fazemos', 'fazendo', 'fazer', 'fazes', 'fez',
  'vai', 'vais', 'vão', 'vêm', 'vir', 'vindo', 'disse', 'diz', 'dizem', 'dizer', 'ver', 'sabe', 'sabem',
  // h-person2: "vendo" is the gerund of ver and the 1st singular of vender ("Vendo bolos na feira").
  'vendo',
];

/**
 * h-person2: `stopword`'s Turkish list holds the forms of the full verb yapmak (to do, to make),
 * as the Brazilian one held fazer's: "Elif çok güzel resim yapıyor" kept no verb, and "Ben ne
 * yapıyorum?" could not meet it. etmek and olmak, the light verb and the copula, stay.
 */
const TURKISH_NOT_STOP = ['yapacak', 'yapmak', 'yaptı', 'yaptıkları', 'yaptığı', 'yaptığını', 'yapılan', 'yapılması', 'yapıyor'];

/**
 * h-person2: `stopword`'s Hindi list holds दिया, the perfective of the full verb देना (to give),
 * as the Brazilian list held fazer's: "अंजलि ने क्या दिया?" kept no verb. लिए stays: it is also
 * the postposition के लिए (for).
 */
const HINDI_NOT_STOP = ['दिया'];

/** Resources per language code (English is absent: its path is `text.ts`'s Porter + stop list). Read-only; internal to the text pipeline. */
export const RESOURCES: ReadonlyMap<LanguageCode, LanguageResources> = new Map<LanguageCode, LanguageResources>([
  ['ar', { stop: stopSet(ara), stem: arabicStem, strip: stripArabic, inflect: arabicPersonKeys }],
  ['bg', { stop: stopSet(bul), stem: bulgarianStem }],
  ['da', { stop: stopSet(dan), stem: danishStem }],
  ['de', { stop: stopSet(deu), stem: germanStem, inflect: (w) => germanPersonKeys(w, germanStem) }],
  ['el', { stop: stopSet(ell), stem: greekStem }],
  ['es', { stop: stopSet(spa), stem: spanishStem, inflect: (w) => romancePersonKeys('es', w, spanishStem) }],
  ['fi', { stop: stopSet(fin), stem: finnishStem }],
  ['fr', { stop: stopSet(fra), stem: frenchStem }],
  ['he', { stop: stopSet(heb), strip: stripHebrew, inflect: hebrewPersonKeys }],
  ['hi', { stop: without(stopSet(hin, HINDI_EXTRA_STOP), HINDI_NOT_STOP), stem: hindiStem, inflect: hindiPersonKeys }],
  ['hu', { stop: stopSet(hun), stem: hungarianStem }],
  ['id', { stop: stopSet(ind), stem: indonesianStem }],
  ['it', { stop: stopSet(ita), stem: italianStem, inflect: (w) => romancePersonKeys('it', w, italianStem) }],
  ['ja', { stop: stopSet(jpn, JAPANESE_EXTRA_STOP) }],
  ['ko', { stop: stopSet(kor, KOREAN_EXTRA_STOP), strip: stripKorean, inflect: koreanPersonKeys }],
  ['nb', { stop: stopSet(nob), stem: norwegianStem }],
  ['nl', { stop: stopSet(nld), stem: dutchStem }],
  ['pl', { stop: stopSet(pol) }],
  ['pt', { stop: without(stopSet(por, porBr), PORTUGUESE_NOT_STOP), stem: portugueseStem, inflect: (w) => romancePersonKeys('pt', w, portugueseStem) }],
  ['ro', { stop: stopSet(ron), stem: romanianStem }],
  ['ru', { stop: stopSet(rus), stem: russianStem, inflect: (w) => russianPersonKeys(w, russianStem) }],
  ['sv', { stop: stopSet(swe), stem: swedishStem }],
  ['th', { stop: stopSet(tha) }],
  ['tr', { stop: without(stopSet(tur), TURKISH_NOT_STOP), stem: turkishStem, inflect: turkishPersonKeys }],
  ['uk', { stop: stopSet(ukr), stem: ukrainianStem }],
  ['vi', { stop: stopSet(vie) }],
  ['zh', { stop: stopSet(zho) }],
]);

/**
 * The stop list, stemmer and affix stripping of a language; `undefined` for English (its path
 * is the Porter stemmer and English stop list of `text.ts`) and for languages without resources.
 */
export function languageResources(lang: LanguageCode): LanguageResources | undefined {
  return RESOURCES.get(lang);
}
