/**
 * Dates written year first (util/date-input.ts `yearFirstIso`): the one written order without a
 * day/month ambiguity, used by public long-memory chat datasets for their session dates
 * ("2023/05/20 (Sat) 02:21"). Such a date is read as the ISO date it spells (no offset = UTC, as
 * for ISO); a weekday beside it must be that day's; day- or month-first dates stay refused.
 * Expected instants computed by hand: 2023-05-20 was a Saturday; 02:21 UTC = 1684549260000 ms.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { parseDateInput, strictIsoMs, yearFirstIso } from '../../src/util/date-input.js';
import { errorOf, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-dates-year-first', (e) => (encoder = e));

describe('yearFirstIso / parseDateInput', () => {
  it('reads year-first dates with a weekday, a 12-hour time or an offset as the ISO they spell', () => {
    const cases: Array<[string, string]> = [
      ['2023/05/20 (Sat) 02:21', '2023-05-20T02:21:00.000Z'],
      ['2023/05/20 (Saturday) 02:21', '2023-05-20T02:21:00.000Z'],
      ['2023/5/20', '2023-05-20T00:00:00.000Z'],
      ['2023.05.20 14:05:09', '2023-05-20T14:05:09.000Z'],
      ['2023-05-20 Sat 2:21 pm', '2023-05-20T14:21:00.000Z'],
      ['2023/05/20 12:05 a.m.', '2023-05-20T00:05:00.000Z'],
      ['2023/05/20 12:05 PM', '2023-05-20T12:05:00.000Z'],
      ['2023/05/20 02:21+02:00', '2023-05-20T00:21:00.000Z'],
      ['2024/02/29 (Thu) 23:59:59.5Z', '2024-02-29T23:59:59.500Z'],
    ];
    for (const [written, iso] of cases) expect([written, new Date(parseDateInput(written, 'f')).toISOString()]).toEqual([written, iso]);
    expect(parseDateInput('2023/05/20 (Sat) 02:21', 'f')).toBe(1684549260000);
    expect(strictIsoMs('2023/05/20 (Sat) 02:21')).toBe(1684549260000);
    // Plain ISO is left to the ISO reader.
    expect(yearFirstIso('2023-05-20')).toBeUndefined();
    expect(yearFirstIso('2023-05-20T02:21:00Z')).toBeUndefined();
  });

  it('refuses a wrong weekday, a day or hour that does not exist, and day- or month-first dates', () => {
    const refused = (v: string): string => {
      try {
        parseDateInput(v, 'observation.observedAt');
      } catch (e) {
        return `${(e as { code: string }).code} ${(e as Error).message}`;
      }
      return 'accepted';
    };
    expect(refused('2023/05/20 (Fri) 02:21')).toBe('INVALID_INPUT observation.observedAt: "2023/05/20 (Fri) 02:21" (a string) names a Friday, but 2023-05-20 is a Saturday; give the right weekday, or the date alone ("2023-05-20T02:21")');
    expect(strictIsoMs('2023/05/20 (Fri) 02:21')).toBeUndefined();
    expect(refused('2023/02/29')).toBe('INVALID_INPUT observation.observedAt: "2023/02/29" (a string) reads year first as "2023-02-29", which names a day, hour or UTC offset that does not exist (offsets within ±14:00)');
    expect(refused('2023/05/20 24:00')).toMatch(/^INVALID_INPUT .*reads year first as "2023-05-20T24:00"/);
    expect(refused('2023/05/20 13:00 pm')).toMatch(/^INVALID_INPUT .*a written date is not read unless year first, or RFC 2822 with its zone/);
    expect(refused('2023/05/20 (Sat')).toMatch(/^INVALID_INPUT /);
    expect(refused('2023/05/20 02:21+15:00')).toMatch(/^INVALID_INPUT .*does not exist/);
    for (const v of ['20/05/2023', '05/20/2023', '1/2/2024', 'May 20, 2023']) expect(refused(v)).toMatch(/a written date is not read unless year first, or RFC 2822 with its zone/);
  });
});

describe('a chat history with year-first session dates, through the public API', () => {
  it('stores each turn at its session instant, keeps the written offset, and takes the question date as now', async () => {
    const memory = await createMemory({ encoder });
    const added = await memory.addMany([
      { text: 'I adopted a beagle named Pepper.', speaker: 'user', observedAt: '2023/05/20 (Sat) 02:21' },
      { text: 'Congratulations on adopting Pepper!', speaker: 'assistant', observedAt: '2023/05/20 (Sat) 02:21' },
      { text: 'Pepper chewed my running shoes.', speaker: 'user', observedAt: '2023/06/02 (Fri) 18:40+02:00' },
    ]);
    const got = await Promise.all(added.map((r) => memory.get(r.id)));
    expect(got.map((m) => m?.observedAt)).toEqual(['2023-05-20T02:21:00.000Z', '2023-05-20T02:21:00.000Z', '2023-06-02T16:40:00.000Z']);
    const shoes = (await memory.recall('running shoes', { k: 1 })).memories[0];
    expect([shoes?.text, shoes?.observedAtLocal]).toEqual(['Pepper chewed my running shoes.', '2023-06-02T18:40:00+02:00']);
    // The question's date in the same form: "last month" is May 2023, so the May turn is in the window.
    const r = await memory.recall('What dog did I adopt last month?', { now: '2023/06/10 (Sat) 09:00', k: 3 });
    expect(r.memories[0]?.text).toBe('I adopted a beagle named Pepper.');
    // A wrong weekday in one observation refuses the whole batch, naming it; nothing is added.
    const e = (await errorOf(memory.addMany([{ text: 'ok', observedAt: '2023/05/21' }, { text: 'bad', observedAt: '2023/05/22 (Sun)' }]))) as { code: string; field: string };
    expect([e.code, e.field]).toEqual(['INVALID_INPUT', 'observations[1].observedAt']);
    expect((await memory.list()).memories).toHaveLength(3);
    await memory.close();
  });
});

describe('an observation { text, role } without a speaker is said by its role', () => {
  it('stores speaker = role, as a chat message without a name', async () => {
    const memory = await createMemory({ encoder });
    const [a, b, c] = await memory.addMany([
      { text: 'I moved to Lisbon in March.', role: 'user' },
      { text: 'Lisbon is lovely in spring.', role: 'assistant' },
      { text: 'Noted.', role: 'assistant', speaker: 'Aria' },
    ]);
    const got = await Promise.all([a, b, c].map((r) => memory.get(r?.id as string)));
    expect(got.map((m) => [m?.provenance.speaker, m?.provenance.metadata?.role])).toEqual([['user', 'user'], ['assistant', 'assistant'], ['Aria', 'assistant']]);
    await memory.close();
  });
});
