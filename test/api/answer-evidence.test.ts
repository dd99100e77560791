/**
 * Issue 22/24: `answer()` and the AI SDK middleware give System Two the top-ranked evidence by
 * default. The trained System One's calibrated relevance of "I live in Lisbon now." is far below
 * 0.01 for "Which city am I in?" and for questions in Portuguese or German (a_v ≈ 0: no signal),
 * yet recall ranks it among the first; the old default floor (0.01) gave System Two an empty
 * `<memories>` block. A fake System-Two `fetch` captures the prompt.
 */
import { describe, expect, it } from 'vitest';
import type { LanguageModelMiddleware } from 'ai';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { memoryMiddleware } from '../../src/integrations/ai-sdk.js';
import { createMemory, DEFAULT_ANSWER_KEEP_TOP, DEFAULT_ANSWER_MIN_SCORE, type Memory } from '../../src/memory.js';
import { answerEvidence } from '../../src/memory/relevance.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-answer-evidence', (e) => (encoder = e));

const LISBON = 'I live in Lisbon now.';
const OTHERS = [
  'I had pasta for dinner yesterday.', 'My sister is called Ana.', 'I work as a software engineer.', 'I like hiking on weekends.',
  'My favourite colour is green.', 'I am reading a book about whales.', 'I bought a new laptop last month.', 'I play the guitar badly.',
  'My cat sleeps all day.', 'I want to learn Japanese.', 'The weather was rainy today.', 'I watched a film about space.',
  'My brother runs marathons.', 'I drink coffee every morning.', 'I went to a concert on Friday.', 'I am allergic to peanuts.',
  'My manager is very kind.', 'I started going to the gym.', 'I painted my bedroom blue.', 'I visited my grandmother.',
  'I am planning a birthday party.', 'My phone screen cracked.', 'I cooked curry for friends.', 'I planted tomatoes in the garden.',
  'I love jazz music.', 'I finished a puzzle with 1000 pieces.', 'I adopted a rabbit.', 'My car needs new tyres.',
  'I learned to knit a scarf.', 'I took a photography course.',
];
// A question whose top-3 recall holds the Lisbon memory with a calibrated relevance < 0.01 (the
// trained model, system-one@1.2.0): measured 0.0031, rank 1. "Which city am I in?" was a second
// (relevance 0.0013) while "I live in Lisbon now." falsely superseded "I am planning a birthday
// party." and others and buried them; with the object gate (h-endgate) nothing is superseded and
// Lisbon ranks 4th there (ties at 0.0013), so that question checks the rule for whatever the top
// three are. ("Wo wohne ich?" shares no signal: Lisbon ranks below 5th.)
const QUESTIONS = ['Onde eu moro?'];
/** Questions whose top three hold memories of relevance < 0.01: each reaches the prompt. */
const WEAK = ['Which city am I in?', 'Onde eu moro?'];

/** A memory on the trained System One whose System Two is a fake OpenAI-compatible endpoint; `prompts` holds each request body's messages. */
async function lisbonMemory(prompts: string[]): Promise<Memory> {
  const systemOne = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
  const fetch = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    prompts.push(JSON.stringify((JSON.parse(String(init?.body)) as { messages: unknown }).messages));
    return new Response(JSON.stringify({ model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: 'Lisbon.' }, finish_reason: 'stop' }] }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const memory = await createMemory({ encoder, systemOne, systemTwo: { url: 'http://127.0.0.1:9/v1', model: 'm', retries: 0, fetch } });
  await memory.addMany([...OTHERS.slice(0, 15), LISBON, ...OTHERS.slice(15)].map((content) => ({ role: 'user', content })));
  return memory;
}

describe('the default evidence of answer()', () => {
  it('keeps a prefix of the ranking: the top 3, and down to the last memory above the relevance floor; minScore on the score', () => {
    const ranked = [0.002, 0.3, 0.001, 0.0005, 0.05, 0.009].map((relevance, i) => ({ id: `m${i}`, relevance, score: 0.6 - 0.1 * i }));
    expect(DEFAULT_ANSWER_KEEP_TOP).toBe(3);
    expect(DEFAULT_ANSWER_MIN_SCORE).toBe(0.01);
    // m3 (relevance 0.0005) ranks above m4 (0.05), so it comes too (h-break10 finding 4); m5 (0.009) is below the last one kept
    expect(answerEvidence(ranked, undefined).map((m) => m.id)).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    // a minScore given compares the final score (0.6, 0.5, 0.4, …): a prefix whatever the relevance
    expect(answerEvidence(ranked, 0.45).map((m) => m.id)).toEqual(['m0', 'm1']);
    expect(answerEvidence(ranked, 0)).toHaveLength(6);
  });

  it('puts "I live in Lisbon now." in the System-Two prompt for questions its relevance is < 0.01 for', async () => {
    const prompts: string[] = [];
    const memory = await lisbonMemory(prompts);
    try {
      for (const [i, q] of QUESTIONS.entries()) {
        const recalled = await memory.recall(q);
        const rank = recalled.memories.findIndex((m) => m.text === LISBON);
        expect(rank, q).toBeGreaterThanOrEqual(0);
        expect(rank, q).toBeLessThan(DEFAULT_ANSWER_KEEP_TOP);
        const lisbon = recalled.memories[rank];
        expect(lisbon?.relevance, q).toBeLessThan(DEFAULT_ANSWER_MIN_SCORE); // the old default cut it
        const a = await memory.answer(q);
        expect(a.text).toBe('Lisbon.');
        expect(a.memories.map((m) => m.text), q).toContain(LISBON);
        expect(prompts[i], q).toContain(LISBON);
      }
    } finally {
      await memory.close();
    }
  }, 60_000);

  it('puts each of the top three memories in the prompt whatever their relevance', async () => {
    const prompts: string[] = [];
    const memory = await lisbonMemory(prompts);
    try {
      for (const [i, q] of WEAK.entries()) {
        const top = (await memory.recall(q)).memories.slice(0, DEFAULT_ANSWER_KEEP_TOP);
        expect(top, q).toHaveLength(DEFAULT_ANSWER_KEEP_TOP);
        expect(top.some((m) => m.relevance < DEFAULT_ANSWER_MIN_SCORE), q).toBe(true);
        const a = await memory.answer(q);
        for (const m of top) {
          expect(a.memories.map((x) => x.text), q).toContain(m.text);
          expect(prompts[i], q).toContain(m.text);
        }
      }
    } finally {
      await memory.close();
    }
  }, 60_000);

  it('the AI SDK middleware puts it in the model\'s prompt too', async () => {
    const memory = await lisbonMemory([]);
    try {
      const mw = memoryMiddleware(memory) as Required<Pick<LanguageModelMiddleware, 'transformParams'>>;
      const params = { prompt: [{ role: 'user', content: [{ type: 'text', text: QUESTIONS[0] }] }] } as never;
      const { prompt } = await mw.transformParams({ type: 'generate', params, model: {} as never });
      const system = prompt.filter((m) => m.role === 'system').map((m) => m.content as string);
      expect(system).toHaveLength(1);
      expect(system[0]).toContain(LISBON);
    } finally {
      await memory.close();
    }
  }, 60_000);
});
