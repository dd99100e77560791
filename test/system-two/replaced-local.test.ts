/**
 * The System-Two prompt writes a superseded memory's `replaced` time in local time like its
 * `time` (not in UTC), and always carries the current date: the caller's `now`, else the memory's
 * clock (`now` of createMemory).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { memoryLine } from '../../src/system-two/prompt.js';
import type { ChatMessage } from '../../src/system-two/types.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('replaced-local', (e) => (encoder = e));

const OLD = { text: 'Maya: I live in Lisbon, near the river.', observedAt: '2023-01-10T09:00:00+09:00', speaker: 'Maya' };
const NEW_TEXT = 'Maya: I moved, I live in Porto now.';
/** The memory's clock: 20:00 UTC is already the next day at +09:00. */
const CLOCK = '2023-06-02T20:00:00.000Z';

/** A memory on the fixed clock whose System Two records the prompts it is sent. */
async function recording(): Promise<{ memory: Memory; prompts: ChatMessage[][] }> {
  const prompts: ChatMessage[][] = [];
  const complete = (messages: ChatMessage[]): Promise<string> => {
    prompts.push(messages);
    return Promise.resolve('Porto');
  };
  const memory = await createMemory({ encoder, now: () => new Date(CLOCK), systemTwo: { model: 'test', complete } });
  return { memory, prompts };
}

/** The prompt line of memory `id`, parsed. */
function lineOf(prompt: ChatMessage[], id: string): Record<string, unknown> | undefined {
  const line = (prompt[1]?.content ?? '').split('\n').find((l) => l.startsWith(`{"id":${JSON.stringify(id)}`));
  return line === undefined ? undefined : (JSON.parse(line) as Record<string, unknown>);
}

describe('replaced is local time', () => {
  it('memoryLine prints supersededAtLocal as replaced, supersededAt only when there is no local form', () => {
    const item = { id: 'n1', text: 'x', score: 1, observedAtLocal: '2023-01-10T09:00:00+09:00', supersededAt: '2023-06-02T20:00:00.000Z' };
    expect(memoryLine({ ...item, supersededAtLocal: '2023-06-03T05:00:00+09:00' })).toBe('{"id":"n1","time":"2023-01-10T09:00:00+09:00","replaced":"2023-06-03T05:00:00+09:00","text":"x"}');
    expect(memoryLine(item)).toBe('{"id":"n1","time":"2023-01-10T09:00:00+09:00","replaced":"2023-06-02T20:00:00.000Z","text":"x"}');
  });

  it("an update without observedAt: replaced at the clock's time, in the old memory's +09:00", async () => {
    const { memory, prompts } = await recording();
    const { id: oldId } = await memory.add(OLD);
    await memory.update(oldId, { text: NEW_TEXT });
    const a = await memory.answer('Where does Maya live?');
    await memory.close();
    const old = a.memories.find((m) => m.id === oldId);
    expect(old?.supersededAt).toBe(CLOCK);
    expect(old?.supersededAtLocal).toBe('2023-06-03T05:00:00+09:00');
    expect(lineOf(prompts[0] as ChatMessage[], oldId)).toMatchObject({ time: '2023-01-10T09:00:00+09:00', replaced: '2023-06-03T05:00:00+09:00' });
  });

  it("an update with an offset of its own: replaced in the replacing memory's offset", async () => {
    const { memory, prompts } = await recording();
    const { id: oldId } = await memory.add(OLD);
    await memory.update(oldId, { text: NEW_TEXT, observedAt: '2023-05-01T08:00:00+01:00' });
    await memory.answer('Where does Maya live?');
    await memory.close();
    expect(lineOf(prompts[0] as ChatMessage[], oldId)).toMatchObject({ replaced: '2023-05-01T08:00:00+01:00' });
  });

  it("an update timed by a Date (no offset of its own): replaced in the old memory's offset", async () => {
    const { memory, prompts } = await recording();
    const { id: oldId } = await memory.add(OLD);
    await memory.update(oldId, { text: NEW_TEXT, observedAt: new Date('2023-05-01T07:00:00Z') });
    await memory.answer('Where does Maya live?');
    await memory.close();
    expect(lineOf(prompts[0] as ChatMessage[], oldId)).toMatchObject({ replaced: '2023-05-01T16:00:00+09:00' });
  });
});

describe('the current date of the prompt', () => {
  it("is the memory's clock when answer gets no now", async () => {
    const { memory, prompts } = await recording();
    await memory.add(OLD);
    await memory.answer('Where does Maya live?');
    await memory.close();
    expect((prompts[0]?.[1]?.content ?? '').split('\n')[0]).toBe(`Current date: ${CLOCK}`);
  });

  it("is answer's now when given (a string as written, a Date in ISO-8601)", async () => {
    const { memory, prompts } = await recording();
    await memory.add(OLD);
    await memory.answer('Where does Maya live?', { now: '10 March 2024' });
    await memory.answer('Where does Maya live?', { now: new Date('2024-03-10T10:00:00+09:00') });
    await memory.close();
    expect(prompts.map((p) => (p[1]?.content ?? '').split('\n')[0])).toEqual(['Current date: 10 March 2024', 'Current date: 2024-03-10T01:00:00.000Z']);
  });
});
