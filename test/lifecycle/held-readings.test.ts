/**
 * The state-update side readings kept between write calls (h-writeperf, issue 22: single-add
 * CPU): a single `add` reads its candidates' sides with the readings the earlier adds left, and
 * an erasure (delete, forget) drops them whole, so no reading of an erased text outlives it.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { HELD_READINGS_MAX, RecentReadings } from '../../src/memory/write.js';
import { readStateSide, type StateReadings } from '../../src/system-one/state-update.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { lifecycleFixture } from './helpers.js';

/** The readings memo each state-update planning call was handed, in call order. */
const seen = vi.hoisted(() => ({ memos: [] as unknown[] }));
vi.mock('../../src/write/state-updates.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/write/state-updates.js')>();
  return {
    ...real,
    planStateUpdates: (...args: Parameters<typeof real.planStateUpdates>) => {
      seen.memos.push(args[7]);
      return real.planStateUpdates(...args);
    },
  };
});

let encoder: Encoder;
lifecycleFixture('held-readings', (e) => (encoder = e));

const SECRET = 'Quenbyrthia moved the Zorblatt xylophones to Vladivostok.';
const keysOf = (memo: unknown): string[] => [...(memo as StateReadings).keys()];

describe('side readings kept between write calls', () => {
  it('a later add reads with the readings an earlier add left; a delete or forget drops them all', async () => {
    const memory = await createMemory({ encoder, systemOne: createHeuristicSystemOne(), parameters: { maintenanceInterval: 0 } });
    try {
      await memory.add({ text: 'I live in Porto with my two cats.', speaker: 'Ana' });
      const { id } = await memory.add({ text: SECRET, speaker: 'Ana' });
      seen.memos.length = 0;
      await memory.add({ text: 'We moved to Vienna last spring.', speaker: 'Ana' });
      const kept = seen.memos.at(-1);
      expect(kept).toBeInstanceOf(RecentReadings);
      // The secret was read when it was a candidate of this add, or by the add that wrote it: it is held.
      expect(keysOf(kept).some((k) => k.includes('Zorblatt'))).toBe(true);
      seen.memos.length = 0;
      await memory.add({ text: 'Vienna is lovely in the autumn.', speaker: 'Ana' });
      expect(seen.memos.at(-1)).toBe(kept); // the same readings, not read again per call

      expect(await memory.delete(id)).toBe(true);
      seen.memos.length = 0;
      await memory.add({ text: 'I work at a bakery in Vienna now.', speaker: 'Ana' });
      const after = seen.memos.at(-1);
      expect(after).not.toBe(kept); // dropped whole by the erasure
      expect(keysOf(after).some((k) => k.includes('Zorblatt'))).toBe(false);

      await memory.add({ text: SECRET, speaker: 'Ana' }, { namespace: 'other' });
      await memory.forget('other');
      seen.memos.length = 0;
      await memory.add({ text: 'The bakery opens at six.', speaker: 'Ana' });
      expect(seen.memos.at(-1)).not.toBe(after);
      expect(keysOf(seen.memos.at(-1)).some((k) => k.includes('Zorblatt'))).toBe(false);
    } finally {
      await memory.close();
    }
  });

  it('trim keeps the newest readings, at most HELD_READINGS_MAX between calls', () => {
    const memo = new RecentReadings(10);
    for (const text of ['a one', 'b two', 'c three', 'd four']) readStateSide({ text, speaker: 'Ana', timeMs: 0 }, memo);
    memo.trim(2);
    expect([...memo.keys()]).toEqual(['Ana\u0000c three', 'Ana\u0000d four']);
    memo.trim(5);
    expect(memo.size).toBe(2);
    expect(HELD_READINGS_MAX).toBe(1024);
  });
});
