/**
 * Cheap tests that spare chrono-node's costly patterns where they cannot match (issue 25: a
 * fresh process spends ~120 ms of CPU on chrono's first two parses, mostly V8 compiling the
 * patterns of its "… ago" and "… later" parsers to machine code at their second run; most
 * questions and turns name no time at all).
 *
 * - {@link mayNameTime}: false only when none of the parsers of `chrono.parse` (the casual
 *   English configuration of chrono-node 2.10.3, no options: not `forwardDate`) can match the
 *   text, so skipping chrono on such a text gives the same results, the empty list. It is a
 *   necessary condition, not a parse: true does not mean chrono finds a time ("in them", "may be").
 * - {@link timeChrono}: chrono's casual English parser, the same parsers and refiners, except that
 *   the "… ago / before / earlier" and "… later / after / from now" parsers run only on a text
 *   where a count of a time unit comes before one of their words ({@link AGO_NEED},
 *   {@link LATER_NEED}); elsewhere their patterns cannot match, so its results are chrono's.
 *
 * Each rule of {@link mayNameTime} stands for the parsers whose pattern needs what it tests (chrono wraps most of
 * them in a `(\W|^)` left boundary; a parser only runs again after a first match in the whole
 * text, so a first match is needed). When the text has no digit, the parsers that need one
 * (ISO, year-month-day, slash dates, times of day, a year with a month name) cannot match and
 * the rest need one of:
 * - a month name or abbreviation (month-name, little- and middle-endian parsers), after a word
 *   boundary, `in`, `of` or an ordinal word's end, before a boundary, `of` or an ordinal word;
 * - a weekday name, `weekend` or `weekday`, after a boundary, `on`, `this`, `last`, `past` or
 *   `next`, before a boundary or `of`, `this`, `last`, `past`, `next`;
 * - a casual day (`now`, `today`, `tonight`, `tomorrow`, `yesterday`, …) or part of the day
 *   (`morning`, `night`, `noon`, …) as a word (`this morning`, `lastnight`);
 * - `end of (the) month`, `last day of the month`;
 * - `this`/`last`/`past`/`next`/`after this` before a time unit (`last month`), or a count of a
 *   unit (`a few days`, `the week`, `half an hour`) after `in`/`within`/`for`/`this`/`last`/
 *   `past`/`next`/`after`/`+`/`-`, or before `ago`/`before`/`earlier`/`later`/`after`/
 *   `from now`/`henceforth`/`forward`/`out`.
 *
 * The word lists are chrono-node's (`locales/en/constants.js`); test/time/time-gate.test.ts
 * checks them against the installed chrono-node and checks on every LoCoMo question and turn,
 * and on generated texts, that chrono finds nothing where this is false.
 *
 * @module
 */
import * as chrono from 'chrono-node';

/** chrono's month names and abbreviations (`MONTH_DICTIONARY`, the dots left to the boundary). */
export const GATE_MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec'] as const;
/** chrono's weekday names and abbreviations (`WEEKDAY_DICTIONARY`), with the weekday parser's `weekend` and `weekday`. */
export const GATE_WEEKDAYS = ['sunday', 'sun', 'monday', 'mon', 'tuesday', 'tue', 'wednesday', 'wed', 'thursday', 'thurs', 'thur', 'thu', 'friday', 'fri', 'saturday', 'sat', 'weekend', 'weekday'] as const;
/** chrono's time units with their abbreviations (`TIME_UNIT_DICTIONARY`). */
export const GATE_UNITS = ['s', 'sec', 'second', 'seconds', 'm', 'min', 'mins', 'minute', 'minutes', 'h', 'hr', 'hrs', 'hour', 'hours', 'd', 'day', 'days', 'w', 'week', 'weeks', 'mo', 'mon', 'mos', 'month', 'months', 'qtr', 'quarter', 'quarters', 'y', 'yr', 'year', 'years'] as const;
/** chrono's number words (`INTEGER_WORD_DICTIONARY`). */
export const GATE_NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'] as const;
/** The first letters of chrono's ordinal words (`ORDINAL_WORD_DICTIONARY`: `first` … `thirty-first`), enough to find where one may start. */
const ORDINAL_STARTS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'eleventh', 'twelfth', 'thirt', 'fourt', 'fift', 'sixt', 'sevent', 'eight', 'ninet', 'twent'];

/** Longest first, as chrono's `matchAnyPattern`. */
const any = (words: readonly string[]): string => `(?:${[...words].sort((a, b) => b.length - a.length).join('|')})`;

