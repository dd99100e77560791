/**
 * A text said again at other times counts once near the top of a ranking (h-break11 finding 6,
 * read/repeats.ts): three copies of "Long shift at work today." filled the top of "Where do I
 * work?" and pushed the current job to 4th.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { demoteRepeats, REPEAT_FACTOR } from '../../src/read/repeats.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('read-repeats', (e) => (encoder = e));

const SHIFT = 'Long shift at work today.';
const FACTS = ["I'm 25 years old.", 'I smoke about ten cigarettes a day.', 'I work as a nurse at the LKH hospital.', 'Support ticket 5531 is about my broken router.', SHIFT, SHIFT, "I'm 26 now, had my birthday yesterday.", 'I quit smoking last week, day 7 now!', 'I now work at AKH Vienna as a nurse in the ICU.', 'Ticket 5531 was closed, router replaced.', SHIFT];

describe('repeated texts in the ranking', () => {
  it('demoteRepeats: every copy after the first of a normalised text × REPEAT_FACTOR, others unchanged', () => {
    expect(REPEAT_FACTOR).toBe(0.5);
    const out = demoteRepeats([
      { text: SHIFT, score: 0.8 },
      { text: 'I work at AKH.', score: 0.6 },
      { text: ` Long  shift at work today.\n`, score: 0.5 }, // the same after normalizeText
      { text: 'long shift at work today.', score: 0.4 }, // case kept: another text
      { text: SHIFT, score: 0 },
    ]);
    expect(out).toEqual([0.8, 0.6, 0.25, 0.4, 0]);
  });

  it('"Where do I work?" ranks the new job above the second copy of a repeated turn', async () => {
    const m = await createMemory({ encoder });
    try {
      let t = Date.parse('2024-02-01T09:00:00Z');
      for (const content of FACTS) {
        await m.add({ role: 'user', content, observedAt: new Date(t).toISOString() });
        t += 86_400_000;
      }
      const top = (await m.recall('Where do I work?', { k: 5 })).memories.map((x) => x.text);
      const job = top.indexOf('I now work at AKH Vienna as a nurse in the ICU.');
      expect(job).toBeGreaterThanOrEqual(0);
      // before: three copies of the shift above it (4th); now at most one copy above it
      expect(top.slice(0, job).filter((x) => x === SHIFT).length).toBeLessThanOrEqual(1);
      // every copy is still a memory of its own
      expect((await m.list({ limit: 50 })).memories.filter((x) => x.text === SHIFT)).toHaveLength(3);
    } finally {
      await m.close();
    }
  }, 60_000);
});
