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
import { passageOf } from './passage.js';

/** A discovered candidate with the lexical score it got (normalised to [0,1] by the best hit). */
export interface WriteCandidate {
  id: string;
  lexical: number;
}

/**
 * The scope a write's candidates must share (issue 22/24): `keep` tests a loaded id, `load`
 * loads bodies first. See {@link discoverCandidates}.
 */
export interface CandidateScope {
  /** True when the (loaded) node of `id` is in the new observation's scope. */
  keep(id: string): boolean;
  /** Loads the bodies of these ids (so `keep` can read them). */
  load(ids: readonly string[]): Promise<void>;
  /** Nodes the scope holds (the most in-scope hits a ranking can give), when known. */
  size?: number;
}

/** Most hits a ranking is widened to for a scoped write, in multiples of K_w (bounds the bodies loaded). */
export const SCOPED_WIDEN_MAX = 64;

/**
 * Finds at most `kw` candidates for a new observation.
 *
 * With `scope` (a namespace shared by several scopes, issue 22/24), each ranking is retrieved
 * within the scope: the vector, lexical and entity rankings are asked for `kw`, then 2·`kw`,
 * 4·`kw`… hits until each holds `kw` in-scope hits, has no more to give (its pool is
 * exhausted) or holds every node of the scope (`scope.size`), the out-of-scope hits are dropped
 * from each ranking before the fusion, and the "previous turn" is the scope's last node. So a
 * scoped write gets its K_w candidates however many other users' memories outrank them, ranked
 * as in a namespace of the scope alone (up to the lexical scores, whose term statistics are the
 * namespace's). Cost: the bodies of the hits retrieved are loaded, at most
 * {@link SCOPED_WIDEN_MAX}·`kw` per ranking (beyond that a scope drowned in other scopes'
 * memories gets fewer candidates); without `scope`, as before.
 * @param state The namespace.
 * @param text Text of the new observation.
 * @param vector Its embedding (L2-normalised).
 * @param entities Its canonical entities.
 * @param kw K_w.
 * @param kappa κ of the fusion.
 * @param keywords Its keywords (the probe's terms once the namespace is large).
 * @param probeMaxDf `writeProbeMaxDf` (config.ts): most nodes a probe term may occur in.
 * @param scope The scope to retrieve within; absent: every node (a namespace of one scope).
 * @param lastId The "previous turn" ranking: the scope's last node (default: the namespace's).
 */
export async function discoverCandidates(
  state: NamespaceState,
  text: string,
  vector: Float32Array,
  entities: readonly string[],
  kw: number,
  kappa: number,
  keywords: readonly string[] = [],
  probeMaxDf: number = DEFAULT_PARAMETERS.writeProbeMaxDf,
  scope?: CandidateScope,
  lastId: string | undefined = state.lastId,
): Promise<WriteCandidate[]> {
  if (state.size === 0 || kw <= 0) return [];
  const probe = lexicalProbe(state, text, keywords, probeMaxDf);
  const entityHits = (limit: number): IndexHit[] => {
    const ent: IndexHit[] = [];
    for (const e of entities) {
      const ids = state.mentions.get(e);
      if (!ids) continue;
      for (let i = ids.length - 1; i >= 0 && ent.length < limit; i--) ent.push({ id: ids[i] as string, score: 1 });
    }
    return ent;
  };
  const rankings = (limit: number): IndexHit[][] => [
    state.vector.size > 0 ? state.vector.search(vector, limit) : [],
    probe === '' ? [] : state.lexical.search(probe, limit),
    entityHits(limit),
  ];
  let ranked = rankings(kw);
  if (scope !== undefined) {
    for (let limit = kw; ; ) {
      await scope.load([...new Set(ranked.flat().map((h) => h.id))]);
      const kept = ranked.map((r) => r.filter((h) => state.nodes.has(h.id) && scope.keep(h.id)));
      // A ranking is done when it holds kw in-scope hits, every node of the scope, or fewer hits than asked.
      const full = (n: number): boolean => n >= kw || (scope.size !== undefined && n >= scope.size);
      const cap = Math.min(state.size, SCOPED_WIDEN_MAX * kw);
      if (ranked.every((r, i) => r.length < limit || full((kept[i] as IndexHit[]).length)) || limit >= cap) {
        ranked = kept.map((r) => r.slice(0, kw));
        break;
      }
      limit = Math.min(limit * 2, cap);
      // The load above ended the turn (and may have given a store-kept index's lock back): take it again, as plan.ts did.
      await state.lexical.ready?.();
      ranked = rankings(limit);
    }
  }
  const [vec, lex, ent] = ranked as [IndexHit[], IndexHit[], IndexHit[]];
  const prev: IndexHit[] = lastId !== undefined ? [{ id: lastId, score: 1 }] : [];
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
 * The lexical query of candidate discovery: the whole text (a long one's passage, write/passage.ts)
 * while the namespace is small, else
 * its {@link PROBE_KEYWORDS} rarest keywords (lowest document frequency) among those in at most
 * min(`maxDf`, max({@link PROBE_MAX_DF_FLOOR}, 1% of the nodes)) nodes. Rare terms have short
 * posting lists, so the lexical lookup of a write stays cheap as the memory grows (its cost is
 * bounded by {@link PROBE_KEYWORDS} × `maxDf` postings whatever the size), and they are the terms
 * BM25 weighs most anyway.
 * @param maxDf `writeProbeMaxDf` (config.ts).
 */
export function lexicalProbe(state: NamespaceState, text: string, keywords: readonly string[], maxDf: number = DEFAULT_PARAMETERS.writeProbeMaxDf): string {
  // A long text's query is its passage (write/passage.ts): a bounded bag of terms, whatever its length.
  if (state.size < PROBE_FROM_NODES || keywords.length === 0) return passageOf(text);
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