/** chrono's `NUMBER_PATTERN` (the digits apart: a text with a digit always passes). */
const NUMBER = `(?:${any(GATE_NUMBER_WORDS)}|half(?:\\s{0,2}an?)?|an?\\b(?:\\s{0,2}few)?|few|several|the|a?\\s{0,2}couple\\s{0,2}(?:of)?)`;
/** Where a further `<number> <unit>` of a run may start (after the first unit, chrono's connector can be empty). */
const NUMBER_START = `(?:${any(GATE_NUMBER_WORDS)}|half|an?|few|several|the|couple)`;
const UNIT = any(GATE_UNITS);
/** A count of a unit as the "ago" and "later" parsers end it (chrono's `NUMBER_PATTERN`, digits included, and a unit), right before their words. */
const COUNT_BEFORE = `(?:${NUMBER}|[0-9]+(?:\\.[0-9]+)?)\\s{0,3}${UNIT}\\s{0,5}`;

const RULES: readonly RegExp[] = [
  /[0-9]/,
  new RegExp(`(?<=^|\\W|in|of|st|nd|rd|th)${any(GATE_MONTHS)}(?=\\W|$|of|${any(ORDINAL_STARTS)})`, 'i'),
  new RegExp(`(?<=^|\\W|on|this|last|past|next)${any(GATE_WEEKDAYS)}(?=\\W|$|of|this|last|past|next)`, 'i'),
  /(?<=^|\W)(?:now|today|tonight|tomorrow|overmorrow|tmrw|tmr|yesterday)(?=\W|$)/i,
  /(?<=^|\W|this|last)(?:morning|afternoon|evening|night|midnight|midday|noon)(?=\W|$)/i,
  /(?:last\s+day|end)\s+of\s+(?:the\s+)?month(?=\W|$)/i,
  new RegExp(`(?<=^|\\W)(?:this|last|past|next|after\\s*this)\\s*${UNIT}(?=\\W|$)`, 'i'),
  new RegExp(
    `(?:(?<=^|\\W)(?:within|in|for|this|last|past|next|after)|[+-])\\s*(?:(?:about|around|roughly|approximately|just)\\s*(?:~\\s*)?)?(?:(?:about|around)\\s{0,3})?${NUMBER}\\s{0,3}${UNIT}(?=\\W|$|and|${NUMBER_START})`,
    'i',
  ),
  new RegExp(`${NUMBER}\\s{0,3}${UNIT}\\s{0,5}(?:ago|before|earlier|later|after|from now|henceforth|forward|out)(?=\\W|$)`, 'i'),
];

/** What chrono's `ENTimeUnitAgoFormatParser` needs: its pattern ends `(TIME_UNITS)\s{0,5}(?:ago|before|earlier)(?=\W|$)`. */
export const AGO_NEED = new RegExp(`${COUNT_BEFORE}(?:ago|before|earlier)(?=\\W|$)`, 'i');
/** What chrono's `ENTimeUnitLaterFormatParser` needs: its pattern ends `(TIME_UNITS)\s{0,5}(?:later|after|from now|henceforth|forward|out)(?=\W|$)`. */
export const LATER_NEED = new RegExp(`${COUNT_BEFORE}(?:later|after|from now|henceforth|forward|out)(?=\\W|$)`, 'i');

/** The parsers of chrono's casual configuration run only on texts that pass a test, by class name. */
const PARSER_NEEDS: Readonly<Record<string, RegExp>> = { ENTimeUnitAgoFormatParser: AGO_NEED, ENTimeUnitLaterFormatParser: LATER_NEED };
/** A pattern that matches nothing. */
const NEVER = /(?!)/;

/** `parser`, run only on a text `need` finds something in (its pattern is not even executed elsewhere). */
function gated(parser: chrono.Parser, need: RegExp): chrono.Parser {
  return {
    pattern: (context) => (need.test(context.text) ? parser.pattern(context) : NEVER),
    extract: (context, match) => parser.extract(context, match),
  };
}

/**
 * chrono-node's casual English parser (`chrono.casual`, what `chrono.parse` uses), its "ago" and
 * "later" parsers gated ({@link AGO_NEED}, {@link LATER_NEED}): the same results as
 * `chrono.parse`. A parser is found by its class name; under a bundler that renames classes it
 * is left as it is (the same results, without the saving).
 */
export const timeChrono: chrono.Chrono = (() => {
  const c = chrono.casual.clone();
  c.parsers = c.parsers.map((p) => {
    const need = PARSER_NEEDS[p.constructor.name];
    return need === undefined ? p : gated(p, need);
  });
  return c;
})();

/**
 * False when `chrono.parse(text, ref)` (chrono-node's casual English parsers, no options) can
 * find no time expression in `text`, whatever the reference; true when it may (see the module
 * notes). O(text length).
 */
export function mayNameTime(text: string): boolean {
  for (const rule of RULES) if (rule.test(text)) return true;
  return false;
}
