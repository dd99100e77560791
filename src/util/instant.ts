/**
 * Instants, UTC offsets, IANA zones and the local calendar (SPEC 3: `observedAt`,
 * `utcOffsetMinutes`, `timeZone`): parsing a caller's timestamp, reading the offset it writes,
 * writing an instant in UTC or local ISO-8601, local calendar fields and midnights, and the
 * compact local form of an interval ({@link localWhen}). Instants are epoch milliseconds in UTC;
 * offsets are minutes east of UTC. The time expressions in a text are read by time.ts.
 *
 * @module
 */
import * as chrono from 'chrono-node';


/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** Milliseconds in a minute. */
export const MINUTE_MS = 60_000;

/**
 * Parses a caller-given timestamp: a `Date`, epoch milliseconds, an ISO-8601 string, or a
 * written date chrono-node understands in strict mode (`"1:56 pm on 8 May, 2023"`). Times without
 * a zone are read as UTC.
 * @returns epoch milliseconds, or `undefined` when the value cannot be parsed.
 */
export function parseTimestamp(value: string | number | Date): number | undefined {
  if (value instanceof Date) {
    const t = value.getTime();
    return Number.isFinite(t) ? t : undefined;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (s === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}/.test(s)) {
    const iso = /[zZ]|[+-]\d{2}:?\d{2}$/.test(s) || s.length === 10 ? s : `${s}Z`;
    const t = Date.parse(iso);
    if (Number.isFinite(t)) return t;
  }
  // A written date must name year, month and day and cover the whole string: relative phrases
  // ("the day after") are not timestamps.
  const [r] = chrono.strict.parse(s, { instant: new Date(0), timezone: 0 });
  if (r === undefined || r.text.length < s.replace(/[.,;\s]+$/u, '').length || !r.start.isCertain('year') || !r.start.isCertain('month') || !r.start.isCertain('day')) return undefined;
  return r.start.date().getTime();
}

/**
 * The UTC offset written in an ISO-8601 timestamp: `+09:00` → 540, `-0330` → -210, `+05` → 300,
 * `2024-03-10 10:00+5:00` → 300, `Z` → 0 (the shapes of {@link ISO_OFFSET}).
 * @returns minutes east of UTC, or `undefined` when the value is not an ISO string with an
 *   explicit offset (a `Date`, epoch ms, or a time without a zone, which is read as UTC).
 */
export function isoOffsetMinutes(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (!/^\d{4}-\d{2}-\d{2}[Tt\s]/.test(s)) return undefined;
  if (/\d[zZ]$/.test(s)) return 0;
  const m = ISO_OFFSET.exec(s);
  if (m === null) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2] ?? m[4] ?? m[6]) * 60 + Number(m[3] ?? m[5] ?? 0));
}

/**
 * The written UTC offset at the end of an ISO-8601 date-time, in every shape the date parser
 * accepts: `+09:00`, `+0900`, `+9:00`, `+09`, `+9`, after `T` (or RFC 3339's `t`) or a space.
 * Groups: 1 the sign, then hours and minutes in (2, 3), (4, 5) or (6) alone.
 */
export const ISO_OFFSET = /\d{4}-\d{2}-\d{2}[Tt\s]\s*\d{1,2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?\s*([+-])(?:(\d{2}):?(\d{2})|(\d{1,2}):(\d{2})|(\d{1,2}))\s*$/;

/** True when `zone` is an IANA time-zone name this runtime knows (`Europe/Lisbon`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.trim() !== '';
  } catch {
    return false;
  }
}

/**
 * The UTC offset of an IANA zone at an instant (daylight saving included), in minutes east of
 * UTC: `Asia/Tokyo` → 540, `America/New_York` in July → -240.
 * @throws RangeError for an unknown zone (check with {@link isTimeZone} first).
 */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' }).formatToParts(new Date(ms)).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT';
  const m = /GMT([+-])(\d{1,2}):?(\d{2})?/.exec(name);
  if (m === null) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0));
}

/** ISO-8601 (UTC) of epoch milliseconds. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A UTC offset in minutes as written in ISO 8601: `+09:00`, `-03:30`, `Z` for 0. */
export function offsetText(minutes: number): string {
  if (minutes === 0) return 'Z';
  const a = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}

