/**
 * Candidate pool and features of the flat learned scorer (SPEC 10, "a flat learned scorer
 * (logistic regression; no graph)"). Pool = BM25 top 50 ∪ dense top 50 ∪ the turns just before
 * and after each BM25 top-10 hit (same session). Features: BM25 score and rank, cosine and
 * rank, word overlap, speaker named / only the other speaker named, neighbour-of-a-hit flags and
 * the neighbour's BM25 score, session distance from the best hit, date words and month/year
 * agreement with the session date, question-type flags, length, image flag. Uses only the
 * question text and the turns (never the category or the evidence).
 *
 * @module
 */
import { contentTerms, tokenize } from '../../src/plane/text/text.js';
import { bm25Hits, denseHits, type ConversationIndex, type PreparedQuery, type TurnDoc } from './baselines.js';

/** Pool sizes of SPEC 10. */
export const POOL = Object.freeze({ bm25: 50, dense: 50, neighbourHits: 10 });

/** Feature names, in row order. */
export const FLAT_FEATURES = Object.freeze([
  'bm25_norm',
  'bm25_inv_rank',
  'bm25_top10',
  'cosine',
  'cosine_gap',
  'cosine_inv_rank',
  'in_bm25_pool',
  'in_dense_pool',
  'overlap',
  'speaker_named',
  'other_speaker_only',
  'prev_of_hit',
  'next_of_hit',
  'neighbour_bm25',
  'session_distance',
  'same_session_as_best',
  'q_date_words',
  'month_match',
  'year_match',
  'doc_date_words',
  'when_x_doc_date_words',
  'q_when',
  'q_what',
  'q_who',
  'q_where',
  'q_how',
  'q_why',
  'q_which',
  'q_hypothetical',
  'q_yes_no',
  'log_length',
  'image',
  'doc_is_question',
] as const);

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Words that mark a question about dates or a turn that carries a relative date. */
const DATE_WORDS = new Set([
  ...MONTHS,
  ...WEEKDAYS,
  'when',
  'date',
  'year',
  'years',
  'month',
  'months',
  'week',
  'weeks',
  'weekend',
  'day',
  'days',
  'yesterday',
  'today',
  'tomorrow',
  'tonight',
  'ago',
  'last',
  'next',
  'recently',
  'since',
  'before',
  'after',
]);
const YES_NO = new Set(['is', 'are', 'was', 'were', 'does', 'do', 'did', 'has', 'have', 'had', 'can', 'will']);
const HYPOTHETICAL = new Set(['would', 'could', 'might', 'likely', 'likely?']);

/** What the features need to know about the question, computed once. */
export interface QuestionInfo {
  words: string[];
  terms: Set<string>;
  /** Lower-cased first names of the conversation's speakers that the question names. */
  named: Set<string>;
  months: Set<number>;
  years: Set<number>;
  dateWords: boolean;
  first: string;
}

function firstName(name: string): string {
  return tokenize(name)[0] ?? name.toLowerCase();
}

/** Analyses the question against the conversation's two speakers. */
export function questionInfo(question: string, speakers: readonly string[]): QuestionInfo {
  const words = tokenize(question);
  const set = new Set(words);
  const named = new Set(speakers.map(firstName).filter((n) => set.has(n)));
  const months = new Set<number>();
  MONTHS.forEach((m, i) => {
    if (set.has(m) && !(m === 'may' && !/\bMay\b/.test(question))) months.add(i);
  });
  const years = new Set(words.filter((w) => /^(19|20)\d\d$/.test(w)).map(Number));
  return { words, terms: new Set(contentTerms(question)), named, months, years, dateWords: words.some((w) => DATE_WORDS.has(w)), first: words[0] ?? '' };
}

const docTermCache = new WeakMap<TurnDoc, { terms: Set<string>; words: number; dateWords: boolean }>();

function docInfo(d: TurnDoc): { terms: Set<string>; words: number; dateWords: boolean } {
  let info = docTermCache.get(d);
  if (info === undefined) {
    // The speaker prefix is not content: drop it before counting words.
    const body = d.text.slice(d.speaker.length + 2);
    const words = tokenize(body);
    info = { terms: new Set(contentTerms(body)), words: words.length, dateWords: words.some((w) => DATE_WORDS.has(w) && w !== 'when') };
    docTermCache.set(d, info);
  }
  return info;
}

/** The pool of one question with one feature row per candidate. */
export interface CandidatePool {
  /** Candidate turn ids, in pool order (BM25 pool, then dense, then neighbours). */
  ids: string[];
  /** One row per candidate, columns {@link FLAT_FEATURES}. */
  rows: number[][];
}

