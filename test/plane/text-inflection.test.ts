/**
 * Issue 24: person inflection and CJK character n-grams in the text pipeline. For each language
 * we claim, a first-person and a third-person form of one verb share an index term (the key
 * computed by hand from the rules in src/plane/text/inflection-*.ts), and two different verbs do
 * not; short CJK queries share terms with the longer words that contain them.
 */
import { describe, expect, it } from 'vitest';
import { arabicPersonKeys, hebrewPersonKeys } from '../../src/plane/text/inflection-semitic.js';
import { hindiPersonKeys, koreanPersonKeys, turkishPersonKeys } from '../../src/plane/text/inflection-suffixing.js';
import { cjkNgrams } from '../../src/plane/text/cjk.js';
import { contentTerms, detectLanguage, termsOf, tokenize } from '../../src/plane/text/text.js';

/** Terms two words of `lang` have in common. */
function shared(a: string, b: string, lang: string): string[] {
  const tb = new Set(termsOf(b, lang));
  return termsOf(a, lang).filter((t) => tb.has(t));
}

/** [language, first person, third person, the term they share] — the shared key by hand. */
const PAIRS: ReadonlyArray<[string, string, string, string]> = [
  // Arabic imperfect: prefix أ (I) / ت (she) / ي (he) + root, suffixes ون ين.
  ['ar', 'أدرس', 'تدرس', 'درس'],
  ['ar', 'أعمل', 'يعملون', 'عمل'],
  ['ar', 'أتعلم', 'تتعلمين', 'تعلم'],
  ['ar', 'سأسافر', 'ستسافر', 'سافر'],
  ['ar', 'أقرأ', 'تقرأها', 'قرا'],
  // Arabic perfect: suffix ت (I / she) and the bare 3rd masc.
  ['ar', 'درست', 'درس', 'درس'],
  // Hebrew past (תי / ה), future (א / ת), participle (plene ו).
  ['he', 'למדתי', 'למדה', 'למד'],
  ['he', 'אלמד', 'תלמד', 'למד'],
  ['he', 'עבדתי', 'עובדת', 'עבד'],
  ['he', 'אעבוד', 'יעבוד', 'עבד'],
  ['he', 'קניתי', 'קנתה', 'קנה'],
  ['he', 'אפיתי', 'אפתה', 'אפה'],
  // Spanish: Snowball for regular verbs, the infinitive's stem for irregular ones.
  ['es', 'estudio', 'estudia', 'estudi'],
  ['es', 'trabajo', 'trabaja', 'trabaj'],
  ['es', 'tengo', 'tiene', 'ten'],
  ['es', 'hice', 'hizo', 'hac'],
  ['es', 'voy', 'va', 'ir'],
  ['es', 'conduzco', 'conduce', 'conduc'],
  ['es', 'estudié', 'estudió', 'estudi'],
  // Portuguese.
  ['pt', 'moro', 'mora', 'mor'],
  ['pt', 'trabalho', 'trabalha', 'trabalh'],
  ['pt', 'canto', 'canta', 'cant'],
  ['pt', 'escrevo', 'escreve', 'escrev'],
  // Italian.
  ['it', 'studio', 'studia', 'stud'],
  ['it', 'vado', 'va', 'andar'],
  ['it', 'esco', 'esce', 'uscir'],
  ['it', 'bevo', 'beve', 'bev'],
  // German: -e / -t, umlaut, e → i.
  ['de', 'spiele', 'spielt', 'spiel'],
  ['de', 'arbeite', 'arbeitet', 'arbeit'],
  ['de', 'fahre', 'fährt', 'fahr'],
  ['de', 'lese', 'liest', 'les'],
  ['de', 'spreche', 'spricht', 'sprech'],
  // Russian: consonant mutation, ё.
  ['ru', 'хожу', 'ходит', 'ход'],
  ['ru', 'пишу', 'пишет', 'писа'],
  ['ru', 'пою', 'поёт', 'пет'],
  ['ru', 'люблю', 'любит', 'люб'],
  // Turkish: person suffix after -Iyor, -DI, aorist; root without its final vowel, d → t.
  ['tr', 'çalışıyorum', 'çalışıyor', 'çalış'],
  ['tr', 'okudum', 'okuyor', 'ok'],
  ['tr', 'içerim', 'içiyor', 'iç'],
  ['tr', 'gittim', 'gidiyor', 'git'],
  ['tr', 'geçtim', 'geçti', 'geç'],
  // Korean: speech levels and honorifics of one stem; 하다 verbs keyed by their noun.
  ['ko', '공부해요', '공부합니다', '공부'],
  ['ko', '공부했어요', '공부하세요', '공부'],
  ['ko', '마셔요', '마십니다', '마시'],
  ['ko', '다녀요', '다닌다', '다니'],
  ['ko', '써요', '씁니까', '써'],
  ['ko', '노래해요', '노래합니까', '노래'],
  // Hindi: gendered participles (Snowball-like light stemmer) and futures.
  ['hi', 'पढ़ता', 'पढ़ती', 'पढ़'],
  ['hi', 'पढ़ूँगा', 'पढ़ेगी', 'पढ़'],
  ['hi', 'जाऊँगी', 'जाएगी', 'जा'],
  ['hi', 'सीखूँगी', 'सीखेगी', 'सीख'],
];

