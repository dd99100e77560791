import { describe, expect, it } from 'vitest';
import { crc32, crc32Text, nodeRowSum, partSum, recordSum } from '../../src/plane/store/checksum.js';

const utf8 = new TextEncoder();

/** The byte-by-byte CRC-32 the store computed before slicing-by-8 (the reference). */
function crc32Bytewise(bytes: Uint8Array, crc = 0): number {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = (table[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** Deterministic pseudo-random bytes (xorshift32). */
function bytesOf(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

describe('crc32 (slicing-by-8)', () => {
  it('gives the known CRC-32 values', () => {
    expect(crc32(new Uint8Array(0))).toBe(0);
    expect(crc32(utf8.encode('a'))).toBe(0xe8b7be43);
    expect(crc32(utf8.encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(utf8.encode('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
    expect(crc32(new Uint8Array(32))).toBe(0x190a55ad);
    expect(crc32(new Uint8Array(32).fill(0xff))).toBe(0xff6cab0b);
  });

  it('equals the byte-by-byte form for every length 0..70 and views at odd offsets', () => {
    const big = bytesOf(300, 7);
    for (let len = 0; len <= 70; len++) {
      for (const offset of [0, 1, 3, 5]) {
        const view = big.subarray(offset, offset + len);
        expect(crc32(view)).toBe(crc32Bytewise(view));
      }
    }
    const large = bytesOf(100_003, 11);
    expect(crc32(large)).toBe(crc32Bytewise(large));
  });

  it('continues a running value as the byte-by-byte form does', () => {
    const data = bytesOf(1_000, 3);
    let crc = 0;
    for (let i = 0; i < data.length; i += 37) crc = crc32(data.subarray(i, i + 37), crc);
    expect(crc).toBe(crc32Bytewise(data));
    expect(crc32(data.subarray(500), crc32(data.subarray(0, 500)))).toBe(crc32(data));
  });

  it('continues a running value across pieces of every size, large ones (the native CRC-32 in Node) and small ones alike', () => {
    const data = bytesOf(50_000, 13);
    const cuts = [0, 3, 4_096, 4_100, 12_000, 12_001, 30_000, 50_000];
    let crc = 0;
    for (let i = 1; i < cuts.length; i++) crc = crc32(data.subarray(cuts[i - 1], cuts[i]), crc);
    expect(crc).toBe(crc32Bytewise(data));
    expect(crc32(data.subarray(7, 20_007), 0xdeadbeef)).toBe(crc32Bytewise(data.subarray(7, 20_007), 0xdeadbeef));
  });

  it('keeps the record sums stored before it (same values)', () => {
    // Values computed with the byte-by-byte CRC-32 of the stored format (BASE 75c67a0).
    expect(recordSum(['abc', 12, null])).toBe(crc32Bytewise(utf8.encode('abc\u000012\u0000\u0001\u0000')));
    expect(partSum('dir.vec', bytesOf(4_096, 5))).toBe(crc32Bytewise(new Uint8Array([...utf8.encode('dir.vec'), 0, ...bytesOf(4_096, 5), 0])));
    expect(nodeRowSum('n1', 3, 'body text', new Uint8Array([1, 2, 3]))).toBe(crc32Bytewise(new Uint8Array([...utf8.encode('n1'), 0, ...utf8.encode('3'), 0, ...utf8.encode('body text'), 0, 1, 2, 3, 0])));
  });
});

describe('crc32Text', () => {
  it('is the CRC of the text’s UTF-8 as TextEncoder writes it, lone surrogates and long texts included (issue 25: no array per field)', () => {
    const texts = ['', 'a', 'Caroline went to the LGBTQ support group.', 'café 我的猫 🐈', 'lone \ud800 high, lone \udc00 low', 'x'.repeat(5000), '€'.repeat(3000)];
    for (const t of texts) {
      expect(crc32Text(t)).toBe(crc32Bytewise(utf8.encode(t)));
      expect(crc32Text(t, 0x1234)).toBe(crc32(utf8.encode(t), 0x1234));
    }
    // a short text after a long one reads only its own bytes from the reused buffer
    expect(crc32Text('ab')).toBe(crc32Bytewise(utf8.encode('ab')));
  });
});
