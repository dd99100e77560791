/**
 * Issue 24 (hostile review): a time reference quotes the expression as written, without the comma
 * chrono takes along ("on Tuesday," → "on Tuesday"), and a recurring expression ("on Tuesday
 * evenings", "every Monday") is not anchored to one day: it gives no time reference.
 */
import { describe, expect, it } from 'vitest';
import { extractTimeRefs } from '../../src/util/time.js';

const SAID = Date.parse('2023-05-10T12:00:00Z'); // a Wednesday

describe('time reference text and recurring expressions', () => {
  it('"on Tuesday," is quoted without its comma, and still resolves to the Tuesday before', () => {
    const [r, ...rest] = extractTimeRefs('I met her on Tuesday, and it was great.', SAID);
    expect(rest).toEqual([]);
    expect(r?.text).toBe('on Tuesday');
    expect(r?.start).toBe('2023-05-09T00:00:00.000Z');
    expect(extractTimeRefs('We meet on 3 June; bring cake.', SAID).map((t) => t.text)).toEqual(['on 3 June']);
  });

  it.each([
    'We play chess on Tuesday evenings.',
    'I swim every Monday.',
    'Each Friday we eat fish.',
    'We meet every other Thursday at the club.',
  ])('%s → no time reference', (text) => {
    expect(extractTimeRefs(text, SAID)).toEqual([]);
  });

  it('one Tuesday evening is still a day', () => {
    expect(extractTimeRefs('We met on Tuesday evening.', SAID).map((t) => [t.text, t.start])).toEqual([['on Tuesday evening', '2023-05-09T00:00:00.000Z']]);
  });
});
