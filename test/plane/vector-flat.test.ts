import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TopK, createFlatVectorIndex } from '../../src/plane/vector-flat.js';
import { cosine } from './vectors.js';

const v = (...xs: number[]): Float32Array => Float32Array.from(xs);

describe('flat vector index', () => {
  it('scores by cosine, best first', () => {
    const index = createFlatVectorIndex(2);
    index.add('a', v(1, 0));
    index.add('b', v(0, 1));
    index.add('c', v(3, 4)); // unit (0.6, 0.8)
    const hits = index.search(v(1, 0), 3);
    expect(hits.map((h) => h.id)).toEqual(['a', 'c', 'b']);
    expect(hits.map((h) => h.score)).toEqual([1, expect.closeTo(0.6, 6), 0]);
  });

  it('normalises the query: its length does not change scores', () => {
    const index = createFlatVectorIndex(2);
    index.add('c', v(3, 4));
    expect(index.search(v(5, 0), 1)[0]?.score).toBeCloseTo(0.6, 6);
  });

  it('ranks equal scores by id', () => {
    const index = createFlatVectorIndex(2);
    index.add('z', v(1, 0));
    index.add('m', v(1, 0));
    index.add('a', v(1, 0));
    expect(index.search(v(1, 0), 2).map((h) => h.id)).toEqual(['a', 'm']);
  });

  it('remove moves the last row into the hole and keeps its vector', () => {
    const index = createFlatVectorIndex(2);
    index.add('a', v(1, 0));
    index.add('b', v(0, 1));
    index.add('c', v(-1, 0));
    index.remove('a');
    expect(index.has('a')).toBe(false);
    expect(index.size).toBe(2);
    expect(index.search(v(-1, 0), 2)).toEqual([
      { id: 'c', score: 1 },
      { id: 'b', score: 0 },
    ]);
  });

  it('adding an existing id replaces its vector', () => {
    const index = createFlatVectorIndex(2);
    index.add('a', v(1, 0));
    index.add('a', v(0, 1));
    expect(index.size).toBe(1);
    expect(index.search(v(0, 1), 1)).toEqual([{ id: 'a', score: 1 }]);
  });

  it('grows past its first allocation', () => {
    const index = createFlatVectorIndex(3);
    const at = (i: number): Float32Array => v(Math.cos((i * Math.PI) / 400), Math.sin((i * Math.PI) / 400), 0);
    for (let i = 0; i < 200; i++) index.add(`n${i}`, at(i));
    expect(index.size).toBe(200);
    expect(index.search(at(150), 1)).toEqual([{ id: 'n150', score: expect.closeTo(1, 6) }]);
  });

  it('a vector of another dimension is INVALID_INPUT naming vector', () => {
    const index = createFlatVectorIndex(3);
    expect(() => index.add('a', v(1, 0))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'vector' }));
    expect(() => index.search(v(1, 0, 0, 0), 1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'vector' }));
  });

  it('a non-finite entry is INVALID_INPUT naming vector', () => {
    const index = createFlatVectorIndex(2);
    expect(() => index.add('a', v(1, Number.NaN))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'vector' }));
  });

  it('a dimension that is not a positive integer is INVALID_INPUT naming dimension', () => {
    expect(() => createFlatVectorIndex(0)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'dimension' }));
    expect(() => createFlatVectorIndex(1.5)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'dimension' }));
  });

  it('a zero vector scores 0 against everything', () => {
    const index = createFlatVectorIndex(2);
    index.add('zero', v(0, 0));
    expect(index.search(v(1, 0), 1)).toEqual([{ id: 'zero', score: 0 }]);
  });

  it('TopK keeps the k best of a stream, best first', () => {
    const top = new TopK(3);
    [5, 1, 9, 3, 7, 2].forEach((s, i) => top.offer(`x${i}`, s));
    expect(top.sorted().map((h) => h.score)).toEqual([9, 7, 5]);
  });

  it('after random adds and removes, search equals a brute-force scan of a model', () => {
    const dim = 4;
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        id: fc.integer({ min: 0, max: 30 }),
        vec: fc.array(fc.integer({ min: -5, max: 5 }), { minLength: dim, maxLength: dim }),
      }),
      fc.record({ kind: fc.constant('remove' as const), id: fc.integer({ min: 0, max: 30 }) }),
    );
    fc.assert(
      fc.property(
        fc.array(op, { maxLength: 80 }),
        fc.array(fc.integer({ min: -5, max: 5 }), { minLength: dim, maxLength: dim }),
        fc.integer({ min: 0, max: 12 }),
        (ops, query, k) => {
          const index = createFlatVectorIndex(dim);
          const model = new Map<string, number[]>();
          for (const o of ops) {
            if (o.kind === 'add') {
              index.add(`n${o.id}`, Float32Array.from(o.vec));
              model.set(`n${o.id}`, o.vec);
            } else {
              index.remove(`n${o.id}`);
              model.delete(`n${o.id}`);
            }
          }
          expect(index.size).toBe(model.size);
          const hits = index.search(Float32Array.from(query), k);
          const truth = [...model.entries()].map(([id, vec]) => ({ id, score: cosine(query, vec) })).sort((a, b) => b.score - a.score);
          expect(hits).toHaveLength(Math.min(k, model.size));
          hits.forEach((h, i) => {
            expect(h.score).toBeCloseTo(cosine(query, model.get(h.id)!), 5); // the reported score is the true cosine
            expect(h.score).toBeCloseTo(truth[i]!.score, 5); // and the i-th best one
          });
        },
      ),
      { numRuns: 200 },
    );
  });
});
