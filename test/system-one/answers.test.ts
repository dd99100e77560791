import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  answerFromProbabilities,
  choiceAnswer,
  confidence,
  noulAnswer,
  normalise,
  roundProbabilities,
  scoreAnswer,
  sigmoid,
  softmax,
} from '../../src/system-one/answers.js';
import { isJevMemError } from '../../src/errors.js';
import type { ChoiceQuestion, ScoreQuestion } from '../../src/system-one/wire.js';

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isJevMemError(e) ? e.code : 'not a JevMemError';
  }
  return undefined;
}

describe('softmax and sigmoid', () => {
  it('softmax([0, ln 3]) = [0.25, 0.75]', () => {
    const [a, b] = softmax([0, Math.log(3)]);
    expect(a).toBeCloseTo(0.25, 12);
    expect(b).toBeCloseTo(0.75, 12);
  });

  it('softmax stays finite for large logits', () => {
    expect(softmax([1000, 1000])).toEqual([0.5, 0.5]);
  });

  it('softmax refuses non-finite logits', () => {
    expect(code(() => softmax([0, Number.NaN]))).toBe('SYSTEM_ONE_FAILED');
  });

  it('sigmoid(ln 3) = 0.75 and sigmoid(0) = 0.5', () => {
    expect(sigmoid(Math.log(3))).toBeCloseTo(0.75, 12);
    expect(sigmoid(0)).toBe(0.5);
  });

  it('sigmoid saturates to 0 and 1 without NaN', () => {
    expect(sigmoid(-1000)).toBe(0);
    expect(sigmoid(1000)).toBe(1);
  });

  it('normalise divides weights by their sum and refuses negatives', () => {
    expect(normalise([2, 1, 1])).toEqual([0.5, 0.25, 0.25]);
    expect(code(() => normalise([1, -1]))).toBe('SYSTEM_ONE_FAILED');
    expect(code(() => normalise([0, 0]))).toBe('SYSTEM_ONE_FAILED');
  });
});

describe('confidence = clip((max p − 1/k)/(1 − 1/k), 0, 1)', () => {
  it('is 0 for a uniform distribution', () => {
    expect(confidence([0.25, 0.25, 0.25, 0.25])).toBe(0);
  });

  it('is 1 when one option has all the mass', () => {
    expect(confidence([0, 1, 0])).toBe(1);
  });

  it('(0.7 − 1/3)/(2/3) = 0.55 for [0.7, 0.2, 0.1]', () => {
    expect(confidence([0.7, 0.2, 0.1])).toBe(0.55);
  });

  it('(0.6 − 0.5)/0.5 = 0.2 for [0.6, 0.4]', () => {
    expect(confidence([0.6, 0.4])).toBe(0.2);
  });
});

describe('roundProbabilities', () => {
  it('rounds to hundredths that sum to 1.00: [1/3, 1/3, 1/3] → [0.34, 0.33, 0.33]', () => {
    expect(roundProbabilities([1 / 3, 1 / 3, 1 / 3])).toEqual([0.34, 0.33, 0.33]);
  });

  it('keeps the argmax maximal where rounding each value would overshoot to 1.01', () => {
    // Plain rounding gives 26 + 26 + 25 + 24 = 101 hundredths; taking the extra hundredth from the
    // largest would leave 0.25 < 0.26 for the argmax. Largest remainders: floors 25,25,24,24,
    // two leftovers to the remainders .51 and .50 (the tie goes to the larger probability).
    expect(roundProbabilities([0.2551, 0.255, 0.245, 0.2449])).toEqual([0.26, 0.26, 0.24, 0.24]);
  });

  it('absorbs binary error (0.29 · 100 = 28.999…)', () => {
    expect(roundProbabilities([0.29, 0.71])).toEqual([0.29, 0.71]);
  });

  it('sums to exactly 100 hundredths, keeps order and has 2 decimals for any distribution', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 2, maxLength: 40 }), (weights) => {
        fc.pre(weights.reduce((a, b) => a + b, 0) > 1e-6);
        const p = normalise(weights);
        const r = roundProbabilities(p);
        const cents = r.map((x) => Math.round(x * 100));
        expect(cents.reduce((a, b) => a + b, 0)).toBe(100);
        r.forEach((x, i) => expect(Math.abs(x * 100 - cents[i]!)).toBeLessThan(1e-9));
        for (let i = 0; i < p.length; i++) for (let j = 0; j < p.length; j++) if (p[i]! > p[j]!) expect(r[i]!).toBeGreaterThanOrEqual(r[j]!);
      }),
    );
  });
});