/** Builds the candidate pool of a question and its feature rows. */
export function candidatePool(index: ConversationIndex, q: PreparedQuery): CandidatePool {
  const n = index.docs.length;
  const info = questionInfo(q.text, index.speakers);
  const lex = bm25Hits(index, q.text, n);
  const dense = denseHits(index, q.vector, n);
  const best = lex[0]?.score ?? 0;
  const lexRank = new Map(lex.map((h, i) => [h.id, { rank: i + 1, norm: best > 0 ? h.score / best : 0 }]));
  const denseRank = new Map(dense.map((h, i) => [h.id, { rank: i + 1, cos: h.score }]));
  const bestCos = dense[0]?.score ?? 0;
  const ids: string[] = [];
  const seen = new Set<string>();
  const push = (id: string): void => {
    if (!seen.has(id)) {
      seen.add(id);
      ids.push(id);
    }
  };
  for (const h of lex.slice(0, POOL.bm25)) push(h.id);
  for (const h of dense.slice(0, POOL.dense)) push(h.id);
  // neighbours (previous / next turn in the same session) of the BM25 top-10 hits
  const prevOf = new Map<string, number>();
  const nextOf = new Map<string, number>();
  for (const h of lex.slice(0, POOL.neighbourHits)) {
    const d = index.byId.get(h.id) as TurnDoc;
    const norm = best > 0 ? h.score / best : 0;
    for (const [delta, map] of [
      [-1, prevOf],
      [1, nextOf],
    ] as const) {
      const o = index.docs[d.position + delta];
      if (o && o.session === d.session) {
        map.set(o.id, Math.max(map.get(o.id) ?? 0, norm));
        push(o.id);
      }
    }
  }
  const bestSession = lex[0] ? (index.byId.get(lex[0].id) as TurnDoc).session : undefined;
  const speakerNames = index.speakers.map(firstName);
  const rows = ids.map((id) => {
    const d = index.byId.get(id) as TurnDoc;
    const di = docInfo(d);
    const l = lexRank.get(id);
    const v = denseRank.get(id);
    let overlap = 0;
    for (const t of info.terms) if (di.terms.has(t)) overlap++;
    const own = firstName(d.speaker);
    const speakerNamed = info.named.has(own) ? 1 : 0;
    const otherOnly = !speakerNamed && speakerNames.some((s) => s !== own && info.named.has(s)) ? 1 : 0;
    const date = Number.isNaN(d.dateMs) ? undefined : new Date(d.dateMs);
    const when = info.first === 'when' ? 1 : 0;
    const row: number[] = [
      l?.norm ?? 0,
      l ? 1 / l.rank : 0,
      l && l.rank <= POOL.neighbourHits ? 1 : 0,
      v?.cos ?? 0,
      (v?.cos ?? 0) - bestCos,
      v ? 1 / v.rank : 0,
      l && l.rank <= POOL.bm25 ? 1 : 0,
      v && v.rank <= POOL.dense ? 1 : 0,
      info.terms.size > 0 ? overlap / info.terms.size : 0,
      speakerNamed,
      otherOnly,
      prevOf.has(id) ? 1 : 0,
      nextOf.has(id) ? 1 : 0,
      Math.max(prevOf.get(id) ?? 0, nextOf.get(id) ?? 0),
      bestSession === undefined ? 0 : Math.log1p(Math.abs(d.session - bestSession)),
      bestSession !== undefined && d.session === bestSession ? 1 : 0,
      info.dateWords ? 1 : 0,
      date && info.months.has(date.getUTCMonth()) ? 1 : 0,
      date && info.years.has(date.getUTCFullYear()) ? 1 : 0,
      di.dateWords ? 1 : 0,
      when && di.dateWords ? 1 : 0,
      when,
      info.first === 'what' ? 1 : 0,
      info.first === 'who' ? 1 : 0,
      info.first === 'where' ? 1 : 0,
      info.first === 'how' ? 1 : 0,
      info.first === 'why' ? 1 : 0,
      info.first === 'which' ? 1 : 0,
      info.words.some((w) => HYPOTHETICAL.has(w)) ? 1 : 0,
      YES_NO.has(info.first) ? 1 : 0,
      Math.log1p(di.words),
      d.image ? 1 : 0,
      d.text.replace(/ \[image: .*\]$/, '').trimEnd().endsWith('?') ? 1 : 0,
    ];
    return row;
  });
  return { ids, rows };
}
