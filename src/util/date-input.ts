/**
 * The one parser of the dates a caller gives: an observation's `observedAt` (write/validate.ts),
 * recall's `after` / `before`, an observation's `expiresAt` (also given as `metadata.expiresAt`),
 * and the `$gt`, `$gte`, `$lt`, `$lte` bounds of a filter over a time field, from every entry (the
 * API, the CLI, the Worker's HTTP API, MCP and AI-SDK tools, imports).
 *
 * Accepted, everywhere: an ISO-8601 date or instant, a valid `Date`, and epoch milliseconds (a
 * finite number, 0 or at least {@link MIN_EPOCH_MS} from 0: a smaller one is refused as what is
 * most likely epoch seconds, which would read as a day of 1970; 0 is the same instant in both). A written date ("March 1, 2024",
 * "1/2/2024") is refused rather than read with a guessed meaning (day or month first, the time
 * and zone); a reader of a format that writes dates so (the LoCoMo loader, formats/locomo.ts)
 * parses them itself (chrono-node) and passes ISO. A date written year first is not ambiguous and is
 * read as the ISO date it spells ({@link yearFirstIso}): `2023/05/20 (Sat) 02:21` (the session dates
 * of public long-memory chat datasets), `2023/5/20`, `2023.05.20 14:05:09`, `2023-05-20 Saturday
 * 2:21 pm`; a weekday written beside it must be that day's, else the date is refused (which of the
 * two is wrong cannot be known). An RFC 2822 / HTTP date with its zone is read too ({@link rfc2822Iso}:
 * `Wed, 01 May 2024 10:00:00 GMT`, `1 May 2024 12:00:00 +0200`; its weekday checked the same way).
 * Epoch seconds written as a string (`"1714557600.000200"`, Slack's `ts`) are refused saying so. ISO strings are read strictly: `YYYY-MM-DD`, optionally `THH:MM`, `:SS`,
 * `.fraction` (`T` or one space), and an offset `Z`, `±HH:MM`, `±HHMM` or `±HH` (none = UTC; after a
 * space too, `2024-05-01 10:00:00 +0200`); `t`
 * and `z` in lower case too, as RFC 3339 (section 5.6) allows (`2024-03-01t10:00:00z`). The
 * day must exist (`2024-02-30` is refused, where `Date.parse` would read 1 March), hours 00-23,
 * minutes and seconds 00-59, the offset within ±14:00. Any instant within ±8.64e15 ms of 1970
 * (the range of a `Date`).
 *
 * @module
 */
import { describeValue, invalidInput } from '../errors.js';
import { ISO_OFFSET } from './time.js';

/** `YYYY-MM-DD` at the start of an ISO-8601 string. */
export const ISO_DAY = /^\s*(\d{4})-(\d{2})-(\d{2})/;

/** Largest UTC offset accepted, in minutes (±14:00: real offsets run from −12:00 to +14:00). */
export const MAX_UTC_OFFSET_MINUTES = 14 * 60;

/**
 * Checks the calendar of an ISO-8601 string before it is read as a date, since the parsers
 * silently move what does not exist: the day must exist (`2023-02-30` would become 2 March;
 * months 01-12), and a written UTC offset must be a real one — hours and minutes within
 * −14:00..+14:00, minutes 00-59 (`+25:00` would shift the instant by a day).
 * Strings that do not start with `YYYY-MM-DD` are not checked here.
 * @param value The string the caller gave.
 * @param field The path of the value in error messages (`observation.observedAt`, `options.after`).
 * @throws JevMemError `INVALID_INPUT` naming `field`, showing the value.
 */
