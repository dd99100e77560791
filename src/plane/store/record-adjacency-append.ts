/**
 * Reading and growing an adjacency record without decoding it (stop 33): whether it holds an
 * edge's canonical outgoing entry ({@link hasCanonicalOut}), and the record after edges are
 * only added to it ({@link appendAdjacency}). At 100k a write added ~19 edges and re-encoded the
 * whole records of both ends of each (~350 entries a write), the largest write cost that grew
 * with the namespace. Layouts: `encodeAdjacency` in `record-adjacency.ts`.
 *
 * Format 2 allows appending: an entry refers to the record's strings, classes and times by their
 * index and never to another entry, so new strings, classes and times go at the end of their
 * tables (the tables' counts and the new items are written again, the old table bytes and entries
 * are copied as they are). A format 1 record is not appended to: it is encoded whole, in format 2.
 *
 * @module
 */
import type { MemoryEdge } from '../../types.js';
import { Reader, UUID, Writer } from './record-adjacency-bytes.js';
import { type AdjacencyRecord, EntryTables, EXPLICIT_ID, FORMAT_2, IN, PEER_UUID, TIME_AS_STRING, WEIGHT_CENTI } from './record-adjacency.js';

/** The 16 bytes a UUID peer is stored as, or undefined when `id` is not a lower-case UUID. */
function uuidBytes(id: string): Uint8Array | undefined {
  if (!UUID.test(id)) return undefined;
  const w = new Writer();
  w.uuid(id);
  return w.done();
}

/** Whether `b` holds `want` at `at`. */
function sameAt(b: Uint8Array, at: number, want: Uint8Array): boolean {
  for (let i = 0; i < 16; i++) if (b[at + i] !== want[i]) return false;
  return true;
}

/**
 * True when `record` holds an outgoing entry to `to` of `view` and `subtype` whose id is not
 * stored (the write path's canonical id `${node}>${to}:${view}:${subtype}`, `canonicalEdgeId`),
 * read without decoding the record (format 2 or 1): what an edge put asks of its `from` end
 * before it is appended to. An entry with a stored id is not matched (its id is another).
 * @throws Error on a malformed record (it ends early, or refers to a string or class it lacks).
 */
export function hasCanonicalOut(record: AdjacencyRecord | undefined, to: string, view: string, subtype: string): boolean {
  if (record === undefined) return false;
  const { s, b } = record;
  const str = (i: number): string => {
    const v = s[i];
    if (v === undefined) throw new Error(`adjacency record refers to string ${i} of ${s.length}`);
    return v;
  };
  const want = uuidBytes(to);
  const r = new Reader(b);
  if (b[0] !== FORMAT_2) return hasCanonicalOut1(r, str, want, to, view, subtype);
  r.pos = 1;
  const classCount = r.varint();
  /** Per class: whether its view and subtype are the ones asked for. */
  const match: boolean[] = [];
  for (let i = 0; i < classCount; i++) {
    const v = str(r.varint());
    const st = str(r.varint());
    str(r.varint()); // origin kind
    str(r.varint()); // origin by
    match.push(v === view && st === subtype);
  }
  const timeCount = r.varint();
  for (let i = 0; i < timeCount; i++) r.varint();
  while (r.pos < b.length) {
    const flags = r.byte();
    const c = r.varint();
    if (c >= classCount) throw new Error(`adjacency record refers to class ${c} of ${classCount}`);
    const out = !(flags & IN);
    let peer = false;
    if (flags & PEER_UUID) {
      const at = r.pos;
      r.skip(16);
      peer = out && want !== undefined && sameAt(b, at, want);
    } else {
      const i = r.varint();
      peer = out && str(i) === to;
    }
    if (flags & WEIGHT_CENTI) r.varint();
    else r.skip(8);
    r.varint(); // time (index in the times, or string index)
    if (flags & EXPLICIT_ID) {
      r.varint();
      continue;
    }
    if (peer && match[c]) return true;
  }
  return false;
}

