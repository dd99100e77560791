import { describe, expect, it } from 'vitest';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';

/**
 * A user/assistant history in the style of public long-memory chat benchmarks (issue 24,
 * multi-session questions): the user talks about themselves in nearly every turn ("I've been
 * meaning to ask you about this…"), and names each item of a later question once, in passing,
 * in a different session, without the question's word ("instruments"). By whole-turn cosine the
 * generic first-person turns are closer to "Which instruments am I learning?" than the items are
 * (they share the common component of every first-person sentence); lexically, only a friend's
 * question about instruments matches.
 */
const answer = (topic: string): string =>
  Array.from({ length: 8 }, (_, i) => `Step ${i + 1}: with ${topic}, start small, write down what worked, and review it at the end of each week so the habit sticks.`).join(' ');

const ITEMS = [
  'My violin teacher says my bowing is getting smoother. How often should I change the strings?',
  'The cello I rented is too big for our flat. Is a smaller size worth it?',
  'I bought a ukulele at the market on Saturday and my fingertips hurt already. Is that normal?',
];

const FILLER = [
  "I've been meaning to ask you about this for a while. My partner and I keep arguing about the budget and I want to settle it. How do I start?",
  "I'm a nurse, so I don't have much time in the evenings. I tried a few things already and none of them worked for me. How do I plan my week?",
  'My sister asked me about this and I realised I had no idea. I want to understand how a pension works before I choose one. Where do I begin?',
  'I read an article about this last night and now I am confused. I have been looking into the garden and I keep finding opposite advice. What is right?',
  "My manager brought this up in our one-to-one on Monday. I need to explain the deadline to my team tomorrow and I want to get it right. Any pointers?",
  "I work from home most days, so this comes up a lot for me. I wrote down a few questions about the new laptop so I would not forget them. Where do I start?",
  "We're in a small flat and money is tight this month. My friend swears by meal prep, but I'm not sure it's for me. Is it worth it?",
  "My friend asked me which instruments are good for kids and I had no idea what to tell her. What should I say?",
];

describe('a question asking for several things about the user finds each item said in passing (issue 24, taste.ts items)', () => {
  it("ranks the three turns naming an instrument within the top 5 for 'Which instruments am I learning?'", async () => {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      let t = Date.parse('2024-01-05T10:00:00Z');
      const sessions: string[] = [];
      for (let i = 0; i < FILLER.length; i++) {
        sessions.push(FILLER[i] as string);
        if (i % 3 === 1) sessions.push(ITEMS[(i - 1) / 3] as string);
      }
      for (const [s, text] of sessions.entries()) {
        t += 3 * 86_400_000;
        await memory.add({ text, speaker: 'user', observedAt: new Date(t).toISOString(), sessionId: `s${s}` });
        await memory.add({ text: answer(`session ${s}`), speaker: 'assistant', observedAt: new Date(t + 60_000).toISOString(), sessionId: `s${s}` });
      }
      const r = await memory.recall('Which instruments am I learning?', { k: 5, now: '2024-03-20T10:00:00Z' });
      expect(r.trace.guard).toBeGreaterThan(0);
      expect(r.trace.taste?.mode).toBe('items');
      const top = r.memories.map((m) => m.text);
      for (const item of ITEMS) expect(top).toContain(item);
    } finally {
      await memory.close();
    }
  });
});
