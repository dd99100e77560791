/**
 * Soft term matching of a query (features@5): the query's content words with their IDF weights,
 * and the similarity of each to a candidate's words, by shared Porter stem or by word vector
 * ({@link SoftQuery}). One {@link SoftQuery} lives for one recall and memoises what it computed.
 *
 * @module
 */
import { isStopWord, stem, tokenize } from '../plane/text/text.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { MemoryNode } from '../types.js';
import { dot } from '../util/vector.js';
import { nodeTextFacts } from './node-text.js';

/** Looks up unit-norm word vectors (`Encoder.termVectors`, src/encoder/encoder.ts); `undefined` when out of vocabulary. */
export type TermVectorLookup = (words: string[]) => Array<Float32Array | undefined>;

/** The Porter stem of a token, `false` for a stop word. */
function contentStem(word: string): string | false {
  return isStopWord(word) ? false : stem(word);
}

/** The content stem of a word, `false` for a stop word (the namespace's memo, `NamespaceState.memoStem`, or {@link contentStem}). */
export type StemOf = (word: string) => string | false;

const STEM_OF = new WeakMap<NamespaceState, StemOf>();

/** The {@link StemOf} of a namespace: its memo (`NamespaceState.memoStem`) over {@link contentStem}, one function per namespace state. */
export function namespaceStemOf(state: NamespaceState): StemOf {
  let f = STEM_OF.get(state);
  if (f === undefined) {
    f = (w) => state.memoStem(w, contentStem);
    STEM_OF.set(state, f);
  }
  return f;
}

/**
 * The query side of soft term matching: the query's distinct content words t (tokens that are not
 * stop words) with IDF weights g_t, and a per-query cache of s(t, w) for the candidate words w
 * seen so far. s(t, w) = 1 when t and w share a Porter stem, else max(0, cos(v_t, v_w)) of their
 * word vectors (0 when either is out of vocabulary).
 */
export class SoftQuery {
  readonly #stems: string[];
  readonly #vectors: Array<Float32Array | undefined>;
  readonly #weights: Float64Array;
  readonly #weightSum: number;
  readonly #lookup: TermVectorLookup;
  readonly #stemOf: StemOf;
  /**
   * word → s(t, w) for every query word t (false: a stop word). A memo that lives and dies with
   * one recall, not a cache policy: it holds at most the distinct words of the candidates that
   * recall reads (bounded by `maxVisited` and the pool), so a plain Map, the fastest lookup.
   */
  readonly #cache = new Map<string, Float64Array | false>();
  /**
   * node → max over its words w of s(t, w), per query word t (null: no content word). Same life
   * and bound as the word memo: a candidate's window holds its neighbours, which are candidates
   * themselves, so most nodes are read in several windows.
   */
  readonly #nodeBest = new Map<MemoryNode, Float64Array | null>();

  /**
   * @param words Distinct query content words (lower case).
   * @param weights Their weights g_t ≥ 0 (same order), not all 0.
   * @param lookup Word-vector lookup of the encoder.
   * @param stemOf Content stems of candidate words, memoised across queries by the namespace
   *   (`(w) => state.memoStem(w, …)`); unmemoised by default.
   */
  constructor(words: readonly string[], weights: readonly number[], lookup: TermVectorLookup, stemOf: StemOf = contentStem) {
    this.#stemOf = stemOf;
    this.#stems = words.map((w) => stem(w));
    this.#vectors = lookup([...words]);
    this.#weights = Float64Array.from(weights);
    this.#weightSum = weights.reduce((a, b) => a + b, 0);
    this.#lookup = lookup;
  }

  /** Number of query words. */
  get size(): number {
    return this.#stems.length;
  }

  /** s(t, w) for every query word t (cached per word); `null` for a stop word. */
  similarities(word: string): Float64Array | null {
    const hit = this.#cache.get(word);
    if (hit !== undefined) return hit === false ? null : hit;
    const st = this.#stemOf(word);
    const out = st === false ? null : this.#compute(st, () => this.#lookup([word])[0]);
    this.#cache.set(word, out ?? false);
    return out;
  }

  /** s(t, w) for every query word t, of a content word w with stem `st`; `vector()` gives w's word vector, asked at most once and only when a query word with a vector has another stem. */
  #compute(st: string, vector: () => Float32Array | undefined): Float64Array {
    const out = new Float64Array(this.#stems.length);
    let v: Float32Array | undefined;
    let looked = false;
    for (let t = 0; t < out.length; t += 1) {
      if (this.#stems[t] === st) {
        out[t] = 1;
        continue;
      }
      const qv = this.#vectors[t];
      if (qv === undefined) continue;
      if (!looked) {
        v = vector();
        looked = true;
      }
      if (v !== undefined) out[t] = Math.max(0, dot(qv, v));
    }
    return out;
  }

