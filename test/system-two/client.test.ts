import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSystemTwo } from '../../src/system-two/client.js';
import { buildAnswerPrompt } from '../../src/system-two/prompt.js';
import type { EvidenceItem, SystemTwoOptions } from '../../src/system-two/types.js';
import { JevMemError, isJevMemError } from '../../src/errors.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';

const evidence: EvidenceItem[] = [
  { id: 'n1', text: 'Melanie: We went camping last weekend.', speaker: 'Melanie', observedAt: '2023-07-10T10:00:00Z', score: 0.9 },
];
const QUERY = 'When did Melanie go camping?';
const KEY = 'sk-test-secret-123';

let chat: ChatServer;
const sleeps: number[] = [];
const make = (extra: Partial<SystemTwoOptions> = {}) =>
  createSystemTwo({ url: chat.url, apiKey: KEY, model: 'gpt-test', sleep: async (ms) => void sleeps.push(ms), ...extra });

beforeAll(async () => {
  chat = await startChatServer();
});
afterAll(async () => {
  await chat.close();
});
afterEach(() => {
  chat.reset();
  sleeps.length = 0;
});

async function failure(p: Promise<unknown>): Promise<JevMemError> {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(e instanceof JevMemError)) throw new Error(`expected a JevMemError, got ${String(e)}`);
  return e;
}

