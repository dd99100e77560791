/**
 * A tiny least-recently-used map (the remote System-One answer cache, SPEC 5). It relies on
 * `Map` keeping insertion order: a read re-inserts the entry, so the first key is always the
 * least recently used one.
 *
 * @module
 */

/**
 * A `Map` bounded to `maxSize` entries that evicts the least recently used entry on overflow.
 * `get` and `set` both count as a use. A `maxSize` of 0 stores nothing.
 */
export class LruMap<K, V> {
  readonly #map = new Map<K, V>();
  /** Largest number of entries kept. */
  readonly maxSize: number;

  /**
   * @param maxSize - entries kept, an integer ≥ 0.
   * @throws RangeError when `maxSize` is negative or not an integer (a programming error).
   */
  constructor(maxSize: number) {
    if (!Number.isInteger(maxSize) || maxSize < 0) throw new RangeError(`LruMap maxSize must be an integer ≥ 0, got ${maxSize}`);
    this.maxSize = maxSize;
  }

  /** Number of entries held. */
  get size(): number {
    return this.#map.size;
  }

  /** The value for `key` (marking it most recently used), or undefined. */
  get(key: K): V | undefined {
    if (!this.#map.has(key)) return undefined;
    const value = this.#map.get(key) as V;
    this.#map.delete(key);
    this.#map.set(key, value);
    return value;
  }

  /** True when `key` is held. Does not count as a use. */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Stores `value` as the most recently used entry, evicting the least recently used on overflow. */
  set(key: K, value: V): this {
    if (this.maxSize === 0) return this;
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.maxSize) {
      const oldest = this.#map.keys().next();
      if (oldest.done) break;
      this.#map.delete(oldest.value);
    }
    return this;
  }

  /** Removes `key`; true when it was held. */
  delete(key: K): boolean {
    return this.#map.delete(key);
  }

  /** Removes every entry. */
  clear(): void {
    this.#map.clear();
  }

  /** Keys from least to most recently used. */
  keys(): IterableIterator<K> {
    return this.#map.keys();
  }
}
