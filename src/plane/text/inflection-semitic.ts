/**
 * Person inflection of Arabic and Hebrew verbs (issue 24): a person-neutral key of a verb form,
 * added beside the word's other terms, so that "تدرس" (she studies) finds "أدرس" (I study) and
 * "קנתה" (she bought) finds "קניתי" (I bought). No kept JavaScript library offers a morphological
 * analyser for either language (the Snowball Arabic stemmer of `@orama/stemmers` strips noun and
 * perfect-tense suffixes but keeps the imperfect's person prefix: "أدرس", "تدرس", "يدرس" stay
 * three words), so these are light rules, written from the grammar references named below. They
 * are deliberately shallow: a key is an extra term, so a noun that happens to look like a verb
 * form only gains a rarely shared term, while the word keeps its own terms.
 *
 * @module
 */

/** The key must keep at least this many letters (Arabic and Hebrew roots have three). */
const MIN_ROOT = 3;

/**
 * Arabic imperfect (المضارع) person prefixes, after an optional future "س" (W. Wright, *A Grammar
 * of the Arabic Language*, 3rd ed., vol. I §§ 84–90; K. Ryding, *A Reference Grammar of Modern
 * Standard Arabic*, ch. 33): أ 1st sg (also written ا without hamza), ت 2nd sg/pl and 3rd sg
 * fem, ي 3rd sg masc and 3rd pl, ن 1st pl. The suffixes that go with them: ين 2nd sg fem,
 * ون / وا masc pl, ان dual, ن fem pl. Perfect (الماضي) person suffixes: تما, تم, تن, نا, وا,
 * and ت (1st sg, 2nd sg, 3rd sg fem: unvocalised they are one letter).
 */
const AR_IMPERFECT_PREFIX = ['أ', 'ا', 'ت', 'ي', 'ن'];
const AR_IMPERFECT_SUFFIX = ['ون', 'ين', 'ان', 'وا', 'ن'];
const AR_PERFECT_SUFFIX = ['تما', 'تم', 'تن', 'نا', 'وا', 'ت'];
/** Alif with hamza or madda, and alif maqsura, written as the plain letter in the key. */
const AR_NORMALISE: Readonly<Record<string, string>> = { أ: 'ا', إ: 'ا', آ: 'ا', ى: 'ي', ة: 'ه' };

function arNormalise(word: string): string {
  return word.replace(/[أإآىة]/gu, (c) => AR_NORMALISE[c] ?? c);
}

/**
 * Arabic: person-neutral keys of a verb form (after its clitics are stripped), written with plain
 * alif. Imperfect: the person prefix (and future "س") and the person suffix removed, "تدرسين" →
 * "درس", "أتعلم" → "تعلم"; perfect: the person suffix removed, "درستُ" / "درست" → "درس". A key
 * keeps at least three letters. Each candidate reading (imperfect, perfect) gives its own key.
 */
export function arabicPersonKeys(word: string): string[] {
  const bare = word.replace(/[\u064b-\u0652]/gu, ''); // harakat
  const out = arabicVerbKeys(bare);
  // An attached object pronoun ("تقرأها", she reads it): the verb form without it.
  for (const s of AR_OBJECT_SUFFIX) {
    if (bare.endsWith(s) && bare.length - s.length > MIN_ROOT) {
      out.push(...arabicVerbKeys(bare.slice(0, -s.length)));
      break;
    }
  }
  return [...new Set(out)];
}

/** Attached object pronouns long enough to strip safely: ها her/it, هم / هن them, ني me. */
const AR_OBJECT_SUFFIX = ['ها', 'هم', 'هن', 'ني'];

function arabicVerbKeys(w: string): string[] {
  const out: string[] = [];
  let imp = w;
  if (imp.startsWith('س') && imp.length - 1 > MIN_ROOT && AR_IMPERFECT_PREFIX.includes(imp[1] as string)) imp = imp.slice(1);
  const p = imp[0] as string;
  if (AR_IMPERFECT_PREFIX.includes(p) && imp.length - 1 >= MIN_ROOT) {
    let stem = imp.slice(1);
    for (const s of AR_IMPERFECT_SUFFIX) {
      if (stem.endsWith(s) && stem.length - s.length >= MIN_ROOT) {
        stem = stem.slice(0, -s.length);
        break;
      }
    }
    out.push(arNormalise(stem));
  }
  for (const s of AR_PERFECT_SUFFIX) {
    if (w.endsWith(s) && w.length - s.length >= MIN_ROOT) {
      out.push(arNormalise(w.slice(0, -s.length)));
      break;
    }
  }
  // A bare triliteral perfect (3rd sg masc, "درس") is its own key.
  if (w.length === MIN_ROOT) out.push(arNormalise(w));
  // h-person2: doubled (geminate, مضاعف) verbs write their last two root letters once, with
  // shadda, in the imperfect (Wright vol. I §§ 120–122; Ryding ch. 24): "أحب" / "يحب" (ح ب ب),
  // "أعد" / "تعد" (ع د د) keep two letters after the person prefix. Their key is the root with
  // the letter doubled again, "حبب", "عدد". A weak letter (و ي ا) after the prefix marks a
  // hollow root or a noun ("يوم", day), not a doubled one.
  if (w.length === MIN_ROOT && AR_IMPERFECT_PREFIX.includes(w[0] as string) && !/[وياى]/u.test(w.slice(1))) out.push(arNormalise(w.slice(1) + w[2]));
  return out;
}

