import { describe, expect, it, vi } from 'vitest';

// As in Cloudflare Workers, where compiling the inlined wasm at run time is not allowed.
vi.mock('hnswlib-wasm/dist/hnswlib.js', () => ({
  loadHnswlib: () => Promise.reject(new Error('WebAssembly.instantiate(): Wasm code generation disallowed by embedder')),
}));

const { createVectorIndex } = await import('../../src/plane/indexes/vector-hnsw.js');

describe('createVectorIndex when hnswlib-wasm cannot load', () => {
  it("'auto' falls back to the flat index", async () => {
    const index = await createVectorIndex('auto', 4);
    expect(index.kind).toBe('flat');
  });

  it("'hnsw' fails with MODEL_LOAD_FAILED", async () => {
    await expect(createVectorIndex('hnsw', 4)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
  });
});
