/**
 * Byte format of the pure-TypeScript HNSW index (`vector-ann.ts`): kind 3 of
 * `vector-format.ts`, format version 1. After the 12-byte header, little-endian:
 *
 * | bytes | field |
 * |---|---|
 * | 4 × 11 | M, efConstruction, efSearch, level-generator state, slots S, live n, entry + 1 (0 = none), id bytes b, float32 rows f, free slots r, link words w (uint32 each) |
 * | b | ids of the live slots in slot order, a UTF-8 JSON array |
 * | 4n | their slots (uint32, ascending) |
 * | 4r | free slots, in reuse order (last reused first) |
 * | S | level of each slot (int8; −1 free) |
 * | 4S | grid scale of each slot (float32; 0 for free, zero and float32 slots) |
 * | S·d | int8 rows (zeros for free and float32 slots) |
 * | f·(4 + 4d) | float32 rows: slot (uint32), then d float32 |
 * | 4w | links: for each live slot in slot order, for each of its levels 0…L: count, then that many slots (uint32) |
 *
 * A removed vector is zeroed before its slot is freed, so no byte of it is written (issue 22).
 *
 * @module
 */
import { VECTOR_HEADER_BYTES, corruptVectorIndex, decodeIds, encodeIds, writeVectorHeader } from './vector-format.js';

/** The whole state of an ann index (`vector-ann.ts`): what this module writes and reads. */
export interface AnnState {
  dimension: number;
  m: number;
  efConstruction: number;
  efSearch: number;
  /** mulberry32 state (uint32). */
  rng: number;
  /** Slots in use or freed (the high-water mark). */
  slots: number;
  /** Entry point slot, −1 when empty. */
  entry: number;
  /** Level of each slot, −1 for a free one (length ≥ slots). */
  levels: Int8Array;
  /** Grid scale of each int8 slot (0 for a free, zero or float32 slot). */
  scale: Float32Array;
  /** Int8 rows, slot-major (zeros for a free or float32 slot). */
  q: Int8Array;
  /** Float32 unit rows of the slots off the grid. */
  f32: Map<number, Float32Array>;
  /** Level-0 links: slot s at [s·(2M+1)], count first. */
  links0: Int32Array;
  /** Upper links of a slot of level L ≥ 1: L blocks of (M+1), count first. */
  upper: Array<Int32Array | undefined>;
  /** Id of each slot ('' for a free one). */
  ids: string[];
  /** Free slots, reused last-in first-out. */
  free: number[];
}

/** Uint32 fields after the header. */
const HEAD_FIELDS = 11;
/** Offset of the id list. */
const BODY_OFFSET = VECTOR_HEADER_BYTES + 4 * HEAD_FIELDS;

/** The bytes of an index state (see the module comment). */
export function serializeAnn(s: Readonly<AnnState>): Uint8Array {
  const d = s.dimension;
  const liveSlots: number[] = [];
  let linkWords = 0;
  for (let slot = 0; slot < s.slots; slot++) {
    const level = s.levels[slot] as number;
    if (level < 0) continue;
    liveSlots.push(slot);
    linkWords += 1 + (s.links0[slot * (2 * s.m + 1)] as number);
    const up = s.upper[slot];
    for (let l = 1; l <= level; l++) linkWords += 1 + ((up as Int32Array)[(l - 1) * (s.m + 1)] as number);
  }
  const ids = encodeIds(liveSlots.map((slot) => s.ids[slot] as string));
  const f32Slots = [...s.f32.keys()].sort((a, b) => a - b);
  const S = s.slots;
  const total = BODY_OFFSET + ids.length + 4 * liveSlots.length + 4 * s.free.length + S + 4 * S + S * d + f32Slots.length * (4 + 4 * d) + 4 * linkWords;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  writeVectorHeader(view, 'ann', d);
  [s.m, s.efConstruction, s.efSearch, s.rng, S, liveSlots.length, s.entry + 1, ids.length, f32Slots.length, s.free.length, linkWords].forEach((x, i) =>
    view.setUint32(VECTOR_HEADER_BYTES + 4 * i, x >>> 0, true),
  );
  let at = BODY_OFFSET;
  out.set(ids, at);
  at += ids.length;
  for (const slot of liveSlots) at = u32(view, at, slot);
  for (const slot of s.free) at = u32(view, at, slot);
  out.set(new Uint8Array(s.levels.buffer, s.levels.byteOffset, S), at);
  at += S;
  for (let slot = 0; slot < S; slot++, at += 4) view.setFloat32(at, s.scale[slot] as number, true);
  out.set(new Uint8Array(s.q.buffer, s.q.byteOffset, S * d), at);
  at += S * d;
  for (const slot of f32Slots) {
    at = u32(view, at, slot);
    const row = s.f32.get(slot) as Float32Array;
    for (let i = 0; i < d; i++, at += 4) view.setFloat32(at, row[i] as number, true);
  }
  for (const slot of liveSlots) {
    const level = s.levels[slot] as number;
    for (let l = 0; l <= level; l++) {
      const arr = l === 0 ? s.links0 : (s.upper[slot] as Int32Array);
      const base = l === 0 ? slot * (2 * s.m + 1) : (l - 1) * (s.m + 1);
      const count = arr[base] as number;
      for (let j = 0; j <= count; j++) at = u32(view, at, arr[base + j] as number);
    }
  }
  return out;
}

