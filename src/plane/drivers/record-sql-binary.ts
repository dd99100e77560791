/**
 * The compact record value of the SQL record driver (stop 33, `record-sql-codec.ts` format 2):
 * the value's JSON-safe structure written as tagged binary instead of JSON text, its byte arrays
 * after it as before. What it saves on the store's records: object keys and the store's fixed
 * words (statuses, views, subtypes, the shipped model ids) as an index into
 * {@link DICTIONARY} (one byte), a string equal to the record's key (a node's `id`) as one byte,
 * an ISO time that `Date` gives back exactly as its milliseconds (7 bytes, not 26), numbers as
 * varints or as decimal digits (`0.57`: 3 bytes), no quotes, commas or escapes.
 *
 * Layout: byte {@link BINARY_FORMAT}, a varint n, n bytes of structure (one value, below), then
 * per byte array: a varint length and its bytes. A value of the structure is a tag byte and:
 * null / false / true: nothing; integer: zigzag varint; decimal: a scale byte s and a zigzag
 * varint m (the number is `m / 10^s`); float64: 8 bytes LE; string: varint UTF-8 length and the
 * bytes; string with a lone surrogate: varint UTF-16 length and 2 bytes LE per unit; dictionary
 * string: varint index; the record's key: nothing; time: zigzag varint ms; array: varint count
 * and the values; object: varint count and per member a key (varint `index·4` for a dictionary
 * word, `length·4 + 1` then UTF-8 bytes, `length·4 + 2` then UTF-16 units) and a value; byte
 * array: varint index of the array; another typed array: a type byte and the array's index.
 *
 * Lossless for what the JSON format stored: every value reads back as JSON.parse of the old
 * format would have given it (same members in the same order, same numbers, `undefined` members
 * left out, NaN / ±Infinity as null), so a node record's checksum (`record-codec.ts`, over the
 * JSON of its fields) holds. {@link DICTIONARY} is append-only: a stored index must always name
 * the same word.
 *
 * @module
 */

/** First byte of a format 2 value (a format 1 value starts with the high byte of its JSON length, below 0x40). */
export const BINARY_FORMAT = 0xb1;

/**
 * Words stored as an index (object keys and string values). APPEND ONLY: never reorder, remove
 * or change an entry (stored records refer to them by position). Keys first (under 32 for one byte).
 */
export const DICTIONARY: readonly string[] = Object.freeze([
  // 0–31: the keys of node, adjacency, bookkeeping and checkpoint records
  'id', 'text', 'observedAt', 'ingestedAt', 'provenance', 'source', 'speaker', 'sessionId',
  'turnId', 'metadata', 'entities', 'keywords', 'timeRefs', 'types', 'episodic', 'semantic',
  'procedural', 'preference', 'embedding', 'encoder', 'bytes', 'status', 'supersededBy', 'seq',
  'sum', 'start', 'end', 'certain', 'certainty', 's', 'b', 'duplicates',
  // 32–: more keys, then values
  'utcOffsetMinutes', 'timeZone', 'vector', 'nodes', 'checkpointBytes', 'edges', 'byView', 'explicit',
  'floor', 'change', 'format', 'parts', 'sums', 'supersededAt', 'namespace',
  'active', 'superseded', 'deleted', 'year', 'month', 'day', 'hour',
  'temporal', 'causal', 'entity', 'rule', 'system-one',
  'precedes', 'same_session', 'close_in_time', 'before', 'after', 'during', 'contains', 'overlaps',
  'same_time', 'leads_to', 'related', 'redundant', 'contradicts', 'updates', 'same_entity',
  'session-start', 'shared-entity', 'consecutive-turns',
  'jev-mem/system-one@1.2.0', 'glove-sif-100d@570e285e1bf3',
]);

const WORD = new Map(DICTIONARY.map((w, i) => [w, i]));

