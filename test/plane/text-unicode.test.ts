import { describe, expect, it } from 'vitest';
import { dedupKey } from '../../src/plane/resident/namespace.js';
import { createLexicalIndex } from '../../src/plane/indexes/lexical.js';
import { contentTerms, detectLanguage, foldDiacritics, normalizeText, termsOf, tokenize } from '../../src/plane/text/text.js';
import { canonicalEntity, extractEntities } from '../../src/write/entities.js';

describe('Unicode tokens (issue 15)', () => {
  it('cuts Chinese, Japanese and Thai into words with Intl.Segmenter', () => {
    // Each sentence used to be one token; ICU's dictionaries give the words.
    expect(tokenize('她的猫叫什么名字？')).toEqual(['她的', '猫叫', '什么', '名字']);
    expect(tokenize('うちの犬の名前はコタロウです。')).toEqual(['うち', 'の', '犬', 'の', '名前', 'は', 'コタロウ', 'です']);
    expect(tokenize('แมวของฉันชื่อส้มโอ')).toEqual(['แมว', 'ของ', 'ฉัน', 'ชื่อ', 'ส้ม', 'โอ']);
  });

  it('keeps emoji, flags and skin tones as tokens, without variation selectors', () => {
    expect(tokenize('I love my morning 🍵! ❤️ 👍🏽 🇪🇸')).toEqual(['i', 'love', 'my', 'morning', '🍵', '❤', '👍🏽', '🇪🇸']);
    expect(tokenize('❤️')).toEqual(tokenize('❤'));
  });

  it('English text keeps the tokens and terms it had (apostrophes split, Porter stems)', () => {
    expect(tokenize("Caroline's LGBTQ group, 2023!")).toEqual(['caroline', 's', 'lgbtq', 'group', '2023']);
    expect(contentTerms('When did Caroline go to the LGBTQ support group?')).toEqual(['carolin', 'go', 'lgbtq', 'support', 'group']);
    expect(contentTerms('Yeah, I painted that lake sunrise last year!')).toEqual(['yeah', 'paint', 'lake', 'sunris', 'last', 'year']);
  });

  it('folds diacritics, Turkish dotted capitals and ß', () => {
    expect(['Málaga', 'José', 'tiếng', 'Straße', 'İstanbul'].map((w) => foldDiacritics(w.toLowerCase()))).toEqual(['malaga', 'jose', 'tieng', 'strasse', 'istanbul']);
    expect(foldDiacritics('paint')).toBe('paint');
  });

  it('termsOf gives the exact term first, then the language stem, then the folded twin', () => {
    expect(termsOf('málaga', 'es')).toEqual(['málaga', 'malag', 'malaga']);
    expect(termsOf('malaga', 'en')).toEqual(['malaga']);
    expect(termsOf('trabaja', 'es')).toEqual(['trabaja', 'trabaj']);
    expect(termsOf('café', 'en')).toEqual(['café', 'cafe']);
    expect(termsOf('la', 'es')).toEqual([]); // a Spanish stop word
    // topic particle stripped; then the syllable unigrams and bigrams (issue 24; "이" is a stop word)
    expect(termsOf('고양이는', 'ko')).toEqual(['고양이는', '고양이', '고', '양', '고양', '양이']); // n-grams of 고양이, not of its particle (h-lang)
    expect(termsOf('paintings', 'en')).toEqual(['paint']);
  });

  it('identifies languages by script, by franc for long Latin text, and falls back for short text', () => {
    const texts = ['Inés: me mudé a Málaga el año pasado con mi hermana.', 'Yeah, I painted that lake sunrise last year!', '我家的猫叫团子', 'Мою кошку зовут Муся, ей четыре года.', 'うちの犬', '우리 고양이', 'שלום עולם', 'مرحبا', 'नमस्ते दुनिया', 'สวัสดี', '🍵', 'Jose'];
    expect(texts.map((t) => detectLanguage(t))).toEqual(['es', 'en', 'zh', 'ru', 'ja', 'ko', 'he', 'ar', 'hi', 'th', 'und', 'en']);
    expect(detectLanguage('Dónde vive José?')).toBe('en');
    expect(detectLanguage('¿Dónde vive José?')).toBe('es'); // "¿" is Spanish only (issue 24)
    expect(detectLanguage('¿Dónde vive José?', 'es')).toBe('es');
  });

  it('normalizeText and dedupKey: NFC, trimmed, white space collapsed, case kept', () => {
    expect(normalizeText('  Café \n au   lait '.normalize('NFD'))).toBe('Café au lait');
    const nfc = 'Inés se mudó a Málaga.'.normalize('NFC');
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    expect(dedupKey(nfd, undefined, 'chat')).toBe(dedupKey(nfc, undefined, 'chat'));
    expect(dedupKey(`${nfc} `, undefined, 'chat')).toBe(dedupKey(nfc, undefined, 'chat'));
    expect(dedupKey(nfc.toUpperCase(), undefined, 'chat')).not.toBe(dedupKey(nfc, undefined, 'chat'));
  });
});

describe('diacritic-insensitive lexical search (issue 15)', () => {
  it('"Malaga" finds "Málaga", "Jose" finds "José", and an accented query ranks the exact spelling first', () => {
    const ix = createLexicalIndex();
    ix.add({ id: 'accented', text: 'Inés: I moved to Málaga.' });
    ix.add({ id: 'plain', text: 'Pablo: I moved to Malaga.' });
    ix.add({ id: 'zaragoza', text: 'Marta: I moved to Zaragoza.' });
    ix.add({ id: 'jose', text: 'José plays the guitar.' });
    expect(ix.search('Málaga', 3).map((h) => h.id)).toEqual(['accented', 'plain']);
    // Unaccented, both spellings match on one term each (Zaragoza not at all).
    expect(ix.search('Malaga', 3).map((h) => h.id).sort()).toEqual(['accented', 'plain']);
    expect(ix.search('Jose', 3).map((h) => h.id)).toEqual(['jose']);
  });

  it('an emoji query finds the turn with that emoji', () => {
    const ix = createLexicalIndex();
    ix.add({ id: 'tea', text: 'Morning ritual 🍵 before work' });
    ix.add({ id: 'coffee', text: 'Morning ritual ☕ before work' });
    expect(ix.search('🍵', 3).map((h) => h.id)).toEqual(['tea']);
  });
});

describe('entities in scripts without capitals (issue 15)', () => {
  it('known names among segmented words, and quoted names, become entities', () => {
    const known = new Set(['林晓梅']);
    expect(extractEntities('今天林晓梅说她的猫叫「团子」。', known)).toEqual(['团子', '林晓梅']); // quoted spans, then known names
    expect(extractEntities('今天天气很好。', known)).toEqual([]);
  });

  it('canonical names are NFC', () => {
    expect(canonicalEntity('José'.normalize('NFD'))).toBe('josé'.normalize('NFC'));
  });
});
