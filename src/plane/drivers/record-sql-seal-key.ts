/**
 * The record's own key inside a keyed seal of the SQL record driver (layout 8, h-break15 finding
 * 1): a value is stored as `[KEYED][CRC-32 of the rest][key part][value]`
 * (`record-sql-seal.ts`), the key part naming the table, namespace and key the value was put
 * under. A read compares it with the key the index led to ({@link keyPartMatches}), so a changed
 * byte of the key index (a record reached under another id, its value's id following the key,
 * `record-sql-binary.ts` `KEY`) reads as a damaged record, and names the key it was put under
 * ({@link keyPartKey}), instead of serving it under the changed id.
 *
 * Key part: the table's code (a byte: its index in `RECORD_TABLES`), a varint length and the
 * namespace's UTF-8 bytes, then a kind byte: 0, a varint length and the key's UTF-8 bytes (a
 * string key), or 1 and the key as a float64, big-endian (a number key). The chunk number is not
 * in it: the seal covers the chunks joined in order (`record-sql-reads.ts` checks their numbers).
 *
 * @module
 */
import { RECORD_TABLES, type RecordKey, type RecordTable } from './record-driver.js';
import { sqlKey } from './record-sql-codec.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const TABLE_CODE = new Map(RECORD_TABLES.map((t, i) => [t, i]));

/** UTF-8 of `s` (the driver's key codec: ASCII by a loop). */
const utf8 = (s: string): Uint8Array => sqlKey(s) as Uint8Array;

const varintBytes = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

function putVarint(out: Uint8Array, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

/** The key part of `(table, ns, key)` (see the module). */
export function keyPart(table: RecordTable, ns: string, key: RecordKey): Uint8Array {
  const nsBytes = utf8(ns);
  const keyBytes = typeof key === 'number' ? undefined : utf8(key);
  const size = 1 + varintBytes(nsBytes.length) + nsBytes.length + 1 + (keyBytes === undefined ? 8 : varintBytes(keyBytes.length) + keyBytes.length);
  const out = new Uint8Array(size);
  out[0] = TABLE_CODE.get(table) as number;
  let at = putVarint(out, 1, nsBytes.length);
  out.set(nsBytes, at);
  at += nsBytes.length;
  if (keyBytes === undefined) {
    out[at] = 1;
    new DataView(out.buffer).setFloat64(at + 1, key as number);
  } else {
    out[at] = 0;
    out.set(keyBytes, putVarint(out, at + 1, keyBytes.length));
  }
  return out;
}

/** A varint at `at` of `b`: [value, next offset], or undefined past the end. */
function readVarint(b: Uint8Array, at: number): [number, number] | undefined {
  let n = 0;
  let mul = 1;
  for (let i = 0; i < 5; i++) {
    const x = b[at + i];
    if (x === undefined) return undefined;
    n += (x & 0x7f) * mul;
    if (x < 0x80) return [n, at + i + 1];
    mul *= 128;
  }
  return undefined;
}

/** Whether bytes [at, at + len) of `b` are the UTF-8 of `s` (ASCII compared in place). */
function sameText(b: Uint8Array, at: number, len: number, s: string): boolean {
  if (s.length === len) {
    let i = 0;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80 || b[at + i] !== c) break;
    }
    if (i === len) return true;
    if (s.charCodeAt(i) < 0x80) return false;
  } else if (s.length > len) return false;
  const e = encoder.encode(s);
  if (e.length !== len) return false;
  for (let i = 0; i < len; i++) if (b[at + i] !== e[i]) return false;
  return true;
}

/**
 * Where the value starts after the key part at `at` of `b` when that key part is `(table, ns,
 * key)`'s; -1 when it names another record (or does not parse: then the seal did not hold).
 */
export function keyPartMatches(b: Uint8Array, at: number, table: RecordTable, ns: string, key: RecordKey): number {
  if (b[at] !== TABLE_CODE.get(table)) return -1;
  const n = readVarint(b, at + 1);
  if (n === undefined || n[1] + n[0] > b.length || !sameText(b, n[1], n[0], ns)) return -1;
  const kind = n[1] + n[0];
  if (b[kind] === 1) {
    if (typeof key !== 'number' || kind + 9 > b.length) return -1;
    return new DataView(b.buffer, b.byteOffset).getFloat64(kind + 1) === key ? kind + 9 : -1;
  }
  const k = readVarint(b, kind + 1);
  if (b[kind] !== 0 || typeof key !== 'string' || k === undefined || k[1] + k[0] > b.length) return -1;
  return sameText(b, k[1], k[0], key) ? k[1] + k[0] : -1;
}

/** The record a key part at `at` of `b` names (for the damage it is reported as), or undefined when it does not parse. */
export function keyPartKey(b: Uint8Array, at: number): { table: RecordTable | undefined; ns: string; key: RecordKey } | undefined {
  try {
    const table = RECORD_TABLES[b[at] as number];
    const n = readVarint(b, at + 1);
    if (n === undefined) return undefined;
    const ns = decoder.decode(b.subarray(n[1], n[1] + n[0]));
    const kind = n[1] + n[0];
    if (b[kind] === 1) return { table, ns, key: new DataView(b.buffer, b.byteOffset).getFloat64(kind + 1) };
    const k = readVarint(b, kind + 1);
    if (k === undefined) return undefined;
    return { table, ns, key: decoder.decode(b.subarray(k[1], k[1] + k[0])) };
  } catch {
    return undefined;
  }
}
