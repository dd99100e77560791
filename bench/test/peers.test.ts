import { describe, expect, it } from 'vitest';
import { isJevMemError } from '../../src/errors.js';
import { buildMiniSearchDefault, buildOramaIndex, miniSearchDefaultRanking, ORAMA_GRID, oramaHybridRanking, tuneOrama } from '../locomo/peers.js';

// Three turns with 2-d unit vectors. The query vector q = (0.3, 0.95), |q| = 0.99624, so the
// cosines are A 0.3/0.99624 = 0.3011, B (0.24 + 0.57)/0.99624 = 0.8131, C 0.95/0.99624 = 0.9536.
const docs = [
  { id: 'A', text: 'apple pie' },
  { id: 'B', text: 'banana bread' },
  { id: 'C', text: 'cherry tart' },
];
const vectors = [new Float32Array([1, 0]), new Float32Array([0.8, 0.6]), new Float32Array([0, 1])];
const q = new Float32Array([0.3, 0.95]);

describe('Orama hybrid search (orama, orama-tuned)', () => {
  it('with the defaults (similarity 0.8, weights 0.5/0.5) ranks the text match first and drops the vector below 0.8', async () => {
    const index = await buildOramaIndex(docs, vectors, 2);
    // text: only B has "banana" -> normalised 1; vector: B 0.8131/0.9536 = 0.8527, C 1, A (0.30 < 0.8) not matched.
    // B = 0.5·1 + 0.5·0.8527 = 0.926, C = 0.5·1 = 0.5.
    expect(await oramaHybridRanking(index, 'banana', q, 20)).toEqual(['B', 'C']);
  });

  it('with text 0.1 / vector 0.9 puts the closest vector first', async () => {
    const index = await buildOramaIndex(docs, vectors, 2);
    // B = 0.1 + 0.9·0.8527 = 0.867, C = 0.9.
    expect(await oramaHybridRanking(index, 'banana', q, 20, { hybridWeights: { text: 0.1, vector: 0.9 } })).toEqual(['C', 'B']);
  });

  it('with similarity 0.2 also matches A (cosine 0.30) last, and k cuts the list', async () => {
    const index = await buildOramaIndex(docs, vectors, 2);
    // A = 0.9 · 0.3011/0.9536 = 0.284.
    const o = { similarity: 0.2, hybridWeights: { text: 0.1, vector: 0.9 } };
    expect(await oramaHybridRanking(index, 'banana', q, 20, o)).toEqual(['C', 'B', 'A']);
    expect(await oramaHybridRanking(index, 'banana', q, 2, o)).toEqual(['C', 'B']);
  });

  it('the grid has 36 points, none with a zero weight (Orama would fall back to 0.5/0.5)', () => {
    expect(ORAMA_GRID).toHaveLength(36);
    expect(ORAMA_GRID.every((g) => g.hybridWeights.text > 0 && g.hybridWeights.vector > 0 && Math.abs(g.hybridWeights.text + g.hybridWeights.vector - 1) < 1e-9)).toBe(true);
    expect(ORAMA_GRID[4]).toEqual({ similarity: 0.8, hybridWeights: { text: 0.5, vector: 0.5 } });
  });

  it('tuning picks the first grid point that reaches the gold turn', async () => {
    const index = await buildOramaIndex(docs, vectors, 2);
    // gold A: no text match, cosine 0.30, so only similarity 0.2 and -1 (the last 18 points) find it.
    const { chosen, grid } = await tuneOrama([{ index, text: 'banana', vector: q, gold: ['A'] }]);
    expect(grid.map((g) => g.recall10)).toEqual([...Array(18).fill(0), ...Array(18).fill(1)]);
    expect(chosen).toEqual({ similarity: 0.2, hybridWeights: { text: 0.1, vector: 0.9 }, recall10: 1 });
  });

  it('tuning without questions is an INVALID_INPUT naming the field', async () => {
    const e = await tuneOrama([]).catch((x: unknown) => x);
    expect(isJevMemError(e) && e.code === 'INVALID_INPUT' && e.field === 'questions').toBe(true);
  });
});

describe('MiniSearch with default options (minisearch-default)', () => {
  const turns = [
    { id: 'A', text: 'apple apple pie' },
    { id: 'B', text: 'apple tart' },
    { id: 'C', text: 'cherry tart' },
  ];

  it('ranks by BM25+ (k 1.2, b 0.7, d 0.5) times the number of matched query terms', () => {
    // N = 3, both terms in 2 docs: idf = ln(1 + 1.5/2.5) = 0.4700; mean length 7/3.
    // A: apple tf 2, len 3: 0.47·(0.5 + 2·2.2/(2 + 1.2·(0.3 + 0.7·9/7))) = 0.836, 1 term matched.
    // B: apple and tart tf 1, len 2: 2·0.47·(0.5 + 2.2/2.08) = 1.464, × 2 terms = 2.928.
    // C: tart only = 0.732.
    expect(miniSearchDefaultRanking(buildMiniSearchDefault(turns), 'apple tart', 20)).toEqual(['B', 'A', 'C']);
    expect(miniSearchDefaultRanking(buildMiniSearchDefault(turns), 'apple tart', 1)).toEqual(['B']);
  });

  it('does not stem ("tarts" finds nothing) and keeps stop words ("the" is a term)', () => {
    const index = buildMiniSearchDefault([...turns, { id: 'D', text: 'the end' }]);
    expect(miniSearchDefaultRanking(index, 'tarts', 20)).toEqual([]);
    expect(miniSearchDefaultRanking(index, 'the', 20)).toEqual(['D']);
  });
});
