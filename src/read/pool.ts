/**
 * The wider candidate pool (issue 24). When System One's multi-hop route probability h(q)
 * (`route.multi_hop`, eq. (15)) reaches θ_pool (`poolThreshold`), or when the out-of-distribution
 * guard (guard.ts) reads the anchors as outside System One's fitted range (g > 0: long turns, role
 * speakers), the anchors of eq. (16) get up to `poolAnchors` more nodes, taken from deeper in the
 * same two lists (vector and lexical) and from a third, *soft* lexical list: the question's
 * content words replaced by their nearest words in the namespace's own vocabulary by word vector
 * ("instruments" → guitar, piano, violin; "pets" → dog, cat), searched through the lexical index.
 * The three lists are fused by reciprocal rank (κ = `rrfK`), each ranked from its first node that
 * is not already an anchor. The extra nodes are scored as anchors (one System-One candidate call)
 * and `maxVisited` grows by the same number, so the graph expansion keeps its room. Other
 * questions pay nothing.
 *
 * Defaults (θ_pool 1, 60 extra anchors) and the ablation: docs/bench/HOP.md ("The wider pool").
 * On LoCoMo dev, building it for multi-hop questions (h ≥ 0.5) brought more of their evidence into
 * the pool but lowered their R@10, so at θ_pool 1 only the guard's reading builds it.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import { reciprocalRankFusion, type FusedHit } from '../plane/indexes/fusion.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { isStopWord, tokenize } from '../plane/text/text.js';
import type { IndexHit } from '../plane/indexes/indexes.js';
import type { MemoryNode } from '../types.js';
import type { TermVectorLookup } from './signals.js';

/** Least cosine of a vocabulary word to a question word for the soft list. */
export const SOFT_MIN_COSINE = 0.5;
/** Most vocabulary words that stand in for one question word in the soft list. */
export const SOFT_PER_WORD = 10;
/**
 * Largest share of the namespace's nodes a stand-in term may occur in (at least 2 nodes): the
 * common neighbours of a word ("play" → time, again, first) would fill the soft list with long
 * turns that hold many of them.
 */
export const SOFT_MAX_SHARE = 0.02;

/** Question words that name what is asked for, not what it is about: they get no stand-ins. */
const ASKING = new Set(['kind', 'kinds', 'type', 'types', 'thing', 'things', 'something', 'anything', 'ways', 'way', 'many', 'much']);

/**
 * The soft query: for each content word of the question (not a stop word, not a speaker it
 * names, not an {@link ASKING} word) the {@link SOFT_PER_WORD} vocabulary terms nearest by word
 * vector with cosine ≥ {@link SOFT_MIN_COSINE}, the word's own term left out (the plain lexical
 * list has it). The vocabulary is the namespace's index terms that occur in at most `maxDf`
 * nodes and are plain lower-case words of 3+ letters (Porter stems that are words: "camp",
 * "swim"). Empty without word vectors.
 * @param maxDf - most nodes a stand-in term may occur in (the caller's `recallQueryMaxDf`, capped at {@link SOFT_MAX_SHARE} of the namespace).
 * @param vocabulary - index term → document frequency (`NamespaceState.keywordDf`).
 * @returns the stand-in terms, joined by spaces ('' when none).
 */
export function softQueryText(query: string, speakers: ReadonlySet<string>, vocabulary: ReadonlyMap<string, number>, maxDf: number, lookup: TermVectorLookup | undefined): string {
  if (lookup === undefined) return '';
  const words = [...new Set(tokenize(query))].filter((w) => !isStopWord(w) && !speakers.has(w) && !ASKING.has(w) && /^\p{L}+$/u.test(w));
  if (words.length === 0) return '';
  const wordVectors = lookup(words);
  if (wordVectors.every((v) => v === undefined)) return '';
  const terms: string[] = [];
  for (const [t, df] of vocabulary) if (df <= maxDf && /^[a-z]{3,}$/.test(t)) terms.push(t);
  const termVectors = lookup(terms);
  const out: string[] = [];
  words.forEach((w, i) => {
    const a = wordVectors[i];
    if (a === undefined) return;
    const near: Array<[string, number]> = [];
    terms.forEach((t, j) => {
      const b = termVectors[j];
      if (b === undefined || w.startsWith(t)) return;
      let d = 0;
      for (let x = 0; x < a.length; x++) d += (a[x] as number) * (b[x] as number);
      if (d >= SOFT_MIN_COSINE) near.push([t, d]);
    });
    near.sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1));
    for (const [t] of near.slice(0, SOFT_PER_WORD)) if (!out.includes(t)) out.push(t);
  });
  return out.join(' ');
}

