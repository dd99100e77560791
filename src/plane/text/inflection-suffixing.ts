/**
 * Person (and register) inflection of Turkish, Korean and Hindi verbs (issue 24): a verb-root key
 * added beside the word's other terms, so that a question in the third person finds a turn in
 * the first ("okuyor" / "okudum", "공부한다" / "공부해요", "पढ़ेगी" / "पढ़ूँगा"). No kept
 * JavaScript library analyses these verbs (the Snowball Turkish stemmer removes noun suffixes and
 * some person endings, the Hindi light stemmer of `@orama/stemmers` gendered endings only), so
 * the rules below are written from the grammar references named with each. A key is an extra
 * term: a noun that looks like a verb form gains a rarely shared term and keeps its own.
 *
 * @module
 */

// ---------------------------------------------------------------------------------------------
// Turkish (A. Göksel & C. Kerslake, *Turkish: A Comprehensive Grammar*, ch. 8 and 21;
// G. Lewis, *Turkish Grammar*, ch. VIII). Person suffixes follow the tense suffix: -(I)yor
// progressive, -(y)AcAk future, -mIş evidential, -DI past, -(A/I)r aorist, and -DIK participles
// with a possessive ("sevdiğim", the one I love). The root is what precedes the tense suffix,
// written without a final vowel (a vowel-final root loses or narrows it before -Iyor: "oku" →
// "okuyor", "bekle" → "bekliyor") and with a final d or ğ as t or k (the voicing alternation:
// "git" → "gidiyor", "et" → "ediyor").
// ---------------------------------------------------------------------------------------------

const V = '[ıiuü]';
const PERSON = `(?:${V}m|s${V}n|${V}z|s${V}n${V}z|lar|ler)?`;
const TURKISH_PATTERNS: readonly RegExp[] = [
  new RegExp(`^(.+?)${V}?yor(?:um|sun|uz|sunuz|lar|du[mnk]?|dunuz|dular|muş(?:um|sun|uz)?)?$`, 'u'),
  new RegExp(`^(.+?)y?(?:acak|ecek|acağ|eceğ)${PERSON}$`, 'u'),
  new RegExp(`^(.+?)m${V}ş${PERSON}$`, 'u'),
  new RegExp(`^(.+?)[dt]${V}[ğk](?:${V}m|${V}n|${V}|${V}m${V}z|${V}n${V}z|lar${V}|ler${V})?$`, 'u'),
  new RegExp(`^(.+?)[dt]${V}(?:m|n|k|n${V}z|lar|ler)?$`, 'u'),
  new RegExp(`^(.+?)[aeıiuü]?r${PERSON}$`, 'u'),
];

