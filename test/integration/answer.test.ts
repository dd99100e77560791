import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { parseJsonl } from '../../src/formats/jsonl.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { startChatServer, type ChatServer } from '../helpers/chat-server.js';

const SAMPLE = parseJsonl(readFileSync(new URL('../../examples/sample-conversation.jsonl', import.meta.url), 'utf8'));

let encoder: Encoder;
let server: ChatServer;
let memory: Memory;

beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
  server = await startChatServer();
  memory = await createMemory({ encoder, systemTwo: { url: `${server.url}/v1/chat/completions`, model: 'test-model', timeoutMs: 500, retries: 0 } });
  await memory.addMany(SAMPLE);
});

afterAll(async () => {
  await memory.close();
  await encoder.close?.();
  await server.close();
});

describe('answer() = recall + one System-Two call (eq. (27))', () => {
  it('sends the recalled memories as delimited data and returns the model text', async () => {
    server.enqueue({ kind: 'ok', content: 'Ines Duarte teaches it.' });
    const a = await memory.answer("Who teaches Maya's pottery class?", { k: 5 });
    expect(a.text).toBe('Ines Duarte teaches it.');
    expect(a.memories).toHaveLength(5);
    const sent = server.requests.at(-1)?.body as { model: string; messages: Array<{ role: string; content: string }> };
    expect(sent.model).toBe('test-model');
    const user = sent.messages.find((m) => m.role === 'user')?.content ?? '';
    expect(user).toContain('<memories>');
    expect(user).toContain('Ines Duarte');
    expect(user).toContain("Who teaches Maya's pottery class?");
  });

  it('a dated now is also the recall\'s clock ("last weekend" read against it); a free-form one only goes to the prompt (issue 24, round eight)', async () => {
    server.enqueue({ kind: 'ok', content: 'ok' });
    const dated = await memory.answer('What did I do last weekend?', { now: '2024-04-15T09:00:00Z', minScore: 0 });
    expect(dated.trace.when?.window).toEqual({ text: 'last weekend', start: '2024-04-13T00:00:00.000Z', end: '2024-04-14T23:59:59.999Z' });
    server.enqueue({ kind: 'ok', content: 'ok' });
    const free = await memory.answer('What did I do last weekend?', { now: 'the Monday after Easter', minScore: 0 });
    expect(free.trace.when?.window?.start).not.toBe('2024-04-13T00:00:00.000Z'); // the machine clock's last weekend
    const user = (server.requests.at(-1)?.body as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user')?.content ?? '';
    expect(`${user}${JSON.stringify(server.requests.at(-1)?.body)}`).toContain('the Monday after Easter');
  });

  it('turns a non-200 status into SYSTEM_TWO_HTTP', async () => {
    server.enqueue({ kind: 'status', status: 503, body: 'overloaded' });
    const err = await memory.answer('What did Biscuit eat?').catch((e: unknown) => e);
    expect(isJevMemError(err, 'SYSTEM_TWO_HTTP')).toBe(true);
    expect((err as { status: number }).status).toBe(503);
  });

  it('turns a hang into SYSTEM_TWO_TIMEOUT', async () => {
    server.enqueue({ kind: 'hang' });
    const err = await memory.answer('What did Biscuit eat?').catch((e: unknown) => e);
    expect(isJevMemError(err, 'SYSTEM_TWO_TIMEOUT')).toBe(true);
  });

  it('turns a malformed body into SYSTEM_TWO_BAD_RESPONSE', async () => {
    server.enqueue({ kind: 'raw', body: '{"choices": "nope"}' });
    const err = await memory.answer('What did Biscuit eat?').catch((e: unknown) => e);
    expect(isJevMemError(err, 'SYSTEM_TWO_BAD_RESPONSE')).toBe(true);
  });

  it('without System Two, answer() fails clearly and recall() still works', async () => {
    const bare = await createMemory({ encoder });
    await bare.add({ text: 'Theo: I replaced the chain.' });
    const err = await bare.answer('What did Theo replace?').catch((e: unknown) => e);
    expect(isJevMemError(err, 'SYSTEM_TWO_NOT_CONFIGURED')).toBe(true);
    expect((await bare.recall('What did Theo replace?')).memories).toHaveLength(1);
    await bare.close();
  });
});
