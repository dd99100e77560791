/**
 * Adjacency records of the record store (issue 13): one record per node holding every edge
 * that touches it, packed as bytes with a small string table, and the ids of edges.
 *
 * Why adjacency records rather than one record per edge: an IndexedDB index entry repeats the
 * index key and the primary key, and Chromium stores string keys as UTF-16, so an edge record
 * with two indexes on `[namespace, from]` / `[namespace, to]` costs ~700 bytes of keys before
 * its value, times ~17 edges per node. Packed in the records of both its ends, an edge costs
 * 2 × ~37 bytes (UUID peers as 16 bytes, weight and time as float64, names by string-table index).
 *
 * Edge ids: the write path names an edge `${from}>${to}:${view}:${subtype}`
 * ({@link canonicalEdgeId}); such an id is not stored, it is rebuilt from the entry. Any other id
 * is stored in the entry, and the adapter keeps an `edge-ids` record mapping it to its ends, so
 * a delete by id still finds the edge.
 *
 * @module
 */
import type { EdgeSubtype, MemoryEdge, View } from '../../types.js';

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

const IN = 1;
const EXPLICIT_ID = 2;
const TIME_AS_STRING = 4;
const PEER_UUID = 8;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

class Writer {
  bytes = new Uint8Array(256);
  length = 0;
  readonly #f64 = new DataView(new ArrayBuffer(8));
  #room(n: number): void {
    if (this.length + n <= this.bytes.length) return;
    const next = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
  }
  byte(b: number): void {
    this.#room(1);
    this.bytes[this.length++] = b;
  }
  varint(n: number): void {
    while (n >= 0x80) {
      this.byte((n & 0x7f) | 0x80);
      n = Math.floor(n / 128);
    }
    this.byte(n);
  }
  f64(x: number): void {
    this.#f64.setFloat64(0, x, true);
    this.#room(8);
    this.bytes.set(new Uint8Array(this.#f64.buffer), this.length);
    this.length += 8;
  }
  /** Writes a lower-case UUID (checked by the caller) as its 16 bytes. */
  uuid(id: string): void {
    this.#room(16);
    for (let i = 0; i < 36; i++) {
      if (i === 8 || i === 13 || i === 18 || i === 23) continue;
      this.bytes[this.length++] = (nibble(id.charCodeAt(i)) << 4) | nibble(id.charCodeAt(++i));
    }
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** The two hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, b) => (b < 16 ? '0' : '') + b.toString(16));

/** The value of one lower-case hex digit's char code. */
function nibble(c: number): number {
  return c <= 57 ? c - 48 : c - 87;
}

class Reader {
  pos = 0;
  readonly #view: DataView;
  constructor(readonly bytes: Uint8Array) {
    this.#view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  byte(): number {
    if (this.pos >= this.bytes.length) throw new Error('adjacency record ends early');
    return this.bytes[this.pos++] as number;
  }
  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.byte();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 128;
    }
  }
  f64(): number {
    if (this.pos + 8 > this.bytes.length) throw new Error('adjacency record ends early');
    const x = this.#view.getFloat64(this.pos, true);
    this.pos += 8;
    return x;
  }
  uuid(): string {
    if (this.pos + 16 > this.bytes.length) throw new Error('adjacency record ends early');
    const b = this.bytes;
    const p = this.pos;
    this.pos += 16;
    // (no helper function: this runs for every edge read)
    let out = '';
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) out += '-';
      out += HEX[b[p + i] as number] as string;
    }
    return out;
  }
  /** Moves past `n` bytes. */
  skip(n: number): void {
    if (this.pos + n > this.bytes.length) throw new Error('adjacency record ends early');
    this.pos += n;
  }
}

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

/** The ISO text of a time in milliseconds (as `new Date(ms).toISOString()`). */
function isoOf(ms: number): string {
  if (ms !== lastTime.fromMs) {
    lastTime.toIso = new Date(ms).toISOString();
    lastTime.fromMs = ms;
  }
  return lastTime.toIso;
}

/**
 * Packs the adjacency of one node, or undefined when it holds no edge (the record is then
 * deleted). Entry: flags (in / explicit id / time as string / UUID peer), peer (16 bytes or
 * string index), view, subtype, origin kind, origin by (string indexes, varint), weight (float64),
 * createdAt (ms as float64, or string index), [id (string index)].
 */
export function encodeAdjacency(node: string, adjacency: Adjacency): AdjacencyRecord | undefined {
  if (adjacency.out.size === 0 && adjacency.in.size === 0) return undefined;
  const strings: string[] = [];
  const index = new Map<string, number>();
  const ref = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  const w = new Writer();
  for (const edge of adjacency.out.values()) writeEntry(w, edge, false, ref);
  for (const edge of adjacency.in.values()) if (edge.from !== node || edge.to !== node) writeEntry(w, edge, true, ref);
  return { s: strings, b: w.done() };
}

/** Writes one entry of an adjacency record (layout: {@link encodeAdjacency}); `ref` gives a string's table index. */
function writeEntry(w: Writer, edge: MemoryEdge, incoming: boolean, ref: (s: string) => number): void {
  const peer = incoming ? edge.from : edge.to;
  const ms = exactMs(edge.createdAt);
  const explicit = !isCanonicalEdge(edge);
  const uuid = UUID.test(peer);
  w.byte((incoming ? IN : 0) | (explicit ? EXPLICIT_ID : 0) | (ms === undefined ? TIME_AS_STRING : 0) | (uuid ? PEER_UUID : 0));
  if (uuid) w.uuid(peer);
  else w.varint(ref(peer));
  w.varint(ref(edge.view));
  w.varint(ref(edge.subtype));
  w.varint(ref(edge.origin.kind));
  w.varint(ref(edge.origin.by));
  w.f64(edge.weight);
  if (ms === undefined) w.varint(ref(edge.createdAt));
  else w.f64(ms);
  if (explicit) w.varint(ref(edge.id));
}