/** The `w` uint32 LE words at `at` of `bytes` (a view when aligned on a little-endian platform, else a copy). */
function wordsOf(bytes: Uint8Array, at: number, w: number): Uint32Array {
  if (LITTLE_ENDIAN && (bytes.byteOffset + at) % 4 === 0) return new Uint32Array(bytes.buffer, bytes.byteOffset + at, w);
  const out = new Uint32Array(w);
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, 4 * w);
  for (let i = 0; i < w; i++) out[i] = view.getUint32(4 * i, true);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function u32(view: DataView, at: number, x: number): number {
  view.setUint32(at, x, true);
  return at + 4;
}

/**
 * The state {@link serializeAnn} wrote, checked: every count fits its array, the ids are distinct
 * and on live slots, links point at slots that exist, the entry point is live and of the highest
 * level, numbers are finite.
 * @throws JevMemError `STORAGE_FAILED` (field `bytes`) naming the first inconsistency.
 */
export function restoreAnnBody(bytes: Uint8Array, d: number): AnnState {
  if (bytes.length < BODY_OFFSET) throw corruptVectorIndex(`ann index of ${bytes.length} bytes, shorter than its ${BODY_OFFSET}-byte head`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [m, efConstruction, efSearch, rng, S, n, entry1, idBytes, f, r, w] = Array.from({ length: HEAD_FIELDS }, (_, i) => view.getUint32(VECTOR_HEADER_BYTES + 4 * i, true)) as number[] as [
    number, number, number, number, number, number, number, number, number, number, number,
  ];
  if (m < 2 || m > 100 || efConstruction < 1 || efSearch < 1) throw corruptVectorIndex(`M ${m}, efConstruction ${efConstruction}, efSearch ${efSearch} out of range`);
  const expected = BODY_OFFSET + idBytes + 4 * n + 4 * r + S + 4 * S + S * d + f * (4 + 4 * d) + 4 * w;
  if (bytes.length !== expected) throw corruptVectorIndex(`ann index of ${S} slots (${n} live, ${f} float32, ${w} link words) of dimension ${d} needs ${expected} bytes, got ${bytes.length}`);
  if (n + r !== S) throw corruptVectorIndex(`${n} live + ${r} free slots, but ${S} slots`);
  let at = BODY_OFFSET;
  // Distinct ids: checked by the index, which files them in its id → slot map (vector-ann.ts).
  const idList = decodeIds(bytes.subarray(at, at + idBytes), n, false);
  at += idBytes;
  const cap = Math.max(64, S);
  const ids = new Array<string>(S).fill('');
  const liveSlots: number[] = [];
  for (let i = 0; i < n; i++, at += 4) {
    const slot = view.getUint32(at, true);
    if (slot >= S || (i > 0 && slot <= (liveSlots[i - 1] as number))) throw corruptVectorIndex(`live slot ${slot} is out of range or out of order`);
    liveSlots.push(slot);
    ids[slot] = idList[i] as string;
  }
  const free: number[] = [];
  for (let i = 0; i < r; i++, at += 4) free.push(view.getUint32(at, true));
  const levels = new Int8Array(cap).fill(-1);
  levels.set(new Int8Array(bytes.buffer, bytes.byteOffset + at, S));
  at += S;
  for (let slot = 0; slot < S; slot++) {
    const live = ids[slot] !== '';
    const l = levels[slot] as number;
    if (live ? l < 0 || l > 31 : l !== -1) throw corruptVectorIndex(`slot ${slot} has level ${l}`);
  }
  if (new Set(free).size !== r || free.some((slot) => slot >= S || ids[slot] !== '')) throw corruptVectorIndex('the free list repeats a slot or names a live one');
  const scale = new Float32Array(cap);
  for (let slot = 0; slot < S; slot++, at += 4) {
    const x = view.getFloat32(at, true);
    if (!(x >= 0 && Number.isFinite(x))) throw corruptVectorIndex(`slot ${slot} has scale ${x}`);
    scale[slot] = x;
  }
  const q = new Int8Array(cap * d);
  q.set(new Int8Array(bytes.buffer, bytes.byteOffset + at, S * d));
  at += S * d;
  const f32 = new Map<number, Float32Array>();
  for (let i = 0; i < f; i++) {
    const slot = view.getUint32(at, true);
    at += 4;
    if (slot >= S || ids[slot] === '' || f32.has(slot)) throw corruptVectorIndex(`float32 row of slot ${slot}, which is free, out of range or repeated`);
    const row = new Float32Array(d);
    for (let j = 0; j < d; j++, at += 4) {
      const x = view.getFloat32(at, true);
      if (!Number.isFinite(x)) throw corruptVectorIndex(`float32 row of slot ${slot} holds ${x}`);
      row[j] = x;
    }
    f32.set(slot, row);
  }
  const m0 = 2 * m;
  const links0 = new Int32Array(cap * (m0 + 1));
  const upper: Array<Int32Array | undefined> = new Array<Int32Array | undefined>(S).fill(undefined);
  // The link words, read through a local cursor (no closure over `at`: a captured variable is
  // slow to read and write in every loop of this function).
  const words = wordsOf(bytes, at, w);
  let p = 0;
  for (let i = 0; i < liveSlots.length; i++) {
    const slot = liveSlots[i] as number;
    const level = levels[slot] as number;
    if (level > 0) upper[slot] = new Int32Array(level * (m + 1));
    for (let l = 0; l <= level; l++) {
      const arr = l === 0 ? links0 : (upper[slot] as Int32Array);
      const base = l === 0 ? slot * (m0 + 1) : (l - 1) * (m + 1);
      if (p >= w) throw corruptVectorIndex('the link list ends early');
      const count = words[p++] as number;
      if (count > (l === 0 ? m0 : m)) throw corruptVectorIndex(`slot ${slot} has ${count} links on level ${l}`);
      if (p + count > w) throw corruptVectorIndex('the link list ends early');
      arr[base] = count;
      for (let j = 1; j <= count; j++) {
        const e = words[p++] as number;
        if (e >= S) throw corruptVectorIndex(`slot ${slot} links to slot ${e} of ${S}`);
        arr[base + j] = e;
      }
    }
  }
  at += 4 * p;
  const end = at + 4 * (w - p);
  if (at !== end) throw corruptVectorIndex('the link list is longer than its links');
  const entry = entry1 - 1;
  const top = liveSlots.reduce((t, slot) => Math.max(t, levels[slot] as number), -1);
  if (n === 0 ? entry !== -1 : entry < 0 || entry >= S || ids[entry] === '' || levels[entry] !== top) throw corruptVectorIndex(`entry point ${entry} is not a live slot of the top level`);
  return { dimension: d, m, efConstruction, efSearch, rng, slots: S, entry, levels, scale, q, f32, links0, upper, ids, free };
}