export function checkIsoCalendar(value: string, field: string): void {
  const day = ISO_DAY.exec(value);
  if (day === null) return;
  const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
  const probe = new Date(Date.UTC(2000, m - 1, d));
  probe.setUTCFullYear(y);
  if (m < 1 || m > 12 || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) {
    throw invalidInput(field, `${describeValue(value)} names a day that does not exist; use ISO-8601 such as "2023-05-08T13:56:00Z"`);
  }
  const off = ISO_OFFSET.exec(value);
  if (off === null) return;
  const hours = Number(off[2] ?? off[4] ?? off[6]);
  const minutes = Number(off[3] ?? off[5] ?? 0);
  if (minutes > 59 || hours * 60 + minutes > MAX_UTC_OFFSET_MINUTES) {
    const written = /[+-][\d:]+\s*$/.exec(value)?.[0].trim();
    throw invalidInput(field, `${describeValue(value)} has the UTC offset ${written}, which does not exist; an offset is ±HH:MM from -14:00 to +14:00 with minutes 00-59, such as "2024-03-10T10:00:00+09:00"`);
  }
}

/**
 * Smallest |epoch ms| taken as a number (1e11 ms: 1973-03-03T09:46:40Z): epoch seconds of any
 * date from 1973 to 5138 are below it, so a nonzero number under it is refused as seconds, not
 * read as a day of 1970. Give a `Date` or an ISO string for a date that close to 1970.
 */
export const MIN_EPOCH_MS = 1e11;

