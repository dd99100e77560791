/**
 * The byte writer and reader of adjacency records (`record-adjacency.ts`): varints, float64 (LE)
 * and lower-case UUIDs as their 16 bytes.
 *
 * @module
 */

/** A lower-case UUID (the write path's node ids), which an entry stores as 16 bytes. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The two hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, b) => (b < 16 ? '0' : '') + b.toString(16));

/** The char codes of the two hex digits of each byte value (byte b at 2b and 2b + 1). */
const HEX_CODES = Uint8Array.from(HEX.flatMap((h) => [h.charCodeAt(0), h.charCodeAt(1)]));
/** Where the two digits of each of a UUID's 16 bytes go in its 36 characters. */
const UUID_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];
/** The char codes of the UUID being read (the dashes stay). */
const uuidCodes: number[] = Array.from('00000000-0000-0000-0000-000000000000', (c) => c.charCodeAt(0));

/** The value of one lower-case hex digit's char code. */
function nibble(c: number): number {
  return c <= 57 ? c - 48 : c - 87;
}

/** A growing byte buffer. */
export class Writer {
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
  /** A whole number 0 ≤ n ≤ 2^53 − 1, 7 bits a byte, low first. */
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
  /** Writes `b` as it is. */
  raw(b: Uint8Array): void {
    this.#room(b.length);
    this.bytes.set(b, this.length);
    this.length += b.length;
  }
  done(): Uint8Array {
    return this.bytes.slice(0, this.length);
  }
}

/** A cursor over bytes; every read past the end throws `adjacency record ends early`. */
export class Reader {
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
    // (no helper function: this runs for every edge read.) One flat string from the char codes,
    // not 20 concatenations: the id is hashed as a map key next (issue 25).
    for (let i = 0; i < 16; i++) {
      const x = (b[p + i] as number) * 2;
      const at = UUID_AT[i] as number;
      uuidCodes[at] = HEX_CODES[x] as number;
      uuidCodes[at + 1] = HEX_CODES[x + 1] as number;
    }
    return String.fromCharCode.apply(null, uuidCodes);
  }
  /** Moves past `n` bytes. */
  skip(n: number): void {
    if (this.pos + n > this.bytes.length) throw new Error('adjacency record ends early');
    this.pos += n;
  }
}
