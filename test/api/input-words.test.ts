/**
 * Small input defects a fresh review found (issue 22, h-break6): a hole of a sparse `addMany`
 * array is named as the observation it is; a range bound on a numeric field that is not a number
 * says so (not "expected an ISO-8601 date"); a speaker with no visible character is no speaker.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import type { MemoryNode } from '../../src/types.js';
import { compileNodeFilter } from '../../src/read/filter.js';
import { errorOf, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-input-words', (e) => (encoder = e));

describe('addMany of a sparse array', () => {
  it('names the hole observations[0], not the encoder’s texts[0], and writes nothing', async () => {
    const m = await createMemory({ encoder });
    // eslint-disable-next-line no-sparse-arrays
    const e = await errorOf(m.addMany([, { text: 'ok then' }] as never));
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'observations[0]' });
    expect((await m.stats()).nodes).toBe(0);
    await m.close();
  });
});

describe('a range bound on a field that is not a time field', () => {
  const node = (metadata: Record<string, unknown>): MemoryNode => ({ provenance: { metadata } }) as unknown as MemoryNode;

  it('a string that reads as a number is refused saying to give a number', () => {
    const e = (() => {
      try {
        compileNodeFilter({ n: { $gt: '3' } }, 'options.filter');
      } catch (err) {
        return err as { code: string; field: string; message: string };
      }
      throw new Error('expected a throw');
    })();
    expect(e).toMatchObject({ code: 'INVALID_INPUT', field: 'options.filter.n.$gt' });
    expect(e.message).toBe('options.filter.n.$gt: expected a finite number or an ISO-8601 date/instant such as "2024-03-01", got "3" (a string); to compare with stored numbers give a number (3), not a string');
  });

  it('NaN and Infinity are refused as not finite numbers; a date string still compares as a date', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => compileNodeFilter({ n: { $gt: bad } }, 'options.filter'), String(bad)).toThrow(/^options\.filter\.n\.\$gt: expected a finite number or an ISO-8601 date\/instant such as "2024-03-01", got (NaN|Infinity)$/);
    }
    expect(() => compileNodeFilter({ n: { $gt: 'soon' } }, 'options.filter')).toThrow(/got "soon" \(a string\)$/);
    // Dates on a metadata field: unchanged (compared as instants), and a day that does not exist named as such.
    const after = compileNodeFilter({ 'metadata.d': { $gte: '2023-06-01' } }, 'options.filter');
    expect([after(node({ d: '2024-01-01' })), after(node({ d: '2023-01-01' }))]).toEqual([true, false]);
    expect(() => compileNodeFilter({ 'metadata.d': { $gte: '2023-02-30' } }, 'options.filter')).toThrow(/2023-02-30/);
    // Numbers: unchanged.
    const gt = compileNodeFilter({ 'metadata.n': { $gt: 3 } }, 'options.filter');
    expect([gt(node({ n: 5 })), gt(node({ n: 2 })), gt(node({ n: '5' }))]).toEqual([true, false, false]);
  });
});

describe('a speaker with no visible character', () => {
  it('is taken as no speaker given: add and addMany write none, update keeps the old one, a real name is kept', async () => {
    const m = await createMemory({ encoder });
    const a = await m.add({ text: 'I water the ferns on Sundays', speaker: '' });
    const [b, c] = await m.addMany([
      { text: 'The cat sleeps on the radiator', speaker: '   ' },
      { text: 'My sister plays the cello', speaker: 'Ana' },
    ]);
    expect((await m.get(a.id))?.provenance.speaker).toBeUndefined();
    expect((await m.get(b?.id as string))?.provenance.speaker).toBeUndefined();
    expect((await m.get(c?.id as string))?.provenance.speaker).toBe('Ana');
    // update: as when speaker is left out, the new version keeps the old one's.
    const u = await m.update(c?.id as string, { text: 'My sister plays the viola now', speaker: '\u200b' });
    expect((await m.get(u.id))?.provenance.speaker).toBe('Ana');
    await m.close();
  });
});