/** Turkish: the verb root of a finite form, "çalışıyorum" / "çalıştı" / "çalışır" → "çalış". */
export function turkishPersonKeys(word: string): string[] {
  if (word.length < 4) return [];
  for (const re of TURKISH_PATTERNS) {
    const m = re.exec(word);
    if (m === null) continue;
    let root = m[1] as string;
    if (root.length >= 3 && /[aeıioöuü]$/u.test(root)) root = root.slice(0, -1);
    root = root.replace(/d$/u, 't').replace(/ğ$/u, 'k');
    return root.length >= 2 ? [root] : [];
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Korean (Sohn Ho-min, *The Korean Language*, ch. 8; Yeon Jaehoon & L. Brown, *Korean: A
// Comprehensive Grammar*, ch. 5–6). Verbs do not mark person but speech level and honorifics:
// 공부해요 (polite), 공부한다 (plain), 공부합니다 (formal), 공부하세요 / 공부하십니다 (honorific,
// said of a respected third person or to "you"). The key is the verb stem: the ending removed
// (longest first), then the last syllable repaired: an ending fused into it as a final consonant
// (ㄴ 한다, ㅂ 합니다, ㅆ 했어요, ㄹ 할) is dropped, and a vowel contracted with the ending's
// 어/아 is restored (셔 → 시, 워 → 우, 와 → 오, 해 → 하). A 하다 verb is keyed by its noun
// (공부하 → 공부); a stem ending in honorific 시 also gives the stem without it (가시 → 가).
// ---------------------------------------------------------------------------------------------

const KOREAN_ENDINGS = [
  '었습니다', '았습니다', '였습니다', '으십니다', '으세요', '었어요', '았어요', '였어요', '십니다', '습니다',
  '었나요', '았나요', '습니까', '세요', '니다', '니까', '나요', '어요', '아요', '었다', '았다', '는다', '어서', '아서', '으면', '는데', '지요', '고요',
  '죠', '고', '다', '요', '면', '서', '는', '며', '지', '게',
];
/** Endings that begin with the honorific 시 (fused: 세요 = 시 + 어요, 십니다 = 시 + ㅂ니다). */
const HONORIFIC_ENDINGS: ReadonlySet<string> = new Set(['으십니다', '으세요', '십니다', '세요']);
const HANGUL_BASE = 0xac00;
/** Final consonant indices (ㄴ 4, ㄹ 8, ㅂ 17, ㅆ 20) that are endings fused into a vowel-final stem. */
const FUSED_FINALS = new Set([4, 8, 17, 20]);
/** Contracted vowels → the stem's own vowel (ㅕ→ㅣ, ㅘ→ㅗ, ㅙ→ㅚ, ㅝ→ㅜ), by vowel index. */
const CONTRACTED: ReadonlyMap<number, number> = new Map([[6, 20], [9, 8], [10, 11], [14, 13]]);

function repairLastSyllable(stem: string): string {
  const code = stem.charCodeAt(stem.length - 1) - HANGUL_BASE;
  if (code < 0 || code > 11171) return stem;
  const lead = Math.floor(code / 588);
  let vowel = Math.floor((code % 588) / 28);
  let tail = code % 28;
  if (FUSED_FINALS.has(tail)) tail = 0;
  vowel = CONTRACTED.get(vowel) ?? vowel;
  if (lead === 18 && vowel === 1) vowel = 0; // 해 → 하
  if (vowel === 18) vowel = 4; // a stem's ㅡ drops before 어 (쓰 + 어요 → 써요): 쓰 and 써 are one key
  return stem.slice(0, -1) + String.fromCharCode(HANGUL_BASE + lead * 588 + vowel * 28 + tail);
}

/** Korean: the verb stem of a conjugated form, "공부합니다" / "공부해요" → "공부", "마셔요" / "마신다" → "마시". */
export function koreanPersonKeys(word: string): string[] {
  if (word.length < 2 || !/^[\uac00-\ud7a3]+$/u.test(word)) return [];
  for (const e of KOREAN_ENDINGS) {
    if (!word.endsWith(e) || word.length - e.length < 1) continue;
    const out: string[] = [];
    const push = (s: string): void => {
      const k = s.length >= 2 && s.endsWith('하') ? s.slice(0, -1) : s;
      if (k.length > 0 && !out.includes(k)) out.push(k);
    };
    const stem = repairLastSyllable(word.slice(0, -e.length));
    push(stem);
    // Honorific 시 and a stem's own 시 read alike: 마십니다 is 마시 + ㅂ니다, 가십니다 is 가 + 십니다.
    if (HONORIFIC_ENDINGS.has(e)) {
      if (!stem.endsWith('하')) push(`${stem}시`);
    }
    else if (stem.length >= 2 && stem.endsWith('시')) push(stem.slice(0, -1));
    return out;
  }
  return [];
}

// ---------------------------------------------------------------------------------------------
// Hindi (Y. Kachru, *Hindi*, ch. 4; M. C. Shapiro, *A Primer of Modern Standard Hindi*,
// lessons 9–20). Person and gender sit in the participle endings (-ता/-ती/-ते habitual, -आ/-ई/-ए
// perfective) and in the future (-ऊँगा 1st sg, -एगा/-एगी 3rd sg, -एँगे pl, -ओगे 2nd), with the
// auxiliary हूँ / है / हैं / थी marking person; a vowel-final stem takes the perfective with a
// glide, -या / -यी / -ये ("बनाया" / "बनाती"; h-lang). The light stemmer of `@orama/stemmers` strips the
// gendered endings ("पढ़ता", "पढ़ती" → "पढ़") but not the future and subjunctive ones; the key
// is the stem without them. The auxiliaries are stop words (language.ts).
// ---------------------------------------------------------------------------------------------

const HINDI_SUFFIXES = [
  'ऊँगा', 'ऊँगी', 'ऊंगा', 'ऊंगी', 'एँगे', 'एंगे', 'एगा', 'एगी', 'ओगे', 'ओगी', 'ूँगा', 'ूँगी', 'ूंगा', 'ूंगी', 'ेंगे', 'ेंगी', 'ेगा', 'ेगी', 'ोगे', 'ोगी', 'ीजिए', 'िए', 'िये', 'कर', 'ना', 'ने', 'नी',
  'ता', 'ती', 'ते', 'ूँ', 'ूं', 'ें', 'या', 'यी', 'ये', 'ा', 'ी', 'े', 'ो',
];

/**
 * h-person2: the verbs whose perfective participle is irregular (Kachru, *Hindi*, ch. 4; Shapiro
 * lesson 13): देना → दिया / दी / दिए / दिये, लेना → लिया / ली / लिए / लिये, जाना → गया / गई / गए /
 * गयी / गये, पीना → पिया / पी / पिए (their habitual forms, देती, reach the stem by rule). करना's
 * forms are stop words.
 */
const HINDI_IRREGULAR: Readonly<Record<string, string>> = {
  दिया: 'दे', दी: 'दे', दिए: 'दे', दिये: 'दे',
  लिया: 'ले', ली: 'ले', लिए: 'ले', लिये: 'ले',
  गया: 'जा', गई: 'जा', गए: 'जा', गयी: 'जा', गये: 'जा',
  पिया: 'पी', पिए: 'पी', पिये: 'पी',
};

/** Hindi: the verb stem without its person, gender, future or infinitive ending, "पढ़ूँगा" → "पढ़". */
export function hindiPersonKeys(word: string): string[] {
  const irregular = HINDI_IRREGULAR[word];
  if (irregular !== undefined) return [irregular];
  for (const s of HINDI_SUFFIXES) {
    if (word.endsWith(s) && word.length - s.length >= 2) return [word.slice(0, -s.length)];
  }
  return [];
}
