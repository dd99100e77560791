/**
 * memoryMiddleware (jev-mem/ai-sdk) at the end of a turn, through the real AI SDK
 * (`generateText` / `streamText` over `ai/test`'s MockLanguageModelV4), h-break12 findings 1, 2:
 * - remembering never fails the model call: a user message over the memory's text limit is kept
 *   in parts (each carrying `metadata.part` / `parts`), and a failed write goes to `onError`
 *   (default: one console warning) while the call resolves with the model's answer;
 * - a turn that errored (an `error` part, finishReason `error`), threw or was aborted keeps no
 *   memory; a reply cut by `length` is kept, marked `metadata.finishReason: 'length'`.
 */
import { generateText, streamText, wrapLanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { memoryMiddleware, splitTurnText, type MemoryMiddlewareOptions } from '../../src/integrations/ai-sdk.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('ai-sdk-turn-end', (e) => (encoder = e));

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const finish = (unified: string) => ({ type: 'finish', finishReason: { unified, raw: unified }, usage });
const T = (delta: string) => ({ type: 'text-delta', id: 't', delta });

function replying(text: string, unified = 'stop'): MockLanguageModelV4 {
  return new MockLanguageModelV4({ doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: { unified, raw: unified }, usage, warnings: [] }) as never });
}

/** A model streaming `parts`, then erroring the stream (at index `errorAt`) or closing it. */
function streaming(parts: unknown[], opts: { errorAt?: number; delayMs?: number } = {}): MockLanguageModelV4 {
  return new MockLanguageModelV4({
    doStream: async () => ({
      stream: new ReadableStream({
        async start(c) {
          for (let i = 0; i < parts.length; i++) {
            if (opts.delayMs) await new Promise((r) => setTimeout(r, opts.delayMs));
            if (i === opts.errorAt) return c.error(new Error('upstream died'));
            c.enqueue(parts[i]);
          }
          c.close();
        },
      }),
    }) as never,
  });
}

async function stored(memory: Memory): Promise<Array<[string | undefined, string, Record<string, unknown> | undefined]>> {
  const page = await memory.list({ limit: 100 });
  return page.memories
    .map((m) => [m.provenance.speaker, m.text, m.provenance.metadata] as [string | undefined, string, Record<string, unknown> | undefined])
    .sort((a, b) => ((a[2]?.part as number) ?? 0) - ((b[2]?.part as number) ?? 0));
}

async function streamed(memory: Memory, model: MockLanguageModelV4, prompt: string, abortMs?: number, options: MemoryMiddlewareOptions = {}): Promise<string> {
  const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware(memory, options) });
  const ac = new AbortController();
  if (abortMs !== undefined) setTimeout(() => ac.abort(), abortMs);
  let text = '';
  try {
    const r = streamText({ model: wrapped, prompt, abortSignal: ac.signal, onError: () => {} });
    for await (const p of r.textStream) text += p;
  } catch {
    text += '<threw>';
  }
  await new Promise((r) => setTimeout(r, 50));
  return text;
}