describe('first and third person of one verb share a term (issue 24)', () => {
  for (const [lang, first, third, key] of PAIRS) {
    it(`${lang}: ${first} / ${third} → ${key}`, () => {
      expect(termsOf(first, lang)).toContain(key);
      expect(termsOf(third, lang)).toContain(key);
    });
  }

  it('different verbs do not share a term', () => {
    expect(shared('أدرس', 'تكتب', 'ar')).toEqual([]);
    expect(shared('למדתי', 'קנתה', 'he')).toEqual([]);
    expect(shared('tengo', 'hace', 'es')).toEqual([]);
    expect(shared('okuyorum', 'yazıyor', 'tr')).toEqual([]);
    expect(shared('공부해요', '노래합니다', 'ko')).toEqual([]);
    expect(shared('पढ़ता', 'लिखती', 'hi')).toEqual([]);
    expect(shared('spiele', 'fährt', 'de')).toEqual([]);
  });

  it('Hindi pronouns, auxiliaries and the light verb करना are stop words', () => {
    expect(contentTerms('मैं पढ़ती हूँ', 'hi')).toEqual(['पढ़ती', 'पढ़']);
    expect(contentTerms('वह पढ़ती है', 'hi')).toEqual(['पढ़ती', 'पढ़']);
    expect(termsOf('करती', 'hi')).toEqual([]);
    expect(termsOf('रही', 'hi')).toEqual([]);
    expect(contentTerms('मैंने अपनी गिटार बेची', 'hi')).toEqual(contentTerms('उसने अपनी गिटार बेची', 'hi'));
  });

  it('"trabalho" is no longer a Portuguese stop word', () => {
    expect(termsOf('trabalho', 'pt')).toEqual(['trabalho', 'trabalh']);
  });
});

describe('the rules, word by word', () => {
  it('Arabic: a noun whose root is too short gains no key; harakat are ignored', () => {
    expect(arabicPersonKeys('يوم')).toEqual(['يوم']); // bare three letters: its own key
    // ت + two letters: no imperfect reading of its own, but a doubled verb's (h-person2: تحبّ, ح ب ب)
    expect(arabicPersonKeys('تحب')).toEqual(['تحب', 'حبب']);
    expect(arabicPersonKeys('أَدْرُسُ')).toEqual(['درس']);
  });

  it('Hebrew: final letter forms are written plain inside a key', () => {
    expect(hebrewPersonKeys('כתבתם')).toContain('כתב');
    expect(hebrewPersonKeys('לומדים')).toContain('למד');
  });

  it('Turkish: short words and non-verbs', () => {
    expect(turkishPersonKeys('ev')).toEqual([]);
    expect(turkishPersonKeys('sevdiğim')).toEqual(['sev']);
    expect(turkishPersonKeys('sevdiği')).toEqual(['sev']);
  });

  it('Korean: honorific and plain readings of 시', () => {
    expect(koreanPersonKeys('가세요')).toEqual(['가', '가시']);
    expect(koreanPersonKeys('마셨어요')).toEqual(['마시', '마']);
    expect(koreanPersonKeys('자전거')).toEqual([]);
  });

  it('Hindi: a stem keeps two code units at least', () => {
    expect(hindiPersonKeys('पीता')).toEqual(['पी']);
    expect(hindiPersonKeys('है')).toEqual([]);
  });
});

describe('CJK character n-grams (issue 24)', () => {
  it('unigrams and bigrams of a run, stop-word unigrams left out', () => {
    expect(cjkNgrams('波斯猫', new Set())).toEqual(['波', '斯', '猫', '波斯', '斯猫']);
    expect(cjkNgrams('我的', new Set(['的']))).toEqual(['我']);
    expect(cjkNgrams('猫', new Set())).toEqual([]);
  });

  it('a one-character Chinese query shares a term with a word that contains it', () => {
    // ICU cuts "猫咪" as one word and "猫叫" as another: "猫" alone matched neither before.
    expect(tokenize('我养了一只猫咪')).toContain('猫咪');
    expect(termsOf('猫咪', 'zh')).toContain('猫');
    expect(termsOf('猫叫', 'zh')).toContain('猫');
    expect(termsOf('猫', 'zh')).toEqual(['猫']);
  });

  it('kana and Hangul runs too', () => {
    expect(termsOf('パン屋', 'ja')).toEqual(expect.arrayContaining(['パ', 'ン', '屋', 'パン', 'ン屋']));
    expect(termsOf('빵집이', 'ko')).toEqual(expect.arrayContaining(['빵집', '빵']));
  });

  it('English text gains no n-gram, even with a Han character in it', () => {
    expect(termsOf('猫咪', 'en')).toEqual(['猫咪']);
  });
});

