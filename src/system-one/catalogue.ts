/**
 * The fixed catalogue of memory-control questions with stable ids (SPEC 5), and the shapes of
 * the states jev-mem sends with them. The remote backend sends each question's rendered
 * `instructions`; the local backend answers each id with its trained head, reading the numeric
 * `signals` that the memory computes and puts into the state.
 *
 * Question keys on the wire are `<id>` or `<id>#<ref>` where `ref` names a candidate in the
 * state's `candidates` list.
 *
 * @module
 */
import type { ChoiceQuestion, NoulQuestion, Question } from './wire.js';

/** Every stable question id. */
export type CatalogueId =
  // typing (write path, eq. (7))
  | 'type.episodic'
  | 'type.semantic'
  | 'type.procedural'
  | 'type.preference'
  // relation judgement per pair (write path, eq. (9))
  | 'rel.semantic'
  | 'rel.causes'
  | 'rel.caused_by'
  | 'rel.same_episode'
  | 'rel.entity'
  | 'rel.temporal'
  // routing (read path, eq. (11), (15))
  | 'route.semantic'
  | 'route.temporal'
  | 'route.causal'
  | 'route.entity'
  | 'route.multi_hop'
  | 'route.recency'
  // stopping (eq. (17)-(20))
  | 'stop.sufficient'
  | 'stop.continue_useful'
  | 'stop.missing'
  | 'stop.contradiction'
  // per traversal candidate (eq. (23))
  | 'cand.relevance'
  | 'cand.relation_usefulness'
  | 'cand.new_information'
  | 'cand.supports_evidence'
  // maintenance (SPEC 4 step 7)
  | 'maint.redundant'
  | 'maint.contradiction'
  | 'maint.obsolete'
  | 'maint.link'
  | 'maint.representation';

/** Labels of the temporal-relation choice (SPEC 4 step 5). */
export const TEMPORAL_LABELS = ['before', 'after', 'during', 'contains', 'overlaps', 'same_time', 'unknown'] as const;
/** Labels of the maintenance representation choice. */
export const REPRESENTATION_LABELS = ['keep', 'merge', 'promote'] as const;

const noul = (instructions: string, t?: string, f?: string): NoulQuestion =>
  t === undefined ? { type: 'noul', instructions } : { type: 'noul', instructions, criteria: { true: t, false: f ?? '' } };

/**
 * The catalogue: id → the question as rendered for a remote (LLM-backed) System One.
 * Frozen; ids and meanings are stable across versions.
 */
export const CATALOGUE: Readonly<Record<CatalogueId, Question>> = Object.freeze({
  'type.episodic': noul('Does the observation record a specific event or experience tied to a time or place?'),
  'type.semantic': noul('Does the observation state a general fact or piece of knowledge that stays true over time?'),
  'type.procedural': noul('Does the observation describe how to do something (steps, a method, a habit or routine)?'),
  'type.preference': noul("Does the observation express someone's preference, taste, wish or opinion?"),

  'rel.semantic': noul('Is the candidate memory related in meaning to the new observation so that retrieving one should bring the other?'),
  'rel.causes': noul('Did the new observation cause or lead to what the candidate memory describes?'),
  'rel.caused_by': noul('Was the new observation caused by, or a consequence of, what the candidate memory describes?'),
  'rel.same_episode': noul('Do the new observation and the candidate memory belong to the same episode or event?'),
  'rel.entity': noul('Do the new observation and the candidate memory refer to the same person, place or thing, even under different names?'),
  'rel.temporal': {
    type: 'choice',
    instructions: 'How is the time of the new observation related to the time of the candidate memory?',
    criteria: {
      before: 'the new observation happened before the candidate',
      after: 'the new observation happened after the candidate',
      during: 'the new observation happened during the candidate',
      contains: 'the candidate happened during the new observation',
      overlaps: 'the two partly overlap in time',
      same_time: 'they happened at the same time',
      unknown: 'the order cannot be told',
    },
  } satisfies ChoiceQuestion,

  'route.semantic': noul('Would memories similar in meaning to the query help answer it?'),
  'route.temporal': noul('Does answering the query depend on when things happened (dates, order, durations)?'),
  'route.causal': noul('Does answering the query depend on causes, reasons or consequences?'),
  'route.entity': noul('Does answering the query depend on gathering what is known about particular people, places or things?'),
  'route.multi_hop': noul('Does answering the query need several pieces of evidence combined, possibly from different times?'),
  'route.recency': noul('Should newer memories be preferred when answering the query (the latest state wins)?'),

  'stop.sufficient': noul('Is the evidence gathered so far sufficient to answer the query?'),
  'stop.continue_useful': noul('Is further retrieval likely to find useful new evidence?'),
  'stop.missing': noul('Is evidence that the answer requires still missing?'),
  'stop.contradiction': noul('Does the evidence contain an unresolved contradiction about the answer?'),

  'cand.relevance': noul('Is the candidate memory relevant evidence for answering the query?'),
  'cand.relation_usefulness': noul('Is the link that led to the candidate a useful path for this query?'),
  'cand.new_information': noul('Does the candidate add information not already in the evidence gathered so far?'),
  'cand.supports_evidence': noul('Does the candidate support or complete evidence already gathered?'),

  'maint.redundant': noul('Does the candidate memory repeat the node without adding anything?'),
  'maint.contradiction': noul('Does the candidate memory contradict the node?'),
  'maint.obsolete': noul('Is the candidate memory made out of date by the node (the node is newer and replaces it)?'),
  'maint.link': noul('Would a link between the node and the candidate memory help later retrieval?'),
  'maint.representation': {
    type: 'choice',
    instructions: 'How should the node and its near neighbours be represented?',
    criteria: { keep: 'keep them as they are', merge: 'merge repeats into one summary', promote: 'promote a stable fact into a semantic summary' },
  } satisfies ChoiceQuestion,
});

