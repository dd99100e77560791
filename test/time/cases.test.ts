/**
 * Issue 14's test set (bench/time/cases.ts, ≥ 150 hand-written cases with hand-computed expected
 * values): time zones, year-less dates, weekdays, relative expressions and state changes, each
 * run through the library's own code by bench/time/time.ts. `npm run bench -- time` prints the
 * same cases as a table by kind.
 */
import { describe, expect, it } from 'vitest';
import { TIME_CASES, type StateCase, type TimeExprCase } from '../../bench/time/cases.js';
import { auc, runTimeCase } from '../../bench/time/time.js';
import { isArrangement, tenseOf } from '../../src/util/time.js';

describe('the time-and-change test set', () => {
  it('has at least 150 cases, covering every kind and every kind of state', () => {
    expect(TIME_CASES.length).toBeGreaterThanOrEqual(150);
    const kinds = new Set(TIME_CASES.map((c) => c.kind));
    expect([...kinds].sort()).toEqual(['relative', 'state', 'timezone', 'weekday', 'yearless']);
    const states = TIME_CASES.filter((c): c is StateCase => c.kind === 'state');
    for (const about of ['lives', 'works', 'relationship', 'owns', 'schedule', 'preference', 'contact', 'plan'] as const) {
      expect(states.filter((c) => c.about === about && c.update).length, about).toBeGreaterThan(0);
      expect(states.filter((c) => c.about === about && !c.update).length, about).toBeGreaterThan(0);
    }
  });

  for (const kind of ['timezone', 'yearless', 'weekday', 'relative'] as const) {
    describe(kind, () => {
      const cases = TIME_CASES.filter((c): c is TimeExprCase => c.kind === kind);
      it.each(cases.map((c) => [`${c.text} @ ${c.at ?? '-'}${c.tz ? ` ${c.tz}` : ''} → ${c.when ?? 'none'}`, c] as const))('%s', (_name, c) => {
        const r = runTimeCase(c);
        expect(r.ok, r.got).toBe(true);
      });
    });
  }

  describe('state', () => {
    const cases = TIME_CASES.filter((c): c is StateCase => c.kind === 'state');
    it.each(cases.map((c) => [`${c.about}: "${c.older}" → "${c.newer}" = ${c.update ? 'update' : 'no update'}`, c] as const))('%s', (_name, c) => {
      const r = runTimeCase(c);
      expect(r.ok, r.got).toBe(true);
    });
  });
});

describe('tense rules', () => {
  it.each([
    ['we went to Lisbon', 'past'],
    ['my niece was born', 'past'],
    ['we finished it', 'past'],
    ['we will go', 'future'],
    ["I'll call her", 'future'],
    ['I am going to run', 'future'],
    ['I was told we will go', 'future'],
    ['the concert is on Friday', 'none'],
    ['I am excited about it', 'none'],
    ["I'm planning a trip to Japan", 'future'],
    ["we're flying to Lisbon", 'future'],
    ['I am going to the concert', 'future'],
    ['I was working a lot', 'past'],
    ['she is a running coach', 'none'],
    ['the view is amazing in May', 'none'],
    ['I am amazing at chess', 'none'],
  ] as const)('%s → %s', (s, t) => expect(tenseOf(s)).toBe(t));
});

describe('present-tense arrangements', () => {
  it.each([
    ['The meeting is on Friday', true],
    ['Her birthday party is in October', true],
    ["it's at 7pm on Friday", true],
    ['the talk is scheduled for Monday', true],
    ['We have a team dinner on Friday', true],
    ['she has the interview on Monday', true],
    ['the course starts on Monday', true],
    ['she arrives on Thursday', true],
    ['the view is amazing in May', false],
    ['I have to call her on Friday', false],
    ['the start of May is busy', false],
    ['dinner on Friday', false],
    ['I like to swim on Friday', false],
  ] as const)('%s → %s', (s, v) => expect(isArrangement(s)).toBe(v));
});

describe('auc', () => {
  it('is 1 for a perfect order, 0.5 for all ties, and counts ties one half', () => {
    expect(auc([0.9, 0.8, 0.1], [true, true, false])).toBe(1);
    expect(auc([0.5, 0.5], [true, false])).toBe(0.5);
    // pos 0.9 beats neg 0.2, ties neg 0.9: (1 + 0.5) / 2
    expect(auc([0.9, 0.2, 0.9], [true, false, false])).toBe(0.75);
  });
});
