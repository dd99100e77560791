/**
 * Timestamps and time expressions (SPEC 3: `observedAt`, `timeRefs`). Dates are parsed with
 * chrono-node. Instants are stored in UTC (so ordering never depends on a zone); the speaker's
 * UTC offset or IANA zone is kept next to the instant (`utcOffsetMinutes`, `timeZone`), and
 * relative expressions ("this morning", "yesterday", "tonight") resolve in that local calendar.
 * An instant written without an offset (`2024-03-10T07:30:00`) is UTC, and so is its calendar.
 *
 * Dates without a year ("on 14 August", "in August") and bare weekdays ("on Friday") are resolved
 * by the tense of the sentence ({@link tenseOf}): past → the most recent such date not after the
 * observation's local day (a month: that began by then); future → the next one not before it (a
 * month: that has not ended; a bare weekday: strictly after the day, since "on Friday" said on a
 * Friday means the next one); no tense → the nearest one (chrono's choice), except that a
 * present-tense arrangement ("the meeting is on Friday", "I have an exam on 3 March", "the course
 * starts in May"; {@link isArrangement}) reads as the future: a plan stated in the present is
 * still to come, even when the nearest such date is past ("my flight is on 3 March" said on 10
 * March 2024 → 2025-03-03; a past flight would be told with *was*). Their `certainty` is lowered
 * instead of pretending to know ({@link CERTAINTY}).
 *
 * Month- and year-relative expressions ("last month", "in 3 months", "next year", "two years
 * ago") resolve to the whole calendar month or year, counted from the observation's local month
 * (said on 31 March, "last month" is February, never March). Week expressions ("this / last /
 * next week", "two weeks ago", "in 3 weeks") resolve to the whole ISO week, Monday–Sunday of the
 * local calendar; weekend expressions ("this / last / next weekend", "over the weekend") to its
 * Saturday–Sunday, chosen by the rules of `resolveWeekend` below.
 *
 * A recurring expression ("every Monday", "each Friday", "on Tuesday evenings") names no one day:
 * it gives no time reference (chrono alone would anchor it to the nearest such day). A reference's
 * `text` is the expression as written, without the comma or colon chrono takes along.
 *
 * Instants, offsets, zones and the local calendar are in instant.ts, the tense rules in tense.ts;
 * this module re-exports their public names.
 *
 * @module
 */
import * as chrono from 'chrono-node';
import type { TimeRef } from '../types.js';
import { DAY_MS, MINUTE_MS, addMonths, localFields, localMidnight, shiftYears, toIso, ymd, zoneOffsetMinutes } from './instant.js';
import { isArrangement, sentenceAt, tenseOf } from './tense.js';
import { textWindows } from './text-windows.js';
import { mayNameTime, timeChrono } from './time-gate.js';

export { DAY_MS, ISO_OFFSET, isTimeZone, isoOffsetMinutes, localDate, localWhen, offsetText, parseTimestamp, toIso, toLocalIso, zoneOffsetMinutes } from './instant.js';
export { isArrangement, tenseOf } from './tense.js';

/**
 * Certainty of a resolved time reference, in [0,1], by how it was resolved:
 * `explicit` (the text names the year, or only a year) 1; `relative` to the observation time
 * ("yesterday", "this morning", "last Friday", "3 days ago") 0.9; a year-less date or month with a
 * tense 0.75, without one 0.5; a bare weekday with a tense 0.7, without one 0.5 (a present-tense
 * arrangement, {@link isArrangement}, picks the coming date but keeps the untensed 0.5: the present
 * tense is a weaker sign than `will`); any reference without an observation time 1 only when
 * explicit (others are dropped).
 */
export const CERTAINTY = Object.freeze({ explicit: 1, relative: 0.9, yearlessTensed: 0.75, yearlessUntensed: 0.5, weekdayTensed: 0.7, weekdayUntensed: 0.5 });

