import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { createFlatVectorIndex, restoreFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { TopK } from '../../src/plane/indexes/vector-math.js';
import { NodeDirectory } from '../../src/plane/resident/node-directory.js';
import type { MemoryNode } from '../../src/types.js';
import { makeNode } from './fixtures.js';
import { cosine, prng, randomUnit } from './vectors.js';

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

describe('flat vector index: int8 slab', () => {
  it('keeps a vector on the int8 grid as int8 and scores it by the cosine of its grid values', () => {
    const index = createFlatVectorIndex(3);
    index.add('g', v(127, -64, 0)); // on the grid (s = 1), and so is its unit copy
    index.add('f', v(0.6, 0.8, 0)); // 0.6 / (0.8 / 127) = 95.25: off the grid
    expect(index.layout).toEqual({ int8Rows: 1, float32Rows: 1 });
    // ‖(127, −64, 0)‖ = √20225 = 142.2146…; cos with (1, 0, 0) = 127 / 142.2146 = 0.8930164
    expect(index.search(v(1, 0, 0), 2)).toEqual([
      { id: 'g', score: expect.closeTo(0.8930164, 6) },
      { id: 'f', score: expect.closeTo(0.6, 6) },
    ]);
    const back = index.vectorOf('g')!;
    [127 / 142.21462, -64 / 142.21462, 0].forEach((x, i) => expect(back[i]).toBeCloseTo(x, 6));
    expect(Array.from(index.vectorOf('f')!)).toEqual([Math.fround(0.6), Math.fround(0.8), 0]);
    expect(index.vectorOf('nope')).toBeUndefined();
  });

  it('stores quantised encoder vectors on the int8 grid, exact against their grid values', () => {
    const dim = 100;
    const random = prng(3);
    const index = createFlatVectorIndex(dim);
    const stored = Array.from({ length: 50 }, () => quantizeVector(randomUnit(random, dim)));
    stored.forEach((x, i) => index.add(`n${i}`, Float32Array.from(x)));
    expect(index.layout).toEqual({ int8Rows: 50, float32Rows: 0 });
    const query = randomUnit(random, dim);
    const hits = index.search(query, 50);
    const truth = stored.map((x, i) => ({ id: `n${i}`, score: cosine(query, x) })).sort((a, b) => b.score - a.score);
    expect(hits.map((h) => h.id)).toEqual(truth.map((h) => h.id));
    hits.forEach((h, i) => expect(h.score).toBeCloseTo(truth[i]!.score, 6));
  });

  it('a row moves between the int8 slab and the float32 rows when its vector is replaced', () => {
    const index = createFlatVectorIndex(2);
    index.add('a', v(1, 0));
    index.add('b', v(0, 1));
    index.add('a', v(3, 4));
    expect([index.layout, index.size]).toEqual([{ int8Rows: 1, float32Rows: 1 }, 2]);
    index.remove('a');
    expect(index.layout).toEqual({ int8Rows: 1, float32Rows: 0 });
    expect(index.search(v(0, 1), 5)).toEqual([{ id: 'b', score: 1 }]);
  });
});

describe('flat vector index: serialize / restore', () => {
  /** 300 rows (200 on the int8 grid, 100 off it) after some removals. */
  function built(): { index: ReturnType<typeof createFlatVectorIndex>; random: () => number } {
    const random = prng(11);
    const index = createFlatVectorIndex(16);
    for (let i = 0; i < 300; i++) {
      const x = randomUnit(random, 16);
      index.add(`id-${i}`, i % 3 === 2 ? x : Float32Array.from(quantizeVector(x)));
    }
    for (let i = 0; i < 300; i += 7) index.remove(`id-${i}`);
    return { index, random };
  }

  it('the restored index answers every query exactly like the original', () => {
    const { index, random } = built();
    const restored = restoreFlatVectorIndex(index.serialize());
    expect([restored.kind, restored.dimension, restored.size, restored.layout]).toEqual(['flat', 16, index.size, index.layout]);
    for (let q = 0; q < 100; q++) {
      const query = randomUnit(random, 16);
      expect(restored.search(query, 10)).toEqual(index.search(query, 10));
    }
    expect(restored.vectorOf('id-5')).toEqual(index.vectorOf('id-5'));
    expect(restored.has('id-7')).toBe(false);
  });

  it('add and remove work after a restore', () => {
    const { index } = built();
    const restored = restoreFlatVectorIndex(index.serialize());
    restored.add('new', v(...Array.from({ length: 16 }, (_, i) => (i === 3 ? 127 : 0))));
    restored.remove('id-1');
    const e3 = v(...Array.from({ length: 16 }, (_, i) => (i === 3 ? 1 : 0)));
    expect(restored.search(e3, 1)).toEqual([{ id: 'new', score: 1 }]);
    expect([restored.has('id-1'), restored.size]).toEqual([false, index.size]);
    for (let i = 0; i < 200; i++) restored.add(`more-${i}`, e3); // grows past the restored capacity
    expect(restored.size).toBe(index.size + 200);
  });

  it('lays out header, counts, ids, scales, float32 rows and int8 rows', () => {
    const index = createFlatVectorIndex(3);
    index.add('g', v(127, -64, 0));
    index.add('f', v(0.6, 0.8, 0));
    const bytes = index.serialize();
    // 12 header + 12 counts + 9 ids ('["g","f"]') + 4 scale + 12 float32 row + 3 int8 row
    expect(bytes.length).toBe(52);
    expect(String.fromCharCode(...bytes.subarray(0, 4))).toBe('JVIX');
    expect(Array.from(bytes.subarray(4, 12))).toEqual([1, 1, 0, 0, 3, 0, 0, 0]);
    expect(new TextDecoder().decode(bytes.subarray(24, 33))).toBe('["g","f"]');
    expect(Array.from(new Int8Array(bytes.buffer, 49, 3))).toEqual([127, -64, 0]);
    expect(restoreFlatVectorIndex(createFlatVectorIndex(5).serialize()).size).toBe(0);
  });

  it('wrong or corrupt bytes are STORAGE_FAILED saying what is wrong; a newer version SCHEMA_MISMATCH', () => {
    const index = createFlatVectorIndex(3);
    index.add('g', v(127, -64, 0));
    const good = index.serialize();
    const with_ = (at: number, value: number): Uint8Array => {
      const b = good.slice();
      b[at] = value;
      return b;
    };
    const fails = (bytes: Uint8Array, code: string, message: RegExp): void => {
      expect(() => restoreFlatVectorIndex(bytes)).toThrow(expect.objectContaining({ code, field: 'bytes', message: expect.stringMatching(message) }));
    };
    fails(good.subarray(0, 8), 'STORAGE_FAILED', /shorter than the 12-byte header/);
    fails(with_(0, 0x41), 'STORAGE_FAILED', /no JVIX magic/);
    fails(with_(4, 9), 'STORAGE_FAILED', /unknown index kind byte 9/);
    fails(with_(4, 2), 'STORAGE_FAILED', /expected a flat index, got a hnsw index/);
    fails(with_(5, 2), 'SCHEMA_MISMATCH', /flat format version 2/);
    fails(good.subarray(0, good.length - 1), 'STORAGE_FAILED', /needs 36 bytes, got 35/);
    fails(with_(24, 0x7b), 'STORAGE_FAILED', /id list/); // '[' → '{'
    expect(() => restoreFlatVectorIndex('JVIX' as unknown as Uint8Array)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'bytes' }));
  });
});

