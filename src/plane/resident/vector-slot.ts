/**
 * I^vec of one namespace and its upgrade (issue 13, issue 25): the live vector index, the switch
 * from the exact index to the factories' approximate one once the namespace reaches its
 * threshold ({@link IndexFactories.upgrade}), the approximate index a checkpoint holds but the
 * open deferred (a namespace under `exactOpenBelow` opens exact and restores it at its first
 * write, brought up to date with the nodes changed since).
 *
 * @module
 */
import type { VectorIndex } from '../indexes/indexes.js';
import { readVectorHeader } from '../indexes/vector-format.js';
import type { IndexFactories } from './options.js';
import type { NodeDirectory } from './node-directory.js';

/** The node count from which `up` switches to its approximate index, for vectors of `dimension`. */
export function upgradeThreshold(up: Pick<NonNullable<IndexFactories['upgrade']>, 'threshold'>, dimension: number): number {
  return typeof up.threshold === 'number' ? up.threshold : up.threshold(dimension);
}

/** The node count below which `up` opens a namespace on the exact index (`exactOpenBelow`, else its threshold). */
export function exactOpenThreshold(up: NonNullable<IndexFactories['upgrade']>, dimension: number): number {
  return upgradeThreshold({ threshold: up.exactOpenBelow ?? up.threshold }, dimension);
}

/** Kind of a serialised vector index (`'flat'`, `'hnsw'`, `'ann'`), or undefined when the bytes have no valid header. */
export function vectorKindOf(bytes: Uint8Array): string | undefined {
  try {
    return readVectorHeader(bytes).kind;
  } catch {
    return undefined;
  }
}

/** A checkpointed approximate index not restored at open: its bytes, the restore function, the ids changed since. */
export interface DeferredVector {
  bytes: Uint8Array;
  restore: (bytes: Uint8Array) => Promise<VectorIndex>;
  touched: Set<string>;
}

/** The live vector index of one namespace, replaced at most once by its approximate upgrade. */
export class VectorSlot {
  #index: VectorIndex;
  #error: unknown = undefined;
  #deferred: DeferredVector | undefined;
  readonly #dir: NodeDirectory;
  readonly #upgrade: IndexFactories['upgrade'];

  constructor(index: VectorIndex, dir: NodeDirectory, factories: Pick<IndexFactories, 'upgrade'>) {
    this.#index = index;
    this.#dir = dir;
    this.#upgrade = factories.upgrade;
  }

  /** The live index (its identity changes once, at the upgrade). */
  get index(): VectorIndex {
    return this.#index;
  }

  /**
   * Why the switch to the approximate index failed (`undefined` while none failed). The exact
   * index is kept, and the switch is not tried again by this slot.
   */
  get upgradeError(): unknown {
    return this.#error;
  }

  /** True while a checkpointed approximate index waits to be restored. */
  get deferred(): boolean {
    return this.#deferred !== undefined;
  }

  /** Keeps a checkpointed approximate index to restore at the first {@link maybeUpgrade}. */
  defer(deferred: DeferredVector): void {
    this.#deferred = deferred;
  }

  /** Notes ids whose vectors a commit changed, for the deferred index (a no-op when none waits). */
  touch(ids: Iterable<string>): void {
    if (this.#deferred === undefined) return;
    for (const id of ids) this.#deferred.touched.add(id);
  }

  /** Restores the deferred approximate index, up to date; undefined when it cannot (the caller builds one). */
  async #restoreDeferred(): Promise<VectorIndex | undefined> {
    const deferred = this.#deferred;
    if (deferred === undefined) return undefined;
    this.#deferred = undefined;
    let next: VectorIndex;
    try {
      next = await deferred.restore(deferred.bytes);
    } catch {
      return undefined;
    }
    if (next.dimension !== this.#dir.dimension) {
      next.dispose();
      return undefined;
    }
    for (const id of deferred.touched) {
      if (next.has(id)) next.remove(id);
      if (this.#dir.has(id) && this.#dir.status(id) !== 'deleted') next.add(id, this.#dir.vector(id) as Float32Array);
    }
    return next;
  }

  /**
   * Replaces a flat vector index by the factories' approximate one once the namespace reaches
   * the threshold (a no-op otherwise, and after the first switch). A failure to build it keeps
   * the exact index (search stays correct, only slower), is kept in {@link upgradeError} and
   * returned, never dropped.
   * @returns `{ error }` when this call tried the switch and it failed, else `undefined`.
   */
  async maybeUpgrade(): Promise<{ error: unknown } | undefined> {
    const up = this.#upgrade;
    if (up === undefined || this.#index.kind !== 'flat' || this.#dir.size < upgradeThreshold(up, this.#dir.dimension) || this.#error !== undefined) {
      this.#deferred = undefined;
      return undefined;
    }
    let next = await this.#restoreDeferred();
    if (next === undefined) {
      try {
        next = await up.create(this.#index.dimension);
      } catch (error) {
        this.#error = error ?? new Error('the index factory failed without a reason');
        return { error: this.#error };
      }
      for (const [id, v] of this.#dir.liveVectors()) next.add(id, v);
    }
    const old = this.#index;
    this.#index = next;
    old.dispose();
    return undefined;
  }

  /** Releases the index memory and drops a deferred index. */
  dispose(): void {
    this.#deferred = undefined;
    this.#index.dispose();
  }
}