/**
 * ISO-8601 in the local time of a UTC offset, to the second: `(2024-03-09T22:30:00Z, 540)` →
 * `2024-03-10T07:30:00+09:00`. With offset 0 it ends in `Z`.
 */
export function toLocalIso(ms: number, offsetMinutes: number): string {
  return `${new Date(ms + offsetMinutes * MINUTE_MS).toISOString().slice(0, 19)}${offsetText(offsetMinutes)}`;
}

/** The local calendar day `YYYY-MM-DD` of an instant at a UTC offset. */
export function localDate(ms: number, offsetMinutes: number): string {
  return new Date(ms + offsetMinutes * MINUTE_MS).toISOString().slice(0, 10);
}

/** UTC ms of local midnight of the local day (y, m 1-based, d) at an offset. */
export function localMidnight(y: number, m: number, d: number, offsetMinutes: number): number {
  const t = new Date(Date.UTC(2000, m - 1, d));
  t.setUTCFullYear(y);
  return t.getTime() - offsetMinutes * MINUTE_MS;
}

/** Local calendar fields of an instant at an offset. */
export function localFields(ms: number, offsetMinutes: number): { y: number; m: number; d: number; wd: number } {
  const t = new Date(ms + offsetMinutes * MINUTE_MS);
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate(), wd: t.getUTCDay() };
}

/** The month `n` months after month `m` (1-based) of year `y`, as year and month. */
export function addMonths(y: number, m: number, n: number): { y: number; m: number } {
  const k = y * 12 + (m - 1) + n;
  return { y: Math.floor(k / 12), m: (k % 12) + 1 };
}

/** The local calendar day of an instant at an offset as [year, month 1-based, day]. */
export function ymd(ms: number, off: number): [number, number, number] {
  const f = localFields(ms, off);
  return [f.y, f.m, f.d];
}

/** `ms` moved by whole local-calendar `years`, keeping its local day and time of day. */
export function shiftYears(ms: number, years: number, off: number): number {
  if (years === 0) return ms;
  const [y, m, d] = ymd(ms, off);
  return localMidnight(y + years, m, d, off) + (ms - localMidnight(y, m, d, off));
}

/**
 * The compact local form of an interval: `2024-03-10` (one day), `2024-03-10/2024-03-12` (days),
 * `2024-08` (a calendar month), `2023` (a calendar year), or `2024-03-10T07:00+09:00` (an hour).
 * A week is its range of days (`2024-03-11/2024-03-17`), not an ISO week number: the form is read
 * by System Two and people, who should not need week arithmetic. So is a weekend
 * (`2024-03-09/2024-03-10`).
 */
export function localWhen(startIso: string, endIso: string | undefined, offsetMinutes: number, timeZone?: string): string {
  const a = Date.parse(startIso);
  const b = endIso === undefined ? a : Date.parse(endIso);
  // With an IANA zone each bound is read at its own offset (a span across a daylight-saving change).
  const la = toLocalIso(a, timeZone === undefined ? offsetMinutes : zoneOffsetMinutes(timeZone, a));
  const lb = toLocalIso(b, timeZone === undefined ? offsetMinutes : zoneOffsetMinutes(timeZone, b));
  const startsDay = la.slice(11, 19) === '00:00:00';
  const endsDay = lb.slice(11, 19) === '23:59:59';
  if (b - a < 3_600_000 && !(startsDay && endsDay)) return `${la.slice(0, 16)}${offsetText(offsetMinutes)}`;
  if (startsDay && endsDay) {
    if (la.slice(5, 10) === '01-01' && lb.slice(5, 10) === '12-31' && la.slice(0, 4) === lb.slice(0, 4)) return la.slice(0, 4);
    const next = localDate(b + 1, timeZone === undefined ? offsetMinutes : zoneOffsetMinutes(timeZone, b + 1));
    if (la.slice(8, 10) === '01' && next.slice(8, 10) === '01' && la.slice(0, 7) === lb.slice(0, 7)) return la.slice(0, 7);
    return la.slice(0, 10) === lb.slice(0, 10) ? la.slice(0, 10) : `${la.slice(0, 10)}/${lb.slice(0, 10)}`;
  }
  return `${la.slice(0, 16)}${offsetText(offsetMinutes)}/${lb.slice(0, 16)}${offsetText(offsetMinutes)}`;
}
