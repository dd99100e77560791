/**
 * memoryMiddleware (jev-mem/ai-sdk) in unit form, over the middleware's own hooks: its `format`
 * and `speakers` options, the default evidence (the one `answer()` uses: the top-ranked
 * memories and the others above the 0.01 floor), and `scope` (recall reads one user's memories, and the
 * remembered turns carry the scope).
 */
import { describe, expect, it } from 'vitest';
import type { LanguageModelMiddleware } from 'ai';
import type { Encoder } from '../../src/encoder/encoder.js';
import { formatMemories, MEMORY_MESSAGE_HEADER, memoryMiddleware, recallQueryOf } from '../../src/integrations/ai-sdk.js';
import { createMemory, DEFAULT_ANSWER_KEEP_TOP, MAX_QUERY_CHARS, type Memory } from '../../src/memory.js';
import { holdsNoState } from '../../src/write/state-updates.js';
import { lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('ai-sdk-middleware', (e) => (encoder = e));

type Params = Parameters<NonNullable<LanguageModelMiddleware['transformParams']>>[0]['params'];
type Mw = Required<Pick<LanguageModelMiddleware, 'transformParams' | 'wrapGenerate'>>;

const userPrompt = (text: string): Params => ({ prompt: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text }] }] }) as Params;

/** The prompt the model would get for `question`. */
async function promptFor(mw: LanguageModelMiddleware, question: string): Promise<Params['prompt']> {
  const m = mw as Mw;
  return (await m.transformParams({ type: 'generate', params: userPrompt(question), model: {} as never })).prompt;
}

/** One generation that answers `reply`, through the middleware's wrapGenerate. */
async function generate(mw: LanguageModelMiddleware, question: string, reply: string): Promise<void> {
  const m = mw as Mw;
  await m.wrapGenerate({
    doGenerate: async () => ({ content: [{ type: 'text', text: reply }], finishReason: { unified: 'stop', raw: 'stop' }, usage: {} as never, warnings: [] }) as never,
    doStream: (() => undefined) as never,
    params: userPrompt(question),
    model: {} as never,
  });
}

const system = (prompt: Params['prompt']): string[] => prompt.filter((m) => m.role === 'system').map((m) => m.content as string);

async function fresh(): Promise<Memory> {
  return createMemory({ encoder, now: () => new Date('2024-01-01T00:00:00Z') });
}

