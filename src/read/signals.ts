/**
 * Query-side context and the numeric signals of traversal candidates (catalogue
 * `CandidateSignals`), computed once per query from the indexes and the graph. Pure reads.
 *
 * @module
 */
import { contentTerms, isStopWord, midSentenceCapitalised, stem, tokenize } from '../plane/text/text.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { CandidateSignals } from '../system-one/catalogue.js';
import type { MemoryNode } from '../types.js';
import { dot } from '../util/vector.js';

/** Everything about the query that every candidate is compared with. */
export interface QueryContext {
  query: string;
  vector: Float32Array;
  terms: Set<string>;
  /** Canonical (lower-case) speaker names the query mentions. */
  speakersNamed: Set<string>;
  /** Names of known speakers / entities mentioned (for the routing state). */
  mentions: string[];
  /** Lexical hits: id → { normalised score, 1-based rank }. */
  lexical: Map<string, { score: number; rank: number }>;
  /** Vector hits: id → 1-based rank. */
  vectorRank: Map<string, number>;
  /** RRF score of fused anchors. */
  rrf: Map<string, number>;
  /** Session ordinal of the best anchor (undefined when it has no session). */
  bestSession: number | undefined;
  /** Session id of the best lexical hit. */
  bestLexicalSession?: string | undefined;
  /** Best cosine of any node to the query. */
  bestCosine: number;
  /** Months (0-11) and years the query names. */
  months: Set<number>;
  years: Set<number>;
  /** Session id → best normalised lexical score of a lexical hit in that session (features@4). */
  sessionLexical?: Map<string, number>;
  /** Lower-cased names the query holds that are not speakers ({@link queryNames}) (features@4). */
  names?: Set<string>;
  /** Soft term matching of the query's content words (features@5); absent without word vectors. */
  soft?: SoftQuery;
  /**
   * False when the query vector says nothing (no known word, or a language the encoder does not
   * cover; issue 15): every cosine signal then reads {@link NEUTRAL_COSINE} instead of a cosine
   * with a meaningless vector. Absent: true.
   */
  vectorEvidence?: boolean;
}

/**
 * The cosine every candidate reads when the query has no vector evidence: the same for all, so
 * the vector side neither favours nor sinks any candidate, and a value a related turn reaches
 * in English (LoCoMo), so System One does not take every candidate for unrelated.
 */
export const NEUTRAL_COSINE = 0.5;

/** True when `v` has a non-zero entry (the shipped encoder gives the zero vector to a text without a known word). */
export function hasVectorEvidence(v: Float32Array): boolean {
  for (let i = 0; i < v.length; i += 1) if (v[i] !== 0) return true;
  return false;
}

/** Looks up unit-norm word vectors (`Encoder.termVectors`, src/encoder/encoder.ts); `undefined` when out of vocabulary. */
export type TermVectorLookup = (words: string[]) => Array<Float32Array | undefined>;

const NODE_WORDS = new WeakMap<MemoryNode, readonly string[]>();

/** Speakers that are roles, not names: never matched as a name (issue 24). */
const ROLE_SPEAKERS = new Set(['user', 'assistant', 'human', 'ai', 'system', 'bot']);

/**
 * The text a node is matched against a question by (issue 23): its text, preceded by
 * `"<speaker>: "` when the speaker is a name (not a role such as "user") that the text does not
 * already start with, so that "Where does Maya work?" meets {speaker: 'Maya', text: 'I start
 * my new job at Acme'} as it meets "Maya: I start my new job at Acme". The stored text is not
 * changed; the lexical index holds the speaker field already.
 */
export function matchText(n: Pick<MemoryNode, 'text' | 'provenance'>): string {
  const sp = n.provenance.speaker?.trim();
  if (sp === undefined || sp.length === 0 || ROLE_SPEAKERS.has(sp.toLowerCase())) return n.text;
  if (n.text.startsWith(`${sp}:`) || n.text.startsWith(`${sp} :`)) return n.text;
  return `${sp}: ${n.text}`;
}

/** Distinct tokens of a node's {@link matchText} (cached per node object; nodes are replaced, not mutated). */
export function nodeWords(n: MemoryNode): readonly string[] {
  let words = NODE_WORDS.get(n);
  if (words === undefined) {
    words = [...new Set(tokenize(matchText(n)))];
    NODE_WORDS.set(n, words);
  }
  return words;
}

/** The Porter stem of a token, `false` for a stop word. */
function contentStem(word: string): string | false {
  return isStopWord(word) ? false : stem(word);
}