/**
 * Hebrew person affixes (L. Glinert, *Modern Hebrew: An Essential Grammar*, 3rd ed., §§ 13–17;
 * S. Coffin & S. Bolozky, *A Reference Grammar of Modern Hebrew*, ch. 4):
 * - past (עבר): suffixes תי 1st sg, ת 2nd sg, ה 3rd sg fem, נו 1st pl, תם / תן 2nd pl, ו 3rd pl;
 * - future (עתיד): prefixes א 1st sg, ת 2nd sg and 3rd sg fem, י 3rd sg masc, נ 1st pl, with
 *   suffixes ו (pl) and י (2nd sg fem);
 * - present (participle, no person): ת / ה fem sg, ים masc pl, ות fem pl;
 * - roots whose third letter is ה (ל"ה: קנה, שתה): past קניתי / קנתה / קנו, key root + ה;
 * - the vowel letters ו and י that plene spelling puts inside a three-letter root (לומד, אעבוד,
 *   תלמיד) are dropped, so the participle, the past and the future meet on the root (למד, עבד).
 */
const HE_PAST_SUFFIX = ['תם', 'תן', 'תי', 'נו', 'ים', 'ות', 'ת', 'ה', 'ו', 'י'];
const HE_LH_SUFFIX = ['יתי', 'יתם', 'יתן', 'ינו', 'ית', 'תה'];
const HE_FUTURE_PREFIX = ['א', 'ת', 'י', 'נ'];
const HE_FINAL: Readonly<Record<string, string>> = { ך: 'כ', ם: 'מ', ן: 'נ', ף: 'פ', ץ: 'צ' };

function heNormalise(stem: string): string {
  // Final letter forms inside a stem become the plain letters; the last letter takes its final form.
  let s = stem.replace(/[ךםןףץ]/gu, (c) => HE_FINAL[c] ?? c);
  if (s.length === 4 && (s[1] === 'ו' || s[1] === 'י')) s = s[0] + s.slice(2);
  else if (s.length === 4 && (s[2] === 'ו' || s[2] === 'י')) s = s.slice(0, 2) + s[3];
  return s;
}

/**
 * Hebrew: person-neutral keys of a verb form, "למדתי" / "למדה" / "לומדת" / "אלמד" → "למד",
 * "קניתי" / "קנתה" / "קנה" → "קנה". Stems are written without final letter forms (מ, not ם).
 * Each candidate reading (past or participle suffix, future prefix) gives its own key of at
 * least three letters.
 */
export function hebrewPersonKeys(word: string): string[] {
  const w = word.replace(/[\u0591-\u05c7]/gu, ''); // points and cantillation
  const out = new Set<string>();
  for (const s of HE_LH_SUFFIX) {
    if (w.endsWith(s) && w.length - s.length === 2) {
      out.add(`${w.slice(0, 2)}ה`);
      break;
    }
  }
  if (w.length === 3 && w.endsWith('ה')) out.add(w);
  let suffixless = w;
  for (const s of HE_PAST_SUFFIX) {
    if (w.endsWith(s) && w.length - s.length >= MIN_ROOT) {
      suffixless = w.slice(0, -s.length);
      out.add(heNormalise(suffixless));
      break;
    }
  }
  if (HE_FUTURE_PREFIX.includes(w[0] as string) && w.length - 1 >= MIN_ROOT) {
    let stem = w.slice(1);
    if ((stem.endsWith('ו') || stem.endsWith('י')) && stem.length - 1 >= MIN_ROOT) stem = stem.slice(0, -1);
    if (stem.length === 3 && stem.endsWith('ה')) out.add(stem);
    else out.add(heNormalise(stem));
  }
  if (w.length === MIN_ROOT || w.length === 4) out.add(heNormalise(w));
  // h-person2: hollow verbs (ע"ו, גזרת ע"ו: גור, טוס, רוץ; Glinert § 16, Coffin & Bolozky 4.4)
  // keep two root letters in the past and present, "גרתי" / "גר", "טסתי" / "טסה": their key is
  // the root with its middle ו, as the future "אגור" and infinitive "לגור" write it.
  const hollow = (two: string): void => {
    if (two.length === 2) out.add(heNormalise(`${two[0]}ו${two[1]}`));
  };
  if (w.length === 2) hollow(w);
  for (const sfx of HE_PAST_SUFFIX) {
    if (w.endsWith(sfx) && w.length - sfx.length === 2) {
      hollow(w.slice(0, 2));
      break;
    }
  }
  return [...out].filter((k) => k.length >= MIN_ROOT);
}
