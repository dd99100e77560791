/**
 * Recall does not rank below its own lexical anchor when the only turn holding the query's words
 * is one long assistant answer (h-break15 finding 4, read/guard.ts `otherRolePrior`): the guard's
 * role prior took "Kyoto Osaka bullet train" for a question about the user's turns and ranked
 * user turns sharing no word with it above the answer.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('guard-recall', (e) => (encoder = e));

const answer = (topic: string, fact: string): string =>
  `Happy to help with ${topic}! ` + 'It depends on your schedule, your budget and what you enjoy most, so weigh each option against those. '.repeat(5) + fact + ' ' + 'Keep notes as you go and adjust the plan whenever something changes. '.repeat(4);

const TURNS: Array<['user' | 'assistant', string]> = [
  ['user', 'Could you suggest a weekly workout routine?'],
  ['assistant', answer('a workout routine', 'Three strength sessions plus two easy rides a week suit a beginner well.')],
  ['user', 'I cycle to the office every weekday, about 12 km each way.'],
  ['assistant', answer('a trip to Japan', 'The bullet train from Kyoto to Osaka takes about fifteen minutes and needs no reservation.')],
  ['user', 'Mi prima Lucía canta en un coro los jueves.'],
  ['assistant', answer('baking bread', 'Feed the sourdough starter twice a day for a week before the first loaf.')],
  ['user', 'My son Arlo is learning to swim this summer.'],
  ['user', 'I cannot stand spicy food, mild curries are fine though.'],
];

describe('recall and its lexical anchor on long assistant answers (h-break15 finding 4)', () => {
  it('ranks the only answer holding the query words first', async () => {
    const m = await createMemory({ encoder });
    try {
      let t = Date.parse('2024-03-01T09:00:00Z');
      let fact = '';
      for (const [role, content] of TURNS) {
        const r = await m.add({ role, content, observedAt: new Date((t += 3_600_000)).toISOString() });
        if (content.includes('Kyoto')) fact = r.id;
      }
      for (let i = 0; i < 30; i++) {
        const role = i % 2 === 0 ? 'user' : 'assistant';
        const content = role === 'user' ? `Small talk number ${i} about the bus and the rain.` : answer(`errand ${i}`, `Note ${i}: stretch in the morning.`);
        await m.add({ role, content, observedAt: new Date((t += 3_600_000)).toISOString() });
      }
      for (const q of ['Kyoto Osaka bullet train', 'How long is the bullet train from Kyoto to Osaka?']) {
        const got = (await m.recall(q, { k: 10 })).memories;
        expect(got[0]?.id, q).toBe(fact);
      }
    } finally {
      await m.close();
    }
  });
});