describe('System Two over HTTP', () => {
  it('sends the prompt with model, temperature 0 and max_tokens 512 and returns the answer', async () => {
    chat.enqueue({ kind: 'ok', content: 'On the weekend before 10 July 2023.', usage: { prompt_tokens: 120, completion_tokens: 9, total_tokens: 129 } });
    const result = await make().answer({ query: QUERY, evidence });
    expect(result.text).toBe('On the weekend before 10 July 2023.');
    expect(result.model).toBe('test-model-2024');
    expect(result.usage).toEqual({ promptTokens: 120, completionTokens: 9, totalTokens: 129 });
    expect(result.prompt).toEqual(buildAnswerPrompt(QUERY, evidence));
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [sent] = chat.requests;
    expect(sent!.body).toEqual({ model: 'gpt-test', messages: result.prompt, temperature: 0, max_tokens: 512 });
  });

  it('sends the API key as a bearer token and the extra headers', async () => {
    await make({ headers: { 'x-org': 'acme' } }).answer({ query: QUERY, evidence });
    expect(chat.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(chat.requests[0]!.headers['x-org']).toBe('acme');
  });

  it('applies temperature, maxTokens and transformBody', async () => {
    await make({ temperature: 0.3, maxTokens: 64, transformBody: (b) => ({ ...b, seed: 7 }) }).answer({ query: QUERY, evidence });
    expect(chat.requests[0]!.body).toMatchObject({ temperature: 0.3, max_tokens: 64, seed: 7 });
  });

  it('shows the current date in the prompt when now is given', async () => {
    const result = await make().answer({ query: QUERY, evidence, now: '2023-08-01' });
    expect(result.prompt[1]!.content.startsWith('Current date: 2023-08-01')).toBe(true);
  });

  it('turns a non-200 answer into SYSTEM_TWO_HTTP with the status and a body excerpt, without the key', async () => {
    chat.enqueue({ kind: 'status', status: 400, body: `{"error":{"message":"model gpt-test not found; key ${KEY}"}}` });
    const e = await failure(make().answer({ query: QUERY, evidence }));
    expect(e.code).toBe('SYSTEM_TWO_HTTP');
    expect(e.status).toBe(400);
    expect(e.message).toContain('model gpt-test not found');
    expect(e.message).not.toContain(KEY);
    expect(chat.requests).toHaveLength(1);
  });

  it('retries a 503 after the backoff and returns the next answer', async () => {
    chat.enqueue({ kind: 'status', status: 503, body: 'busy' }, { kind: 'ok', content: 'fine' });
    const result = await make().answer({ query: QUERY, evidence });
    expect(result.text).toBe('fine');
    expect(chat.requests).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  it('honours retry-after on a 429', async () => {
    chat.enqueue({ kind: 'status', status: 429, body: 'rate limited', headers: { 'retry-after': '3' } });
    await make().answer({ query: QUERY, evidence });
    expect(sleeps).toEqual([3000]);
  });

  it('gives up with SYSTEM_TWO_HTTP after the retries (2 by default)', async () => {
    chat.enqueue(...Array.from({ length: 3 }, () => ({ kind: 'status' as const, status: 500, body: 'boom' })));
    const e = await failure(make().answer({ query: QUERY, evidence }));
    expect(e.code).toBe('SYSTEM_TWO_HTTP');
    expect(e.status).toBe(500);
    expect(chat.requests).toHaveLength(3);
  });

  it('fails with SYSTEM_TWO_TIMEOUT when the server does not answer in time, without retrying', async () => {
    chat.enqueue({ kind: 'hang' });
    const e = await failure(make({ timeoutMs: 150 }).answer({ query: QUERY, evidence }));
    expect(e.code).toBe('SYSTEM_TWO_TIMEOUT');
    expect(chat.requests).toHaveLength(1);
  });

  it('fails with SYSTEM_TWO_BAD_RESPONSE on a body that is not JSON', async () => {
    chat.enqueue({ kind: 'raw', body: '<html>502 Bad Gateway</html>', contentType: 'text/html' });
    const e = await failure(make().answer({ query: QUERY, evidence }));
    expect(e.code).toBe('SYSTEM_TWO_BAD_RESPONSE');
    expect(e.message).toContain('not JSON');
  });

  it('fails with SYSTEM_TWO_BAD_RESPONSE on JSON without choices[0].message.content', async () => {
    chat.enqueue({ kind: 'raw', body: JSON.stringify({ choices: [{ message: { role: 'assistant', content: null } }] }) });
    const e = await failure(make().answer({ query: QUERY, evidence }));
    expect(e.code).toBe('SYSTEM_TWO_BAD_RESPONSE');
  });

  it('rejects with ABORTED when the signal fires', async () => {
    chat.enqueue({ kind: 'hang' });
    const controller = new AbortController();
    const pending = make().answer({ query: QUERY, evidence, signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    expect((await failure(pending)).code).toBe('ABORTED');
  });

  it('reports an unreachable server as SYSTEM_TWO_HTTP without a status', async () => {
    const gone = await startChatServer();
    const url = gone.url;
    await gone.close();
    const e = await failure(make({ url, retries: 0 }).answer({ query: QUERY, evidence }));
    expect(e.code).toBe('SYSTEM_TWO_HTTP');
    expect(e.status).toBeUndefined();
  });
});

describe('System Two streaming', () => {
  it('asks for a stream and joins the delta.content pieces', async () => {
    chat.enqueue({ kind: 'sse', pieces: ['On ', 'the weekend', ' of 8 July.'], model: 'streamer-1' });
    const result = await make({ stream: true }).answer({ query: QUERY, evidence });
    expect(result.text).toBe('On the weekend of 8 July.');
    expect(result.model).toBe('streamer-1');
    expect(chat.requests[0]!.body).toMatchObject({ stream: true });
  });

  it('joins events whose bytes arrive split across writes', async () => {
    chat.enqueue({ kind: 'sse', pieces: ['alpha', ' beta'], split: true });
    expect((await make({ stream: true }).answer({ query: QUERY, evidence })).text).toBe('alpha beta');
  });

  it('accepts a plain JSON completion when the server ignores stream: true', async () => {
    chat.enqueue({ kind: 'ok', content: 'not streamed' });
    expect((await make({ stream: true }).answer({ query: QUERY, evidence })).text).toBe('not streamed');
  });

  it('fails with SYSTEM_TWO_BAD_RESPONSE on a stream event that is not JSON', async () => {
    chat.enqueue({ kind: 'sse', events: ['{"choices":[{"delta":{"content":"a"}}]}', 'garbage'] });
    expect((await failure(make({ stream: true }).answer({ query: QUERY, evidence }))).code).toBe('SYSTEM_TWO_BAD_RESPONSE');
  });
});

describe('System Two through a complete() hook', () => {
  it('passes the prompt to the hook and returns its text, without HTTP', async () => {
    let seen: unknown;
    const s2 = createSystemTwo({ model: 'local', complete: async (messages) => ((seen = messages), 'from the hook') });
    const result = await s2.answer({ query: QUERY, evidence });
    expect(result.text).toBe('from the hook');
    expect(result.model).toBe('local');
    expect(seen).toEqual(buildAnswerPrompt(QUERY, evidence));
    expect(chat.requests).toHaveLength(0);
  });

  it('fails with SYSTEM_TWO_BAD_RESPONSE when the hook returns something other than a string', async () => {
    const s2 = createSystemTwo({ model: 'local', complete: async () => 42 as unknown as string });
    expect((await failure(s2.answer({ query: QUERY, evidence }))).code).toBe('SYSTEM_TWO_BAD_RESPONSE');
  });

  it('fails with SYSTEM_TWO_TIMEOUT when a custom fetch ignores its signal and its body never ends', async () => {
    const fetch = async (): Promise<Response> =>
      new Response(new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('data: {"choices":[{"delta":{"content":"Bis"}}]}\n\n'))}), {
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
      });
    const s2 = createSystemTwo({ url: 'http://127.0.0.1:9/v1', model: 'm', timeoutMs: 100, retries: 0, fetch });
    const tokens: string[] = [];
    expect((await failure(s2.answer({ query: QUERY, evidence, onToken: (t) => tokens.push(t) }))).code).toBe('SYSTEM_TWO_TIMEOUT');
    expect(tokens).toEqual(['Bis']);
  });

  it('fails with SYSTEM_TWO_TIMEOUT when the hook ignores its signal past timeoutMs', async () => {
    const s2 = createSystemTwo({ model: 'local', timeoutMs: 50, complete: () => new Promise<string>(() => undefined) });
    expect((await failure(s2.answer({ query: QUERY, evidence }))).code).toBe('SYSTEM_TWO_TIMEOUT');
  });

  it("passes the hook's own errors through unchanged", async () => {
    const boom = new TypeError('hook exploded');
    const s2 = createSystemTwo({ model: 'local', complete: async () => Promise.reject(boom) });
    await expect(s2.answer({ query: QUERY, evidence })).rejects.toBe(boom);
  });
});

describe('System Two options and input', () => {
  const field = (o: SystemTwoOptions): string | undefined => {
    try {
      createSystemTwo(o);
    } catch (e) {
      return isJevMemError(e, 'INVALID_OPTION') ? e.field : 'wrong error';
    }
    return undefined;
  };

  it('requires a model', () => {
    expect(field({ url: 'http://x', model: '' })).toBe('model');
  });

  it('requires a url unless complete is given', () => {
    expect(field({ model: 'm' })).toBe('url');
    expect(field({ model: 'm', complete: async () => '' })).toBeUndefined();
  });

  it('refuses bad numbers, naming the option', () => {
    expect(field({ url: 'http://x', model: 'm', maxTokens: 0 })).toBe('maxTokens');
    expect(field({ url: 'http://x', model: 'm', timeoutMs: -1 })).toBe('timeoutMs');
    expect(field({ url: 'http://x', model: 'm', retries: 0.5 })).toBe('retries');
  });

  it('refuses an empty query with INVALID_INPUT', async () => {
    const e = await failure(make().answer({ query: '  ', evidence }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.field).toBe('query');
  });
});
