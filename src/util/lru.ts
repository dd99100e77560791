/**
 * A least-recently-used map that grows as it fills: memory is taken per entry as entries
 * arrive (one `Map` entry each), never for `max` slots up front.
 *
 * `lru-cache` (used elsewhere) allocates its key, value and link arrays for `max` entries when
 * it is created: a namespace's four caches (16,384 + 8,192 + 8,192 + 16,384 slots) cost about
 * 1.2 MB before holding anything, which made 1,000 open namespaces cost over a gigabyte (issue
 * 22). Namespace caches use this one instead; recency is the insertion order of a `Map`.
 *
 * @module
 */

/** An LRU map of at most `max` entries; `get` and `set` count as uses, `peek` does not. */
export class GrowingLru<K, V> {
  readonly #map = new Map<K, V>();
  /** Most entries kept (≥ 1). */
  readonly max: number;

  /**
   * @param options.max Most entries kept; the least recently used goes when a `set` exceeds it.
   * @throws RangeError when `max` is not a positive integer.
   */
  constructor(options: { max: number }) {
    if (!Number.isInteger(options.max) || options.max < 1) throw new RangeError(`GrowingLru: max must be a positive integer, got ${String(options.max)}`);
    this.max = options.max;
  }

  /** Entries held. */
  get size(): number {
    return this.#map.size;
  }

  /** The value of `key`, marked most recently used; `undefined` when absent. */
  get(key: K): V | undefined {
    const v = this.#map.get(key);
    if (v === undefined) return undefined;
    this.#map.delete(key);
    this.#map.set(key, v);
    return v;
  }

  /** The value of `key` without changing its recency. */
  peek(key: K): V | undefined {
    return this.#map.get(key);
  }

  /** Whether `key` is held (recency unchanged). */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Stores `value` as the most recently used entry, dropping the least recently used beyond `max`. */
  set(key: K, value: V): this {
    this.#map.delete(key);
    this.#map.set(key, value);
    while (this.#map.size > this.max) {
      const oldest = this.#map.keys().next().value as K;
      this.#map.delete(oldest);
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

  /** The values, least recently used first. */
  values(): IterableIterator<V> {
    return this.#map.values();
  }

  /** The keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.#map.keys();
  }
}
