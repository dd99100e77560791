import { describe, expect, it } from 'vitest';
import { activeViews, allocationWeights, depthFor, largestRemainder, viewBudgets } from '../../src/read/budget.js';
import { reciprocalRankFusion } from '../../src/plane/indexes/fusion.js';
import { recencyAdjusted, recencyFactor, transitionScore } from '../../src/read/score.js';
import { stopDecision } from '../../src/read/stop.js';

const LAMBDAS = [0.25, 0.35, 0.15, 0.15, 0.1] as [number, number, number, number, number];

describe('eq. (12) active views', () => {
  it('keeps views with p_g ≥ θ_act, including one exactly at the threshold', () => {
    expect(activeViews({ semantic: 0.9, temporal: 0.1, causal: 0.05, entity: 0.3 }, 0.1)).toEqual(['entity', 'semantic', 'temporal']);
  });
});

describe('eq. (13)-(14) budgets with largest-remainder rounding', () => {
  // p = {semantic .9, temporal .6, entity .3, causal .05}; A = {entity, semantic, temporal}; Σp = 1.8
  // w = {entity 1/6, semantic 1/2, temporal 1/3}; B − m|A| = 80 − 3 = 77
  // shares 12.833 / 38.5 / 25.667 → floors 12 / 38 / 25 (75), 2 left → entity (.833), temporal (.667)
  // b = 1 + {13, 38, 26} = {14, 39, 27}, Σ = 80
  const p = { semantic: 0.9, temporal: 0.6, causal: 0.05, entity: 0.3 };
  const active = activeViews(p, 0.1);
  const w = allocationWeights(p, active, 1);

  it('weights are p_g / Σ_A p_j and 0 for inactive views', () => {
    expect(w.entity).toBeCloseTo(1 / 6, 12);
    expect(w.semantic).toBeCloseTo(0.5, 12);
    expect(w.temporal).toBeCloseTo(1 / 3, 12);
    expect(w.causal).toBe(0);
  });

  it('budgets are m + LRound and sum to B', () => {
    const b = viewBudgets(w, active, 80, 1);
    expect(b).toEqual({ causal: 0, entity: 14, semantic: 39, temporal: 27 });
    expect(b.entity + b.semantic + b.temporal).toBe(80);
  });

  it('γ = 2 concentrates the budget on the most probable view', () => {
    // p² = {.09, .81, .36}, Σ = 1.26; shares of 77: 5.5 / 49.5 / 22 → floors 5/49/22 = 76, 1 left;
    // remainders entity .5, semantic .5 → tie broken by name: entity
    const b = viewBudgets(allocationWeights(p, active, 2), active, 80, 1);
    expect(b).toEqual({ causal: 0, entity: 7, semantic: 50, temporal: 23 });
  });

  it('ties between equal remainders go to the view whose name sorts first', () => {
    const r = largestRemainder(
      [
        { view: 'temporal', share: 39.5 },
        { view: 'semantic', share: 39.5 },
      ],
      79,
    );
    expect(r.semantic).toBe(40);
    expect(r.temporal).toBe(39);
  });

  it('when B < m|A| every active view still gets its minimum', () => {
    const b = viewBudgets({ causal: 0.25, entity: 0.25, semantic: 0.25, temporal: 0.25 }, ['causal', 'entity', 'semantic', 'temporal'], 2, 1);
    expect(b).toEqual({ causal: 1, entity: 1, semantic: 1, temporal: 1 });
  });
});

describe('eq. (15) depth', () => {
  it('D = min(D_max, max(1, ⌈D_max·h⌉))', () => {
    expect(depthFor(0.3, 8)).toBe(3); // ⌈2.4⌉
    expect(depthFor(0, 8)).toBe(1);
    expect(depthFor(1, 8)).toBe(8);
    expect(depthFor(0.125, 8)).toBe(1); // ⌈1.0⌉ exactly, not 2 from float error
    expect(depthFor(0.51, 8)).toBe(5); // ⌈4.08⌉
  });
});

describe('eq. (16) reciprocal rank fusion', () => {
  it('sums 1/(κ + rank) over the lists with 1-based ranks', () => {
    const fused = reciprocalRankFusion(
      [
        [{ id: 'a' }, { id: 'b' }, { id: 'c' }],
        [{ id: 'b' }, { id: 'd' }],
      ],
      60,
    );
    expect(fused.map((f) => f.id)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0]!.rrf).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused[0]!.ranks).toEqual([2, 1]);
    expect(fused[1]!.rrf).toBeCloseTo(1 / 61, 12);
    expect(fused[3]!.rrf).toBeCloseTo(1 / 63, 12);
    expect(fused[3]!.ranks).toEqual([3, 0]);
  });
});

describe('eq. (23) transition score', () => {
  it('is the λ-weighted mean of the parts', () => {
    // .25·.8 + .35·.6 + .15·.5·.4 + .15·1 + .10·(.9+.3)/2 = .2 + .21 + .03 + .15 + .06 = .65
    const s = transitionScore({ z: 0.8, a: 0.6, pg: 0.5, l: 0.4, n: 1, pi: 0.9, c: 0.3 }, LAMBDAS);
    expect(s).toBeCloseTo(0.65, 12);
  });

  it('divides by Σλ when the weights do not sum to 1', () => {
    const s = transitionScore({ z: 1, a: 0, pg: 0, l: 0, n: 0, pi: 0, c: 0 }, [2, 1, 1, 0, 0]);
    expect(s).toBeCloseTo(0.5, 12);
  });
});

describe('eq. (24)-(25) recency', () => {
  const DAY = 86_400_000;
  it('ρ_v = 1/(1 + days behind the newest visited timestamp)', () => {
    expect(recencyFactor(10 * DAY, 7 * DAY)).toBeCloseTo(0.25, 12);
    expect(recencyFactor(10 * DAY, 12 * DAY)).toBe(1); // newer than τ*: no penalty
  });
  it('s̃ = (s + 0.1·r·ρ) / (1 + 0.1·r)', () => {
    // (.65 + .1·.5·.25) / 1.05 = .6625 / 1.05
    expect(recencyAdjusted(0.65, 0.5, 0.25)).toBeCloseTo(0.6625 / 1.05, 12);
    expect(recencyAdjusted(0.65, 0, 0.25)).toBeCloseTo(0.65, 12);
  });
});

describe('eq. (21)-(22) stop rules', () => {
  it('stops as sufficient when s ≥ θ_suff and m, c < θ_cont', () => {
    expect(stopDecision({ sufficient: 0.95, missing: 0.149, contradiction: 0, continueUseful: 0.9 }, 0.95, 0.15)).toBe('sufficient');
  });
  it('does not stop as sufficient while evidence is missing', () => {
    expect(stopDecision({ sufficient: 0.99, missing: 0.2, contradiction: 0, continueUseful: 0.5 }, 0.95, 0.15)).toBeUndefined();
  });
  it('does not stop as sufficient with an unresolved contradiction', () => {
    expect(stopDecision({ sufficient: 0.99, missing: 0, contradiction: 0.15, continueUseful: 0.5 }, 0.95, 0.15)).toBeUndefined();
  });
  it('stops as not worth continuing when u < θ_cont', () => {
    expect(stopDecision({ sufficient: 0.5, missing: 0.5, contradiction: 0, continueUseful: 0.14 }, 0.95, 0.15)).toBe('not-worth-continuing');
  });
  it('continues when u = θ_cont exactly', () => {
    expect(stopDecision({ sufficient: 0.5, missing: 0.5, contradiction: 0, continueUseful: 0.15 }, 0.95, 0.15)).toBeUndefined();
  });
});
