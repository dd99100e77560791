/**
 * Issue 23: calibrated relevance and minScore (on the final score since h-break10). The calibration is checked by hand; recall with
 * minScore leaves out what is below it; answer's default gives System Two the top-ranked
 * memories and, below them, those down to the last one above the 0.01 relevance floor (issue 24:
 * a floor alone cut the best evidence, test/api/answer-evidence.test.ts), so after the memory that
 * answered the question is deleted only those few unrelated turns reach the prompt; minScore cuts
 * on the final score, a prefix of the ranking (h-break10 finding 4).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, DEFAULT_ANSWER_KEEP_TOP, DEFAULT_ANSWER_MIN_SCORE } from '../../src/memory.js';
import { calibratedRelevance, calibrationOf, relevanceLogit } from '../../src/memory/relevance.js';
import type { ChatMessage as PromptMessage } from '../../src/system-two/types.js';
import { errorOf, lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-minscore', (e) => (encoder = e));

describe('relevance calibration', () => {
  it('is σ(α·logit(a) + β) with a clamped to [0.005, 0.995]; identity without a fit', () => {
    const h = calibrationOf('jev-mem/heuristic-standin@0.1.0');
    // logit(0.995) = ln 199 = 5.29330; 1.0502 × 5.29330 − 5.6099 = −0.05091; σ = 0.48728
    expect(calibratedRelevance(1, h)).toBeCloseTo(0.48728, 4);
    // logit(0.08) = −2.44235; 1.304 × −2.44235 + 0.2324 = −2.95242; σ = 0.04965
    expect(calibratedRelevance(0.08, calibrationOf('jev-mem/system-one@1.2.0'))).toBeCloseTo(0.04965, 4);
    expect(relevanceLogit(0)).toBeCloseTo(-5.2933, 4);
    expect(calibratedRelevance(0.37, calibrationOf('someone/else@1'))).toBe(0.37);
    expect(calibrationOf('jev-mem/heuristic-standin@9.9.9')).toBeUndefined();
  });
});

const TURNS_NO_DOG = TURNS.filter((t) => !/Biscuit/.test(t.text));

describe('minScore', () => {
  it('recall keeps only memories with score ≥ minScore, a prefix of the ranking; a bad minScore names the field', async () => {
    const memory = await createMemory({ encoder });
    await memory.addMany(TURNS);
    const all = await memory.recall('What did Theo replace on his bike?');
    expect(all.memories.every((m) => typeof m.relevance === 'number' && m.relevance >= 0 && m.relevance <= 1)).toBe(true);
    // scores in [0,1], never rising down the list (h-break10 finding 4)
    expect(all.memories.every((m, i) => m.score >= 0 && m.score <= 1 && (i === 0 || m.score <= (all.memories[i - 1] as { score: number }).score))).toBe(true);
    const cut = ((all.memories[1] as { score: number }).score + (all.memories[2] as { score: number }).score) / 2;
    const some = await memory.recall('What did Theo replace on his bike?', { minScore: cut });
    expect(some.memories.map((m) => m.id)).toEqual(all.memories.slice(0, 2).map((m) => m.id));
    expect(some.memories[0]?.provenance.turnId).toBe('S1:2');
    expect(some.memories.length).toBeLessThan(all.memories.length);
    const e = (await errorOf(memory.recall('x?', { minScore: 1.5 }))) as { details: { field: string } };
    expect(e.details.field).toBe('options.minScore');
    await memory.close();
  });

  it('answer: after the dog memory is deleted, only the top-ranked unrelated turns reach the prompt (one with minScore between the first two scores)', async () => {
    const prompts: PromptMessage[][] = [];
    const memory = await createMemory({ encoder, systemTwo: { model: 'm', complete: async (messages) => (prompts.push(messages), 'ok') } });
    expect(DEFAULT_ANSWER_MIN_SCORE).toBe(0.01);
    expect(DEFAULT_ANSWER_KEEP_TOP).toBe(3);
    const results = await memory.addMany([...TURNS_NO_DOG, { role: 'user', content: 'My dog is called Rex.' }]);
    const before = await memory.answer('What is my dog called?');
    expect(before.memories[0]?.text).toBe('My dog is called Rex.');
    expect(before.memories.length).toBe(DEFAULT_ANSWER_KEEP_TOP); // the others are below 0.01
    expect(JSON.stringify(prompts[0])).toContain('My dog is called Rex.');
    await memory.delete(results[results.length - 1]!.id);
    const after = await memory.answer('What is my dog called?');
    const top = (await memory.recall('What is my dog called?')).memories.slice(0, DEFAULT_ANSWER_KEEP_TOP);
    expect(after.memories.map((m) => m.id)).toEqual(top.map((m) => m.id));
    const prompt = JSON.stringify(prompts[1]);
    expect(prompt).not.toContain('Rex');
    const left = TURNS_NO_DOG.filter((t) => !top.some((m) => m.text === t.text));
    expect(left).toHaveLength(TURNS_NO_DOG.length - DEFAULT_ANSWER_KEEP_TOP);
    for (const t of left) expect(prompt).not.toContain(t.text.slice(6, 40));
    // minScore compares the final score: between the 1st and 2nd, only the top-ranked turn reaches System Two.
    const ranked = (await memory.recall('What is my dog called?')).memories;
    const cut = ((ranked[0] as { score: number }).score + (ranked[1] as { score: number }).score) / 2;
    expect((await memory.answer('What is my dog called?', { minScore: cut })).memories.map((m) => m.id)).toEqual([ranked[0]?.id]);
    // minScore 0 gives System Two every recalled memory, as before.
    const open = await memory.answer('What is my dog called?', { minScore: 0 });
    expect(open.memories.length).toBe(TURNS_NO_DOG.length);
    await memory.close();
  });
});
