/**
 * The value and key codec of the SQL record driver (`record-sql.ts`, issue 22): how a record
 * the store puts becomes one BLOB, and how a {@link RecordKey} and a namespace name become SQL
 * values that sort in the driver's key order.
 *
 * Values: what the record store puts is JSON-safe data (node records, adjacency, edge ids, meta,
 * change lists, checkpoint and bookkeeping records) plus byte arrays (vectors, packed adjacency,
 * checkpoint parts). Since stop 33 a value is written in format 2, `record-sql-binary.ts` (its
 * structure as tagged binary: about half the bytes of a node record, a tenth of an adjacency
 * record's string table). Format 1, which stores written before hold and which is still read
 * (a record is rewritten in format 2 when it is next put; nothing rewrites the others: they
 * stay readable as they are), is
 * `[u32 BE json length][JSON, UTF-8][per byte array: u32 BE length, its bytes]`, the JSON holding
 * each byte array as the string `"\u0000b<i>"` (the i-th array) or `"\u0000t<Type>:<i>"` for
 * another typed array (its bytes, read back as that type). A string of the value that begins with
 * U+0000 is written with one more U+0000 in front (taken off when read), so no string of the data
 * can be mistaken for an array. Like structured clone, a function, symbol or BigInt is refused
 * (a `DataCloneError`); unlike it, `undefined` object members are left out (as JSON does), and
 * NaN / ±Infinity read back as null (no record of the store holds them).
 *
 * Keys and namespace names: a string as its UTF-8 bytes (a BLOB), a number as itself. SQLite
 * orders numbers before BLOBs and BLOBs bytewise, so keys keep the record order of
 * `record-driver.ts` (numbers first), strings by code point (UTF-8 byte order; it differs from
 * UTF-16 code-unit order only between U+E000–U+FFFF and supplementary characters, which no scan
 * of the store depends on: a scan's `after` is compared in the same order). BLOBs also carry a
 * U+0000 inside a name or id whole, which a bound C string would cut (node-sqlite3-wasm).
 *
 * @module
 */
import type { RecordKey, RecordTable } from './record-driver.js';
import { BINARY_FORMAT, cloneError, encodeBinaryValue } from './record-sql-binary.js';
import { decodeBinaryStructure } from './record-sql-binary-read.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
/**
 * Keys and namespace names: every one written is UTF-8, so bytes that are not are a changed byte
 * of the key index; they read with U+FFFD where they fail, and the record's keyed seal
 * (`record-sql-seal.ts` `KEYED`) then finds it damaged, instead of the whole read failing.
 */
const keyDecoder = new TextDecoder('utf-8');

/** Typed arrays the codec carries besides Uint8Array (by constructor name). */
const TYPED: Record<string, new (buffer: ArrayBuffer) => ArrayBufferView> = {
  Int8Array,
  Uint8ClampedArray,
  Int16Array,
  Uint16Array,
  Int32Array,
  Uint32Array,
  Float32Array,
  Float64Array,
};

/**
 * One value as a BLOB in format 2 (see the module); `key`, the record's key, lets a string of
 * the value equal to it be stored as one byte (then give the same key to {@link decodeRecordValue}).
 * @throws DOMException `DataCloneError` for a function, symbol or BigInt inside it.
 */
export function encodeRecordValue(value: unknown, key?: RecordKey, head = 0): Uint8Array {
  return encodeBinaryValue(value, key, head);
}

/**
 * One value as a BLOB in format 1 (before stop 33; kept for the tests of reading old stores).
 * @throws DOMException `DataCloneError` for a function, symbol or BigInt inside it.
 */
export function encodeRecordValueV1(value: unknown): Uint8Array {
  const arrays: Uint8Array[] = [];
  const json = JSON.stringify(value === undefined ? null : value, function (this: unknown, key: string, after: unknown): unknown {
    // The value before its toJSON (a Buffer's would turn it into an object of numbers).
    const raw = (this as Record<string, unknown>)[key];
    const v = ArrayBuffer.isView(raw) ? raw : after;
    if (typeof v === 'string') return v.charCodeAt(0) === 0 ? `\u0000${v}` : v;
    if (ArrayBuffer.isView(v)) {
      const name = Object.prototype.toString.call(v).slice(8, -1); // a Buffer is a Uint8Array
      if (name !== 'Uint8Array' && !(name in TYPED)) throw cloneError(`a ${name}`);
      arrays.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      return name === 'Uint8Array' ? `\u0000b${arrays.length - 1}` : `\u0000t${name}:${arrays.length - 1}`;
    }
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') throw cloneError(`a ${typeof v}`);
    return v;
  });
  const text = encoder.encode(json);
  let size = 4 + text.length;
  for (const a of arrays) size += 4 + a.byteLength;
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, text.length);
  out.set(text, 4);
  let at = 4 + text.length;
  for (const a of arrays) {
    view.setUint32(at, a.byteLength);
    out.set(a, at + 4);
    at += 4 + a.byteLength;
  }
  return out;
}