describe('memoryMiddleware: remembering never fails the model call (finding 1)', () => {
  it('a user message over maxTextChars: generateText resolves with the answer, the message is kept in parts under the limit', async () => {
    const memory = await createMemory({ encoder, parameters: { maxTextChars: 1_000 } });
    const sentence = 'My sister Ana lives in Porto and grows lemons. ';
    const long = `Summarise this: ${sentence.repeat(50)}`.trim(); // 16 + 47·50 − 1 = 2,365 characters
    expect(long.length).toBe(2365);
    const r = await generateText({ model: wrapLanguageModel({ model: replying('Ana grows lemons in Porto.'), middleware: memoryMiddleware(memory) }), prompt: long });
    expect(r.text).toBe('Ana grows lemons in Porto.');
    const rows = await stored(memory);
    const user = rows.filter((x) => x[0] === 'user');
    // Cut after the last '.' within each 1,000 characters (sentence k ends at 16 + 47k − 1) and the
    // space after it: part 1 is [0, 956) (k = 20); part 2 [956, 1943) (k = 41); part 3 the 422 left.
    expect(user.map((x) => x[1].length)).toEqual([956, 987, 422]);
    expect(user.map((x) => x[2])).toEqual([1, 2, 3].map((part) => ({ role: 'user', part, parts: 3 })));
    expect(user.map((x) => x[1]).join('')).toBe(long);
    expect(rows.filter((x) => x[0] === 'assistant')).toEqual([['assistant', 'Ana grows lemons in Porto.', { role: 'assistant' }]]);
    await memory.close();
  });

  it('at the default limit (100,000): a 150,000-character message is kept as two parts, and the call resolves', async () => {
    const memory = await createMemory({ encoder });
    const long = 'x'.repeat(150_000); // no sentence end nor space: cut at the limit
    const r = await generateText({ model: wrapLanguageModel({ model: replying('Fine.'), middleware: memoryMiddleware(memory) }), prompt: long });
    expect(r.text).toBe('Fine.');
    const user = (await stored(memory)).filter((x) => x[0] === 'user');
    expect(user.map((x) => [x[1].length, x[2]?.part, x[2]?.parts])).toEqual([[100_000, 1, 2], [50_000, 2, 2]]);
    await memory.close();
  });

  it('a failed write goes to onError with the exchange; the call resolves with the answer; the default warns on the console once', async () => {
    const memory = await createMemory({ encoder });
    const seen: Array<[string, string, string]> = [];
    const onError: MemoryMiddlewareOptions['onError'] = (e, turn) => seen.push([(e as { code: string }).code, turn.question, turn.reply]);
    const failing = { ...memory, parameters: memory.parameters, recall: memory.recall.bind(memory), addMany: async () => { throw Object.assign(new Error('store is closed'), { code: 'CLOSED' }); } } as unknown as Memory;
    const r = await generateText({ model: wrapLanguageModel({ model: replying('Hello.'), middleware: memoryMiddleware(failing, { onError }) }), prompt: 'Hi' });
    expect(r.text).toBe('Hello.');
    expect(seen).toEqual([['CLOSED', 'Hi', 'Hello.']]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const r2 = await generateText({ model: wrapLanguageModel({ model: replying('Hello again.'), middleware: memoryMiddleware(failing) }), prompt: 'Hi' });
      expect(r2.text).toBe('Hello again.');
      expect(warn.mock.calls).toEqual([["jev-mem/ai-sdk: the exchange was not remembered (CLOSED: store is closed); the model's answer is returned"]]);
    } finally {
      warn.mockRestore();
    }
    // A stream too: the flush's failure does not error the stream.
    expect(await streamed(failing, streaming([{ type: 'text-start', id: 't' }, T('Streamed.'), { type: 'text-end', id: 't' }, finish('stop')]), 'Hi', undefined, { onError })).toBe('Streamed.');
    expect(seen).toHaveLength(2);
    await memory.close();
  });

  it('a failed recall before the model call goes to onError (stage recall) and the model is called without memories', async () => {
    const memory = await createMemory({ encoder });
    await memory.add({ text: 'My dog is called Rex.', speaker: 'user' });
    await memory.close(); // every recall and write now fails CLOSED
    const seen: Array<[string, string | undefined, string]> = [];
    const onError: MemoryMiddlewareOptions['onError'] = (e, turn) => seen.push([(e as { code: string }).code, turn.stage, turn.question]);
    let prompts: unknown[] = [];
    const model = new MockLanguageModelV4({
      doGenerate: async (o) => {
        prompts = o.prompt as unknown[];
        return { content: [{ type: 'text', text: 'I do not know.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] } as never;
      },
    });
    const r = await generateText({ model: wrapLanguageModel({ model, middleware: memoryMiddleware(memory, { onError }) }), prompt: 'What is my dog called?' });
    expect(r.text).toBe('I do not know.');
    expect(seen).toEqual([['CLOSED', 'recall', 'What is my dog called?'], ['CLOSED', 'remember', 'What is my dog called?']]);
    expect(prompts.map((m) => (m as { role: string }).role)).toEqual(['user']); // no memory message
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect(await streamed(memory, streaming([{ type: 'text-start', id: 't' }, T('Streamed.'), { type: 'text-end', id: 't' }, finish('stop')]), 'Hi')).toBe('Streamed.');
      expect(warn.mock.calls.map((c) => String(c[0]).replace(/\(CLOSED: [^)]*\)/, '(CLOSED)'))).toEqual([
        'jev-mem/ai-sdk: no memories were recalled (CLOSED); the model is called without them',
        "jev-mem/ai-sdk: the exchange was not remembered (CLOSED); the model's answer is returned",
      ]);
    } finally {
      warn.mockRestore();
    }
  });

  it('splitTurnText: parts under the limit, cut at a sentence end, else a space, never inside a surrogate pair', () => {
    expect(splitTurnText('short', 10)).toEqual(['short']);
    expect(splitTurnText('One two. Three four five six.', 12)).toEqual(['One two. ', 'Three four ', 'five six.']);
    expect(splitTurnText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(splitTurnText('abc😀def', 4)).toEqual(['abc', '😀de', 'f']);
  });
});

describe('memoryMiddleware: how a turn ended decides what is kept (finding 2)', () => {
  const open = { type: 'text-start', id: 't' };
  const close = { type: 'text-end', id: 't' };

  it('a normal stream keeps both sides; one with an error part keeps nothing', async () => {
    const memory = await createMemory({ encoder });
    await streamed(memory, streaming([open, T('Hello '), T('there.'), close, finish('stop')]), 'Hi, my name is Ana');
    expect(await stored(memory)).toEqual([
      ['user', 'Hi, my name is Ana', { role: 'user' }],
      ['assistant', 'Hello there.', { role: 'assistant' }],
    ]);
    const m2 = await createMemory({ encoder });
    await streamed(m2, streaming([open, T('Before err '), { type: 'error', error: new Error('content filter') }, finish('stop')]), 'Bad request text');
    expect(await stored(m2)).toEqual([]);
    await memory.close();
    await m2.close();
  });

  it('a stream that errors or is aborted mid-answer keeps nothing', async () => {
    const memory = await createMemory({ encoder });
    await streamed(memory, streaming([open, T('Partial '), T('answ'), close, finish('stop')], { errorAt: 3 }), 'Tell me about my dog');
    await streamed(memory, streaming([open, T('Partial '), T('more '), T('more '), close, finish('stop')], { delayMs: 40 }), 'My cat is Tom', 100);
    await new Promise((r) => setTimeout(r, 300));
    expect(await stored(memory)).toEqual([]);
    await memory.close();
  });

  it("finishReason 'length' (stream and generate) keeps the cut reply marked finishReason: 'length'; 'error' keeps nothing", async () => {
    const memory = await createMemory({ encoder });
    await streamed(memory, streaming([open, T('Cut off becau'), close, finish('length')]), 'Write an essay');
    expect(await stored(memory)).toEqual([
      ['user', 'Write an essay', { role: 'user' }],
      ['assistant', 'Cut off becau', { role: 'assistant', finishReason: 'length' }],
    ]);
    const m2 = await createMemory({ encoder });
    const mw = memoryMiddleware(m2);
    await generateText({ model: wrapLanguageModel({ model: replying('A poem that st', 'length'), middleware: mw }), prompt: 'Write a poem' });
    await generateText({ model: wrapLanguageModel({ model: replying('Sorry, fail', 'error'), middleware: mw }), prompt: 'Hello' });
    expect(await stored(m2)).toEqual([
      ['user', 'Write a poem', { role: 'user' }],
      ['assistant', 'A poem that st', { role: 'assistant', finishReason: 'length' }],
    ]);
    await memory.close();
    await m2.close();
  });
});
