/**
 * Per-scope bookkeeping of one namespace (issue 22/24): how many nodes each scope holds and its
 * latest nodes, so the write path's consecutive-observation rules (write/structure.ts) and the
 * "previous turn" ranking of candidate discovery (write/candidates.ts) use the scope's own last
 * node, as they would in a namespace of the scope alone. A scope is the `userId` / `agentId` pair
 * of a node's `provenance.metadata` ({@link scopeKeyOf}); an unscoped node is in the one scope
 * with neither.
 *
 * Per scope: a count, the {@link SCOPE_RECENT_KEPT} latest ids (by seq) and the seqs of its
 * nodes (ascending; 8 bytes a node), from which a pair's turn distance within the scope is read
 * ({@link ScopeBook.gapAfter}). Kept node by node by the namespace book (add, remove: a delete,
 * an expiry purge or a re-indexed version), written into `book.json` as `scopes` and restored
 * with it; a namespace of one scope writes no seqs (they are every node's, rebuilt from the
 * node directory on open).
 *
 * @module
 */
import { dedupScopeOf } from './keys.js';

/** How many latest ids of each scope are kept (the scope's last node survives this many removals of its latest nodes). */
export const SCOPE_RECENT_KEPT = 8;

/** One scope's bookkeeping: its node count and latest ids, oldest first. */
export interface ScopeInfo {
  count: number;
  recent: string[];
  /** Seqs of the scope's nodes, ascending. */
  seqs: number[];
}

/** The scope maps as JSON (`book.json`'s `scopes`): scope key, count, latest ids oldest first, and (several scopes only) the seqs ascending. */
export type ScopesJson = Array<[string, number, string[], number[]?]>;

/**
 * The key of a node's scope: the JSON array `[userId | null, agentId | null]` of its
 * `provenance.metadata` (strings only, as `dedupScopeOf` reads them). Two nodes have the same
 * key exactly when `sameScope` (write/state-updates.ts) holds for them.
 */
export function scopeKeyOf(metadata: Readonly<Record<string, unknown>> | undefined): string {
  const s = dedupScopeOf(metadata);
  return JSON.stringify([s.userId ?? null, s.agentId ?? null]);
}

/** The per-scope maps. `seqOf` reads a held node's seq (the node directory). */
export class ScopeBook {
  readonly #scopes = new Map<string, ScopeInfo>();
  /** False after a restore from a `book.json` written before scopes were kept: counts and latest ids are then unknown. */
  #known = true;

  constructor(private readonly seqOf: (id: string) => number | undefined) {}

  /** False when the book was restored without scopes (an older checkpoint): {@link ScopeBook.single} is then never claimed. */
  get known(): boolean {
    return this.#known;
  }

  /** Number of scopes holding a node (when {@link ScopeBook.known}). */
  get size(): number {
    return this.#scopes.size;
  }

  /** True when every node of the namespace is known to be in scope `key` (or it holds none). */
  single(key: string, total: number): boolean {
    return this.#known && (total === 0 || this.#scopes.get(key)?.count === total);
  }

  /** Number of nodes of scope `key` (any status; undefined when the scopes are unknown). */
  countOf(key: string): number | undefined {
    return this.#known ? (this.#scopes.get(key)?.count ?? 0) : undefined;
  }

  /** The scope's latest kept id (highest seq), or undefined when none is kept. */
  lastOf(key: string): string | undefined {
    const r = this.#scopes.get(key)?.recent;
    return r === undefined || r.length === 0 ? undefined : r[r.length - 1];
  }

  /** True when `id` is among the kept latest ids of scope `key`. */
  holds(key: string, id: string): boolean {
    return this.#scopes.get(key)?.recent.includes(id) ?? false;
  }

  /** Files node `id` (seq `seq`) of scope `key`. */
  add(key: string, id: string, seq: number): void {
    let s = this.#scopes.get(key);
    if (s === undefined) {
      s = { count: 0, recent: [], seqs: [] };
      this.#scopes.set(key, s);
    }
    s.count++;
    const q = s.seqs;
    let j = q.length;
    while (j > 0 && (q[j - 1] as number) > seq) j--;
    q.splice(j, 0, seq);
    const list = s.recent;
    let i = list.length;
    while (i > 0 && (this.seqOf(list[i - 1] as string) ?? -Infinity) > seq) i--;
    list.splice(i, 0, id);
    if (list.length > SCOPE_RECENT_KEPT) list.shift();
  }

