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
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The cache key of a text: two independent {@link hash53} (106 bits) and the length, in base 36
 * (e.g. `"3k2j1x9q0a.1b7fz0m2c.57"`). Equal texts have equal keys; distinct texts collide with
 * probability ~2⁻¹⁰⁶ per pair, negligible for any cache. The text cannot be read back from it.
 */
export function textKey(text: string): string {
  return `${hash53(text).toString(36)}.${hash53(text, 0x9e3779b9).toString(36)}.${text.length.toString(36)}`;
}
