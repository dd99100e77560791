/**
 * Character n-grams of Chinese, Japanese and Korean words (issue 24). `Intl.Segmenter` cuts
 * Chinese and Japanese into dictionary words, so a one-character query ("猫") misses the word
 * "猫咪" or the segment "猫叫", and a short query misses a word the dictionary cut differently
 * ("养的" / "养了"). Beside each word's own term, the index gets the unigrams and bigrams of its
 * runs of Han, kana and Hangul characters (the scheme of Lucene's CJK bigram analyser, with
 * unigrams kept so that one-character queries match): "猫咪" → "猫", "咪" (the bigram is the
 * word itself). Unigrams that are stop words of the language ("的", "の") are left out.
 *
 * @module
 */

const CJK_RUN = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}ー]+/gu;
const CJK_CHAR = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}]/u;

/** True when `token` holds a Han, kana or Hangul character. */
export function hasCjk(token: string): boolean {
  return CJK_CHAR.test(token);
}

/**
 * The unigrams and bigrams of the Han / kana / Hangul runs of a token, in order, no repeats,
 * without the token itself and without unigrams in `stop`.
 * `"波斯猫"` → `["波", "斯", "猫", "波斯", "斯猫"]`.
 */
export function cjkNgrams(token: string, stop: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const add = (g: string): void => {
    if (g !== token && !out.includes(g)) out.push(g);
  };
  for (const m of token.matchAll(CJK_RUN)) {
    const chars = Array.from(m[0]);
    for (const c of chars) if (!stop.has(c) && c !== 'ー') add(c);
    for (let i = 0; i + 1 < chars.length; i += 1) add(chars[i]! + chars[i + 1]!);
  }
  return out;
}