  /** Unfiles node `id` (seq `seq`) of scope `key`; the scope leaves the map with its last node. */
  remove(key: string, id: string, seq: number): void {
    const s = this.#scopes.get(key);
    if (s === undefined) return;
    s.count--;
    const i = s.recent.indexOf(id);
    if (i >= 0) s.recent.splice(i, 1);
    const j = s.seqs.lastIndexOf(seq);
    if (j >= 0) s.seqs.splice(j, 1);
    if (s.count <= 0) this.#scopes.delete(key);
  }

  /**
   * The turn distance, within scope `key`, from a held node of seq `seq` to the next node the
   * scope is given: how many of the scope's nodes have a higher seq, plus one (what `seqGap`,
   * write/signals.ts, is in a namespace of the scope alone, deletions aside). Undefined when the
   * scopes are unknown. O(log n).
   */
  gapAfter(key: string, seq: number): number | undefined {
    const q = this.#scopes.get(key)?.seqs;
    if (!this.#known || q === undefined) return undefined;
    let lo = 0;
    let hi = q.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((q[mid] as number) <= seq) lo = mid + 1;
      else hi = mid;
    }
    return q.length - lo + 1;
  }

  /** The maps as `book.json`'s `scopes` (seqs only when several scopes), or undefined when unknown (so a later open stays unknown, never wrong). */
  toJSON(): ScopesJson | undefined {
    if (!this.#known) return undefined;
    const several = this.#scopes.size > 1;
    return [...this.#scopes].map(([k, s]) => (several ? [k, s.count, [...s.recent], [...s.seqs]] : [k, s.count, [...s.recent]]));
  }

  /**
   * Restores the maps (into an empty book); `undefined` (an older `book.json`) or a key not in
   * Unicode form NFC leaves them unknown. `allSeqs` gives every held node's seq (ascending), the seqs of a lone scope.
   */
  restore(json: ScopesJson | undefined, allSeqs: () => number[]): void {
    // A key not in NFC was written before scope ids were stored in NFC (util/nfc.ts): the nodes
    // are now filed under NFC keys, so its counts no longer match; read the scopes as unknown.
    if (json === undefined || json.some(([k]) => k.normalize('NFC') !== k)) {
      this.#known = false;
      return;
    }
    for (const [k, count, recent, seqs] of json) this.#scopes.set(k, { count, recent: [...recent], seqs: seqs !== undefined ? [...seqs] : json.length === 1 ? allSeqs() : [] });
  }
}

/** What {@link ScopeView} reads: the per-scope questions a `NamespaceBook` answers by scope key. */
export interface ScopeKeyed {
  lastIdOf(key: string): string | undefined;
  scopeGapAfter(key: string, seq: number): number | undefined;
  scopeCount(key: string): number | undefined;
  onlyScope(key: string): boolean;
}

/**
 * The namespace's per-scope bookkeeping asked by a node's `provenance.metadata` (its `userId` /
 * `agentId` name the scope; undefined: the unscoped one), as the write path asks it (issue 22/24:
 * a shared namespace builds each scope the graph it would get alone).
 */
export class ScopeView {
  constructor(private readonly book: ScopeKeyed) {}

  /**
   * Id of the scope's latest node: the namespace's `lastId` in a namespace of one scope (see
   * `NamespaceBook.lastIdOf` for the rest). The caller still tests the returned node's scope (it
   * may be another's when none is kept).
   */
  lastIdOf(scope: Readonly<Record<string, unknown>> | undefined): string | undefined {
    return this.book.lastIdOf(scopeKeyOf(scope));
  }

  /**
   * In a namespace of several scopes, the `seqGap` (write/signals.ts) a pair of the node about to
   * be written in `scope` and a held node of seq `seq` of that scope would have in a namespace of
   * the scope alone: the scope's nodes after it, plus one. Undefined when the scopes are unknown
   * (a checkpoint written before they were kept).
   */
  seqGap(scope: Readonly<Record<string, unknown>> | undefined, seq: number): number | undefined {
    return this.book.scopeGapAfter(scopeKeyOf(scope), seq);
  }

  /** Number of nodes (any status) of the scope; undefined when unknown. */
  count(scope: Readonly<Record<string, unknown>> | undefined): number | undefined {
    return this.book.scopeCount(scopeKeyOf(scope));
  }

  /** True when every node of the namespace is known to share the scope, or it holds none. */
  only(scope: Readonly<Record<string, unknown>> | undefined): boolean {
    return this.book.onlyScope(scopeKeyOf(scope));
  }
}
