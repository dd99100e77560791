/**
 * Exact vector index I^vec (eq. (5)) in pure TypeScript: runs everywhere (browser, worker,
 * workerd, Node). Rows are L2-normalised on the way in. A unit vector on the int8 grid of
 * `vector-codec.ts` (every vector the memory stores, issue 13) is kept as d int8 entries plus a
 * float32 scale and a float32 norm in one growable slab (d + 8 bytes a row); any other vector as
 * d float32 entries. A search is one dot product per row (score = cosine of the stored vector,
 * exact) and a bounded min-heap keeps the best `k`. `serialize()` / {@link restoreFlatVectorIndex}
 * move the whole index as one byte array.
 *
 * @module
 */
import { invalidInput } from '../../errors.js';
import type { IndexHit, VectorIndex } from './indexes.js';
import { VECTOR_HEADER_BYTES, corruptVectorIndex, decodeIds, encodeIds, readVectorHeader, writeVectorHeader } from './vector-format.js';
import { TopK, checkDimension, checkK, gridForm, int8Dot, int8Norm, normalizedCopy } from './vector-math.js';

/** Rows allocated by a fresh index before the first growth. */
const INITIAL_CAPACITY = 64;

/** Smallest scale `addGridRow` takes its fast path for (far from float32's subnormals, where the error bound of `GRID_TOLERANCE` in vector-math.ts fails). */
const MIN_GRID_SCALE = 2 ** -100;

/** Copies `src` into a new typed array of the same kind with `length` entries. */
function grown<T extends Int8Array | Float32Array>(src: T, length: number): T {
  const next = new (src.constructor as new (n: number) => T)(length);
  next.set(src.subarray(0, Math.min(src.length, length)));
  return next;
}

/** Row numbers ≥ 0 are int8 rows; an f32 row r is kept in `#rowOf` as −1 − r. */
const f32Key = (row: number): number => -1 - row;

/**
 * The exact flat index. Rows on the int8 grid (every vector the memory stores, SPEC 4 / issue 13)
 * live in one int8 slab with a float32 scale and a float32 norm each (d + 8 bytes); any other row
 * (an encoder output never quantised, a hand-made vector) keeps its float32 unit vector (4d
 * bytes), so the index is exact for every input.
 */
class FlatVectorIndex implements FlatVectorIndexApi {
  readonly kind = 'flat' as const;
  readonly dimension: number;
  /** Int8 rows, row-major: row r occupies [r·dim, (r+1)·dim). */
  #q: Int8Array;
  /** Grid scale s of each int8 row: the stored unit vector is q·s. */
  #scale: Float32Array;
  /** ‖q‖ of each int8 row (0 for a zero vector). */
  #norm: Float32Array;
  /** Int8 row → id. */
  #qIds: string[] = [];
  /** Float32 unit rows, row-major (vectors off the grid). */
  #f32: Float32Array;
  /** Float32 row → id. */
  #fIds: string[] = [];
  /** Id → int8 row r (≥ 0) or float32 row r (stored as −1 − r). */
  readonly #rowOf = new Map<string, number>();
  /** Scratch grid row for `add`. */
  readonly #scratch: Int8Array;
  /** Scratch unit vector for `addGridRow`. */
  readonly #unit: Float32Array;

  constructor(dimension: number) {
    checkDimension(dimension);
    this.dimension = dimension;
    this.#q = new Int8Array(INITIAL_CAPACITY * dimension);
    this.#scale = new Float32Array(INITIAL_CAPACITY);
    this.#norm = new Float32Array(INITIAL_CAPACITY);
    this.#f32 = new Float32Array(0);
    this.#scratch = new Int8Array(dimension);
    this.#unit = new Float32Array(dimension);
  }

  get size(): number {
    return this.#rowOf.size;
  }

