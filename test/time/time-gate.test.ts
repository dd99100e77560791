/**
 * The time gate (issue 25, src/util/time-gate.ts): `mayNameTime` is false only where chrono-node
 * finds nothing, so skipping chrono there changes no time reference and no question window; and
 * `timeChrono`, whose "ago" and "later" parsers run only where their patterns can match, gives
 * chrono's results. The word lists are checked against the installed chrono-node's own
 * dictionaries; the gates against chrono on every LoCoMo question and turn, on chrono's edge
 * forms (glued words, abbreviations after counts), and on generated texts that mix chrono's words
 * with filler.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as chrono from 'chrono-node';
import { describe, expect, it } from 'vitest';
import { loadLocomo } from '../../bench/lib/data.js';
import { AGO_NEED, GATE_MONTHS, GATE_NUMBER_WORDS, GATE_UNITS, GATE_WEEKDAYS, LATER_NEED, mayNameTime, timeChrono } from '../../src/util/time-gate.js';
import { extractTimeRefs } from '../../src/util/time.js';

const LOCOMO = process.env.JEV_MEM_LOCOMO_DATA || join(__dirname, '..', '..', '..', 'shared', 'data', 'locomo10.json');
/** Two references: the parse of a relative expression depends on it, whether it finds one does not. */
const REFS = [{ instant: new Date('2023-05-08T13:56:00Z'), timezone: 0 }, { instant: new Date('2026-12-04T22:00:00Z'), timezone: 540 }];

/** chrono's English constants, read from the installed package (its `exports` map hides them). */
function chronoConstants(): Record<string, Record<string, unknown>> {
  const require = createRequire(import.meta.url);
  return require(join(dirname(require.resolve('chrono-node')), 'locales', 'en', 'constants.js')) as Record<string, Record<string, unknown>>;
}

/** What a chrono result says: where, what, the instants, the certain components and the parsers' tags. */
function resultsOf(results: chrono.ParsedResult[]): unknown[] {
  const components = ['year', 'month', 'day', 'weekday', 'hour', 'minute', 'second'] as const;
  return results.map((r) => ({
    index: r.index,
    text: r.text,
    start: r.start.date().getTime(),
    end: r.end?.date().getTime(),
    certain: components.filter((k) => r.start.isCertain(k)),
    tags: [...r.tags()].sort(),
  }));
}

/** The texts of {@link generated}: chrono's words, counts, glue and filler. */
const PIECES = [
  ...GATE_MONTHS, ...GATE_WEEKDAYS, ...GATE_UNITS, ...GATE_NUMBER_WORDS, 'a', 'an', 'the', 'few', 'half', 'several', 'couple', 'of', 'in', 'on', 'for', 'within', 'about', 'around', 'this', 'last', 'past', 'next', 'after', 'before', 'ago', 'later', 'earlier', 'from now', 'out', 'forward', 'henceforth',
  'now', 'today', 'night', 'morning', 'noon', 'end', 'day', 'first', 'second', 'third', 'twenty', 'fifth', 'and', 'was', 'as', 'them', 'salmon', 'we', 'tea', '3', '12', '2.5', '2023', ',', '.', '-', '+', '~', '(', ')',
];

/** `count` texts of 2-6 {@link PIECES} joined by nothing, one or two spaces (a fixed pseudo-random sequence). */
function generated(count: number, seed: number): string[] {
  const next = (n: number): number => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.floor((seed / 2 ** 31) * n); // the high bits: the low ones of this generator repeat
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let t = '';
    const words = 2 + next(5);
    for (let w = 0; w < words; w++) t += (w > 0 ? ['', ' ', ' ', '  '][next(4)] : '') + (PIECES[next(PIECES.length)] as string);
    out.push(t);
  }
  return out;
}

/** True when the gate holds for `text`: where it says no, chrono finds nothing (for either reference). */
function gateHolds(text: string): boolean {
  return mayNameTime(text) || REFS.every((ref) => chrono.parse(text, ref).length === 0);
}

