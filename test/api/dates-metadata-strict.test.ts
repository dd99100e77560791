/**
 * h-break12 findings 4, 5: dates and metadata are refused rather than stored with a guessed or
 * lost meaning.
 * - One date parser (util/date-input.ts) for `observedAt`, recall's `after` / `before`, list and
 *   recall filter bounds and `expiresAt`: a written date ("1/2/2024", "March 1, 2024") and a
 *   nonzero number under 1e11 (epoch seconds: 1709287200 s is 2024-03-01T10:00:00Z, as ms a day of
 *   January 1970) are INVALID_INPUT naming the field; ISO strings, Dates, epoch ms (and 0) pass.
 * - Metadata holding a Map, Set, typed array or class instance (JSON would store a Map as `{}`) is
 *   INVALID_INPUT naming the path; a Date is kept as its ISO-8601 UTC string.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { toOperation } from '../../src/edge/http.js';
import { createMemory } from '../../src/memory.js';
import { parseDateInput } from '../../src/util/date-input.js';
import { errorOf, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-dates-metadata-strict', (e) => (encoder = e));

const refusal = async (p: Promise<unknown>): Promise<[string, string, string]> => {
  const e = (await errorOf(p)) as { code: string; field: string; message: string };
  return [e.code, e.field, e.message];
};

describe('dates: ISO-8601, a Date or epoch ms, nothing guessed (finding 4)', () => {
  it('add refuses a written date and epoch seconds in observedAt, naming the field; ISO, Date and ms pass', async () => {
    const memory = await createMemory({ encoder });
    for (const written of ['1/2/2024', 'March 1, 2024', '8 May 2023']) {
      const [code, field, message] = await refusal(memory.add({ text: 'x', observedAt: written }));
      expect([code, field]).toEqual(['INVALID_INPUT', 'observation.observedAt']);
      expect(message).toContain('a written date is not read');
    }
    const [code, field, message] = await refusal(memory.add({ text: 'secs', observedAt: 1709287200 }));
    expect([code, field]).toEqual(['INVALID_INPUT', 'observation.observedAt']);
    expect(message).toBe('observation.observedAt: 1709287200 is read as epoch seconds (a number under 100000000000 would be a day of 1970 as milliseconds); give epoch milliseconds (1709287200 s = 1709287200000 ms), a Date or an ISO-8601 string');
    expect(await refusal(memory.addMany([{ text: 'ok', observedAt: '2024-03-01' }, { text: 'neg', observedAt: -1 }]))).toEqual(expect.arrayContaining(['INVALID_INPUT', 'observations[1].observedAt']));
    expect((await memory.list()).memories).toEqual([]); // nothing half-written
    const ms = await memory.add({ text: 'ms', observedAt: 1709287200000 });
    const date = await memory.add({ text: 'date', observedAt: new Date(1709287200000) });
    const iso = await memory.add({ text: 'iso', observedAt: '2024-03-01T11:00:00+01:00' });
    for (const r of [ms, date, iso]) expect((await memory.get(r.id))?.observedAt).toBe('2024-03-01T10:00:00.000Z');
    await memory.close();
  });

  it('recall after/before, list and recall filter bounds and expiresAt refuse epoch seconds, naming the field', async () => {
    const memory = await createMemory({ encoder });
    await memory.add({ text: 'I adopted a cat named Miso.', observedAt: '2024-03-05T10:00:00Z' });
    const field = async (p: Promise<unknown>): Promise<[string, string]> => (await refusal(p)).slice(0, 2) as [string, string];
    expect(await field(memory.recall('cat', { before: 1709287200 }))).toEqual(['INVALID_INPUT', 'options.before']);
    expect(await field(memory.recall('cat', { after: 1709287200 }))).toEqual(['INVALID_INPUT', 'options.after']);
    expect(await field(memory.list({ filter: { observedAt: { $gte: 1709287200 } } }))).toEqual(['INVALID_INPUT', 'options.filter.observedAt.$gte']);
    expect(await field(memory.recall('cat', { filter: { observedAt: { $lt: 'March 1, 2024' } } }))).toEqual(['INVALID_INPUT', 'options.filter.observedAt.$lt']);
    expect(await field(memory.add({ text: 'exp', expiresAt: 4102444800 }))).toEqual(['INVALID_INPUT', 'observation.expiresAt']);
    // ms still work, and 0 (the same instant in seconds and ms) is 1970-01-01.
    expect((await memory.recall('cat', { after: 1709287200000 })).memories.map((m) => m.text)).toEqual(['I adopted a cat named Miso.']);
    expect(parseDateInput(0, 'f')).toBe(0);
    expect(parseDateInput(-1e11, 'f')).toBe(-1e11);
    await memory.close();
  });

  it('the Worker HTTP API reads `now` with the same parser', () => {
    expect(() => toOperation({ name: 'recall', namespace: 'ns' }, 'ns', { query: 'q', now: 1709287200 }, 10)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'now' }));
  });
});

describe('metadata: plain JSON values only (finding 5)', () => {
  it('a Map, Set, typed array or class instance is INVALID_INPUT naming its path; nothing is written', async () => {
    const memory = await createMemory({ encoder });
    class Point {
      constructor(public x = 1) {}
    }
    const cases: Array<[unknown, string]> = [
      [{ m: new Map([[1, 2]]) }, 'a Map (at observation.metadata.m), which JSON would store as {}'],
      [{ s: new Set([1]) }, 'a Set (at observation.metadata.s)'],
      [{ deep: { b: new Uint8Array([1, 2]) } }, 'a Uint8Array (at observation.metadata.deep.b)'],
      [{ list: [new Point()] }, 'a Point (at observation.metadata.list[0])'],
    ];
    for (const [metadata, says] of cases) {
      const [code, field, message] = await refusal(memory.add({ text: 'md', metadata: metadata as Record<string, unknown> }));
      expect([code, field]).toEqual(['INVALID_INPUT', 'observation.metadata']);
      expect(message).toContain(says);
    }
    expect((await memory.list()).memories).toEqual([]);
    await memory.close();
  });

  it('a Date is kept as its ISO-8601 UTC string; plain, null-prototype and JSON-parsed objects pass', async () => {
    const memory = await createMemory({ encoder });
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: 1 });
    const r = await memory.add({ text: 'md ok', metadata: { when: new Date('2024-01-01T00:00:00Z'), bare, parsed: JSON.parse('{"a":[1,{"b":2}]}') as unknown } });
    expect((await memory.get(r.id))?.provenance.metadata).toEqual({ when: '2024-01-01T00:00:00.000Z', bare: { k: 1 }, parsed: { a: [1, { b: 2 }] } });
    await memory.close();
  });
});
