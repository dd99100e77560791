/**
 * The in-memory view of one namespace of the memory plane (eq. (5): M_t = (V_t, {E^g_t}, I^vec,
 * I^lex)). Built from the store at open time and updated after each successful commit; every
 * part of it is a cache that can be rebuilt from the store. It owns the adjacency lists the read
 * path walks, the two indexes, and the small bookkeeping maps the write path uses to find
 * deterministic neighbours (last turn of a session, recent mentions of an entity) without
 * scanning nodes.
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import type { MemoryEdge, MemoryNode } from '../types.js';
import type { LexicalIndex, VectorIndex } from './indexes.js';
import type { LanguageCode } from './language.js';
import type { NamespaceSnapshot, WriteBatch } from './storage.js';
import { detectLanguage, normalizeText } from './text.js';

/** Factories of the derived indexes (injected so each platform picks its own). */
export interface IndexFactories {
  lexical(): LexicalIndex;
  vector(dimension: number): VectorIndex | Promise<VectorIndex>;
  /**
   * Optional switch to an approximate index when the namespace grows: once it holds
   * `threshold` nodes, the exact index is replaced by `create(dimension)` (e.g. HNSW), so
   * vector search — and with it each write's candidate discovery — stops growing linearly.
   */
  upgrade?: { threshold: number; create(dimension: number): Promise<VectorIndex> };
}

/** One session's bookkeeping. */
export interface SessionInfo {
  /** 0-based order of first appearance in the namespace. */
  ordinal: number;
  firstId: string;
  lastId: string;
}

/** Distinct words whose stems one namespace keeps memoised ({@link NamespaceState.stemMemo}). */
export const STEM_MEMO_WORDS = 16_384;

/** How many recent mentions of each entity are kept for candidate discovery. */
const MENTIONS_KEPT = 64;

/**
 * Key of exact-repeat detection: same text, same time, same source (issue 7 item 4). The text is
 * compared in its normalised form (`normalizeText`: NFC, trimmed, white space collapsed; issue
 * 15), so the same sentence in NFC and NFD, or with a trailing space, is one node. An absent time
 * or source differs from every present one, the empty string included.
 */
export function dedupKey(text: string, observedAt: string | undefined, source: string | undefined): string {
  return JSON.stringify([observedAt ?? null, source ?? null, normalizeText(text)]);
}

/**
 * The live state of one namespace. Mutated only through {@link NamespaceState.apply}, which
 * the memory calls after the store has accepted the batch.
 */
export class NamespaceState {
  readonly nodes = new Map<string, MemoryNode>();
  readonly vectors = new Map<string, Float32Array>();
  readonly edges = new Map<string, MemoryEdge>();
  /** Node id → edges touching it (either direction). */
  readonly adjacency = new Map<string, MemoryEdge[]>();
  readonly sessions = new Map<string, SessionInfo>();
  /** Canonical entity → ids of the latest nodes that mention it (oldest first). */
  readonly mentions = new Map<string, string[]>();
  /** Canonical speaker names. */
  readonly speakers = new Map<string, string>();
  readonly dedup = new Map<string, string>();
  meta: Record<string, unknown> = {};
  /** Highest node sequence number. */
  seq = 0;
  /** Id of the node with the highest seq. */
  lastId: string | undefined;
  /** Writes since the last maintenance pass. */
  writesSinceMaintenance = 0;

  /** Document frequency of keywords (content terms) over the namespace's nodes. */
  readonly keywordDf = new Map<string, number>();

  /**
   * word → its content stem (`null` for a stop word), memoised for the read path's soft term
   * matching, which stems every distinct word of the candidates each recall reads (a pure
   * function of the word, so never stale). An LRU of {@link STEM_MEMO_WORDS} words.
   */
  readonly stemMemo = new LRUCache<string, string | false>({ max: STEM_MEMO_WORDS });

  /** Language (`detectLanguage`, plane/text.ts) → number of nodes written in it. */
  readonly languages = new Map<LanguageCode, number>();
  readonly #nodeLanguage = new Map<string, LanguageCode>();

  /**
   * The language most nodes are written in (`"en"` for an empty namespace; ties go to the
   * language seen first). The fallback of a question too short to identify (issue 15).
   */
  get dominantLanguage(): LanguageCode {
    let best: LanguageCode = 'en';
    let most = 0;
    for (const [lang, count] of this.languages) {
      if (lang !== 'und' && count > most) {
        best = lang;
        most = count;
      }
    }
    return best;
  }