  /**
   * softOverlap of texts: Σ_t g_t · max_{w ∈ texts} s(t, w) / Σ_t g_t, in [0,1] (1 when every query
   * word occurs, up to its stem, in the texts).
   */
  overlap(texts: readonly string[]): number {
    return this.overlapWords(texts.map((t) => tokenize(t)));
  }

  /** {@link overlap} of texts given as their tokens ({@link nodeWords}). */
  overlapWords(lists: ReadonlyArray<readonly string[]>): number {
    if (this.#weightSum <= 0) return 0;
    const best = new Float64Array(this.#stems.length);
    for (const list of lists) this.#raise(best, list);
    return this.#weighted(best);
  }

  /**
   * {@link overlap} of nodes, each read by its {@link nodeWords}: the same value as
   * `overlapWords(nodes.map(nodeWords))`, with each node's best similarities kept for the rest of
   * the query (a max of maxes is the max, so the result is exactly the same).
   */
  overlapNodes(nodes: readonly MemoryNode[]): number {
    if (this.#weightSum <= 0) return 0;
    const best = new Float64Array(this.#stems.length);
    for (const n of nodes) {
      let own = this.#nodeBest.get(n);
      if (own === undefined) {
        own = this.#ownBest(n);
        this.#nodeBest.set(n, own);
      }
      if (own === null) continue;
      for (let t = 0; t < best.length; t += 1) if (own[t]! > best[t]!) best[t] = own[t]!;
    }
    return this.#weighted(best);
  }

  /**
   * max over the words w of node `n` ({@link nodeWords}) of s(t, w), per query word t; null when
   * it has no content word: {@link #raise} over `nodeWords(n)`, with a word this query has not
   * met yet read through the node's text facts (`NodeTextFacts.stemAt` / `vectorAt`, kept with
   * the node across recalls, issue 25) instead of the stem memo and the encoder. Same values.
   */
  #ownBest(n: MemoryNode): Float64Array | null {
    const facts = nodeTextFacts(n);
    const words = facts.words;
    const best = new Float64Array(this.#stems.length);
    let any = false;
    for (let i = 0; i < words.length; i += 1) {
      const w = words[i] as string;
      let s = this.#cache.get(w);
      if (s === undefined) {
        const st = facts.stemAt(i, this.#stemOf);
        s = st === false ? false : this.#compute(st, () => facts.vectorAt(i, this.#lookup));
        this.#cache.set(w, s);
      }
      if (s === false) continue;
      any = true;
      for (let t = 0; t < best.length; t += 1) if (s[t]! > best[t]!) best[t] = s[t]!;
    }
    return any ? best : null;
  }

  /** Raises `best[t]` to s(t, w) for the words w of `list`; true when a word was a content word. */
  #raise(best: Float64Array, list: readonly string[]): boolean {
    let any = false;
    for (const w of list) {
      const s = this.similarities(w);
      if (s === null) continue;
      any = true;
      for (let t = 0; t < best.length; t += 1) if (s[t]! > best[t]!) best[t] = s[t]!;
    }
    return any;
  }

  /** Σ_t g_t · best[t] / Σ_t g_t. */
  #weighted(best: Float64Array): number {
    let num = 0;
    for (let t = 0; t < best.length; t += 1) num += this.#weights[t]! * best[t]!;
    return num / this.#weightSum;
  }
}

/**
 * The {@link SoftQuery} of a query over a namespace, or `undefined` when there are no word vectors
 * or the query has no content word. g_t = ln(1 + (N − df_t + 0.5)/(df_t + 0.5)) (the BM25 IDF),
 * N = active nodes, df_t = nodes whose keywords hold t's stem (`state.keywordDf`).
 */
export function softQuery(query: string, state: NamespaceState, lookup: TermVectorLookup | undefined): SoftQuery | undefined {
  if (lookup === undefined) return undefined;
  const words = [...new Set(tokenize(query))].filter((w) => !isStopWord(w));
  if (words.length === 0) return undefined;
  const idf = namespaceIdf(state);
  return new SoftQuery(words, words.map((w) => idf(stem(w))), lookup, namespaceStemOf(state));
}

/**
 * The BM25 IDF of a content stem over a namespace: ln(1 + (N − df + 0.5)/(df + 0.5)), N = active
 * nodes, df = nodes whose keywords hold the stem (`state.keywordDf`); > 0 for every stem.
 */
export function namespaceIdf(state: Pick<NamespaceState, 'size' | 'keywordDf'>): (stem: string) => number {
  const n = state.size;
  return (st) => {
    const df = state.keywordDf.get(st) ?? 0;
    return Math.log(1 + (Math.max(0, n - df) + 0.5) / (df + 0.5));
  };
}
