/**
 * jev-mem in the Vercel AI SDK: a chat whose model gets the user's memories in its prompt
 * (memoryMiddleware) and can call the memory tools itself (createMemoryTools).
 *
 * Run: `npx tsx examples/ai-sdk/chat.ts` — with the AI SDK's mock model, so it runs offline; put
 * your provider's model in `model` (e.g. `openai('gpt-4.1-mini')` from `@ai-sdk/openai`).
 * In an app, import from the package: `import { createMemoryTools, memoryMiddleware } from 'jev-mem/ai-sdk'`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateText, stepCountIs, wrapLanguageModel, type LanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createMemoryTools, memoryMiddleware } from '../../src/integrations/ai-sdk.js';
import { createNodeMemory } from '../../src/node.js';

/** What one run of the example saw: the model's answer, the tool results and the prompts the model received. */
export interface ChatExampleResult {
  text: string;
  toolResults: unknown[];
  prompts: unknown[];
  remembered: string[];
}

/** A scripted model: first calls `recall`, then answers with what the tool returned. */
function scriptedModel(): MockLanguageModelV4 {
  const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 5, text: 5, reasoning: 0 } };
  let step = 0;
  return new MockLanguageModelV4({
    doGenerate: async (options) => {
      step += 1;
      if (step === 1) {
        return { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'recall', input: JSON.stringify({ query: 'What is my dog called?', k: 2 }) }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      }
      const toolMessage = JSON.stringify(options.prompt.filter((m) => m.role === 'tool'));
      const name = /Biscuit/.test(toolMessage) ? 'Biscuit' : 'unknown';
      return { content: [{ type: 'text', text: `Your dog is called ${name}.` }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

/** Runs the example against a memory in `store` (a fresh temporary one by default). */
export async function runChatExample(store = mkdtempSync(join(tmpdir(), 'jev-mem-ai-sdk-')), model: MockLanguageModelV4 = scriptedModel()): Promise<ChatExampleResult> {
  const memory = await createNodeMemory({ store, systemOne: 'heuristic', create: true });
  try {
    await memory.addMany([
      { text: 'My dog Biscuit is a three-year-old beagle.', speaker: 'user', observedAt: '2025-03-01T09:00:00Z' },
      { text: 'I am allergic to peanuts.', speaker: 'user', observedAt: '2025-03-02T09:00:00Z' },
    ]);
    const wrapped = wrapLanguageModel({ model, middleware: memoryMiddleware(memory, { k: 2, now: () => new Date('2025-04-01T12:00:00Z') }) });
    const result = await generateText({
      model: wrapped as LanguageModel,
      tools: await createMemoryTools(memory),
      stopWhen: stepCountIs(3),
      prompt: 'What is my dog called?',
    });
    const listed = (await memory.export()).nodes.map((n) => `${n.provenance.speaker}: ${n.text}`);
    return { text: result.text, toolResults: result.steps.flatMap((s) => s.toolResults.map((t) => t.output)), prompts: model.doGenerateCalls.map((c) => c.prompt), remembered: listed };
  } finally {
    await memory.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const store = mkdtempSync(join(tmpdir(), 'jev-mem-ai-sdk-'));
  const r = await runChatExample(store);
  console.log(r.text);
  console.log('stored now:', r.remembered);
  rmSync(store, { recursive: true, force: true });
}