const YEAR_RE = /\b(?:in|since|during|of|back in)\s+((?:19|20)\d{2})\b/gi;
/** A year written in the expression itself (`2023`, `'23`). */
const WRITTEN_YEAR = /\b(?:1[6-9]|2\d)\d{2}\b|'\d{2}\b/;
const WEEKDAY_MODIFIER = /\b(last|next|this|coming|past|previous)\b/i;

/**
 * Finds time expressions in `text` and resolves them against the reference time (τ of the
 * observation) in the speaker's local calendar (`offsetMinutes` east of UTC; 0 = UTC):
 * "last Friday" said on 2023-07-15 → 2023-07-14; "this morning" said at 2024-03-10T07:30+09:00
 * → the local day 2024-03-10. Year-less dates and bare weekdays follow the sentence's tense
 * (see the module notes). Each reference gets an interval — the hour when the hour is given, else
 * the local day, week (Monday–Sunday), weekend (Saturday–Sunday), month or year it names — with `end` the interval's last millisecond, and a
 * `certainty` ({@link CERTAINTY}). Without a reference time, only absolute expressions resolve.
 *
 * Cost O(text length): a text longer than {@link TIME_WINDOW_CHARS} is read by chrono in windows
 * of that many characters cut at sentence ends, each with {@link TIME_WINDOW_OVERLAP} characters
 * of the text around it (an expression across a window's edge is read whole by the window it
 * starts in); the references are those of one pass over the whole text (test/time/windows.test.ts).
 * A window with no word chrono could read is skipped ({@link mayNameTime}, time-gate.ts), and the
 * others are read by {@link timeChrono} (chrono's parser, its costliest parts run only where they can match).
 * @param windowChars Characters per window (tests compare with `Infinity`: one pass).
 */
export function extractTimeRefs(text: string, referenceMs: number | undefined, offsetMinutes = 0, timeZone?: string, windowChars: number = TIME_WINDOW_CHARS): TimeRef[] {
  const ref = { instant: new Date(referenceMs ?? 0), timezone: offsetMinutes };
  const out: TimeRef[] = [];
  // chrono reads a long text window by window (issue 22/25): its refiners match end-anchored
  // patterns against all the text before each result, quadratic in one pass over 100k characters.
  for (const w of textWindows(text, windowChars, TIME_WINDOW_OVERLAP)) {
    const part = w.start === 0 && w.end === text.length ? text : text.slice(w.start, w.end);
    // A part with no word chrono could read is not given to it, and chrono's costliest parsers
    // run only where they can match (time-gate.ts): the same results, without the cost of
    // compiling their patterns in a fresh process (issue 25).
    if (!mayNameTime(part)) continue;
    for (const r of timeChrono.parse(part, ref)) {
      const at = w.start + r.index; // where the expression starts in `text`
      if (at < w.from || at >= w.to) continue; // the window before or after keeps it
      if (isGreeting(text, at, r.text)) continue;
      if (isRecurring(text, at, r)) continue;
      const certain = (['year', 'month', 'day', 'hour'] as const).filter((k) => r.start.isCertain(k));
      // Without τ only expressions that write their year resolve (chrono would read "yesterday" against 1970).
      if (referenceMs === undefined && (!certain.includes('year') || !WRITTEN_YEAR.test(r.text))) continue;
      const tr = resolve(r, text, at, referenceMs, offsetMinutes, [...certain]);
      tr.text = trimMatch(tr.text);
      out.push(timeZone === undefined || certain.includes('hour') ? tr : inZone(tr, offsetMinutes, timeZone));
    }
  }
  // Bare years ("in 2022") are not parsed by chrono: add them as whole-year spans, unless a
  // reference already writes that year (the four-digit runs of the references found so far).
  const written = new Set<string>();
  const note = (s: string): void => {
    for (let i = 0; i + 4 <= s.length; i++) if (/^\d{4}$/.test(s.slice(i, i + 4))) written.add(s.slice(i, i + 4));
  };
  for (const t of out) note(t.text);
  for (const m of text.matchAll(YEAR_RE)) {
    const year = Number(m[1]);
    if (written.has(String(year))) continue;
    out.push({ text: m[0], start: `${year}-01-01T00:00:00.000Z`, end: `${year}-12-31T23:59:59.999Z`, certain: ['year'], certainty: CERTAINTY.explicit });
    note(m[0]);
  }
  return out;
}

