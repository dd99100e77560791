/**
 * Dates the caller writes are checked for what does not exist, the same way wherever they come in:
 * a UTC offset outside ±14:00 (`+25:00` shifted the instant by a day and was kept as the
 * speaker's offset), a day that does not exist in a recall window (`after: '2024-02-30'` acted as
 * 1 March), and an invalid Date (named as one, not as "an object").
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { describeValue, isJevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { checkObservation, checkRecall } from '../../src/memory/validate.js';
import { buildAnswerPrompt } from '../../src/system-two/prompt.js';
import { isoOffsetMinutes } from '../../src/util/time.js';
import { cli } from '../cli/helpers.js';

/** An encoder that must never be reached: every case here is refused (or checked) before embedding. */
const unreachable: Encoder = {
  fingerprint: 'test/unreachable@1',
  dimension: 4,
  embed: () => Promise.reject(new Error('the encoder was reached')),
};

/** The error a call throws (or `undefined`), synchronous or not. */
async function errorOf(f: () => unknown): Promise<unknown> {
  try {
    await f();
    return undefined;
  } catch (e) {
    return e;
  }
}

/** `{code, field, message}` of a JevMemError, for one `toEqual`. */
async function refusal(f: () => unknown): Promise<{ code: string; field: unknown; message: string } | string> {
  const e = await errorOf(f);
  if (!isJevMemError(e)) return `not a JevMemError: ${String(e)}`;
  return { code: e.code, field: e.details.field, message: e.message };
}

const LIMIT = 1000;
const observed = (observedAt: unknown) => checkObservation({ text: 'x', observedAt }, 'observation', LIMIT);

describe('UTC offsets of observedAt', () => {
  it.each([
    // [written, instant (hand-computed: 10:00 local minus the offset), offset in minutes]
    ['2024-03-10T10:00:00+14:00', '2024-03-09T20:00:00.000Z', 840],
    ['2024-03-10T10:00:00-14:00', '2024-03-11T00:00:00.000Z', -840],
    ['2024-03-10T10:00:00-12:00', '2024-03-10T22:00:00.000Z', -720],
    ['2024-03-10T10:00:00+05:45', '2024-03-10T04:15:00.000Z', 345],
    ['2024-03-10T10:00:00+1359', '2024-03-09T20:01:00.000Z', 839],
  ])('accepts %s (within ±14:00)', (written, instant, offset) => {
    const c = observed(written);
    expect(new Date(c.observedAtMs as number).toISOString()).toBe(instant);
    expect(c.utcOffsetMinutes).toBe(offset);
  });

  it.each([
    ['2024-03-10T10:00:00+25:00', '+25:00'],
    ['2024-03-10T10:00:00+14:01', '+14:01'],
    ['2024-03-10T10:00:00+14:30', '+14:30'],
    ['2024-03-10T10:00:00-15:00', '-15:00'],
    ['2024-03-10T10:00:00-14:60', '-14:60'],
    ['2024-03-10T10:00:00+10:60', '+10:60'],
    ['2024-03-10T10:00:00+1500', '+1500'],
    ['2024-03-10T10:00:00+99:99', '+99:99'],
    ['2024-03-10T10:00+15', '+15'],
    ['2024-03-10 10:00:00 -16:00', '-16:00'],
  ])('refuses %s with INVALID_INPUT naming observation.observedAt', async (written, offset) => {
    expect(await refusal(() => observed(written))).toEqual({
      code: 'INVALID_INPUT',
      field: 'observation.observedAt',
      message: `observation.observedAt: "${written}" (a string) has the UTC offset ${offset}, which does not exist; an offset is ±HH:MM from -14:00 to +14:00 with minutes 00-59, such as "2024-03-10T10:00:00+09:00"`,
    });
  });

  it('refuses it through add and addMany (the paths of JSONL ingest and the edge HTTP API), writing nothing', async () => {
    const memory = await createMemory({ encoder: unreachable });
    expect(await refusal(() => memory.add({ text: 'x', observedAt: '2024-03-10T10:00:00+25:00' }))).toMatchObject({ code: 'INVALID_INPUT', field: 'observation.observedAt' });
    expect(await refusal(() => memory.addMany([{ text: 'a' }, { text: 'b', observedAt: '2024-03-10T10:00:00-15:00' }]))).toMatchObject({ code: 'INVALID_INPUT', field: 'observations[1].observedAt' });
    expect(await memory.namespaces()).toEqual([]);
    await memory.close();
  });
});

