/**
 * Adjacency records of the record store (issue 13): one record per node holding every edge
 * that touches it, packed as bytes with a small string table, and the ids of edges.
 *
 * Why adjacency records rather than one record per edge: an IndexedDB index entry repeats the
 * index key and the primary key, and Chromium stores string keys as UTF-16, so an edge record
 * with two indexes on `[namespace, from]` / `[namespace, to]` costs ~700 bytes of keys before
 * its value, times ~17 edges per node. Packed in the records of both its ends, an edge costs
 * 2 × ~20 bytes (format 2, stop 33: UUID peers as 16 bytes, the view, subtype and origin as one
 * index into the record's classes, the weight in hundredths, the time as an index into the
 * record's times; format 1, which older records hold and which is still read, took 2 × ~37).
 *
 * Edge ids: the write path names an edge `${from}>${to}:${view}:${subtype}`
 * ({@link canonicalEdgeId}); such an id is not stored, it is rebuilt from the entry. Any other id
 * is stored in the entry, and the adapter keeps an `edge-ids` record mapping it to its ends, so
 * a delete by id still finds the edge.
 *
 * @module
 */
import type { EdgeSubtype, MemoryEdge, View } from '../../types.js';
import { Reader, UUID, Writer } from './record-adjacency-bytes.js';

/** The id the write path gives an edge (src/write/plan.ts). */
export function canonicalEdgeId(from: string, to: string, view: string, subtype: string): string {
  return `${from}>${to}:${view}:${subtype}`;
}

/** The (from, to, view, subtype) that `id` may be the canonical id of: one per `>` before the view. */
export function edgeIdCandidates(id: string): Array<{ from: string; to: string; view: string; subtype: string }> {
  const last = id.lastIndexOf(':');
  if (last <= 0) return [];
  const mid = id.lastIndexOf(':', last - 1);
  if (mid <= 0) return [];
  const ends = id.slice(0, mid);
  const view = id.slice(mid + 1, last);
  const subtype = id.slice(last + 1);
  const out: Array<{ from: string; to: string; view: string; subtype: string }> = [];
  for (let i = ends.indexOf('>'); i >= 0; i = ends.indexOf('>', i + 1)) {
    out.push({ from: ends.slice(0, i), to: ends.slice(i + 1), view, subtype });
  }
  return out;
}

/** True when `edge.id` can be rebuilt from the edge's ends, view and subtype (and so is not stored). */
export function isCanonicalEdge(edge: MemoryEdge): boolean {
  if (edge.id !== canonicalEdgeId(edge.from, edge.to, edge.view, edge.subtype)) return false;
  // Ends without '>' or ':' and a view and subtype without ':' split back one way only (the
  // write path's ids: UUIDs and plain names), so the candidates need not be built.
  if (!/[>:]/.test(edge.from) && !/[>:]/.test(edge.to) && !edge.view.includes(':') && !edge.subtype.includes(':')) return true;
  return edgeIdCandidates(edge.id).some((c) => c.from === edge.from && c.to === edge.to && c.view === edge.view && c.subtype === edge.subtype);
}

/** The edges touching one node: `out` (from this node, self-loops included) and `in` (to it), by edge id. */
export interface Adjacency {
  out: Map<string, MemoryEdge>;
  in: Map<string, MemoryEdge>;
}

/** The stored form of an {@link Adjacency}: a string table and packed entries. */
export interface AdjacencyRecord {
  /** Strings the entries refer to by index (peer ids that are not UUIDs, views, subtypes, origins, …). */
  s: string[];
  /** Packed entries, see {@link encodeAdjacency}. */
  b: Uint8Array;
}

/** Entry flags (internal to the adjacency codec and its append, `record-adjacency-append.ts`): an incoming entry. */
export const IN = 1;
/** Entry flag: the edge's id is stored (not canonical). */
export const EXPLICIT_ID = 2;
/** Entry flag: the time is a string index, not a time-table index (format 2) or float64 ms (format 1). */
export const TIME_AS_STRING = 4;
/** Entry flag: the peer is a UUID, stored as 16 bytes. */
export const PEER_UUID = 8;
/** Format 2: the weight is stored as hundredths (a varint), not as a float64. */
export const WEIGHT_CENTI = 16;
/** First byte of a format 2 entry list (a format 1 list starts with an entry's flags, below 16). */
export const FORMAT_2 = 0x82;
/** Times further than this from 1970 (ms, year ±37 000) are kept as text, so deltas stay exact. */
const TIME_LIMIT = 2 ** 50;