/** What {@link widerPool} reads. */
export interface PoolInput {
  query: string;
  speakers: ReadonlySet<string>;
  /** The vector and lexical pools of gather.ts, best first. */
  vecHits: readonly IndexHit[];
  lexHits: readonly IndexHit[];
  /** Ids already anchors. */
  anchors: ReadonlySet<string>;
  termVectors: TermVectorLookup | undefined;
  language: string;
}

/** The extra anchors of a multi-hop question and what chose them (trace `pool`). */
export interface TracePool {
  /** True when it was built: the switch on, `poolAnchors` > 0, and h ≥ θ_pool < 1 or g > 0. */
  ran: boolean;
  /** h(q) and θ_pool. */
  h: number;
  threshold: number;
  /** The guard's weight g read from the anchors (guard.ts): > 0 builds the pool whatever h. */
  g: number;
  /** The soft query's stand-in terms ('' when none). */
  softQuery: string;
  /** Ids of the extra anchors, fused order. */
  added: string[];
}

/**
 * The candidates for the extra anchors ({@link PoolInput}): the RRF of the vector and lexical
 * pools read to depth `anchors + poolAnchors` and the soft list, each less the anchors (ranks count
 * from its first node that is not an anchor), less deleted nodes, in fused order, at most 3 × `poolAnchors` (the caller keeps the first `poolAnchors` that
 * pass its window and filter). Reads no node body.
 */
export async function widerPool(state: NamespaceState, params: Readonly<MemoryParameters>, input: PoolInput): Promise<{ hits: FusedHit[]; softQuery: string }> {
  const depth = params.anchors + params.poolAnchors;
  const maxDf = Math.min(params.recallQueryMaxDf, Math.max(2, Math.floor(SOFT_MAX_SHARE * state.size)));
  const softQuery = softQueryText(input.query, input.speakers, state.keywordDf, maxDf, input.termVectors);
  let soft: IndexHit[] = [];
  if (softQuery !== '') {
    await state.lexical.ready?.();
    soft = state.lexical.search(softQuery, depth, input.language);
  }
  // Each list counts from its first node that is not an anchor: a node deep in both the vector
  // and the lexical list must not outrank the soft list's best merely by being in two lists.
  const fresh = (list: readonly IndexHit[]): IndexHit[] => list.filter((h) => !input.anchors.has(h.id));
  const fused = reciprocalRankFusion([fresh(input.vecHits.slice(0, depth)), fresh(input.lexHits.slice(0, depth)), fresh(soft)], params.rrfK);
  const hits: FusedHit[] = [];
  for (const f of fused) {
    if (hits.length >= 3 * params.poolAnchors) break;
    if (input.anchors.has(f.id)) continue;
    const status = state.statusOf(f.id);
    if (status === undefined || status === 'deleted') continue;
    hits.push(f);
  }
  return { hits, softQuery };
}

/** What {@link extendAnchors} reads besides {@link PoolInput}'s lists. */
export interface ExtendInput extends Omit<PoolInput, 'anchors'> {
  /** `switches.pool`. */
  on: boolean;
  /** h(q), `route.multi_hop`. */
  h: number;
  /** g of the out-of-distribution guard over the anchors (guard.ts `guardWeight`). */
  g: number;
  /** The recall's window and filter test: a node it rejects is never added. */
  passes: (n: MemoryNode) => boolean;
}

/**
 * System One's decision and the pool: when the switch is on, `poolAnchors` > 0 and either h(q) ≥
 * θ_pool < 1 (the question asks for several pieces of evidence; θ_pool = 1 turns this route off,
 * so the h = 1 of a recall without routing does not build it) or g > 0 (the history is outside
 * System One's fitted range, so the final order leans on the lexical and vector evidence the wider
 * lists hold), appends up to `poolAnchors` nodes of {@link widerPool} that pass the recall's
 * window and filter to `fused` (their bodies loaded). The caller grows `maxVisited` by as many.
 * @returns the trace of the pool, also when it was not built.
 */
export async function extendAnchors(state: NamespaceState, params: Readonly<MemoryParameters>, input: ExtendInput, fused: FusedHit[]): Promise<TracePool> {
  const trace: TracePool = { ran: false, h: input.h, threshold: params.poolThreshold, g: input.g, softQuery: '', added: [] };
  const byRoute = params.poolThreshold < 1 && input.h >= params.poolThreshold;
  if (!input.on || params.poolAnchors === 0 || !(byRoute || input.g > 0)) return trace;
  const wide = await widerPool(state, params, { ...input, anchors: new Set(fused.map((f) => f.id)) });
  await state.loadNodes(wide.hits.map((f) => f.id));
  for (const f of wide.hits) {
    const n = state.nodes.get(f.id);
    if (trace.added.length >= params.poolAnchors || n === undefined || !input.passes(n)) continue;
    trace.added.push(f.id);
    fused.push({ id: f.id, rrf: f.rrf, ranks: f.ranks.slice(0, 2) });
  }
  trace.ran = true;
  trace.softQuery = wide.softQuery;
  return trace;
}
