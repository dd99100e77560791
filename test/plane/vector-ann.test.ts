/**
 * The pure-TypeScript HNSW index (`vector-ann.ts`, issue 25): recall against the exact index on
 * 20,000 random and 20,000 clustered vectors of dimension 100, deterministic construction,
 * insert / remove / restore round trips, erasure of removed vectors from the serialised bytes,
 * and its errors.
 */
import { describe, expect, it } from 'vitest';
import { createAnnVectorIndex, restoreAnnVectorIndex, type AnnVectorIndex } from '../../src/plane/indexes/vector-ann.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { restoreVectorIndex } from '../../src/plane/indexes/vector-factory.js';
import { cosine, prng, randomUnit } from './vectors.js';

const D = 100;
const onGrid = (x: Float32Array): Float32Array => Float32Array.from(quantizeVector(x));

/**
 * A source of unit vectors around `centres` random centres: each draw picks a centre, adds
 * uniform ±0.08 noise to each entry (noise norm ≈ 0.46), then normalises.
 */
function clustered(random: () => number, centres: number): (count: number) => Float32Array[] {
  const cs = Array.from({ length: centres }, () => randomUnit(random, D));
  return (count) =>
    Array.from({ length: count }, () => {
      const c = cs[Math.floor(random() * centres)]!;
      return randomUnitOf(Float32Array.from(c, (x) => x + (random() * 2 - 1) * 0.08));
    });
}

function randomUnitOf(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  return v.map((x) => x / Math.sqrt(n));
}

/**
 * recall@10 of `index` against the exact top 10 by cosine over the same stored vectors (the flat
 * index, exact: `vector-flat.test.ts`), averaged over `queries`.
 */
function recallAt10(vectors: Float32Array[], queries: Float32Array[], search: (q: Float32Array) => string[]): number {
  const exact = createFlatVectorIndex(D);
  vectors.forEach((v, i) => exact.add(`n${i}`, v));
  let hits = 0;
  for (const q of queries) {
    const truth = new Set(exact.search(q, 10).map((h) => h.id));
    hits += search(q).filter((id) => truth.has(id)).length;
  }
  return hits / (10 * queries.length);
}

describe('ann vector index: recall@10 against exact search (20,000 vectors, d = 100)', () => {
  it('clustered vectors (100 clusters), default efSearch 64: recall ≥ 0.95', () => {
    const random = prng(2501);
    const draw = clustered(random, 100);
    const vectors = draw(20_000).map(onGrid);
    const queries = draw(200); // from the same clusters, not stored
    const index = createAnnVectorIndex({ dimension: D });
    vectors.forEach((v, i) => index.add(`n${i}`, v));
    const recall = recallAt10(vectors, queries, (q) => index.search(q, 10).map((h) => h.id));
    console.log(`ann recall@10, 20k clustered, ef 64: ${recall}`);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  }, 600_000);

  it('uniform random vectors (the hardest case: no structure), ef 400: recall ≥ 0.95; ef 64 is lower', () => {
    const random = prng(2502);
    const vectors = Array.from({ length: 20_000 }, () => onGrid(randomUnit(random, D)));
    const queries = Array.from({ length: 200 }, () => randomUnit(random, D));
    const index = createAnnVectorIndex({ dimension: D });
    vectors.forEach((v, i) => index.add(`n${i}`, v));
    const wide = recallAt10(vectors, queries, (q) => index.search(q, 10, 400).map((h) => h.id));
    const narrow = recallAt10(vectors, queries, (q) => index.search(q, 10).map((h) => h.id));
    console.log(`ann recall@10, 20k uniform random: ef 400 ${wide}, ef 64 ${narrow}`);
    expect(wide).toBeGreaterThanOrEqual(0.95);
    expect(narrow).toBeLessThan(wide);
  }, 600_000);
});

/** A small index of `n` grid vectors `n0…`, seeded. */
function small(n: number, seed = 7, options: { seed?: number } = {}): { index: AnnVectorIndex; vectors: Float32Array[] } {
  const random = prng(seed);
  const vectors = Array.from({ length: n }, () => onGrid(randomUnit(random, 16)));
  const index = createAnnVectorIndex({ dimension: 16, ...options });
  vectors.forEach((v, i) => index.add(`n${i}`, v));
  return { index, vectors };
}

