import { describe, expect, it } from 'vitest';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { createVectorIndex, restoreVectorIndex } from '../../src/plane/indexes/vector-factory.js';
import { createHnswVectorIndex, restoreHnswVectorIndex } from '../../src/plane/indexes/vector-hnsw.js';
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
  it("'hnsw' builds hnswlib-wasm's HNSW; 'auto' and 'ann' the pure-TypeScript one, even where hnswlib-wasm loads (issue 25: one index everywhere)", async () => {
    const hnsw = await createVectorIndex('hnsw', 4);
    expect([hnsw.kind, hnsw.dimension]).toEqual(['hnsw', 4]);
    hnsw.dispose();
    for (const kind of ['auto', 'ann'] as const) {
      const index = await createVectorIndex(kind, 4);
      expect([index.kind, index.dimension]).toEqual(['ann', 4]);
      index.dispose();
    }
  });

  it("'flat' builds the exact index", async () => {
    expect((await createVectorIndex('flat', 4)).kind).toBe('flat');
  });

  it('an unknown kind is INVALID_OPTION naming kind', async () => {
    await expect(createVectorIndex('annoy' as 'flat', 4)).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'kind' });
  });
});

/** Keys left in hnswlib-wasm's IDBFS store (fake-indexeddb in Node). */
async function idbfsKeys(): Promise<IDBValidKey[]> {
  const { indexedDB } = await import('fake-indexeddb');
  return new Promise((resolve, reject) => {
    const open = indexedDB.open('/hnswlib-index');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction('FILE_DATA', 'readonly').objectStore('FILE_DATA').getAllKeys();
      request.onsuccess = () => {
        open.result.close();
        resolve(request.result);
      };
    };
  });
}

describe('HNSW serialize / restore', () => {
  it('the restored index answers every query exactly like the original, then takes adds and removes', async () => {
    const dim = 16;
    const random = prng(5);
    const index = await createHnswVectorIndex({ dimension: dim, maxElements: 64 });
    for (let i = 0; i < 400; i++) index.add(`id-${i}`, randomUnit(random, dim));
    for (let i = 0; i < 400; i += 9) index.remove(`id-${i}`); // 45 free slots, in the file as deletion marks
    index.add('id-0', randomUnit(random, dim)); // re-added under a reused slot
    const bytes = await index.serialize!();
    const restored = await restoreHnswVectorIndex(bytes);
    expect([restored.kind, restored.dimension, restored.size]).toEqual(['hnsw', dim, index.size]);
    for (let q = 0; q < 100; q++) {
      const query = randomUnit(random, dim);
      expect(restored.search(query, 10)).toEqual(index.search(query, 10));
    }
    expect(restored.vectorOf('id-1')).toEqual(index.vectorOf('id-1'));
    expect(await idbfsKeys()).toEqual([]); // the file went through IDBFS and was removed from it
    expect([restored.has('id-9'), restored.has('id-0')]).toEqual([false, true]);

    const e0 = Float32Array.from({ length: dim }, (_, i) => (i === 0 ? 1 : 0));
    restored.remove('id-1');
    for (let i = 0; i < 100; i++) restored.add(`new-${i}`, randomUnit(random, dim)); // fills the free slots, then grows
    restored.add('axis', e0);
    expect(restored.size).toBe(index.size + 100);
    expect(restored.search(e0, 1)[0]).toEqual({ id: 'axis', score: expect.closeTo(1, 6) });
    expect(restored.search(index.vectorOf('id-1')!, 5).map((h) => h.id)).not.toContain('id-1');
    index.dispose();
    restored.dispose();
  });

  it('vectorOf returns the stored unit vector', async () => {
    const index = await createHnswVectorIndex({ dimension: 2 });
    index.add('c', v(3, 4));
    expect(Array.from(index.vectorOf('c')!)).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    expect(index.vectorOf('x')).toBeUndefined();
    index.dispose();
  });

  it('restoreVectorIndex dispatches on the header kind', async () => {
    const flat = createFlatVectorIndex(3);
    flat.add('a', v(1, 0, 0));
    const hnsw = await createHnswVectorIndex({ dimension: 3 });
    hnsw.add('a', v(1, 0, 0));
    const a = await restoreVectorIndex(flat.serialize());
    const b = await restoreVectorIndex(await hnsw.serialize!());
    expect([a.kind, b.kind, a.search(v(1, 0, 0), 1)[0]?.id, b.search(v(1, 0, 0), 1)[0]?.id]).toEqual(['flat', 'hnsw', 'a', 'a']);
    hnsw.dispose();
    b.dispose();
  });

  it('corrupt bytes are STORAGE_FAILED naming what was wrong', async () => {
    const index = await createHnswVectorIndex({ dimension: 4 });
    const random = prng(1);
    for (let i = 0; i < 20; i++) index.add(`n${i}`, randomUnit(random, 4));
    const good = await index.serialize!();
    index.dispose();
    const fileAt = good.length - (new DataView(good.buffer).getUint32(12 + 24, true));
    const broken = good.slice();
    broken.fill(0xff, fileAt, fileAt + 64); // hnswlib's file header: offsets and counts
    await expect(restoreHnswVectorIndex(broken)).rejects.toMatchObject({ code: 'STORAGE_FAILED', field: 'bytes', message: expect.stringMatching(/hnswlib|slots|dimension/) });
    await expect(restoreHnswVectorIndex(good.subarray(0, good.length - 3))).rejects.toMatchObject({ code: 'STORAGE_FAILED', message: expect.stringMatching(/needs \d+ bytes, got \d+/) });
    const otherDim = good.slice();
    otherDim[8] = 5;
    await expect(restoreHnswVectorIndex(otherDim)).rejects.toMatchObject({ code: 'STORAGE_FAILED', message: expect.stringMatching(/dimension/) });
    await expect(restoreHnswVectorIndex(createFlatVectorIndex(4).serialize())).rejects.toMatchObject({ code: 'STORAGE_FAILED', message: expect.stringMatching(/expected an hnsw index, got a flat index/) });
    // a good blob still restores after the failures (no file left behind in the way)
    expect((await restoreHnswVectorIndex(good)).size).toBe(20);
  });
});

describe('HNSW erasure (issue 22)', () => {
  it('a removed vector is in no byte of serialize(): its point is zeroed before markDelete', async () => {
    const dim = 16;
    const random = prng(7);
    const index = await createHnswVectorIndex({ dimension: dim });
    for (let i = 0; i < 5; i++) index.add(`n${i}`, randomUnit(random, dim));
    const secret = randomUnit(random, dim);
    index.add('secret', secret);
    const needle = Buffer.from(secret.buffer.slice(16, 48)); // 8 of its float32 components
    expect(Buffer.from(await index.serialize()).includes(needle)).toBe(true);
    index.remove('secret');
    expect(Buffer.from(await index.serialize()).includes(needle)).toBe(false);
    expect(index.search(secret, 5).map((h) => h.id)).not.toContain('secret');
    // The freed slot is reused by the next vector, which is found.
    const next = randomUnit(random, dim);
    index.add('next', next);
    expect(index.search(next, 1)[0]?.id).toBe('next');
    index.dispose();
  });
});
