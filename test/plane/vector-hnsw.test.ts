import { describe, expect, it } from 'vitest';
import { createFlatVectorIndex } from '../../src/plane/vector-flat.js';
import { createHnswVectorIndex, createVectorIndex } from '../../src/plane/vector-hnsw.js';
import { prng, randomUnit } from './vectors.js';

const v = (...xs: number[]): Float32Array => Float32Array.from(xs);

describe('HNSW vector index (hnswlib-wasm)', () => {
  it('finds the same top-1 as the exact index and recall@10 ≥ 0.95 on 500 random unit vectors', async () => {
    const dim = 32;
    const random = prng(42);
    const hnsw = await createHnswVectorIndex({ dimension: dim });
    const flat = createFlatVectorIndex(dim);
    for (let i = 0; i < 500; i++) {
      const x = randomUnit(random, dim);
      hnsw.add(`n${i}`, x);
      flat.add(`n${i}`, x);
    }
    let found = 0;
    for (let q = 0; q < 20; q++) {
      const query = randomUnit(random, dim);
      const exact = flat.search(query, 10);
      const approx = hnsw.search(query, 10);
      expect(approx[0]?.id).toBe(exact[0]?.id);
      const exactIds = new Set(exact.map((h) => h.id));
      found += approx.filter((h) => exactIds.has(h.id)).length;
    }
    expect(found / 200).toBeGreaterThanOrEqual(0.95);
    hnsw.dispose();
  });

  it('reports cosine similarity as the score', async () => {
    const index = await createHnswVectorIndex({ dimension: 2 });
    index.add('a', v(1, 0));
    index.add('b', v(0, 1));
    index.add('c', v(3, 4)); // not unit length: normalised on the way in
    const hits = index.search(v(2, 0), 3);
    expect(hits.map((h) => h.id)).toEqual(['a', 'c', 'b']);
    expect(hits.map((h) => h.score)).toEqual([expect.closeTo(1, 6), expect.closeTo(0.6, 6), expect.closeTo(0, 6)]);
    index.dispose();
  });

  it('grows past maxElements', async () => {
    const index = await createHnswVectorIndex({ dimension: 8, maxElements: 4 });
    const random = prng(7);
    const vectors = Array.from({ length: 20 }, () => randomUnit(random, 8));
    vectors.forEach((x, i) => index.add(`n${i}`, x));
    expect(index.size).toBe(20);
    vectors.forEach((x, i) => expect(index.search(x, 1)[0]?.id).toBe(`n${i}`));
    index.dispose();
  });

  it('remove hides an id, and a new id can take its place even when the index is full', async () => {
    const index = await createHnswVectorIndex({ dimension: 2, maxElements: 2 });
    index.add('a', v(1, 0));
    index.add('b', v(0, 1));
    index.remove('a');
    index.remove('a'); // unknown now: no-op
    expect(index.search(v(1, 0), 5).map((h) => h.id)).toEqual(['b']);
    index.add('c', v(-1, 0));
    expect([index.has('a'), index.has('c'), index.size]).toEqual([false, true, 2]);
    expect(index.search(v(-1, 0), 1)[0]?.id).toBe('c');
    index.dispose();
  });

  it('adding an existing id replaces its vector', async () => {
    const index = await createHnswVectorIndex({ dimension: 2 });
    index.add('a', v(1, 0));
    index.add('b', v(0.6, 0.8));
    index.add('a', v(0, 1));
    expect(index.size).toBe(2);
    expect(index.search(v(0, 1), 1)[0]).toEqual({ id: 'a', score: expect.closeTo(1, 6) });
    index.dispose();
  });

  it('a vector of another dimension is INVALID_INPUT naming vector', async () => {
    const index = await createHnswVectorIndex({ dimension: 3 });
    expect(() => index.add('a', v(1, 0))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'vector' }));
    index.dispose();
  });

  it('is CLOSED after dispose()', async () => {
    const index = await createHnswVectorIndex({ dimension: 2 });
    index.dispose();
    expect(() => index.search(v(1, 0), 1)).toThrow(expect.objectContaining({ code: 'CLOSED' }));
  });

  it('a bad option is INVALID_OPTION naming it', async () => {
    await expect(createHnswVectorIndex({ dimension: 2, efSearch: 0 })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'efSearch' });
  });

  it('leaves no window or indexedDB global behind in Node', async () => {
    await createHnswVectorIndex({ dimension: 2 });
    expect(['window' in globalThis, 'indexedDB' in globalThis]).toEqual([false, false]);
  });
});

describe('createVectorIndex', () => {
  it("'auto' builds HNSW where hnswlib-wasm loads", async () => {
    const index = await createVectorIndex('auto', 4);
    expect([index.kind, index.dimension]).toEqual(['hnsw', 4]);
    index.dispose();
  });

  it("'flat' builds the exact index", async () => {
    expect((await createVectorIndex('flat', 4)).kind).toBe('flat');
  });

  it('an unknown kind is INVALID_OPTION naming kind', async () => {
    await expect(createVectorIndex('annoy' as 'flat', 4)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'kind' });
  });
});
