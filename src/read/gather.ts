/**
 * The first step of the read path (SPEC 6): the query's context and the two anchor pools, the
 * lexical (I^lex) and vector (I^vec) candidates that eq. (16) fuses into anchors, with the
 * signals every candidate is scored against (signals.ts `QueryContext`). A time window or filter
 * chooses the pools among the memories it keeps.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { NamespaceState } from '../plane/resident/namespace.js';
import { hasCjk } from '../plane/text/cjk.js';
import { contentTerms, detectLanguage, termsOf, tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';
import { lexicalAnchorQuery } from './lexical-query.js';
import { withinWindow } from './recalled.js';
import { datesNamed, hasVectorEvidence, NEUTRAL_COSINE, queryNames, sessionLexicalScores, softQuery, speakersIn, type QueryContext, type TermGroup, type TermVectorLookup } from './signals.js';

const LEXICAL_POOL = 200;
const VECTOR_POOL = 100;
/** How much deeper both anchor pools are searched when recall has a time window (their out-of-window hits are dropped). */
export const WINDOW_POOL_FACTOR = 3;

/** What {@link gatherQuery} reads of a recall's input (`RecallInput`, recall.ts, documents each field). */
export interface GatherInput {
  query: string;
  queryVector: Float32Array;
  afterMs?: number;
  beforeMs?: number;
  keep?: (node: MemoryNode) => boolean;
  vectorLanguages?: readonly string[];
  termVectors?: TermVectorLookup;
}

/** One hit of an anchor pool: a node id and its index score. */
export interface PoolHit {
  id: string;
  score: number;
}

/** What {@link gatherQuery} gives the rest of the read path. */
export interface GatheredQuery {
  /** The query's signals for candidate scoring (its `rrf` is filled by the anchors step). */
  q: QueryContext;
  /** The lexical pool, best first (in the window when there is one). */
  lexHits: PoolHit[];
  /** The vector pool, best first (empty without vector evidence). */
  vecHits: PoolHit[];
  /** Speakers the query names (canonical, lower case). */
  speakers: Set<string>;
  /** Mentions for System One's routing state. */
  mentions: ReturnType<typeof speakersIn>['mentions'];
  /** The namespace's dominant language. */
  language: NamespaceState['dominantLanguage'];
  /** True when a time window or a filter selects the candidates. */
  windowed: boolean;
  /** The window and filter test of a node. */
  passes: (n: MemoryNode) => boolean;
  /** False when the query vector carries no evidence (zero, or a language the encoder does not cover). */
  vectorEvidence: boolean;
}

/** The query context and the anchor pools of one recall (SPEC 6 step 1). */
export async function gatherQuery(state: NamespaceState, params: Readonly<MemoryParameters>, input: GatherInput): Promise<GatheredQuery> {
  const { speakers, mentions } = speakersIn(input.query, state);
  const language = state.language ?? state.dominantLanguage;
  const timed = input.afterMs !== undefined || input.beforeMs !== undefined;
  const windowed = timed || input.keep !== undefined;
  const passes = (n: MemoryNode): boolean => (!timed || withinWindow(n, input.afterMs ?? -Infinity, input.beforeMs ?? Infinity)) && (input.keep?.(n) ?? true);
  const poolFactor = windowed ? WINDOW_POOL_FACTOR : 1;
  await state.lexical.ready?.(); // a store-kept index takes its lock now, without blocking
  let lexHits = state.lexical.search(lexicalAnchorQuery(input.query, state.keywordDf, params.recallQueryMaxDf, language), LEXICAL_POOL * poolFactor, language);
  // No vector evidence (issue 15): a zero query vector, or a query in a language the encoder does
  // not cover, would rank nodes by noise; the vector side then gives no anchors and every
  // candidate the same neutral cosine (signals.ts NEUTRAL_COSINE).
  const vectorEvidence = hasVectorEvidence(input.queryVector) && (input.vectorLanguages === undefined || input.vectorLanguages.includes(detectLanguage(input.query, language)));
  let vecHits = vectorEvidence && state.vector.size > 0 ? state.vector.search(input.queryVector, VECTOR_POOL * poolFactor) : [];
  if (windowed) {
    // A time window (issue 14) chooses the anchors among memories inside it: both pools, searched
    // WINDOW_POOL_FACTOR× deeper, keep their in-window hits (bodies read for their time
    // references), so an in-window memory that ranks below out-of-window ones is still an anchor.
    await state.loadNodes([...new Set([...lexHits, ...vecHits].map((h) => h.id))]);
    const inside = (id: string): boolean => {
      const n = state.nodes.get(id);
      return n !== undefined && passes(n);
    };
    lexHits = lexHits.filter((h) => inside(h.id)).slice(0, LEXICAL_POOL);
    vecHits = vecHits.filter((h) => inside(h.id)).slice(0, VECTOR_POOL);
  }
  const bestLex = lexHits[0]?.score ?? 0;
  const q: QueryContext = {
    query: input.query,
    vector: input.queryVector,
    terms: new Set(contentTerms(input.query, language)),
    speakersNamed: speakers,
    mentions,
    lexical: new Map(lexHits.map((h, i) => [h.id, { score: bestLex > 0 ? h.score / bestLex : 0, rank: i + 1 }])),
    vectorRank: new Map(vecHits.map((h, i) => [h.id, i + 1])),
    rrf: new Map(),
    bestSession: undefined,
    bestLexicalSession: lexHits[0] ? state.sessionOf(lexHits[0].id) : undefined,
    bestCosine: vectorEvidence ? (vecHits[0]?.score ?? 0) : NEUTRAL_COSINE,
    vectorEvidence,
    ...datesNamed(input.query),
  };
  if (language !== undefined && language !== 'en') {
    q.language = language;
    q.termGroups = termGroups(input.query, language);
  }
  q.sessionLexical = sessionLexicalScores(q.lexical, state);
  q.names = queryNames(input.query, speakers);
  // Without vector evidence the soft match keeps its exact (same-stem) part only.
  const soft = softQuery(input.query, state, vectorEvidence || input.termVectors === undefined ? input.termVectors : (words) => words.map(() => undefined));
  if (soft !== undefined) q.soft = soft;
  return { q, lexHits, vecHits, speakers, mentions, language, windowed, passes, vectorEvidence };
}

/**
 * The question's content words, each as the set of its terms in the question's language
 * (`termsOf`), one per distinct word, stop words left out; a Chinese, Japanese or Korean word's
 * counts by the share of its terms (its character n-grams) a node holds (h-person2, issue 24:
 * `QueryContext.termGroups`).
 */
function termGroups(query: string, fallback: string): TermGroup[] {
  const lang = detectLanguage(query, fallback);
  const seen = new Set<string>();
  const out: TermGroup[] = [];
  for (const w of tokenize(query)) {
    if (seen.has(w)) continue;
    seen.add(w);
    const terms = termsOf(w, lang);
    if (terms.length > 0) out.push({ terms: new Set(terms), partial: hasCjk(w) });
  }
  return out;
}
