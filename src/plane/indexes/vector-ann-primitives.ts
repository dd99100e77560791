/**
 * The two small primitives of the pure-TypeScript HNSW graph (`vector-ann-graph.ts`): the binary
 * min-heap of (distance, slot) pairs its candidate and result lists live in (two typed arrays, no
 * object per entry), and the mulberry32 generator its node levels are drawn from. Split out of
 * `vector-ann.ts` (issue 22: modules under 400 lines).
 *
 * @module
 */

/** Binary min-heap of (distance, slot) pairs on typed arrays (no object per entry). */
export class PairHeap {
  #keys = new Float64Array(64);
  #vals = new Int32Array(64);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  push(key: number, val: number): void {
    if (this.size === this.#keys.length) {
      const k = new Float64Array(this.size * 2);
      k.set(this.#keys);
      this.#keys = k;
      const v = new Int32Array(this.size * 2);
      v.set(this.#vals);
      this.#vals = v;
    }
    const keys = this.#keys;
    const vals = this.#vals;
    let i = this.size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pk = keys[p] as number;
      if (pk <= key) break;
      keys[i] = pk;
      vals[i] = vals[p] as number;
      i = p;
    }
    keys[i] = key;
    vals[i] = val;
  }

  topKey(): number {
    return this.#keys[0] as number;
  }

  topVal(): number {
    return this.#vals[0] as number;
  }

  /** Removes the smallest entry (read it with topKey / topVal first). */
  pop(): void {
    const keys = this.#keys;
    const vals = this.#vals;
    const n = --this.size;
    if (n === 0) return;
    const key = keys[n] as number;
    const val = vals[n] as number;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      const c = r < n && (keys[r] as number) < (keys[l] as number) ? r : l;
      if ((keys[c] as number) >= key) break;
      keys[i] = keys[c] as number;
      vals[i] = vals[c] as number;
      i = c;
    }
    keys[i] = key;
    vals[i] = val;
  }
}

/** One mulberry32 step: the next state and a uniform number in [0, 1). */
export function mulberry32(state: number): { state: number; u: number } {
  const a = (state + 0x6d2b79f5) >>> 0;
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { state: a, u: ((t ^ (t >>> 14)) >>> 0) / 4294967296 };
}