/** The content stem of a word, `false` for a stop word (the namespace's memo, `NamespaceState.memoStem`, or {@link contentStem}). */
export type StemOf = (word: string) => string | false;


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
    let out: Float64Array | null = null;
    const st = this.#stemOf(word);
    if (st !== false) {
      out = new Float64Array(this.#stems.length);
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
          v = this.#lookup([word])[0];
          looked = true;
        }
        if (v !== undefined) out[t] = Math.max(0, dot(qv, v));
      }
    }
    this.#cache.set(word, out ?? false);
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
    for (const list of lists) {
      for (const w of list) {
        const s = this.similarities(w);
        if (s === null) continue;
        for (let t = 0; t < best.length; t += 1) if (s[t]! > best[t]!) best[t] = s[t]!;
      }
    }
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
  return new SoftQuery(words, words.map((w) => idf(stem(w))), lookup, (w) => state.memoStem(w, contentStem));
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

/** Session id → best normalised lexical score among `hits` (id → score) in that session. */
export function sessionLexicalScores(hits: ReadonlyMap<string, { score: number }>, state: NamespaceState): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, h] of hits) {
    const sid = state.sessionOf(id); // from the directory: no body is read
    if (sid === undefined) continue;
    if (h.score > (out.get(sid) ?? 0)) out.set(sid, h.score);
  }
  return out;
}

/**
 * Names in a query: capitalised words that do not start a sentence, lower-cased, "I" and the
 * (first names of) `speakers` excluded ("What did Caroline buy in Paris?" with speaker caroline →
 * {paris}).
 */
