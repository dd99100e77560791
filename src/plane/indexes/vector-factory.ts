/**
 * The public factory of the vector indexes I^vec (eq. (5)): build one by kind
 * ({@link createVectorIndex}) or restore any kind from its bytes ({@link restoreVectorIndex}).
 * The kinds: exact `flat` (`vector-flat.ts`), pure-TypeScript HNSW `ann` (`vector-ann.ts`),
 * hnswlib-wasm `hnsw` (`vector-hnsw.ts`). Split out of `vector-hnsw.ts` (issue 22: modules under
 * 400 lines); the behaviour is the same.
 *
 * @module
 */
import { invalidOption } from '../../errors.js';
import type { VectorIndex } from './indexes.js';
import { createAnnVectorIndex, restoreAnnVectorIndex } from './vector-ann.js';
import { createFlatVectorIndex, restoreFlatVectorIndex } from './vector-flat.js';
import { readVectorHeader } from './vector-format.js';
import { createHnswVectorIndex, restoreHnswVectorIndex } from './vector-hnsw.js';
import { checkDimension } from './vector-math.js';

/** Which vector index {@link createVectorIndex} should build. */
export type VectorIndexKind = 'flat' | 'hnsw' | 'ann' | 'auto';

/**
 * Creates a vector index of `dimension`: `'flat'` → exact ({@link createFlatVectorIndex});
 * `'hnsw'` → hnswlib-wasm ({@link createHnswVectorIndex} with its defaults); `'ann'` and
 * `'auto'` → the pure-TypeScript HNSW ({@link createAnnVectorIndex} with its defaults), which
 * every runtime reaches (bundled pages, Cloudflare Workers, Node) and which measures as fast as
 * hnswlib-wasm in Node (`bench/vector/ann-bench.ts`, issue 25). The returned index's `kind` says
 * which one was built.
 *
 * @throws JevMemError `INVALID_OPTION` (field `kind`) on an unknown kind, `INVALID_INPUT`
 *   (field `dimension`) on a bad dimension, `MODEL_LOAD_FAILED` for `'hnsw'` when hnswlib-wasm
 *   cannot load.
 */
export async function createVectorIndex(kind: VectorIndexKind, dimension: number): Promise<VectorIndex> {
  checkDimension(dimension);
  switch (kind) {
    case 'flat':
      return createFlatVectorIndex(dimension);
    case 'hnsw':
      return createHnswVectorIndex({ dimension });
    case 'ann':
    case 'auto':
      return createAnnVectorIndex({ dimension });
    default:
      throw invalidOption('kind', `expected 'flat', 'hnsw', 'ann' or 'auto', got ${JSON.stringify(kind)}`);
  }
}

/**
 * Restores a vector index of any kind from the bytes of its `serialize()`, dispatching on the
 * header's kind byte: flat → {@link restoreFlatVectorIndex}, hnsw → {@link restoreHnswVectorIndex},
 * ann → {@link restoreAnnVectorIndex}. The returned index's `kind` and `dimension` are the
 * serialised one's (compare `dimension` with the encoder's before use).
 *
 * @throws JevMemError `STORAGE_FAILED` (field `bytes`) on corrupt bytes, `SCHEMA_MISMATCH` on a
 *   newer format version, `INVALID_INPUT` (field `bytes`) on a non-`Uint8Array`, and for an HNSW
 *   blob `MODEL_LOAD_FAILED` where hnswlib-wasm cannot load (e.g. Cloudflare Workers: rebuild
 *   there).
 */
export async function restoreVectorIndex(bytes: Uint8Array): Promise<VectorIndex> {
  const { kind } = readVectorHeader(bytes);
  return kind === 'flat' ? restoreFlatVectorIndex(bytes) : kind === 'ann' ? restoreAnnVectorIndex(bytes) : restoreHnswVectorIndex(bytes);
}
