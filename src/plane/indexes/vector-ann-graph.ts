/**
 * The graph of the pure-TypeScript HNSW index (`vector-ann.ts`, which maps ids to slots, checks
 * arguments and serialises; split out of it, issue 22): each slot's vector (int8 grid entries with
 * scale and 1/‖q‖, or float32), the distance 1 − cos to it, Malkov & Yashunin's (2018) algorithms
 * 1-4 and the repair of the links around a removed slot. Levels come from the seeded generator
 * whose state is `AnnState.rng`, so the same calls build the same graph across a checkpoint.
 *
 * @module
 */
import type { AnnState } from './vector-ann-format.js';
import { PairHeap, mulberry32 } from './vector-ann-primitives.js';
import { gridForm, int8Dot, int8Norm } from './vector-math.js';

/** Slots allocated by a fresh index before the first growth. */
export const INITIAL_CAPACITY = 64;
/** Highest level a node may get (the expected top level of 10⁹ nodes at M = 2 is ~30). */
export const ANN_MAX_LEVEL = 31;

/** The HNSW graph over the slots of one {@link AnnState} (see the module comment). */
export class AnnGraph {
  readonly dimension: number;
  readonly m: number;
  readonly efConstruction: number;
  /** Level-0 link capacity, 2M. */
  readonly #m0: number;
  /** Level multiplier 1 / ln M. */
  readonly #mL: number;
  #s: AnnState;
  /** 1/‖q‖ of each int8 slot (0 for a zero, free or float32 slot). */
  #invNorm: Float32Array;
  /** 1 for a slot kept as float32. */
  #offGrid: Uint8Array;
  #visited: Uint32Array;
  #visitTag = 0;
  readonly #candidates = new PairHeap();
  /** Max-heap of the current results (keys negated). */
  readonly #results = new PairHeap();
  readonly #scratchA: Float32Array;
  readonly #scratchB: Float32Array;
  readonly #grid: Int8Array;

  /** Wraps a state (fresh, or read by `vector-ann-format.ts`): the norms of its live slots are computed. */
  constructor(state: AnnState) {
    this.dimension = state.dimension;
    this.m = state.m;
    this.efConstruction = state.efConstruction;
    this.#m0 = 2 * state.m;
    this.#mL = 1 / Math.log(state.m);
    this.#s = state;
    const cap = state.levels.length;
    this.#invNorm = new Float32Array(cap);
    this.#offGrid = new Uint8Array(cap);
    this.#visited = new Uint32Array(cap);
    const d = state.dimension;
    this.#scratchA = new Float32Array(d);
    this.#scratchB = new Float32Array(d);
    this.#grid = new Int8Array(d);
    for (let s = 0; s < state.slots; s++) {
      if (state.levels[s]! < 0) continue;
      if (state.f32.has(s)) this.#offGrid[s] = 1;
      else this.#invNorm[s] = this.#inverseNorm(s);
    }
  }

  /** The state (slots, vectors, links, ids, generator), for serialising and reading ids (read only). */
  get state(): Readonly<AnnState> {
    return this.#s;
  }

  /** True when `slot` keeps a float32 vector (not on the int8 grid). */
  isOffGrid(slot: number): boolean {
    return this.#offGrid[slot] === 1;
  }

