/**
 * The write bookkeeping of one namespace (issue 7, issue 13, issue 22): the small maps the write
 * path reads to find deterministic neighbours without scanning nodes (the first and last turn of
 * each session, the recent mentions of each entity, the latest node of each exact-repeat key),
 * and the counts the read path weighs terms and languages by (keyword document frequency,
 * languages, speaker names). Kept up to date node by node ({@link NamespaceBook.add},
 * {@link NamespaceBook.remove}) and written into the checkpoint as `book.json`
 * ({@link NamespaceBook.toJSON}; its layout is part of the checkpoint format).
 *
 * Callers outside the resident state get read-only views; only the resident state changes it.
 *
 * @module
 */
import type { MemoryNode } from '../../types.js';
import type { LanguageCode } from '../text/language.js';
import { hash53, type NodeDirectory } from './node-directory.js';
import { nodeDedupKey, nodeOlderDedupKeys, speakerKey } from './keys.js';
import { ScopeBook, scopeKeyOf, type ScopesJson } from './scopes.js';

/** One session's bookkeeping. */
export interface SessionInfo {
  /** 0-based order of first appearance in the namespace. */
  ordinal: number;
  firstId: string;
  lastId: string;
}

/** How many recent mentions of each entity are kept for candidate discovery. */
export const MENTIONS_KEPT = 64;

/** The bookkeeping maps as JSON (the checkpoint's `book.json`; entries in insertion order). */
export interface BookJson {
  sessions: Array<[string, SessionInfo]>;
  mentions: Array<[string, string[]]>;
  /** Canonical name, name as last written, number of nodes with it. */
  speakers: Array<[string, string, number]>;
  dedup: Array<[number, string]>;
  keywordDf: Array<[string, number]>;
  languages: Array<[LanguageCode, number]>;
  seq: number;
  lastId?: string;
  /** Per-scope counts and latest ids (scopes.ts); absent in checkpoints written before they were kept. */
  scopes?: ScopesJson;
}

/**
 * The bookkeeping maps of one namespace, derived from its nodes. Reads the node directory (seq
 * order, session ranges, the latest node), which the resident state updates first.
 */
export class NamespaceBook {
  readonly #dir: NodeDirectory;
  readonly #sessions = new Map<string, SessionInfo>();
  readonly #mentions = new Map<string, string[]>();
  readonly #speakers = new Map<string, string>();
  /** Canonical speaker name → number of nodes with it (the name leaves {@link speakers} with its last node). */
  readonly #speakerCount = new Map<string, number>();
  /** 53-bit hash of `dedupKey` (keys.ts) → id of the latest node with that key (verify on a hit). */
  readonly #dedupMap = new Map<number, string>();
  /**
   * The `dedup` entries of a restored `book.json` not yet filed in the map, in their order, held
   * compactly (a hash array and an id array: less heap than the map or the parsed pairs). Only
   * the write path (repeat detection) and the next checkpoint need them, so a namespace opened to
   * be read never builds the map (issue 25: open to first recall).
   */
  #dedupPending: { keys: Float64Array; ids: string[] } | undefined;
  readonly #keywordDf = new Map<string, number>();
  readonly #languages = new Map<LanguageCode, number>();
  #seq = 0;
  #lastId: string | undefined;
  readonly #scopes: ScopeBook;

  constructor(dir: NodeDirectory) {
    this.#dir = dir;
    this.#scopes = new ScopeBook((id) => dir.seq(id));
  }

