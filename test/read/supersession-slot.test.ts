/**
 * A memory replaced by one about another slot is not buried (h-falsesup, h-break9): recall ranks
 * a replaced memory below its replacement only when the replacement is about the same slot of
 * state (read/recalled.ts `replacesSlot`); else its score is × SUPERSEDED_FACTOR only.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { replacesSlot, supersessionCaps } from '../../src/read/recalled.js';
import type { MemoryNode } from '../../src/types.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('supersession-slot', (e) => (encoder = e));

const node = (id: string, text: string, supersededBy: string[] = []): MemoryNode =>
  ({ id, text, supersededBy, status: supersededBy.length > 0 ? 'superseded' : 'active', provenance: { speaker: 'Ana' } }) as unknown as MemoryNode;

describe('supersession and slots in recall', () => {
  it('replacesSlot: a move replaces a home, a cabin does not replace two cats', () => {
    expect(replacesSlot(node('a', 'I live in Porto.'), node('b', 'We moved to Berlin.'))).toBe(true);
    expect(replacesSlot(node('a', 'I have two cats, Mika and Tuva.'), node('b', 'we bought a cabin near Lillehammer'))).toBe(false);
  });

  it('supersessionCaps: a link `links` refuses does not cap (score and depth kept)', () => {
    const cats = node('a', 'I have two cats, Mika and Tuva.', ['b']);
    const cabin = node('b', 'we bought a cabin near Lillehammer');
    const items = [{ node: cats, score: 0.6 }, { node: cabin, score: 0.05 }];
    expect(supersessionCaps(items, () => undefined, () => true, replacesSlot)).toEqual([{ score: 0.6, depth: 0 }, { score: 0.05, depth: 0 }]);
    expect(supersessionCaps(items, () => undefined)[0]?.score).toBeCloseTo(0.05 - 1e-6, 12);
  });

  it('the query "cats" finds "I have two cats" after an update to another slot replaced it; a home stays below its move', async () => {
    const m = await createMemory({ encoder });
    try {
      for (let i = 0; i < 30; i++) await m.add({ text: `Ana: ${['the weather was grey again today', 'I watched a documentary about whales', 'lunch was a sandwich at my desk', 'the train was late this morning'][i % 4]} (${i})`, speaker: 'Ana' });
      const cats = await m.add({ text: 'Ana: I have two cats, Mika and Tuva', speaker: 'Ana' });
      const cabin = await m.update(cats.id, { text: 'Ana: we bought a cabin near Lillehammer' });
      const got = (await m.recall('cats', { k: 5 })).memories;
      const at = got.findIndex((x) => x.id === cats.id);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(got[at]?.status).toBe('superseded');
      expect(got.findIndex((x) => x.id === cabin.id) === -1 || got.findIndex((x) => x.id === cabin.id) > at).toBe(true);
      const home = await m.add({ text: 'Ana: I live in Porto', speaker: 'Ana' });
      const moved = await m.update(home.id, { text: 'Ana: I moved to Oslo' });
      const ids = (await m.recall('Where do I live?')).memories.map((x) => x.id);
      expect(ids.indexOf(moved.id)).toBeGreaterThanOrEqual(0);
      expect(ids.indexOf(home.id) === -1 || ids.indexOf(home.id) > ids.indexOf(moved.id)).toBe(true);
    } finally {
      await m.close();
    }
  });
});
