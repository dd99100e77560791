/**
 * Timestamps and time expressions (SPEC 3: `observedAt`, `timeRefs`). Dates are parsed with
 * chrono-node; every time is handled in UTC so results do not depend on the machine's zone.
 *
 * @module
 */
import * as chrono from 'chrono-node';
import type { TimeRef } from '../types.js';

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

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

/** ISO-8601 (UTC) of epoch milliseconds. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

const YEAR_RE = /\b(?:in|since|during|of|back in)\s+((?:19|20)\d{2})\b/gi;

/**
 * Finds time expressions in `text` and resolves them against the reference time (τ of the
 * observation): "last Friday" said on 2023-07-15 → 2023-07-14. Without a reference time, only
 * absolute expressions resolve (chrono's default reference is replaced by the epoch, and
 * relative hits are dropped).
 */
export function extractTimeRefs(text: string, referenceMs: number | undefined): TimeRef[] {
  const ref = { instant: new Date(referenceMs ?? 0), timezone: 0 };
  const out: TimeRef[] = [];
  for (const r of chrono.parse(text, ref)) {
    const certain = (['year', 'month', 'day', 'hour'] as const).filter((k) => r.start.isCertain(k));
    if (referenceMs === undefined && !certain.includes('year')) continue;
    const tr: TimeRef = { text: r.text, start: r.start.date().toISOString(), certain: [...certain] };
    if (r.end) tr.end = r.end.date().toISOString();
    out.push(tr);
  }
  // Bare years ("in 2022") are not parsed by chrono: add them as whole-year spans.
  for (const m of text.matchAll(YEAR_RE)) {
    const year = Number(m[1]);
    if (out.some((t) => t.text.includes(String(year)))) continue;
    out.push({ text: m[0], start: `${year}-01-01T00:00:00.000Z`, end: `${year}-12-31T23:59:59.999Z`, certain: ['year'] });
  }
  return out;
}
