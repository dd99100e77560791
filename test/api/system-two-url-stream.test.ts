/**
 * Issue 23: one URL convention for System Two (a base URL, the client appends
 * /chat/completions; a full URL still works; a 404 names the URL called and the convention),
 * and streamed answers (onToken on the client and on Memory.answer, Memory.answerStream).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { chatCompletionsUrl, createSystemTwo } from '../../src/system-two/client.js';
import { systemTwoFromEnv } from '../../src/system-two/from-env.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';
import { errorOf, lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-s2', (e) => (encoder = e));
let chat: ChatServer;
let base: string;
beforeAll(async () => {
  chat = await startChatServer();
  base = chat.url.replace(/\/chat\/completions$/, '');
});
afterAll(async () => {
  await chat.close();
});
afterEach(() => chat.reset());

const evidence = [{ id: 'n1', text: 'Theo: My dog Biscuit chewed the old bike chain.', score: 0.9 }];

describe('System-Two URL convention', () => {
  it('appends /chat/completions to a base URL, keeps a full one, drops trailing slashes', () => {
    expect(chatCompletionsUrl('https://api.openai.com/v1')).toBe('https://api.openai.com/v1/chat/completions');
    expect(chatCompletionsUrl('https://api.openai.com/v1/')).toBe('https://api.openai.com/v1/chat/completions');
    expect(chatCompletionsUrl('http://127.0.0.1:8080/v1/chat/completions')).toBe('http://127.0.0.1:8080/v1/chat/completions');
    expect(chatCompletionsUrl('https://gw.example/openai/v1?api-version=2')).toBe('https://gw.example/openai/v1/chat/completions?api-version=2');
    expect(systemTwoFromEnv({ JEV_MEM_LLM_BASE_URL: 'http://h/v1', JEV_MEM_LLM_MODEL: 'm' })).toEqual({ url: 'http://h/v1/chat/completions', model: 'm' });
    expect(systemTwoFromEnv({ JEV_MEM_LLM_BASE_URL: 'http://h/v1/chat/completions', JEV_MEM_LLM_MODEL: 'm' })).toEqual({ url: 'http://h/v1/chat/completions', model: 'm' });
  });

  it('refuses a URL that is not absolute http(s), naming the option', () => {
    for (const url of ['api.openai.com/v1', 'ftp://x/v1']) {
      let e: unknown;
      try {
        createSystemTwo({ url, model: 'm' });
      } catch (err) {
        e = err;
      }
      expect(isJevMemError(e) && e.code === 'INVALID_OPTION' && e.details.field === 'url').toBe(true);
    }
  });

  it('posts to <base>/chat/completions for a base URL and to the given path for a full URL', async () => {
    chat.enqueue({ kind: 'ok', content: 'one' }, { kind: 'ok', content: 'two' });
    expect((await createSystemTwo({ url: base, model: 'm' }).answer({ query: 'q?', evidence })).text).toBe('one');
    expect((await createSystemTwo({ url: chat.url, model: 'm' }).answer({ query: 'q?', evidence })).text).toBe('two');
    expect(chat.requests.map((r) => r.url)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  });

  it('a 404 names the URL called and the base-URL convention', async () => {
    chat.enqueue({ kind: 'status', status: 404, body: '' });
    const e = (await errorOf(createSystemTwo({ url: base, model: 'm', retries: 0 }).answer({ query: 'q?', evidence }))) as Error & { code: string; details: { status: number } };
    expect(e.code).toBe('SYSTEM_TWO_HTTP');
    expect(e.details.status).toBe(404);
    expect(e.message).toContain(`${base}/chat/completions`);
    expect(e.message).toContain('base URL such as http://127.0.0.1:8080/v1');
  });
});

describe('streamed answers', () => {
  it('onToken gets each streamed piece in order and asks for a stream though stream is off', async () => {
    chat.enqueue({ kind: 'sse', pieces: ['Bis', 'cuit', '.'] });
    const tokens: string[] = [];
    const r = await createSystemTwo({ url: base, model: 'm' }).answer({ query: 'q?', evidence, onToken: (t) => tokens.push(t) });
    expect(tokens).toEqual(['Bis', 'cuit', '.']);
    expect(r.text).toBe('Biscuit.');
    expect(chat.requests[0]!.body).toMatchObject({ stream: true });
  });

  it('a plain JSON reply and a complete() hook give one piece, the whole text', async () => {
    chat.enqueue({ kind: 'ok', content: 'whole answer' });
    const a: string[] = [];
    await createSystemTwo({ url: base, model: 'm' }).answer({ query: 'q?', evidence, onToken: (t) => a.push(t) });
    const b: string[] = [];
    await createSystemTwo({ model: 'm', complete: async () => 'from hook' }).answer({ query: 'q?', evidence, onToken: (t) => b.push(t) });
    expect([a, b]).toEqual([['whole answer'], ['from hook']]);
  });

  it('Memory.answerStream yields the tokens, then the whole answer; answer(onToken) matches', async () => {
    const memory = await createMemory({ encoder, systemTwo: { url: base, model: 'm' } });
    await memory.addMany(TURNS);
    chat.enqueue({ kind: 'sse', pieces: ['It ', 'is ', 'Biscuit.'] });
    const events: string[] = [];
    let final: string | undefined;
    for await (const ev of memory.answerStream('What is the name of the dog?', { minScore: 0 })) {
      if (ev.type === 'token') events.push(ev.token);
      else final = ev.answer.text;
    }
    expect(events).toEqual(['It ', 'is ', 'Biscuit.']);
    expect(final).toBe('It is Biscuit.');
    chat.enqueue({ kind: 'sse', pieces: ['A', 'B'] });
    const got: string[] = [];
    const r = await memory.answer('What is the name of the dog?', { onToken: (t) => got.push(t) });
    expect([got, r.text]).toEqual([['A', 'B'], 'AB']);
    await memory.close();
  });

  it('answerStream rethrows the System-Two error from the loop', async () => {
    const memory = await createMemory({ encoder, systemTwo: { url: base, model: 'm', retries: 0 } });
    await memory.addMany(TURNS.slice(0, 2));
    chat.enqueue({ kind: 'status', status: 404, body: 'no' });
    const seen: string[] = [];
    const e = await (async () => {
      try {
        for await (const ev of memory.answerStream('What did Theo replace?')) seen.push(ev.type);
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(seen).toEqual([]);
    expect(isJevMemError(e) && e.code === 'SYSTEM_TWO_HTTP').toBe(true);
    await memory.close();
  });
});