  /**
   * Id of the latest node (highest seq) of the scope with key `key` (`scopeKeyOf`, scopes.ts),
   * as the write path's consecutive-observation rules read it (issue 22/24): the namespace's
   * latest ({@link NamespaceBook.lastId}) when that is the scope's (always so in a namespace of
   * one scope, so an unscoped namespace reads exactly its last node), else the latest of the
   * scope's kept ids, else — none kept (all removed, or a checkpoint written before scopes were
   * kept) — the namespace's latest, which the caller tests for its scope.
   */
  lastIdOf(key: string): string | undefined {
    const last = this.#lastId;
    if (last === undefined) return undefined;
    if (this.#scopes.single(key, this.#dir.size) || this.#scopes.holds(key, last)) return last;
    return this.#scopes.lastOf(key) ?? last;
  }

  /** Turn distance within scope `key` from a held node of seq `seq` to the scope's next node (`ScopeBook.gapAfter`, scopes.ts); undefined when unknown. */
  scopeGapAfter(key: string, seq: number): number | undefined {
    return this.#scopes.gapAfter(key, seq);
  }

  /** Number of nodes of scope `key` (`ScopeBook.countOf`); undefined when unknown. */
  scopeCount(key: string): number | undefined {
    return this.#scopes.countOf(key);
  }

  /** True when every node of the namespace is known to be in scope `key` (or it holds none). */
  onlyScope(key: string): boolean {
    return this.#scopes.single(key, this.#dir.size);
  }

  /** Session id → its ordinal and its first and last node (by seq). */
  get sessions(): ReadonlyMap<string, Readonly<SessionInfo>> {
    return this.#sessions;
  }

  /** Canonical entity → ids of the latest ({@link MENTIONS_KEPT}) nodes that mention it, oldest first. */
  get mentions(): ReadonlyMap<string, readonly string[]> {
    return this.#mentions;
  }

  /** Canonical speaker name (`speakerKey`) → the name as last written. */
  get speakers(): ReadonlyMap<string, string> {
    return this.#speakers;
  }

  /** Document frequency of keywords (content terms) over the namespace's nodes. */
  get keywordDf(): ReadonlyMap<string, number> {
    return this.#keywordDf;
  }

  /** Language (`detectLanguage`) → number of live nodes written in it. */
  get languages(): ReadonlyMap<LanguageCode, number> {
    return this.#languages;
  }

  /** Highest node sequence number. */
  get seq(): number {
    return this.#seq;
  }

  /** Id of the node with the highest seq. */
  get lastId(): string | undefined {
    return this.#lastId;
  }

  /** The repeat-key map, filing a restored book's entries first (in their order) when some are pending. */
  get #dedup(): Map<number, string> {
    const pending = this.#dedupPending;
    if (pending !== undefined) {
      this.#dedupPending = undefined;
      for (let i = 0; i < pending.ids.length; i++) this.#dedupMap.set(pending.keys[i] as number, pending.ids[i] as string);
    }
    return this.#dedupMap;
  }

  /** Id of the latest node whose `dedupKey` (keys.ts) hashes to `hash` (a candidate: compare before use). */
  dedupCandidate(hash: number): string | undefined {
    return this.#dedup.get(hash);
  }

