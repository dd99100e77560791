/**
 * Issue order of the writes of one memory (issue 22): `add`, `addMany`, `update` and `delete`
 * calls on one namespace are applied in the order they were called, as a user of a database
 * expects of calls made without awaiting each other (`update(id, 'a'); update(id, 'b');
 * delete(id)`: the update, then the CONFLICT of the second update, then the delete).
 *
 * Each call takes a {@link Turn} synchronously, when it is called (before its first `await`),
 * and waits for it only before its commit: its plan (embedding, System-One calls) still runs
 * at once, outside the namespace lock and beside the plans of the calls before it; its commit
 * then re-checks under the lock what those calls changed (memory/plan-commit.ts). A turn ends
 * when its call committed or failed, so a later call never commits before an earlier one.
 *
 * A turn also carries the call's issue time ({@link Turn.at}): the default ingestion time of
 * what it writes (`ingestedAt`, the time a node holds its state from when it has no
 * `observedAt`). It is read from the memory's clock when the call is made, not when its plan
 * starts (an `update` reads the old version first, so an `add` issued after it planned, and was
 * stamped, earlier: `update(id, 'Vienna'); add('Rome')` kept Vienna), and it never goes back
 * within a namespace while earlier turns are pending: `at` is at least the `at` of the turn
 * before it. Equal times are ordered by `seq` (the commit order, which is the issue order).
 *
 * Per namespace: calls on two namespaces do not wait for each other. Reads take no turn (they
 * see what is committed when they run). Writes of another process or tab are ordered by the
 * namespace's lock only (there is no issue order between processes).
 *
 * @module
 */

/** One call's place in its namespace's issue order. */
export interface Turn {
  /**
   * The call's issue time, epoch ms on the memory's clock: the clock's reading when the turn
   * was taken, raised to the `at` of the namespace's previous turn if that one is still pending
   * and later (a clock that stepped back). Non-decreasing in issue order.
   */
  readonly at: number;
  /** Resolves once every call on the namespace issued before this one has ended (never rejects). */
  readonly ready: Promise<void>;
  /** Ends the turn: the next call may commit. Idempotent; call it on every path (`finally`). */
  done(): void;
}

/** The issue order of every namespace of one memory. */
export class IssueOrder {
  /** Per namespace, the last turn taken: the promise that resolves when it ends, and its issue time. */
  readonly #tails = new Map<string, { ended: Promise<void>; at: number }>();

  /**
   * Takes the next turn of `ns`. Call it synchronously when the call is made.
   * @param nowMs - The memory's clock now (epoch ms): the turn's issue time unless the previous
   *   pending turn of `ns` has a later one.
   */
  take(ns: string, nowMs: number): Turn {
    const tail = this.#tails.get(ns);
    const ready = tail?.ended ?? Promise.resolve();
    const at = tail !== undefined && tail.at > nowMs ? tail.at : nowMs;
    let end!: () => void;
    const ended = new Promise<void>((r) => (end = r));
    const mine = { ended, at };
    this.#tails.set(ns, mine);
    let over = false;
    return {
      at,
      ready,
      done: () => {
        if (over) return;
        over = true;
        end();
        // The last turn of `ns` ended: nothing waits on it (a later turn would be the tail).
        if (this.#tails.get(ns) === mine) this.#tails.delete(ns);
      },
    };
  }

  /** Namespaces with a turn not yet ended (for tests and diagnostics). */
  get pending(): number {
    return this.#tails.size;
  }
}
