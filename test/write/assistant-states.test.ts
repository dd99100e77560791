/**
 * Issue 24 (chats bench, held-out single-session-assistant): a state is held by a person, and an
 * assistant's turn (advice, an answer) holds none. The automatic state-update decision — on the
 * write path, in maintenance's neighbourhood pass, and the configured System One's
 * `maint.obsolete` — neither supersedes an assistant's turn nor lets one supersede another
 * memory; the same texts by the user (or by a named speaker) are still linked.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { decideStateUpdate } from '../../src/system-one/state-update.js';
import { holdsNoState } from '../../src/write/state-updates.js';
import { forcing, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('assistant-states', (e) => (encoder = e));

const LISBON = 'I live in Lisbon, in a flat near the river.';
const PORTO = 'big news, I moved to Porto last month!';

// Shortened from the chats bench, held-out seed 104 (turns S37:2 and S41:8): the evidence of
// "which neighbourhood did you suggest staying in?" and the later checklist answer that
// superseded it (P = 0.855 from the logistic head) before this rule.
const DENVER = [
  'Good thinking to plan this ahead.',
  'Here is a simple way to structure it: start with the passport, then the visiting, and finish with the four. You might also keep a short note of what you tried with the itinerary, so you can compare next time.',
  '1. It helps to think of the itinerary the way you would think about cat: small, regular adjustments work better than one big overhaul.',
  '2. There is no single right answer here, because the best passport depends on your goals, your budget and how much time you have.',
  '3. Keep in mind that the visiting can change with the seasons, so revisit your plan every few months.',
  '4. Finally, remember that rest, good kettlebell and a bit of patience make every itinerary easier.',
  '5. Let me know if you would like a more detailed plan for the itinerary, or a comparison of options for the flight.',
  '6. If anything feels off with the hotel, it is worth checking with a professional rather than guessing.',
  '7. In short, pick one change to the days, give it two weeks, and see whether the stay improves.',
  '8. People often overlook the itinerary, yet it is the part that keeps the hotel sustainable.',
  '9. If you want a low-effort option, a basic itinerary with a reliable month covers most situations.',
  '10. Many people find that the hotel matters more than the month, at least at the start.',
  '11. It can also be useful to ask friends how they handle their next, because practical tips travel well.',
  '12. For a first visit to Denver, I would stay in Trastevere: it is walkable, lively in the evening and close to the main sights.',
  '13. The same principle shows up in spices and in concert: preparation saves effort later.',
  '14. Some readers like to track their visiting in a spreadsheet, much like they would track kettlebell.',
  '15. A good first step is to look at your denver before you change anything about the passport.',
].join('\n');
const CHECKLIST = [
  'Great question!',
  'If you want a low-effort option, a basic couch with a reliable headphones covers most situations. The same principle shows up in camera and in oven: preparation saves effort later.',
  '1. A good first step is to look at your passport before you change anything about the renewing.',
  '2. Some readers like to track their old in a spreadsheet, much like they would track sauce.',
  '3. Here is a simple way to structure it: start with the selling, then the selling, and finish with the long.',
  '4. People often overlook the long, yet it is the part that keeps the passport sustainable.',
  '5. Many people find that the phone matters more than the phone, at least at the start.',
  '6. Do not worry about getting the laptop perfect on day one; it is a skill you build over weeks.',
  '7. If you only have a little time, focus on the couch and leave the headphones for later.',
].join('\n');

const at = (day: number) => `2023-04-${String(day).padStart(2, '0')}T15:10:00Z`;
// The logistic head: it links the assistant's pairs below, so the tests that write them with it
// (stateUpdateHead 'logistic') see the rule. The MLP head (the default) does not link the
// assistant's move (P ≈ 1.6e-11) on its own.
const p = (newer: string, older: string, speaker: string) => decideStateUpdate({ text: newer, speaker, timeMs: 2 }, { text: older, speaker, timeMs: 1 }, undefined, 'logistic').probability;
const LOGISTIC = { maintenanceInterval: 0, stateUpdateHead: 'logistic' } as const;

describe('an assistant turn holds no state (issue 24)', () => {
  it('reads the assistant roles, trimmed and case-folded, and nothing else', () => {
    for (const speaker of ['assistant', ' Assistant ', 'AI', 'bot', 'model']) expect(holdsNoState({ provenance: { speaker } } as never)).toBe(true);
    for (const speaker of ['user', 'human', 'system', 'tool', 'Maya', 'Assistant Manager', undefined]) expect(holdsNoState({ provenance: speaker === undefined ? {} : { speaker } } as never)).toBe(false);
  });

  it('reads the role the caller carried (metadata.role) over the speaker name', () => {
    expect(holdsNoState({ provenance: { speaker: 'Aria', metadata: { role: 'assistant' } } } as never)).toBe(true);
    expect(holdsNoState({ provenance: { speaker: 'Coach', metadata: { role: ' Model ' } } } as never)).toBe(true);
    expect(holdsNoState({ provenance: { speaker: 'Bot', metadata: { role: 'user' } } } as never)).toBe(false);
    expect(holdsNoState({ provenance: { speaker: 'Aria', metadata: { topic: 'x' } } } as never)).toBe(false);
  });

  it('the head links the pairs below (so what the tests see is the rule, not the head)', () => {
    expect(p(PORTO, LISBON, 'assistant')).toBeGreaterThanOrEqual(0.85);
    expect(p(PORTO, LISBON, 'user')).toBeGreaterThanOrEqual(0.85);
    expect(p(CHECKLIST, DENVER, 'assistant')).toBeGreaterThanOrEqual(0.85); // the false update of the bench
  });

  it('a later assistant answer does not supersede the Denver recommendation (write path)', async () => {
    const memory = await createMemory({ encoder, parameters: LOGISTIC });
    const { id: denver } = await memory.add({ text: DENVER, speaker: 'assistant', observedAt: at(11) });
    await memory.add({ text: 'Can you make that into a short checklist?', speaker: 'user', observedAt: at(18) });
    const { id: later } = await memory.add({ text: CHECKLIST, speaker: 'assistant', observedAt: at(18) });
    expect(await memory.get(denver)).toMatchObject({ status: 'active', supersededBy: [] });
    expect((await memory.edges(denver)).filter((e) => e.subtype === 'updates')).toEqual([]);
    // Nor does a maintenance pass over the same neighbourhood.
    expect((await memory.maintain()).obsolete).toBe(0);
    expect((await memory.get(denver))?.status).toBe('active');
    expect((await memory.get(later))?.status).toBe('active');
    await memory.close();
  });

  it('the same move by the assistant is not a state; by the user it supersedes the old home', async () => {
    for (const [speaker, expected] of [['assistant', 'active'], ['user', 'superseded'], ['Maya', 'superseded']] as const) {
      const memory = await createMemory({ encoder, parameters: LOGISTIC });
      const { id: old } = await memory.add({ text: LISBON, speaker, observedAt: at(1) });
      const { id: now } = await memory.add({ text: PORTO, speaker, observedAt: at(20) });
      expect((await memory.get(old))?.status, speaker).toBe(expected);
      if (expected === 'superseded') expect((await memory.get(old))?.supersededBy).toEqual([now]);
      await memory.maintain();
      expect((await memory.get(old))?.status, `${speaker} after maintain()`).toBe(expected);
      await memory.close();
    }
  });

  it('an assistant with a name of its own (role carried by the observation or the chat message) holds no state; a user named "bot" does', async () => {
    const inputs = [
      [(text: string, day: number) => ({ text, speaker: 'Aria', role: 'assistant', observedAt: at(day) }), 'active', 'assistant'],
      [(text: string, day: number) => ({ role: 'assistant', name: 'Aria', content: text, observedAt: at(day) }), 'active', 'assistant'],
      [(text: string, day: number) => ({ text, speaker: 'Bot', role: 'user', observedAt: at(day) }), 'superseded', 'user'],
    ] as const;
    for (const [make, expected, role] of inputs) {
      const memory = await createMemory({ encoder, parameters: LOGISTIC });
      const { id: old } = await memory.add(make(LISBON, 1));
      await memory.add(make(PORTO, 20));
      const node = await memory.get(old);
      expect(node?.provenance.metadata?.['role']).toBe(role);
      expect(node?.status, JSON.stringify(make('x', 1))).toBe(expected);
      await memory.maintain();
      expect((await memory.get(old))?.status, `${JSON.stringify(make('x', 1))} after maintain()`).toBe(expected);
      // The role stays with the speaker across an update that names no speaker.
      const up = await memory.update(old, { text: 'I live in Faro now.' });
      expect((await memory.get(up.id))?.provenance.metadata?.['role']).toBe(role);
      await memory.close();
    }
  });

  it("maintenance's configured System One cannot mark an assistant's turn obsolete, nor let one replace a user's", async () => {
    const obsoleteAll = () =>
      forcing((key) => {
        if (key.startsWith('maint.obsolete#')) return 0.99;
        if (key.startsWith('maint.')) return 0.01;
        return undefined;
      });
    const BAKERY = 'The bakery on our street sells rye bread.';
    const SOURDOUGH = 'The bakery on our street sells only sourdough now.';
    const cases = [
      ['assistant', 'assistant', 'active'],
      ['user', 'assistant', 'active'],
      ['assistant', 'user', 'active'],
      ['user', 'user', 'superseded'],
    ] as const;
    for (const [olderBy, newerBy, expected] of cases) {
      const memory = await createMemory({ encoder, systemOne: obsoleteAll(), parameters: { maintenanceInterval: 0 } });
      const { id: old } = await memory.add({ text: BAKERY, speaker: olderBy, observedAt: at(1) });
      await memory.add({ text: SOURDOUGH, speaker: newerBy, observedAt: at(20) });
      await memory.maintain();
      expect((await memory.get(old))?.status, `${olderBy} → ${newerBy}`).toBe(expected);
      await memory.close();
    }
  });
});