/**
 * Characters of a text chrono reads in one window (`util/text-windows.ts`); a text of at most
 * {@link TIME_WINDOW_CHARS} + {@link TIME_WINDOW_OVERLAP} characters (every LoCoMo turn) is read
 * in one pass, as before windows.
 */
export const TIME_WINDOW_CHARS = 2000;
/** Characters each window of {@link extractTimeRefs} reads past its part on each side (a time expression is shorter). */
export const TIME_WINDOW_OVERLAP = 200;

/**
 * Moves the local-midnight bounds of a day, week, month or year span from the offset in force at
 * the observation to the zone's offset at each bound (daylight saving: "last month" said on 31 March
 * in New York starts at 05:00Z on 1 February, not 04:00Z).
 */
function inZone(tr: TimeRef, offsetMinutes: number, zone: string): TimeRef {
  const shift = (ms: number): number => {
    let out = ms + (offsetMinutes - zoneOffsetMinutes(zone, ms)) * MINUTE_MS;
    out = ms + (offsetMinutes - zoneOffsetMinutes(zone, out)) * MINUTE_MS; // once more, at the moved instant
    return out;
  };
  const start = shift(Date.parse(tr.start));
  const moved: TimeRef = { ...tr, start: toIso(start) };
  if (tr.end !== undefined) moved.end = toIso(shift(Date.parse(tr.end) + 1) - 1);
  return moved;
}

/**
 * chrono's match text without the punctuation it takes along at its end ("on Tuesday," in "on
 * Tuesday, we met"): the expression as written, which the stored `timeRefs[].text` quotes.
 */
function trimMatch(match: string): string {
  return match.replace(/[\s,;:]+$/u, '');
}

/** "every" / "each" (optionally "other") just before a match: "I swim every Monday". */
const EVERY_BEFORE = /\b(?:every|each)\s+(?:other\s+)?$/iu;
/** A plural right after a weekday match: "on Tuesday evenings", "on Mondays" (chrono reads "on Tuesday" / nothing). */
const PLURAL_AFTER = /^(?:s\b|\s+(?:morning|afternoon|evening|night)s\b)/iu;

/**
 * True when chrono's match is a recurring expression ("every Monday", "each Friday", "on Tuesday
 * evenings"): it names no one day, so it is not resolved to one (chrono would anchor it to the
 * nearest Tuesday) and gives no time reference.
 */
function isRecurring(text: string, at: number, r: chrono.ParsedResult): boolean {
  if (/^(?:every|each)\b/iu.test(r.text) || EVERY_BEFORE.test(text.slice(Math.max(0, at - 24), at))) return true;
  const weekdayOnly = r.start.isCertain('weekday') && !r.start.isCertain('day');
  return weekdayOnly && PLURAL_AFTER.test(text.slice(at + trimMatch(r.text).length, at + r.text.length + 24));
}

/** A bare part of the day, as chrono reads it: "morning", "Good evening", "night". */
const PART_OF_DAY = /^(?:good\s+)?(?:morning|afternoon|evening|night)$/i;
/**
 * True when chrono's match at `index` is a salutation, not a time: a bare part of the day
 * ({@link PART_OF_DAY}) at the start of the text, of a sentence or after a speaker prefix
 * ("Maya: Morning Theo!", "Good evening, all"), or followed by a name, a comma or "!" — "this
 * morning", "in the evening", "Sunday night" carry their own word before it and stay times.
 */