describe('ann vector index: behaviour', () => {
  it('scores are the cosine with the stored vector, best first', () => {
    const { index, vectors } = small(300);
    const q = randomUnit(prng(1), 16);
    const hits = index.search(q, 5);
    expect(hits).toHaveLength(5);
    for (const h of hits) expect(h.score).toBeCloseTo(cosine(q, vectors[Number(h.id.slice(1))]!), 5);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1]!.score).toBeGreaterThanOrEqual(hits[i]!.score);
    // With 300 vectors and efSearch 64 ≥ k the graph search finds the exact top 5.
    const exact = vectors.map((v, i) => ({ id: `n${i}`, s: cosine(q, v) })).sort((a, b) => b.s - a.s);
    expect(hits.map((h) => h.id)).toEqual(exact.slice(0, 5).map((e) => e.id));
  });

  it('keeps vectors off the int8 grid as float32 and scores them exactly', () => {
    const index = createAnnVectorIndex({ dimension: 3 });
    index.add('a', Float32Array.from([1, 0.3333, 0]));
    index.add('b', Float32Array.from([0, 1, 0]));
    const [first] = index.search(Float32Array.from([1, 0, 0]), 1);
    expect(first?.id).toBe('a');
    expect(first?.score).toBeCloseTo(1 / Math.hypot(1, 0.3333), 6);
    expect(Array.from(index.vectorOf('a')!)).toEqual(Array.from(Float32Array.from([1 / Math.hypot(1, 0.3333), 0.3333 / Math.hypot(1, 0.3333), 0])));
  });

  it('remove: the id is never returned again, the rest is still found, the slot is reused', () => {
    const { index, vectors } = small(500);
    for (let i = 0; i < 500; i += 2) index.remove(`n${i}`);
    expect(index.size).toBe(250);
    expect(index.has('n0')).toBe(false);
    expect(index.vectorOf('n0')).toBeUndefined();
    // Each odd vector is still its own nearest neighbour.
    let self = 0;
    for (let i = 1; i < 500; i += 2) if (index.search(vectors[i]!, 1)[0]?.id === `n${i}`) self++;
    expect(self).toBe(250);
    expect(index.search(vectors[0]!, 250).some((h) => Number(h.id.slice(1)) % 2 === 0)).toBe(false);
    const slots = index.state.slots;
    index.add('fresh', vectors[0]!);
    expect(index.state.slots).toBe(slots); // into a freed slot
    expect(index.search(vectors[0]!, 1)[0]?.id).toBe('fresh');
  });

  it('removing everything (the entry point included) leaves an empty index that takes new vectors', () => {
    const { index, vectors } = small(100);
    for (let i = 0; i < 100; i++) index.remove(`n${i}`);
    expect(index.size).toBe(0);
    expect(index.search(vectors[0]!, 5)).toEqual([]);
    index.add('x', vectors[3]!);
    expect(index.search(vectors[3]!, 5).map((h) => h.id)).toEqual(['x']);
  });

  it('adding an existing id replaces its vector', () => {
    const { index, vectors } = small(50);
    index.add('n1', vectors[2]!);
    expect(index.size).toBe(50);
    expect(Array.from(index.vectorOf('n1')!)).toEqual(Array.from(index.vectorOf('n2')!));
  });

  it('construction is deterministic: the same calls give the same bytes; another seed another graph', () => {
    const a = small(400, 9);
    const b = small(400, 9);
    for (const x of [a, b]) for (let i = 0; i < 400; i += 7) x.index.remove(`n${i}`);
    expect(Buffer.from(a.index.serialize()).equals(Buffer.from(b.index.serialize()))).toBe(true);
    const c = small(400, 9, { seed: 12345 });
    for (let i = 0; i < 400; i += 7) c.index.remove(`n${i}`);
    expect(Buffer.from(c.index.serialize()).equals(Buffer.from(a.index.serialize()))).toBe(false);
  });

  it('restore round trip: same answers, and the restored index goes on building the same graph', () => {
    const { index } = small(700);
    index.add('odd', Float32Array.from({ length: 16 }, (_, i) => (i === 0 ? 1 : i === 1 ? 0.3333 : 0))); // a float32 row
    for (let i = 0; i < 700; i += 3) index.remove(`n${i}`);
    const bytes = index.serialize();
    const back = restoreAnnVectorIndex(bytes);
    expect(back.kind).toBe('ann');
    expect(back.size).toBe(index.size);
    expect(Buffer.from(back.serialize()).equals(Buffer.from(bytes))).toBe(true);
    const random = prng(99);
    for (let t = 0; t < 30; t++) {
      const q = randomUnit(random, 16);
      expect(back.search(q, 10)).toEqual(index.search(q, 10));
    }
    expect(Array.from(back.vectorOf('odd')!)).toEqual(Array.from(index.vectorOf('odd')!));
    // Same further calls on both: same bytes (the level generator's state travelled too).
    for (const x of [index, back]) {
      const r = prng(5);
      for (let i = 0; i < 200; i++) x.add(`m${i}`, onGrid(randomUnit(r, 16)));
      x.remove('n1');
    }
    expect(Buffer.from(back.serialize()).equals(Buffer.from(index.serialize()))).toBe(true);
  });

  it('restoreVectorIndex dispatches on the kind byte (flat and ann checkpoints both open)', async () => {
    const { index } = small(20);
    const flat = createFlatVectorIndex(16);
    flat.add('a', Float32Array.from({ length: 16 }, (_, i) => i));
    expect((await restoreVectorIndex(index.serialize())).kind).toBe('ann');
    expect((await restoreVectorIndex(flat.serialize())).kind).toBe('flat');
  });
});

