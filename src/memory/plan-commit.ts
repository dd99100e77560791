/**
 * Plan, then commit (issue 22): the System-One calls of a write or a maintenance pass run
 * WITHOUT the namespace lock, against the namespace as it is (the plan); the commit then runs
 * under the lock and plans again, deterministically, over the state as it is now, answering
 * each System-One request from the plan's answers. What the plan depended on is re-checked by
 * the requests themselves: a request is the new observation and its candidates with their
 * texts and pair signals, so a request that comes out the same under the lock has the same
 * answer, and one that differs (a concurrent write added a candidate, removed one, changed the
 * previous turn) is a miss. A miss before the commit changed anything makes the write plan again
 * outside the lock, at most {@link MAX_REPLANS} times; after that (or for a miss once changes are
 * applied) the request is asked under the lock, as before this change.
 *
 * When nothing was applied to the namespace between the plan and the commit (its revision and
 * vector index are the same), the write path commits the plan as it is, without planning again.
 * For writes made one after another that is always so, and the graph is the one planning under
 * the lock gave (same requests, same answers, same order of ids).
 *
 * Pure bookkeeping over {@link Controller}: no I/O of its own.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import { Controller, type Decision, type DecisionContext } from '../system-one/controller.js';
import type { SystemOneRequest } from '../system-one/wire.js';

/**
 * Plans a write may make outside the lock before it plans under it: the first plan and up to
 * this many re-plans after a commit found that what the plan read had changed.
 */
export const MAX_REPLANS = 2;

/** Thrown inside a commit whose request was not planned, before anything changed: plan again. */
export class ReplanNeeded extends Error {
  constructor(readonly purpose: string) {
    super(`the ${purpose} request changed since it was planned`);
  }
}

/**
 * System-One answers of one plan, by request (its JSON). The new node's id is drawn when the
 * write first plans and kept by its commit, so the requests of both name the same node.
 */
export class DecisionMemo {
  readonly #answers = new Map<string, Decision[]>();
  /**
   * Shapes held (purpose and number of requests): a lookup of another shape misses without
   * serialising its requests. Under the lock most lookups are of requests never planned (the
   * later observations of a chunk), and their JSON was most of a commit's bookkeeping.
   */
  readonly #shapes = new Set<string>();

  /**
   * Answers stored but not yet keyed: a plan committed as it is (nothing changed while it
   * planned) never looks its answers up, so their requests are serialised at the first lookup
   * only. Requests are not changed once asked (the plan only reads them afterwards).
   */
  #unkeyed: Array<{ purpose: string; requests: readonly SystemOneRequest[]; decisions: Decision[] }> = [];

  /** Planned answers stored (one per `askMany`). */
  get size(): number {
    this.#keyAll();
    return this.#answers.size;
  }

  static #key(purpose: string, requests: readonly SystemOneRequest[]): string {
    return JSON.stringify([purpose, requests]);
  }

  static #shape(purpose: string, requests: readonly SystemOneRequest[]): string {
    return `${requests.length}:${purpose}`;
  }

  /** Stores the answers of `requests`. */
  put(purpose: string, requests: readonly SystemOneRequest[], decisions: Decision[]): void {
    this.#unkeyed.push({ purpose, requests, decisions });
    this.#shapes.add(DecisionMemo.#shape(purpose, requests));
  }

  /** The planned answers of `requests`, or `undefined`. */
  get(purpose: string, requests: readonly SystemOneRequest[]): Decision[] | undefined {
    if (!this.#shapes.has(DecisionMemo.#shape(purpose, requests))) return undefined;
    this.#keyAll();
    return this.#answers.get(DecisionMemo.#key(purpose, requests));
  }

  /** Keys the answers stored since the last lookup, in the order they were stored (a later one wins). */
  #keyAll(): void {
    if (this.#unkeyed.length === 0) return;
    for (const { purpose, requests, decisions } of this.#unkeyed) this.#answers.set(DecisionMemo.#key(purpose, requests), decisions);
    this.#unkeyed = [];
  }
}

/** The controller of a plan: asks the memory's controller and keeps every answer in the memo. */
export class PlanningController extends Controller {
  constructor(
    readonly inner: Controller,
    readonly memo: DecisionMemo,
  ) {
    super(inner.backend, inner.fallback);
  }

  override async askMany(purpose: string, requests: SystemOneRequest[], ctx: DecisionContext): Promise<Decision[]> {
    const decisions = await this.inner.askMany(purpose, requests, ctx);
    this.memo.put(purpose, requests, decisions);
    return decisions;
  }
}

/**
 * The controller of a commit: answers from the plan's memo (the records go to the call's log
 * as the plan's did, so counts are those of one call); on a miss it throws
 * {@link ReplanNeeded} while `strict`, else asks the memory's controller (under the lock).
 */
export class ReplayController extends Controller {
  /** Whether a miss asks for a new plan (only while the commit changed nothing). */
  strict = false;
  /** Requests asked under the lock (misses while not strict). */
  askedUnderLock = 0;

  constructor(
    readonly inner: Controller,
    readonly memo: DecisionMemo,
  ) {
    super(inner.backend, inner.fallback);
  }

  override async askMany(purpose: string, requests: SystemOneRequest[], ctx: DecisionContext): Promise<Decision[]> {
    if (ctx.signal?.aborted) throw new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: ctx.signal.reason });
    if (requests.length === 0) return [];
    const planned = this.memo.get(purpose, requests);
    if (planned !== undefined) {
      ctx.callsLeft -= 1;
      for (const d of planned) ctx.log?.push(d.record);
      return planned;
    }
    if (this.strict) throw new ReplanNeeded(purpose);
    this.askedUnderLock++;
    return this.inner.askMany(purpose, requests, ctx);
  }
}
