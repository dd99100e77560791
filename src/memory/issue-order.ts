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
 * Per namespace: calls on two namespaces do not wait for each other. Reads take no turn (they
 * see what is committed when they run). Writes of another process or tab are ordered by the
 * namespace's lock only (there is no issue order between processes).
 *
 * @module
 */

/** One call's place in its namespace's issue order. */
export interface Turn {
  /** Resolves once every call on the namespace issued before this one has ended (never rejects). */
  readonly ready: Promise<void>;
  /** Ends the turn: the next call may commit. Idempotent; call it on every path (`finally`). */
  done(): void;
}

/** The issue order of every namespace of one memory. */
export class IssueOrder {
  /** Per namespace, the promise that resolves when the last turn taken ends. */
  readonly #tails = new Map<string, Promise<void>>();

  /** Takes the next turn of `ns`. Call it synchronously when the call is made. */
  take(ns: string): Turn {
    const ready = this.#tails.get(ns) ?? Promise.resolve();
    let end!: () => void;
    const ended = new Promise<void>((r) => (end = r));
    this.#tails.set(ns, ended);
    let over = false;
    return {
      ready,
      done: () => {
        if (over) return;
        over = true;
        end();
        // The last turn of `ns` ended: nothing waits on it (a later turn would be the tail).
        if (this.#tails.get(ns) === ended) this.#tails.delete(ns);
      },
    };
  }

  /** Namespaces with a turn not yet ended (for tests and diagnostics). */
  get pending(): number {
    return this.#tails.size;
  }
}