  #countLanguage(id: string, text: string | undefined): void {
    const old = this.#nodeLanguage.get(id);
    if (old !== undefined) {
      const c = (this.languages.get(old) ?? 1) - 1;
      if (c <= 0) this.languages.delete(old);
      else this.languages.set(old, c);
      this.#nodeLanguage.delete(id);
    }
    if (text === undefined) return;
    const lang = detectLanguage(text);
    this.#nodeLanguage.set(id, lang);
    this.languages.set(lang, (this.languages.get(lang) ?? 0) + 1);
  }

  private constructor(
    readonly namespace: string,
    readonly lexical: LexicalIndex,
    /** I^vec; replaced once by {@link NamespaceState.maybeUpgradeVector}. */
    public vector: VectorIndex,
    private readonly upgrade?: IndexFactories['upgrade'],
  ) {}

  /**
   * Why the switch to the approximate index failed (`undefined` while none failed). The exact
   * index is kept, and the switch is not tried again by this state (a rebuilt state tries anew).
   */
  vectorUpgradeError: unknown = undefined;

  /**
   * Replaces a flat vector index by the factories' approximate one once the namespace reaches
   * the threshold (a no-op otherwise, and after the first switch). A failure to build it keeps
   * the exact index (search stays correct, only slower), is kept in
   * {@link NamespaceState.vectorUpgradeError} and returned, never dropped: the memory logs it and
   * shows it in `stats()`.
   * @returns `{ error }` when this call tried the switch and it failed, else `undefined`.
   */
  async maybeUpgradeVector(): Promise<{ error: unknown } | undefined> {
    const up = this.upgrade;
    if (up === undefined || this.vector.kind !== 'flat' || this.nodes.size < up.threshold || this.vectorUpgradeError !== undefined) return undefined;
    let next: VectorIndex;
    try {
      next = await up.create(this.vector.dimension);
    } catch (error) {
      this.vectorUpgradeError = error ?? new Error('the index factory failed without a reason');
      return { error: this.vectorUpgradeError };
    }
    for (const [id, v] of this.vectors) if (this.nodes.get(id)?.status !== 'deleted') next.add(id, v);
    const old = this.vector;
    this.vector = next;
    old.dispose();
    return undefined;
  }

  /** Builds the state (and rebuilds both indexes) from a loaded snapshot. */
  static async fromSnapshot(namespace: string, snap: NamespaceSnapshot, factories: IndexFactories, dimension: number): Promise<NamespaceState> {
    const state = new NamespaceState(namespace, factories.lexical(), await factories.vector(dimension), factories.upgrade);
    state.meta = { ...snap.meta };
    const nodes = [...snap.nodes].sort((a, b) => a.seq - b.seq);
    for (const n of nodes) state.addNode(n);
    for (const e of snap.edges) state.addEdge(e);
    return state;
  }

  /** Applies a batch the store has committed (deletes first, then puts). */
  apply(batch: WriteBatch): void {
    for (const id of batch.deleteEdgeIds ?? []) this.removeEdge(id);
    for (const id of batch.deleteNodeIds ?? []) this.removeNode(id);
    for (const n of batch.putNodes ?? []) {
      if (this.nodes.has(n.id)) this.replaceNode(n);
      else this.addNode(n);
    }
    for (const e of batch.putEdges ?? []) {
      if (this.edges.has(e.id)) this.removeEdge(e.id);
      this.addEdge(e);
    }
    if (batch.meta) {
      for (const [k, v] of Object.entries(batch.meta)) {
        if (v === null) delete this.meta[k];
        else this.meta[k] = v;
      }
    }
  }

  /** Edges of `id` in both directions. */
  edgesOf(id: string): readonly MemoryEdge[] {
    return this.adjacency.get(id) ?? [];
  }

  /** Number of active (not superseded) nodes. */
  get size(): number {
    return this.nodes.size;
  }

  /** Releases index memory. */
  dispose(): void {
    this.vector.dispose();
  }

  private addNode(n: MemoryNode): void {
    this.nodes.set(n.id, n);
    const v = Float32Array.from(n.embedding.vector);
    this.vectors.set(n.id, v);
    if (n.status !== 'deleted') {
      this.lexical.add({ id: n.id, text: n.text, ...(n.provenance.speaker ? { speaker: n.provenance.speaker } : {}) });
      this.vector.add(n.id, v);
      this.#countLanguage(n.id, n.text);
    }
    if (n.seq > this.seq) {
      this.seq = n.seq;
      this.lastId = n.id;
    }
    const sid = n.provenance.sessionId;
    if (sid !== undefined) {
      const s = this.sessions.get(sid);
      if (s === undefined) this.sessions.set(sid, { ordinal: this.sessions.size, firstId: n.id, lastId: n.id });
      else {
        const last = this.nodes.get(s.lastId);
        if (last === undefined || last.seq < n.seq) s.lastId = n.id;
      }
    }
    if (n.provenance.speaker) this.speakers.set(n.provenance.speaker.normalize('NFC').toLowerCase(), n.provenance.speaker);
    for (const e of n.entities) {
      let list = this.mentions.get(e);
      if (list === undefined) {
        list = [];
        this.mentions.set(e, list);
      }
      list.push(n.id);
      if (list.length > MENTIONS_KEPT) list.shift();
    }
    this.dedup.set(dedupKey(n.text, n.observedAt, n.provenance.source), n.id);
    for (const k of n.keywords) this.keywordDf.set(k, (this.keywordDf.get(k) ?? 0) + 1);
  }

  private replaceNode(n: MemoryNode): void {
    const old = this.nodes.get(n.id) as MemoryNode;
    this.nodes.set(n.id, n);
    if (old.text !== n.text || old.embedding.vector.length !== n.embedding.vector.length) {
      this.lexical.remove(n.id);
      this.lexical.add({ id: n.id, text: n.text, ...(n.provenance.speaker ? { speaker: n.provenance.speaker } : {}) });
      this.#countLanguage(n.id, n.status !== 'deleted' ? n.text : undefined);
      const v = Float32Array.from(n.embedding.vector);
      this.vectors.set(n.id, v);
      this.vector.add(n.id, v);
    }
  }

  private removeNode(id: string): void {
    const n = this.nodes.get(id);
    if (n === undefined) return;
    for (const e of [...this.edgesOf(id)]) this.removeEdge(e.id);
    this.nodes.delete(id);
    this.vectors.delete(id);
    if (this.lexical.has(id)) this.lexical.remove(id);
    if (this.vector.has(id)) this.vector.remove(id);
    this.#countLanguage(id, undefined);
    for (const ent of n.entities) {
      const list = this.mentions.get(ent);
      if (list) {
        const i = list.indexOf(id);
        if (i >= 0) list.splice(i, 1);
      }
    }
    const key = dedupKey(n.text, n.observedAt, n.provenance.source);
    if (this.dedup.get(key) === id) this.dedup.delete(key);
    for (const k of n.keywords) {
      const c = (this.keywordDf.get(k) ?? 1) - 1;
      if (c <= 0) this.keywordDf.delete(k);
      else this.keywordDf.set(k, c);
    }
    const sid = n.provenance.sessionId;
    if (sid !== undefined) {
      const s = this.sessions.get(sid);
      if (s && (s.firstId === id || s.lastId === id)) {
        const rest = [...this.nodes.values()].filter((m) => m.provenance.sessionId === sid).sort((a, b) => a.seq - b.seq);
        if (rest.length === 0) this.sessions.delete(sid);
        else {
          s.firstId = (rest[0] as MemoryNode).id;
          s.lastId = (rest[rest.length - 1] as MemoryNode).id;
        }
      }
    }
    if (this.lastId === id) {
      let best: MemoryNode | undefined;
      for (const m of this.nodes.values()) if (best === undefined || m.seq > best.seq) best = m;
      this.lastId = best?.id;
    }
  }

  private addEdge(e: MemoryEdge): void {
    if (!this.nodes.has(e.from) || !this.nodes.has(e.to)) return; // dangling edges are ignored
    this.edges.set(e.id, e);
    for (const end of e.from === e.to ? [e.from] : [e.from, e.to]) {
      let list = this.adjacency.get(end);
      if (list === undefined) {
        list = [];
        this.adjacency.set(end, list);
      }
      list.push(e);
    }
  }

  private removeEdge(id: string): void {
    const e = this.edges.get(id);
    if (e === undefined) return;
    this.edges.delete(id);
    for (const end of [e.from, e.to]) {
      const list = this.adjacency.get(end);
      if (!list) continue;
      const i = list.findIndex((x) => x.id === id);
      if (i >= 0) list.splice(i, 1);
    }
  }
}