/** Largest |epoch ms| a JavaScript Date can hold (±100,000,000 days). */
export const MAX_TIME_MS = 8.64e15;

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?: ?([zZ])| ?([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
/** English weekday names and their usual abbreviations, longest first (index = `Date#getUTCDay`). */
const WEEKDAY = '(sunday|monday|tuesday|wednesday|thursday|friday|saturday|sun|mon|tues|tue|wed|thurs|thur|thu|fri|sat)';
const YEAR_FIRST = new RegExp(
  `^(\\d{4})([/.-])(\\d{1,2})\\2(\\d{1,2})` + // year, month, day with one separator
  `(?:\\s*,?\\s*(\\()?\\s*${WEEKDAY}\\.?\\s*(\\))?\\s*,?)?` + // an optional weekday, "(Sat)", "Saturday,"
  `(?:(?:T|\\s+|(?<=[),]))\\s*(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.(\\d{1,9}))?)?\\s*(?:([ap])\\.?m\\.?)?\\s*([zZ]|[+-]\\d{2}(?::?\\d{2})?)?)?$`,
  'i',
);

/** A date written year first, read as ISO (see {@link yearFirstIso}). */
export interface YearFirstDate {
  /** The same date and time in strict ISO-8601 (`2023-05-20T02:21`, no offset when none was written). */
  iso: string;
  /** The weekday written beside the date when it is not that day's (`'Friday'` for "2023/05/20 (Fri)"). */
  wrongWeekday?: string;
  /** The weekday of the written calendar day (`'Saturday'`). */
  weekday: string;
}

/**
 * Reads a date written year first, the one written order with no day/month ambiguity:
 * `YYYY/MM/DD`, `YYYY.MM.DD` or `YYYY-M-D` (one or two digits for month and day), an optional
 * English weekday (`(Sat)`, `Sat`, `Saturday,`), an optional time `H:MM[:SS[.fraction]]` with an
 * optional `am`/`pm` (hour 1-12 then) and an optional offset (`Z`, `±HH:MM`, `±HHMM`, `±HH`).
 * Plain ISO (`2023-05-20`, `2023-05-20T02:21Z`) is left to the strict ISO reader (`undefined`).
 * @param value - The caller's string, trimmed.
 * @returns The ISO spelling and the written weekday's check, or `undefined` when the string is
 *   not such a date (the day's existence and the offset's range are checked by the ISO reader).
 */
export function yearFirstIso(value: string): YearFirstDate | undefined {
  const m = YEAR_FIRST.exec(value);
  if (m === null) return undefined;
  const [, y, sep, mo, d, open, day, close, h, mi, s, frac, half, off] = m;
  if ((open === undefined) !== (close === undefined)) return undefined; // "(Sat" or "Sat)"
  const plainIso = sep === '-' && mo!.length === 2 && d!.length === 2 && day === undefined && half === undefined && (h === undefined || h.length === 2);
  if (plainIso) return undefined;
  let iso = `${y}-${mo!.padStart(2, '0')}-${d!.padStart(2, '0')}`;
  if (h !== undefined) {
    let hour = Number(h);
    if (half !== undefined) {
      if (hour < 1 || hour > 12) return undefined; // "13:00 pm"
      hour = (hour % 12) + (half.toLowerCase() === 'p' ? 12 : 0);
    }
    iso += `T${String(hour).padStart(2, '0')}:${mi}${s !== undefined ? `:${s}` : ''}${frac !== undefined ? `.${frac}` : ''}${off ?? ''}`;
  }
  return withWeekday(iso, Number(y), Number(mo), Number(d), day);
}

/**
 * `iso` with the weekday of the calendar date `y`-`mo`-`d` (proleptic Gregorian, UTC) and, when
 * the caller wrote a weekday (`day`, English, matched on its first three letters) that is not
 * that day's, the day it wrote as `wrongWeekday`.
 */
function withWeekday(iso: string, y: number, mo: number, d: number, day: string | undefined): YearFirstDate {
  const probe = new Date(Date.UTC(2000, mo - 1, d));
  probe.setUTCFullYear(y);
  const weekday = WEEKDAY_NAMES[probe.getUTCDay()] ?? 'Sunday';
  const out: YearFirstDate = { iso, weekday };
  if (day !== undefined && !weekday.toLowerCase().startsWith(day.toLowerCase().slice(0, 3))) {
    out.wrongWeekday = WEEKDAY_NAMES.find((w) => w.toLowerCase().startsWith(day.toLowerCase().slice(0, 3))) ?? day;
  }
  return out;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const RFC_2822 = new RegExp(
  `^(?:${WEEKDAY}\\s*,\\s*)?(\\d{1,2})\\s+(${MONTHS.join('|')})\\s+(\\d{4})\\s+(\\d{2}):(\\d{2})(?::(\\d{2}))?\\s+(gmt|ut|utc|z|[+-]\\d{4})$`,
  'i',
);

/**
 * Reads an RFC 2822 (section 3.3) / HTTP (RFC 9110 `IMF-fixdate`) date: an optional English
 * weekday and a comma, day, three-letter English month, four-digit year, `HH:MM[:SS]`, and a zone
 * `GMT`, `UT`, `UTC`, `Z` or `±HHMM` (required: no zone would be a guess), as
 * `"Wed, 01 May 2024 10:00:00 GMT"` or `"1 May 2024 12:00 +0200"`. The named US zones (`EST`, …)
 * and military letters are not read. Its weekday is checked as a year-first date's.
 * @param value - The caller's string, trimmed.
 * @returns The ISO spelling and the written weekday's check (as {@link yearFirstIso}), or
 *   `undefined` when the string is not such a date.
 */
export function rfc2822Iso(value: string): YearFirstDate | undefined {
  const m = RFC_2822.exec(value);
  if (m === null) return undefined;
  const [, day, d, mon, y, h, mi, s, zone] = m;
  const mo = MONTHS.indexOf(mon!.toLowerCase() as (typeof MONTHS)[number]) + 1;
  const z = zone!.toUpperCase();
  const iso = `${y}-${String(mo).padStart(2, '0')}-${d!.padStart(2, '0')}T${h}:${mi}${s !== undefined ? `:${s}` : ''}${z === 'GMT' || z === 'UT' || z === 'UTC' || z === 'Z' ? 'Z' : z}`;
  return withWeekday(iso, Number(y), mo, Number(d), day);
}

/** A date spelled another way that {@link strictIsoMs} reads: year first, or RFC 2822 / HTTP. */
function spelledIso(value: string): YearFirstDate | undefined {
  return yearFirstIso(value) ?? rfc2822Iso(value);
}

/**
 * Epoch ms of a strict ISO-8601 date or instant, or of a date written year first or as RFC 2822 whose weekday,
 * if written, is right (see the module note), or `undefined` when the string is not one (wrong
 * shape, a day or time that does not exist, an offset beyond ±14:00).
 */
export function strictIsoMs(value: string): number | undefined {
  const yf = spelledIso(value);
  if (yf !== undefined && yf.wrongWeekday !== undefined) return undefined;
  const m = ISO.exec(yf?.iso ?? value);
  if (m === null) return undefined;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, mi, s] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  const ms = m[7] === undefined ? 0 : Number(m[7].slice(0, 3).padEnd(3, '0'));
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const probe = new Date(Date.UTC(2000, mo - 1, d));
  probe.setUTCFullYear(y);
  if (probe.getUTCMonth() !== mo - 1 || probe.getUTCDate() !== d) return undefined;
  let offset = 0;
  if (m[9] !== undefined) {
    const oh = Number(m[10]);
    const om = Number(m[11] ?? 0);
    if (om > 59 || oh * 60 + om > MAX_UTC_OFFSET_MINUTES) return undefined;
    offset = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const day = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  day.setUTCFullYear(y);
  const out = day.getTime() - offset * 60_000;
  return Number.isFinite(out) && Math.abs(out) <= MAX_TIME_MS ? out : undefined;
}

/**
 * Reads a date option or bound: an ISO-8601 date / instant (strict, see the module note), a valid
 * `Date`, or epoch ms.
 * @param value - What the caller gave.
 * @param field - Its path in the error (`options.after`, `observation.expiresAt`, …).
 * @returns epoch milliseconds.
 * @throws JevMemError `INVALID_INPUT` naming `field`, showing the value.
 */
export function parseDateInput(value: unknown, field: string): number {
  let ms: number | undefined;
  if (value instanceof Date && Number.isNaN(value.getTime())) throw invalidInput(field, `expected a valid Date, got ${describeValue(value)}`);
  if (value instanceof Date) ms = value.getTime();
  else if (typeof value === 'number') {
    if (Number.isFinite(value) && value !== 0 && Math.abs(value) < MIN_EPOCH_MS) {
      throw invalidInput(field, `${value} is read as epoch seconds (a number under ${MIN_EPOCH_MS} would be a day of 1970 as milliseconds); give epoch milliseconds (${value} s = ${value * 1000} ms), a Date or an ISO-8601 string`);
    }
    ms = value;
  }
  else if (typeof value === 'string') {
    const yf = spelledIso(value.trim());
    if (yf?.wrongWeekday !== undefined) {
      throw invalidInput(field, `${describeValue(value)} names a ${yf.wrongWeekday}, but ${yf.iso.slice(0, 10)} is a ${yf.weekday}; give the right weekday, or the date alone ("${yf.iso}")`);
    }
    if (yf !== undefined) {
      ms = strictIsoMs(yf.iso);
      if (ms === undefined) throw invalidInput(field, `${describeValue(value)} reads${yearFirstIso(value.trim()) !== undefined ? ' year first' : ''} as "${yf.iso}", which names a day, hour or UTC offset that does not exist (offsets within ±14:00)`);
    } else {
      checkIsoCalendar(value.trim(), field); // names the day or the offset that does not exist
      ms = strictIsoMs(value.trim());
    }
  }
  const epoch = typeof value === 'string' ? /^\s*(\d{9,10})(\.\d+)?\s*$/.exec(value) : null;
  if (ms === undefined && epoch !== null) {
    // Slack's message `ts` ("1714557600.000200") and other APIs write epoch seconds as a string.
    const msOf = Math.round(Number(epoch[0]) * 1000);
    throw invalidInput(field, `${describeValue(value)} is epoch seconds written as a string (as Slack's "ts"); a string is read as an ISO-8601 date, not a number: give epoch milliseconds as a number (${msOf}) or the ISO instant ("${new Date(msOf).toISOString()}")`);
  }
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > MAX_TIME_MS) {
    throw invalidInput(field, `expected an ISO-8601 date or instant of a day that exists ("2024-03-01", "2024-03-01T10:00:00+02:00"), a valid Date or epoch milliseconds, got ${describeValue(value)}${typeof value === 'string' && ISO_DAY.exec(value) === null && spelledIso(value.trim()) === undefined ? ' (a written date is not read unless year first, or RFC 2822 with its zone: its day/month order, time and zone would be guesses; "2024/03/01 10:00" and "Fri, 01 Mar 2024 10:00:00 GMT" are read)' : ''}`);
  }
  return ms;
}