function isGreeting(text: string, index: number, match: string): boolean {
  if (!PART_OF_DAY.test(match.trim())) return false;
  // The patterns read the end of the text before the match: its last GREETING_CONTEXT characters
  // (plus one, for the word boundary), and all of it only when it is that short or blank, so
  // a long text costs O(1) per match (issue 22/25).
  const before = index <= GREETING_CONTEXT + 1 ? text.slice(0, index) : text.slice(index - GREETING_CONTEXT - 1, index);
  const whole = index <= GREETING_CONTEXT + 1 || /^\s*$/.test(before);
  const atStart = /[.!?\n]\s*$/.test(before) || (whole && /^(?:[^\s:]{1,40}:)?\s*$/.test(text.slice(0, index)));
  const after = text.slice(index + match.length, index + match.length + GREETING_CONTEXT);
  return atStart || /^\s*(?:[,!]|\p{Lu})/u.test(after) && !/\b(?:this|that|the|in|on|at|every|last|next|each|one|yesterday|tomorrow|tonight|sunday|monday|tuesday|wednesday|thursday|friday|saturday)\s*$/i.test(before);
}

/** Characters before a part of the day that {@link isGreeting} reads. */
const GREETING_CONTEXT = 256;

/** Day-level words: an expression naming one of them is not a whole month / year / week. */
const DAY_WORDS = /\b(?:days?|hours?|minutes?|seconds?|today|tonight|tomorrow|yesterday|morning|afternoon|evening|night|noon|midnight|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b/i;
const MONTH_NAME = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)(?:[a-z]*)\b\.?/i;

/**
 * The calendar unit a relative expression names as a whole ("last month" → `month`, "two years
 * ago" → `year`, "next week" → `week`, "this weekend" → `weekend`), or `undefined` when it names a
 * day, an hour, a month by name or a written year.
 */
function relativeUnit(r: chrono.ParsedResult): 'week' | 'weekend' | 'month' | 'year' | undefined {
  const t = r.text;
  if (r.start.isCertain('hour')) return undefined;
  if (/\bweekend\b/i.test(t)) return 'weekend';
  if (WRITTEN_YEAR.test(t) || MONTH_NAME.test(t) || DAY_WORDS.test(t)) return undefined;
  // chrono gives "next week" a day (the reference ± 7 days); months and years have none.
  if (/\bweeks?\b/i.test(t)) return 'week';
  if (r.start.isCertain('day') || r.start.isCertain('weekday')) return undefined;
  if (/\bmonths?\b/i.test(t)) return 'month';
  if (/\byears?\b/i.test(t)) return 'year';
  return undefined;
}

/** UTC ms of local midnight of the Monday of the ISO week (Monday–Sunday) holding the local day of `ms`. */
function localMonday(ms: number, off: number): number {
  const f = localFields(ms, off);
  return localMidnight(f.y, f.m, f.d, off) - ((f.wd + 6) % 7) * DAY_MS;
}

/**
 * A week expression ("this week", "next week", "two weeks ago", "in 3 weeks") as the whole ISO
 * week (Monday–Sunday, local calendar): "this week" the reference's own week, others the week
 * holding chrono's day (the reference ± 7 days per week; chrono's day arithmetic is right). chrono
 * puts "this week" on the Sunday that starts a US week, a day of the previous ISO week.
 */
function resolveWeek(r: chrono.ParsedResult, referenceMs: number, off: number, certain: TimeRef['certain']): TimeRef {
  const start = localMonday(/\b(?:this|current)\s+week\b/i.test(r.text) ? referenceMs : r.start.date().getTime(), off);
  return { text: r.text, start: toIso(start), end: toIso(start + 7 * DAY_MS - 1), certain, certainty: CERTAINTY.relative };
}

const WEEKEND_MODIFIER = /\b(this|last|next|coming|past|previous)\s+(?:\w+\s+)?$/i;

/**
 * A weekend expression as Saturday–Sunday of the local calendar. The reference's own weekend is
 * the one of its ISO week (said Mon–Fri: the coming one; said Sat/Sun: the one under way).
 * - `this weekend`, `the weekend`, `over the weekend`: the own weekend, except said Mon–Fri in a
 *   past-tense sentence ({@link tenseOf}): the weekend just gone; `coming weekend`: the own one;
 * - `last` / `past` / `previous weekend`: the weekend of the previous ISO week (said Mon–Fri: the
 *   one just gone; said on a Sunday: the one before the weekend under way);
 * - `next weekend`: the weekend of the next ISO week (said Mon–Fri: not the coming weekend but
 *   the one after it, the common reading of "the weekend of next week").
 * Certainty: with a modifier 0.9 (relative); a bare "the weekend" is a guess like a bare weekday
 * (0.7 with a tense, 0.5 without).
 */
