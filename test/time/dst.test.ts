/**
 * Issue 14, time zones across daylight saving: with an IANA `timeZone`, a day, week, month or year
 * span is bounded by the zone's local midnights at each end, not by the offset in force when the
 * memory was said (New York is UTC−05:00 until 10 March 2024 02:00, then UTC−04:00).
 */
import { describe, expect, it } from 'vitest';
import { checkObservation } from '../../src/memory/validate.js';
import { extractTimeRefs, localWhen } from '../../src/util/time.js';

function refOf(text: string, observedAt: string, timeZone?: string) {
  const c = checkObservation({ text, observedAt, ...(timeZone ? { timeZone } : {}) }, 'observation', 10_000);
  const [r] = extractTimeRefs(text, c.observedAtMs, c.utcOffsetMinutes ?? 0, c.timeZone);
  if (r === undefined) throw new Error(`no time reference in ${text}`);
  return { start: r.start, end: r.end, when: localWhen(r.start, r.end, c.utcOffsetMinutes ?? 0, c.timeZone) };
}

describe('spans across a daylight-saving change', () => {
  it('"last month" said 31 March 2024 23:30 in New York (−04:00) is February at −05:00: 05:00Z to 04:59:59.999Z', () => {
    expect(refOf('I moved here last month.', '2024-03-31T23:30:00-04:00', 'America/New_York')).toEqual({ start: '2024-02-01T05:00:00.000Z', end: '2024-03-01T04:59:59.999Z', when: '2024-02' });
  });

  it('"next week" said 9 March 2024 (−05:00) is 11-17 March at −04:00', () => {
    expect(refOf('We will meet next week.', '2024-03-09T12:00:00-05:00', 'America/New_York')).toEqual({ start: '2024-03-11T04:00:00.000Z', end: '2024-03-18T03:59:59.999Z', when: '2024-03-11/2024-03-17' });
  });

  it('"in October" said 1 November in Paris (+01:00) starts at +02:00 and ends at +01:00 (the change is 27 October)', () => {
    expect(refOf('I visited Rome in October.', '2024-11-01T00:30:00+01:00', 'Europe/Paris')).toEqual({ start: '2024-09-30T22:00:00.000Z', end: '2024-10-31T22:59:59.999Z', when: '2024-10' });
  });

  it('without a zone the offset of the observation bounds the span, as documented', () => {
    expect(refOf('I moved here last month.', '2024-03-31T23:30:00-04:00')).toEqual({ start: '2024-02-01T04:00:00.000Z', end: '2024-03-01T03:59:59.999Z', when: '2024-02' });
  });
});