describe('flat vector index: addGridRow (an exact open builds I^vec from the node directory, issue 22)', () => {
  const bytesOf = (index: { serialize(): Uint8Array }): number[] => Array.from(index.serialize());

  it('files a directory row exactly as add(id, its vector): same bytes, same hits', () => {
    const dim = 24;
    // Entries of many magnitudes (1e-30 .. 1e6), exact zeros, a one-hot and an all-zero vector,
    // through the encoder's quantisation or raw: every kind of row a directory can hold. No
    // subnormal entries.
    const normal = (x: number): boolean => x === 0 || Math.abs(x) >= 1e-300;
    const entry = fc.oneof(fc.double({ min: -1e6, max: 1e6, noNaN: true }).filter(normal), fc.double({ min: -1e-30, max: 1e-30, noNaN: true }).filter(normal), fc.constant(0), fc.integer({ min: -3, max: 3 }));
    const vector = fc.oneof(fc.array(entry, { minLength: dim, maxLength: dim }), fc.integer({ min: 0, max: dim - 1 }).map((i) => Array.from({ length: dim }, (_, j) => (j === i ? -2.5 : 0))));
    fc.assert(
      fc.property(fc.array(fc.tuple(vector, fc.boolean(), fc.constantFrom<MemoryNode['status']>('active', 'superseded', 'deleted')), { minLength: 1, maxLength: 40 }), fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: dim, maxLength: dim }), (rows, query) => {
        const dir = new NodeDirectory(dim);
        rows.forEach(([v, quantized, status], i) => {
          const n = makeNode('ns', `n${i}`, i);
          n.embedding = { encoder: 'e', vector: quantized ? quantizeVector(v) : v };
          n.status = status;
          dir.add(n, i, 'en');
        });
        const byAdd = createFlatVectorIndex(dim);
        for (const [id, vec] of dir.liveVectors()) byAdd.add(id, vec);
        const byRow = createFlatVectorIndex(dim);
        dir.forEachLiveRow((id, q, at, scale) => byRow.addGridRow?.(id, q, at, scale));
        expect(byRow.size).toBe(rows.filter(([, , s]) => s !== 'deleted').length);
        expect(bytesOf(byRow)).toEqual(bytesOf(byAdd));
        expect(byRow.search(Float32Array.from(query), 10)).toEqual(byAdd.search(Float32Array.from(query), 10));
      }),
      { numRuns: 150 },
    );
  });

  it('a row without a ±127 entry, a zero row and a replaced id take the same path as add', () => {
    const q = Int8Array.from([0, 0, 0, 0, 5, -3, 2, 0, 100, -20, 7, 1, -127, 4, 0, 9]); // rows of 4 at 0, 4, 8, 12
    const byRow = createFlatVectorIndex(4);
    const byAdd = createFlatVectorIndex(4);
    const rows: Array<[string, number, number]> = [['a', 4, 0.01], ['z', 0, 0.5], ['b', 8, 2 ** -7], ['c', 12, 2 ** -110], ['a', 8, 3], ['d', 12, 0.3]];
    for (const [id, at, scale] of rows) {
      byRow.addGridRow?.(id, q, at, scale);
      byAdd.add(id, Float32Array.from(q.subarray(at, at + 4), (x) => x * scale));
    }
    expect(byRow.size).toBe(5);
    expect(bytesOf(byRow)).toEqual(bytesOf(byAdd));
    expect(byRow.vectorOf('z')).toEqual(new Float32Array(4));
  });

  it('a row outside q, a non-finite scale or an empty id is INVALID_INPUT naming the field', () => {
    const index = createFlatVectorIndex(4);
    const q = new Int8Array(8);
    expect(() => index.addGridRow?.('a', q, 5, 1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'vector' }));
    expect(() => index.addGridRow?.('a', q, 0, Number.NaN)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'vector' }));
    expect(() => index.addGridRow?.('', q, 0, 1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'id' }));
    expect(index.size).toBe(0);
  });
});