describe('recall window bounds get the same date checks as observedAt', () => {
  it.each([
    ['after', '2024-02-30'],
    ['before', '2023-02-29T10:00:00Z'],
    ['after', '2024-04-31'],
    ['before', '2024-13-01'],
  ] as const)('refuses %s %s as a day that does not exist', async (key, value) => {
    expect(await refusal(() => checkRecall('q', { [key]: value }))).toEqual({
      code: 'INVALID_INPUT',
      field: `options.${key}`,
      message: `options.${key}: "${value}" (a string) names a day that does not exist; use ISO-8601 such as "2023-05-08T13:56:00Z"`,
    });
  });

  it('refuses a UTC offset outside ±14:00 in a bound', async () => {
    expect(await refusal(() => checkRecall('q', { before: '2024-03-10T00:00:00+25:00' }))).toMatchObject({ code: 'INVALID_INPUT', field: 'options.before' });
  });

  it('still accepts 29 February of a leap year (UTC midnight) and an offset within range', () => {
    expect(checkRecall('q', { after: '2024-02-29', before: '2024-03-10T10:00:00+14:00' })).toEqual({ afterMs: 1709164800000, beforeMs: 1710014400000 });
  });

  it('refuses 2024-02-30 through Memory.recall, before embedding the query', async () => {
    const memory = await createMemory({ encoder: unreachable });
    expect(await refusal(() => memory.recall('q', { after: '2024-02-30' }))).toMatchObject({ code: 'INVALID_INPUT', field: 'options.after' });
    await memory.close();
  });
});

describe('an invalid Date is named as one', () => {
  it('describeValue tells an invalid Date and a valid one from an object', () => {
    expect(describeValue(new Date('nope'))).toBe('an invalid Date');
    expect(describeValue(new Date(0))).toBe('a Date (1970-01-01T00:00:00.000Z)');
    expect(describeValue({})).toBe('an object');
  });

  it('in recall windows', async () => {
    expect(await refusal(() => checkRecall('q', { before: new Date('nope') }))).toEqual({
      code: 'INVALID_INPUT',
      field: 'options.before',
      message: 'options.before: expected a valid Date, got an invalid Date',
    });
    expect(await refusal(() => checkRecall('q', { after: new Date(NaN) }))).toMatchObject({ field: 'options.after', message: 'options.after: expected a valid Date, got an invalid Date' });
  });

  it('in observedAt', async () => {
    expect(await refusal(() => observed(new Date('nope')))).toEqual({
      code: 'INVALID_INPUT',
      field: 'observation.observedAt',
      message: 'observation.observedAt: expected a valid Date, got an invalid Date',
    });
    // Not a Date, a string or a number: the value with its type, not just "object".
    expect(await refusal(() => observed({ year: 2023 }))).toMatchObject({ message: 'observation.observedAt: expected an ISO-8601 string, a Date or epoch milliseconds, got an object' });
  });

  it('in the now of answer and of buildAnswerPrompt', async () => {
    const memory = await createMemory({ encoder: unreachable, systemTwo: { model: 'm', complete: () => Promise.resolve('never') } });
    expect(await refusal(() => memory.answer('q', { now: new Date('nope') }))).toEqual({
      code: 'INVALID_INPUT',
      field: 'options.now',
      message: 'options.now: expected a valid Date or a date string such as "2024-03-10", got an invalid Date',
    });
    await memory.close();
    expect(await refusal(() => buildAnswerPrompt('q', [], new Date('nope')))).toEqual({ code: 'INVALID_INPUT', field: 'now', message: 'now: expected a valid Date, got an invalid Date' });
    // An options object passed where the date goes is refused, not printed as "[object Object]".
    expect((await refusal(() => buildAnswerPrompt('q', [], { now: new Date() } as never))).field).toBe('now');
  });

  it('in the now clock of createMemory', async () => {
    expect(await refusal(() => createMemory({ encoder: unreachable, now: 'today' as never }))).toEqual({
      code: 'INVALID_OPTION',
      field: 'now',
      message: 'option now: expected a function returning a Date, got "today" (a string)',
    });
    const memory = await createMemory({ encoder: unreachable, now: () => new Date('nope') });
    expect(await refusal(() => memory.export())).toEqual({ code: 'INVALID_OPTION', field: 'now', message: 'option now: the clock returned an invalid Date; it must return a valid Date' });
    await memory.close();
  });
});