/** All ids in catalogue order. */
export const CATALOGUE_IDS = Object.freeze(Object.keys(CATALOGUE) as CatalogueId[]);

/** Builds the wire key for a question: `id` or `id#ref`. */
export function questionKey(id: CatalogueId, ref?: string): string {
  return ref === undefined ? id : `${id}#${ref}`;
}

/** Splits a wire key into its catalogue id and ref; `id` is undefined for keys outside the catalogue. */
export function parseQuestionKey(key: string): { id: CatalogueId | undefined; ref: string | undefined } {
  const hash = key.indexOf('#');
  const base = hash < 0 ? key : key.slice(0, hash);
  const ref = hash < 0 ? undefined : key.slice(hash + 1);
  return { id: base in CATALOGUE ? (base as CatalogueId) : undefined, ref };
}

// ---------------------------------------------------------------------------------------------
// States. Every state jev-mem sends is one of these objects (`kind` tells which). Text fields are
// for a language-model backend; `signals` are numbers the memory computed, for the local model.
// The states are type aliases (not interfaces) so that they are wire states
// (`SystemOneRequest.state`, a `Record<string, unknown>`) without a cast.
// ---------------------------------------------------------------------------------------------

/** A memory as shown inside a state. */
export interface StateMemory {
  ref: string;
  text: string;
  speaker?: string;
  observedAt?: string;
  sessionId?: string;
}

/** State of a typing request (one observation). */
export type TypingState = {
  kind: 'typing';
  observation: { text: string; speaker?: string; observedAt?: string };
};

/** Numeric signals of a (new observation, candidate) pair. */
export interface PairSignals {
  /** Cosine similarity of the embeddings, in [-1,1]. */
  cosine: number;
  /** Lexical score of the candidate for the new text, normalised to [0,1] by the best hit. */
  lexical: number;
  /** Entities shared by both. */
  sharedEntities: number;
  /** Keywords shared by both. */
  sharedKeywords: number;
  /** |τ_new − τ_cand| in days; -1 when either has no timestamp. */
  gapDays: number;
  /** 1 when both belong to the same session. */
  sameSession: number;
  /** 1 when both have the same speaker. */
  sameSpeaker: number;
  /** Distance in insertion order (new.seq − cand.seq). */
  seqGap: number;
}

/** State of a relation request: the new observation and ≤ K_w candidates (eq. (8)-(9)). */
export type RelationState = {
  kind: 'relation';
  observation: StateMemory;
  candidates: Array<StateMemory & { signals: PairSignals }>;
};

/** State of a routing request (eq. (11)). */
export type RoutingState = {
  kind: 'routing';
  query: string;
  /** Names of the speakers / entities known to this namespace that the query mentions. */
  mentions: string[];
};

