/**
 * The node bodies and edge lists of one namespace that are not resident (issue 13): read from
 * the store through the storage port (`getNodes`, `getEdges`) into bounded LRU caches. A path
 * first loads what its bounds allow (the read path: anchors, then each round's frontier,
 * ≤ maxVisited nodes and ≤ maxEdgesInspected edges; the write path: ≤ K_w candidates; SPEC 4, 6)
 * with {@link BodyCache.loadNodes} / {@link BodyCache.loadEdges}, then reads them synchronously;
 * reading a node or an edge list that was not loaded is a bug and throws. What the running
 * operations loaded stays pinned until the last of them ends ({@link BodyCache.use}), so an LRU
 * eviction never takes a body or an edge list from under the operation that loaded it.
 *
 * @module
 */
import { GrowingLru } from '../../util/lru.js';
import { JevMemError } from '../../errors.js';
import type { EdgeSubtype, MemoryEdge, MemoryNode } from '../../types.js';
import type { StorageAdapter } from '../store/storage.js';
import { LOAD_BATCH } from './options.js';

/** Orders edges by id (the order edge lists are kept in after a read). */
function byEdgeId(a: MemoryEdge, b: MemoryEdge): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Key of a node's list of one subtype in the caches: the id first, so a node's keys share a prefix. */
function kindKey(subtype: EdgeSubtype, id: string): string {
  return `${id}\u0000${subtype}`;
}

/** The internal error of a read of something not loaded (`STORAGE_FAILED`, field `id`). */
export function notLoaded(what: string, id: string, namespace: string): JevMemError {
  return new JevMemError('STORAGE_FAILED', `internal: the ${what} of ${JSON.stringify(id)} in namespace ${JSON.stringify(namespace)} was read before it was loaded from the store`, {
    field: 'id',
  });
}

/** The body and edge caches of one namespace, with the pins of the running operations. */
export class BodyCache {
  readonly #nodeCache: GrowingLru<string, MemoryNode>;
  readonly #edgeCache: GrowingLru<string, MemoryEdge[]>;
  readonly #pinnedNodes = new Map<string, MemoryNode>();
  readonly #pinnedEdges = new Map<string, MemoryEdge[]>();
  /**
   * Edge lists of one subtype (key {@link kindKey}), for nodes whose whole list was not loaded:
   * the read path asks most candidates for their window only (`precedes`), a few edges among
   * the ~20 a node has. Cached across operations until a commit changes an edge or removes a
   * node (then dropped whole); pinned like the whole lists while an operation runs.
   */
  readonly #kindCache: GrowingLru<string, MemoryEdge[]>;
  readonly #pinnedKinds = new Map<string, MemoryEdge[]>();
  /**
   * Nodes of the directory the store could not give back (damaged records, issue 22: the
   * adapter skipped them and names them in `damaged()`): {@link node} answers undefined for
   * them, so a read goes on without them instead of failing.
   */
  readonly #unreadable = new Set<string>();
  #operations = 0;

  /**
   * @param has - Whether the namespace holds a node (the resident directory).
   * @param sizes - LRU sizes: node bodies and edge lists (also the bound of the one-subtype lists).
   */
  constructor(
    readonly namespace: string,
    readonly storage: StorageAdapter,
    private readonly has: (id: string) => boolean,
    sizes: { nodes: number; edges: number },
  ) {
    this.#nodeCache = new GrowingLru<string, MemoryNode>({ max: sizes.nodes });
    this.#edgeCache = new GrowingLru<string, MemoryEdge[]>({ max: sizes.edges });
    this.#kindCache = new GrowingLru<string, MemoryEdge[]>({ max: sizes.edges });
  }