  /** Rows kept on the int8 grid and rows kept as float32 (for tests and the bench). */
  get layout(): { int8Rows: number; float32Rows: number } {
    return { int8Rows: this.#qIds.length, float32Rows: this.#fIds.length };
  }

  add(id: string, vector: Float32Array): void {
    if (typeof id !== 'string' || id.length === 0) throw invalidInput('id', `expected a non-empty string, got ${JSON.stringify(id)}`);
    this.#addUnit(id, normalizedCopy(vector, this.dimension));
  }

  addGridRow(id: string, q: Int8Array, at: number, scale: number): void {
    if (typeof id !== 'string' || id.length === 0) throw invalidInput('id', `expected a non-empty string, got ${JSON.stringify(id)}`);
    const dim = this.dimension;
    if (!(at >= 0 && at + dim <= q.length) || !Number.isFinite(scale)) throw invalidInput('vector', `expected ${dim} grid entries at ${at} of ${q.length} with a finite scale, got scale ${scale}`);
    // normalizedCopy's sum over the float32 entries v_i = q_i · scale, and the largest |q_i|.
    let norm2 = 0;
    let top = 0;
    for (let i = 0; i < dim; i++) {
      const k = q[at + i] as number;
      const v = Math.fround(k * scale);
      norm2 += v * v;
      if (k > top) top = k;
      else if (-k > top) top = -k;
    }
    if (top === 127 && scale >= MIN_GRID_SCALE) {
      // A row whose largest entry is ±127 (every row the directory quantises, vector-codec.ts) is
      // on the grid of its unit vector with the same q: gridForm's u_i / s' = q_i within
      // ~5·2⁻²⁴ relative, far inside half a step and GRID_TOLERANCE. Its scale s' is gridForm's:
      // fround(max|u_i| / 127), the largest |u_i| being that of an entry ±127.
      const uMax = Math.fround(Math.fround(127 * scale) * (1 / Math.sqrt(norm2)));
      this.remove(id);
      this.#pushInt8(id, q, Math.fround(uMax / 127), at);
      return;
    }
    const unit = this.#unit;
    for (let i = 0; i < dim; i++) unit[i] = (q[at + i] as number) * scale;
    if (norm2 > 0) {
      const inv = 1 / Math.sqrt(norm2);
      for (let i = 0; i < dim; i++) unit[i] = (unit[i] as number) * inv;
    }
    this.#addUnit(id, unit);
  }

  /** Files a unit vector (copied): on the int8 grid when it is on one, else as float32. */
  #addUnit(id: string, unit: Float32Array): void {
    const s = gridForm(unit, this.#scratch);
    this.remove(id);
    if (s !== undefined) this.#pushInt8(id, this.#scratch, s);
    else this.#pushF32(id, unit);
  }

  remove(id: string): void {
    const key = this.#rowOf.get(id);
    if (key === undefined) return;
    this.#rowOf.delete(id);
    const dim = this.dimension;
    if (key >= 0) {
      const last = this.#qIds.length - 1;
      if (key !== last) {
        // Swap-with-last keeps the slab contiguous.
        this.#q.copyWithin(key * dim, last * dim, (last + 1) * dim);
        this.#scale[key] = this.#scale[last] as number;
        this.#norm[key] = this.#norm[last] as number;
        const moved = this.#qIds[last] as string;
        this.#qIds[key] = moved;
        this.#rowOf.set(moved, key);
      }
      // Erasure (issue 22): the vacated last row keeps no copy of a vector.
      this.#q.fill(0, last * dim, (last + 1) * dim);
      this.#scale[last] = 0;
      this.#norm[last] = 0;
      this.#qIds.pop();
    } else {
      const row = f32Key(key);
      const last = this.#fIds.length - 1;
      if (row !== last) {
        this.#f32.copyWithin(row * dim, last * dim, (last + 1) * dim);
        const moved = this.#fIds[last] as string;
        this.#fIds[row] = moved;
        this.#rowOf.set(moved, f32Key(row));
      }
      this.#f32.fill(0, last * dim, (last + 1) * dim);
      this.#fIds.pop();
    }
  }

  has(id: string): boolean {
    return this.#rowOf.has(id);
  }

  gridRowOf(id: string): number {
    const key = this.#rowOf.get(id);
    return key === undefined || key < 0 ? -1 : key;
  }

  gridRowId(row: number): string | undefined {
    return this.#qIds[row];
  }

  vectorOf(id: string): Float32Array | undefined {
    const key = this.#rowOf.get(id);
    if (key === undefined) return undefined;
    const dim = this.dimension;
    if (key < 0) {
      const base = f32Key(key) * dim;
      return this.#f32.slice(base, base + dim);
    }
    const out = new Float32Array(dim);
    const s = this.#scale[key] as number;
    const base = key * dim;
    for (let i = 0; i < dim; i++) out[i] = (this.#q[base + i] as number) * s;
    return out;
  }

  search(vector: Float32Array, k: number): IndexHit[] {
    checkK(k);
    const q = normalizedCopy(vector, this.dimension);
    const top = new TopK(Math.min(k, this.size));
    const dim = this.dimension;
    const slab = this.#q;
    const norms = this.#norm;
    const nq = this.#qIds.length;
    for (let r = 0; r < nq; r++) {
      const dot = int8Dot(q, slab, r * dim, dim);
      const norm = norms[r] as number;
      // z = cos(q, q_r·s_r) = q·q_r / ‖q_r‖ (q unit; the scale cancels)
      top.offer(this.#qIds[r] as string, norm === 0 ? 0 : dot / norm);
    }
    const rows = this.#f32;
    const nf = this.#fIds.length;
    for (let r = 0; r < nf; r++) {
      const base = r * dim;
      let dot = 0; // z = cos(q, v) = q·v for unit vectors
      for (let i = 0; i < dim; i++) dot += (q[i] as number) * (rows[base + i] as number);
      top.offer(this.#fIds[r] as string, dot);
    }
    return top.sorted();
  }

  serialize(): Uint8Array {
    const dim = this.dimension;
    const nq = this.#qIds.length;
    const nf = this.#fIds.length;
    const ids = encodeIds([...this.#qIds, ...this.#fIds]);
    const total = FLAT_BODY_OFFSET + ids.length + 4 * nq + 4 * nf * dim + nq * dim;
    const out = new Uint8Array(total);
    const view = new DataView(out.buffer);
    writeVectorHeader(view, 'flat', dim);
    view.setUint32(VECTOR_HEADER_BYTES, nq, true);
    view.setUint32(VECTOR_HEADER_BYTES + 4, nf, true);
    view.setUint32(VECTOR_HEADER_BYTES + 8, ids.length, true);
    let at = FLAT_BODY_OFFSET;
    out.set(ids, at);
    at += ids.length;
    for (let r = 0; r < nq; r++, at += 4) view.setFloat32(at, this.#scale[r] as number, true);
    for (let i = 0; i < nf * dim; i++, at += 4) view.setFloat32(at, this.#f32[i] as number, true);
    out.set(new Uint8Array(this.#q.buffer, this.#q.byteOffset, nq * dim), at);
    return out;
  }

  /** Rebuilds the state {@link serialize} wrote (called on a fresh index). */
  load(bytes: Uint8Array): void {
    const dim = this.dimension;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.length < FLAT_BODY_OFFSET) throw corruptVectorIndex(`flat index of ${bytes.length} bytes, shorter than its ${FLAT_BODY_OFFSET}-byte head`);
    const nq = view.getUint32(VECTOR_HEADER_BYTES, true);
    const nf = view.getUint32(VECTOR_HEADER_BYTES + 4, true);
    const idBytes = view.getUint32(VECTOR_HEADER_BYTES + 8, true);
    const expected = FLAT_BODY_OFFSET + idBytes + 4 * nq + 4 * nf * dim + nq * dim;
    if (bytes.length !== expected) {
      throw corruptVectorIndex(`flat index of ${nq} int8 + ${nf} float32 rows of dimension ${dim} needs ${expected} bytes, got ${bytes.length}`);
    }
    let at = FLAT_BODY_OFFSET;
    const ids = decodeIds(bytes.subarray(at, at + idBytes), nq + nf);
    at += idBytes;
    const capacity = Math.max(INITIAL_CAPACITY, nq);
    this.#scale = new Float32Array(capacity);
    this.#norm = new Float32Array(capacity);
    for (let r = 0; r < nq; r++, at += 4) {
      const s = view.getFloat32(at, true);
      if (!(s >= 0 && Number.isFinite(s))) throw corruptVectorIndex(`int8 row ${r} has scale ${s}`);
      this.#scale[r] = s;
    }
    this.#f32 = new Float32Array(nf * dim);
    for (let i = 0; i < nf * dim; i++, at += 4) {
      const x = view.getFloat32(at, true);
      if (!Number.isFinite(x)) throw corruptVectorIndex(`float32 row ${Math.floor(i / dim)} holds ${x}`);
      this.#f32[i] = x;
    }
    this.#q = new Int8Array(capacity * dim);
    this.#q.set(new Int8Array(bytes.buffer, bytes.byteOffset + at, nq * dim));
    for (let r = 0; r < nq; r++) this.#norm[r] = int8Norm(this.#q, r, dim);
    this.#qIds = ids.slice(0, nq);
    this.#fIds = ids.slice(nq);
    this.#rowOf.clear();
    this.#qIds.forEach((id, r) => this.#rowOf.set(id, r));
    this.#fIds.forEach((id, r) => this.#rowOf.set(id, f32Key(r)));
  }

  dispose(): void {
    this.#q = new Int8Array(0);
    this.#scale = new Float32Array(0);
    this.#norm = new Float32Array(0);
    this.#f32 = new Float32Array(0);
    this.#qIds = [];
    this.#fIds = [];
    this.#rowOf.clear();
  }

  /** Appends int8 row `q[at .. at + d)` with scale `s`. */
  #pushInt8(id: string, q: Int8Array, s: number, at = 0): void {
    const dim = this.dimension;
    const row = this.#qIds.length;
    if (row >= this.#scale.length) {
      const capacity = Math.max(INITIAL_CAPACITY, this.#scale.length * 2);
      this.#q = grown(this.#q, capacity * dim);
      this.#scale = grown(this.#scale, capacity);
      this.#norm = grown(this.#norm, capacity);
    }
    this.#q.set(at === 0 && q.length === dim ? q : q.subarray(at, at + dim), row * dim);
    this.#scale[row] = s;
    this.#norm[row] = int8Norm(this.#q, row, dim);
    this.#qIds.push(id);
    this.#rowOf.set(id, row);
  }

  #pushF32(id: string, unit: Float32Array): void {
    const dim = this.dimension;
    const row = this.#fIds.length;
    if ((row + 1) * dim > this.#f32.length) this.#f32 = grown(this.#f32, Math.max(INITIAL_CAPACITY, (this.#f32.length / dim) * 2) * dim);
    this.#f32.set(unit, row * dim);
    this.#fIds.push(id);
    this.#rowOf.set(id, f32Key(row));
  }
}

/** Offset of the id list in a serialised flat index: header, then int8 rows, float32 rows, id bytes (uint32 LE each). */
const FLAT_BODY_OFFSET = VECTOR_HEADER_BYTES + 12;

/**
 * The flat index's handle: a {@link VectorIndex} whose `serialize` is synchronous and always
 * present, plus its storage layout.
 */
export interface FlatVectorIndexApi extends VectorIndex {
  readonly kind: 'flat';
  /** The whole index as bytes (see {@link restoreFlatVectorIndex} for the layout). */
  serialize(): Uint8Array;
  vectorOf(id: string): Float32Array | undefined;
  /** How many rows are kept on the int8 grid and how many as float32. */
  readonly layout: { int8Rows: number; float32Rows: number };
}

/**
 * Creates an exact cosine index over vectors of `dimension` entries. Vectors are L2-normalised
 * on `add` and on `search` (a zero vector scores 0 against everything), so `score` = cosine
 * similarity in [-1, 1]. A vector on the int8 grid of `vector-codec.ts` (as every stored memory
 * vector is) costs d + 8 bytes of slab (int8 entries, scale, norm); any other 4d bytes; the
 * scores are exact for both. Search cost O(n·dimension + n log k); `add` amortised O(dimension);
 * `remove` O(dimension) (swap-with-last). Ties rank by id, ascending.
 *
 * @throws JevMemError `INVALID_INPUT` (field `dimension`) when `dimension` is not a positive
 *   integer; `add` / `search` throw `INVALID_INPUT` (field `vector`) on a vector of another
 *   length or with a non-finite entry, (field `id`) on an empty id and (field `k`) on a bad `k`.
 *
 * Source: SPEC 2 (pure-TypeScript vector index where hnswlib-wasm cannot run), eq. (5) I^vec.
 */
export function createFlatVectorIndex(dimension: number): FlatVectorIndexApi {
  return new FlatVectorIndex(dimension);
}

/**
 * Restores a flat index from the bytes of its `serialize()`, without re-adding vectors: the id
 * list, int8 slab, scales and float32 rows are copied in and the int8 norms recomputed, so the
 * restored index answers every search exactly as the original did.
 *
 * Layout after the 12-byte header (`vector-format.ts`, kind 1, version 1), little-endian:
 * int8 row count n_q (uint32), float32 row count n_f (uint32), id bytes b (uint32); the ids as a
 * UTF-8 JSON array (b bytes: the n_q int8 rows' ids, then the n_f float32 rows'); n_q scales
 * (float32); n_f·d float32 entries; n_q·d int8 entries. Total 24 + b + 4·n_q + 4·n_f·d + n_q·d bytes.
 *
 * @throws JevMemError `STORAGE_FAILED` (field `bytes`) on bytes that are truncated, too long, of
 *   another kind, or hold a bad id list / non-finite number; `SCHEMA_MISMATCH` on a newer format
 *   version; `INVALID_INPUT` (field `bytes`) when `bytes` is not a `Uint8Array`.
 */
export function restoreFlatVectorIndex(bytes: Uint8Array): FlatVectorIndexApi {
  const header = readVectorHeader(bytes);
  if (header.kind !== 'flat') throw corruptVectorIndex(`expected a flat index, got a ${header.kind} index`);
  const index = new FlatVectorIndex(header.dimension);
  index.load(bytes);
  return index;
}