describe('noulAnswer', () => {
  it('rounds P(true) to 2 decimals and has no confidence', () => {
    expect(noulAnswer(0.736)).toEqual({ type: 'noul', noul: 0.74 });
  });

  it('clips values outside [0,1]', () => {
    expect(noulAnswer(1.2).noul).toBe(1);
    expect(noulAnswer(-0.1).noul).toBe(0);
  });

  it('refuses NaN', () => {
    expect(code(() => noulAnswer(Number.NaN))).toBe('SYSTEM_ONE_FAILED');
  });
});

describe('choiceAnswer', () => {
  it('gives the labels, the argmax and the confidence for [0.7, 0.2, 0.1]', () => {
    expect(choiceAnswer(['a', 'b', 'c'], [0.7, 0.2, 0.1])).toEqual({
      type: 'choice',
      choice: 'a',
      probabilities: { a: 0.7, b: 0.2, c: 0.1 },
      confidence: 0.55,
    });
  });

  it('normalises weights: [2, 1, 1] → 0.5 / 0.25 / 0.25, confidence 0.25', () => {
    const a = choiceAnswer(['x', 'y', 'z'], [2, 1, 1]);
    expect(a.probabilities).toEqual({ x: 0.5, y: 0.25, z: 0.25 });
    expect(a.confidence).toBe(0.25);
  });

  it('reads logits through softmax: [0, ln 3] → 0.25 / 0.75, choice b, confidence 0.5', () => {
    expect(choiceAnswer(['a', 'b'], [0, Math.log(3)], { input: 'logits' })).toEqual({
      type: 'choice',
      choice: 'b',
      probabilities: { a: 0.25, b: 0.75 },
      confidence: 0.5,
    });
  });

  it('breaks ties toward the earliest label', () => {
    expect(choiceAnswer(['first', 'second'], [0.5, 0.5]).choice).toBe('first');
  });

  it('refuses a value count that differs from the label count', () => {
    expect(code(() => choiceAnswer(['a', 'b'], [1]))).toBe('SYSTEM_ONE_FAILED');
  });
});

describe('scoreAnswer', () => {
  it('score = Σ i·p_i: [0.2, 0.3, 0.5] → 0·0.2 + 1·0.3 + 2·0.5 = 1.3', () => {
    expect(scoreAnswer(['low', 'mid', 'high'], [0.2, 0.3, 0.5])).toEqual({
      type: 'score',
      score: 1.3,
      legend: { '0': 'low', '1': 'mid', '2': 'high' },
      probabilities: { '0': 0.2, '1': 0.3, '2': 0.5 },
      confidence: 0.25,
    });
  });

  it('computes the score from the rounded probabilities: thirds over 3 levels → 0·0.34 + 1·0.33 + 2·0.33 = 0.99', () => {
    expect(scoreAnswer(['a', 'b', 'c'], [1, 1, 1]).score).toBe(0.99);
  });
});

describe('answerFromProbabilities', () => {
  const choice: ChoiceQuestion = { type: 'choice', instructions: 'pick', criteria: { keep: null, merge: 'merge them', promote: null } };
  const score: ScoreQuestion = { type: 'score', instructions: 'rate', criteria: ['no', 'yes'] };

  it('reads [P(true)] for a noul question', () => {
    expect(answerFromProbabilities({ type: 'noul', instructions: 'yes?' }, [0.3])).toEqual({ type: 'noul', noul: 0.3 });
  });

  it('refuses more than one value for a noul question', () => {
    expect(code(() => answerFromProbabilities({ type: 'noul', instructions: 'yes?' }, [0.3, 0.7]))).toBe('SYSTEM_ONE_FAILED');
  });

  it('maps values to choice labels in criteria order', () => {
    const a = answerFromProbabilities(choice, [0.1, 0.6, 0.3]);
    expect(a).toMatchObject({ type: 'choice', choice: 'merge', probabilities: { keep: 0.1, merge: 0.6, promote: 0.3 } });
  });

  it('maps values to score levels', () => {
    expect(answerFromProbabilities(score, [0.25, 0.75])).toMatchObject({ type: 'score', score: 0.75, probabilities: { '0': 0.25, '1': 0.75 } });
  });
});
