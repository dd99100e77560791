/**
 * The arithmetic every vector index shares (flat, pure-TypeScript HNSW, hnswlib-wasm): input
 * checks (`vector`, `dimension`, `k`), the unit-length copy every index files and queries with,
 * the int8 grid form of a unit vector (the grid of `vector-codec.ts`) with its dot product and
 * norm, and the bounded top-k heap of the exact scan. Split out of `vector-flat.ts` (issue 22:
 * modules under 400 lines); the behaviour is the same.
 *
 * @module
 */
import { invalidInput } from '../../errors.js';
import type { IndexHit } from './indexes.js';
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
    // worse(root, {id, score}) inlined: no object per rejected hit (a scan offers every row)
    if (!(root.score < score || (root.score === score && root.id > id))) return;
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

/**
 * Largest distance, relative to max|x_i|, at which an entry still counts as on the int8 grid
 * (2⁻²⁰ ≈ 9.5·10⁻⁷). A vector put on the grid by `quantizeVector` and then L2-normalised in
 * float32 stays within ~3·10⁻⁷ of the scaled grid; an entry off the grid is typically ~10⁻³ away
 * (half a step is max/254 ≈ 3.9·10⁻³).
 */
const GRID_TOLERANCE = 2 ** -20;


/**
 * The int8 grid form (q, s) of a unit vector: s = fround(max|u_i| / 127), q_i = round(u_i / s),
 * as in `vector-codec.ts`; or `undefined` when `unit` is not on such a grid (within
 * {@link GRID_TOLERANCE}). A zero vector is on the grid with s = 0.
 */
export function gridForm(unit: Float32Array, q: Int8Array): number | undefined {
  let max = 0;
  for (let i = 0; i < unit.length; i++) max = Math.max(max, Math.abs(unit[i] as number));
  if (max === 0) {
    q.fill(0);
    return 0;
  }
  const s = Math.fround(max / 127);
  const tolerance = GRID_TOLERANCE * max;
  for (let i = 0; i < unit.length; i++) {
    const x = unit[i] as number;
    const k = Math.round(x / s);
    if (k < -127 || k > 127 || Math.abs(k * s - x) > tolerance) return undefined;
    q[i] = k;
  }
  return s;
}

/**
 * q · slab[base .. base + dim): the dot product of a float query with one int8 row (unrolled by
 * four), shared by the exact scan and the ANN index's distance.
 */
export function int8Dot(q: Float32Array, slab: Int8Array, base: number, dim: number): number {
  let dot = 0;
  let i = 0;
  for (; i + 3 < dim; i += 4) {
    dot +=
      (q[i] as number) * (slab[base + i] as number) +
      (q[i + 1] as number) * (slab[base + i + 1] as number) +
      (q[i + 2] as number) * (slab[base + i + 2] as number) +
      (q[i + 3] as number) * (slab[base + i + 3] as number);
  }
  for (; i < dim; i++) dot += (q[i] as number) * (slab[base + i] as number);
  return dot;
}

/** Euclidean norm of row `row` of an int8 slab (exact integer sum, then one sqrt). */
export function int8Norm(slab: Int8Array, row: number, dim: number): number {
  let sum = 0;
  const base = row * dim;
  for (let i = 0; i < dim; i++) {
    const v = slab[base + i] as number;
    sum += v * v;
  }
  return Math.sqrt(sum);
}
