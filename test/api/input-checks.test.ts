/**
 * Input checks of the public API: the unknown-field message lists every accepted field, the
 * reserved metadata keys get the checks of their top-level fields, one strict date parser for
 * option and filter dates (epoch ms accepted everywhere), durations, and the query length limit.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, MAX_QUERY_CHARS } from '../../src/memory.js';
import { INPUT_FIELDS } from '../../src/write/validate.js';
import { parseDateInput, strictIsoMs } from '../../src/util/date-input.js';
import { errorOf, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-input-checks', (e) => (encoder = e));

const fieldOf = async (p: Promise<unknown>): Promise<[string, string]> => {
  const e = (await errorOf(p)) as { code: string; field: string };
  return [e.code, e.field];
};

describe('the unknown-field message', () => {
  it('lists every field add accepts, and each of them is accepted', async () => {
    const memory = await createMemory({ encoder });
    const e = (await errorOf(memory.add({ text: 'x', colour: 'red' } as never))) as { field: string; message: string };
    expect(e.field).toBe('observation.colour');
    expect(e.message).toBe(
      'observation.colour: unknown field; valid fields are text, observedAt, timeZone, speaker, source, turnId, sessionId, metadata, userId, agentId, expiresAt, role, content, name (a chat message gives role and content, and optionally name, instead of text)',
    );
    // Every listed field is one add takes (a message's fields on a message).
    const observation = { text: 'a', observedAt: '2024-01-01', timeZone: 'Europe/Lisbon', speaker: 's', source: 'src', turnId: 't', sessionId: 'x', metadata: {}, userId: 'u', agentId: 'g', expiresAt: '2999-01-01', role: 'user' };
    const message = { role: 'user', content: 'b', name: 'Ana' };
    expect([...new Set([...Object.keys(observation), ...Object.keys(message)])].sort()).toEqual([...INPUT_FIELDS].sort());
    await memory.add(observation);
    await memory.add(message);
    expect((await memory.stats()).nodes).toBe(2);
    await memory.close();
  });
});

describe('reserved keys inside metadata', () => {
  it('get the checks of the top-level fields: control characters, length, a day that exists', async () => {
    const memory = await createMemory({ encoder });
    expect(await fieldOf(memory.add({ text: 'x', userId: 'al\u0000ice' }))).toEqual(['INVALID_INPUT', 'observation.userId']);
    expect(await fieldOf(memory.add({ text: 'x', metadata: { userId: 'al\u0000ice' } }))).toEqual(['INVALID_INPUT', 'observation.metadata.userId']);
    expect(await fieldOf(memory.add({ text: 'x', metadata: { agentId: 'a'.repeat(257) } }))).toEqual(['INVALID_INPUT', 'observation.metadata.agentId']);
    expect(await fieldOf(memory.add({ text: 'x', metadata: { role: 'user\n' } }))).toEqual(['INVALID_INPUT', 'observation.metadata.role']);
    expect(await fieldOf(memory.add({ text: 'x', metadata: { expiresAt: '2999-02-30' } }))).toEqual(['INVALID_INPUT', 'observation.metadata.expiresAt']);
    expect(await fieldOf(memory.add({ text: 'x', metadata: { expiresAt: true } }))).toEqual(['INVALID_INPUT', 'observation.metadata.expiresAt']);
    expect(await fieldOf(memory.add({ text: 'x' }, { scope: { agentId: 'b\u0007ot' } }))).toEqual(['INVALID_INPUT', 'options.scope.agentId']);
    expect(await fieldOf(memory.addMany([{ text: 'ok' }, { text: 'x', metadata: { userId: 'a\u001fb' } }]))).toEqual(['INVALID_INPUT', 'observations[1].metadata.userId']);
    expect((await memory.stats()).nodes).toBe(0);
    // A valid expiry in metadata is kept in the same ISO UTC form as a top-level one.
    const { id } = await memory.add({ text: 'y', metadata: { expiresAt: '2999-01-31', userId: 'alice' } });
    expect((await memory.get(id))?.provenance.metadata).toEqual({ expiresAt: '2999-01-31T00:00:00.000Z', userId: 'alice' });
    // The same value at the top level and in metadata is one value.
    const { id: id2 } = await memory.add({ text: 'z', expiresAt: '2999-01-31T00:00:00Z', metadata: { expiresAt: '2999-01-31' } });
    expect((await memory.get(id2))?.provenance.metadata).toEqual({ expiresAt: '2999-01-31T00:00:00.000Z' });
    await memory.close();
  });
});

describe('dates of options and filters', () => {
  it('one strict parser: a day that does not exist is refused, epoch ms and Dates are accepted', () => {
    expect(strictIsoMs('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(strictIsoMs('2024-03-01T10:00:00+02:00')).toBe(Date.UTC(2024, 2, 1, 8));
    expect(strictIsoMs('2024-03-01 10:00:00.5Z')).toBe(Date.UTC(2024, 2, 1, 10, 0, 0, 500));
    expect(strictIsoMs('2024-03-01T10:00-0330')).toBe(Date.UTC(2024, 2, 1, 13, 30));
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-04-31', '2024-03-01T24:00', '2024-03-01T10:60', '2024-03-01T10:00+15:00', '2024-03-01x', 'March 1, 2024']) expect([bad, strictIsoMs(bad)]).toEqual([bad, undefined]);
    expect(parseDateInput(0, 'f')).toBe(0);
    expect(parseDateInput(new Date(5), 'f')).toBe(5);
    for (const bad of [Number.NaN, Infinity, 8.64e15 + 1, new Date(Number.NaN), '2024-02-30', null, true]) expect(() => parseDateInput(bad, 'options.after')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'options.after' }));
  });

  it('recall: after and before take ISO strings and epoch ms alike; filter bounds are checked by the same parser', async () => {
    const memory = await createMemory({ encoder });
    await memory.add({ text: 'I adopted a cat named Miso.', observedAt: '2024-03-05T10:00:00Z' });
    await memory.add({ text: 'I adopted a dog named Rex.', observedAt: '2024-06-05T10:00:00Z' });
    const texts = async (o: Parameters<typeof memory.recall>[1]): Promise<string[]> => (await memory.recall('Which pet did I adopt?', o)).memories.map((m) => m.text);
    const iso = await texts({ after: '2024-03-01', before: '2024-04-01' });
    expect(iso).toEqual(['I adopted a cat named Miso.']);
    expect(await texts({ after: Date.UTC(2024, 2, 1), before: Date.UTC(2024, 3, 1) })).toEqual(iso);
    expect(await texts({ filter: { observedAt: { $gte: Date.UTC(2024, 5, 1) } } })).toEqual(['I adopted a dog named Rex.']);
    expect(await texts({ filter: { observedAt: { $gte: '2024-06-01' } } })).toEqual(['I adopted a dog named Rex.']);
    expect(await fieldOf(memory.recall('pet', { after: '2024-02-30' }))).toEqual(['INVALID_INPUT', 'options.after']);
    expect(await fieldOf(memory.recall('pet', { before: '2024-02-30' }))).toEqual(['INVALID_INPUT', 'options.before']);
    expect(await fieldOf(memory.recall('pet', { filter: { observedAt: { $gte: '2024-02-30' } } }))).toEqual(['INVALID_INPUT', 'options.filter.observedAt.$gte']);
    expect(await fieldOf(memory.list({ filter: { expiresAt: { $lt: '2024-02-30' } } }))).toEqual(['INVALID_INPUT', 'options.filter.expiresAt.$lt']);
    expect(await fieldOf(memory.add({ text: 'x', expiresAt: '2999-02-30' }))).toEqual(['INVALID_INPUT', 'observation.expiresAt']);
    // A number bound on a field that is not a time still compares with stored numbers.
    await memory.add({ text: 'Importance test.', metadata: { importance: 3 } });
    expect((await memory.list({ filter: { importance: { $gt: 2 } } })).memories.map((m) => m.text)).toEqual(['Importance test.']);
    await memory.close();
  });

  it('deadlineMs must be a finite number ≥ 0 (INVALID_OPTION naming it)', async () => {
    const memory = await createMemory({ encoder });
    for (const bad of [-1, Number.NaN, Infinity, '100']) expect(await fieldOf(memory.recall('pet', { deadlineMs: bad as number }))).toEqual(['INVALID_OPTION', 'options.deadlineMs']);
    expect((await memory.recall('pet', { deadlineMs: 0 })).memories).toEqual([]);
    await memory.close();
  });
});

describe('the query length', () => {
  it(`is at most MAX_QUERY_CHARS (${MAX_QUERY_CHARS}) characters: TOO_LARGE naming query (answer recalls through it)`, async () => {
    const memory = await createMemory({ encoder });
    await memory.add({ text: 'My dog is called Rex.' });
    expect(MAX_QUERY_CHARS).toBe(4000);
    const long = 'dog '.repeat(MAX_QUERY_CHARS / 4) + 'x';
    expect(await fieldOf(memory.recall(long))).toEqual(['TOO_LARGE', 'query']);
    expect((await memory.recall(long.slice(0, MAX_QUERY_CHARS))).memories.map((m) => m.text)).toEqual(['My dog is called Rex.']);
    await memory.close();
  });
});

describe('a sessionId as written (one rule on the observation and in options.scope)', () => {
  it('refuses a control character, a blank one and one over 1,000 characters in both places, naming the field', async () => {
    const memory = await createMemory({ encoder });
    const messageOf = async (p: Promise<unknown>): Promise<[string, string, string]> => {
      const e = (await errorOf(p)) as { code: string; field: string; message: string };
      return [e.code, e.field, e.message];
    };
    expect(await messageOf(memory.add({ text: 'x', sessionId: 's\0' }))).toEqual(['INVALID_INPUT', 'observation.sessionId', 'observation.sessionId: contains a control character (U+0000); give an id without one']);
    expect(await messageOf(memory.add({ text: 'x' }, { scope: { sessionId: 's\0' } }))).toEqual(['INVALID_INPUT', 'options.scope.sessionId', 'options.scope.sessionId: contains a control character (U+0000); give an id without one']);
    expect(await fieldOf(memory.addMany([{ text: 'a' }, { text: 'b', sessionId: 'one\ntwo' }]))).toEqual(['INVALID_INPUT', 'observations[1].sessionId']);
    expect(await fieldOf(memory.add({ text: 'x', sessionId: ' ' }))).toEqual(['INVALID_INPUT', 'observation.sessionId']);
    expect(await fieldOf(memory.add({ text: 'x', sessionId: 's'.repeat(1001) }))).toEqual(['INVALID_INPUT', 'observation.sessionId']);
    expect(await fieldOf(memory.add({ text: 'x' }, { scope: { sessionId: 's'.repeat(1001) } }))).toEqual(['INVALID_INPUT', 'options.scope.sessionId']);
    expect((await memory.list()).memories).toEqual([]);
    await memory.close();
  });

  it('takes up to 1,000 characters in both places (not the 256 of userId), and a read by scope finds it', async () => {
    const memory = await createMemory({ encoder });
    const long = 's'.repeat(1000);
    await memory.add({ text: 'On the observation.', sessionId: long });
    await memory.add({ text: 'From the scope.' }, { scope: { sessionId: long } });
    expect((await memory.list({ scope: { sessionId: long } })).memories.map((m) => m.text)).toEqual(['On the observation.', 'From the scope.']);
    await memory.close();
  });
});
