/**
 * jev-mem/ai-sdk against the real AI SDK (issue 23): `generateText` with the SDK's own mock
 * language model (`ai/test` MockLanguageModelV4) calls our tools, and the middleware puts the
 * recalled memories into the prompt before the call and remembers the exchange after it; the
 * stream path remembers too. Runs examples/ai-sdk/chat.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simulateReadableStream, streamText, wrapLanguageModel, type LanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterAll, describe, expect, it } from 'vitest';
import { runChatExample } from '../../examples/ai-sdk/chat.js';
import { createMemoryTools, MEMORY_MESSAGE_HEADER, memoryMiddleware } from '../../src/integrations/ai-sdk.js';
import { createNodeMemory } from '../../src/node.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-ai-sdk-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('jev-mem/ai-sdk with the AI SDK', () => {
  it('generateText calls the recall tool, and the middleware puts the recalled memories into the prompt and remembers the exchange', async () => {
    const r = await runChatExample(join(dir, 'example'));
    expect(r.text).toBe('Your dog is called Biscuit.');
    // The tool ran over the memory: its first memory is the dog.
    const recall = r.toolResults[0] as { memories: Array<{ text: string }> };
    expect(recall.memories[0]?.text).toBe('My dog Biscuit is a three-year-old beagle.');
    // Both model calls got the memories as a system message before the user's message, dog first.
    expect(r.prompts).toHaveLength(2);
    for (const prompt of r.prompts as Array<Array<{ role: string; content: unknown }>>) {
      expect(prompt[0]?.role).toBe('system');
      const lines = (prompt[0]?.content as string).split('\n');
      expect(lines[0]).toBe(MEMORY_MESSAGE_HEADER);
      expect(lines[1]).toBe('- [2025-03-01] user: My dog Biscuit is a three-year-old beagle.');
      // The peanut allergy has calibrated relevance < 0.01 but ranks second: the top 3 always come in (DEFAULT_ANSWER_KEEP_TOP).
      expect(lines).toEqual([MEMORY_MESSAGE_HEADER, '- [2025-03-01] user: My dog Biscuit is a three-year-old beagle.', '- [2025-03-02] user: I am allergic to peanuts.']);
      expect(prompt[1]?.role).toBe('user');
    }
    // The exchange is remembered once, after the final call (the tool-call step remembers nothing).
    expect(r.remembered).toEqual([
      'user: My dog Biscuit is a three-year-old beagle.',
      'user: I am allergic to peanuts.',
      'user: What is my dog called?',
      'assistant: Your dog is called Biscuit.',
    ]);
  }, 30_000);

  it('builds one AI SDK tool per memory tool, with JSON Schemas', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'tools'), systemOne: 'heuristic', create: true });
    try {
      const tools = await createMemoryTools(memory, { answer: true });
      expect(Object.keys(tools)).toEqual(['remember', 'recall', 'answer', 'update', 'forget', 'list', 'history']);
      const remembered = (await tools.remember.execute?.({ text: 'I live in Porto.' }, { toolCallId: 't', messages: [] } as never)) as { id: string };
      expect((await memory.get(remembered.id))?.provenance.source).toBe('ai-sdk');
      await expect(tools.forget.execute?.({ id: 'nope' }, { toolCallId: 't2', messages: [] } as never)).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'id' });
      // What the AI SDK sends the model for a failed tool is error.toString(): the code, not the class name.
      const failed = await Promise.resolve(tools.recall.execute?.({ query: 'dog', k: 0 }, { toolCallId: 't3', messages: [] } as never)).catch((e: unknown) => e);
      expect(String(failed)).toBe('INVALID_INPUT: k: expected an integer from 1 to 50, got 0');
    } finally {
      await memory.close();
    }
  });

  it('streamText: the middleware recalls into the prompt and remembers the streamed reply', async () => {
    const memory = await createNodeMemory({ store: join(dir, 'stream'), systemOne: 'heuristic', create: true });
    try {
      await memory.add({ text: 'My sister Priya lives in Lisbon.', speaker: 'user', observedAt: '2025-01-05T10:00:00Z' });
      const model = new MockLanguageModelV4({
        doStream: {
          stream: simulateReadableStream({
            chunks: [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'She lives ' },
              { type: 'text-delta', id: 't', delta: 'in Lisbon.' },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } } },
            ],
          }),
        },
      });
      const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware(memory, { now: () => new Date('2025-02-01T00:00:00Z'), sessionId: 'chat-1' }) });
      const result = streamText({ model: wrapped as LanguageModel, prompt: 'Where does Priya live?' });
      expect(await result.text).toBe('She lives in Lisbon.');
      expect(JSON.stringify(model.doStreamCalls[0]?.prompt[0])).toContain('- [2025-01-05] user: My sister Priya lives in Lisbon.');
      const nodes = (await memory.export()).nodes;
      expect(nodes.map((n) => [n.provenance.speaker, n.text, n.observedAt, n.provenance.sessionId])).toEqual([
        ['user', 'My sister Priya lives in Lisbon.', '2025-01-05T10:00:00.000Z', undefined],
        ['user', 'Where does Priya live?', '2025-02-01T00:00:00.000Z', 'chat-1'],
        ['assistant', 'She lives in Lisbon.', '2025-02-01T00:00:00.000Z', 'chat-1'],
      ]);
    } finally {
      await memory.close();
    }
  });

  it('refuses bad options by name', () => {
    expect(() => memoryMiddleware({} as never, { k: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'k' }));
    expect(() => memoryMiddleware({} as never, { minScore: 2 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'minScore' }));
  });
});