/** {@link hasCanonicalOut} over a format 1 record (entry by entry, names as string indexes). */
function hasCanonicalOut1(r: Reader, str: (i: number) => string, want: Uint8Array | undefined, to: string, view: string, subtype: string): boolean {
  const b = r.bytes;
  while (r.pos < b.length) {
    const flags = r.byte();
    const out = !(flags & IN);
    let peer = false;
    if (flags & PEER_UUID) {
      const at = r.pos;
      r.skip(16);
      peer = out && want !== undefined && sameAt(b, at, want);
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
 * The record of `node` after edges are ADDED to it: the entries of `record` kept as they are,
 * the new outgoing entries after its outgoing ones and the new incoming entries after its
 * incoming ones, so it decodes to exactly what `encodeAdjacency` of the grown adjacency decodes
 * to (same edges, same order); strings, classes and times the record lacks are added at the end
 * of its tables. The caller guarantees that no edge of `out` / `incoming` is in the record
 * already. Self-loops (from = to = node) go in `out` only, as in `encodeAdjacency`.
 * Undefined — the caller then encodes the whole adjacency — when the record is in format 1
 * (so it is rewritten in format 2) or does not hold its outgoing entries before its incoming
 * ones (never the case of a record `encodeAdjacency` wrote).
 * @throws Error on a malformed format 2 record (it ends early, or refers to a string, class or
 * time it lacks), as a decode would.
 */
export function appendAdjacency(node: string, record: AdjacencyRecord, out: readonly MemoryEdge[], incoming: readonly MemoryEdge[]): AdjacencyRecord | undefined {
  const { b, s } = record;
  if (b[0] !== FORMAT_2) return undefined;
  const r = new Reader(b);
  const fail = (what: string, i: number, of: number): never => {
    throw new Error(`adjacency record of ${JSON.stringify(node)} refers to ${what} ${i} of ${of}`);
  };
  const str = (): void => {
    const i = r.varint();
    if (i >= s.length) fail('string', i, s.length);
  };
  // Walked whole, its references checked, so a malformed record fails as a decode would.
  r.pos = 1;
  const classCount = r.varint();
  const classStart = r.pos;
  const classes: string[] = [];
  for (let i = 0; i < classCount; i++) {
    const parts = [r.varint(), r.varint(), r.varint(), r.varint()];
    for (const p of parts) if (p >= s.length) fail('string', p, s.length);
    classes.push(parts.join(','));
  }
  const classEnd = r.pos;
  const timeCount = r.varint();
  const timeStart = r.pos;
  const times: number[] = [];
  let ms = 0;
  for (let i = 0; i < timeCount; i++) {
    const z = r.varint();
    ms += z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    times.push(ms);
  }
  const entryStart = r.pos;
  let boundary = -1;
  while (r.pos < b.length) {
    const at = r.pos;
    const flags = r.byte();
    if (flags & IN) {
      if (boundary < 0) boundary = at;
    } else if (boundary >= 0) return undefined; // an outgoing entry after an incoming one
    const c = r.varint();
    if (c >= classCount) fail('class', c, classCount);
    if (flags & PEER_UUID) r.skip(16);
    else str();
    if (flags & WEIGHT_CENTI) r.varint();
    else r.skip(8);
    if (flags & TIME_AS_STRING) str();
    else {
      const t = r.varint();
      if (t >= timeCount) fail('time', t, timeCount);
    }
    if (flags & EXPLICIT_ID) str();
  }
  if (boundary < 0) boundary = b.length;
  const tables = new EntryTables([...s], classes, timeCount, times);
  const wo = new Writer();
  for (const edge of out) tables.write(wo, edge, false);
  const wi = new Writer();
  for (const edge of incoming) if (edge.from !== node || edge.to !== node) tables.write(wi, edge, true);
  const w = new Writer();
  w.byte(FORMAT_2);
  tables.writeHead(w, b.subarray(classStart, classEnd), b.subarray(timeStart, entryStart), ms);
  w.raw(b.subarray(entryStart, boundary));
  w.raw(wo.bytes.subarray(0, wo.length));
  w.raw(b.subarray(boundary));
  w.raw(wi.bytes.subarray(0, wi.length));
  return { s: tables.strings, b: w.done() };
}
