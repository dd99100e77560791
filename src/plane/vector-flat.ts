/**
 * Exact vector index I^vec (eq. (5)) in pure TypeScript: runs everywhere (browser, worker,
 * workerd, Node). Rows are L2-normalised on the way in and stored contiguously in one growable
 * `Float32Array`; a search is one dot product per row (cosine, since rows are unit length) and a
 * bounded min-heap keeps the best `k`.
 *
 * @module
 */
import { invalidInput } from '../errors.js';
import type { IndexHit, VectorIndex } from './indexes.js';

/** Rows allocated by a fresh index before the first growth. */
const INITIAL_CAPACITY = 64;

/**
 * Checks that `vector` is a `Float32Array` (or number array) of length `dimension` with finite
 * entries, and returns a unit-length `Float32Array` copy (a zero vector stays zero, so its cosine
 * with anything is 0).
 *
 * @throws JevMemError `INVALID_INPUT` (field `vector`) on a wrong length or a non-finite entry.
 */
export function normalizedCopy(vector: ArrayLike<number>, dimension: number): Float32Array {
  if (vector === null || typeof vector !== 'object' || typeof vector.length !== 'number') {
    throw invalidInput('vector', `expected a Float32Array of length ${dimension}, got ${vector === null ? 'null' : typeof vector}`);
  }
  if (vector.length !== dimension) {
    throw invalidInput(
      'vector',
      `expected ${dimension} dimensions, got ${vector.length}; every vector of an index must come from the same encoder`,
    );
  }
  const out = new Float32Array(dimension);
  let norm2 = 0;
  for (let i = 0; i < dimension; i++) {
    const v = vector[i] as number;
    if (!Number.isFinite(v)) throw invalidInput('vector', `entry ${i} is ${v}; expected a finite number`);
    out[i] = v;
    norm2 += v * v;
  }
  if (norm2 > 0) {
    const inv = 1 / Math.sqrt(norm2);
    for (let i = 0; i < dimension; i++) out[i] = (out[i] as number) * inv;
  }
  return out;
}

/** Validates an index dimension. @throws JevMemError `INVALID_INPUT` (field `dimension`). */
export function checkDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension < 1) {
    throw invalidInput('dimension', `expected a positive integer, got ${dimension}`);
  }
}

/** Validates a result count. @throws JevMemError `INVALID_INPUT` (field `k`). */
export function checkK(k: number): void {
  if (!Number.isInteger(k) || k < 0) throw invalidInput('k', `expected a non-negative integer, got ${k}`);
}

/** True when hit `a` ranks below hit `b`: lower score, or equal score and a larger id. */
function worse(a: IndexHit, b: IndexHit): boolean {
  return a.score < b.score || (a.score === b.score && a.id > b.id);
}

/**
 * Keeps the best `k` of a stream of hits in a binary min-heap (the root is the worst kept hit),
 * O(n log k) for n offers. `sorted()` returns them best first (ties by id, ascending).
 */
export class TopK {
  readonly #k: number;
  readonly #heap: IndexHit[] = [];

  constructor(k: number) {
    this.#k = k;
  }

  /** Offers one hit; kept when it beats the worst kept hit or the heap is not full. */
  offer(id: string, score: number): void {
    const heap = this.#heap;
    if (this.#k === 0) return;
    if (heap.length < this.#k) {
      heap.push({ id, score });
      this.#up(heap.length - 1);
      return;
    }
    const root = heap[0] as IndexHit;
    if (!worse(root, { id, score })) return;
    heap[0] = { id, score };
    this.#down(0);
  }

  /** The kept hits, best first. */
  sorted(): IndexHit[] {
    return [...this.#heap].sort((a, b) => (worse(a, b) ? 1 : worse(b, a) ? -1 : 0));
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!worse(heap[i] as IndexHit, heap[parent] as IndexHit)) break;
      [heap[i], heap[parent]] = [heap[parent] as IndexHit, heap[i] as IndexHit];
      i = parent;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && worse(heap[l] as IndexHit, heap[m] as IndexHit)) m = l;
      if (r < n && worse(heap[r] as IndexHit, heap[m] as IndexHit)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m] as IndexHit, heap[i] as IndexHit];
      i = m;
    }
  }
}

