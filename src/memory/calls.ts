/**
 * The calls of one memory in flight (issue 22): every public method that returns a promise is
 * counted from its start to its settling, so that `close()` waits for all of them — reads
 * included, and a call still opening its namespace (loading it from the store, its expiry pass)
 * — before it releases the caches and closes the storage adapter. Without it a read that had not
 * yet reached the namespace gate read a closed database and failed `STORAGE_FAILED`.
 *
 * @module
 */

/** Counts the calls of one memory in flight; {@link settle} waits for them. */
export class CallTracker {
  readonly #running = new Set<Promise<void>>();

  /**
   * Wraps `fn` so that each call is counted until its promise settles (its result and error go
   * to its caller unchanged; a synchronous throw is turned into a rejection).
   */
  wrap<A extends unknown[], R>(fn: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args: A): Promise<R> => {
      let run: Promise<R>;
      try {
        run = fn(...args);
      } catch (e) {
        run = Promise.reject(e);
      }
      const settled = run.then(
        () => undefined,
        () => undefined,
      );
      this.#running.add(settled);
      void settled.then(() => this.#running.delete(settled));
      return run;
    };
  }

  /** Number of calls in flight. */
  get size(): number {
    return this.#running.size;
  }

  /** Resolves once no counted call runs (calls started while waiting are waited for too). Never rejects. */
  async settle(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running);
  }
}
