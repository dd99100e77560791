/**
 * Questions that name a time and questions about the present, in recall over a hand-written
 * user/assistant history (issue 24; test/fixtures/when-history.ts): each evidence turn reaches
 * the rank the fixture gives, with the shipped encoder and System One. On the code before
 * src/read/when.ts, "What did I do in February?", "What did I do last weekend?", "Where do I work
 * now?" and "Which gym do I go to these days?" missed theirs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { createMemory } from '../../src/memory.js';
import type { Memory } from '../../src/memory/api.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { WHEN_HISTORY, WHEN_QUESTIONS } from '../fixtures/when-history.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('when-recall', (e) => (encoder = e));

describe('recall of time-named and present-state questions over a user/assistant history', () => {
  let m: Memory;
  let clock = Date.parse('2024-06-16T12:00:00Z');
  let close: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const systemOne = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
    close = async () => systemOne.close?.();
    m = await createMemory({ encoder, systemOne, now: () => new Date(clock) });
    await m.addMany(WHEN_HISTORY);
  }, 60_000);
  afterAll(async () => {
    await m?.close();
    await close?.();
  });

  for (const q of WHEN_QUESTIONS) {
    it(`"${q.question}" (now ${q.now.slice(0, 10)}): ${q.gold.join(', ')} within the top ${q.within}${q.above !== undefined ? `, above ${q.above}` : ''}`, async () => {
      clock = Date.parse(q.now);
      const r = await m.recall(q.question, { k: 20 });
      const ids = r.memories.map((x) => x.provenance.turnId);
      const ranks = q.gold.map((g) => ids.indexOf(g) + 1);
      for (const [i, g] of q.gold.entries()) expect(ranks[i], `${g} in ${ids.slice(0, 8).join(' ')}`).toBeGreaterThan(0);
      for (const [i, g] of q.gold.entries()) expect(ranks[i], `${g} in ${ids.slice(0, 8).join(' ')}`).toBeLessThanOrEqual(q.within);
      if (q.above !== undefined) for (const [i, g] of q.gold.entries()) expect(ranks[i], `${g} above ${q.above} in ${ids.slice(0, 8).join(' ')}`).toBeLessThan(ids.indexOf(q.above) + 1 || Infinity);
    });
  }

  it('options.now dates the question: "last weekend" is read against it, not the memory clock (issue 24, round eight)', async () => {
    clock = Date.parse('2024-06-16T12:00:00Z'); // the memory's clock is in June
    const r = await m.recall('What did I do last weekend?', { k: 20, now: '2024-04-15T09:00:00Z' });
    expect(r.trace.when?.window).toEqual({ text: 'last weekend', start: '2024-04-13T00:00:00.000Z', end: '2024-04-14T23:59:59.999Z' });
    expect(r.memories.map((x) => x.provenance.turnId).indexOf('garden1') + 1).toBeGreaterThan(0);
    expect(r.memories.map((x) => x.provenance.turnId).indexOf('garden1') + 1).toBeLessThanOrEqual(2);
    expect((await m.recall('What did I do last weekend?', { now: new Date('2024-04-15T09:00:00Z') })).trace.when?.window?.start).toBe('2024-04-13T00:00:00.000Z');
    expect((await m.recall('What did I do last weekend?', { now: Date.parse('2024-04-15T09:00:00Z') })).trace.when?.window?.start).toBe('2024-04-13T00:00:00.000Z');
    // without it, the memory clock: the weekend of 8-9 June
    expect((await m.recall('What did I do last weekend?')).trace.when?.window?.start).toBe('2024-06-08T00:00:00.000Z');
    await expect(m.recall('What did I do last weekend?', { now: 'last Tuesday' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'options.now' });
  });

  // A known miss (issue 24, round eight; docs/bench/CHATS.md): the move ("I moved out of
  // Harbourside into a small house in Eastfield") shares no word with the question, System One's
  // relevance is flat on this history, and the encoder ranks it 17th by cosine; no newer turn
  // on the subject of a top memory is there to lift. `it.fails` turns red once recall finds it.
  it.fails('known miss: "Where am I living at the moment?" finds the move to Eastfield within the top 3', async () => {
    clock = Date.parse('2024-06-16T12:00:00Z');
    const ids = (await m.recall('Where am I living at the moment?', { k: 20 })).memories.map((x) => x.provenance.turnId);
    expect(ids.indexOf('flat2') + 1).toBeGreaterThan(0);
    expect(ids.indexOf('flat2') + 1).toBeLessThanOrEqual(3);
  });

  it('the trace names the window read against the memory clock, and the present', async () => {
    clock = Date.parse('2024-04-15T09:00:00Z'); // a Monday
    const w = (await m.recall('What did I do last weekend?')).trace.when;
    expect(w?.window).toEqual({ text: 'last weekend', start: '2024-04-13T00:00:00.000Z', end: '2024-04-14T23:59:59.999Z' });
    expect(w?.present).toBe(false);
    const p = (await m.recall('Where do I work now?')).trace.when;
    expect(p?.window).toBeUndefined();
    expect(p?.present).toBe(true);
  });
});