describe('the CLI gets the same errors', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('ingest refuses a JSONL line with offset +25:00, and recall refuses --after 2024-02-30', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-validation-'));
    dirs.push(dir);
    const store = join(dir, 'store');
    const good = join(dir, 'good.jsonl');
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(good, '{"text":"Maya: I moved to Porto.","observedAt":"2024-03-10T10:00:00+01:00"}\n');
    writeFileSync(bad, '{"text":"Maya: hello.","observedAt":"2024-03-10T10:00:00+25:00"}\n');
    const refused = await cli(['ingest', bad, '--store', store]);
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toContain('INVALID_INPUT: line 1.observedAt: "2024-03-10T10:00:00+25:00" (a string) has the UTC offset +25:00, which does not exist');
    expect((await cli(['ingest', good, '--store', store])).code).toBe(0);
    const r = await cli(['recall', 'Where did Maya move?', '--store', store, '--after', '2024-02-30']);
    expect(r.code).toBe(2); // a usage error naming the flag, checked before the store is opened
    expect(r.err.join('\n')).toContain('jev-mem: --after: "2024-02-30" (a string) names a day that does not exist');
  });
});

describe('isoOffsetMinutes reads every offset shape the parser accepts', () => {
  it.each([
    ['2024-03-10T10:00:00+09:00', 540],
    ['2024-03-10T10:00:00-0330', -210],
    ['2024-03-10T10:00:00+05', 300],
    ['2024-03-10T10:00:00+5:00', 300],
    ['2024-03-10 10:00:00+05:00', 300],
    ['2024-03-10T10:00:00Z', 0],
    ['2024-03-10T10:00:00', undefined],
  ] as const)('%s → %s', (v, minutes) => expect(isoOffsetMinutes(v)).toBe(minutes));
});

describe('an offset written in observedAt agrees with timeZone', () => {
  it('refuses +01:00 with America/New_York (UTC−05:00 on 2024-01-10), naming timeZone and both offsets', () => {
    let err: unknown;
    try {
      checkObservation({ text: 'x', observedAt: '2024-01-10T10:00:00+01:00', timeZone: 'America/New_York' }, 'observation', LIMIT);
    } catch (e) {
      err = e;
    }
    expect(isJevMemError(err) && err.code).toBe('INVALID_INPUT');
    expect((err as { details: { field: string } }).details.field).toBe('observation.timeZone');
    expect((err as Error).message).toContain('-05:00');
    expect((err as Error).message).toContain('+01:00');
  });

  it('accepts the zone\'s own offset (daylight saving included), Z, and no offset', () => {
    // New York is −04:00 on 2024-07-10 (daylight saving time).
    expect(checkObservation({ text: 'x', observedAt: '2024-07-10T10:00:00-04:00', timeZone: 'America/New_York' }, 'observation', LIMIT).utcOffsetMinutes).toBe(-240);
    expect(checkObservation({ text: 'x', observedAt: '2024-07-10T14:00:00Z', timeZone: 'America/New_York' }, 'observation', LIMIT).utcOffsetMinutes).toBe(-240);
    expect(checkObservation({ text: 'x', observedAt: '2024-01-10T15:00:00', timeZone: 'America/New_York' }, 'observation', LIMIT).utcOffsetMinutes).toBe(-300);
  });
});