  /** Stores unit vector `unit` of `id` in a free or new slot and draws its level; {@link insert} links it. */
  place(id: string, unit: Float32Array): number {
    const s = this.#s;
    let slot = s.free.pop();
    if (slot === undefined) {
      if (s.slots === s.levels.length) this.#grow(Math.max(INITIAL_CAPACITY, s.slots * 2));
      slot = s.slots++;
    }
    const d = this.dimension;
    const sc = gridForm(unit, this.#grid);
    if (sc !== undefined) {
      s.q.set(this.#grid, slot * d);
      s.scale[slot] = sc;
      this.#invNorm[slot] = this.#inverseNorm(slot);
    } else {
      s.f32.set(slot, unit);
      this.#offGrid[slot] = 1;
    }
    const next = mulberry32(s.rng);
    s.rng = next.state;
    const level = Math.min(ANN_MAX_LEVEL, Math.floor(-Math.log(1 - next.u) * this.#mL));
    s.levels[slot] = level;
    s.links0[slot * (this.#m0 + 1)] = 0;
    s.upper[slot] = level > 0 ? new Int32Array(level * (this.m + 1)) : undefined;
    s.ids[slot] = id;
    return slot;
  }

  /**
   * Removes live `slot`: its vector bytes are zeroed first (issue 22: no copy stays in memory or
   * in a checkpoint), the links of its neighbours are repaired from its own, and the slot is freed
   * for the next new vector.
   */
  unlink(slot: number): void {
    const s = this.#s;
    const top = s.levels[slot] as number;
    const d = this.dimension;
    s.q.fill(0, slot * d, (slot + 1) * d);
    s.scale[slot] = 0;
    this.#invNorm[slot] = 0;
    s.f32.get(slot)?.fill(0);
    s.f32.delete(slot);
    this.#offGrid[slot] = 0;
    s.levels[slot] = -1;
    s.ids[slot] = '';
    for (let level = 0; level <= top; level++) this.#repair(slot, level);
    s.links0[slot * (this.#m0 + 1)] = 0;
    s.upper[slot] = undefined;
    s.free.push(slot);
    if (s.entry === slot) this.#newEntry();
  }

  /** The `ef` nearest live slots to unit `query` (descent, then algorithm 2 on level 0), nearest first. */
  nearest(query: Float32Array, ef: number): { slots: Int32Array; dists: Float64Array } {
    return this.#searchLevel(query, this.#descend(query, 0), 0, ef);
  }

  /** Empties the graph: every slot array is dropped. */
  dispose(): void {
    this.#s = { ...this.#s, slots: 0, entry: -1, levels: new Int8Array(0), scale: new Float32Array(0), q: new Int8Array(0), f32: new Map(), links0: new Int32Array(0), upper: [], ids: [], free: [] };
    this.#invNorm = new Float32Array(0);
    this.#offGrid = new Uint8Array(0);
    this.#visited = new Uint32Array(0);
  }

  /** 1/‖q‖ of int8 slot `slot` (0 for a zero row). */
  #inverseNorm(slot: number): number {
    const norm = int8Norm(this.#s.q, slot, this.dimension);
    return norm === 0 ? 0 : 1 / norm;
  }

  /** Distance 1 − cos between unit `query` and the stored vector of `slot`. */
  #dist(query: Float32Array, slot: number): number {
    const d = this.dimension;
    if (this.#offGrid[slot] === 1) {
      const row = this.#s.f32.get(slot) as Float32Array;
      let dot = 0;
      for (let i = 0; i < d; i++) dot += (query[i] as number) * (row[i] as number);
      return 1 - dot;
    }
    const dot = int8Dot(query, this.#s.q, slot * d, d);
    // cos(u, q_r·s_r) = u·q_r / ‖q_r‖ (u unit; the scale cancels)
    return 1 - dot * (this.#invNorm[slot] as number);
  }

  /** The stored unit vector of `slot` into `out` (for slot-to-slot distances). */
  #unitOf(slot: number, out: Float32Array): Float32Array {
    const d = this.dimension;
    const row = this.#s.f32.get(slot);
    if (row !== undefined) {
      out.set(row);
      return out;
    }
    const inv = this.#invNorm[slot] as number;
    const q = this.#s.q;
    for (let i = 0, b = slot * d; i < d; i++) out[i] = (q[b + i] as number) * inv;
    return out;
  }

  /** Links of `slot` at `level`: the array and the offset of its count. */
  #links(slot: number, level: number): { arr: Int32Array; at: number } {
    if (level === 0) return { arr: this.#s.links0, at: slot * (this.#m0 + 1) };
    return { arr: this.#s.upper[slot] as Int32Array, at: (level - 1) * (this.m + 1) };
  }

  /** Resizes every per-slot array to `capacity` slots. */
  #grow(capacity: number): void {
    const s = this.#s;
    const d = this.dimension;
    const grow = <T extends Int8Array | Float32Array | Int32Array | Uint8Array | Uint32Array>(a: T, n: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.set(a.subarray(0, Math.min(a.length, n)));
      return b;
    };
    const levels = new Int8Array(capacity).fill(-1);
    levels.set(s.levels);
    s.levels = levels;
    s.scale = grow(s.scale, capacity);
    s.q = grow(s.q, capacity * d);
    s.links0 = grow(s.links0, capacity * (this.#m0 + 1));
    this.#invNorm = grow(this.#invNorm, capacity);
    this.#offGrid = grow(this.#offGrid, capacity);
    this.#visited = new Uint32Array(capacity);
    this.#visitTag = 0;
  }

  /** Greedy descent (ef = 1) from the entry point down to level `to` + 1; returns the closest slot found. */
  #descend(query: Float32Array, to: number): number {
    const s = this.#s;
    let cur = s.entry;
    let curDist = this.#dist(query, cur);
    for (let level = s.levels[cur] as number; level > to; level--) {
      let changed = true;
      while (changed) {
        changed = false;
        const { arr, at } = this.#links(cur, level);
        const count = arr[at] as number;
        for (let j = 1; j <= count; j++) {
          const e = arr[at + j] as number;
          if ((s.levels[e] as number) < level) continue; // freed, or reused at a lower level
          const de = this.#dist(query, e);
          if (de < curDist) {
            curDist = de;
            cur = e;
            changed = true;
          }
        }
      }
    }
    return cur;
  }

  /** Algorithm 2: the `ef` nearest live slots to `query` on `level` from `start`, nearest first. */
  #searchLevel(query: Float32Array, start: number, level: number, ef: number): { slots: Int32Array; dists: Float64Array } {
    const s = this.#s;
    const levels = s.levels;
    if (++this.#visitTag === 0xffffffff) {
      this.#visited.fill(0);
      this.#visitTag = 1;
    }
    const tag = this.#visitTag;
    const visited = this.#visited;
    const cand = this.#candidates;
    const res = this.#results;
    cand.clear();
    res.clear();
    const d0 = this.#dist(query, start);
    visited[start] = tag;
    cand.push(d0, start);
    res.push(-d0, start);
    const m1 = level === 0 ? this.#m0 + 1 : this.m + 1;
    while (cand.size > 0) {
      const cd = cand.topKey();
      const c = cand.topVal();
      if (cd > -res.topKey() && res.size >= ef) break;
      cand.pop();
      const arr = level === 0 ? s.links0 : (s.upper[c] as Int32Array);
      const at = level === 0 ? c * m1 : (level - 1) * m1;
      const count = arr[at] as number;
      for (let j = 1; j <= count; j++) {
        const e = arr[at + j] as number;
        if (visited[e] === tag) continue;
        visited[e] = tag;
        if ((levels[e] as number) < level) continue;
        const de = this.#dist(query, e);
        if (res.size < ef || de < -res.topKey()) {
          cand.push(de, e);
          res.push(-de, e);
          if (res.size > ef) res.pop();
        }
      }
    }
    const n = res.size;
    const slots = new Int32Array(n);
    const dists = new Float64Array(n);
    for (let i = n - 1; i >= 0; i--) {
      dists[i] = -res.topKey();
      slots[i] = res.topVal();
      res.pop();
    }
    return { slots, dists };
  }

  /**
   * Algorithm 4 (hnswlib's `getNeighborsByHeuristic2`): from candidates sorted nearest first
   * (distances to the base), keeps one when it is nearer the base than every one kept so far.
   */
  #select(slots: ArrayLike<number>, dists: ArrayLike<number>, n: number, max: number): number[] {
    if (n <= max) return Array.from({ length: n }, (_, i) => slots[i] as number);
    const kept: number[] = [];
    for (let i = 0; i < n && kept.length < max; i++) {
      const e = slots[i] as number;
      const de = dists[i] as number;
      const u = this.#unitOf(e, this.#scratchA);
      let good = true;
      for (const r of kept) {
        if (this.#dist(u, r) < de) {
          good = false;
          break;
        }
      }
      if (good) kept.push(e);
    }
    return kept;
  }

  /** Algorithm 1: links `slot` (its vector and level already stored) into the graph. */
  insert(slot: number): void {
    const s = this.#s;
    const level = s.levels[slot] as number;
    if (s.entry < 0) {
      s.entry = slot;
      return;
    }
    const query = this.#unitOf(slot, new Float32Array(this.dimension));
    const top = s.levels[s.entry] as number;
    let start = this.#descend(query, level);
    for (let l = Math.min(level, top); l >= 0; l--) {
      const found = this.#searchLevel(query, start, l, this.efConstruction);
      const chosen = this.#select(found.slots, found.dists, found.slots.length, this.m);
      const { arr, at } = this.#links(slot, l);
      arr[at] = chosen.length;
      chosen.forEach((e, j) => (arr[at + 1 + j] = e));
      for (const e of chosen) this.#link(e, slot, l);
      start = found.slots[0] as number;
    }
    if (level > top) s.entry = slot;
  }

  /** Adds `to` to the links of `from` on `level`, pruning with the heuristic when full. */
  #link(from: number, to: number, level: number): void {
    const { arr, at } = this.#links(from, level);
    const max = level === 0 ? this.#m0 : this.m;
    const count = arr[at] as number;
    for (let j = 1; j <= count; j++) if (arr[at + j] === to) return;
    if (count < max) {
      arr[at + 1 + count] = to;
      arr[at] = count + 1;
      return;
    }
    const members = [to];
    for (let j = 1; j <= count; j++) members.push(arr[at + j] as number);
    this.#relink(from, level, members, max);
  }

  /** Sets the links of `base` on `level` to the heuristic's choice among `members` (live, ≠ base). */
  #relink(base: number, level: number, members: number[], max: number): void {
    const u = this.#unitOf(base, this.#scratchB);
    const order = members.map((e) => ({ e, d: this.#dist(u, e) })).sort((a, b) => a.d - b.d || a.e - b.e);
    const chosen = this.#select(
      order.map((x) => x.e),
      order.map((x) => x.d),
      order.length,
      max,
    );
    const { arr, at } = this.#links(base, level);
    arr[at] = chosen.length;
    chosen.forEach((e, j) => (arr[at + 1 + j] = e));
  }

  /**
   * After `slot` left (level already −1): each neighbour on `level` that links back to it drops
   * that link and picks its links again among its other links and `slot`'s links.
   */
  #repair(slot: number, level: number): void {
    const s = this.#s;
    const mine = this.#links(slot, level);
    const around: number[] = [];
    for (let j = 1; j <= (mine.arr[mine.at] as number); j++) {
      const e = mine.arr[mine.at + j] as number;
      if ((s.levels[e] as number) >= level) around.push(e);
    }
    const max = level === 0 ? this.#m0 : this.m;
    for (const n of around) {
      const { arr, at } = this.#links(n, level);
      const count = arr[at] as number;
      let back = false;
      const members = new Set<number>();
      for (let j = 1; j <= count; j++) {
        const e = arr[at + j] as number;
        if (e === slot) back = true;
        else if ((s.levels[e] as number) >= level) members.add(e);
      }
      if (!back) continue;
      for (const e of around) if (e !== n) members.add(e);
      this.#relink(n, level, [...members], max);
    }
  }

  /** A new entry point after the old one left: a live slot of the highest level (lowest slot on ties), or none. */
  #newEntry(): void {
    const s = this.#s;
    let best = -1;
    let bestLevel = -1;
    for (let i = 0; i < s.slots; i++) {
      const l = s.levels[i] as number;
      if (l > bestLevel) {
        bestLevel = l;
        best = i;
      }
    }
    s.entry = best;
  }
}
