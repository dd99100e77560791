/**
 * Issue 24 (h-lang, "every inflection"): the rules added after the second person set
 * (test/fixtures/multilingual-person) showed where the first ones stopped. Each pair is a first-
 * and a third-person (or a past and a present) form of one verb; the term they share is computed
 * by hand from the rule named beside it (src/plane/text/inflection-*.ts). Also the language of
 * short turns, the stop words added and the Korean n-grams.
 */
import { describe, expect, it } from 'vitest';
import { detectLanguage, termsOf } from '../../src/plane/text/text.js';

function shared(a: string, b: string, lang: string): string[] {
  const tb = new Set(termsOf(b, lang));
  return termsOf(a, lang).filter((t) => tb.has(t));
}

const PAIRS: ReadonlyArray<[string, string, string, string]> = [
  // German strong participle ge-…-en: "gebacken" → Snowball("back") = "back" = Snowball("backe").
  ['de', 'gebacken', 'backe', 'back'],
  // … and "gelesen" → "les", the e → i table's key of "liest".
  ['de', 'gelesen', 'liest', 'les'],
  // Russian -чь verbs: 1st sg "пеку" → Snowball "пек" → "печ"; "печёт" → "печ" before ёт.
  ['ru', 'пеку', 'печёт', 'печ'],
  ['ru', 'берегу', 'бережёт', 'береж'],
  // Spanish and Portuguese j before o of -gir verbs: Snowball "dirij" → "dirig" = Snowball("dirige").
  ['es', 'dirijo', 'dirige', 'dirig'],
  ['pt', 'dirijo', 'dirige', 'dirig'],
  // Italian participles: -nto of -ngere verbs ("dipi" + "ngere" → "diping"), -ata of -are verbs
  // ("and" + "are" → Snowball "andar", the table's key of "va").
  ['it', 'dipinto', 'dipinge', 'diping'],
  ['it', 'andata', 'va', 'andar'],
  // Portuguese "fez" / "vai" are no longer stop words: the fazer and ir table keys.
  ['pt', 'fiz', 'fez', 'faz'],
  ['pt', 'vou', 'vai', 'ir'],
];

describe('h-lang: more forms of one verb share a term', () => {
  for (const [lang, a, b, key] of PAIRS) {
    it(`${lang}: "${a}" / "${b}" share "${key}"`, () => {
      expect(shared(a, b, lang)).toContain(key);
    });
  }

  it('different verbs still share nothing', () => {
    expect(shared('gebacken', 'gelesen', 'de')).toEqual([]);
    expect(shared('dipinto', 'cucinato', 'it')).toEqual([]);
    expect(shared('пеку', 'пишу', 'ru')).toEqual([]);
    expect(shared('dirijo', 'digo', 'es')).toEqual([]);
  });
});

describe('h-lang: stop words and Korean n-grams', () => {
  it('Hindi and Korean question words are stop words', () => {
    expect(termsOf('क्या', 'hi')).toEqual([]);
    expect(termsOf('कहाँ', 'hi')).toEqual([]);
    expect(termsOf('뭘', 'ko')).toEqual([]);
    expect(termsOf('어디서', 'ko')).toEqual([]);
  });

  it('Korean n-grams come from the word without its particle or ending', () => {
    // 일했어요: verb stem 일 (했 → 해 → 하, 하다 verb keyed by its noun); no 했 / 요 / 어요 grams.
    expect(termsOf('일했어요', 'ko')).toEqual(['일했어요', '일했어', '일']);
    // 지민은: particle 은 stripped; grams of 지민 only.
    expect(termsOf('지민은', 'ko')).toEqual(['지민은', '지민', '지', '민']);
    // 등산을: grams of 등산, so "산" finds it.
    expect(termsOf('등산을', 'ko')).toContain('산');
    expect(termsOf('등산을', 'ko')).not.toContain('산을');
  });
});

describe('h-lang: the language of short turns', () => {
  it('English keyword text that holds one stop word of another language stays English', () => {
    // "dog" is a Danish stop word, "hat" and "bin" German, "van" and "men" Dutch, "con" Spanish:
    // one such word (without an accent) does not make a text foreign (a query "dog" × 1,000
    // was read as Danish and recalled nothing). The cost: "Ich backe sonntags Brot." is read in
    // the fallback language (English here), a known gap (docs/bench/MULTILINGUAL.md).
    for (const t of ['dog training tips', 'hat size chart', 'Bin day schedule', 'van rental prices', 'men shoes sale', 'con artist movie', 'die cast models']) {
      expect(detectLanguage(t), t).toBe('en');
    }
    expect(detectLanguage('dog '.repeat(1000))).toBe('en');
  });

  it('a stop list that explains clearly more than franc’s pick wins', () => {
    // franc says Italian / Spanish; Portuguese's list holds um, sobre, a, do / numa, perto, de.
    expect(detectLanguage('Li um livro ótimo sobre a história do Brasil.')).toBe('pt');
    expect(detectLanguage('Trabalho numa padaria perto de casa.')).toBe('pt');
  });

  it('English chat stays English', () => {
    expect(detectLanguage('Thanks, John. I definitely will!')).toBe('en');
    expect(detectLanguage('See ya, Calvin! Stay awesome. Catch ya later.')).toBe('en');
    expect(detectLanguage('Love ya!')).toBe('en');
  });
});