/** Where `needle` occurs in `hay` (−1 when nowhere). */
function indexOfBytes(hay: Uint8Array, needle: Uint8Array): number {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

describe('ann vector index: erasure (issue 22)', () => {
  it('a removed vector leaves no byte in the serialised index: int8 row, float32 row, id', () => {
    const { index } = small(200);
    const secret = onGrid(randomUnit(prng(4242), 16));
    const offGrid = Float32Array.from({ length: 16 }, (_, i) => Math.sin(i + 0.5) / 2.9);
    index.add('secret-grid', secret);
    index.add('secret-f32', offGrid);
    const slot = index.state.ids.indexOf('secret-grid');
    const int8 = new Uint8Array(index.state.q.slice(slot * 16, slot * 16 + 16).buffer);
    expect(new Int8Array(int8.buffer).some((x) => x !== 0)).toBe(true);
    const f32 = new Uint8Array(index.vectorOf('secret-f32')!.buffer);
    const ids = [new TextEncoder().encode('secret-grid'), new TextEncoder().encode('secret-f32')];
    const before = index.serialize();
    // The scan sees them while they are stored (else this test could not fail).
    for (const needle of [int8, f32, ...ids]) expect(indexOfBytes(before, needle)).toBeGreaterThanOrEqual(0);
    index.remove('secret-grid');
    index.remove('secret-f32');
    const after = index.serialize();
    for (const needle of [int8, f32, ...ids]) expect(indexOfBytes(after, needle)).toBe(-1);
    // And in the index's memory: the freed slots hold zeros.
    const s = index.state;
    for (const slot of s.free) {
      expect(s.q.subarray(slot * 16, slot * 16 + 16).every((x) => x === 0)).toBe(true);
      expect(s.scale[slot]).toBe(0);
      expect(s.f32.has(slot)).toBe(false);
    }
  });
});

describe('ann vector index: errors', () => {
  it('bad arguments name their field', () => {
    const index = createAnnVectorIndex({ dimension: 2 });
    expect(() => index.add('a', Float32Array.from([1, 0, 0]))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'vector' }));
    expect(() => index.add('', Float32Array.from([1, 0]))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'id' }));
    expect(() => index.search(Float32Array.from([1, 0]), -1)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'k' }));
    expect(() => index.search(Float32Array.from([1, 0]), 1, 0)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'ef' }));
    expect(() => createAnnVectorIndex({ dimension: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'dimension' }));
    expect(() => createAnnVectorIndex({ dimension: 2, m: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'm' }));
    expect(() => createAnnVectorIndex({ dimension: 2, efSearch: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', field: 'efSearch' }));
    index.dispose();
    expect(() => index.search(Float32Array.from([1, 0]), 1)).toThrow(expect.objectContaining({ code: 'CLOSED' }));
  });

  it('corrupt or foreign bytes fail with STORAGE_FAILED / SCHEMA_MISMATCH', () => {
    const { index } = small(30);
    const bytes = index.serialize();
    expect(() => restoreAnnVectorIndex(bytes.subarray(0, bytes.length - 1))).toThrow(expect.objectContaining({ code: 'STORAGE_FAILED', field: 'bytes' }));
    const newer = bytes.slice();
    newer[5] = 2;
    expect(() => restoreAnnVectorIndex(newer)).toThrow(expect.objectContaining({ code: 'SCHEMA_MISMATCH' }));
    const flat = createFlatVectorIndex(16).serialize();
    expect(() => restoreAnnVectorIndex(flat)).toThrow(expect.objectContaining({ code: 'STORAGE_FAILED', message: expect.stringMatching(/expected an ann index/) }));
    // A link to a slot that does not exist (the last word of the link list).
    const badLink = bytes.slice();
    new DataView(badLink.buffer).setUint32(badLink.length - 4, 1_000_000, true);
    expect(() => restoreAnnVectorIndex(badLink)).toThrow(expect.objectContaining({ code: 'STORAGE_FAILED' }));
  });
});
