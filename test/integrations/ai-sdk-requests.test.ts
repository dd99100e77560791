/**
 * A chat's questions are conversation, not facts (h-break9 finding on cbb897b): after a chat
 * through memoryMiddleware, recall "dog" returned the stored question "What is my dog called?"
 * above "My dog is called Rex". The question is kept (every observation is), and ranks below the
 * statements answering it, for every entry point that records chat turns with a user role
 * (read/request.ts); a question between named people is not touched.
 */
import { describe, expect, it } from 'vitest';
import type { LanguageModelMiddleware } from 'ai';
import type { Encoder } from '../../src/encoder/encoder.js';
import { memoryMiddleware } from '../../src/integrations/ai-sdk.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('ai-sdk-requests', (e) => (encoder = e));

type Params = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type Mw = Required<Pick<LanguageModelMiddleware, 'transformParams' | 'wrapGenerate'>>;
const userPrompt = (text: string): Params => ({ prompt: [{ role: 'user', content: [{ type: 'text', text }] }] }) as Params;

/** One generation answering `reply` through the middleware (which then remembers the exchange). */
async function generate(mw: LanguageModelMiddleware, question: string, reply: string): Promise<void> {
  await (mw as Mw).wrapGenerate({
    doGenerate: async () => ({ content: [{ type: 'text', text: reply }], finishReason: { unified: 'stop', raw: 'stop' }, usage: {} as never, warnings: [] }) as never,
    doStream: (() => undefined) as never,
    params: userPrompt(question),
    model: {} as never,
  });
}

const DOG = 'My dog is called Rex and he is a beagle';
const ASKED = 'What is my dog called?';

async function recallTexts(memory: Memory, query: string, namespace?: string): Promise<string[]> {
  return (await memory.recall(query, { k: 5, minScore: 0, ...(namespace !== undefined ? { namespace } : {}) })).memories.map((m) => m.text);
}

describe('a chat question ranks below the statements answering it', () => {
  it('through the AI SDK middleware: recall and the next prompt lead with the fact, the question is kept', async () => {
    const memory = await createMemory({ encoder, now: () => new Date('2024-03-01T00:00:00Z') });
    await memory.add({ role: 'user', content: DOG, userId: 'u1', observedAt: '2024-01-01T00:00:00Z' });
    await memory.add({ role: 'user', content: 'My cat is called Luna', userId: 'u1', observedAt: '2024-01-01T00:00:00Z' });
    const mw = memoryMiddleware(memory, { k: 5, minScore: 0, scope: { userId: 'u1' }, now: () => new Date('2024-02-01T00:00:00Z') });
    await generate(mw, ASKED, 'Your dog is Rex.');
    for (const q of ['dog', ASKED, "what's my dog's name", 'Tell me about my pets']) {
      const texts = await recallTexts(memory, q);
      expect(texts).toContain(ASKED); // kept and recalled
      expect(texts.indexOf(DOG)).toBeLessThan(texts.indexOf(ASKED));
    }
    expect((await recallTexts(memory, 'dog')).slice(0, 2)).toEqual([DOG, 'Your dog is Rex.']);
    // The next turn's prompt puts the fact first.
    const prompt = (await (mw as Mw).transformParams({ type: 'generate', params: userPrompt(ASKED), model: {} as never })).prompt;
    const lines = (prompt[0]?.content as string).split('\n');
    expect(lines[1]).toBe(`- [2024-01-01] user: ${DOG}`);
    // A question about what was asked reads the question first.
    expect((await recallTexts(memory, 'What did I ask you about my dog?'))[0]).toBe(ASKED);
    await memory.close();
  });

  it('a chat message { role, content } and a turn by speaker "user" (the demo chat) alike', async () => {
    const memory = await createMemory({ encoder, now: () => new Date('2024-03-01T00:00:00Z') });
    await memory.add({ text: DOG, speaker: 'user', observedAt: '2024-01-01T00:00:00Z' });
    await memory.add({ role: 'user', content: ASKED, observedAt: '2024-02-01T00:00:00Z' });
    await memory.add({ text: 'Where does my dog like to walk?', speaker: 'user', observedAt: '2024-02-02T00:00:00Z' });
    const texts = await recallTexts(memory, 'dog');
    expect(texts[0]).toBe(DOG);
    expect(texts.slice(1).sort()).toEqual([ASKED, 'Where does my dog like to walk?'].sort());
    await memory.close();
  });
});