/**
 * The last time converted each way: the edges of one record, and of one commit, mostly share
 * their `createdAt`, and `Date.parse` / `toISOString` were the largest cost of the codec.
 */
const lastTime = { iso: '', ms: undefined as number | undefined, fromMs: NaN, toIso: '' };

/** Milliseconds of an ISO time when `new Date(ms).toISOString()` gives it back exactly, else undefined. */
function exactMs(iso: string): number | undefined {
  if (iso === lastTime.iso) return lastTime.ms;
  const parsed = Date.parse(iso);
  const ms = Number.isFinite(parsed) && new Date(parsed).toISOString() === iso ? parsed : undefined;
  lastTime.iso = iso;
  lastTime.ms = ms;
  return ms;
}

/** The largest |ms| a `Date` holds (±100,000,000 days from 1970); `toISOString` throws a RangeError past it. */
const MAX_DATE_MS = 8.64e15;

/** The ISO text of a time in milliseconds (as `new Date(ms).toISOString()`). */
function isoOf(ms: number): string {
  if (ms !== lastTime.fromMs) {
    lastTime.toIso = new Date(ms).toISOString();
    lastTime.fromMs = ms;
  }
  return lastTime.toIso;
}

/** Hundredths of a weight when they give it back exactly (`m / 100 === weight`), else undefined. */
function centi(weight: number): number | undefined {
  const m = Math.round(weight * 100);
  return m >= 0 && m <= 0xffffffff && m / 100 === weight && !Object.is(weight, -0) ? m : undefined;
}

/**
 * Packs the adjacency of one node, or undefined when it holds no edge (the record is then
 * deleted). Format 2 (stop 33): byte {@link FORMAT_2}; the classes, `(view, subtype, origin
 * kind, origin by)` as four string indexes each (varints, after their count); the times, ms
 * since 1970 as zigzag varint deltas from the one before (after their count); then the entries:
 * flags (in / explicit id / time as string / UUID peer / weight in hundredths), class index,
 * peer (16 bytes or string index), weight (hundredths as a varint, or float64), time (index in
 * the times, or string index), [id (string index)]. About 20 bytes an entry where format 1 took 37.
 */
export function encodeAdjacency(node: string, adjacency: Adjacency): AdjacencyRecord | undefined {
  if (adjacency.out.size === 0 && adjacency.in.size === 0) return undefined;
  const t = new EntryTables([], [], 0, []);
  const w = new Writer();
  for (const edge of adjacency.out.values()) t.write(w, edge, false);
  for (const edge of adjacency.in.values()) if (edge.from !== node || edge.to !== node) t.write(w, edge, true);
  const head = new Writer();
  head.byte(FORMAT_2);
  t.writeHead(head, new Uint8Array(0), new Uint8Array(0), 0);
  const out = new Uint8Array(head.length + w.length);
  out.set(head.bytes.subarray(0, head.length));
  out.set(w.bytes.subarray(0, w.length), head.length);
  return { s: t.strings, b: out };
}

/**
 * The string, class and time tables of one format 2 record as its entries are written
 * ({@link encodeAdjacency}; `record-adjacency-append.ts` starts them from a stored record's
 * tables and appends to them): a string, class or time already there is referred to by its
 * index, a new one is added at the end. Internal to the adjacency codec.
 */