/** Tag of null (the reader: `record-sql-binary-read.ts`). */
export const NULL = 0;
/** Tag of false (the reader: `record-sql-binary-read.ts`). */
export const FALSE = 1;
/** Tag of true (the reader: `record-sql-binary-read.ts`). */
export const TRUE = 2;
/** Tag of an integer (zigzag varint) (the reader: `record-sql-binary-read.ts`). */
export const INT = 3;
/** Tag of a decimal (scale byte, zigzag varint) (the reader: `record-sql-binary-read.ts`). */
export const DECIMAL = 4;
/** Tag of a float64 (8 bytes LE) (the reader: `record-sql-binary-read.ts`). */
export const F64 = 5;
/** Tag of a string (varint UTF-8 length, bytes) (the reader: `record-sql-binary-read.ts`). */
export const STR = 6;
/** Tag of a string with a lone surrogate (varint length, UTF-16 LE units) (the reader: `record-sql-binary-read.ts`). */
export const STR16 = 7;
/** Tag of a dictionary word (varint index) (the reader: `record-sql-binary-read.ts`). */
export const WORD_TAG = 8;
/** Tag of the record's key (the reader: `record-sql-binary-read.ts`). */
export const KEY = 9;
/** Tag of an ISO time (zigzag varint ms) (the reader: `record-sql-binary-read.ts`). */
export const TIME = 10;
/** Tag of an array (varint count, values) (the reader: `record-sql-binary-read.ts`). */
export const ARRAY = 11;
/** Tag of an object (varint count, key and value per member) (the reader: `record-sql-binary-read.ts`). */
export const OBJECT = 12;
/** Tag of a byte array (varint index) (the reader: `record-sql-binary-read.ts`). */
export const BYTES = 13;
/** Tag of another typed array (type byte, varint index) (the reader: `record-sql-binary-read.ts`). */
export const TYPED_TAG = 14;

/** Typed arrays the codec carries besides Uint8Array, by type byte (APPEND ONLY). */
export const TYPED_NAMES: readonly string[] = ['Int8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array'];
const TYPED_CODE = new Map(TYPED_NAMES.map((n, i) => [n, i]));
/** 10^0 … 10^9: the scales of a decimal. */
export const POW10 = Array.from({ length: 10 }, (_, i) => 10 ** i);
/** Times further than this from 1970 (ms) are kept as text, so their zigzag varint stays exact. */
const TIME_LIMIT = 2 ** 50;

const encoder = new TextEncoder();

/** The error structured clone gives for a value it cannot copy (the store maps it to `STORAGE_FAILED`). */
export function cloneError(what: string): Error {
  return new DOMException(`the SQL record driver cannot store ${what}`, 'DataCloneError');
}

class Out {
  b: Uint8Array;
  n = 0;
  /** A buffer of `size` bytes to begin with (it grows as needed). */
  constructor(size = 1024) {
    this.b = new Uint8Array(size);
  }
  room(k: number): void {
    if (this.n + k <= this.b.length) return;
    const next = new Uint8Array(Math.max(this.b.length * 2, this.n + k));
    next.set(this.b.subarray(0, this.n));
    this.b = next;
  }
  byte(x: number): void {
    this.room(1);
    this.b[this.n++] = x;
  }
  varint(x: number): void {
    this.room(8);
    while (x >= 0x80) {
      this.b[this.n++] = (x & 0x7f) | 0x80;
      x = Math.floor(x / 128);
    }
    this.b[this.n++] = x;
  }
  /** UTF-8 of a well-formed string, after a varint `length · mul + add`. */
  utf8(s: string, mul: number, add: number): void {
    let ascii = s.length < 64;
    for (let i = 0; ascii && i < s.length; i++) if (s.charCodeAt(i) >= 0x80) ascii = false;
    if (ascii) {
      this.varint(s.length * mul + add);
      this.room(s.length);
      for (let i = 0; i < s.length; i++) this.b[this.n++] = s.charCodeAt(i);
      return;
    }
    const bytes = encoder.encode(s);
    this.varint(bytes.length * mul + add);
    this.room(bytes.length);
    this.b.set(bytes, this.n);
    this.n += bytes.length;
  }
  utf16(s: string): void {
    this.room(s.length * 2);
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      this.b[this.n++] = c & 0xff;
      this.b[this.n++] = c >> 8;
    }
  }
}

