import { describe, expect, it, vi } from 'vitest';

// As in Cloudflare Workers, where compiling the inlined wasm at run time is not allowed.
vi.mock('hnswlib-wasm/dist/hnswlib.js', () => ({
  loadHnswlib: () => Promise.reject(new Error('WebAssembly.instantiate(): Wasm code generation disallowed by embedder')),
}));

const { createVectorIndex } = await import('../../src/plane/indexes/vector-factory.js');

describe('createVectorIndex when hnswlib-wasm cannot load', () => {
  it("'auto' builds the pure-TypeScript HNSW, which needs no WebAssembly (issue 25)", async () => {
    const index = await createVectorIndex('auto', 4);
    expect(index.kind).toBe('ann');
    index.add('a', Float32Array.from([1, 0, 0, 0]));
    expect(index.search(Float32Array.from([1, 0, 0, 0]), 1)).toEqual([{ id: 'a', score: expect.closeTo(1, 6) }]);
  });

  it("'hnsw' fails with MODEL_LOAD_FAILED", async () => {
    await expect(createVectorIndex('hnsw', 4)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
  });
});