/** Numeric signals of a traversal candidate (eq. (23)). */
export interface CandidateSignals {
  /** z_v: cosine to the query in [-1,1]. */
  cosine: number;
  /** 1-based rank in the vector ranking (0 when absent). */
  vectorRank: number;
  /** Lexical (BM25) score normalised by the best lexical hit, [0,1]. */
  lexical: number;
  /** 1-based rank in the lexical ranking (0 when absent). */
  lexicalRank: number;
  /** Eq. (16) RRF score of the candidate (0 when not an anchor). */
  rrf: number;
  /** Fraction of the query's content words (stemmed) found in the candidate, [0,1]. */
  overlap: number;
  /** 1 when the candidate's speaker is named in the query. */
  speakerNamed: number;
  /** 1 when the query names some other known speaker but not this one. */
  otherSpeakerNamed: number;
  /** Graph hops from the nearest anchor (0 for anchors). */
  hops: number;
  /** π_e of the edge that reached it (1 for anchors). */
  edgeWeight: number;
  /** Best normalised lexical score among the anchors this node neighbours (0 if none). */
  neighbourLexical: number;
  /** Session distance from the best anchor's session (|Δ| in session order, 0 same). */
  sessionDistance: number;
  /** Cosine to the centroid of the evidence already kept, [-1,1] (0 when none kept). */
  evidenceCosine: number;
  /** 1 when the candidate's text or timeRefs carry a date. */
  hasDate: number;
  /** Length of the text in words. */
  words: number;
  /** 1 when the text holds an image caption. */
  image: number;
  /** 1 when the candidate is a lexical top-10 hit. */
  lexicalTop10?: number;
  /** 1 when a turn right before or after it (a `precedes` edge of weight 1) is a lexical top-10 hit. */
  neighbourOfHit?: number;
  /** Best cosine of any node to the query minus this node's cosine (≥ 0). */
  cosineGap?: number;
  /** 1 when it is in the same session as the best lexical hit. */
  sameSessionAsBest?: number;
  /** 1 when the query names the month of the candidate's `observedAt`. */
  monthMatch?: number;
  /** 1 when the query names the year of the candidate's `observedAt`. */
  yearMatch?: number;
  /** 1 in the reassessment round (eq. (26) "reassess"), when the fields below are filled. */
  reassess?: number;
  /** a_v of the candidate from its first assessment. */
  priorRelevance?: number;
  /** Best first-assessment a_v among the turns right before and after it (0 when none was scored). */
  neighbourRelevance?: number;
  /** Best cosine to the query of the turns right before and after it (`precedes` edges of weight 1), [-1,1]; 0 when none (features@4). */
  neighbourCosine?: number;
  /** Its normalised lexical score plus those of the turns right before and after it, [0,3] (features@4). */
  windowLexical?: number;
  /** Best normalised lexical score of any lexical hit in its session, [0,1] (features@4). */
  sessionLexical?: number;
  /** Fraction of the query's names (capitalised non-initial words, speakers excluded) found in its text, [0,1] (features@4). */
  entityMatch?: number;
  /**
   * Soft term match of the query over its text and the turns right before and after it (`precedes`
   * edges of weight 1): IDF-weighted mean over the query's content words of the best word-vector
   * cosine (1 for the same stem, clamped at 0), [0,1]; 0 when the encoder has no word vectors
   * (features@5).
   */
  softWindowOverlap?: number;
}

/** State of a candidate-scoring request. */
export type CandidateState = {
  kind: 'candidates';
  query: string;
  candidates: Array<StateMemory & { via?: { view: string; subtype: string; weight: number }; signals: CandidateSignals }>;
};

/** Numeric signals of a stop decision after round d (eq. (17)-(20)). */
export interface StopSignals {
  round: number;
  maxDepth: number;
  /** Scores of the current beam, best first. */
  beamScores: number[];
  /** Relevance a_v of the best kept memory. */
  bestRelevance: number;
  /** Mean relevance of the new nodes found in the last round. */
  lastRoundGain: number;
  /** New nodes found in the last round. */
  lastRoundNew: number;
  /** Nodes still in the frontier. */
  frontier: number;
  /** Count of `contradicts` edges among kept evidence. */
  contradictions: number;
  /** h(q) from routing. */
  multiHop: number;
}

/** State of a stop request. */
export type StopState = {
  kind: 'stop';
  query: string;
  evidence: StateMemory[];
  signals: StopSignals;
};

/** State of a maintenance request over a bounded neighbourhood. */
export type MaintenanceState = {
  kind: 'maintenance';
  node: StateMemory;
  candidates: Array<StateMemory & { signals: PairSignals }>;
};

/** Any state jev-mem sends. */
export type ControlState = TypingState | RelationState | RoutingState | CandidateState | StopState | MaintenanceState;