/** ms of an ISO time string that `new Date(ms).toISOString()` gives back exactly, else undefined. */
function timeOf(s: string): number | undefined {
  if (s.length !== 24 || s.charCodeAt(23) !== 90 /* Z */ || s.charCodeAt(10) !== 84 /* T */) return undefined;
  const ms = Date.parse(s);
  if (!Number.isFinite(ms) || Math.abs(ms) >= TIME_LIMIT) return undefined;
  return new Date(ms).toISOString() === s ? ms : undefined;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/** Whether `s` has no lone surrogate (UTF-8 then carries it whole). */
function wellFormed(s: string): boolean {
  const own = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return typeof own === 'function' ? own.call(s) : !LONE_SURROGATE.test(s);
}

const zigzag = (x: number): number => (x >= 0 ? x * 2 : -x * 2 - 1);
/** The integer a zigzag varint value stands for. */
export const unzigzag = (z: number): number => (z % 2 === 0 ? z / 2 : -(z + 1) / 2);

/**
 * `value` in format 2 (see the module); `key`, the record's key, when a string equal to it is to
 * be stored as one byte.
 * `head` bytes (zeros) come first, before the value's bytes: room for a seal written in place
 * (`record-sql-seal.ts` `encodeSealed`), so the value is not copied again.
 * @throws DOMException `DataCloneError` for a function, symbol, BigInt or an unknown typed array inside it.
 */
export function encodeBinaryValue(value: unknown, key?: string | number, head = 0): Uint8Array {
  const out = new Out();
  const arrays: Uint8Array[] = [];
  const str = (s: string): void => {
    const w = WORD.get(s);
    if (w !== undefined) {
      out.byte(WORD_TAG);
      out.varint(w);
    } else if (s === key) out.byte(KEY);
    else {
      const ms = timeOf(s);
      if (ms !== undefined) {
        out.byte(TIME);
        out.varint(zigzag(ms));
      } else if (wellFormed(s)) {
        out.byte(STR);
        out.utf8(s, 1, 0);
      } else {
        out.byte(STR16);
        out.varint(s.length);
        out.utf16(s);
      }
    }
  };
  const num = (x: number): void => {
    if (!Number.isFinite(x)) return out.byte(NULL); // as JSON
    if (Number.isInteger(x) && Math.abs(x) <= 2 ** 52) {
      out.byte(INT);
      return out.varint(zigzag(x === 0 ? 0 : x));
    }
    for (let s = 1; s < POW10.length; s++) {
      const p = POW10[s] as number;
      const m = Math.round(x * p);
      if (Math.abs(m) > 2 ** 52) break;
      if (m / p === x) {
        out.byte(DECIMAL);
        out.byte(s);
        return out.varint(zigzag(m));
      }
    }
    out.byte(F64);
    out.room(8);
    new DataView(out.b.buffer, out.b.byteOffset + out.n, 8).setFloat64(0, x, true);
    out.n += 8;
  };
  /** Whether JSON leaves out an object member holding `v` (throws where the old codec threw). */
  const skipped = (v: unknown): boolean => {
    if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') throw cloneError(`a ${typeof v}`);
    return v === undefined;
  };
  const write = (v: unknown, name: string): void => {
    if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v) && typeof (v as { toJSON?: unknown }).toJSON === 'function') v = (v as { toJSON(k: string): unknown }).toJSON(name);
    switch (typeof v) {
      case 'string':
        return str(v);
      case 'number':
        return num(v);
      case 'boolean':
        return out.byte(v ? TRUE : FALSE);
      case 'undefined':
        return out.byte(NULL); // (in an array, as JSON)
      case 'object':
        break;
      default:
        throw cloneError(`a ${typeof v}`);
    }
    if (v === null) return out.byte(NULL);
    if (ArrayBuffer.isView(v)) {
      const typeName = Object.prototype.toString.call(v).slice(8, -1); // a Buffer is a Uint8Array
      const code = TYPED_CODE.get(typeName);
      if (typeName !== 'Uint8Array' && code === undefined) throw cloneError(`a ${typeName}`);
      arrays.push(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      if (code === undefined) out.byte(BYTES);
      else {
        out.byte(TYPED_TAG);
        out.byte(code);
      }
      return out.varint(arrays.length - 1);
    }
    if (Array.isArray(v)) {
      out.byte(ARRAY);
      out.varint(v.length);
      for (let i = 0; i < v.length; i++) write(v[i], String(i));
      return;
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    let count = 0;
    for (const k of keys) if (!skipped(o[k])) count++;
    out.byte(OBJECT);
    out.varint(count);
    for (const k of keys) {
      const item = o[k];
      if (item === undefined) continue;
      const w = WORD.get(k);
      if (w !== undefined) out.varint(w * 4);
      else if (wellFormed(k)) out.utf8(k, 4, 1);
      else {
        out.varint(k.length * 4 + 2);
        out.utf16(k);
      }
      write(item, k);
    }
  };
  write(value === undefined ? null : value, '');
  const structure = out.n;
  let size = head + 1 + 8 + structure;
  for (const a of arrays) size += 8 + a.byteLength;
  const whole = new Out(size);
  whole.n = head;
  whole.byte(BINARY_FORMAT);
  whole.varint(structure);
  whole.b.set(out.b.subarray(0, structure), whole.n);
  whole.n += structure;
  for (const a of arrays) {
    whole.varint(a.byteLength);
    whole.b.set(a, whole.n);
    whole.n += a.byteLength;
  }
  return whole.b.subarray(0, whole.n); // (`size` is an upper bound by at most 8 bytes an array: no second copy)
}
