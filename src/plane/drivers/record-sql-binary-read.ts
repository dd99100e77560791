/**
 * The reader of the compact record value (format 2, `record-sql-binary.ts`, which describes the
 * layout): one structure back to the value it was written from.
 *
 * @module
 */
import { ARRAY, BYTES, DECIMAL, DICTIONARY, F64, FALSE, INT, KEY, NULL, OBJECT, POW10, STR, STR16, TIME, TRUE, TYPED_NAMES, TYPED_TAG, WORD_TAG, unzigzag } from './record-sql-binary.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Type of a typed array by its type byte (resolved once: `globalThis` holds them all). */
const TYPED_CTORS: ReadonlyArray<(new (buffer: ArrayBuffer) => ArrayBufferView) | undefined> = TYPED_NAMES.map(
  (n) => (globalThis as unknown as Record<string, new (buffer: ArrayBuffer) => ArrayBufferView>)[n],
);

/**
 * Reads one format 2 structure: a class rather than closures made per value, since a recall
 * decodes a few hundred records and every closure made per record was a measurable part of it
 * (issue 25).
 */
class StructureReader {
  pos = 0;
  constructor(
    readonly b: Uint8Array,
    readonly arrays: readonly Uint8Array[],
    readonly key: string | number | undefined,
  ) {}

  arrayAt(i: number): Uint8Array {
    const a = this.arrays[i];
    if (a === undefined) throw new Error(`record value refers to array ${i}, which it lacks`);
    return a;
  }

  byte(): number {
    if (this.pos >= this.b.length) throw new Error('record value cut inside its structure');
    return this.b[this.pos++] as number;
  }

  varint(): number {
    const b = this.b;
    const end = b.length;
    let x = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= end) throw new Error('record value cut inside its structure');
      const c = b[this.pos++] as number;
      x += (c & 0x7f) * scale;
      if (c < 0x80) return x;
      scale *= 128;
      if (scale > 2 ** 56) throw new Error('record value holds an overlong varint');
    }
  }

  utf8(n: number): string {
    const b = this.b;
    const pos = this.pos;
    const stop = pos + n;
    if (stop > b.length) throw new Error('record value cut inside a string');
    let ascii = n < 64;
    for (let i = pos; ascii && i < stop; i++) if ((b[i] as number) >= 0x80) ascii = false;
    const s = ascii ? String.fromCharCode.apply(null, b.subarray(pos, stop) as unknown as number[]) : decoder.decode(b.subarray(pos, stop));
    this.pos = stop;
    return s;
  }

  utf16(n: number): string {
    const b = this.b;
    if (this.pos + 2 * n > b.length) throw new Error('record value cut inside a string');
    let s = '';
    for (let i = 0; i < n; i++, this.pos += 2) s += String.fromCharCode((b[this.pos] as number) | ((b[this.pos + 1] as number) << 8));
    return s;
  }

  word(i: number): string {
    const w = DICTIONARY[i];
    if (w === undefined) throw new Error(`record value refers to word ${i}, which this build lacks`);
    return w;
  }

  read(): unknown {
    const tag = this.byte();
    switch (tag) {
      case NULL:
        return null;
      case FALSE:
        return false;
      case TRUE:
        return true;
      case INT:
        return unzigzag(this.varint());
      case DECIMAL: {
        const p = POW10[this.byte()];
        if (p === undefined) throw new Error('record value holds a bad decimal scale');
        return unzigzag(this.varint()) / p;
      }
      case F64: {
        const b = this.b;
        if (this.pos + 8 > b.length) throw new Error('record value cut inside a number');
        const x = new DataView(b.buffer, b.byteOffset + this.pos, 8).getFloat64(0, true);
        this.pos += 8;
        return x;
      }
      case STR:
        return this.utf8(this.varint());
      case STR16:
        return this.utf16(this.varint());
      case WORD_TAG:
        return this.word(this.varint());
      case KEY:
        if (typeof this.key !== 'string') throw new Error('record value refers to its key, which was not given');
        return this.key;
      case TIME:
        return new Date(unzigzag(this.varint())).toISOString();
      case ARRAY: {
        const n = this.varint();
        if (n > this.b.length - this.pos) throw new Error('record value holds an array longer than itself');
        const a = new Array<unknown>(n);
        for (let i = 0; i < n; i++) a[i] = this.read();
        return a;
      }
      case OBJECT: {
        const n = this.varint();
        const o: Record<string, unknown> = {};
        for (let i = 0; i < n; i++) {
          const k = this.varint();
          const name = k % 4 === 0 ? this.word(k / 4) : k % 4 === 1 ? this.utf8((k - 1) / 4) : k % 4 === 2 ? this.utf16((k - 2) / 4) : undefined;
          if (name === undefined) throw new Error('record value holds a bad member key');
          const v = this.read();
          // defineProperty, as JSON.parse does: a plain assignment to `__proto__` would set the prototype
          if (name === '__proto__') Object.defineProperty(o, name, { value: v, writable: true, enumerable: true, configurable: true });
          else o[name] = v;
        }
        return o;
      }
      case BYTES:
        return this.arrayAt(this.varint());
      case TYPED_TAG: {
        const code = this.byte();
        const Type = TYPED_CTORS[code];
        if (Type === undefined) throw new Error('record value holds an unknown array type');
        return new Type(this.arrayAt(this.varint()).buffer as ArrayBuffer); // arrayAt gives a fresh copy: its buffer is its bytes
      }
      default:
        throw new Error(`record value holds an unknown tag ${tag}`);
    }
  }
}

/**
 * The structure of a format 2 value read from `b` (its bytes after the length), with its byte
 * arrays `arrays` (a fresh copy each: a typed array other than Uint8Array takes its buffer) and
 * `key` the record's key.
 * @throws Error on bytes that are not such a structure (a damaged record).
 */
export function decodeBinaryStructure(b: Uint8Array, arrays: readonly Uint8Array[], key: string | number | undefined): unknown {
  const r = new StructureReader(b, arrays, key);
  const value = r.read();
  if (r.pos !== b.length) throw new Error('record value has bytes after its structure');
  return value;
}
