import { describe, expect, it } from 'vitest';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';

/**
 * A long user/assistant history (issue 24, preference questions): the user's taste is said in
 * passing inside a long request for help; much later the user asks for a recommendation that does
 * not name the category of the taste. Long assistant answers about cooking and the user's own
 * cooking questions share more words and meaning with the request than the taste does.
 */
const answer = (topic: string): string =>
  Array.from(
    { length: 12 },
    (_, i) => `Point ${i + 1}: for ${topic}, plan what you cook this weekend, keep a recipe you enjoy at hand, and cook extra portions of the dinner you like so the weekend stays easy.`,
  ).join(' ');

const EVIDENCE =
  "I'm looking for a way to organise my tiny kitchen before my parents visit. I've been really into Thai food lately, green curry especially, and I'm vegetarian, so no fish sauce either. Do you know if coconut milk keeps once it's opened?";

const HISTORY: Array<['user' | 'assistant', string]> = [
  ['user', 'What should I cook for a dinner party this weekend?'],
  ['assistant', answer('a dinner party')],
  ['user', 'How do I plan meals for the week without getting bored?'],
  ['assistant', answer('weekly meal plans')],
  ['user', EVIDENCE],
  ['assistant', answer('a tiny kitchen')],
  ['user', 'Which cookbook should I buy for quick weeknight recipes?'],
  ['assistant', answer('cookbooks')],
  ['user', 'What is a good side dish to cook with roast chicken?'],
  ['assistant', answer('side dishes')],
  ['user', 'My oven runs hot. Should I lower the temperature for baking?'],
  ['assistant', answer('baking')],
];

describe('a recommendation request finds the taste stated in passing (issue 24, taste.ts)', () => {
  it("ranks the user's statement of taste first for 'Any ideas for a meal I would love?' and reports the taste step in the trace", async () => {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      let t = Date.parse('2024-03-01T10:00:00Z');
      let session = 0;
      for (const [i, [speaker, text]] of HISTORY.entries()) {
        if (i % 2 === 0) session++;
        await memory.add({ text, speaker, observedAt: new Date((t += 86_400_000)).toISOString(), sessionId: `s${session}` });
      }
      const r = await memory.recall('Any ideas for a meal I would love?', { k: 5 });
      expect(r.trace.guard).toBe(1); // long answers with role speakers
      expect(r.trace.taste?.scored).toBeGreaterThan(0);
      expect(r.memories[0]?.text).toBe(EVIDENCE);
    } finally {
      await memory.close();
    }
  });

  it('leaves a history of short turns between named people alone (g = 0: no taste step, as on LoCoMo)', async () => {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      const turns: Array<[string, string]> = [
        ['Ana', "I've been really into Thai food lately, and I'm vegetarian."],
        ['Ben', 'What should I cook for a dinner party this weekend?'],
        ['Ana', 'Maybe a big pot of soup, everyone likes that.'],
        ['Ben', 'My oven runs hot, so baking is out.'],
      ];
      let t = Date.parse('2024-03-01T10:00:00Z');
      for (const [speaker, text] of turns) await memory.add({ text, speaker, observedAt: new Date((t += 60_000)).toISOString(), sessionId: 's1' });
      const r = await memory.recall('Any ideas for a meal I would love?', { k: 4 });
      expect(r.trace.guard).toBe(0);
      expect(r.trace.taste).toBeUndefined();
    } finally {
      await memory.close();
    }
  });
});