/** A stored value's BLOB, whole or as its chunks in order. */
export type StoredBytes = Uint8Array | readonly Uint8Array[];

/**
 * The value a BLOB of {@link encodeRecordValue} (format 2) or of format 1 holds (a fresh copy:
 * its byte arrays own their bytes), given whole or as its chunks in order (a value over
 * {@link joinChunks}' one chunk is then not copied twice, once to join and once per array);
 * `key`, the record's key, as given when it was encoded.
 * @throws Error when the BLOB is not such a value (a damaged record).
 */
export function decodeRecordValue(stored: StoredBytes, key?: RecordKey): unknown {
  // One chunk in format 2 (every record under a MiB written since stop 33): read in place.
  if (stored instanceof Uint8Array && stored[0] === BINARY_FORMAT) return decodeWhole(stored, key);
  const chunks = stored instanceof Uint8Array ? [stored] : stored;
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  /** Bytes [start, end) of the value: a view when they lie in one chunk, else a copy. */
  const bytes = (start: number, end: number, fresh: boolean): Uint8Array => {
    let base = 0;
    let i = 0;
    while (i < chunks.length - 1 && start >= base + (chunks[i] as Uint8Array).byteLength) base += (chunks[i++] as Uint8Array).byteLength;
    const first = chunks[i] as Uint8Array;
    if (end - base <= first.byteLength) return fresh ? first.slice(start - base, end - base) : first.subarray(start - base, end - base);
    const out = new Uint8Array(end - start);
    for (let at = start; at < end; i++) {
      const c = chunks[i] as Uint8Array;
      const part = c.subarray(at - base, Math.min(c.byteLength, end - base));
      out.set(part, at - start);
      at += part.byteLength;
      base += c.byteLength;
    }
    return out;
  };
  const u32 = (at: number): number => {
    const b = bytes(at, at + 4, false);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0);
  };
  if (size > 0 && (chunks[0] as Uint8Array)[0] === BINARY_FORMAT) return decodeFormat2(size, bytes, key);
  if (size < 4) throw new Error('record value shorter than its header');
  const length = u32(0);
  if (4 + length > size) throw new Error('record value shorter than its JSON');
  const arrays: Uint8Array[] = [];
  for (let at = 4 + length; at < size; ) {
    if (at + 4 > size) throw new Error('record value cut inside an array header');
    const n = u32(at);
    if (at + 4 + n > size) throw new Error('record value cut inside an array');
    arrays.push(bytes(at + 4, at + 4 + n, true));
    at += 4 + n;
  }
  const arrayAt = (i: string): Uint8Array => {
    const a = arrays[Number(i)];
    if (a === undefined) throw new Error(`record value refers to array ${i}, which it lacks`);
    return a;
  };
  const text = decoder.decode(bytes(4, 4 + length, false));
  const value: unknown = JSON.parse(text);
  // A tagged string is written by JSON.stringify with its U+0000 escaped: without that escape in
  // the text there is nothing to restore. Restoring by a walk rather than a JSON.parse reviver
  // (V8 calls a reviver for every value, several times slower on the store's records).
  return text.includes('\\u0000') ? restore(value, arrayAt) : value;
}

/** A varint of `bytes` at `at`: its value and the position after it. */
function varintAt(bytes: (start: number, end: number, fresh: boolean) => Uint8Array, size: number, at: number): [number, number] {
  const head = bytes(at, Math.min(size, at + 8), false);
  let x = 0;
  let scale = 1;
  for (let i = 0; i < head.length; i++) {
    const c = head[i] as number;
    x += (c & 0x7f) * scale;
    if (c < 0x80) return [x, at + i + 1];
    scale *= 128;
  }
  throw new Error('record value cut inside a length');
}

/** A format 2 value (`record-sql-binary.ts`) of `size` bytes read through `bytes`. */
function decodeFormat2(size: number, bytes: (start: number, end: number, fresh: boolean) => Uint8Array, key: RecordKey | undefined): unknown {
  const [length, start] = varintAt(bytes, size, 1);
  if (start + length > size) throw new Error('record value shorter than its structure');
  const arrays: Uint8Array[] = [];
  for (let at = start + length; at < size; ) {
    const [n, from] = varintAt(bytes, size, at);
    if (from + n > size) throw new Error('record value cut inside an array');
    arrays.push(bytes(from, from + n, true));
    at = from + n;
  }
  return decodeBinaryStructure(bytes(start, start + length, false), arrays, key);
}