describe('memoryMiddleware options', () => {
  it('format: its text is the system message, given the memories recall returned', async () => {
    const memory = await fresh();
    await memory.addMany(TURNS);
    const seen: string[][] = [];
    const mw = memoryMiddleware(memory, { k: 3, minScore: 0, format: (ms) => (seen.push(ms.map((x) => x.provenance.turnId as string)), `MEM ${ms.length}`) });
    const prompt = await promptFor(mw, 'What did Theo replace on his bike?');
    expect(system(prompt)).toEqual(['Be brief.', 'MEM 3']);
    // After the prompt's own system message, before the user's.
    expect(prompt.map((m) => m.role)).toEqual(['system', 'system', 'user']);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.[0]).toBe('S1:2');
    const direct = await memory.recall('What did Theo replace on his bike?', { k: 3 });
    expect(seen[0]).toEqual(direct.memories.map((m) => m.provenance.turnId));
    await memory.close();
  });

  it('formatMemories writes one line per memory with its local date and speaker', async () => {
    const memory = await fresh();
    await memory.addMany(TURNS);
    const r = await memory.recall('What did Theo replace on his bike?', { k: 1 });
    expect(formatMemories(r.memories)).toBe(`${MEMORY_MESSAGE_HEADER}\n- [2023-03-01] Theo: Theo: Nice! I replaced the chain on my bike this weekend.`);
    await memory.close();
  });

  it('speakers: the remembered exchange carries the given names, a reply with no text stores only the question, and a reply to a blank prompt nothing', async () => {
    const memory = await fresh();
    const mw = memoryMiddleware(memory, { speakers: { user: 'Ana', assistant: 'Coach' }, now: () => new Date('2024-02-03T04:05:06Z') });
    await generate(mw, 'I ran 10 km today.', 'Well done, Ana!');
    await generate(mw, 'Remember that my race is in May.', '   ');
    await generate(mw, '   ', 'ok'); // a reply to no user text: the exchange is not kept
    const nodes = (await memory.export()).nodes.sort((a, b) => a.seq - b.seq);
    expect(nodes.map((n) => [n.provenance.speaker, n.text, n.observedAt, n.provenance.source])).toEqual([
      ['Ana', 'I ran 10 km today.', '2024-02-03T04:05:06.000Z', 'ai-sdk'],
      ['Coach', 'Well done, Ana!', '2024-02-03T04:05:06.000Z', 'ai-sdk'],
      ['Ana', 'Remember that my race is in May.', '2024-02-03T04:05:06.000Z', 'ai-sdk'],
    ]);
    // The roles are carried whatever the names: "Coach" is the assistant (its turns hold no state).
    expect(nodes.map((n) => n.provenance.metadata?.['role'])).toEqual(['user', 'assistant', 'user']);
    expect(nodes.map((n) => holdsNoState(n))).toEqual([false, true, false]);
    // Only the user's side renamed: the other keeps its default.
    const other = await fresh();
    await generate(memoryMiddleware(other, { speakers: { user: 'Ana' } }), 'Hi there, I am Ana.', 'Hello Ana.');
    expect((await other.export()).nodes.map((n) => n.provenance.speaker).sort()).toEqual(['Ana', 'assistant']);
    await memory.close();
    await other.close();
  });

  it('minScore defaults to answer()\'s evidence: with no memory about the question, only the top-ranked ones reach the prompt', async () => {
    const memory = await fresh();
    await memory.addMany(TURNS.filter((t) => !/Biscuit/.test(t.text)));
    // Every memory is below 0.01 for the dog question: the top DEFAULT_ANSWER_KEEP_TOP (3) of the k (5) come in.
    const dflt = system(await promptFor(memoryMiddleware(memory), 'What is my dog called?'));
    expect(dflt).toHaveLength(2);
    expect(dflt[1]?.split('\n')).toHaveLength(1 + DEFAULT_ANSWER_KEEP_TOP);
    // minScore above the best final score: no system message is added.
    const best = (await memory.recall('What is my dog called?', { k: 5 })).memories[0]?.score as number;
    expect(best).toBeLessThan(1);
    expect(system(await promptFor(memoryMiddleware(memory, { minScore: best + 1e-6 }), 'What is my dog called?'))).toEqual(['Be brief.']);
    // minScore 0 puts the k recalled memories in, whatever their relevance.
    const open = system(await promptFor(memoryMiddleware(memory, { minScore: 0, k: 4 }), 'What is my dog called?'));
    expect(open).toHaveLength(2);
    expect(open[1]?.split('\n')).toHaveLength(1 + 4);
    // A related memory still comes in under the default.
    const related = system(await promptFor(memoryMiddleware(memory), 'What did Theo replace on his bike?'));
    expect(related[1]?.split('\n')[1]).toBe('- [2023-03-01] Theo: Theo: Nice! I replaced the chain on my bike this weekend.');
    await memory.close();
  });

  it('scope: recall reads only the scope, and remembered turns are written with it', async () => {
    const memory = await fresh();
    await memory.add({ text: 'My favourite colour is teal.', speaker: 'user', userId: 'ana', observedAt: '2023-05-01T00:00:00Z' });
    await memory.add({ text: 'My favourite colour is orange.', speaker: 'user', userId: 'bo', observedAt: '2023-05-01T00:00:00Z' });
    const mw = memoryMiddleware(memory, { minScore: 0, scope: { userId: 'bo', agentId: 'helper' }, sessionId: 'chat-9' });
    const prompt = system(await promptFor(mw, 'What is my favourite colour?'));
    // bo's memory has no agentId: the scope selects none of the two.
    expect(prompt).toEqual(['Be brief.']);
    const boOnly = system(await promptFor(memoryMiddleware(memory, { minScore: 0, scope: { userId: 'bo' } }), 'What is my favourite colour?'));
    expect(boOnly[1]?.split('\n').slice(1)).toEqual(['- [2023-05-01] user: My favourite colour is orange.']);
    await generate(mw, 'I like green now.', 'Noted.');
    const written = (await memory.list({ scope: { userId: 'bo', agentId: 'helper', sessionId: 'chat-9' } })).memories;
    expect(written.map((n) => [n.text, n.provenance.metadata, n.provenance.sessionId])).toEqual([
      ['I like green now.', { userId: 'bo', agentId: 'helper', role: 'user' }, 'chat-9'],
      ['Noted.', { userId: 'bo', agentId: 'helper', role: 'assistant' }, 'chat-9'],
    ]);
    // The session id is written but does not narrow the recall: bo's older memory comes in.
    const next = system(await promptFor(memoryMiddleware(memory, { minScore: 0, scope: { userId: 'bo' }, sessionId: 'chat-10' }), 'What is my favourite colour?'));
    expect(next[1]).toContain('My favourite colour is orange.');
    await memory.close();
  });
});

describe('memoryMiddleware and a long user message', () => {
  it('recalls with the message\'s last MAX_QUERY_CHARS characters instead of failing the call', async () => {
    const memory = await fresh();
    await memory.addMany(TURNS);
    const question = 'What did Theo replace on his bike?';
    const long = 'pasted log line\n'.repeat(MAX_QUERY_CHARS / 8) + question;
    expect(recallQueryOf(long)).toBe(long.slice(long.length - MAX_QUERY_CHARS));
    expect(recallQueryOf(question)).toBe(question);
    // A cut inside a surrogate pair drops the lone half: 3,999 code units, starting on a whole emoji.
    const cut = recallQueryOf('\u{1F600}'.repeat(MAX_QUERY_CHARS) + 'y');
    expect([cut.length, cut.codePointAt(0), cut.endsWith('\u{1F600}y')]).toEqual([MAX_QUERY_CHARS - 1, 0x1f600, true]);
    const prompt = await promptFor(memoryMiddleware(memory, { k: 3, minScore: 0 }), long);
    expect(system(prompt)).toHaveLength(2);
    await memory.close();
  });
});
