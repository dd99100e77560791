/**
 * String hashes for keys (issue 22): the 53-bit {@link hash53} of the node directory, the dedup
 * map and the SQL lexical index, and {@link textKey}, the key of process caches that memoise
 * something per text, so that no cache holds a memory's text itself.
 *
 * @module
 */

/**
 * A 53-bit hash of a string (two 32-bit multiplicative lanes, as in the public-domain cyrb53
 * scheme), as a safe integer: collisions among 10⁵ keys have probability ~10⁻⁶.
 * @param seed - a 32-bit integer; different seeds give independent hashes.
 */
export function hash53(s: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  return finish53(h1, h2);
}

/**
 * The cache key of a text: two independent {@link hash53} (106 bits) and the length, in base 36
 * (e.g. `"3k2j1x9q0a.1b7fz0m2c.57"`). Equal texts have equal keys; distinct texts collide with
 * probability ~2⁻¹⁰⁶ per pair, negligible for any cache. The text cannot be read back from it.
 */
export function textKey(text: string): string {
  // hash53(text) and hash53(text, 0x9e3779b9) in one pass over the text (the same numbers): a
  // key is computed at every cache lookup, so reading the text once halves its cost (issue 22).
  const seed = 0x9e3779b9;
  let a1 = 0xdeadbeef;
  let a2 = 0x41c6ce57;
  let b1 = 0xdeadbeef ^ seed;
  let b2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a1 = Math.imul(a1 ^ ch, 2654435761);
    a2 = Math.imul(a2 ^ ch, 1597334677);
    b1 = Math.imul(b1 ^ ch, 2654435761);
    b2 = Math.imul(b2 ^ ch, 1597334677);
  }
  return `${base36(finish53(a1, a2))}.${base36(finish53(b1, b2))}.${text.length.toString(36)}`;
}

/** The final mixing of {@link hash53}'s two lanes into a 53-bit safe integer. */
function finish53(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** 36⁵: five base-36 digits, and below 2³⁰ (a small integer, whose `toString(36)` is fast). */
const P5 = 36 ** 5;

/**
 * `n.toString(36)` of a safe non-negative integer, built from chunks of five digits below 2³⁰:
 * the same text at under half the cost (V8 formats a larger number as a double, digit by digit).
 */
function base36(n: number): string {
  if (n < P5) return n.toString(36);
  const c = n % P5;
  const r = (n - c) / P5;
  if (r < P5) return r.toString(36) + c.toString(36).padStart(5, '0');
  const b = r % P5;
  const a = (r - b) / P5;
  return a.toString(36) + b.toString(36).padStart(5, '0') + c.toString(36).padStart(5, '0');
}