describe('language of short texts (issue 24)', () => {
  it('a short question takes the namespace language when its stop words explain it', () => {
    expect(detectLanguage('Was liest Jonas gerade?', 'de')).toBe('de');
    expect(detectLanguage('Was liest Jonas gerade?')).toBe('en');
    expect(detectLanguage('What does Jonas read?', 'de')).toBe('en');
  });

  it('letters only one language writes decide a short Latin text', () => {
    expect(detectLanguage('Hangi sınavı geçtim?')).toBe('tr');
    expect(detectLanguage('Tôi dạy tiếng gì?')).toBe('vi');
    expect(detectLanguage('¿Dónde canto?')).toBe('es');
  });

  it('Russian is not taken for Ukrainian or Bulgarian without their letters or stop words', () => {
    expect(detectLanguage('Сейчас я читаю роман о жизни моряков.')).toBe('ru');
    expect(detectLanguage('На балконе я выращиваю огурцы.')).toBe('ru');
    expect(detectLanguage('Я читаю книжку і п’ю каву щоранку.')).toBe('uk');
  });
});

describe('h-person2 (issue 24, "every inflection"): rules from the grammars', () => {
  const shared = (lang: string, a: string, b: string): string[] => {
    const tb = new Set(termsOf(b, lang));
    return termsOf(a, lang).filter((t) => tb.has(t));
  };

  it('Arabic doubled verbs: أحب / يحب and أعد / تعد meet on the doubled root', () => {
    expect(arabicPersonKeys('أحب')).toContain('حبب');
    expect(arabicPersonKeys('يحب')).toContain('حبب');
    expect(shared('ar', 'أعد', 'تعد')).toContain('عدد');
    expect(arabicPersonKeys('يوم')).toEqual(['يوم']); // a weak letter: no doubled reading
  });

  it('Hebrew hollow verbs: גרתי / גר and טסתי / טסה meet on the root with its ו', () => {
    expect(hebrewPersonKeys('גרתי')).toContain('גור');
    expect(hebrewPersonKeys('גר')).toContain('גור');
    expect(shared('he', 'טסתי', 'טסה')).toContain('טוס');
  });

  it('German ablaut: Präteritum and participle II meet the present', () => {
    expect(shared('de', 'trank', 'trinke').length).toBeGreaterThan(0);
    expect(shared('de', 'schrieb', 'schreibe').length).toBeGreaterThan(0);
    expect(shared('de', 'verlor', 'verloren').length).toBeGreaterThan(0);
    expect(shared('de', 'verlor', 'verliere').length).toBeGreaterThan(0);
    expect(shared('de', 'fuhr', 'fahre').length).toBeGreaterThan(0);
    expect(shared('de', 'sang', 'singe').length).toBeGreaterThan(0);
  });

  it('Russian: past tense, perfective prefix and 1st-singular consonant alternation', () => {
    expect(shared('ru', 'посмотрел', 'смотрит').length).toBeGreaterThan(0);
    expect(shared('ru', 'прочитала', 'читает').length).toBeGreaterThan(0);
    expect(shared('ru', 'отдыхала', 'отдыхает').length).toBeGreaterThan(0);
    expect(shared('ru', 'ношу', 'носит').length).toBeGreaterThan(0);
    expect(shared('ru', 'вожу', 'водит').length).toBeGreaterThan(0);
    expect(shared('ru', 'плачу', 'платит').length).toBeGreaterThan(0);
  });

  it('Hindi: irregular perfectives meet their verb; दिया is no stop word', () => {
    expect(hindiPersonKeys('दिया')).toEqual(['दे']);
    expect(shared('hi', 'दिया', 'दी')).toContain('दे');
    expect(shared('hi', 'पिया', 'पीती')).toContain('पी');
    expect(shared('hi', 'लिया', 'लेती')).toContain('ले');
  });

  it('stop lists: Korean 씨 and Japanese さん are stop words, content verbs are not', () => {
    expect(termsOf('씨는', 'ko')).toEqual([]);
    expect(termsOf('さん', 'ja')).toEqual([]);
    expect(termsOf('봐요', 'ko')).toContain('보'); // polite 요 is no particle
    expect(shared('tr', 'yapıyorum', 'yapıyor')).toContain('yap');
    expect(shared('pt', 'vendo', 'vende').length).toBeGreaterThan(0);
  });

  it('the namespace language decides a Turkish text English or Dutch trigrams misread; English stays English', () => {
    expect(detectLanguage('Her sabah denizde yüzüyorum.', 'tr')).toBe('tr');
    expect(detectLanguage('Üniversitede tarih okudum.', 'tr')).toBe('tr');
    expect(detectLanguage('Can: Elif çok güzel resim yapıyor.', 'tr')).toBe('tr');
    expect(detectLanguage('Her sister lives in Paris and she loves it.', 'tr')).toBe('en');
    expect(detectLanguage('Her sabah denizde yüzüyorum.', 'en')).toBe('en');
    expect(detectLanguage('Her sabah denizde yüzüyorum.')).toBe('en');
  });
});
