/**
 * Dates as RFC 2822 / HTTP write them (h-break14 finding 4; util/date-input.ts `rfc2822Iso`),
 * an ISO date-time with a space before its offset, and epoch seconds written as a string
 * (Slack's `ts`), which is refused saying what it is. Expected instants computed by hand:
 * 2024-05-01 was a Wednesday; 2024-05-01T10:00:00Z = 1714557600000 ms; 10:00 at +02:00 is 08:00Z.
 */
import { describe, expect, it } from 'vitest';
import { parseDateInput, rfc2822Iso } from '../../src/util/date-input.js';

const refused = (v: unknown): string => {
  try {
    parseDateInput(v, 'observedAt');
  } catch (e) {
    return `${(e as { code: string }).code} ${(e as Error).message}`;
  }
  return 'accepted';
};

describe('parseDateInput of RFC 2822 / HTTP dates', () => {
  it('reads them with their zone, the weekday checked', () => {
    expect(parseDateInput('Wed, 01 May 2024 10:00:00 GMT', 'f')).toBe(1714557600000);
    expect(parseDateInput('1 May 2024 12:00:00 +0200', 'f')).toBe(1714557600000);
    expect(parseDateInput('Wed, 01 May 2024 10:00 UT', 'f')).toBe(1714557600000);
    expect(parseDateInput('wednesday, 01 may 2024 05:00:00 -0500', 'f')).toBe(1714557600000);
    expect(rfc2822Iso('Wed, 01 May 2024 10:00:00 GMT')).toEqual({ iso: '2024-05-01T10:00:00Z', weekday: 'Wednesday' });
    expect(refused('Thu, 01 May 2024 10:00:00 GMT')).toBe(
      'INVALID_INPUT observedAt: "Thu, 01 May 2024 10:00:00 GMT" (a string) names a Thursday, but 2024-05-01 is a Wednesday; give the right weekday, or the date alone ("2024-05-01T10:00:00Z")',
    );
  });

  it('refuses one without a zone, a day that does not exist, or an offset beyond ±14:00', () => {
    expect(refused('Wed, 01 May 2024 10:00:00')).toMatch(/^INVALID_INPUT .*a written date is not read unless year first, or RFC 2822 with its zone/);
    expect(refused('Wed, 31 Apr 2024 10:00:00 GMT')).toMatch(/^INVALID_INPUT .*reads as "2024-04-31T10:00:00Z", which names a day, hour or UTC offset that does not exist/);
    expect(refused('01 May 2024 10:00:00 +1500')).toMatch(/^INVALID_INPUT /);
    expect(refused('01 May 2024 10:00:00 EST')).toMatch(/^INVALID_INPUT /);
  });
});

describe('parseDateInput of an ISO date-time with a space before its offset', () => {
  it('reads "2024-05-01 10:00:00 +0200" as 08:00Z', () => {
    expect(parseDateInput('2024-05-01 10:00:00 +0200', 'f')).toBe(1714557600000 - 2 * 3600_000);
    expect(parseDateInput('2024-05-01T10:00:00 +02:00', 'f')).toBe(1714557600000 - 2 * 3600_000);
    expect(refused('2024-05-01 10:00:00 +2500')).toMatch(/^INVALID_INPUT .*UTC offset \+2500, which does not exist/);
  });
});

describe('parseDateInput of epoch seconds written as a string', () => {
  it('says what it is and what to give instead', () => {
    expect(refused('1714557600.000200')).toBe(
      'INVALID_INPUT observedAt: "1714557600.000200" (a string) is epoch seconds written as a string (as Slack\'s "ts"); a string is read as an ISO-8601 date, not a number: give epoch milliseconds as a number (1714557600000) or the ISO instant ("2024-05-01T10:00:00.000Z")',
    );
    expect(refused('1714557600')).toMatch(/is epoch seconds written as a string/);
  });
});