export function queryNames(query: string, speakers: ReadonlySet<string>): Set<string> {
  const firsts = new Set([...speakers].map((s) => firstName(s)));
  const out = new Set<string>();
  for (const w of midSentenceCapitalised(query)) {
    const lw = w.toLowerCase();
    if (!speakers.has(lw) && !firsts.has(lw)) out.add(lw);
  }
  return out;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** Months (0-based) and four-digit years named in a query. */
export function datesNamed(query: string): { months: Set<number>; years: Set<number> } {
  const months = new Set<number>();
  const years = new Set<number>();
  for (const w of tokenize(query)) {
    const m = MONTHS.indexOf(w);
    if (m >= 0) months.add(m);
    else if (/^(19|20)\d\d$/.test(w)) years.add(Number(w));
  }
  return { months, years };
}

/**
 * Whether a memory's time falls in a month / year the query names (issue 14: event time, then
 * observation time): 1 when the local start of any resolved time reference, or its `observedAt`,
 * is in one of `months` (0-11) / `years`, in the speaker's calendar (`utcOffsetMinutes`).
 */
export function dateMatch(n: Pick<MemoryNode, 'timeRefs' | 'observedAt' | 'utcOffsetMinutes'>, months: ReadonlySet<number>, years: ReadonlySet<number>): { monthMatch: number; yearMatch: number } {
  let monthMatch = 0;
  let yearMatch = 0;
  if (months.size === 0 && years.size === 0) return { monthMatch, yearMatch };
  const off = (n.utcOffsetMinutes ?? 0) * 60_000;
  const times = n.timeRefs.map((t) => Date.parse(t.start));
  if (n.observedAt !== undefined) times.push(Date.parse(n.observedAt));
  for (const t of times) {
    const d = new Date(t + off);
    if (months.has(d.getUTCMonth())) monthMatch = 1;
    if (years.has(d.getUTCFullYear())) yearMatch = 1;
  }
  return { monthMatch, yearMatch };
}

/** The first word of a speaker name, lower-cased ("Caroline Smith" → "caroline"). */
function firstName(name: string): string {
  return (tokenize(name)[0] ?? name).toLowerCase();
}

/** Canonical speakers of the namespace that the query names (by full or first name). */
export function speakersIn(query: string, state: NamespaceState): { speakers: Set<string>; mentions: string[] } {
  const words = new Set(tokenize(query));
  const speakers = new Set<string>();
  const mentions: string[] = [];
  for (const [canon, display] of state.speakers) {
    if (words.has(firstName(display)) || query.normalize('NFC').toLowerCase().includes(canon)) {
      speakers.add(canon);
      mentions.push(display);
    }
  }
  for (const w of words) if (!speakers.has(w) && state.mentions.has(w) && mentions.length < 16) mentions.push(w);
  return { speakers, mentions };
}

/** True when the node's text carries an image caption (LoCoMo `[image: ...]` or metadata). */
export function hasImage(n: MemoryNode): boolean {
  return n.text.includes('[image:') || (n.provenance.metadata !== undefined && 'image' in n.provenance.metadata);
}

/**
 * Signals of node `n` as a candidate for the query.
 * @param hops Graph hops from the nearest anchor (0 for anchors).
 * @param edgeWeight π_e of the edge that reached it (1 for anchors).
 * @param centroid Normalised centroid of the kept evidence (undefined when none).
 */
export function candidateSignals(n: MemoryNode, q: QueryContext, state: NamespaceState, hops: number, edgeWeight: number, centroid: Float32Array | undefined): CandidateSignals {
  const v = state.vectors.get(n.id) as Float32Array;
  const lex = q.lexical.get(n.id);
  const text = matchText(n);
  const terms = contentTerms(text);
  let overlap = 0;
  if (q.terms.size > 0) {
    const set = new Set(terms);
    for (const t of q.terms) if (set.has(t)) overlap++;
    overlap /= q.terms.size;
  }
  const speaker = n.provenance.speaker?.normalize('NFC').toLowerCase();
  const speakerNamed = speaker !== undefined && q.speakersNamed.has(speaker) ? 1 : 0;
  const otherSpeakerNamed = speakerNamed === 0 && q.speakersNamed.size > 0 ? 1 : 0;
  let neighbourLexical = 0;
  let neighbourOfHit = 0;
  let neighbourCosine = 0;
  let windowLexical = lex?.score ?? 0;
  const window = [n];
  for (const e of state.edgesOfKind(n.id, 'precedes')) {
    if (e.weight < 1) continue;
    const other = e.from === n.id ? e.to : e.from;
    const on = state.nodes.get(other);
    if (on !== undefined) window.push(on);
    const hit = q.lexical.get(other);
    const s = hit?.score ?? 0;
    windowLexical += s;
    if (s > neighbourLexical) neighbourLexical = s;
    if (hit !== undefined && hit.rank <= 10) neighbourOfHit = 1;
    const ov = q.vectorEvidence === false ? undefined : state.vectors.get(other);
    if (ov !== undefined) {
      const c = dot(q.vector, ov);
      if (c > neighbourCosine) neighbourCosine = c;
    }
  }
  let entityMatch = 0;
  if (q.names !== undefined && q.names.size > 0) {
    const words = new Set(tokenize(text));
    for (const w of q.names) if (words.has(w)) entityMatch++;
    entityMatch /= q.names.size;
  }
  const { monthMatch, yearMatch } = dateMatch(n, q.months, q.years);
  const sid = n.provenance.sessionId;
  const ord = sid !== undefined ? state.sessions.get(sid)?.ordinal : undefined;
  const sessionDistance = ord !== undefined && q.bestSession !== undefined ? Math.abs(ord - q.bestSession) : 0;
  const evidence = q.vectorEvidence !== false;
  const cosine = evidence ? dot(q.vector, v) : NEUTRAL_COSINE;
  if (!evidence && window.length > 1) neighbourCosine = NEUTRAL_COSINE;
  return {
    cosine,
    vectorRank: q.vectorRank.get(n.id) ?? 0,
    lexical: lex?.score ?? 0,
    lexicalRank: lex?.rank ?? 0,
    rrf: q.rrf.get(n.id) ?? 0,
    overlap,
    speakerNamed,
    otherSpeakerNamed,
    hops,
    edgeWeight,
    neighbourLexical,
    sessionDistance,
    evidenceCosine: centroid ? (evidence ? dot(centroid, v) : NEUTRAL_COSINE) : 0,
    hasDate: n.timeRefs.length > 0 ? 1 : 0,
    words: tokenize(n.text).length,
    image: hasImage(n) ? 1 : 0,
    lexicalTop10: lex !== undefined && lex.rank <= 10 ? 1 : 0,
    neighbourOfHit,
    cosineGap: Math.max(0, q.bestCosine - cosine),
    sameSessionAsBest: sid !== undefined && sid === q.bestLexicalSession ? 1 : 0,
    monthMatch,
    yearMatch,
    neighbourCosine,
    windowLexical,
    sessionLexical: sid !== undefined ? (q.sessionLexical?.get(sid) ?? 0) : 0,
    entityMatch,
    softWindowOverlap: q.soft !== undefined ? q.soft.overlapWords(window.map(nodeWords)) : 0,
  };
}