/** A varint of `b` at `at`: its value and the position after it. */
function varintIn(b: Uint8Array, at: number): [number, number] {
  let x = 0;
  let scale = 1;
  for (let i = at; i < b.length && i < at + 8; i++) {
    const c = b[i] as number;
    x += (c & 0x7f) * scale;
    if (c < 0x80) return [x, i + 1];
    scale *= 128;
  }
  throw new Error('record value cut inside a length');
}

/** A format 2 value given whole as one chunk: the same as {@link decodeFormat2}, without a view per length read. */
function decodeWhole(b: Uint8Array, key: RecordKey | undefined): unknown {
  const size = b.length;
  const [length, start] = varintIn(b, 1);
  if (start + length > size) throw new Error('record value shorter than its structure');
  const arrays: Uint8Array[] = [];
  for (let at = start + length; at < size; ) {
    const [n, from] = varintIn(b, at);
    if (from + n > size) throw new Error('record value cut inside an array');
    arrays.push(b.slice(from, from + n));
    at = from + n;
  }
  return decodeBinaryStructure(b.subarray(start, start + length), arrays, key);
}

/** A string of a decoded value as the codec wrote it (see the module): an array, or the string without its escape. */
function untag(v: string, arrayAt: (i: string) => Uint8Array): unknown {
  const tag = v.charAt(1);
  if (tag === '\u0000') return v.slice(1);
  if (tag === 'b') return arrayAt(v.slice(2));
  if (tag === 't') {
    const colon = v.indexOf(':');
    const Type = TYPED[v.slice(2, colon)];
    if (Type === undefined || colon < 0) throw new Error(`record value holds an unknown array type ${JSON.stringify(v.slice(2, colon))}`);
    const bytes = arrayAt(v.slice(colon + 1));
    return new Type(bytes.buffer as ArrayBuffer); // arrayAt gives a fresh copy: its buffer is its bytes
  }
  throw new Error(`record value holds an unknown tag ${JSON.stringify(tag)}`);
}

/** `value` (fresh from JSON.parse, so owned here) with its tagged strings restored in place. */
function restore(value: unknown, arrayAt: (i: string) => Uint8Array): unknown {
  if (typeof value === 'string') return value.charCodeAt(0) === 0 ? untag(value, arrayAt) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = restore(value[i], arrayAt);
    return value;
  }
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    const v = o[key];
    const r = restore(v, arrayAt);
    // defineProperty, as a reviver would: a plain assignment to `__proto__` would set the prototype
    if (r !== v) Object.defineProperty(o, key, { value: r, writable: true, enumerable: true, configurable: true });
  }
  return o;
}

/** A key or namespace name as the SQL value stored and bound for it (see the module). */
export function sqlKey(key: RecordKey): number | Uint8Array {
  if (typeof key === 'number') return key;
  // ASCII (ids, namespace names, meta keys): the bytes are the char codes. A loop is ~10× cheaper
  // than TextEncoder for strings this short, and a write binds 2-3 of them per record.
  if (key.length <= 64) {
    const out = new Uint8Array(key.length);
    for (let i = 0; i < key.length; i++) {
      const c = key.charCodeAt(i);
      if (c >= 0x80) return encoder.encode(key);
      out[i] = c;
    }
    return out;
  }
  return encoder.encode(key);
}

/** The key or namespace name a stored SQL value stands for (bytes that are not UTF-8 read with U+FFFD). @throws Error for a value of another type. */
export function keyOfSql(value: unknown): RecordKey {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (value instanceof Uint8Array) {
    // ASCII (ids, namespace names): the char codes are the bytes (TextDecoder costs more for keys this short).
    if (value.length <= 64) {
      let ascii = true;
      for (let i = 0; i < value.length; i++) if ((value[i] as number) >= 0x80) ascii = false;
      if (ascii) return String.fromCharCode.apply(null, value as unknown as number[]);
    }
    return keyDecoder.decode(value);
  }
  if (value instanceof ArrayBuffer) return keyDecoder.decode(new Uint8Array(value));
  throw new Error(`a record key of type ${typeof value}`);
}

/** The chunks of one stored value joined (undefined for none). */
export function joinChunks(chunks: readonly Uint8Array[]): Uint8Array | undefined {
  if (chunks.length <= 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
