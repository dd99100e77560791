/**
 * The `systemOne` option: `createMemory` takes only a backend (a name used to be accepted without
 * a word and every decision fell over to the stand-in, uncalibrated); `createNodeMemory` takes a
 * backend or a name, and a named backend's relevance is calibrated like any other (memory/relevance.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { RELEVANCE_CALIBRATION } from '../../src/memory/relevance.js';
import { HEURISTIC_MODEL_ID } from '../../src/system-one/heuristic.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('api-system-one-option', (e) => (encoder = e));

describe('the systemOne option', () => {
  it('createMemory refuses a name or a non-backend with INVALID_OPTION naming systemOne', async () => {
    for (const bad of ['heuristic', 42, {}, { decideMany: () => undefined }]) {
      await expect(createMemory({ encoder, systemOne: bad as never })).rejects.toMatchObject({ code: 'INVALID_OPTION', details: { field: 'systemOne' } });
    }
  });

  it("createNodeMemory takes 'heuristic' by name, and its relevance is calibrated (at most σ(α·logit(0.995)+β))", async () => {
    const memory = await createNodeMemory({ encoder, systemOne: 'heuristic' });
    try {
      await memory.add({ text: 'I adopted a dog called Biscuit.', speaker: 'Ana' });
      await memory.add({ text: 'The weather was sunny in Lisbon.', speaker: 'Ana' });
      const { memories } = await memory.recall('What is my dog called?');
      const c = RELEVANCE_CALIBRATION[HEURISTIC_MODEL_ID]!;
      // a_v is clamped to 0.995: the calibrated ceiling of the stand-in is σ(α·ln(0.995/0.005) + β).
      const ceiling = 1 / (1 + Math.exp(-(c.alpha * Math.log(0.995 / 0.005) + c.beta)));
      expect(ceiling).toBeCloseTo(0.4873, 3);
      expect(memories.length).toBe(2);
      for (const m of memories) expect(m.relevance).toBeLessThanOrEqual(ceiling + 1e-12);
      expect(memories[0]?.text).toBe('I adopted a dog called Biscuit.');
    } finally {
      await memory.close();
    }
  });

  it('createNodeMemory refuses an unknown name', async () => {
    await expect(createNodeMemory({ encoder, systemOne: 'gpt' as never })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });
});