describe('mayNameTime', () => {
  it("lists chrono-node's own month, weekday, unit and number words", () => {
    const c = chronoConstants();
    const undotted = (d: Record<string, unknown>): string[] => [...new Set(Object.keys(d).map((k) => k.replace(/\.$/, '')))].sort();
    expect([...GATE_MONTHS].sort()).toEqual(undotted(c.MONTH_DICTIONARY as Record<string, unknown>));
    expect([...GATE_WEEKDAYS].filter((w) => !w.startsWith('week')).sort()).toEqual(undotted(c.WEEKDAY_DICTIONARY as Record<string, unknown>));
    expect([...GATE_UNITS].sort()).toEqual(undotted(c.TIME_UNIT_DICTIONARY as Record<string, unknown>));
    expect([...GATE_NUMBER_WORDS].sort()).toEqual(undotted(c.INTEGER_WORD_DICTIONARY as Record<string, unknown>));
  });

  it('is false for texts that name no time, and chrono agrees', () => {
    for (const t of ['What did Caroline research?', 'Who is Melanie’s favourite painter?', 'How does Jon feel about his dance studio?', 'Was he a fan of the series, as his sister was?', 'Simon ate salmon with lemon and thus was satisfied.', '']) {
      expect(mayNameTime(t), t).toBe(false);
      expect(REFS.every((ref) => chrono.parse(t, ref).length === 0), t).toBe(true);
    }
  });

  it('is true for every form chrono reads, glued and abbreviated ones included', () => {
    const read = [
      'in 2022', 'at 5pm', '2023-05-08', '5/8', 'in June', 'injune', 'on the fifth of May', 'fifthofmay', 'firstmay', 'May first', 'mayfirst', 'June,second',
      'on Friday', 'onfriday', 'lastfriday', 'Friday next week', 'fridaynext week', 'last weekend', 'yesterday', 'tonight', 'tmrw', 'lastnight', 'last night', 'thismorning', 'at noon',
      'end of the month', 'last day of the month', 'last month', 'next year', 'this week', 'after this week', 'afterthis week', 'past qtr', 'in a few days', 'within a couple of weeks',
      'for about an hour', 'in half an hour', 'ina d', 'next two weeks', '+a day', 'in one hourtwo minutes', 'two weeks ago', 'a day before', 'several years later', 'one hourtwo minutes ago', 'a couple of months from now', 'the day after',
    ];
    for (const t of read) {
      expect(mayNameTime(t), t).toBe(true);
      expect(gateHolds(t), t).toBe(true);
    }
    // and chrono does find a time in most of them (the gate is not vacuous)
    expect(read.filter((t) => chrono.parse(t, REFS[0]).length > 0).length).toBeGreaterThan(read.length * 0.8);
  });

  it.runIf(existsSync(LOCOMO))('holds on every LoCoMo question and turn (chrono finds nothing where it is false), and skips most of them', async () => {
    const data = await loadLocomo(LOCOMO);
    const texts = data.conversations.flatMap((c) => [...c.questions.map((q) => q.question), ...c.observations.map((o) => o.text)]);
    expect(texts.length).toBeGreaterThan(7800);
    const failing = texts.filter((t) => !gateHolds(t));
    expect(failing).toEqual([]);
    const questions = data.conversations.flatMap((c) => c.questions.map((q) => q.question));
    // 1,986 questions: chrono finds a time in 282 of them; the gate lets through only a few more
    const passed = questions.filter((q) => mayNameTime(q)).length;
    expect(passed).toBeGreaterThanOrEqual(282);
    expect(passed).toBeLessThan(questions.length * 0.3);
  });

  it('holds on generated texts mixing chrono words, number words, digits, glue and filler', () => {
    const texts = generated(4000, 25);
    expect(texts.filter((t) => !gateHolds(t))).toEqual([]);
    // and the texts are not all trivial: chrono finds a time in hundreds of them
    expect(texts.filter((t) => chrono.parse(t, REFS[0]).length > 0).length).toBeGreaterThan(150);
  });

  it('leaves extractTimeRefs unchanged: the same references with and without a time word', () => {
    const said = Date.parse('2023-05-08T13:56:00Z');
    expect(extractTimeRefs('What did Caroline research?', said)).toEqual([]);
    expect(extractTimeRefs('We went camping last weekend, in June.', said).map((r) => r.text)).toEqual(['last weekend', 'June']);
  });
});

describe('timeChrono', () => {
  const parserNamed = (name: string): chrono.Parser => {
    const p = chrono.casual.parsers.find((x) => x.constructor.name === name);
    if (p === undefined) throw new Error(`chrono.casual has no ${name}`);
    return p;
  };

  it("gates chrono's ago and later parsers and keeps every other parser and refiner", () => {
    expect(timeChrono.parsers.length).toBe(chrono.casual.parsers.length);
    expect(timeChrono.refiners).toEqual(chrono.casual.refiners);
    const names = chrono.casual.parsers.map((p) => p.constructor.name);
    const swapped = chrono.casual.parsers.map((p, i) => (timeChrono.parsers[i] === p ? undefined : names[i])).filter((n) => n !== undefined);
    expect(swapped).toEqual(['ENTimeUnitAgoFormatParser', 'ENTimeUnitLaterFormatParser']);
    // chrono.casual itself is left as it is
    expect(chrono.casual.parsers.every((p) => p.constructor.name !== 'Object')).toBe(true);
  });

  it("AGO_NEED and LATER_NEED find something wherever chrono's pattern of that parser matches", () => {
    const ago = parserNamed('ENTimeUnitAgoFormatParser');
    const later = parserNamed('ENTimeUnitLaterFormatParser');
    const texts = [...generated(5000, 7).flatMap((t) => [t, `${t} ago`, `${t}before`, `${t} later`, `${t}  out`]), 'two weeks ago', 'a day before', '3.5 hours earlier', 'one hourtwo minutes ago', 'several years later', 'a couple of months from now', 'the day after', '5 mins out', 'before she left', 'later that day'];
    let matched = 0;
    for (const text of texts) {
      const context = new chrono.ParsingContext(text, REFS[0]);
      for (const [parser, need] of [
        [ago, AGO_NEED],
        [later, LATER_NEED],
      ] as const) {
        const hit = parser.pattern(context).exec(text) !== null;
        if (hit) matched += 1;
        if (hit) expect(need.test(text), text).toBe(true);
      }
    }
    expect(matched).toBeGreaterThan(100);
    expect(AGO_NEED.test('before she left')).toBe(false);
    expect(LATER_NEED.test('later that day')).toBe(false);
  });

  it.runIf(existsSync(LOCOMO))("gives chrono's results on every LoCoMo question and turn and on generated texts", async () => {
    const data = await loadLocomo(LOCOMO);
    const texts = [...data.conversations.flatMap((c) => [...c.questions.map((q) => q.question), ...c.observations.map((o) => o.text)]), ...generated(4000, 11)];
    let found = 0;
    for (const text of texts) {
      const want = resultsOf(chrono.parse(text, REFS[0]));
      expect(resultsOf(timeChrono.parse(text, REFS[0])), text).toEqual(want);
      if (want.length > 0) found += 1;
    }
    expect(found).toBeGreaterThan(1000);
  });
});
