/**
 * The System-One text cues of a text (issue 25, stop 33) compute the parts the read path's
 * candidate rows never read (the stemmed term set) or read only for who/where questions (the
 * capitalised names) at their first read, once, with the same values.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../src/plane/text/text.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/plane/text/text.js')>();
  return { ...real, contentTerms: vi.fn(real.contentTerms), midSentenceCapitalised: vi.fn(real.midSentenceCapitalised) };
});

const text = await import('../../src/plane/text/text.js');
const real = await vi.importActual<typeof import('../../src/plane/text/text.js')>('../../src/plane/text/text.js');
const { textCues } = await import('../../src/system-one/features.js');

const contentTerms = vi.mocked(text.contentTerms);
const capitalised = vi.mocked(text.midSentenceCapitalised);

beforeEach(() => {
  contentTerms.mockClear();
  capitalised.mockClear();
});

describe('textCues', () => {
  it('computes the term set and the capitalised names at their first read only, with the same values', () => {
    const t = 'Yesterday Caroline and Melanie went hiking near Boulder in June 2023.';
    const c = textCues(t);
    expect(contentTerms).not.toHaveBeenCalled();
    expect(capitalised).not.toHaveBeenCalled();
    expect(c.words).toBe(11);
    expect(c.years).toBe(1);
    expect([...c.termSet]).toEqual(['yesterdai', 'carolin', 'melani', 'went', 'hike', 'near', 'boulder', 'june', '2023']);
    expect([...c.termSet]).toEqual([...new Set(real.contentTerms(t))]);
    expect(contentTerms).toHaveBeenCalledTimes(1);
    expect(c.capitalised).toBe(4);
    expect([...c.nameSet]).toEqual(['caroline', 'melanie', 'boulder', 'june']);
    expect(capitalised).toHaveBeenCalledTimes(1);
    void c.termSet;
    void c.nameSet;
    expect(contentTerms).toHaveBeenCalledTimes(1);
    expect(capitalised).toHaveBeenCalledTimes(1);
  });
});