class FlatVectorIndex implements VectorIndex {
  readonly kind = 'flat' as const;
  readonly dimension: number;
  /** Row-major storage: row r occupies [r·dim, (r+1)·dim). */
  #rows: Float32Array;
  /** Row → id. */
  #ids: string[] = [];
  /** Id → row. */
  readonly #rowOf = new Map<string, number>();

  constructor(dimension: number) {
    checkDimension(dimension);
    this.dimension = dimension;
    this.#rows = new Float32Array(INITIAL_CAPACITY * dimension);
  }

  get size(): number {
    return this.#ids.length;
  }

  add(id: string, vector: Float32Array): void {
    if (typeof id !== 'string' || id.length === 0) throw invalidInput('id', `expected a non-empty string, got ${JSON.stringify(id)}`);
    const unit = normalizedCopy(vector, this.dimension);
    let row = this.#rowOf.get(id);
    if (row === undefined) {
      row = this.#ids.length;
      if ((row + 1) * this.dimension > this.#rows.length) this.#grow();
      this.#ids.push(id);
      this.#rowOf.set(id, row);
    }
    this.#rows.set(unit, row * this.dimension);
  }

  remove(id: string): void {
    const row = this.#rowOf.get(id);
    if (row === undefined) return;
    const last = this.#ids.length - 1;
    const dim = this.dimension;
    if (row !== last) {
      // Swap-with-last keeps the rows contiguous.
      this.#rows.copyWithin(row * dim, last * dim, (last + 1) * dim);
      const movedId = this.#ids[last] as string;
      this.#ids[row] = movedId;
      this.#rowOf.set(movedId, row);
    }
    this.#ids.pop();
    this.#rowOf.delete(id);
  }

  has(id: string): boolean {
    return this.#rowOf.has(id);
  }

  search(vector: Float32Array, k: number): IndexHit[] {
    checkK(k);
    const q = normalizedCopy(vector, this.dimension);
    const top = new TopK(Math.min(k, this.#ids.length));
    const rows = this.#rows;
    const dim = this.dimension;
    const n = this.#ids.length;
    for (let r = 0; r < n; r++) {
      const base = r * dim;
      let dot = 0; // z = cos(q, v) = q·v for unit vectors
      for (let i = 0; i < dim; i++) dot += (q[i] as number) * (rows[base + i] as number);
      top.offer(this.#ids[r] as string, dot);
    }
    return top.sorted();
  }

  dispose(): void {
    this.#rows = new Float32Array(0);
    this.#ids = [];
    this.#rowOf.clear();
  }

  #grow(): void {
    const capacityRows = Math.max(INITIAL_CAPACITY, (this.#rows.length / this.dimension) * 2);
    const next = new Float32Array(capacityRows * this.dimension);
    next.set(this.#rows);
    this.#rows = next;
  }
}

/**
 * Creates an exact cosine index over vectors of `dimension` entries. Vectors are L2-normalised
 * on `add` and on `search` (a zero vector scores 0 against everything), so `score` = cosine
 * similarity in [-1, 1]. Search cost O(n·dimension + n log k); `add` amortised O(dimension);
 * `remove` O(dimension) (swap-with-last). Ties rank by id, ascending.
 *
 * @throws JevMemError `INVALID_INPUT` (field `dimension`) when `dimension` is not a positive
 *   integer; `add` / `search` throw `INVALID_INPUT` (field `vector`) on a vector of another
 *   length or with a non-finite entry, (field `id`) on an empty id and (field `k`) on a bad `k`.
 *
 * Source: SPEC 2 (pure-TypeScript vector index where hnswlib-wasm cannot run), eq. (5) I^vec.
 */
export function createFlatVectorIndex(dimension: number): VectorIndex {
  return new FlatVectorIndex(dimension);
}