/**
 * True when `record` holds an outgoing entry to `to` of `view` and `subtype` whose id is not
 * stored (the write path's canonical id `${node}>${to}:${view}:${subtype}`, {@link canonicalEdgeId}),
 * read without decoding the record: what an edge put asks of its `from` end before it is
 * appended to (stop 33). An entry with a stored id is not matched (its id is another).
 * @throws Error on a malformed record.
 */
export function hasCanonicalOut(record: AdjacencyRecord | undefined, to: string, view: string, subtype: string): boolean {
  if (record === undefined) return false;
  const { s, b } = record;
  const str = (i: number): string => {
    const v = s[i];
    if (v === undefined) throw new Error(`adjacency record refers to string ${i} of ${s.length}`);
    return v;
  };
  // The peer's 16 bytes when it is a UUID (as the writer packs it), compared byte for byte.
  let want: Uint8Array | undefined;
  if (UUID.test(to)) {
    const w = new Writer();
    w.uuid(to);
    want = w.done();
  }
  const r = new Reader(b);
  while (r.pos < b.length) {
    const flags = r.byte();
    const out = !(flags & IN);
    let peer = false;
    if (flags & PEER_UUID) {
      const at = r.pos;
      r.skip(16);
      if (out && want !== undefined) {
        peer = true;
        for (let i = 0; i < 16; i++) {
          if (b[at + i] !== want[i]) {
            peer = false;
            break;
          }
        }
      }
    } else {
      const i = r.varint();
      peer = out && str(i) === to;
    }
    const v = str(r.varint());
    const st = str(r.varint());
    r.varint(); // origin kind
    r.varint(); // origin by
    r.skip(8); // weight
    if (flags & TIME_AS_STRING) r.varint();
    else r.skip(8);
    if (flags & EXPLICIT_ID) {
      r.varint();
      continue;
    }
    if (peer && v === view && st === subtype) return true;
  }
  return false;
}

/**
 * The record of `node` after edges are ADDED to it (stop 33: a write at 100k added ~19 edges and
 * re-encoded the whole records of both ends of each, ~350 entries a write, the largest cost
 * that grew with the namespace): the entries of `record` kept as they are, the new outgoing
 * entries after its outgoing ones and the new incoming entries after its incoming ones, so it
 * decodes to exactly what {@link encodeAdjacency} of the grown adjacency decodes to (same edges,
 * same order); strings the record lacks are added at the end of its table. The caller
 * guarantees that no edge of `out` / `incoming` is in the record already (else it encodes the
 * whole adjacency). Self-loops (from = to = node) go in `out` only, as in {@link encodeAdjacency}.
 * Undefined when the record does not hold its outgoing entries before its incoming ones (never
 * the case of a record this module wrote): the caller then encodes the whole adjacency.
 * @throws Error on a malformed record (one that ends early or refers to a string it lacks).
 */
export function appendAdjacency(node: string, record: AdjacencyRecord, out: readonly MemoryEdge[], incoming: readonly MemoryEdge[]): AdjacencyRecord | undefined {
  const { b } = record;
  const r = new Reader(b);
  // Walked whole, its string references checked, so a malformed record fails as a decode would.
  const str = (): void => {
    const i = r.varint();
    if (i >= record.s.length) throw new Error(`adjacency record of ${JSON.stringify(node)} refers to string ${i} of ${record.s.length}`);
  };
  let boundary = -1;
  while (r.pos < b.length) {
    const at = r.pos;
    const flags = r.byte();
    if (flags & IN) {
      if (boundary < 0) boundary = at;
    } else if (boundary >= 0) return undefined; // an outgoing entry after an incoming one
    if (flags & PEER_UUID) r.skip(16);
    else str();
    str(); // view
    str(); // subtype
    str(); // origin kind
    str(); // origin by
    r.skip(8); // weight
    if (flags & TIME_AS_STRING) str();
    else r.skip(8);
    if (flags & EXPLICIT_ID) str();
  }
  if (boundary < 0) boundary = b.length;
  const strings = [...record.s];
  const index = new Map<string, number>();
  strings.forEach((s, i) => {
    if (!index.has(s)) index.set(s, i);
  });
  const ref = (s: string): number => {
    let i = index.get(s);
    if (i === undefined) {
      i = strings.length;
      strings.push(s);
      index.set(s, i);
    }
    return i;
  };
  const wo = new Writer();
  for (const edge of out) writeEntry(wo, edge, false, ref);
  const wi = new Writer();
  for (const edge of incoming) if (edge.from !== node || edge.to !== node) writeEntry(wi, edge, true, ref);
  const bytes = new Uint8Array(b.length + wo.length + wi.length);
  bytes.set(b.subarray(0, boundary), 0);
  bytes.set(wo.bytes.subarray(0, wo.length), boundary);
  bytes.set(b.subarray(boundary), boundary + wo.length);
  bytes.set(wi.bytes.subarray(0, wi.length), b.length + wo.length);
  return { s: strings, b: bytes };
}

/**
 * The adjacency a record packs (`undefined` record: no edge); with `subtype`, its edges of that
 * subtype only (the others are skipped undecoded).
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
    const incoming = (flags & IN) !== 0;
    const from = incoming ? peer : node;
    const to = incoming ? node : peer;
    const id = flags & EXPLICIT_ID ? str(r.varint()) : canonicalEdgeId(from, to, view, sub);
    const edge: MemoryEdge = { id, namespace, from, to, view, subtype: sub, weight, origin: { kind, by }, createdAt };
    (incoming ? adjacency.in : adjacency.out).set(id, edge);
  }
  return adjacency;
}
