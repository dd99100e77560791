/**
 * Later values of a state read at recall time (src/read/successors.ts, issue 24, h-ku): a
 * question about the present that names a slot of state ("Which company am I working for?")
 * finds the statement that changed the slot in other words, which the write path did not link
 * and which holds no word of the question, and ranks it just above the old statement. Fails on
 * 1d8e4fd (no such module; the job change was not among the top 5 there).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { createMemory } from '../../src/memory.js';
import type { Memory } from '../../src/memory/api.js';
import { slotWordsOf, successorLift, SUCCESSOR_TOP } from '../../src/read/successors.js';
import { PRESENT_BOOST } from '../../src/read/when.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import type { Observation } from '../../src/types.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

describe('slotWordsOf', () => {
  it('lists the words that name a slot, and only those', () => {
    const home = slotWordsOf(new Set(['home']));
    expect(home).toEqual(expect.arrayContaining(['live', 'moved', 'relocated', 'rent', 'flat']));
    expect(home).not.toContain('job');
    expect(slotWordsOf(new Set(['thing:gym']))).toEqual(['gym']);
    expect(slotWordsOf(new Set())).toEqual([]);
  });
});

describe('successorLift', () => {
  it('raises a successor to just above its seed, the seed keeping its score', () => {
    const items = [
      { id: 'old', score: 0.6 },
      { id: 'trap', score: 0.9 },
      { id: 'new', score: 0.1 },
    ];
    // 0.6 × (1 + 0.01) = 0.606: above old (0.6), below trap (0.9)
    const out = successorLift(items, [{ older: 'old', newer: 'new', p: 0.97 }]);
    expect(out[0]).toBe(0.6);
    expect(out[1]).toBe(0.9);
    expect(out[2]).toBeCloseTo(0.6 * (1 + PRESENT_BOOST), 12);
    expect(out[2]).toBeCloseTo(0.606, 12);
  });

  it('never lowers a successor already above its seed, and ignores pairs not recalled', () => {
    const items = [
      { id: 'old', score: 0.5 },
      { id: 'new', score: 0.8 },
    ];
    expect(successorLift(items, [{ older: 'old', newer: 'new', p: 0.9 }])).toEqual([0.5, 0.8]);
    expect(successorLift(items, [{ older: 'gone', newer: 'new', p: 0.9 }])).toEqual([0.5, 0.8]);
  });

  it(`lifts only for a seed among the ${SUCCESSOR_TOP} best`, () => {
    // eleven items above the seed: it is 12th, so its successor stays where it was
    const items = [...Array.from({ length: 11 }, (_, i) => ({ id: `x${i}`, score: 1 - i / 100 })), { id: 'old', score: 0.5 }, { id: 'new', score: 0.2 }];
    expect(successorLift(items, [{ older: 'old', newer: 'new', p: 0.9 }]).at(-1)).toBe(0.2);
  });
});

/** A user/assistant history: the user's job changes in words that share none with the question. */
function history(): Observation[] {
  const turns: Array<[string, string, string, string]> = [
    ['job1', '2024-01-10T19:00:00Z', 'I work as a bookkeeper at Harlow & Pike, mostly payroll and invoices.', 'Payroll work rewards routine: reconcile weekly, keep a checklist for month end, and automate reminders for invoices. Spreadsheets with locked formulas prevent slips.'],
    ['trap1', '2024-01-24T19:00:00Z', 'How do I stop checking work email at the weekend?', 'Set an out-of-hours reply, remove the work account from your phone at weekends, and agree with your team what counts as urgent. A short Friday review helps you let go.'],
    ['bake1', '2024-02-07T19:00:00Z', 'I baked rye bread for the first time and it was dense.', 'Rye is naturally dense; use a sourdough starter, a wetter dough and a longer proof, and let it rest a day before slicing.'],
    ['trap2', '2024-02-21T19:00:00Z', 'Can you suggest a company for a team outing near the river?', 'Kayak hire, a guided walk or an escape room all work for teams. Book a weekday slot for lower prices and check access needs in advance.'],
    ['hike1', '2024-03-06T19:00:00Z', 'We hiked the coastal path on Sunday, windy but beautiful.', 'Coastal paths are best with a windproof layer and sturdy boots; check the tide times where the path drops to the beach.'],
    ['job2', '2024-03-20T19:00:00Z', 'I signed the contract! From April I am a financial analyst at Norcastle Energy.', 'Congratulations on the new role! In your first weeks, learn the reporting calendar, meet the people who own the numbers, and keep notes on the models you inherit.'],
    ['garden1', '2024-04-03T19:00:00Z', 'I planted sweet peas along the fence this weekend.', 'Sweet peas like a sunny fence and a cane to climb. Pinch the tips when they reach a hand high and pick the flowers often to keep them coming.'],
    ['swim1', '2024-04-17T19:00:00Z', 'I swam forty lengths at the lido this morning.', 'Forty lengths is a good session. Mix in a few drills for technique, and warm up gently when the water is cold.'],
  ];
  return turns.flatMap(([id, at, user, assistant]) => [
    { text: user, speaker: 'user', observedAt: at, sessionId: at.slice(0, 10), turnId: id },
    { text: assistant, speaker: 'assistant', observedAt: new Date(Date.parse(at) + 60_000).toISOString(), sessionId: at.slice(0, 10), turnId: `${id}-a` },
  ]);
}

let encoder: Encoder;
lifecycleFixture('successors', (e) => (encoder = e));

describe('recall of a later value of the question’s slot (issue 24, h-ku)', () => {
  let m: Memory;
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const systemOne = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
    close = async () => systemOne.close?.();
    // The write path links a change only within a bounded neighbourhood; in a long history the
    // job change is often outside it. Here the history is short, so the write path is told not to
    // link (threshold 0.99) to stand for that: both statements stay active.
    m = await createMemory({ encoder, systemOne, now: () => new Date('2024-05-01T12:00:00Z'), parameters: { maintenanceThreshold: 0.99 } });
    await m.addMany(history());
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await close?.();
  });

  it('"Which company am I working for?": the new employer first, the old one right after it', async () => {
    const r = await m.recall('Which company am I working for?', { k: 10, now: '2024-05-01T12:00:00Z' });
    const ids = r.memories.map((x) => x.provenance.turnId);
    expect(r.memories.filter((x) => x.provenance.turnId === 'job1' || x.provenance.turnId === 'job2').map((x) => x.status)).toEqual(['active', 'active']);
    const n = ids.indexOf('job2');
    const o = ids.indexOf('job1');
    expect(n, ids.join(' ')).toBeGreaterThanOrEqual(0);
    expect(o, ids.join(' ')).toBe(n + 1);
    expect(n, ids.join(' ')).toBeLessThan(3);
    expect(r.trace.successors?.slots).toEqual(['job']);
    const idOf = (t: string): string | undefined => r.memories.find((x) => x.provenance.turnId === t)?.id;
    expect(r.trace.successors?.pairs.filter((p) => p.older === idOf('job1') && p.newer === idOf('job2') && p.p >= 0.5)).toHaveLength(1);
  });

  it('asked before the change (options.now), the old employer and no later value', async () => {
    const r = await m.recall('Which company am I working for?', { k: 10, now: '2024-03-01T12:00:00Z' });
    expect(r.trace.successors?.pairs).toEqual([]);
  });

  it('a question about the past does not run the step', async () => {
    const r = await m.recall('Which company did I work for in January?', { k: 10, now: '2024-05-01T12:00:00Z' });
    expect(r.trace.successors).toBeUndefined();
  });
});
