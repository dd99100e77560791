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

/** One entry of {@link GrowingLru}: a link of its recency list. */
interface Link<K, V> {
  readonly key: K;
  value: V;
  /** The next less recently used entry (undefined for the least recent). */
  older: Link<K, V> | undefined;
  /** The next more recently used entry (undefined for the most recent). */
  newer: Link<K, V> | undefined;
}

/**
 * An LRU map of at most `max` entries; `get` and `set` count as uses, `peek` does not. Every
 * operation is O(1): a `Map` finds an entry's link, and a doubly linked list keeps the recency
 * order, so a use moves one link instead of deleting and re-inserting the `Map` entry (which
 * leaves a hole per use that the `Map` must compact, issue 22's LoCoMo slowdown).
 */
export class GrowingLru<K, V> {
  readonly #map = new Map<K, Link<K, V>>();
  /** The least recently used entry. */
  #oldest: Link<K, V> | undefined;
  /** The most recently used entry. */
  #newest: Link<K, V> | undefined;
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
    const link = this.#map.get(key);
    if (link === undefined) return undefined;
    this.#touch(link);
    return link.value;
  }

  /** The value of `key` without changing its recency. */
  peek(key: K): V | undefined {
    return this.#map.get(key)?.value;
  }

  /** Whether `key` is held (recency unchanged). */
  has(key: K): boolean {
    return this.#map.has(key);
  }

  /** Stores `value` as the most recently used entry, dropping the least recently used beyond `max`. */
  set(key: K, value: V): this {
    const held = this.#map.get(key);
    if (held !== undefined) {
      held.value = value;
      this.#touch(held);
      return this;
    }
    const link: Link<K, V> = { key, value, older: this.#newest, newer: undefined };
    if (this.#newest !== undefined) this.#newest.newer = link;
    else this.#oldest = link;
    this.#newest = link;
    this.#map.set(key, link);
    while (this.#map.size > this.max) this.#unlink(this.#oldest as Link<K, V>);
    return this;
  }

  /** Removes `key`; true when it was held. */
  delete(key: K): boolean {
    const link = this.#map.get(key);
    if (link === undefined) return false;
    this.#unlink(link);
    return true;
  }

  /** Removes every entry. */
  clear(): void {
    this.#map.clear();
    this.#oldest = undefined;
    this.#newest = undefined;
  }

  /** The values, least recently used first. */
  *values(): IterableIterator<V> {
    for (let l = this.#oldest; l !== undefined; l = l.newer) yield l.value;
  }

  /** The keys, least recently used first. */
  *keys(): IterableIterator<K> {
    for (let l = this.#oldest; l !== undefined; l = l.newer) yield l.key;
  }

  /** Makes `link` the most recently used. */
  #touch(link: Link<K, V>): void {
    if (link === this.#newest) return;
    // Out of its place (it has a newer neighbour, since it is not the newest)...
    const newer = link.newer as Link<K, V>;
    newer.older = link.older;
    if (link.older !== undefined) link.older.newer = newer;
    else this.#oldest = newer;
    // ...and onto the newest end.
    link.older = this.#newest;
    link.newer = undefined;
    (this.#newest as Link<K, V>).newer = link;
    this.#newest = link;
  }

  /** Removes `link` from the list and the map. */
  #unlink(link: Link<K, V>): void {
    if (link.older !== undefined) link.older.newer = link.newer;
    else this.#oldest = link.newer;
    if (link.newer !== undefined) link.newer.older = link.older;
    else this.#newest = link.older;
    link.older = undefined;
    link.newer = undefined;
    this.#map.delete(link.key);
  }
}
