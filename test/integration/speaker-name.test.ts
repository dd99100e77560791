import { describe, expect, it } from 'vitest';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { matchText } from '../../src/read/signals.js';

describe('the speaker field is matched as a name (issue 23)', () => {
  it('matchText prefixes a named speaker the text lacks, never a role or a name already there', () => {
    expect(matchText({ text: 'I start my new job at Acme', provenance: { speaker: 'Maya' } })).toBe('Maya: I start my new job at Acme');
    expect(matchText({ text: 'Maya: I start my new job at Acme', provenance: { speaker: 'Maya' } })).toBe('Maya: I start my new job at Acme');
    expect(matchText({ text: 'I start my new job at Acme', provenance: { speaker: 'user' } })).toBe('I start my new job at Acme');
    expect(matchText({ text: 'Sure, here is a plan.', provenance: { speaker: 'Assistant' } })).toBe('Sure, here is a plan.');
    expect(matchText({ text: 'No speaker here', provenance: {} })).toBe('No speaker here');
  });

  it("ranks {speaker: 'Maya', text: 'I start my new job at Acme'} first for 'Where does Maya work?' and returns the text unchanged", async () => {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      const turns: Array<[string, string]> = [
        ['Leo', 'Work has been hectic, my manager keeps moving deadlines.'],
        ['Maya', 'I start my new job at Acme next Monday.'],
        ['Leo', 'Where is the office? Do you have to commute far for work?'],
        ['Maya', 'It is downtown, twenty minutes by bike.'],
        ['Leo', 'I work from home most days, which I love.'],
        ['Maya', 'Nice. I might try a remote day once a week.'],
        ['Leo', 'My sister works at a bakery on weekends.'],
        ['Maya', 'I still need to buy a new bike helmet.'],
      ];
      let t = Date.parse('2024-03-01T10:00:00Z');
      for (const [speaker, text] of turns) await memory.add({ text, speaker, observedAt: new Date((t += 60_000)).toISOString(), sessionId: 's1' });
      const r = await memory.recall('Where does Maya work?', { k: 5 });
      expect(r.memories[0]?.text).toBe('I start my new job at Acme next Monday.');
      expect(r.memories[0]?.provenance.speaker).toBe('Maya');
      expect(r.trace.guard).toBe(0); // short turns: the out-of-distribution guard stays off
    } finally {
      await memory.close();
    }
  });

  it('falls back towards the role-aware lexical order on long assistant answers with role speakers (issue 24 guard)', async () => {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      const filler = (topic: string): string =>
        Array.from({ length: 14 }, (_, i) => `Tip ${i + 1}: when you choose a ${topic}, think about the dog, the name you call out at the park and how the dog reacts to that name over the first weeks.`).join(' ');
      const turns: Array<['user' | 'assistant', string]> = [
        ['user', 'How do people pick a name for a dog?'],
        ['assistant', filler('dog name')],
        ['user', 'We adopted a beagle last weekend, our dog is called Biscuit.'],
        ['assistant', filler('puppy routine')],
        ['user', 'Any advice on leash training?'],
        ['assistant', filler('leash')],
      ];
      let t = Date.parse('2024-03-01T10:00:00Z');
      for (const [speaker, text] of turns) await memory.add({ text, speaker, observedAt: new Date((t += 60_000)).toISOString(), sessionId: 's1' });
      const r = await memory.recall('What did I name my dog?', { k: 3 });
      expect(r.trace.guard).toBe(1); // 3 of 6 anchors over 100 words: g = min(1, 2 × 1/2)
      // A user's question about the user's own turns: a user turn comes before the long answers that repeat its words.
      expect(r.memories[0]?.provenance.speaker).toBe('user');
    } finally {
      await memory.close();
    }
  });
});
