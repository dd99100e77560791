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

describe('answerCues', () => {
  const texts = [
    'Yesterday Caroline and Melanie went hiking near Boulder in June 2023.',
    'I ran 5 km on Monday, two weeks ago; may 3 was last year?',
    'May I ask? It was in May, on the 4th of march 1999 — last time!',
    '我的猫叫小雪 and a café in Zürich on 12 Dec',
    '',
  ];
  it('counts what textCues counts of a candidate’s answer evidence (issue 25)', async () => {
    const { answerCues } = await import('../../src/system-one/features.js');
    for (const t of texts) {
      const full = textCues(t);
      const a = answerCues(t);
      for (const k of ['questionMark', 'dateWords', 'months', 'years', 'weekdays', 'numbers', 'agoLast', 'capitalised'] as const) {
        expect([t, k, a[k]]).toEqual([t, k, full[k]]);
      }
    }
    const a = answerCues('I ran 5 km on Monday, two weeks ago; may 3 was last year?');
    expect([a.questionMark, a.numbers, a.weekdays, a.months, a.agoLast]).toEqual([1, 2, 1, 1, 2]);
  });

  it('a featurizer’s candidate rows equal the plain ones, and evict() drops the texts from both of its caches', async () => {
    const { candidateFeatures, createFeaturizer } = await import('../../src/system-one/features.js');
    const { readGroupState } = await import('../../src/system-one/validate.js');
    const f = createFeaturizer({ cueCacheSize: 8 });
    for (const t of texts) {
      for (const query of ['When did Caroline go hiking?', 'Who went to Boulder?', 'How many km did I run?']) {
        const state = { kind: 'candidates' as const, query, candidates: [{ ref: 'c1', text: t, signals: { cosine: 0.5, hops: 0 } }] };
        const typed = readGroupState('candidates', state);
        expect([...f.features('candidates', typed, 'c1')]).toEqual([...candidateFeatures(typed, 'c1')]);
      }
    }
    capitalised.mockClear();
    const state = readGroupState('candidates', { kind: 'candidates', query: 'Who went to Boulder?', candidates: [{ ref: 'c1', text: texts[0], signals: {} }] });
    f.features('candidates', state, 'c1');
    expect(capitalised).not.toHaveBeenCalled(); // cached
    f.evict?.([texts[0] as string]);
    f.features('candidates', state, 'c1');
    expect(capitalised).toHaveBeenCalledTimes(1); // read again after the eviction
  });
});
