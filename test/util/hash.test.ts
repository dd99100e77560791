/**
 * textKey computes hash53's two lanes in one pass over the text (issue 22: it runs at every
 * cache lookup); its key must stay the one the two separate hashes give.
 */
import { describe, expect, it } from 'vitest';
import { hash53, textKey } from '../../src/util/hash.js';

describe('textKey', () => {
  it('is hash53 with seeds 0 and 0x9e3779b9 and the length, in base 36, for any text', () => {
    const texts = ['', 'a', 'Caroline went to the LGBTQ support group yesterday.', 'Ünïcödé – 日本語のテキスト 🙂', 'x'.repeat(5000)];
    for (const t of texts) expect(textKey(t)).toBe(`${hash53(t).toString(36)}.${hash53(t, 0x9e3779b9).toString(36)}.${t.length.toString(36)}`);
    // 2,000 more texts: their hashes cover every digit count (a 53-bit hash below 36⁵ is rare,
    // so small ones are checked through the lengths, which are formatted the same way).
    for (let i = 0; i < 2000; i++) {
      const t = `turn ${i}: ${'ab'.repeat(i % 7)}`;
      expect(textKey(t)).toBe(`${hash53(t).toString(36)}.${hash53(t, 0x9e3779b9).toString(36)}.${t.length.toString(36)}`);
    }
  });

  it('hash53 keeps its known value (cyrb53 of "a" with seed 0)', () => {
    // cyrb53('a') as the public-domain reference implementation gives it.
    expect(hash53('a')).toBe(7929297801672961);
  });
});
