/**
 * A streamed System-Two answer whose connection is cut (issue 22, hostile review): an
 * OpenAI-style `text/event-stream` that ends without `data: [DONE]` and without a chunk carrying
 * a `finish_reason` is a partial text, and fails with `SYSTEM_TWO_BAD_RESPONSE` (from
 * `answerStream` too), after the tokens that did arrive. A stream that ends with a
 * `finish_reason` but no `[DONE]` (some servers) is whole. A body that breaks mid-answer (a reset
 * socket) says so (not "could not be reached"), and a stream with no chat-completion event (no
 * `choices`) is no answer (h-break12 findings 3, 8).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { JevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { createSystemTwo } from '../../src/system-two/client.js';
import { lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('cut-stream', (e) => (encoder = e));

const chunk = (content: string, finish: string | null = null): string => `data: ${JSON.stringify({ model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;

/** A fetch answering with these SSE lines, then the end of the body. */
function sse(...lines: string[]): (input: string, init: unknown) => Promise<Response> {
  return async () =>
    new Response(
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const l of lines) c.enqueue(new TextEncoder().encode(l));
          c.close();
        },
      }),
      { status: 200, headers: { 'content-type': 'text/event-stream' } },
    );
}

const evidence = [{ id: 'n1', text: 'Theo: My dog Biscuit chewed the old bike chain.', score: 0.9 }];

async function failure(p: Promise<unknown>): Promise<JevMemError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof JevMemError)) throw new Error(`expected a JevMemError, got ${String(e)}`);
  return e;
}

describe('a streamed answer whose connection is cut', () => {
  it('fails SYSTEM_TWO_BAD_RESPONSE after handing out the tokens that arrived', async () => {
    const s2 = createSystemTwo({ url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0, fetch: sse(chunk('It is '), chunk('Bis')) });
    const tokens: string[] = [];
    const e = await failure(s2.answer({ query: 'What is the dog called?', evidence, onToken: (t) => tokens.push(t) }));
    expect(e.code).toBe('SYSTEM_TWO_BAD_RESPONSE');
    expect(e.message).toContain('the stream ended without [DONE] and without a finish_reason after 9 characters');
    expect(tokens).toEqual(['It is ', 'Bis']);
  });

  it('a stream ending with a finish_reason and no [DONE], or with [DONE], is whole', async () => {
    for (const tail of [[chunk('', 'stop')], ['data: [DONE]\n\n']]) {
      const s2 = createSystemTwo({ url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0, stream: true, fetch: sse(chunk('It is '), chunk('Biscuit.'), ...tail) });
      expect((await s2.answer({ query: 'What is the dog called?', evidence })).text).toBe('It is Biscuit.');
    }
  });

  it('answerStream yields the tokens that arrived, then throws SYSTEM_TWO_BAD_RESPONSE', async () => {
    const memory = await createMemory({ encoder, systemOne: createHeuristicSystemOne(), systemTwo: { url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0, fetch: sse(chunk('It is '), chunk('Bis')) } });
    await memory.addMany(TURNS.slice(0, 4));
    const seen: string[] = [];
    const e = await (async () => {
      try {
        for await (const ev of memory.answerStream('What is the name of the dog?', { minScore: 0 })) seen.push(ev.type === 'token' ? ev.token : 'answer');
      } catch (err) {
        return err as JevMemError;
      }
      return undefined;
    })();
    expect(e?.code).toBe('SYSTEM_TWO_BAD_RESPONSE');
    expect(seen).toEqual(['It is ', 'Bis']);
    await memory.close();
  });

  it('a body that errors after tokens arrived: SYSTEM_TWO_BAD_RESPONSE saying the connection broke mid-answer', async () => {
    let i = 0;
    const parts = [chunk('It is '), chunk('Bis')];
    const fetch = async (): Promise<Response> =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(c) {
            if (i === parts.length) return c.error(new Error('socket reset'));
            c.enqueue(new TextEncoder().encode(parts[i++] as string));
          },
        }),
        { status: 200, headers: { 'content-type': 'text/event-stream' } },
      );
    const s2 = createSystemTwo({ url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0, fetch });
    const tokens: string[] = [];
    const e = await failure(s2.answer({ query: 'What is the dog called?', evidence, onToken: (t) => tokens.push(t) }));
    expect(e.code).toBe('SYSTEM_TWO_BAD_RESPONSE');
    expect(e.message).toBe('System Two at http://127.0.0.1:9/v1/chat/completions did not answer with a chat completion: the connection broke mid-answer after 9 characters (socket reset), so the text is partial');
    expect(tokens).toEqual(['It is ', 'Bis']);
  });

  it('a stream whose events carry no `choices` (then [DONE]) is SYSTEM_TWO_BAD_RESPONSE, not an empty answer', async () => {
    const s2 = createSystemTwo({ url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0, stream: true, fetch: sse(`data: ${JSON.stringify({ foo: 1 })}\n\n`, 'data: [DONE]\n\n') });
    const e = await failure(s2.answer({ query: 'What is the dog called?', evidence }));
    expect(e.code).toBe('SYSTEM_TWO_BAD_RESPONSE');
    expect(e.message).toContain('the stream held no chat-completion chunk (no event had `choices`)');
    // A usage-only last chunk (`choices: []`, as OpenAI's include_usage sends) after the text is fine.
    const ok = createSystemTwo({ url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0, stream: true, fetch: sse(chunk('Biscuit.', 'stop'), `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } })}\n\n`, 'data: [DONE]\n\n') });
    expect((await ok.answer({ query: 'What is the dog called?', evidence })).text).toBe('Biscuit.');
  });
});
