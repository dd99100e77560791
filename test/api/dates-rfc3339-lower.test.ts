/**
 * RFC 3339 (section 5.6) allows the `T` and `Z` of a timestamp in lower case
 * ("2024-03-01t10:00:00z"); the hostile review h-break13 found them refused everywhere dates are
 * read. They are read as the upper-case forms, offsets included (the local time keeps the
 * writer's offset). Expected instants computed by hand: 2024-03-01T10:00:00Z = 1709287200000 ms;
 * 10:00 at +09:00 is 01:00 UTC = 1709254800000 ms.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { parseDateInput, strictIsoMs } from '../../src/util/date-input.js';
import { isoOffsetMinutes } from '../../src/util/time.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-dates-rfc3339', (e) => (encoder = e));

describe('lower-case t and z (RFC 3339)', () => {
  it('parseDateInput and strictIsoMs read them as T and Z, with any offset', () => {
    for (const v of ['2024-03-01t10:00:00z', '2024-03-01t10:00:00Z', '2024-03-01T10:00:00z', '2024-03-01t10:00z', '2024-03-01t10:00:00.000z']) {
      expect([v, parseDateInput(v, 'f')]).toEqual([v, 1709287200000]);
      expect([v, strictIsoMs(v)]).toEqual([v, 1709287200000]);
    }
    expect(parseDateInput('2024-03-01t10:00:00+09:00', 'f')).toBe(1709254800000);
    expect(isoOffsetMinutes('2024-03-01t10:00:00+09:00')).toBe(540);
    expect(isoOffsetMinutes('2024-03-01t10:00:00z')).toBe(0);
    // A day that does not exist, or an offset past ±14:00, is still refused in lower case.
    expect(() => parseDateInput('2024-02-30t10:00:00z', 'f')).toThrow(/does not exist/);
    expect(() => parseDateInput('2024-03-01t10:00:00+15:00', 'f')).toThrow(/offset/);
  });

  it('an observation, a recall window and a filter bound take them', async () => {
    const memory = await createMemory({ encoder });
    const a = await memory.add({ text: 'The harbour ferry leaves at ten.', observedAt: '2024-03-01t10:00:00+09:00' });
    const node = await memory.get(a.id);
    expect(node?.observedAt).toBe('2024-03-01T01:00:00.000Z');
    expect(node?.utcOffsetMinutes).toBe(540); // the writer's local 10:00, not 01:00
    const inside = await memory.recall('When does the ferry leave?', { after: '2024-03-01t00:00:00z', before: '2024-03-02t00:00:00z' });
    expect(inside.memories.map((m) => m.id)).toEqual([a.id]);
    expect(inside.memories[0]?.observedAtLocal).toBe('2024-03-01T10:00:00+09:00');
    const later = await memory.recall('When does the ferry leave?', { after: '2024-03-01t02:00:00z' });
    expect(later.memories).toEqual([]);
    // A metadata value in lower case compared with a bound in lower case (filter.ts reads both).
    const b = await memory.add({ text: 'The museum opens its new wing.', metadata: { opensAt: '2024-05-01t09:00:00z' } });
    expect((await memory.list({ filter: { opensAt: { $gte: '2024-05-01t08:00:00z' } } })).memories.map((m) => m.id)).toEqual([b.id]);
    expect((await memory.list({ filter: { opensAt: { $gte: '2024-05-01t10:00:00z' } } })).memories).toEqual([]);
    expect((await memory.list({ filter: { observedAt: { $lt: '2024-03-01t01:00:01z' } } })).memories.map((m) => m.id)).toEqual([a.id]);
    await memory.close();
  });
});
