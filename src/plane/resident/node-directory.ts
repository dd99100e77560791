/**
 * The node directory of one namespace (issue 13): what the memory keeps resident per node, in
 * typed arrays indexed by a slot, so a namespace costs a few hundred bytes per node instead of
 * its node objects. Per node: id, seq, status, session, content hash, language and the stored
 * vector on the int8 grid (d bytes + a float32 scale; plane/indexes/vector-codec.ts). Node bodies and
 * edges stay in the store.
 *
 * @module
 */
import type { MemoryNode, NodeStatus } from '../../types.js';
import { hash53 } from '../../util/hash.js';
import { VEC_ROW_PART, bytesOf, copyRows, rowNumbers, viewOf } from './directory-parts.js';
import { SeqOrder } from './seq-order.js';

/** Status codes of the directory (0 = free slot). */
export const STATUS_CODE: Readonly<Record<NodeStatus, number>> = Object.freeze({ active: 1, superseded: 2, deleted: 3 });
const STATUS_NAME: readonly (NodeStatus | undefined)[] = [undefined, 'active', 'superseded', 'deleted'];

/** {@link hash53} moved to `util/hash.ts`; re-exported for the modules that import it here. */
export { hash53 } from '../../util/hash.js';

/** Slots a directory takes at its first node, doubled from there: an open namespace of a few nodes costs a few hundred bytes here (issue 22). */
export const MIN_SLOTS = 16;

/**
 * Hash of what the bookkeeping maps derive from a node (text, times, provenance ids, entities,
 * keywords). Two versions of a node with the same hash differ only in status, vector,
 * duplicates or supersession, which a replay can apply without the old version.
 */
export function contentHash(n: MemoryNode): number {
  return hash53(JSON.stringify([n.text, n.observedAt ?? null, n.provenance.source ?? null, n.provenance.speaker ?? null, n.provenance.sessionId ?? null, n.entities, n.keywords, n.seq]));
}

/** JSON header of a directory in a checkpoint (the typed arrays are separate parts). */
export interface DirectoryHeader {
  count: number;
  /**
   * The id of each slot: null for a free slot, 0 (@3, with `dir.vecrow`) for the id of the slot's
   * row in the vector index's bytes (each id stored once).
   */
  ids: Array<string | null | 0>;
  sessions: string[];
  languages: string[];
}

/**
 * Checkpoint part (@3, issue 22) that replaces `dir.vec` when the vector index's bytes hold every
 * row: int32 per slot, the row's number in that index's int8 row block (−1 for a zero row).
 */
export { VEC_ROW_PART };

const PARTS = ['dir.seq', 'dir.status', 'dir.session', 'dir.hash', 'dir.lang', 'dir.vec', 'dir.scale'] as const;

