/**
 * Query-side context and the numeric signals of traversal candidates (catalogue
 * `CandidateSignals`), computed once per query from the indexes and the graph. Pure reads.
 *
 * @module
 */
import { midSentenceCapitalised, tokenize } from '../plane/text/text.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import type { CandidateSignals } from '../system-one/catalogue.js';
import type { MemoryNode } from '../types.js';
import { dot } from '../util/vector.js';
import { nodeTextFacts } from './node-text.js';
import { namespaceStemOf, type SoftQuery } from './soft-query.js';

export { matchText, NodeTextFacts, nodeTextFacts, nodeWords } from './node-text.js';
export { namespaceIdf, namespaceStemOf, SoftQuery, softQuery, type StemOf, type TermVectorLookup } from './soft-query.js';

/**
 * One content word of a question and its terms (`QueryContext.termGroups`, h-person2). `partial`:
 * a Chinese, Japanese or Korean word, whose terms are mostly its character n-grams: a node that
 * holds one of its terms of two characters or more (the word, its stem, a bigram) holds the word;
 * one that holds only single characters counts by their share (a shared character is not the
 * word). Otherwise one term is enough.
 */
export interface TermGroup {
  terms: ReadonlySet<string>;
  partial: boolean;
}

/** Everything about the query that every candidate is compared with. */
export interface QueryContext {
  query: string;
  vector: Float32Array;
  terms: Set<string>;
  /**
   * h-person2 (issue 24), only in a namespace whose language is not English: that language (node
   * terms are read with it as their fallback) and the question's content words, each as the set
   * of its terms (a word gains its stem, stripped form, person keys and folded forms: "נועה" has
   * four). `overlap` is then the share of words the node holds ({@link TermGroup}), so a name's four forms
   * do not outweigh the verb's one match. Absent: the share of {@link terms}, as before.
   */
  language?: string;
  termGroups?: readonly TermGroup[];
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
  /**
   * The recall's scope and metadata filter (`RecallInput.keep`); absent without one. A
   * neighbouring turn it rejects (or whose body is not loaded) is left out of the window signals
   * (`neighbourLexical`, `neighbourOfHit`, `neighbourCosine`, `windowLexical`,
   * `softWindowOverlap`), so a scoped recall's scores never read another scope's memories.
   */
  keep?: (node: MemoryNode) => boolean;
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
  const facts = nodeTextFacts(n);
  let overlap = 0;
  if (q.termGroups !== undefined && q.termGroups.length > 0) {
    const terms = facts.termsWith(namespaceStemOf(state), q.language);
    for (const g of q.termGroups) {
      let held = 0;
      let word = false;
      for (const t of g.terms) {
        if (!terms.has(t)) continue;
        held++;
        if (t.length >= 2) word = true;
      }
      overlap += !g.partial || word ? (held > 0 ? 1 : 0) : held / g.terms.size;
    }
    overlap /= q.termGroups.length;
  } else if (q.terms.size > 0) {
    const terms = facts.termsWith(namespaceStemOf(state), q.language);
    for (const t of q.terms) if (terms.has(t)) overlap++;
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
    if (q.keep !== undefined && (on === undefined || !q.keep(on))) continue; // outside the recall's scope
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
    for (const w of q.names) if (facts.wordSet.has(w)) entityMatch++;
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
    words: facts.tokens,
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
    softWindowOverlap: q.soft !== undefined ? q.soft.overlapNodes(window) : 0,
  };
}
