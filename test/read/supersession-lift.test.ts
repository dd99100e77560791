/**
 * A replaced memory the question matches best gives its place to its replacement instead of
 * dragging both out of the top (h-break10 finding 3, read/supersession.ts): "Where do I live?"
 * after "…I live in Lisbon with my partner Tomás" was replaced by a move to Dublin ranks the move
 * first and the old message right after it; "Who is my partner?" keeps the old message on top,
 * since nothing replaced the partner fact.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { answersQuestion, liftReplacements, questionSlots, SUPERSEDED_FACTOR } from '../../src/read/recalled.js';
import type { MemoryNode } from '../../src/types.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('supersession-lift', (e) => (encoder = e));

const node = (id: string, text: string, supersededBy: string[] = []): MemoryNode =>
  ({ id, text, supersededBy, status: supersededBy.length > 0 ? 'superseded' : 'active', provenance: { speaker: 'user' } }) as unknown as MemoryNode;

const INTRO = "Hi! Quick background: I'm a backend developer at a fintech startup called Ledgerly, mostly Go and Postgres, and I live in Lisbon with my partner Tomás.";
const MOVE = "Big news: I accepted an offer from Stripe! I'll be joining their Dublin office as a staff engineer in May, so we're moving to Ireland.";
const CHAT: Array<[string, string]> = [
  ['user', "Honestly I've been really into bouldering lately, way more than running. We go to a gym near work twice a week."],
  ['assistant', 'Bouldering is a great full-body workout. Warm up your fingers before hard problems.'],
  ['user', 'Can you help me write a short message to my landlord? The boiler broke again, third time this winter.'],
  ['assistant', 'Sure. Here is a firm but polite draft asking for a repair date this week.'],
  ['user', "My mom's birthday is on March 3rd, remind me to call her."],
  ['assistant', "Noted: your mom's birthday is March 3rd."],
  ['user', 'What is a good recipe for a quick weeknight pasta?'],
  ['assistant', 'Try garlic, chilli and lemon spaghetti: ready in fifteen minutes.'],
  ['user', 'I started practising the cello again after ten years.'],
  ['assistant', 'Welcome back to the cello! Short daily sessions help the most.'],
];

describe('a replaced memory and its replacement in recall', () => {
  it('questionSlots / answersQuestion: a move answers "Where do I live?", not "Who is my partner?"', () => {
    expect([...questionSlots('Where do I live?')]).toEqual(['home']);
    expect([...questionSlots('Who is my partner?')]).toEqual(['partner']);
    expect(answersQuestion({ text: MOVE }, questionSlots('Where do I live?'))).toBe(true);
    expect(answersQuestion({ text: MOVE }, questionSlots('Who is my partner?'))).toBe(false);
    // no slot named by the question, or none by the replacement: it counts
    expect(answersQuestion({ text: MOVE }, questionSlots('What is new?'))).toBe(true);
    expect(answersQuestion({ text: 'Now it is Dublin.' }, questionSlots('Who is my partner?'))).toBe(true);
  });

  it('a replacement naming no slot does not answer for a replaced message that names the question\'s slot (h-break11 finding 2)', () => {
    const dog = { text: 'My boyfriend Tiago and I have a dog named Lua.' };
    const breakup = { text: 'Tiago and I broke up.' };
    expect([...questionSlots('Where is my dog?')]).toEqual(['pet']);
    // "broke up" is no slot word ("breakup" is): the breakup says nothing of the dog
    expect(answersQuestion(breakup, questionSlots('Where is my dog?'), dog)).toBe(false);
    // a replaced memory naming none of the question's slots: counts as answered, as before
    expect(answersQuestion(breakup, questionSlots('Where do I live?'), dog)).toBe(true);
    // a replacement naming the slot still answers
    expect(answersQuestion({ text: 'We gave our dog Lua to my parents.' }, questionSlots('Where is my dog?'), dog)).toBe(true);
  });

  it('liftReplacements: the replacements along the chain reach the undemoted score of the replaced memory', () => {
    const a = node('a', 'I live in Porto.', ['b']);
    const b = node('b', 'We moved to Berlin.', ['c']);
    const c = node('c', 'We moved to Oslo.');
    const other = node('o', 'I have a cat.');
    const items = [{ node: a, score: 0.4 }, { node: b, score: 0.05 }, { node: c, score: 0.02 }, { node: other, score: 0.3 }];
    const all = new Map(items.map((x) => [x.node.id, x.node]));
    // a demoted: 0.4 = 0.5 × SUPERSEDED_FACTOR; b and c rise to 0.5, the unrelated memory keeps 0.3
    const out = liftReplacements(items, (id) => all.get(id), (n) => n.id === 'a', () => true);
    expect(out[0]).toBe(0.4);
    expect(out[1]).toBeCloseTo(0.4 / SUPERSEDED_FACTOR, 12);
    expect(out[2]).toBeCloseTo(0.5, 12);
    expect(out[3]).toBe(0.3);
    // a link the question refuses lifts nothing; a memory not demoted lifts nothing
    expect(liftReplacements(items, (id) => all.get(id), (n) => n.id === 'a', () => false)).toEqual([0.4, 0.05, 0.02, 0.3]);
    expect(liftReplacements(items, (id) => all.get(id), () => false, () => true)).toEqual([0.4, 0.05, 0.02, 0.3]);
  });

  it('"Where do I live?" ranks the move first and the replaced message next; "Who is my partner?" keeps the message on top', async () => {
    const m = await createMemory({ encoder });
    try {
      const t0 = Date.parse('2024-01-08T09:00:00Z');
      const intro = await m.add({ role: 'user', content: INTRO, observedAt: new Date(t0).toISOString() });
      for (const [i, [role, content]] of CHAT.entries()) await m.add({ role: role as 'user' | 'assistant', content, observedAt: new Date(t0 + (i + 1) * 86_400_000).toISOString() });
      const move = await m.update(intro.id, { text: MOVE, observedAt: new Date(t0 + 40 * 86_400_000).toISOString() });
      const now = new Date(t0 + 60 * 86_400_000).toISOString();
      const live = (await m.recall('Where do I live?', { k: 10, now })).memories;
      expect(live.map((x) => x.id).slice(0, 2)).toEqual([move.id, intro.id]);
      expect(live[1]?.status).toBe('superseded');
      const partner = (await m.recall('Who is my partner?', { k: 10, now })).memories;
      expect(partner[0]?.id).toBe(intro.id);
      // not capped under the move, which does not name a partner
      const moveAt = partner.findIndex((x) => x.id === move.id);
      expect(moveAt === -1 || moveAt > 0).toBe(true);
    } finally {
      await m.close();
    }
  });
});