  /** The loaded body of a held node; `undefined` for an unreadable one. @throws JevMemError when not loaded. */
  node(id: string): MemoryNode | undefined {
    if (this.#unreadable.has(id)) return undefined;
    const n = this.#pinnedNodes.get(id) ?? this.#nodeCache.get(id);
    if (n === undefined) throw notLoaded('node', id, this.namespace);
    return n;
  }

  /** The loaded body of a held node, unreadable ones included. @throws JevMemError when not loaded. */
  loaded(id: string): MemoryNode {
    const n = this.#pinnedNodes.get(id) ?? this.#nodeCache.get(id);
    if (n === undefined) throw notLoaded('node', id, this.namespace);
    return n;
  }

  /** Ids of held nodes the store could not give back, sorted. */
  unreadableIds(): string[] {
    return [...this.#unreadable].filter((id) => this.has(id)).sort();
  }

  /** Runs one operation; its loads stay pinned until the last running operation ends. */
  async use<T>(fn: () => Promise<T>): Promise<T> {
    this.#operations++;
    try {
      return await fn();
    } finally {
      if (--this.#operations === 0) this.#unpin();
    }
  }

  /** Drops the pins now, unless another operation runs. */
  releasePins(): void {
    if (this.#operations > 1) return;
    this.#unpin();
  }

  #unpin(): void {
    this.#pinnedNodes.clear();
    this.#pinnedEdges.clear();
    this.#pinnedKinds.clear();
  }

  /** Caches and pins a body (a node just written or loaded). */
  cacheNode(n: MemoryNode): void {
    this.#nodeCache.set(n.id, n);
    this.#pinnedNodes.set(n.id, n);
  }

  /** Caches and pins the whole edge list of a node. */
  cacheEdges(id: string, list: MemoryEdge[]): void {
    this.#edgeCache.set(id, list);
    this.#pinnedEdges.set(id, list);
  }

  /** The loaded edge list of `id` (pinned or cached), without touching the LRU order. */
  #edgeList(id: string): MemoryEdge[] | undefined {
    return this.#pinnedEdges.get(id) ?? this.#edgeCache.peek(id);
  }

  /** Loads the bodies of held nodes not loaded yet, {@link LOAD_BATCH} per `getNodes`. @throws JevMemError `STORAGE_FAILED` and the adapter's errors. */
  async loadNodes(ids: Iterable<string>): Promise<void> {
    const missing: string[] = [];
    const seen = new Set<string>();
    for (const id of ids) {
      if (seen.has(id) || !this.has(id) || this.#pinnedNodes.has(id)) continue;
      seen.add(id);
      const cached = this.#nodeCache.get(id);
      if (cached !== undefined) this.#pinnedNodes.set(id, cached);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += LOAD_BATCH) {
      const part = missing.slice(i, i + LOAD_BATCH);
      const got = await this.storage.getNodes(this.namespace, part);
      const returned = new Set<string>();
      for (const n of got) {
        returned.add(n.id);
        this.#unreadable.delete(n.id);
        if (this.has(n.id) && !this.#pinnedNodes.has(n.id)) this.cacheNode(n);
      }
      // A directory node the store did not return is a damaged record (the store names it).
      for (const id of part) if (!returned.has(id)) this.#unreadable.add(id);
    }
  }

  /** Loads whole edge lists of held nodes not loaded yet. @throws JevMemError `STORAGE_FAILED` and the adapter's errors. */
  async loadEdges(want: readonly string[]): Promise<void> {
    const missing: string[] = [];
    for (const id of want) {
      if (this.#pinnedEdges.has(id)) continue;
      const cached = this.#edgeCache.get(id);
      if (cached !== undefined) this.#pinnedEdges.set(id, cached);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += LOAD_BATCH) {
      for (const [id, list] of await this.#readEdgeLists(missing.slice(i, i + LOAD_BATCH))) {
        if (!this.#pinnedEdges.has(id)) this.cacheEdges(id, list);
      }
    }
  }

  /** Reads the edges of `ids` (of `subtype` when given), one list per asked node in id order, leaving out edges to nodes not held. */
  async #readEdgeLists(ids: string[], subtype?: EdgeSubtype): Promise<Map<string, MemoryEdge[]>> {
    const got = await this.storage.getEdges(this.namespace, ids, subtype === undefined ? undefined : { subtype });
    const lists = new Map<string, MemoryEdge[]>(ids.map((id) => [id, []]));
    for (const e of got) {
      if ((subtype !== undefined && e.subtype !== subtype) || !this.has(e.from) || !this.has(e.to)) continue;
      lists.get(e.from)?.push(e);
      if (e.to !== e.from) lists.get(e.to)?.push(e);
    }
    for (const list of lists.values()) list.sort(byEdgeId);
    return lists;
  }

  /** Loads the edges of one subtype of these nodes: from a whole loaded list, else one filtered read for the missing ones. @throws JevMemError `STORAGE_FAILED` and the adapter's errors. */
  async loadEdgesOfKind(ids: Iterable<string>, subtype: EdgeSubtype): Promise<void> {
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      if (!this.has(id)) continue;
      const whole = this.#pinnedEdges.get(id) ?? this.#edgeCache.get(id);
      if (whole !== undefined) {
        this.#pinnedEdges.set(id, whole); // read from it by edgesOfKind
        continue;
      }
      const key = kindKey(subtype, id);
      if (this.#pinnedKinds.has(key)) continue;
      const cached = this.#kindCache.get(key);
      if (cached !== undefined) this.#pinnedKinds.set(key, cached);
      else missing.push(id);
    }
    for (let i = 0; i < missing.length; i += LOAD_BATCH) {
      for (const [id, list] of await this.#readEdgeLists(missing.slice(i, i + LOAD_BATCH), subtype)) {
        const key = kindKey(subtype, id);
        if (this.#pinnedKinds.has(key) || this.#pinnedEdges.has(id)) continue;
        this.#kindCache.set(key, list);
        this.#pinnedKinds.set(key, list);
      }
    }
  }

  /** The loaded edges of a held node. @throws JevMemError when not loaded. */
  edgesOf(id: string): readonly MemoryEdge[] {
    const list = this.#pinnedEdges.get(id) ?? this.#edgeCache.get(id);
    if (list === undefined) throw notLoaded('edges', id, this.namespace);
    return list;
  }

  /**
   * True when the namespace holds the edge `e` (by id). An edge is listed under both its ends, so
   * the loaded list of either end answers, its whole list or its list of `e.subtype` (issue 22:
   * the other end of a state update, a stored newer turn, is often not loaded after a reopen);
   * an end the namespace does not hold (a node being written) holds no stored edge.
   * @throws JevMemError `STORAGE_FAILED` when both ends are held and neither's edges were loaded.
   */
  hasEdge(e: Pick<MemoryEdge, 'id' | 'from' | 'to' | 'subtype'>): boolean {
    if (!this.has(e.from) || !this.has(e.to)) return false;
    for (const end of [e.from, e.to]) {
      const key = kindKey(e.subtype, end);
      const list = this.#edgeList(end) ?? this.#pinnedKinds.get(key) ?? this.#kindCache.peek(key);
      if (list !== undefined) return list.some((x) => x.id === e.id);
    }
    throw notLoaded('edges', e.from, this.namespace);
  }

  /** The loaded edges of one subtype of a held node, in id order. @throws JevMemError when neither its whole list nor that subtype was loaded. */
  edgesOfKind(id: string, subtype: EdgeSubtype): readonly MemoryEdge[] {
    const whole = this.#pinnedEdges.get(id) ?? this.#edgeCache.get(id);
    if (whole !== undefined) return whole.filter((e) => e.subtype === subtype).sort(byEdgeId);
    const key = kindKey(subtype, id);
    const list = this.#pinnedKinds.get(key) ?? this.#kindCache.get(key);
    if (list === undefined) throw notLoaded(`${subtype} edges`, id, this.namespace);
    return list;
  }

  // ---------------------------------------------------------------- keeping up with commits

  /** Drops the body of `id` (its new version is read again when asked). */
  forgetBody(id: string): void {
    this.#nodeCache.delete(id);
    this.#pinnedNodes.delete(id);
  }

  /** Drops every one-subtype list (a commit changed edges or removed nodes). */
  clearKinds(): void {
    this.#kindCache.clear();
  }

  /** Drops every edge list, whole and of one subtype (a node was re-indexed). */
  clearEdges(): void {
    this.#edgeCache.clear();
    this.#pinnedEdges.clear();
    this.#kindCache.clear();
    this.#pinnedKinds.clear();
  }

  /** Drops a removed node: its body, its lists, and its edges from the lists of the other ends. */
  forgetNode(id: string): void {
    const own = this.#edgeList(id);
    if (own === undefined) this.#filterLoadedEdges((e) => e.from === id || e.to === id);
    else this.dropEdges(new Set(own.map((e) => e.id)));
    this.#edgeCache.delete(id);
    this.#pinnedEdges.delete(id);
    for (const key of [...this.#pinnedKinds.keys()]) if (key.startsWith(`${id}\u0000`)) this.#pinnedKinds.delete(key);
    this.forgetBody(id);
  }

  /** Removes these edges from every loaded list. */
  dropEdges(ids: ReadonlySet<string>): void {
    if (ids.size > 0) this.#filterLoadedEdges((e) => ids.has(e.id));
  }

  /** Removes edges from every loaded list (cached and pinned), in place, so both see it. */
  #filterLoadedEdges(drop: (e: MemoryEdge) => boolean): void {
    const lists = new Set<MemoryEdge[]>([...this.#edgeCache.values(), ...this.#pinnedEdges.values(), ...this.#pinnedKinds.values()]);
    for (const list of lists) {
      if (!list.some(drop)) continue;
      const kept = list.filter((e) => !drop(e));
      list.length = 0;
      list.push(...kept);
    }
  }

  /** Puts a committed edge into the loaded lists of its ends (a dangling edge is ignored; an unloaded list reads it from the store). */
  putEdge(e: MemoryEdge): void {
    if (!this.has(e.from) || !this.has(e.to)) return;
    for (const end of e.from === e.to ? [e.from] : [e.from, e.to]) {
      const kind = this.#pinnedKinds.get(kindKey(e.subtype, end));
      if (kind !== undefined) {
        const i = kind.findIndex((x) => x.id === e.id);
        if (i >= 0) kind[i] = e;
        else kind.push(e);
      }
      const list = this.#edgeList(end);
      if (list === undefined) continue;
      const i = list.findIndex((x) => x.id === e.id);
      if (i >= 0) list[i] = e;
      else list.push(e);
    }
  }
}
