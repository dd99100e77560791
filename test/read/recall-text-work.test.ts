/**
 * The text work of one recall candidate (issue 22 / 25, stop 33): a candidate's text is tokenized
 * once for its terms, words and token count (read/node-text.ts), with the values of the direct
 * computations in every read order.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { MemoryNode } from '../../src/types.js';

vi.mock('../../src/plane/text/text.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/plane/text/text.js')>();
  return { ...real, tokenize: vi.fn(real.tokenize) };
});

const text = await import('../../src/plane/text/text.js');
const real = await vi.importActual<typeof import('../../src/plane/text/text.js')>('../../src/plane/text/text.js');
const { matchText, NodeTextFacts } = await import('../../src/read/node-text.js');

const tokenize = vi.mocked(text.tokenize);

function node(t: string, speaker?: string): MemoryNode {
  return { id: 'n', text: t, provenance: speaker === undefined ? {} : { speaker } } as unknown as MemoryNode;
}

beforeEach(() => {
  tokenize.mockClear();
});

describe('NodeTextFacts', () => {
  const cases: Array<[string, MemoryNode]> = [
    ['no speaker', node('My hobby is painting, painting birds.')],
    ['a role speaker', node('I can help with that.', 'assistant')],
    ['a named speaker (ASCII)', node("Caroline's LGBTQ group met in 2023!", 'Melanie')],
    ['a speaker with digits', node('beep boop 42 times', 'R2D2')],
    ['a speaker already at the start', node('Maya: I start my new job at Acme', 'Maya')],
    ['a non-ASCII speaker', node('Je suis allée à Paris', 'Zoë')],
    ['a non-ASCII text', node('我的猫叫小雪 and a café', 'Li')],
    ['an empty text', node('', 'Sam')],
  ];

  for (const [what, n] of cases) {
    it(`gives the direct values whatever the read order (${what})`, () => {
      const want = {
        terms: [...new Set(real.contentTerms(matchText(n)))],
        words: [...new Set(real.tokenize(matchText(n)))],
        tokens: real.tokenize(n.text).length,
      };
      const orders: Array<Array<'terms' | 'words' | 'tokens'>> = [
        ['terms', 'words', 'tokens'],
        ['tokens', 'terms', 'words'],
        ['words', 'tokens', 'terms'],
      ];
      for (const order of orders) {
        const facts = new NodeTextFacts(n);
        for (const part of order) {
          if (part === 'terms') expect([...facts.terms]).toEqual(want.terms);
          else if (part === 'words') expect(facts.words).toEqual(want.words);
          else expect(facts.tokens).toBe(want.tokens);
        }
      }
    });
  }

  it('takes the English stems from the namespace memo when given one, with the same terms (issue 25)', () => {
    for (const [, n] of cases) {
      const asked: string[] = [];
      const memo = (w: string): string | false => {
        asked.push(w);
        return real.isStopWord(w) ? false : real.stem(w);
      };
      const want = [...new Set(real.contentTerms(matchText(n)))];
      expect([...new NodeTextFacts(n).termsWith(memo)]).toEqual(want);
    }
    // English in ASCII: every content word is stemmed through the memo, none by the stemmer
    const asked: string[] = [];
    const facts = new NodeTextFacts(node('I went camping with the kids in June.', 'Melanie'));
    const terms = facts.termsWith((w) => {
      asked.push(w);
      return `memo:${w}`;
    });
    expect([...terms]).toEqual(['memo:melanie', 'memo:went', 'memo:camping', 'memo:kids', 'memo:june']);
    expect(asked).toEqual(['melanie', 'went', 'camping', 'kids', 'june']);
  });

  it('tokenizes a candidate’s text once for its terms, token count and words', () => {
    const n = node('I went camping with the kids in June.', 'Melanie');
    const facts = new NodeTextFacts(n);
    void facts.terms;
    void facts.tokens;
    void facts.words;
    expect(tokenize.mock.calls.filter(([t]) => t === n.text)).toHaveLength(0); // the text alone: not again
    expect(tokenize.mock.calls.filter(([t]) => t === matchText(n))).toHaveLength(1);
    expect(facts.tokens).toBe(8);
  });
});