  /**
   * Files node `n`, just added to the directory. `lang` is its detected language, `undefined`
   * for a deleted node (which counts in no language).
   */
  add(n: MemoryNode, lang: LanguageCode | undefined): void {
    if (lang !== undefined) this.#languages.set(lang, (this.#languages.get(lang) ?? 0) + 1);
    if (n.seq > this.#seq || this.#lastId === undefined) {
      this.#seq = Math.max(this.#seq, n.seq);
      this.#lastId = n.id;
    }
    const sid = n.provenance.sessionId;
    if (sid !== undefined) {
      const s = this.#sessions.get(sid);
      if (s === undefined) this.#sessions.set(sid, { ordinal: this.#sessions.size, firstId: n.id, lastId: n.id });
      else {
        if ((this.#dir.seq(s.lastId) ?? -Infinity) < n.seq) s.lastId = n.id;
        if ((this.#dir.seq(s.firstId) ?? Infinity) > n.seq) s.firstId = n.id;
      }
    }
    if (n.provenance.speaker) {
      const key = speakerKey(n.provenance.speaker);
      this.#speakers.set(key, n.provenance.speaker);
      this.#speakerCount.set(key, (this.#speakerCount.get(key) ?? 0) + 1);
    }
    for (const e of n.entities) this.#mention(e, n.id, n.seq);
    this.#scopes.add(scopeKeyOf(n.provenance.metadata), n.id, n.seq);
    const key = hash53(nodeDedupKey(n));
    const prev = this.#dedup.get(key);
    if (prev === undefined || (this.#dir.seq(prev) ?? -Infinity) <= n.seq) this.#dedup.set(key, n.id);
    for (const k of n.keywords) this.#keywordDf.set(k, (this.#keywordDf.get(k) ?? 0) + 1);
  }

  /** Keeps the {@link MENTIONS_KEPT} latest mentions of `ent` by seq, oldest first. */
  #mention(ent: string, id: string, seq: number): void {
    let list = this.#mentions.get(ent);
    if (list === undefined) {
      list = [];
      this.#mentions.set(ent, list);
    }
    let i = list.length;
    while (i > 0 && (this.#dir.seq(list[i - 1] as string) ?? -Infinity) > seq) i--;
    list.splice(i, 0, id);
    if (list.length > MENTIONS_KEPT) list.shift();
  }

  /**
   * Unfiles node `n`, just removed from the directory: its mentions, repeat key, speaker name
   * (erasure, issue 22: the name goes with the last node that has it), keywords, session range
   * and, when it was the latest, the latest id. `lang` is the language it was counted in.
   */
  remove(n: MemoryNode, lang: string | undefined): void {
    const id = n.id;
    if (lang !== undefined) {
      const c = (this.#languages.get(lang as LanguageCode) ?? 1) - 1;
      if (c <= 0) this.#languages.delete(lang as LanguageCode);
      else this.#languages.set(lang as LanguageCode, c);
    }
    for (const ent of n.entities) {
      const list = this.#mentions.get(ent);
      if (list) {
        const i = list.indexOf(id);
        if (i >= 0) list.splice(i, 1);
        if (list.length === 0) this.#mentions.delete(ent);
      }
    }
    const key = hash53(nodeDedupKey(n));
    if (this.#dedup.get(key) === id) this.#dedup.delete(key);
    // A checkpoint written before metadata or the speaker was part of the key may hold the node under an older key.
    for (const older of nodeOlderDedupKeys(n)) if (this.#dedup.get(hash53(older)) === id) this.#dedup.delete(hash53(older));
    if (n.provenance.speaker) {
      const sk = speakerKey(n.provenance.speaker);
      const c = (this.#speakerCount.get(sk) ?? 1) - 1;
      if (c <= 0) {
        this.#speakerCount.delete(sk);
        this.#speakers.delete(sk);
      } else this.#speakerCount.set(sk, c);
    }
    for (const k of n.keywords) {
      const c = (this.#keywordDf.get(k) ?? 1) - 1;
      if (c <= 0) this.#keywordDf.delete(k);
      else this.#keywordDf.set(k, c);
    }
    const sid = n.provenance.sessionId;
    if (sid !== undefined) {
      const s = this.#sessions.get(sid);
      if (s && (s.firstId === id || s.lastId === id)) {
        const range = this.#dir.sessionRange(sid);
        if (range === undefined) this.#sessions.delete(sid);
        else {
          s.firstId = range.firstId;
          s.lastId = range.lastId;
        }
      }
    }
    this.#scopes.remove(scopeKeyOf(n.provenance.metadata), id, n.seq);
    if (this.#lastId === id) this.#lastId = this.#dir.latest();
  }

  /** The maps as the checkpoint's `book.json`. */
  toJSON(): BookJson {
    const scopes = this.#scopes.toJSON();
    return {
      sessions: [...this.#sessions],
      mentions: [...this.#mentions],
      speakers: [...this.#speakers].map(([k, v]) => [k, v, this.#speakerCount.get(k) ?? 1]),
      dedup: [...this.#dedup],
      keywordDf: [...this.#keywordDf],
      languages: [...this.#languages],
      seq: this.#seq,
      ...(this.#lastId !== undefined ? { lastId: this.#lastId } : {}),
      ...(scopes !== undefined ? { scopes } : {}),
    };
  }

  /**
   * The maps as the checkpoint's parts (@3, issue 22): `book.json`, and the repeat keys as the
   * binary part `book.dedup` (n float64 hashes, then n int32 directory slots of their ids, in
   * the map's order; 12 bytes an entry instead of ~58 as JSON) with an empty `dedup` in the JSON.
   * When some id has no directory slot, the keys stay in the JSON and there is no binary part.
   */
  toParts(): { json: BookJson; dedup?: Uint8Array } {
    const json = this.toJSON();
    const n = json.dedup.length;
    const bytes = new Uint8Array(12 * n);
    const keys = new Float64Array(bytes.buffer, 0, n);
    const slots = new Int32Array(bytes.buffer, 8 * n, n);
    for (let i = 0; i < n; i++) {
      const [key, id] = json.dedup[i] as [number, string];
      const slot = this.#dir.slotOf(id);
      if (slot === undefined || typeof key !== 'number') return { json };
      keys[i] = key;
      slots[i] = slot;
    }
    return { json: { ...json, dedup: [] }, ...(n > 0 ? { dedup: bytes } : {}) };
  }

  /**
   * Restores the maps from a checkpoint's `book.json` (into an empty book), and its repeat keys
   * from `dedup` (the `book.dedup` part of {@link NamespaceBook.toParts}) when given; the
   * directory must be restored first. The repeat-key map is filed on its first use, not here.
   * @throws Error when `dedup` is not 12 bytes an entry or names a slot the directory does not hold.
   */
  restore(b: BookJson, dedup?: Uint8Array): void {
    for (const [k, v] of b.sessions) this.#sessions.set(k, v);
    for (const [k, v] of b.mentions) this.#mentions.set(k, v);
    for (const [k, v, c] of b.speakers) {
      this.#speakers.set(k, v);
      this.#speakerCount.set(k, c);
    }
    for (const [k, v] of b.keywordDf) this.#keywordDf.set(k, v);
    for (const [k, v] of b.languages) this.#languages.set(k, v);
    this.#seq = b.seq;
    this.#lastId = b.lastId;
    this.#scopes.restore(b.scopes, () => this.#dir.allSeqs());
    if (dedup !== undefined) this.#restoreDedupPart(dedup);
    else this.#restoreDedup(b.dedup);
  }

  /** Holds the repeat keys of a `book.dedup` part as {@link NamespaceBook.#dedupPending}, their ids read from the directory now. */
  #restoreDedupPart(part: Uint8Array): void {
    if (part.length % 12 !== 0) throw new Error(`checkpoint part book.dedup has ${part.length} bytes, not 12 an entry`);
    const n = part.length / 12;
    const own = part.byteOffset % 8 === 0 ? part : part.slice();
    const keys = new Float64Array(n);
    keys.set(new Float64Array(own.buffer, own.byteOffset, n));
    const slots = new Int32Array(own.buffer, own.byteOffset + 8 * n, n);
    const ids = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const id = this.#dir.idAt(slots[i] as number);
      if (id === undefined) throw new Error(`checkpoint part book.dedup names slot ${slots[i]}, which the directory does not hold`);
      ids[i] = id;
    }
    if (n > 0) this.#dedupPending = { keys, ids };
  }

  /** Holds a restored book's repeat keys as {@link NamespaceBook.#dedupPending} (or files them now when one is not a number). */
  #restoreDedup(dedup: BookJson['dedup']): void {
    const n = dedup.length;
    const keys = new Float64Array(n);
    const ids = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const [k, v] = dedup[i] as [number, string];
      if (typeof k !== 'number') {
        // Not a hash as this build writes them: filed now, as it is.
        for (const [key, id] of dedup) this.#dedupMap.set(key, id);
        return;
      }
      keys[i] = k;
      ids[i] = v;
    }
    if (n > 0) this.#dedupPending = { keys, ids };
  }
}
