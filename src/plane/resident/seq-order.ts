/**
 * The node directory's slots in ascending seq (issue 22: a `list` page costs O(log n + page), not
 * a sort of the namespace). Built on first use; kept by an add in seq order (the usual case) and a
 * remove; dropped (rebuilt on next use) by an add out of order, a seq change, a restore.
 *
 * @module
 */

/** Slots ordered by their seq, read through `seqAt` (the directory's own seq column). */
export class SeqOrder {
  #order: number[] | undefined;

  /**
   * @param seqAt - The seq of a slot (read at call time: the directory owns the column).
   * @param slots - Every held slot, for a rebuild.
   */
  constructor(
    private readonly seqAt: (slot: number) => number,
    private readonly slots: () => Iterable<number>,
  ) {}

  /** Forgets the order (rebuilt on next use): a restore, a seq change. */
  drop(): void {
    this.#order = undefined;
  }

  /** A slot just given `seq` by an add: appended when it is the highest, else the order is dropped. */
  added(slot: number, seq: number): void {
    if (this.#order === undefined) return;
    const last = this.#order[this.#order.length - 1];
    if (last === undefined || this.seqAt(last) < seq) this.#order.push(slot);
    else this.#order = undefined;
  }

  /** A slot about to be freed (its seq still readable): spliced out, or the order is dropped. */
  removed(slot: number): void {
    const order = this.#order;
    if (order === undefined) return;
    const seq = this.seqAt(slot);
    let at = this.#firstAfter(order, seq) - 1; // the last slot at or below `seq`; equal seqs sit together
    while (at >= 0 && order[at] !== slot && this.seqAt(order[at] as number) === seq) at--;
    if (at >= 0 && order[at] === slot) order.splice(at, 1);
    else this.#order = undefined;
  }

  /**
   * The slots whose seq is above `afterSeq`, ascending: O(log n) to start, O(1) per slot (after a
   * one-off O(n log n) sort when the order was dropped). Iterate only while nothing changes.
   */
  *slotsAfter(afterSeq: number): IterableIterator<number> {
    const order = this.#sorted();
    for (let i = this.#firstAfter(order, afterSeq); i < order.length; i++) yield order[i] as number;
  }

  /** The order, built when dropped. */
  #sorted(): number[] {
    if (this.#order === undefined) {
      const order = [...this.slots()];
      order.sort((a, b) => this.seqAt(a) - this.seqAt(b));
      this.#order = order;
    }
    return this.#order;
  }

  /** Index in `order` of the first slot whose seq is above `seq` (binary search). */
  #firstAfter(order: readonly number[], seq: number): number {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.seqAt(order[mid] as number) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