function resolveWeekend(r: chrono.ParsedResult, text: string, at: number, referenceMs: number, off: number, certain: TimeRef['certain']): TimeRef {
  const modifier = (WEEKDAY_MODIFIER.exec(r.text) ?? WEEKEND_MODIFIER.exec(text.slice(Math.max(0, at - 24), at)))?.[1]?.toLowerCase();
  const tense = tenseOf(sentenceAt(text, at));
  const monday = localMonday(referenceMs, off);
  const weekday = (localFields(referenceMs, off).wd + 6) % 7; // 0 = Monday … 6 = Sunday
  let saturday = monday + 5 * DAY_MS;
  if (modifier === 'last' || modifier === 'past' || modifier === 'previous') saturday -= 7 * DAY_MS;
  else if (modifier === 'next') saturday += 7 * DAY_MS;
  else if (modifier !== 'coming' && weekday < 5 && tense === 'past') saturday -= 7 * DAY_MS;
  const certainty = modifier !== undefined ? CERTAINTY.relative : tense === 'none' ? CERTAINTY.weekdayUntensed : CERTAINTY.weekdayTensed;
  return { text: r.text, start: toIso(saturday), end: toIso(saturday + 2 * DAY_MS - 1), certain, certainty };
}

/**
 * A month- or year-relative expression ("last month", "in 3 months", "two years ago") as its whole
 * calendar month or year. chrono adds months to the reference date with `Date` arithmetic, so from
 * a 29th–31st it rolls over ("last month" said 31 March → "31 February" → 2 March); the expression
 * is parsed again against the 15th of the reference's local month (same time of day), where adding
 * or subtracting months and years cannot roll over, and which lies in the same month in every zone
 * (chrono reads some expressions, such as "this month", in the runtime's zone rather than the
 * speaker's: from the 1st at +14:00 that would be the previous month).
 */
function resolveMonthOrYear(r: chrono.ParsedResult, unit: 'month' | 'year', referenceMs: number, off: number, certain: TimeRef['certain']): TimeRef {
  const today = localFields(referenceMs, off);
  const midMonth = referenceMs + (15 - today.d) * DAY_MS;
  const [again] = timeChrono.parse(r.text, { instant: new Date(midMonth), timezone: off });
  const { y, m } = localFields((again ?? r).start.date().getTime(), off);
  const start = unit === 'year' ? localMidnight(y, 1, 1, off) : localMidnight(y, m, 1, off);
  const next = unit === 'year' ? { y: y + 1, m: 1 } : addMonths(y, m, 1);
  const end = localMidnight(next.y, next.m, 1, off) - 1;
  return { text: r.text, start: toIso(start), end: toIso(end), certain, certainty: CERTAINTY.relative };
}

