/**
 * Write path stage 4: candidate discovery, eq. (8): C(v) = TopK_{u∈V_t} s_cand(v,u) with
 * K = K_w. Candidates come from the indexes only (vector neighbours, lexical hits, latest
 * mentions of shared entities, the previous turn), never from a scan of all nodes, so the cost of
 * a write does not grow with the size of the memory. s_cand is the RRF fusion (eq. (16), κ) of
 * those four rankings.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import { reciprocalRankFusion } from '../plane/indexes/fusion.js';
import type { IndexHit } from '../plane/indexes/indexes.js';
import { DEFAULT_PARAMETERS } from '../config.js';

/** A discovered candidate with the lexical score it got (normalised to [0,1] by the best hit). */
export interface WriteCandidate {
  id: string;
  lexical: number;
}

/**
 * Finds at most `kw` candidates for a new observation.
 * @param text Text of the new observation.
 * @param vector Its embedding (L2-normalised).
 * @param entities Its canonical entities.
 * @param kw K_w.
 * @param kappa κ of the fusion.
 * @param keywords Its keywords (the probe's terms once the namespace is large).
 * @param probeMaxDf `writeProbeMaxDf` (config.ts): most nodes a probe term may occur in.
 */
export function discoverCandidates(
  state: NamespaceState,
  text: string,
  vector: Float32Array,
  entities: readonly string[],
  kw: number,
  kappa: number,
  keywords: readonly string[] = [],
  probeMaxDf: number = DEFAULT_PARAMETERS.writeProbeMaxDf,
): WriteCandidate[] {
  if (state.size === 0 || kw <= 0) return [];
  const vec = state.vector.size > 0 ? state.vector.search(vector, kw) : [];
  const probe = lexicalProbe(state, text, keywords, probeMaxDf);
  const lex = probe === '' ? [] : state.lexical.search(probe, kw);
  const ent: IndexHit[] = [];
  for (const e of entities) {
    const ids = state.mentions.get(e);
    if (!ids) continue;
    for (let i = ids.length - 1; i >= 0 && ent.length < kw; i--) ent.push({ id: ids[i] as string, score: 1 });
  }
  const prev: IndexHit[] = state.lastId !== undefined ? [{ id: state.lastId, score: 1 }] : [];
  const best = lex[0]?.score ?? 0;
  const lexScore = new Map(lex.map((h) => [h.id, best > 0 ? h.score / best : 0]));
  return reciprocalRankFusion([vec, lex, ent, prev], kappa)
    .filter((f) => state.nodes.has(f.id) && state.statusOf(f.id) !== 'deleted')
    .slice(0, kw)
    .map((f) => ({ id: f.id, lexical: lexScore.get(f.id) ?? 0 }));
}

/** Keywords used as the lexical probe of a write once the namespace is large. */
export const PROBE_KEYWORDS = 6;
/** Below this many nodes the whole text is the probe (exact BM25 over a small index is cheap). */
export const PROBE_FROM_NODES = 2000;

/**
 * The lexical query of candidate discovery: the whole text while the namespace is small, else
 * its {@link PROBE_KEYWORDS} rarest keywords (lowest document frequency) among those in at most
 * min(`maxDf`, max({@link PROBE_MAX_DF_FLOOR}, 1% of the nodes)) nodes. Rare terms have short
 * posting lists, so the lexical lookup of a write stays cheap as the memory grows (its cost is
 * bounded by {@link PROBE_KEYWORDS} × `maxDf` postings whatever the size), and they are the terms
 * BM25 weighs most anyway.
 * @param maxDf `writeProbeMaxDf` (config.ts).
 */
export function lexicalProbe(state: NamespaceState, text: string, keywords: readonly string[], maxDf: number = DEFAULT_PARAMETERS.writeProbeMaxDf): string {
  if (state.size < PROBE_FROM_NODES || keywords.length === 0) return text;
  // Terms in more than 1% of the nodes (at least PROBE_MAX_DF_FLOOR, at most maxDf) carry little
  // BM25 weight and long posting lists: leave them out. A turn made only of such words ("Thanks,
  // Melanie!") gets its candidates from the vector index, its entities and the previous turn.
  const cap = Math.min(maxDf, Math.max(PROBE_MAX_DF_FLOOR, Math.floor(state.size / 100)));
  return [...keywords]
    .filter((k) => (state.keywordDf.get(k) ?? 0) <= cap)
    .sort((a, b) => (state.keywordDf.get(a) ?? 0) - (state.keywordDf.get(b) ?? 0) || (a < b ? -1 : 1))
    .slice(0, PROBE_KEYWORDS)
    .join(' ');
}

/** Smallest document-frequency cap of a probe term (see {@link lexicalProbe}). */
export const PROBE_MAX_DF_FLOOR = 50;
