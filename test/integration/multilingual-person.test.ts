/**
 * Issue 24 ("every inflection", h-person2): the second person set (test/fixtures/multilingual-person)
 * through the whole memory (default Node encoder, trained local System One, the namespace given
 * its language), per split: third-person questions about first-person turns and the reverse.
 * `dev` was tuned on; `heldout` and `heldout2` (written from the grammars before the rules that
 * lifted it) are only measured. Thresholds: recall@1 ≥ 90 % per language on dev and held-out;
 * on held-out 2, ≥ 8 of 9 per language and ≥ 95 % over all languages (base 62d7345: Korean 5 of
 * 9, Russian and Turkish 7 of 9, 87.0 % over all).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPersonSets, runMultilingualSet, type PersonSplit } from '../../bench/multilingual/multilingual.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';

let encoder: Encoder;
let systemOne: SystemOneBackend;

beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
  systemOne = await createSystemOneFromName('local', { env: {} });
});

afterAll(async () => {
  await encoder.close?.();
  await systemOne.close();
});

describe('second person set (test/fixtures/multilingual-person)', () => {
  for (const split of ['dev', 'heldout'] as PersonSplit[]) {
    it(`${split}: person questions recall@1 ≥ 90 % in every language`, async () => {
      for (const set of loadPersonSets(split)) {
        const r = await runMultilingualSet(set, encoder, systemOne);
        expect(r.person?.recall1 ?? 0, `${set.language} ${JSON.stringify(r.person?.misses1)}`).toBeGreaterThanOrEqual(0.9);
      }
    }, 120_000);
  }

  it('heldout2: 12 languages, ≥ 8 pairs each; recall@1 ≥ 8/9 per language and ≥ 95 % over all', async () => {
    const sets = loadPersonSets('heldout2');
    expect(sets.map((s) => s.language)).toEqual(['ar', 'de', 'es', 'he', 'hi', 'it', 'ja', 'ko', 'pt', 'ru', 'tr', 'zh']);
    let hits = 0;
    let n = 0;
    for (const set of sets) {
      expect(set.personQuestions?.length ?? 0, set.language).toBeGreaterThanOrEqual(8);
      const r = await runMultilingualSet(set, encoder, systemOne);
      const q = r.person?.questions ?? 0;
      hits += Math.round((r.person?.recall1 ?? 0) * q);
      n += q;
      expect(r.person?.recall1 ?? 0, `${set.language} ${JSON.stringify(r.person?.misses1)}`).toBeGreaterThanOrEqual(8 / 9 - 1e-9);
    }
    expect(hits / n).toBeGreaterThanOrEqual(0.95);
  }, 120_000);
});
