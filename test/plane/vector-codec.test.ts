/** Compact vectors (issue 13): the int8 grid and its lossless byte form. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeVector, encodeVector, quantizeVector } from '../../src/plane/indexes/vector-codec.js';

describe('vector codec', () => {
  it('puts a vector on the int8 grid: s = fround(max|x| / 127), v_i = round(x_i / s) · s', () => {
    const v = quantizeVector([0.254, -0.127, 0.001, -0.0004]);
    const s = Math.fround(0.254 / 127);
    expect(v).toEqual([127 * s, -Math.round(0.127 / s) * s, Math.round(0.001 / s) * s, 0]);
    expect(Object.is(v[3], -0)).toBe(false); // −0 becomes 0, as a JSON round trip would
  });

  it('a vector whose entries are all below float32 range quantises to zeros, not NaN (the property seed -372928382 found it)', () => {
    // fround(1e-300 / 127) is 0 in float32: the scale underflows, so the float32 vector is all zeros
    expect(quantizeVector([1e-300, -1e-300, 0])).toEqual([0, 0, 0]);
  });

  it('stores a grid vector in d + 5 bytes and any other vector exactly in 8 bytes an entry', () => {
    const grid = quantizeVector([0.3, -0.1, 0.2]);
    expect(encodeVector(grid).length).toBe(3 + 5);
    expect(decodeVector(encodeVector(grid))).toEqual(grid);
    const odd = [0.123456, -1e-7, 3.5];
    expect(encodeVector(odd).length).toBe(1 + 3 * 8);
    expect(decodeVector(encodeVector(odd))).toEqual(odd);
    expect(decodeVector(encodeVector([0, 0]))).toEqual([0, 0]);
  });

  it('round-trips every vector exactly (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -10, max: 10, noNaN: true }), { minLength: 1, maxLength: 40 }), fc.boolean(), (xs, grid) => {
        const v = grid ? quantizeVector(xs) : xs;
        expect(decodeVector(encodeVector(v))).toEqual(v.map((x) => (Object.is(x, -0) && grid ? 0 : x)));
      }),
    );
  });

  it('refuses bytes it did not write', () => {
    expect(() => decodeVector(new Uint8Array([9, 1, 2]))).toThrow(/not an encoded vector/);
  });
});