/** One chrono result as a {@link TimeRef}: tense rules for year-less dates and weekdays, then the interval. */
function resolve(r: chrono.ParsedResult, text: string, at: number, referenceMs: number | undefined, off: number, certain: TimeRef['certain']): TimeRef {
  const unit = referenceMs === undefined ? undefined : relativeUnit(r);
  if (unit !== undefined && referenceMs !== undefined) {
    if (unit === 'week') return resolveWeek(r, referenceMs, off, certain);
    if (unit === 'weekend') return resolveWeekend(r, text, at, referenceMs, off, certain);
    return resolveMonthOrYear(r, unit, referenceMs, off, certain);
  }
  const s = r.start;
  const startMs = s.date().getTime();
  let { y, m, d } = localFields(startMs, off);
  const span: 'hour' | 'day' | 'month' = s.isCertain('hour') ? 'hour' : s.isCertain('month') && !s.isCertain('day') && !s.isCertain('weekday') ? 'month' : 'day';
  let certainty: number = CERTAINTY.explicit;
  if (referenceMs !== undefined && !s.isCertain('year')) {
    const sentence = sentenceAt(text, at);
    const said = tenseOf(sentence);
    // A present-tense arrangement reads as the coming date; its certainty stays untensed.
    const tense = said === 'none' && isArrangement(sentence) ? 'future' : said;
    const today = localFields(referenceMs, off);
    const todayKey = today.y * 10000 + today.m * 100 + today.d;
    if (s.isCertain('month')) {
      // A year-less date or month: pick the year by tense (past: not after today; future: not before today).
      certainty = said === 'none' ? CERTAINTY.yearlessUntensed : CERTAINTY.yearlessTensed;
      if (tense !== 'none') {
        const years = [today.y - 1, today.y, today.y + 1];
        // Past: the date (a month: its first day) is not after today. Future: the date (a month: its last day) is not before today.
        const key = (yy: number, first: boolean): number => yy * 10000 + m * 100 + (span === 'month' ? (first ? 1 : 31) : d);
        const pick = tense === 'past' ? years.filter((yy) => key(yy, true) <= todayKey).pop() : years.find((yy) => key(yy, false) >= todayKey);
        if (pick !== undefined) y = pick;
      }
    } else if (s.isCertain('weekday') && !s.isCertain('day') && (!WEEKDAY_MODIFIER.test(r.text) || (tense === 'past' && /^this\b/i.test(r.text.trim())))) {
      // A bare weekday ("on Friday"): past → the most recent one not after today; future → the next one.
      // "This Friday" in the past tense ("we met this Friday", said on Saturday) is the one just gone.
      certainty = said === 'none' ? CERTAINTY.weekdayUntensed : CERTAINTY.weekdayTensed;
      const wd = s.get('weekday') as number;
      if (tense !== 'none') {
        const back = (today.wd - wd + 7) % 7;
        const delta = tense === 'past' ? -back : (wd - today.wd + 7) % 7 || 7;
        ({ y, m, d } = localFields(localMidnight(today.y, today.m, today.d, off) + delta * DAY_MS + 12 * 3_600_000, off));
      }
    } else if (!WRITTEN_YEAR.test(r.text)) {
      certainty = CERTAINTY.relative;
    }
  } else if (referenceMs !== undefined && !WRITTEN_YEAR.test(r.text)) {
    // chrono marks "yesterday" / "tonight" as certain days: they are still relative to τ.
    certainty = CERTAINTY.relative;
  }
  let start: number;
  let end: number;
  if (span === 'hour') {
    start = localMidnight(y, m, d, off) + (startMs - localMidnight(...ymd(startMs, off), off));
    end = start + 3_600_000 - 1;
  } else if (span === 'month') {
    start = localMidnight(y, m, 1, off);
    const n = addMonths(y, m, 1);
    end = localMidnight(n.y, n.m, 1, off) - 1;
  } else {
    start = localMidnight(y, m, d, off);
    end = start + DAY_MS - 1;
  }
  if (r.end) {
    // A written range ("from 3 to 5 August"): to the end of its last day (or hour), moved by the same years.
    const e = shiftYears(r.end.date().getTime(), y - localFields(startMs, off).y, off);
    end = r.end.isCertain('hour') ? e + 3_600_000 - 1 : localMidnight(...ymd(e, off), off) + DAY_MS - 1;
    if (end < start) end = start + DAY_MS - 1;
  }
  const tr: TimeRef = { text: r.text, start: toIso(start), end: toIso(end), certain, certainty };
  return tr;
}

/**
 * Certainty of a stored reference: its `certainty`, or for references stored before it existed
 * 1 when the year was written and 0.5 otherwise.
 */
export function certaintyOf(t: TimeRef): number {
  return t.certainty ?? (t.certain.includes('year') ? 1 : 0.5);
}
