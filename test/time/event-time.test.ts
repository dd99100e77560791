/**
 * Issue 14: event time end to end. Recalled memories carry their resolved time references next
 * to `observedAt` (and the local time of the speaker); the System-Two prompt, the CLI and the
 * edge HTTP API show them; recall takes an `after` / `before` window on event time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { toOperation } from '../../src/edge/http.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { buildAnswerPrompt, memoryLine } from '../../src/system-two/prompt.js';
import { cli, codeOf, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('event-time', (e) => (encoder = e));
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const MARATHON = { text: 'Theo: I finished the half marathon this morning!', observedAt: '2024-03-10T07:30:00+09:00', speaker: 'Theo', timeZone: 'Asia/Tokyo' };
const LISBON = { text: 'Maya: we went to Lisbon on 14 August for a wedding.', observedAt: '2024-02-20T10:00:00Z', speaker: 'Maya' };
const NIECE = { text: 'Maya: my niece was born on December 2, she is lovely.', observedAt: '2024-07-01T10:00:00Z', speaker: 'Maya' };
const UNDATED = { text: 'Maya: I like quiet weddings in Lisbon.', speaker: 'Maya' };

async function memoryWith(...obs: object[]): Promise<Memory> {
  const memory = await createMemory({ encoder });
  for (const o of obs) await memory.add(o as never);
  return memory;
}

describe('recall carries event time', () => {
  it('keeps the +09:00 offset: the marathon is on the local day 2024-03-10, stored at 22:30Z the day before', async () => {
    const memory = await memoryWith(MARATHON);
    const [m] = (await memory.recall('When did Theo run the half marathon?')).memories;
    await memory.close();
    expect(m?.observedAt).toBe('2024-03-09T22:30:00.000Z');
    expect(m?.observedAtLocal).toBe('2024-03-10T07:30:00+09:00');
    expect(m?.timeZone).toBe('Asia/Tokyo');
    // "this morning": the local day 2024-03-10 = [2024-03-09T15:00Z, 2024-03-10T14:59:59.999Z]
    expect(m?.timeRefs).toEqual([{ text: 'this morning', start: '2024-03-09T15:00:00.000Z', end: '2024-03-10T14:59:59.999Z', when: '2024-03-10', certainty: 0.9 }]);
  });

  it('resolves the year-less past dates of the issue to 2023-08-14 and 2023-12-02', async () => {
    const memory = await memoryWith(LISBON, NIECE);
    const r = (await memory.recall('When was the wedding in Lisbon and when was the niece born?')).memories;
    await memory.close();
    const refs = Object.fromEntries(r.map((m) => [m.text.slice(0, 20), m.timeRefs.map((t) => [t.when, t.certainty])]));
    expect(refs['Maya: we went to Lis']).toEqual([['2023-08-14', 0.75]]);
    expect(refs['Maya: my niece was b']).toEqual([['2023-12-02', 0.75]]);
  });

  it('filters by an after/before window on event time: "August 2023" finds the Lisbon trip said in February 2024', async () => {
    const memory = await memoryWith(LISBON, NIECE, UNDATED, MARATHON);
    const inAugust = (await memory.recall('What did we do?', { after: '2023-08-01', before: '2023-09-01' })).memories.map((m) => m.text);
    const inDecember = (await memory.recall('What happened?', { after: new Date('2023-12-01T00:00:00Z'), before: '2023-12-31' })).memories.map((m) => m.text);
    // Observation time stands in when a memory has no time reference; no time at all = outside.
    const said2024 = (await memory.recall('Lisbon wedding', { after: '2024-01-01' })).memories.map((m) => m.text);
    await memory.close();
    expect(inAugust).toEqual([LISBON.text]);
    expect(inDecember).toEqual([NIECE.text]);
    expect(said2024).not.toContain(LISBON.text); // its event (2023-08-14) is before the window
    expect(said2024).not.toContain(UNDATED.text);
    expect(said2024).toContain(MARATHON.text);
  });

  it('chooses the anchors inside the window: one 2021 pizza night among 60 from 2023 that outrank it', async () => {
    const memory = await createMemory({ encoder, parameters: { maintenanceInterval: 0 } });
    // 60 pizza nights in 2023, each naming pizza twice (so each outranks the 2021 one lexically),
    // and one in 2021. Without the window's own anchors the 2021 one is not among the first 30.
    await memory.addMany(
      Array.from({ length: 60 }, (_, i) => ({ text: `Maya: pizza night number ${i + 1}, the pizza was great.`, observedAt: new Date(Date.UTC(2023, 0, 1 + i * 5)).toISOString(), speaker: 'Maya' })),
    );
    const old = await memory.add({ text: 'Maya: we had pizza with the neighbours.', observedAt: '2021-05-01T19:00:00Z', speaker: 'Maya' });
    const all = (await memory.recall('pizza', { k: 10 })).memories.map((m) => m.id);
    const in2021 = (await memory.recall('pizza', { after: '2021-01-01', before: '2022-01-01', k: 10 })).memories.map((m) => m.id);
    await memory.close();
    expect(all).not.toContain(old.id);
    expect(in2021).toEqual([old.id]);
  });

  it('refuses a bad window, naming the field', async () => {
    const memory = await memoryWith(LISBON);
    expect(await codeOf(memory.recall('x', { after: 'last week' }))).toBe('INVALID_INPUT');
    await expect(memory.recall('x', { before: 'soon' as never })).rejects.toMatchObject({ details: { field: 'options.before' } });
    await expect(memory.recall('x', { after: '2024-02-01', before: '2024-01-01' })).rejects.toMatchObject({ details: { field: 'options.before' } });
    // Epoch ms are a date like any other (util/date-input.ts); NaN and a boolean are not.
    await expect(memory.recall('x', { after: Number.NaN })).rejects.toMatchObject({ details: { field: 'options.after' } });
    await expect(memory.recall('x', { after: true as never })).rejects.toMatchObject({ details: { field: 'options.after' } });
    await memory.close();
  });

  it('refuses an unknown time zone, naming the field', async () => {
    const memory = await createMemory({ encoder });
    await expect(memory.add({ text: 'hi', timeZone: 'Mars/Olympus' })).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { field: 'observation.timeZone' } });
    await memory.close();
  });

  it('takes the offset from the IANA zone when the instant has none (the instant itself stays UTC)', async () => {
    const memory = await memoryWith({ text: 'Ana: I arrived in New York yesterday.', observedAt: '2024-07-04T02:00:00', timeZone: 'America/New_York' });
    const [m] = (await memory.recall('When did Ana arrive?')).memories;
    await memory.close();
    expect(m?.observedAt).toBe('2024-07-04T02:00:00.000Z'); // no offset: UTC
    expect(m?.observedAtLocal).toBe('2024-07-03T22:00:00-04:00'); // EDT
    expect(m?.timeRefs.map((t) => t.when)).toEqual(['2024-07-02']); // yesterday of the local 3 July
  });
});

describe('stores written before issue 14', () => {
  it('still open: nodes without utcOffsetMinutes / certainty / end read as UTC, certainty from `certain`', async () => {
    const memory = await memoryWith({ text: 'Maya: yesterday I met Ana, and on 14 August 2021 we married.', observedAt: '2024-02-20T10:00:00+09:00' });
    const file = JSON.parse(JSON.stringify(await memory.export())) as { nodes: Array<Record<string, unknown> & { timeRefs: Array<Record<string, unknown>> }> };
    await memory.close();
    for (const n of file.nodes) {
      delete n.utcOffsetMinutes;
      for (const t of n.timeRefs) {
        delete t.certainty;
        delete t.end;
      }
    }
    const reopened = await createMemory({ encoder });
    await reopened.import(file);
    const [m] = (await reopened.recall('When did Maya marry?')).memories;
    await reopened.close();
    expect(m?.observedAtLocal).toBe('2024-02-20T01:00:00Z'); // no offset stored: UTC
    // "yesterday" (year implied by τ → certain in chrono's terms) and "14 August 2021": both name a year → 1.
    expect(m?.timeRefs.map((t) => [t.text, t.certainty, t.start === t.end])).toEqual([
      ['yesterday', 1, true],
      ['on 14 August 2021', 1, true],
    ]);
  });
});

describe('System-Two prompt of a dated memory', () => {
  it('shows the local time and the resolved events', async () => {
    const memory = await memoryWith(MARATHON);
    const [m] = (await memory.recall('When did Theo run the half marathon?')).memories;
    await memory.close();
    const item = { id: 'n1', text: m!.text, score: m!.score, observedAt: m!.observedAt, observedAtLocal: m!.observedAtLocal, speaker: 'Theo', timeRefs: m!.timeRefs };
    expect(memoryLine(item)).toBe(
      '{"id":"n1","time":"2024-03-10T07:30:00+09:00","speaker":"Theo","events":[{"said":"this morning","when":"2024-03-10","certainty":0.9}],"text":"Theo: I finished the half marathon this morning!"}',
    );
    const [system, user] = buildAnswerPrompt('When did Theo run?', [item]);
    expect(system?.content).toContain('"events"');
    expect(user?.content).toContain('"when":"2024-03-10"');
  });
});

describe('CLI and HTTP show event time', () => {
  it('prints the local date and the events, and --json carries timeRefs; --after/--before filter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-event-time-'));
    dirs.push(dir);
    const file = join(dir, 'in.jsonl');
    writeFileSync(file, [MARATHON, LISBON].map((o) => JSON.stringify(o)).join('\n'));
    const store = join(dir, 'store');
    expect((await cli(['ingest', file, '--store', store])).code).toBe(0);
    const text = await cli(['recall', 'half marathon', '--store', store, '--k', '1']);
    expect(text.out.join('\n')).toContain('2024-03-10 Theo: I finished the half marathon this morning!  ["this morning" = 2024-03-10 (0.9)]');
    const json = await cli(['recall', 'Lisbon wedding', '--store', store, '--json', '--after', '2023-08-01', '--before', '2023-09-01']);
    const parsed = JSON.parse(json.out.join('')) as { memories: Array<{ text: string; timeRefs: Array<{ when: string }> }> };
    expect(parsed.memories.map((m) => [m.text, m.timeRefs.map((t) => t.when)])).toEqual([[LISBON.text, ['2023-08-14']]]);
  });

  it('HTTP recall takes after/before and refuses non-strings', () => {
    const route = { name: 'recall' as const, namespace: 'ns' };
    expect(toOperation(route, 'ns', { query: 'q', after: '2023-08-01', before: '2023-09-01' }, 10)).toEqual({ op: 'recall', namespace: 'ns', query: 'q', after: '2023-08-01', before: '2023-09-01' });
    expect(() => toOperation(route, 'ns', { query: 'q', after: 5 }, 10)).toThrow(/after/);
  });
});

describe('temporal questions use event time in ranking', () => {
  it('matches a month / year the query names on event time first, then observation time, in the local calendar', async () => {
    const { dateMatch } = await import('../../src/read/signals.js');
    const { datesNamed } = await import('../../src/read/signals.js');
    const q = datesNamed('What did we do in August 2023?');
    expect([...q.months, ...q.years]).toEqual([7, 2023]);
    // Said 2024-02-20, about 2023-08-14: the event matches, the observation alone would not.
    const lisbon = { observedAt: '2024-02-20T10:00:00.000Z', timeRefs: [{ text: 'on 14 August', start: '2023-08-14T00:00:00.000Z', end: '2023-08-14T23:59:59.999Z', certain: ['month', 'day'] as Array<'month' | 'day'>, certainty: 0.75 }] };
    expect(dateMatch(lisbon, q.months, q.years)).toEqual({ monthMatch: 1, yearMatch: 1 });
    expect(dateMatch({ ...lisbon, timeRefs: [] }, q.months, q.years)).toEqual({ monthMatch: 0, yearMatch: 0 });
    // 2023-07-31T23:30Z is 1 August at +09:00.
    expect(dateMatch({ observedAt: '2023-07-31T23:30:00.000Z', utcOffsetMinutes: 540, timeRefs: [] }, q.months, q.years)).toEqual({ monthMatch: 1, yearMatch: 1 });
    expect(dateMatch({ observedAt: '2023-07-31T23:30:00.000Z', timeRefs: [] }, q.months, q.years)).toEqual({ monthMatch: 0, yearMatch: 1 });
  });
});
