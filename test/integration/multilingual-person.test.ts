/**
 * Issue 24 (h-lang): the second person set (test/fixtures/multilingual-person), written from
 * natural sentences before the rules it led to. The dev split is what the rules were tuned on;
 * the held-out split is only measured, and held here to the floor it reached so that a later
 * change cannot lower it unseen. Default Node encoder, trained local System One, as the bench.
 *
 * h-person2 (issue 24, "every inflection"): the `heldout2` split, written from the grammars
 * before the rules that lifted it, only measured; person R@1 ≥ 90 % in every language on dev and
 * held-out, and on held-out 2 ≥ 8 of 9 in every language and ≥ 95 % over all (base 62d7345:
 * Korean 5 of 9, Russian and Turkish 7 of 9, 87.0 % over all).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPersonSets, runMultilingualBench, type MultilingualResult, type PersonSplit } from '../../bench/multilingual/multilingual.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import type { SystemOneBackend } from '../../src/system-one/wire.js';

let encoder: Encoder;
let systemOne: SystemOneBackend;
const results = new Map<PersonSplit, MultilingualResult[]>();

beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
  systemOne = await createSystemOneFromName('local', { env: {} });
  for (const split of ['dev', 'heldout', 'heldout2'] as const) results.set(split, await runMultilingualBench(loadPersonSets(split), encoder, systemOne));
}, 180_000);

afterAll(async () => {
  await encoder.close?.();
  await systemOne.close();
});

/** Pooled recall@1 of one group over every language of a split, and the misses. */
function pooled(split: PersonSplit, group: 'person' | 'short'): { r1: number; n: number; misses: string[] } {
  let hits = 0;
  let n = 0;
  const misses: string[] = [];
  for (const r of results.get(split) ?? []) {
    const g = r[group];
    if (g === undefined) continue;
    hits += Math.round(g.recall1 * g.questions);
    n += g.questions;
    for (const m of g.misses1) misses.push(`${r.language}: ${m.question} → ${m.got[0] ?? 'nothing'} (expected ${m.expected})`);
  }
  return { r1: n > 0 ? hits / n : 0, n, misses };
}

describe('second person set (test/fixtures/multilingual-person)', () => {
  it('every split covers the languages with person inflection (dev and held-out: the CJK short queries too), every expected turn present', () => {
    for (const split of ['dev', 'heldout', 'heldout2'] as const) {
      const sets = loadPersonSets(split);
      expect(sets.map((s) => s.language).sort(), split).toEqual(['ar', 'de', 'es', 'he', 'hi', 'it', 'ja', 'ko', 'pt', 'ru', 'tr', 'zh']);
      for (const s of sets) {
        const ids = new Set(s.memories.map((m) => m.id));
        for (const q of [...(s.personQuestions ?? []), ...(s.shortQuestions ?? [])]) expect(ids.has(q.expected), `${split} ${q.question}`).toBe(true);
      }
    }
  });

  it('dev: person questions recall@1 ≥ 90 % over all languages, and the right turn in the top 5 for ≥ 85 % in each', () => {
    const p = pooled('dev', 'person');
    expect(p.r1, p.misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    for (const r of results.get('dev') ?? []) expect(r.person?.recall5 ?? 1, r.language).toBeGreaterThanOrEqual(0.85);
  });

  it('held-out: person questions recall@1 ≥ 85 % over all languages, each namespace given its language (measured, not tuned on; 83.6 % without the language option)', () => {
    const p = pooled('heldout', 'person');
    expect(p.r1, p.misses.join('\n')).toBeGreaterThanOrEqual(0.85);
  });

  it('one- and two-character CJK queries: recall@1 ≥ 90 % on both splits', () => {
    for (const split of ['dev', 'heldout'] as const) {
      const s = pooled(split, 'short');
      expect(s.n, split).toBeGreaterThanOrEqual(14);
      expect(s.r1, s.misses.join('\n')).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('dev and held-out: person questions recall@1 ≥ 90 % in every language (h-person2)', () => {
    for (const split of ['dev', 'heldout'] as const) {
      for (const r of results.get(split) ?? []) expect(r.person?.recall1 ?? 0, `${split} ${r.language} ${JSON.stringify(r.person?.misses1)}`).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('held-out 2: ≥ 8 pairs per language; person recall@1 ≥ 8 of 9 in every language and ≥ 95 % over all (h-person2)', () => {
    for (const s of loadPersonSets('heldout2')) expect(s.personQuestions?.length ?? 0, s.language).toBeGreaterThanOrEqual(8);
    for (const r of results.get('heldout2') ?? []) expect(r.person?.recall1 ?? 0, `${r.language} ${JSON.stringify(r.person?.misses1)}`).toBeGreaterThanOrEqual(8 / 9 - 1e-9);
    const p = pooled('heldout2', 'person');
    expect(p.n).toBeGreaterThanOrEqual(96);
    expect(p.r1, p.misses.join('\n')).toBeGreaterThanOrEqual(0.95);
  });
});