/** The resident per-node table of one namespace. */
export class NodeDirectory {
  #slotOf = new Map<string, number>();
  #ids: Array<string | undefined> = [];
  #free: number[] = [];
  #cap = 0;
  #seq = new Float64Array(0);
  #status = new Uint8Array(0);
  #session = new Int32Array(0);
  #hash = new Float64Array(0);
  #lang = new Int16Array(0);
  #vec = new Int8Array(0);
  #scale = new Float32Array(0);
  #sessionNames: string[] = [];
  #sessionIndex = new Map<string, number>();
  #langNames: string[] = [];
  #langIndex = new Map<string, number>();
  /** Slots of the held nodes in ascending seq ({@link SeqOrder}). */
  #order = new SeqOrder(
    (slot) => this.#seq[slot] as number,
    () => this.#heldSlots(),
  );

  constructor(readonly dimension: number) {}

  /** Number of nodes held. */
  get size(): number {
    return this.#slotOf.size;
  }

  /** True when the directory holds `id`. */
  has(id: string): boolean {
    return this.#slotOf.has(id);
  }

  #grow(min: number): void {
    if (min <= this.#cap) return;
    const cap = Math.max(min, this.#cap * 2, MIN_SLOTS);
    const d = this.dimension;
    const grow = <T extends Float64Array | Uint8Array | Int32Array | Int16Array | Int8Array | Float32Array>(old: T, make: (n: number) => T, per = 1): T => {
      const a = make(cap * per);
      a.set(old as never);
      return a;
    };
    this.#seq = grow(this.#seq, (n) => new Float64Array(n));
    this.#status = grow(this.#status, (n) => new Uint8Array(n));
    this.#session = grow(this.#session, (n) => new Int32Array(n));
    this.#hash = grow(this.#hash, (n) => new Float64Array(n));
    this.#lang = grow(this.#lang, (n) => new Int16Array(n));
    this.#vec = grow(this.#vec, (n) => new Int8Array(n), d);
    this.#scale = grow(this.#scale, (n) => new Float32Array(n));
    this.#cap = cap;
  }

  #intern(names: string[], index: Map<string, number>, name: string | undefined): number {
    if (name === undefined) return -1;
    let i = index.get(name);
    if (i === undefined) {
      i = names.length;
      names.push(name);
      index.set(name, i);
    }
    return i;
  }

  #setVector(slot: number, v: readonly number[]): void {
    const d = this.dimension;
    const base = slot * d;
    if (v.length !== d) {
      this.#vec.fill(0, base, base + d);
      this.#scale[slot] = 0;
      return;
    }
    let max = 0;
    for (let i = 0; i < d; i++) max = Math.max(max, Math.abs(v[i] as number));
    const s = Math.fround(max / 127);
    this.#scale[slot] = s;
    for (let i = 0; i < d; i++) this.#vec[base + i] = s === 0 ? 0 : Math.max(-127, Math.min(127, Math.round((v[i] as number) / s)));
  }

  /** Adds a node (its id must be new). `hash` is {@link contentHash}; `language` its detected language. */
  add(n: MemoryNode, hash: number, language: string | undefined): void {
    let slot = this.#free.pop();
    if (slot === undefined) {
      slot = this.#ids.length;
      this.#grow(slot + 1);
      this.#ids.push(n.id);
    } else this.#ids[slot] = n.id;
    this.#slotOf.set(n.id, slot);
    this.#seq[slot] = n.seq;
    this.#order.added(slot, n.seq);
    this.#status[slot] = STATUS_CODE[n.status] ?? 1;
    this.#session[slot] = this.#intern(this.#sessionNames, this.#sessionIndex, n.provenance.sessionId);
    this.#hash[slot] = hash;
    this.#lang[slot] = this.#intern(this.#langNames, this.#langIndex, language);
    this.#setVector(slot, n.embedding.vector);
  }

  /** Updates status, seq and vector of a held node (content unchanged). */
  update(n: MemoryNode): void {
    const slot = this.#slotOf.get(n.id);
    if (slot === undefined) return;
    if (this.#seq[slot] !== n.seq) this.#order.drop();
    this.#seq[slot] = n.seq;
    this.#status[slot] = STATUS_CODE[n.status] ?? 1;
    this.#setVector(slot, n.embedding.vector);
  }

  /** Frees the slot of `id` (reused by a later add), zeroing it; a no-op for an unknown id. */
  remove(id: string): void {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return;
    this.#order.removed(slot);
    this.#slotOf.delete(id);
    this.#ids[slot] = undefined;
    // Erasure (issue 22): nothing of the node stays in the slot, so no checkpoint holds it.
    this.#status[slot] = 0;
    this.#session[slot] = -1;
    this.#seq[slot] = 0;
    this.#hash[slot] = 0;
    this.#lang[slot] = -1;
    this.#vec.fill(0, slot * this.dimension, (slot + 1) * this.dimension);
    this.#scale[slot] = 0;
    this.#free.push(slot);
  }

  /** The slot of `id` (its row in the checkpoint's per-slot parts), or undefined when unknown. */
  slotOf(id: string): number | undefined {
    return this.#slotOf.get(id);
  }

  /** The id held in `slot`, or undefined for a free slot or one out of range. */
  idAt(slot: number): string | undefined {
    return this.#ids[slot];
  }

  /** Sequence number of `id`, or undefined when unknown. */
  seq(id: string): number | undefined {
    const slot = this.#slotOf.get(id);
    return slot === undefined ? undefined : (this.#seq[slot] as number);
  }

  /** Status of `id`, or undefined when unknown. */
  status(id: string): NodeStatus | undefined {
    const slot = this.#slotOf.get(id);
    return slot === undefined ? undefined : STATUS_NAME[this.#status[slot] as number];
  }

  /** {@link contentHash} of `id` as added, or undefined when unknown. */
  hashOf(id: string): number | undefined {
    const slot = this.#slotOf.get(id);
    return slot === undefined ? undefined : (this.#hash[slot] as number);
  }

  /** Session id of `id`'s observation (`provenance.sessionId`), or undefined (none, or an unknown id). */
  session(id: string): string | undefined {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return undefined;
    const c = this.#session[slot] as number;
    return c < 0 ? undefined : this.#sessionNames[c];
  }

  /** Detected language of `id`'s text (undefined for a deleted node or an unknown id). */
  language(id: string): string | undefined {
    const slot = this.#slotOf.get(id);
    if (slot === undefined) return undefined;
    const l = this.#lang[slot] as number;
    return l < 0 ? undefined : this.#langNames[l];
  }

  /** The stored vector of `id` (v_i = q_i · s), or undefined. */
  vector(id: string): Float32Array | undefined {
    const slot = this.#slotOf.get(id);
    return slot === undefined ? undefined : this.#vectorAt(slot);
  }

  #vectorAt(slot: number): Float32Array {
    const d = this.dimension;
    const s = this.#scale[slot] as number;
    const out = new Float32Array(d);
    const base = slot * d;
    for (let i = 0; i < d; i++) out[i] = (this.#vec[base + i] as number) * s;
    return out;
  }

  /** [id, vector] of every node that is not deleted and has a vector of this dimension. */
  *liveVectors(): IterableIterator<[string, Float32Array]> {
    for (let slot = 0; slot < this.#ids.length; slot++) {
      const id = this.#ids[slot];
      if (id === undefined || this.#status[slot] === STATUS_CODE.deleted) continue;
      yield [id, this.#vectorAt(slot)];
    }
  }

  /** Calls `fn(id, q, at, scale)` for each node {@link NodeDirectory.liveVectors} yields, in its order, with no allocation: the vector is `q[at .. at + d) · scale` (`q` valid during the call only). */
  forEachLiveRow(fn: (id: string, q: Int8Array, at: number, scale: number) => void): void {
    for (let slot = 0; slot < this.#ids.length; slot++) {
      const id = this.#ids[slot];
      if (id !== undefined && this.#status[slot] !== STATUS_CODE.deleted) fn(id, this.#vec, slot * this.dimension, this.#scale[slot] as number);
    }
  }

  /** The slots that hold a node. */
  *#heldSlots(): IterableIterator<number> {
    for (let slot = 0; slot < this.#ids.length; slot++) if (this.#ids[slot] !== undefined) yield slot;
  }

  /**
   * Ids of the active and superseded nodes whose seq is above `afterSeq`, in ascending seq,
   * lazily: O(log n) to start, O(1) per id (after a one-off O(n log n) sort when the order was
   * dropped). Iterate it only while the directory does not change.
   */
  *idsAfterSeq(afterSeq: number): IterableIterator<string> {
    for (const slot of this.#order.slotsAfter(afterSeq)) {
      const id = this.#ids[slot];
      const st = this.#status[slot];
      if (id !== undefined && (st === STATUS_CODE.active || st === STATUS_CODE.superseded)) yield id;
    }
  }

  /** Ids of the nodes with this status code. */
  idsWithStatus(code: number): string[] {
    const out: string[] = [];
    for (let slot = 0; slot < this.#ids.length; slot++) if (this.#status[slot] === code && this.#ids[slot] !== undefined) out.push(this.#ids[slot] as string);
    return out;
  }

  /** First and last node (by seq) of a session, or undefined when it holds none. */
  sessionRange(sessionId: string): { firstId: string; lastId: string } | undefined {
    const want = this.#sessionIndex.get(sessionId);
    if (want === undefined) return undefined;
    let first = -1;
    let last = -1;
    for (let slot = 0; slot < this.#ids.length; slot++) {
      if (this.#session[slot] !== want || this.#ids[slot] === undefined) continue;
      if (first < 0 || (this.#seq[slot] as number) < (this.#seq[first] as number)) first = slot;
      if (last < 0 || (this.#seq[slot] as number) > (this.#seq[last] as number)) last = slot;
    }
    return first < 0 ? undefined : { firstId: this.#ids[first] as string, lastId: this.#ids[last] as string };
  }

  /** The seq of every held node, ascending. */
  allSeqs(): number[] {
    const out: number[] = [];
    for (let slot = 0; slot < this.#ids.length; slot++) if (this.#ids[slot] !== undefined) out.push(this.#seq[slot] as number);
    return out.sort((a, b) => a - b);
  }

  /** Id of the node with the highest seq, or undefined when empty. */
  latest(): string | undefined {
    let best = -1;
    for (let slot = 0; slot < this.#ids.length; slot++) {
      if (this.#ids[slot] === undefined) continue;
      if (best < 0 || (this.#seq[slot] as number) > (this.#seq[best] as number)) best = slot;
    }
    return best < 0 ? undefined : this.#ids[best];
  }

  /**
   * The directory as checkpoint parts (a JSON header and one binary part per array). With
   * `rows` (checkpoint @3, issue 22: each vector stored once), when every node's int8 row is zero
   * or equal to the row `rows.rowOf(id)` of `rows.rows` (the row block of the vector index's
   * serialised bytes, `vector-rows.ts`), the part `dir.vecrow` (int32 per slot: that row's
   * number, −1 for a zero row or a free slot) replaces `dir.vec`, and the header's id of a slot
   * with a row is 0 (the id of that row there); otherwise `dir.vec` is written.
   */
  toParts(rows?: { rows: Int8Array; rowOf: (id: string) => number }): { header: DirectoryHeader; parts: Record<string, Uint8Array> } {
    const n = this.#ids.length;
    const d = this.dimension;
    // Only the session names some node still has (issue 22: a deleted session's name is not kept).
    const sessions: string[] = [];
    const renumber = new Map<number, number>();
    const session = new Int32Array(n);
    for (let slot = 0; slot < n; slot++) {
      const i = this.#ids[slot] === undefined ? -1 : (this.#session[slot] as number);
      if (i >= 0 && !renumber.has(i)) {
        renumber.set(i, sessions.length);
        sessions.push(this.#sessionNames[i] as string);
      }
      session[slot] = i < 0 ? -1 : (renumber.get(i) as number);
    }
    const rowParts = rows === undefined ? undefined : rowNumbers(this.#vec, this.#ids, this.dimension, rows);
    const ids = this.#ids.map((id, slot) => (id === undefined ? null : rowParts !== undefined && (rowParts[slot] as number) >= 0 ? 0 : id));
    return {
      header: { count: n, ids, sessions, languages: this.#langNames },
      parts: {
        'dir.seq': bytesOf(this.#seq, n * 8),
        'dir.status': bytesOf(this.#status, n),
        'dir.session': bytesOf(session, n * 4),
        'dir.hash': bytesOf(this.#hash, n * 8),
        'dir.lang': bytesOf(this.#lang, n * 2),
        ...(rowParts !== undefined ? { [VEC_ROW_PART]: new Uint8Array(rowParts.buffer) } : { 'dir.vec': bytesOf(this.#vec, n * d) }),
        'dir.scale': bytesOf(this.#scale, n * 4),
      },
    };
  }

  /**
   * Restores a directory written by {@link NodeDirectory.toParts} (into an empty one). A
   * checkpoint with `dir.vecrow` instead of `dir.vec` takes each row from `rows.rows` (the row
   * block of the part its header names, `vector-rows.ts`) and the id of a slot listed as 0 from
   * `rows.idAt` (the id of that row).
   * @throws Error when a part is missing or its length does not match the header, or a
   *   `dir.vecrow` entry names a row `rows` lacks (or `rows` is not given), or an id is missing.
   */
  restore(header: unknown, parts: Record<string, Uint8Array>, rows?: { rows: Int8Array; idAt: (row: number) => string | undefined }): void {
    const h = header as DirectoryHeader;
    const n = h.count;
    const d = this.dimension;
    const byRow = parts[VEC_ROW_PART] !== undefined;
    const sizes: Record<(typeof PARTS)[number] | typeof VEC_ROW_PART, number> = { 'dir.seq': 8, 'dir.status': 1, 'dir.session': 4, 'dir.hash': 8, 'dir.lang': 2, 'dir.vec': d, [VEC_ROW_PART]: 4, 'dir.scale': 4 };
    for (const p of byRow ? PARTS.map((x) => (x === 'dir.vec' ? VEC_ROW_PART : x)) : PARTS) {
      if (parts[p]?.length !== n * sizes[p]) throw new Error(`checkpoint part ${p} has ${parts[p]?.length ?? 'no'} bytes, expected ${n * sizes[p]}`);
    }
    if (!Array.isArray(h.ids) || h.ids.length !== n) throw new Error('checkpoint directory ids do not match its count');
    this.#grow(n);
    this.#order.drop();
    // Each part is copied once, into the directory's own arrays (read through a view of the part).
    this.#seq.set(viewOf(Float64Array, parts['dir.seq'] as Uint8Array));
    this.#status.set(parts['dir.status'] as Uint8Array);
    this.#session.set(viewOf(Int32Array, parts['dir.session'] as Uint8Array));
    this.#hash.set(viewOf(Float64Array, parts['dir.hash'] as Uint8Array));
    this.#lang.set(viewOf(Int16Array, parts['dir.lang'] as Uint8Array));
    const numbers = byRow ? viewOf(Int32Array, parts[VEC_ROW_PART] as Uint8Array) : undefined;
    if (numbers !== undefined) copyRows(this.#vec, d, numbers, rows?.rows);
    else this.#vec.set(viewOf(Int8Array, parts['dir.vec'] as Uint8Array));
    this.#scale.set(viewOf(Float32Array, parts['dir.scale'] as Uint8Array));
    this.#sessionNames = [...h.sessions];
    this.#sessionIndex = new Map(h.sessions.map((s, i) => [s, i]));
    this.#langNames = [...h.languages];
    this.#langIndex = new Map(h.languages.map((s, i) => [s, i]));
    this.#ids = h.ids.map((id, slot) => {
      if (id !== 0) return id ?? undefined;
      const r = numbers === undefined ? -1 : (numbers[slot] as number);
      const borrowed = r < 0 ? undefined : rows?.idAt(r);
      if (typeof borrowed !== 'string' || borrowed === '') throw new Error(`checkpoint directory slot ${slot} takes its id from row ${r} of the vector index, which has none`);
      return borrowed;
    });
    for (let slot = 0; slot < n; slot++) {
      const id = this.#ids[slot];
      if (id === undefined) this.#free.push(slot);
      else this.#slotOf.set(id, slot);
    }
  }
}