export class EntryTables {
  readonly #index = new Map<string, number>();
  readonly #classes = new Map<string, number>();
  /** The string indexes of the classes added here, four a class. */
  readonly #newClasses: number[] = [];
  readonly #times = new Map<number, number>();
  /** The times (ms) added here, in order. */
  readonly #newTimes: number[] = [];
  /**
   * @param strings The record's string table (grown in place).
   * @param classes The record's classes, as `view,subtype,kind,by` string indexes joined by commas.
   * @param timeCount How many times the record holds.
   * @param times The record's times (ms), by index.
   */
  constructor(readonly strings: string[], classes: readonly string[], timeCount: number, times: readonly number[]) {
    strings.forEach((s, i) => {
      if (!this.#index.has(s)) this.#index.set(s, i);
    });
    classes.forEach((c, i) => {
      if (!this.#classes.has(c)) this.#classes.set(c, i);
    });
    this.#classCount = classes.length;
    this.#timeCount = timeCount;
    times.forEach((ms, i) => {
      if (!this.#times.has(ms)) this.#times.set(ms, i);
    });
  }
  #classCount: number;
  #timeCount: number;
  /** The index of string `s`, added at the end when new. */
  ref(s: string): number {
    let i = this.#index.get(s);
    if (i === undefined) {
      i = this.strings.length;
      this.strings.push(s);
      this.#index.set(s, i);
    }
    return i;
  }
  /** Writes one entry (layout: {@link encodeAdjacency}). */
  write(w: Writer, edge: MemoryEdge, incoming: boolean): void {
    const peer = incoming ? edge.from : edge.to;
    let ms = exactMs(edge.createdAt);
    if (ms !== undefined && Math.abs(ms) >= TIME_LIMIT) ms = undefined;
    const explicit = !isCanonicalEdge(edge);
    const uuid = UUID.test(peer);
    const hundredths = centi(edge.weight);
    w.byte((incoming ? IN : 0) | (explicit ? EXPLICIT_ID : 0) | (ms === undefined ? TIME_AS_STRING : 0) | (uuid ? PEER_UUID : 0) | (hundredths === undefined ? 0 : WEIGHT_CENTI));
    const parts = [this.ref(edge.view), this.ref(edge.subtype), this.ref(edge.origin.kind), this.ref(edge.origin.by)];
    const name = parts.join(',');
    let c = this.#classes.get(name);
    if (c === undefined) {
      c = this.#classCount++;
      this.#classes.set(name, c);
      this.#newClasses.push(...parts);
    }
    w.varint(c);
    if (uuid) w.uuid(peer);
    else w.varint(this.ref(peer));
    if (hundredths === undefined) w.f64(edge.weight);
    else w.varint(hundredths);
    if (ms === undefined) w.varint(this.ref(edge.createdAt));
    else {
      let t = this.#times.get(ms);
      if (t === undefined) {
        t = this.#timeCount++;
        this.#times.set(ms, t);
        this.#newTimes.push(ms);
      }
      w.varint(t);
    }
    if (explicit) w.varint(this.ref(edge.id));
  }
  /**
   * Writes the class and time tables (after the format byte): their counts, the stored tables'
   * bytes `oldClasses` / `oldTimes` as they are, then the classes and times added here (the
   * first time's delta from `lastMs`, the stored record's last time, 0 when it has none).
   */
  writeHead(head: Writer, oldClasses: Uint8Array, oldTimes: Uint8Array, lastMs: number): void {
    head.varint(this.#classCount);
    head.raw(oldClasses);
    for (const i of this.#newClasses) head.varint(i);
    head.varint(this.#timeCount);
    head.raw(oldTimes);
    let last = lastMs;
    for (const ms of this.#newTimes) {
      const d = ms - last;
      head.varint(d >= 0 ? d * 2 : -d * 2 - 1);
      last = ms;
    }
  }
}

/**
 * The adjacency a record packs (`undefined` record: no edge); with `subtype`, its edges of that
 * subtype only (the others are skipped undecoded). Reads format 2 ({@link encodeAdjacency}) and
 * format 1, which records written before stop 33 hold (they are rewritten in format 2 when next
 * written).
 * @throws Error on a malformed record (the adapter reports it as `STORAGE_FAILED`).
 */
export function decodeAdjacency(namespace: string, node: string, record: AdjacencyRecord | undefined, subtype?: EdgeSubtype): Adjacency {
  const adjacency: Adjacency = { out: new Map(), in: new Map() };
  if (record === undefined) return adjacency;
  const { s, b } = record;
  const str = (i: number): string => {
    const v = s[i];
    if (v === undefined) throw new Error(`adjacency record of ${JSON.stringify(node)} refers to string ${i} of ${s.length}`);
    return v;
  };
  if (b[0] !== FORMAT_2) {
    decodeFormat1(namespace, node, b, str, adjacency, subtype);
    return adjacency;
  }
  const r = new Reader(b);
  r.pos = 1;
  const classCount = r.varint();
  const classes: Array<[View, EdgeSubtype, MemoryEdge['origin']['kind'], string]> = [];
  for (let i = 0; i < classCount; i++) classes.push([str(r.varint()) as View, str(r.varint()) as EdgeSubtype, str(r.varint()) as MemoryEdge['origin']['kind'], str(r.varint())]);
  const timeCount = r.varint();
  // The times as ms; each is written as ISO text only when an entry decoded here uses it (a
  // subtype read skips most entries, and `toISOString` was the decoder's largest cost, issue 25).
  // A time outside Date's range fails the record here, as its eager conversion did.
  const times: number[] = [];
  const isoTimes: Array<string | undefined> = [];
  for (let i = 0, ms = 0; i < timeCount; i++) {
    const z = r.varint();
    ms += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    if (!(Math.abs(ms) <= MAX_DATE_MS)) throw new RangeError('Invalid time value');
    times.push(ms);
  }
  while (r.pos < b.length) {
    const flags = r.byte();
    const c = r.varint();
    const cls = classes[c];
    if (cls === undefined) throw new Error(`adjacency record of ${JSON.stringify(node)} refers to class ${c} of ${classes.length}`);
    const [view, sub, kind, by] = cls;
    if (subtype !== undefined && sub !== subtype) {
      if (flags & PEER_UUID) r.skip(16);
      else r.varint();
      if (flags & WEIGHT_CENTI) r.varint();
      else r.skip(8);
      r.varint(); // time
      if (flags & EXPLICIT_ID) r.varint();
      continue;
    }
    const peer = flags & PEER_UUID ? r.uuid() : str(r.varint());
    const weight = flags & WEIGHT_CENTI ? r.varint() / 100 : r.f64();
    let createdAt: string;
    if (flags & TIME_AS_STRING) createdAt = str(r.varint());
    else {
      const t = r.varint();
      let iso = isoTimes[t];
      if (iso === undefined) {
        const ms = times[t];
        if (ms === undefined) throw new Error(`adjacency record of ${JSON.stringify(node)} refers to time ${t} of ${times.length}`);
        iso = isoOf(ms);
        isoTimes[t] = iso;
      }
      createdAt = iso;
    }
    fileEdge(adjacency, namespace, node, flags, peer, flags & EXPLICIT_ID ? str(r.varint()) : undefined, view, sub, weight, { kind, by }, createdAt);
  }
  return adjacency;
}

/**
 * Files one decoded entry of `node`'s record in `adjacency` (either format): the edge runs from
 * `node` to `peer` (to `node` from `peer` when the entry is incoming); its id is `explicitId` or
 * the canonical one.
 */
function fileEdge(adjacency: Adjacency, namespace: string, node: string, flags: number, peer: string, explicitId: string | undefined, view: View, sub: EdgeSubtype, weight: number, origin: MemoryEdge['origin'], createdAt: string): void {
  const incoming = (flags & IN) !== 0;
  const from = incoming ? peer : node;
  const to = incoming ? node : peer;
  const id = explicitId ?? canonicalEdgeId(from, to, view, sub);
  const edge: MemoryEdge = { id, namespace, from, to, view, subtype: sub, weight, origin, createdAt };
  (incoming ? adjacency.in : adjacency.out).set(id, edge);
}

/**
 * Format 1 (before stop 33), entry by entry: flags (in / explicit id / time as string / UUID
 * peer), peer (16 bytes or string index), view, subtype, origin kind, origin by (string indexes,
 * varint), weight (float64), createdAt (ms as float64, or string index), [id (string index)].
 */
function decodeFormat1(namespace: string, node: string, b: Uint8Array, str: (i: number) => string, adjacency: Adjacency, subtype: EdgeSubtype | undefined): void {
  const r = new Reader(b);
  while (r.pos < b.length) {
    const flags = r.byte();
    const at = r.pos;
    if (flags & PEER_UUID) r.skip(16);
    else r.varint();
    const view = str(r.varint()) as View;
    const sub = str(r.varint()) as EdgeSubtype;
    if (subtype !== undefined && sub !== subtype) {
      r.varint(); // origin kind
      r.varint(); // origin by
      r.skip(8); // weight
      if (flags & TIME_AS_STRING) r.varint();
      else r.skip(8);
      if (flags & EXPLICIT_ID) r.varint();
      continue;
    }
    const after = r.pos;
    r.pos = at;
    const peer = flags & PEER_UUID ? r.uuid() : str(r.varint());
    r.pos = after;
    const kind = str(r.varint()) as MemoryEdge['origin']['kind'];
    const by = str(r.varint());
    const weight = r.f64();
    const createdAt = flags & TIME_AS_STRING ? str(r.varint()) : isoOf(r.f64());
    fileEdge(adjacency, namespace, node, flags, peer, flags & EXPLICIT_ID ? str(r.varint()) : undefined, view, sub, weight, { kind, by }, createdAt);
  }
}
