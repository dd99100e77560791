/**
 * A replacement whose words name no slot of state still answers a question about the only slot
 * the replaced memory holds (h-break15 finding 3, read/supersession.ts `holdsOnlyQuestionSlot`):
 * "Biscuit passed away on Tuesday" replacing "I have a hamster called Biscuit" is the current
 * state for "Do I still have a hamster?", so it ranks first and the replaced memory right after
 * it. A message holding two slots keeps the h-break11 rule: a slotless replacement does not
 * answer for the slot it does not name.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { answersQuestion, holdsOnlyQuestionSlot, questionLinks, questionSlots } from '../../src/read/recalled.js';
import type { MemoryNode } from '../../src/types.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('supersession-sole-slot', (e) => (encoder = e));

const node = (id: string, text: string, supersededBy: string[] = []): MemoryNode =>
  ({ id, text, supersededBy, status: supersededBy.length > 0 ? 'superseded' : 'active', provenance: { speaker: 'user' } }) as unknown as MemoryNode;

const PAIRS: Array<{ old: string; now: string; q: string }> = [
  { old: 'I have a hamster called Biscuit.', now: 'Biscuit passed away on Tuesday.', q: 'Do I still have a hamster?' },
  { old: 'I am engaged to Priya.', now: 'Priya and I called it off.', q: 'Who am I engaged to?' },
  { old: "I'm employed as a barista at Bean There café.", now: 'Handed in my notice at Bean There yesterday.', q: 'Where am I employed?' },
];
const FILLER = ['Made a big pot of lentil soup tonight.', 'The tram was late again this morning.', 'Finished a jigsaw of a lighthouse with 1000 pieces.', 'My neighbour plays the trumpet at odd hours.', 'Picked up a second-hand bike for the summer.'];

describe('a slotless replacement of a one-slot memory (h-break15 finding 3)', () => {
  it('holdsOnlyQuestionSlot / answersQuestion / questionLinks read the hand-made pairs', () => {
    for (const { old, now, q } of PAIRS) {
      const slots = questionSlots(q);
      expect(slots.size).toBe(1);
      expect(holdsOnlyQuestionSlot({ text: old }, slots)).toBe(true);
      expect(answersQuestion({ text: now }, slots, { text: old })).toBe(true);
      const a = node('a', old, ['b']);
      const b = node('b', now);
      const links = questionLinks(q);
      expect(links.caps(a, b)).toBe(true);
      expect(links.lifts(a, b)).toBe(true);
    }
    // two slots in the replaced message: the slotless breakup does not answer for the pet
    const two = { text: 'My dog is called Pepper and my boyfriend is Luis.' };
    expect(holdsOnlyQuestionSlot(two, questionSlots('Where is my dog?'))).toBe(false);
    expect(answersQuestion({ text: 'Luis and I split up.' }, questionSlots('Where is my dog?'), two)).toBe(false);
    // the one slot is not the question's
    expect(holdsOnlyQuestionSlot({ text: PAIRS[0]!.old }, questionSlots('What is my job?'))).toBe(false);
  });

  it('recall ranks the update first and the replaced memory right after it', async () => {
    const m = await createMemory({ encoder });
    try {
      const day = 86_400_000;
      let t = Date.parse('2024-02-05T08:00:00Z');
      const ids: Array<{ old: string; now: string; q: string }> = [];
      for (const { old, now, q } of PAIRS) {
        const a = await m.add({ role: 'user', content: old, observedAt: new Date((t += day)).toISOString() });
        for (const f of FILLER) await m.add({ role: 'user', content: f, observedAt: new Date((t += 3_600_000)).toISOString() });
        const b = await m.update(a.id, { role: 'user', content: now, observedAt: new Date((t += 20 * day)).toISOString() });
        ids.push({ old: a.id, now: b.id, q });
      }
      for (const { old, now, q } of ids) {
        expect((await m.get(old))?.supersededBy).toContain(now);
        const got = (await m.recall(q, { k: 10 })).memories;
        expect(got.map((x) => x.id).slice(0, 2), q).toEqual([now, old]);
        expect(got[1]?.status).toBe('superseded');
      }
    } finally {
      await m.close();
    }
  });
});
