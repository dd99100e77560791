import { describe, expect, it } from 'vitest';
import { validateRequest, validateResponse } from '../../src/system-one/validate.js';
import { isJevMemError } from '../../src/errors.js';
import type { SystemOneRequest, SystemOneResponse } from '../../src/system-one/wire.js';

function fault(fn: () => unknown): { code: string; field: string | undefined; message: string } | undefined {
  try {
    fn();
  } catch (e) {
    if (!isJevMemError(e)) throw e;
    return { code: e.code, field: e.field, message: e.message };
  }
  return undefined;
}

const REQUEST: SystemOneRequest = {
  state: { kind: 'routing', query: 'q' },
  questions: {
    yes: { type: 'noul', instructions: 'Is it?' },
    pick: { type: 'choice', instructions: 'Which?', criteria: { a: 'the first', b: null, c: null } },
    rate: { type: 'score', instructions: 'How much?', criteria: ['none', 'some', 'a lot'] },
  },
};

function goodResponse(): SystemOneResponse {
  return {
    model: 'm@1',
    answers: {
      yes: { type: 'noul', noul: 0.8 },
      pick: { type: 'choice', choice: 'b', probabilities: { a: 0.2, b: 0.5, c: 0.3 }, confidence: 0.25 },
      rate: { type: 'score', score: 1.3, legend: { '0': 'none', '1': 'some', '2': 'a lot' }, probabilities: { '0': 0.2, '1': 0.3, '2': 0.5 }, confidence: 0.25 },
    },
    usage: { input_tokens: 10, output_tokens: 3 },
  };
}

describe('validateRequest', () => {
  it('returns a valid request unchanged', () => {
    expect(validateRequest(REQUEST)).toBe(REQUEST);
  });

  it('accepts string and array states', () => {
    expect(() => validateRequest({ ...REQUEST, state: 'text' })).not.toThrow();
    expect(() => validateRequest({ ...REQUEST, state: [1, 2] })).not.toThrow();
  });

  it('names the model field when it is not a string', () => {
    expect(fault(() => validateRequest({ ...REQUEST, model: 3 }))).toMatchObject({ code: 'SYSTEM_ONE_INVALID_REQUEST', field: 'model' });
  });

  it('names the label whose description is neither a string nor null', () => {
    const req = { state: 's', questions: { pick: { type: 'choice', instructions: 'Which?', criteria: { a: null, b: 7 } } } };
    expect(fault(() => validateRequest(req))).toMatchObject({ code: 'SYSTEM_ONE_INVALID_REQUEST', field: 'questions.pick.criteria.b' });
  });

  it('names the empty score level by index', () => {
    const req = { state: 's', questions: { rate: { type: 'score', instructions: 'How?', criteria: ['low', ''] } } };
    expect(fault(() => validateRequest(req))).toMatchObject({ field: 'questions.rate.criteria.1' });
  });

  it('says how many labels a too-small choice has', () => {
    const req = { state: 's', questions: { pick: { type: 'choice', instructions: 'Which?', criteria: { only: null } } } };
    expect(fault(() => validateRequest(req))?.message).toBe('questions.pick.criteria: expected 2-255 labels, got 1');
  });

  it('accepts exactly 255 labels and 10 levels', () => {
    const criteria = Object.fromEntries(Array.from({ length: 255 }, (_, i) => [`l${i}`, null]));
    const levels = Array.from({ length: 10 }, (_, i) => `level ${i}`);
    expect(() =>
      validateRequest({ state: 's', questions: { c: { type: 'choice', instructions: 'x', criteria }, s: { type: 'score', instructions: 'y', criteria: levels } } }),
    ).not.toThrow();
  });
});

describe('validateResponse', () => {
  it('returns a valid response unchanged', () => {
    const res = goodResponse();
    expect(validateResponse(REQUEST, res)).toBe(res);
  });

  it('accepts choice probabilities that sum to 1.01 (independent rounding)', () => {
    const res = goodResponse();
    res.answers.pick = { type: 'choice', choice: 'b', probabilities: { a: 0.34, b: 0.34, c: 0.33 }, confidence: 0.01 };
    expect(() => validateResponse(REQUEST, res)).not.toThrow();
  });

  const cases: Array<[string, (r: SystemOneResponse) => void, string]> = [
    ['a missing answer', (r) => delete r.answers.yes, 'answers.yes'],
    ['an answer of another type', (r) => (r.answers.yes = { type: 'choice', choice: 'a', probabilities: { a: 1 }, confidence: 1 }), 'answers.yes.type'],
    ['a noul above 1', (r) => (r.answers.yes = { type: 'noul', noul: 1.2 }), 'answers.yes.noul'],
    ['a choice probability over an unknown label', (r) => ((r.answers.pick as { probabilities: Record<string, number> }).probabilities = { a: 0.2, b: 0.5, d: 0.3 }), 'answers.pick.probabilities'],
    ['choice probabilities summing to 0.9', (r) => ((r.answers.pick as { probabilities: Record<string, number> }).probabilities = { a: 0.2, b: 0.4, c: 0.3 }), 'answers.pick.probabilities'],
    ['a choice that is not the argmax', (r) => ((r.answers.pick as { choice: string }).choice = 'c'), 'answers.pick.choice'],
    ['a choice that is not a label', (r) => ((r.answers.pick as { choice: string }).choice = 'z'), 'answers.pick.choice'],
    ['a confidence above 1', (r) => ((r.answers.pick as { confidence: number }).confidence = 1.5), 'answers.pick.confidence'],
    ['score probabilities keyed by level text', (r) => ((r.answers.rate as { probabilities: Record<string, number> }).probabilities = { none: 0.2, some: 0.3, 'a lot': 0.5 }), 'answers.rate.probabilities'],
    ['a score above n − 1', (r) => ((r.answers.rate as { score: number }).score = 2.5), 'answers.rate.score'],
    ['a score far from Σ i·p_i (1.3)', (r) => ((r.answers.rate as { score: number }).score = 0.5), 'answers.rate.score'],
    ['a missing legend', (r) => delete (r.answers.rate as { legend?: unknown }).legend, 'answers.rate.legend'],
    ['a missing model id', (r) => ((r as { model: string }).model = ''), 'model'],
    ['negative usage', (r) => (r.usage.input_tokens = -1), 'usage.input_tokens'],
  ];
  for (const [what, mutate, field] of cases) {
    it(`fails with SYSTEM_ONE_FAILED on ${what}`, () => {
      const res = goodResponse();
      mutate(res);
      const f = fault(() => validateResponse(REQUEST, res));
      expect(f).toMatchObject({ code: 'SYSTEM_ONE_FAILED', field });
      expect(f?.message.startsWith('invalid answer')).toBe(true);
    });
  }

  it('fails on a response that is not an object', () => {
    expect(fault(() => validateResponse(REQUEST, 'ok'))).toMatchObject({ code: 'SYSTEM_ONE_FAILED', field: 'response' });
  });
});
