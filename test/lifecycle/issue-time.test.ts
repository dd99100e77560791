/**
 * Issue time (issue 22, hostile review): the default ingestion time of a write is the time the
 * call was made, non-decreasing in issue order per namespace, so a state written without
 * `observedAt` is ordered against the other states of its namespace as the calls were made.
 * `update(id, 'Vienna'); add('Rome')` issued at once kept Vienna: the update reads its old
 * version before it plans, so the add planned, and was stamped, first (.374 vs .383).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { IssueOrder } from '../../src/memory/issue-order.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { lifecycleFixture } from './helpers.js';

let encoder: Encoder;
lifecycleFixture('issue-time', (e) => (encoder = e));

const T0 = Date.parse('2024-06-01T12:00:00.000Z');

/**
 * A memory whose clock advances 1 ms at every reading (as a real clock does while a call
 * plans), with counted ids and no automatic maintenance.
 */
async function open(): Promise<Memory> {
  let n = 0;
  let ms = T0;
  return createMemory({ encoder, systemOne: createHeuristicSystemOne(), now: () => new Date(ms++), newId: () => `n${++n}`, parameters: { maintenanceInterval: 0, writeDeadlineMs: 600_000 } });
}

/** `text status` of every memory of a namespace, in insertion order, with its ingestion time. */
async function states(memory: Memory, namespace?: string): Promise<Array<{ text: string; status: string; at: string }>> {
  const l = await memory.list(namespace === undefined ? {} : { namespace });
  return l.memories.map((m) => ({ text: m.text, status: m.status, at: m.ingestedAt }));
}

/** True when the ISO times are strictly increasing. */
const increasing = (times: readonly string[]): boolean => times.every((t, i) => i === 0 || Date.parse(t) > Date.parse(times[i - 1]!));

const PORTO = { text: 'I live in Porto', speaker: 'me', observedAt: '2024-01-01T00:00:00Z' };

describe('writes are stamped in issue order', () => {
  it('the sequential reference: update to Vienna, then add Rome, awaited one by one: Rome is the state', async () => {
    const memory = await open();
    const a = await memory.add(PORTO);
    await memory.update(a.id, { text: 'I live in Vienna' });
    await memory.add({ text: 'I live in Rome', speaker: 'me' });
    expect((await states(memory)).map((s) => `${s.text} ${s.status}`)).toEqual(['I live in Porto superseded', 'I live in Vienna superseded', 'I live in Rome active']);
    await memory.close();
  });

  it('add, update, add issued at once: Rome (issued last) is the state, stamped after Vienna', async () => {
    const memory = await open();
    const a = await memory.add(PORTO);
    const calls = [memory.update(a.id, { text: 'I live in Vienna' }), memory.add({ text: 'I live in Rome', speaker: 'me' })];
    await Promise.all(calls);
    const s = await states(memory);
    expect(s.map((x) => `${x.text} ${x.status}`)).toEqual(['I live in Porto superseded', 'I live in Vienna superseded', 'I live in Rome active']);
    // Stamped in the order the calls were made (the clock advances at every reading).
    expect(increasing(s.map((x) => x.at))).toBe(true);
    await memory.close();
  });

  it('update, add, delete of the first version issued at once: Porto erased, Rome the state over Vienna', async () => {
    const memory = await open();
    const a = await memory.add(PORTO);
    const [v, r, d] = await Promise.all([memory.update(a.id, { text: 'I live in Vienna' }), memory.add({ text: 'I live in Rome', speaker: 'me' }), memory.delete(a.id)]);
    expect(d).toBe(true);
    expect(await memory.get(a.id)).toBeUndefined();
    const vienna = await memory.get(v.id);
    const rome = await memory.get(r.id);
    expect(vienna?.status).toBe('superseded');
    expect(vienna?.supersededBy).toEqual([r.id]);
    expect(rome?.status).toBe('active');
    expect(Date.parse(vienna!.ingestedAt)).toBeLessThan(Date.parse(rome!.ingestedAt));
    await memory.close();
  });

  it('two namespaces interleaved: each namespace stamped in its own issue order', async () => {
    const memory = await open();
    const a = await memory.add(PORTO, { namespace: 'a' });
    const b = await memory.add(PORTO, { namespace: 'b' });
    await Promise.all([
      memory.update(a.id, { text: 'I live in Vienna' }, { namespace: 'a' }),
      memory.update(b.id, { text: 'I live in Oslo' }, { namespace: 'b' }),
      memory.add({ text: 'I live in Rome', speaker: 'me' }, { namespace: 'a' }),
      memory.add({ text: 'I live in Lima', speaker: 'me' }, { namespace: 'b' }),
    ]);
    const sa = await states(memory, 'a');
    const sb = await states(memory, 'b');
    expect(sa.map((x) => `${x.text} ${x.status}`)).toEqual(['I live in Porto superseded', 'I live in Vienna superseded', 'I live in Rome active']);
    expect(sb.map((x) => `${x.text} ${x.status}`)).toEqual(['I live in Porto superseded', 'I live in Oslo superseded', 'I live in Lima active']);
    // Vienna, Oslo, Rome, Lima: the order the four calls were made in, across both namespaces.
    expect(increasing([sa[1]!.at, sb[1]!.at, sa[2]!.at, sb[2]!.at])).toBe(true);
    await memory.close();
  });
});

describe('IssueOrder turn times', () => {
  it('never go back within a namespace while a turn is pending; another namespace and a later idle turn read the clock', () => {
    const order = new IssueOrder();
    const t1 = order.take('a', 100);
    const t2 = order.take('a', 90); // the clock stepped back: raised to the pending turn's time
    const t3 = order.take('b', 90);
    expect([t1.at, t2.at, t3.at]).toEqual([100, 100, 90]);
    t1.done();
    const t4 = order.take('a', 95); // t2 (at 100) still pending
    expect(t4.at).toBe(100);
    t2.done();
    t4.done();
    t3.done();
    expect(order.pending).toBe(0);
    expect(order.take('a', 80).at).toBe(80); // nothing pending: the clock as it reads
  });
});
