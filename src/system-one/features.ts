/**
 * Deterministic featurizers of the local System One (SPEC 5): one per head group, each turning a
 * catalogue state (see `catalogue.ts`) and, for pair / candidate questions, the question's `ref`
 * into a fixed-length `Float32Array`. The heuristic stand-in, the quantized ONNX model and the
 * pure-TypeScript kernels all read these rows, so every backend that answers with heads sees the
 * same numbers.
 *
 * Inputs are the numeric `signals` the memory computes plus cheap text cues (question words,
 * temporal, multi-hop, causal, preference and procedural words, negation, names, length).
 * Words come from `plane/text/text.ts` `tokenize()` / `contentTerms()` so a word is read the same way
 * as in the lexical index.
 *
 * Conventions:
 * - Every value is finite. Counts are capped and scaled to [0,1] (`cap(n, c) = min(n, c)/c`);
 *   unbounded quantities use `ln(1 + x)`; flags are 0/1; cosines stay in [-1,1].
 * - Featurizers read TYPED states (`catalogue.ts`): a signal is read by its name
 *   (`cand.signals.vectorRank`), so renaming a signal fails to compile. Untyped states (a wire
 *   request from the CLI, a worker message, a caller of `SystemOneBackend.decide`) are read into
 *   these types ({@link GroupStates}) once, where they enter a head backend (`heads.ts`
 *   `planBatch` calls `validate.ts` `readGroupState`): a missing or ill-typed field reads as
 *   0 / `''`, a non-finite number as 0. A ref that names no candidate gives a row whose
 *   `has_candidate` is 0. Featurizers never throw; signals must be finite numbers.
 * - Text analysis is memoised per {@link createFeaturizer} (a bounded LRU of
 *   {@link CUE_CACHE_MAX} texts); the plain exported featurizers do not cache.
 * - {@link FEATURE_VERSION} changes whenever a feature list, a lexicon or a formula changes; a
 *   model built for another version is refused at load time.
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import { textKey } from '../util/hash.js';
import { contentTerms, midSentenceCapitalised, tokenize } from '../plane/text/text.js';
import type {
  CandidateSignals,
  CandidateState,
  MaintenanceState,
  PairSignals,
  RelationState,
  RoutingState,
  StateMemory,
  StopState,
  TypingState,
} from './catalogue.js';

/**
 * Version of the feature definitions (names, order, lexicons, formulas). Stored in the model
 * manifest and in each ONNX file's metadata; `createLocalSystemOne` refuses a model whose
 * version differs.
 */
export const FEATURE_VERSION = 'jev-mem/system-one-features@5';

/** The six head groups; each has one featurizer and one network. */
export const HEAD_GROUPS = ['typing', 'relation', 'routing', 'candidates', 'stop', 'maintenance'] as const;

/** A head group (one featurizer + one network; see {@link HEAD_GROUPS}). */
export type HeadGroup = (typeof HEAD_GROUPS)[number];

/** The state type each head group's featurizer reads (catalogue.ts shapes). */
export interface GroupStates {
  typing: TypingState;
  relation: RelationState;
  routing: RoutingState;
  candidates: CandidateState;
  stop: StopState;
  maintenance: MaintenanceState;
}

// ---------------------------------------------------------------------------------------------
// Lexicons (lower-case tokens as produced by `tokenize`, which splits at apostrophes).
// ---------------------------------------------------------------------------------------------

/** Question words, in one-hot order (`q_when` … `q_do`). The first one in the text is hot. */
export const QUESTION_WORDS = ['when', 'why', 'how', 'what', 'who', 'which', 'where', 'would', 'is', 'did', 'do'] as const;

const set = (...words: string[]): ReadonlySet<string> => new Set(words);

const DATE_WORDS = set('date', 'dates', 'day', 'days', 'week', 'weeks', 'weekend', 'weekends', 'month', 'months', 'year', 'years',
  'time', 'hour', 'hours', 'summer', 'winter', 'spring', 'autumn', 'birthday', 'anniversary', 'tonight', 'morning', 'evening', 'night');
const MONTHS = set('january', 'february', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'jan', 'feb', 'apr', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec');
/** Month names that are also common words: counted only next to a number ("may 7", "7 march 2023"). */
const AMBIGUOUS_MONTHS = set('may', 'march');
const WEEKDAYS = set('monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday');
const AGO_LAST = set('ago', 'last', 'recently', 'yesterday', 'lately', 'previously');
const ORDER_WORDS = set('before', 'after', 'first', 'since', 'until', 'earlier', 'later', 'next', 'previous', 'prior', 'during');
const HOW_LONG_UNITS = set('years', 'months', 'weeks', 'days', 'hours');
const CAUSAL = set('why', 'because', 'cause', 'caused', 'causes', 'reason', 'reasons', 'led', 'lead', 'leads', 'leading', 'result',
  'resulted', 'results', 'due', 'therefore', 'inspired', 'inspire', 'inspires', 'inspiration', 'motivated', 'motivate',
  'motivation', 'decided', 'decide', 'decision', 'consequence', 'effect');
const MULTI_SET = set('both', 'all', 'kinds', 'kind', 'types', 'activities', 'things', 'ways', 'hobbies', 'events', 'places', 'items',
  'some', 'various', 'several', 'many', 'different', 'common', 'together', 'share', 'shared');
/** Tokens ending in "s" that are not plural nouns (for the "what/which <plural>" cue). */
const NOT_PLURAL = set('does', 'was', 'has', 'this', 'his', 'is', 'its', 'yes', 'always', 'perhaps', 'sometimes', 'whose', 'hers',
  'ours', 'yours', 'theirs', 'less', 'unless', 'across', 'plus');
const PREFERENCE = set('love', 'loves', 'loved', 'loving', 'like', 'likes', 'liked', 'favourite', 'favorite', 'favourites', 'favorites',
  'fave', 'prefer', 'prefers', 'preferred', 'preference', 'enjoy', 'enjoys', 'enjoyed', 'enjoying', 'hate', 'hates', 'hated',
  'dislike', 'dislikes', 'fan', 'passion', 'passionate', 'wish', 'adore', 'adores', 'opinion', 'fond', 'keen');
const PROCEDURAL = set('step', 'steps', 'recipe', 'recipes', 'routine', 'routines', 'usually', 'always', 'every', 'method', 'methods',
  'guide', 'tip', 'tips', 'process', 'instructions', 'instruction', 'technique', 'techniques', 'habit', 'habits', 'practice',
  'practise', 'procedure', 'tutorial');
const SEMANTIC = set('is', 'are', 'means', 'known', 'called', 'generally', 'typically', 'fact', 'facts', 'definition');
const RECENCY = set('now', 'current', 'currently', 'latest', 'recent', 'recently', 'still', 'anymore', 'nowadays', 'lately', 'new',
  'newest', 'today');
const HYPOTHETICAL = set('would', 'likely', 'might', 'could', 'probably', 'maybe', 'if', 'possibly', 'perhaps', 'consider');
const NEGATION = set('not', 'no', 'never', 'nothing', 'none', 'nobody', 'nor', 'cannot', 'neither');
const FUTURE = set('will', 'going', 'gonna', 'plan', 'plans', 'planning', 'tomorrow', 'soon', 'hope', 'hoping', 'want', 'wants');
const FIRST_PERSON = set('i', 'me', 'my', 'mine', 'myself', 'we', 'our', 'ours', 'us', 'ourselves');
const SECOND_PERSON = set('you', 'your', 'yours', 'yourself');
const PAST_IRREGULAR = set('was', 'were', 'had', 'did', 'went', 'got', 'made', 'saw', 'took', 'came', 'said', 'told', 'felt', 'found',
  'gave', 'met', 'ran', 'began', 'bought', 'brought', 'thought', 'left', 'lost', 'won', 'wrote', 'spent', 'heard', 'kept', 'became');
const CHANGE = set('now', 'anymore', 'longer', 'changed', 'change', 'moved', 'switched', 'quit', 'stopped', 'started', 'new', 'instead',
  'replaced', 'became', 'turned', 'update', 'updated');
const VISUAL = set('image', 'photo', 'photos', 'picture', 'pictures', 'pic', 'pics', 'caption');

// ---------------------------------------------------------------------------------------------
// Text cues
// ---------------------------------------------------------------------------------------------

/**
 * Raw cue counts of one text (before capping). Exported for tests and for trainers that want to
 * inspect rows; the featurizers are the contract.
 */
export interface TextCues {
  /** Number of tokens (`tokenize`). */
  words: number;
  /** Index in {@link QUESTION_WORDS} of the first question word in the text, -1 when none. */
  qword: number;
  questionMark: number;
  exclamation: number;
  firstPerson: number;
  secondPerson: number;
  /** Past-tense tokens: irregular forms plus words of ≥ 5 letters ending in "ed". */
  past: number;
  dateWords: number;
  /** Month names (May / March only next to a number). */
  months: number;
  /** Four-digit years 1900-2099. */
  years: number;
  weekdays: number;
  /** Tokens holding a digit. */
  numbers: number;
  agoLast: number;
  order: number;
  /** "how long", or "how many years/months/weeks/days/hours". */
  howLong: number;
  causal: number;
  multiSet: number;
  and: number;
  /** 1 when "what"/"which" is followed by a plural noun ("what activities"). */
  whatPlural: number;
  preference: number;
  /** Procedural words plus "how to". */
  procedural: number;
  semantic: number;
  recency: number;
  hypothetical: number;
  /** Negation words plus "n't" (split by the tokenizer as `<word>n` + `t`). */
  negation: number;
  future: number;
  visual: number;
  change: number;
  /** Capitalised words that do not start a sentence (names), "I" excluded. */
  readonly capitalised: number;
  /** Tokens holding a digit, as a set (for number agreement). */
  numberSet: ReadonlySet<string>;
  /** Capitalised non-initial words, lower-cased (for shared-name counts). */
  readonly nameSet: ReadonlySet<string>;
  /**
   * The text's content terms (`contentTerms`, stemmed), as a set: the pair Jaccard of relation
   * and maintenance rows. Read once per text with the other cues (issue 25: a candidate is in the
   * rows of many writes) instead of once per pair.
   */
  readonly termSet: ReadonlySet<string>;
}

/**
 * Module constants, not literals in the functions below: a literal makes a new RegExp at every
 * call, which cost ~5× the test itself (issue 25: they run for every token of every candidate
 * row). No `g` or `y` flag, so `test` keeps no state between calls.
 */
const NUMBER_CHAR = /\p{N}/u;
const NUMBER_TOKEN = /^\p{N}+$/u;
const YEAR_TOKEN = /^(19|20)\d\d$/;
/** True when `t` holds a number character (`\p{N}`); an all-ASCII token is read by its char codes (there `\p{N}` is [0-9]). */
function hasDigit(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c > 0x7f) return NUMBER_CHAR.test(t);
    if (c >= 0x30 && c <= 0x39) return true;
  }
  return false;
}
/** True when `t` is a non-empty run of number characters (`\p{N}+`); an all-ASCII token is read by its char codes. */
function isNumberToken(t: string | undefined): boolean {
  if (t === undefined || t.length === 0) return false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c > 0x7f) return NUMBER_TOKEN.test(t);
    if (c < 0x30 || c > 0x39) return false; // an ASCII character that is not a digit fails \p{N}+
  }
  return true;
}
/** Capitalised words that do not start a sentence: their count and their lower-cased set. */
function capitalisedNames(text: string): { count: number; names: Set<string> } {
  const words = midSentenceCapitalised(text);
  return { count: words.length, names: new Set(words.map((w) => w.toLowerCase())) };
}

/**
 * The cues of a text that a candidate row reads of the candidate's text (answer evidence: a
 * name, a number, a time), the same counts as {@link TextCues} has for them.
 */
export type AnswerCues = Pick<TextCues, 'questionMark' | 'dateWords' | 'months' | 'years' | 'weekdays' | 'numbers' | 'agoLast' | 'capitalised'>;

/** Adds the answer cues of token `i` of `tokens` to `c` ({@link AnswerCues}); true when the token holds a digit. */
function countAnswerToken(c: Omit<AnswerCues, 'capitalised' | 'questionMark'>, tokens: readonly string[], i: number): boolean {
  const t = tokens[i] as string;
  if (DATE_WORDS.has(t)) c.dateWords++;
  if (MONTHS.has(t) || (AMBIGUOUS_MONTHS.has(t) && (isNumberToken(tokens[i - 1]) || isNumberToken(tokens[i + 1])))) c.months++;
  if (YEAR_TOKEN.test(t)) c.years++;
  if (WEEKDAYS.has(t)) c.weekdays++;
  if (AGO_LAST.has(t)) c.agoLast++;
  if (!hasDigit(t)) return false;
  c.numbers++;
  return true;
}

/**
 * The {@link AnswerCues} of `text`: what {@link textCues} counts of them, without its other
 * twenty-odd word lists (a recall builds a row for a few hundred candidates; issue 25).
 * @param text - any text; non-strings read as `''`.
 */
export function answerCues(text: string): AnswerCues {
  const raw = typeof text === 'string' ? text : '';
  const tokens = tokenize(raw);
  let names: { count: number; names: Set<string> } | undefined;
  const c: AnswerCues = {
    questionMark: raw.includes('?') ? 1 : 0, dateWords: 0, months: 0, years: 0, weekdays: 0, numbers: 0, agoLast: 0,
    get capitalised(): number {
      return (names ??= capitalisedNames(raw)).count;
    },
  };
  for (let i = 0; i < tokens.length; i++) countAnswerToken(c, tokens, i);
  return c;
}

/**
 * Counts the cues of {@link TextCues} in `text`. The token counts are taken at once; the parts
 * that need their own pass over the text (`capitalised` and `nameSet`: {@link midSentenceCapitalised};
 * `termSet`: stemmed {@link contentTerms}) are computed at their first read and kept (issue 25,
 * stop 33: the read path's candidate rows read `capitalised` only for who/where questions and
 * never `termSet`, which the write path's pair rows read). Same values either way.
 * @param text - any text; non-strings read as `''`.
 */
export function textCues(text: string): TextCues {
  const raw = typeof text === 'string' ? text : '';
  const tokens = tokenize(raw);
  let names: { count: number; names: Set<string> } | undefined;
  let termSet: ReadonlySet<string> | undefined;
  const c: TextCues = {
    words: tokens.length, qword: -1, questionMark: raw.includes('?') ? 1 : 0, exclamation: raw.includes('!') ? 1 : 0,
    firstPerson: 0, secondPerson: 0, past: 0, dateWords: 0, months: 0, years: 0, weekdays: 0, numbers: 0, agoLast: 0,
    order: 0, howLong: 0, causal: 0, multiSet: 0, and: 0, whatPlural: 0, preference: 0, procedural: 0, semantic: 0,
    recency: 0, hypothetical: 0, negation: 0, future: 0, visual: 0, change: 0,
    numberSet: new Set<string>(),
    get capitalised(): number {
      return (names ??= capitalisedNames(raw)).count;
    },
    get nameSet(): ReadonlySet<string> {
      return (names ??= capitalisedNames(raw)).names;
    },
    get termSet(): ReadonlySet<string> {
      return (termSet ??= terms(raw));
    },
  };
  const numbers = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as string;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (c.qword < 0) {
      const q = (QUESTION_WORDS as readonly string[]).indexOf(t);
      if (q >= 0) c.qword = q;
    }
    if (FIRST_PERSON.has(t)) c.firstPerson++;
    if (SECOND_PERSON.has(t)) c.secondPerson++;
    if (PAST_IRREGULAR.has(t) || (t.length >= 5 && t.endsWith('ed'))) c.past++;
    if (countAnswerToken(c, tokens, i)) numbers.add(t);
    if (ORDER_WORDS.has(t)) c.order++;
    if (t === 'how' && (next === 'long' || (next === 'many' && HOW_LONG_UNITS.has(tokens[i + 2] ?? '')))) c.howLong++;
    if (CAUSAL.has(t)) c.causal++;
    if (MULTI_SET.has(t)) c.multiSet++;
    if (t === 'and') c.and++;
    if ((t === 'what' || t === 'which') && next !== undefined && next.length > 3 && next.endsWith('s') && !next.endsWith('ss') && !NOT_PLURAL.has(next)) {
      c.whatPlural = 1;
    }
    if (PREFERENCE.has(t)) c.preference++;
    if (PROCEDURAL.has(t) || (t === 'how' && next === 'to')) c.procedural++;
    if (SEMANTIC.has(t)) c.semantic++;
    if (RECENCY.has(t)) c.recency++;
    if (HYPOTHETICAL.has(t)) c.hypothetical++;
    if (NEGATION.has(t) || (t === 't' && prev !== undefined && prev.endsWith('n'))) c.negation++;
    if (FUTURE.has(t)) c.future++;
    if (VISUAL.has(t)) c.visual++;
    if (CHANGE.has(t)) c.change++;
  }
  c.numberSet = numbers;
  return c;
}

// ---------------------------------------------------------------------------------------------
// Small numeric helpers
// ---------------------------------------------------------------------------------------------

/** min(max(n,0), c) / c: a count capped at `c` and scaled to [0,1]. */
function cap(n: number, c: number): number {
  return Math.min(Math.max(n, 0), c) / c;
}

/** ln(1 + max(0, x)). */
function ln1p(x: number): number {
  return Math.log1p(Math.max(0, x));
}

function flag(b: boolean): number {
  return b ? 1 : 0;
}

/** Milliseconds since the epoch of an ISO-8601 string, undefined when absent or unparseable. */
function time(v: string | undefined): number | undefined {
  if (v === undefined || v === '') return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

/** Jaccard overlap |A ∩ B| / |A ∪ B| of two term sets, 0 when both are empty. */
function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 0;
  let inter = 0;
  for (const x of a) if (b.has(x)) inter++;
  return inter / (a.size + b.size - inter);
}

function intersectionSize(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

/** The first candidate whose `ref` equals `ref` (undefined ref: none). */
function findCandidate<C extends { ref: string }>(candidates: readonly C[], ref: string | undefined): C | undefined {
  if (ref === undefined) return undefined;
  if (candidates.length < 16) return candidates.find((c) => c.ref === ref);
  // A row per candidate of a long list (a recall asks about ~100 at once, issue 25): index the
  // list once by its first entry per ref, as `find` would pick it.
  let known = REF_INDEX.get(candidates);
  if (known === undefined || known.length !== candidates.length) {
    const index = new Map<string, { ref: string }>();
    for (const c of candidates) if (!index.has(c.ref)) index.set(c.ref, c);
    known = { length: candidates.length, index };
    REF_INDEX.set(candidates, known);
  }
  const hit = known.index.get(ref) as C | undefined;
  // (a list changed in place since: searched as before)
  return hit !== undefined && hit.ref === ref ? hit : candidates.find((c) => c.ref === ref);
}

/** The ref index of each long candidate list {@link findCandidate} searched, with the list's length when it was built. */
const REF_INDEX = new WeakMap<readonly { ref: string }[], { length: number; index: Map<string, { ref: string }> }>();

/** Reads the text cues of a text: {@link textCues}, memoised or not. */
type CueReader = (text: string) => TextCues;
/** Reads the answer cues of a candidate's text: {@link answerCues}, memoised or not. */
type AnswerCueReader = (text: string) => AnswerCues;

function terms(text: string): Set<string> {
  return new Set(contentTerms(text));
}

/** Makes a row writer that checks at compile time that every named feature gets a value. */
function rowWriter<N extends string>(names: readonly N[]): (values: Record<N, number>) => Float32Array {
  return (values) => {
    const out = new Float32Array(names.length);
    for (let i = 0; i < names.length; i++) {
      const v = values[names[i] as N];
      out[i] = Number.isFinite(v) ? v : 0;
    }
    return out;
  };
}

/** Query-type flags shared by the read-path groups. */
function queryFlags(c: TextCues): { temporal: number; multi: number; hypothetical: number } {
  const qword = c.qword < 0 ? '' : QUESTION_WORDS[c.qword];
  return {
    temporal: flag(qword === 'when' || c.howLong > 0 || c.dateWords > 0 || c.months > 0 || c.years > 0 || c.agoLast > 0),
    multi: flag(c.multiSet > 0 || c.whatPlural > 0 || c.and > 0),
    hypothetical: flag(c.hypothetical > 0),
  };
}

// ---------------------------------------------------------------------------------------------
// typing (eq. (7))
// ---------------------------------------------------------------------------------------------

/** Features of the typing group, in row order. Source: the observation text and timestamp. */
export const TYPING_FEATURES = [
  'log_words', // ln(1 + tokens)
  'question_mark', // text has "?"
  'exclamation', // text has "!"
  'first_person', // cap(I/me/my/we/our…, 3)
  'second_person', // cap(you/your…, 2)
  'past_tense', // cap(past-tense tokens, 3)
  'temporal_words', // cap(date words + ago/last + order words, 3)
  'has_month',
  'has_year',
  'has_weekday',
  'has_number',
  'preference', // cap(love/like/favourite/prefer/enjoy/hate…, 2)
  'procedural', // cap(how to/step/recipe/routine/usually…, 2)
  'semantic', // cap(is/are/means/known/generally…, 2)
  'negation',
  'future', // cap(will/going/plan/hope…, 2)
  'visual', // image/photo/picture words
  'has_observed_at', // the observation has a parseable timestamp
  'capitalised', // cap(names, 3)
] as const;

const writeTypingRow = rowWriter(TYPING_FEATURES);

/**
 * Typing features (19 values, names in {@link TYPING_FEATURES}) of a {@link TypingState}.
 * @param state - `{kind: 'typing', observation: {text, speaker?, observedAt?}}`.
 */
export function typingFeatures(state: TypingState): Float32Array {
  return typingRow(textCues, state);
}

function typingRow(cues: CueReader, state: TypingState): Float32Array {
  const obs = state.observation;
  const c = cues(obs.text);
  return writeTypingRow({
    log_words: ln1p(c.words),
    question_mark: c.questionMark,
    exclamation: c.exclamation,
    first_person: cap(c.firstPerson, 3),
    second_person: cap(c.secondPerson, 2),
    past_tense: cap(c.past, 3),
    temporal_words: cap(c.dateWords + c.agoLast + c.order, 3),
    has_month: flag(c.months > 0),
    has_year: flag(c.years > 0),
    has_weekday: flag(c.weekdays > 0),
    has_number: flag(c.numbers > 0),
    preference: cap(c.preference, 2),
    procedural: cap(c.procedural, 2),
    semantic: cap(c.semantic, 2),
    negation: flag(c.negation > 0),
    future: cap(c.future, 2),
    visual: flag(c.visual > 0),
    has_observed_at: flag(time(obs.observedAt) !== undefined),
    capitalised: cap(c.capitalised, 3),
  });
}

// ---------------------------------------------------------------------------------------------
// relation (eq. (9))
// ---------------------------------------------------------------------------------------------

/** Features of the relation group (one row per (observation, candidate) pair), in row order. */
export const RELATION_FEATURES = [
  'has_candidate', // the ref names a candidate of the state
  'cosine', // PairSignals.cosine, [-1,1]
  'lexical', // PairSignals.lexical, [0,1]
  'shared_entities', // ln(1 + sharedEntities)
  'shared_keywords', // ln(1 + sharedKeywords)
  'gap_known', // gapDays ≥ 0
  'log_gap_days', // ln(1 + gapDays) when known, else 0
  'same_day', // gap known and < 1 day
  'same_session',
  'same_speaker',
  'log_seq_gap', // ln(1 + |seqGap|)
  'adjacent', // |seqGap| = 1
  'new_later', // τ_new > τ_cand (both timestamps parseable)
  'new_earlier', // τ_new < τ_cand
  'term_jaccard', // Jaccard of the stemmed content terms of the two texts
  'shared_names', // cap(shared capitalised names, 2)
  'obs_causal', // cap(causal words in the new text, 2)
  'cand_causal',
  'obs_temporal', // cap(date + ago/last + order words in the new text, 2)
  'cand_temporal',
  'obs_preference', // cap(preference words, 2)
  'cand_preference',
  'obs_question', // the new text has "?"
  'cand_question',
] as const;

const writeRelationRow = rowWriter(RELATION_FEATURES);

interface PairBlock {
  has: boolean;
  cosine: number;
  lexical: number;
  sharedEntities: number;
  sharedKeywords: number;
  gapKnown: boolean;
  gapDays: number;
  sameSession: number;
  sameSpeaker: number;
  seqGap: number;
  /** sign(τ_a − τ_b): 1, -1, or 0 (equal / unknown). */
  order: number;
  jaccard: number;
  sharedNames: number;
  a: TextCues;
  b: TextCues;
  aText: string;
  bText: string;
}

/** A candidate of a pair state (relation, maintenance). */
type PairCandidate = StateMemory & { signals: PairSignals };

/** The pair block of (`anchor`, `cand`); no candidate reads every pair signal as 0 (gap unknown). */
function pairBlock(cues: CueReader, anchor: StateMemory, cand: PairCandidate | undefined): PairBlock {
  const aText = anchor.text;
  const a = cues(aText);
  const bText = cand?.text ?? '';
  const b = cues(bText);
  const s = cand?.signals;
  const gap = s?.gapDays ?? 0;
  const ta = time(anchor.observedAt);
  const tb = time(cand?.observedAt);
  const order = ta === undefined || tb === undefined ? 0 : Math.sign(ta - tb);
  return {
    has: cand !== undefined,
    cosine: Math.max(-1, Math.min(1, s?.cosine ?? 0)),
    lexical: s?.lexical ?? 0,
    sharedEntities: s?.sharedEntities ?? 0,
    sharedKeywords: s?.sharedKeywords ?? 0,
    gapKnown: cand !== undefined && gap >= 0,
    gapDays: gap,
    sameSession: flag((s?.sameSession ?? 0) >= 1),
    sameSpeaker: flag((s?.sameSpeaker ?? 0) >= 1),
    seqGap: s?.seqGap ?? 0,
    order,
    jaccard: cand === undefined ? 0 : jaccard(a.termSet, b.termSet),
    sharedNames: cand === undefined ? 0 : intersectionSize(a.nameSet, b.nameSet),
    a,
    b,
    aText,
    bText,
  };
}

/**
 * Relation features (24 values, names in {@link RELATION_FEATURES}) of the pair
 * (`state.observation`, the candidate whose `ref` is `ref`).
 * @param state - a {@link RelationState}.
 * @param ref - the candidate's ref (the part after `#` of the question key); an unknown or absent
 *   ref gives a row with `has_candidate` = 0 and pair values 0.
 */
export function relationFeatures(state: RelationState, ref: string | undefined): Float32Array {
  return relationRow(textCues, state, ref);
}

function relationRow(cues: CueReader, state: RelationState, ref: string | undefined): Float32Array {
  const cand = findCandidate(state.candidates, ref);
  const p = pairBlock(cues, state.observation, cand);
  const known = cand !== undefined;
  return writeRelationRow({
    has_candidate: flag(known),
    cosine: p.cosine,
    lexical: p.lexical,
    shared_entities: ln1p(p.sharedEntities),
    shared_keywords: ln1p(p.sharedKeywords),
    gap_known: flag(p.gapKnown),
    log_gap_days: p.gapKnown ? ln1p(p.gapDays) : 0,
    same_day: flag(p.gapKnown && p.gapDays < 1),
    same_session: p.sameSession,
    same_speaker: p.sameSpeaker,
    log_seq_gap: ln1p(Math.abs(p.seqGap)),
    adjacent: flag(known && Math.abs(p.seqGap) === 1),
    new_later: flag(p.order > 0),
    new_earlier: flag(p.order < 0),
    term_jaccard: p.jaccard,
    shared_names: cap(p.sharedNames, 2),
    obs_causal: cap(p.a.causal, 2),
    cand_causal: known ? cap(p.b.causal, 2) : 0,
    obs_temporal: cap(p.a.dateWords + p.a.agoLast + p.a.order, 2),
    cand_temporal: known ? cap(p.b.dateWords + p.b.agoLast + p.b.order, 2) : 0,
    obs_preference: cap(p.a.preference, 2),
    cand_preference: known ? cap(p.b.preference, 2) : 0,
    obs_question: p.a.questionMark,
    cand_question: known ? p.b.questionMark : 0,
  });
}

// ---------------------------------------------------------------------------------------------
// routing (eq. (11), (15))
// ---------------------------------------------------------------------------------------------

/** Features of the routing group (one row per query), in row order. */
export const ROUTING_FEATURES = [
  'q_when', 'q_why', 'q_how', 'q_what', 'q_who', 'q_which', 'q_where', 'q_would', 'q_is', 'q_did', 'q_do', // first question word, one-hot
  'log_words', // ln(1 + tokens)
  'how_long', // "how long" / "how many years…"
  'date_words', // cap(date/day/week/month/year/time…, 2)
  'has_month',
  'has_year',
  'ago_last', // cap(ago/last/recently/yesterday…, 2)
  'order_words', // cap(before/after/first/since/until…, 2)
  'causal', // cap(because/reason/cause/led/inspired…, 2), "why" included
  'multi_set', // cap(both/all/kinds/activities/things/many…, 2)
  'multi_and', // cap("and", 2)
  'what_plural', // "what/which <plural noun>"
  'mentions', // cap(state.mentions.length, 2)
  'capitalised', // cap(names in the query, 2)
  'preference', // cap(preference words, 2)
  'procedural', // cap(procedural words, 2)
  'recency', // cap(now/current/latest/still…, 2)
  'hypothetical', // cap(would/likely/might/could/if…, 2)
  'negation',
] as const;

const writeRoutingRow = rowWriter(ROUTING_FEATURES);

/**
 * Routing features (29 values, names in {@link ROUTING_FEATURES}) of a {@link RoutingState}.
 * @param state - `{kind: 'routing', query, mentions}`.
 */
export function routingFeatures(state: RoutingState): Float32Array {
  return routingRow(textCues, state);
}

function routingRow(cues: CueReader, state: RoutingState): Float32Array {
  const c = cues(state.query);
  const q = (i: number): number => flag(c.qword === i);
  return writeRoutingRow({
    q_when: q(0), q_why: q(1), q_how: q(2), q_what: q(3), q_who: q(4), q_which: q(5), q_where: q(6), q_would: q(7),
    q_is: q(8), q_did: q(9), q_do: q(10),
    log_words: ln1p(c.words),
    how_long: flag(c.howLong > 0),
    date_words: cap(c.dateWords, 2),
    has_month: flag(c.months > 0),
    has_year: flag(c.years > 0),
    ago_last: cap(c.agoLast, 2),
    order_words: cap(c.order, 2),
    causal: cap(c.causal, 2),
    multi_set: cap(c.multiSet, 2),
    multi_and: cap(c.and, 2),
    what_plural: c.whatPlural,
    mentions: cap(state.mentions.length, 2),
    capitalised: cap(c.capitalised, 2),
    preference: cap(c.preference, 2),
    procedural: cap(c.procedural, 2),
    recency: cap(c.recency, 2),
    hypothetical: cap(c.hypothetical, 2),
    negation: flag(c.negation > 0),
  });
}

// ---------------------------------------------------------------------------------------------
// candidates (eq. (23))
// ---------------------------------------------------------------------------------------------

/** Features of the candidate group (one row per traversal candidate), in row order. */
export const CANDIDATE_FEATURES = [
  'has_candidate',
  'cosine', // z_v, [-1,1]
  'inv_vector_rank', // 1/vectorRank, 0 when absent
  'lexical', // [0,1]
  'inv_lexical_rank', // 1/lexicalRank, 0 when absent
  'rrf', // 30 · RRF score (eq. (16)); two first places give 30·2/61 ≈ 0.98
  'overlap', // query content words found, [0,1]
  'speaker_named',
  'other_speaker_named',
  'hops', // cap(hops, 4)
  'is_anchor', // hops = 0
  'edge_weight', // π_e
  'neighbour_lexical',
  'session_distance', // ln(1 + sessionDistance)
  'evidence_cosine', // [-1,1]
  'has_date',
  'log_words', // ln(1 + words)
  'image',
  'via_semantic', 'via_temporal', 'via_causal', 'via_entity', // one-hot of the view that reached it
  'query_temporal', // the query asks about time (when / how long / date words)
  'temporal_x_date', // query_temporal · has_date
  'query_multi_hop', // the query has a multi-hop cue
  'query_hypothetical', // the query has would/likely/might…
  'cand_question', // the candidate text has "?"
  'lexical_top10', // a lexical top-10 hit (features@2)
  'neighbour_of_hit', // the turn before or after is a lexical top-10 hit
  'cosine_gap', // best query cosine − this cosine
  'same_session_as_best', // same session as the best lexical hit
  'month_match', // the query names the month of its observedAt
  'year_match', // the query names the year of its observedAt
  'reassess', // the reassessment round (features@3)
  'prior_relevance', // a_v from the first assessment (reassessment only)
  'neighbour_relevance', // best first a_v of the turns before / after (reassessment only)
  'neighbour_cosine', // best query cosine of the turns before / after, [-1,1] (features@4)
  'cosine_minus_neighbour', // cosine − neighbour_cosine, [-2,2]
  'window_lexical', // lexical of the turn plus those of the turns before / after, [0,3]
  'session_lexical', // best lexical score of a hit in its session, [0,1]
  'entity_match', // fraction of the query's non-speaker names in its text, [0,1]
  'answer_who', // "who" query · the text names someone (capitalised non-initial word)
  'answer_where', // "where" query · the text holds a capitalised non-initial word (a place)
  'answer_count', // "how many / much / often / old" query · the text holds a number
  'answer_when', // "when" query · the text holds a date word, month, year, weekday or ago/last
  'soft_window_overlap', // IDF-weighted soft term match over it and its neighbour turns, [0,1] (features@5; 0 without word vectors)
] as const;

const writeCandidateRow = rowWriter(CANDIDATE_FEATURES);

/** A query asking for a count or amount ("how many", "how much", "how often", "how old"). */
const HOW_COUNT = /\bhow (many|much|often|old)\b/;

/**
 * Candidate features (46 values, names in {@link CANDIDATE_FEATURES}) of the candidate whose `ref`
 * is `ref` in a {@link CandidateState}.
 * @param state - `{kind: 'candidates', query, candidates}`.
 * @param ref - the candidate's ref; unknown / absent gives `has_candidate` = 0 and zeros.
 */
export function candidateFeatures(state: CandidateState, ref: string | undefined): Float32Array {
  return candidateRow(textCues, answerCues, state, ref);
}

/** Every candidate signal 0: what a ref that names no candidate reads. */
const NO_CANDIDATE_SIGNALS: Readonly<CandidateSignals> = Object.freeze({
  cosine: 0, vectorRank: 0, lexical: 0, lexicalRank: 0, rrf: 0, overlap: 0, speakerNamed: 0, otherSpeakerNamed: 0, hops: 0,
  edgeWeight: 0, neighbourLexical: 0, sessionDistance: 0, evidenceCosine: 0, hasDate: 0, words: 0, image: 0,
});

function candidateRow(cues: CueReader, answer: AnswerCueReader, state: CandidateState, ref: string | undefined): Float32Array {
  const qc = cues(state.query);
  const qf = queryFlags(qc);
  const cand = findCandidate(state.candidates, ref);
  const sig = cand?.signals ?? NO_CANDIDATE_SIGNALS;
  const via = cand?.via?.view ?? '';
  const known = cand !== undefined;
  const vr = sig.vectorRank;
  const lr = sig.lexicalRank;
  const hops = sig.hops;
  const hasDate = flag(sig.hasDate >= 1);
  const qword = qc.qword < 0 ? '' : QUESTION_WORDS[qc.qword];
  const cc = answer(cand?.text ?? '');
  return writeCandidateRow({
    has_candidate: flag(known),
    cosine: Math.max(-1, Math.min(1, sig.cosine)),
    inv_vector_rank: vr >= 1 ? 1 / vr : 0,
    lexical: sig.lexical,
    inv_lexical_rank: lr >= 1 ? 1 / lr : 0,
    rrf: 30 * sig.rrf,
    overlap: sig.overlap,
    speaker_named: flag(sig.speakerNamed >= 1),
    other_speaker_named: flag(sig.otherSpeakerNamed >= 1),
    hops: cap(hops, 4),
    is_anchor: flag(known && hops === 0),
    edge_weight: sig.edgeWeight,
    neighbour_lexical: sig.neighbourLexical,
    session_distance: ln1p(sig.sessionDistance),
    evidence_cosine: Math.max(-1, Math.min(1, sig.evidenceCosine)),
    has_date: hasDate,
    log_words: ln1p(sig.words),
    image: flag(sig.image >= 1),
    via_semantic: flag(via === 'semantic'),
    via_temporal: flag(via === 'temporal'),
    via_causal: flag(via === 'causal'),
    via_entity: flag(via === 'entity'),
    query_temporal: qf.temporal,
    temporal_x_date: qf.temporal * hasDate,
    query_multi_hop: qf.multi,
    query_hypothetical: qf.hypothetical,
    cand_question: known ? cc.questionMark : 0,
    lexical_top10: flag((sig.lexicalTop10 ?? 0) >= 1),
    neighbour_of_hit: flag((sig.neighbourOfHit ?? 0) >= 1),
    cosine_gap: Math.max(0, Math.min(2, (sig.cosineGap ?? 0))),
    same_session_as_best: flag((sig.sameSessionAsBest ?? 0) >= 1),
    month_match: flag((sig.monthMatch ?? 0) >= 1),
    year_match: flag((sig.yearMatch ?? 0) >= 1),
    reassess: flag((sig.reassess ?? 0) >= 1),
    prior_relevance: Math.max(0, Math.min(1, (sig.priorRelevance ?? 0))),
    neighbour_relevance: Math.max(0, Math.min(1, (sig.neighbourRelevance ?? 0))),
    neighbour_cosine: Math.max(-1, Math.min(1, (sig.neighbourCosine ?? 0))),
    cosine_minus_neighbour: Math.max(-1, Math.min(1, sig.cosine)) - Math.max(-1, Math.min(1, (sig.neighbourCosine ?? 0))),
    window_lexical: Math.max(0, Math.min(3, (sig.windowLexical ?? 0))),
    session_lexical: Math.max(0, Math.min(1, (sig.sessionLexical ?? 0))),
    entity_match: Math.max(0, Math.min(1, (sig.entityMatch ?? 0))),
    answer_who: flag(known && qword === 'who' && cc.capitalised > 0),
    answer_where: flag(known && qword === 'where' && cc.capitalised > 0),
    answer_count: flag(known && HOW_COUNT.test(state.query.toLowerCase()) && cc.numbers > 0),
    answer_when: flag(known && qword === 'when' && cc.dateWords + cc.months + cc.years + cc.weekdays + cc.agoLast > 0),
    soft_window_overlap: Math.max(0, Math.min(1, (sig.softWindowOverlap ?? 0))),
  });
}

// ---------------------------------------------------------------------------------------------
// stop (eq. (17)-(20))
// ---------------------------------------------------------------------------------------------

/** Features of the stop group (one row per stop decision), in row order. */
export const STOP_FEATURES = [
  'round_frac', // round / maxDepth
  'rounds_left_frac', // max(0, maxDepth − round) / maxDepth
  'beam_top', // best beam score
  'beam_mean', // mean beam score
  'beam_size', // ln(1 + |beam|)
  'best_relevance', // a_v of the best kept memory
  'last_round_gain', // mean relevance of the last round's new nodes
  'last_round_new', // ln(1 + new nodes in the last round)
  'frontier', // ln(1 + frontier size)
  'frontier_empty',
  'contradictions', // cap(contradicts edges among evidence, 2)
  'multi_hop', // h(q)
  'evidence_count', // ln(1 + |evidence|)
  'query_temporal',
  'query_multi_hop',
  'query_hypothetical',
  'log_query_words',
] as const;

const writeStopRow = rowWriter(STOP_FEATURES);

/**
 * Stop features (17 values, names in {@link STOP_FEATURES}) of a {@link StopState}.
 * @param state - `{kind: 'stop', query, evidence, signals}`.
 */
export function stopFeatures(state: StopState): Float32Array {
  return stopRow(textCues, state);
}

function stopRow(cues: CueReader, state: StopState): Float32Array {
  const sig = state.signals;
  const qc = cues(state.query);
  const qf = queryFlags(qc);
  const maxDepth = Math.max(1, sig.maxDepth);
  const round = sig.round;
  const beam = sig.beamScores;
  const frontier = sig.frontier;
  return writeStopRow({
    round_frac: Math.min(1, Math.max(0, round / maxDepth)),
    rounds_left_frac: Math.min(1, Math.max(0, (maxDepth - round) / maxDepth)),
    beam_top: beam.length > 0 ? Math.max(...beam) : 0,
    beam_mean: beam.length > 0 ? beam.reduce((a, b) => a + b, 0) / beam.length : 0,
    beam_size: ln1p(beam.length),
    best_relevance: sig.bestRelevance,
    last_round_gain: sig.lastRoundGain,
    last_round_new: ln1p(sig.lastRoundNew),
    frontier: ln1p(frontier),
    frontier_empty: flag(frontier <= 0),
    contradictions: cap(sig.contradictions, 2),
    multi_hop: sig.multiHop,
    evidence_count: ln1p(state.evidence.length),
    query_temporal: qf.temporal,
    query_multi_hop: qf.multi,
    query_hypothetical: qf.hypothetical,
    log_query_words: ln1p(qc.words),
  });
}

// ---------------------------------------------------------------------------------------------
// maintenance (SPEC 4 step 7)
// ---------------------------------------------------------------------------------------------

/**
 * Features of the maintenance group, in row order: a pair block (node vs the candidate named by
 * the ref; zeros without one) and a neighbourhood block (all candidates; for the
 * representation choice).
 */
export const MAINTENANCE_FEATURES = [
  'has_candidate',
  'cosine',
  'lexical',
  'shared_entities', // ln(1 + sharedEntities)
  'shared_keywords', // ln(1 + sharedKeywords)
  'gap_known',
  'log_gap_days',
  'same_session',
  'same_speaker',
  'term_jaccard',
  'text_equal', // same token sequence (case and punctuation ignored)
  'node_newer', // τ_node > τ_cand, or by insertion order (seqGap > 0) without timestamps
  'negation_mismatch', // exactly one of the two texts has a negation
  'number_mismatch', // both texts have numbers and the sets differ
  'node_change_cue', // cap(now/anymore/changed/moved/new/instead… in the node text, 2)
  'both_preference', // both texts have a preference word
  'neighbours', // ln(1 + |candidates|)
  'max_cosine', // over all candidates (0 when none)
  'mean_cosine',
  'near_duplicates', // cap(candidates with cosine ≥ 0.9, 3)
  'node_semantic', // cap(is/are/means/known… in the node text, 2)
  'node_log_words',
] as const;

const writeMaintenanceRow = rowWriter(MAINTENANCE_FEATURES);

function sameTokens(a: string, b: string): boolean {
  const ta = tokenize(a).join(' ');
  return ta !== '' && ta === tokenize(b).join(' ');
}

/**
 * Maintenance features (22 values, names in {@link MAINTENANCE_FEATURES}) of the node of a
 * {@link MaintenanceState} and the candidate whose `ref` is `ref` (no ref: the pair block is 0,
 * the neighbourhood block is filled, as the representation choice needs).
 * @param state - `{kind: 'maintenance', node, candidates}`.
 * @param ref - the candidate's ref, or undefined for node-level questions.
 */
export function maintenanceFeatures(state: MaintenanceState, ref: string | undefined): Float32Array {
  return maintenanceRow(textCues, state, ref);
}

function maintenanceRow(cues: CueReader, state: MaintenanceState, ref: string | undefined): Float32Array {
  const cand = findCandidate(state.candidates, ref);
  const p = pairBlock(cues, state.node, cand);
  const known = cand !== undefined;
  const cosines = state.candidates.map((c) => Math.max(-1, Math.min(1, c.signals.cosine)));
  const nodeNewer = p.order !== 0 ? p.order > 0 : p.seqGap > 0;
  let numberMismatch = false;
  if (known && p.a.numberSet.size > 0 && p.b.numberSet.size > 0) {
    numberMismatch = p.a.numberSet.size !== p.b.numberSet.size || intersectionSize(p.a.numberSet, p.b.numberSet) !== p.a.numberSet.size;
  }
  return writeMaintenanceRow({
    has_candidate: flag(known),
    cosine: p.cosine,
    lexical: p.lexical,
    shared_entities: ln1p(p.sharedEntities),
    shared_keywords: ln1p(p.sharedKeywords),
    gap_known: flag(p.gapKnown),
    log_gap_days: p.gapKnown ? ln1p(p.gapDays) : 0,
    same_session: p.sameSession,
    same_speaker: p.sameSpeaker,
    term_jaccard: p.jaccard,
    text_equal: flag(known && p.a.words === p.b.words && sameTokens(p.aText, p.bText)), // equal tokens: equal counts first
    node_newer: flag(known && nodeNewer),
    negation_mismatch: flag(known && (p.a.negation > 0) !== (p.b.negation > 0)),
    number_mismatch: flag(numberMismatch),
    node_change_cue: cap(p.a.change, 2),
    both_preference: flag(known && p.a.preference > 0 && p.b.preference > 0),
    neighbours: ln1p(cosines.length),
    max_cosine: cosines.length > 0 ? Math.max(...cosines) : 0,
    mean_cosine: cosines.length > 0 ? cosines.reduce((a, b) => a + b, 0) / cosines.length : 0,
    near_duplicates: cap(cosines.filter((x) => x >= 0.9).length, 3),
    node_semantic: cap(p.a.semantic, 2),
    node_log_words: ln1p(p.a.words),
  });
}

// ---------------------------------------------------------------------------------------------
// Registry
// ---------------------------------------------------------------------------------------------

/** Feature names per group, in row order (the row length is the list length). */
export const FEATURE_NAMES: Readonly<Record<HeadGroup, readonly string[]>> = Object.freeze({
  typing: TYPING_FEATURES,
  relation: RELATION_FEATURES,
  routing: ROUTING_FEATURES,
  candidates: CANDIDATE_FEATURES,
  stop: STOP_FEATURES,
  maintenance: MAINTENANCE_FEATURES,
});

/** The feature name type of a group (e.g. `FeatureName<'typing'>` = `'log_words' | …`). */
export type FeatureName<G extends HeadGroup> = {
  typing: (typeof TYPING_FEATURES)[number];
  relation: (typeof RELATION_FEATURES)[number];
  routing: (typeof ROUTING_FEATURES)[number];
  candidates: (typeof CANDIDATE_FEATURES)[number];
  stop: (typeof STOP_FEATURES)[number];
  maintenance: (typeof MAINTENANCE_FEATURES)[number];
}[G];

/** One featurizer per head group, each reading its group's typed state. */
type FeaturizerTable = { readonly [G in HeadGroup]: (state: GroupStates[G], ref: string | undefined) => Float32Array };

function featurizerTable(cues: CueReader, answer: AnswerCueReader): FeaturizerTable {
  return {
    typing: (state) => typingRow(cues, state),
    relation: (state, ref) => relationRow(cues, state, ref),
    routing: (state) => routingRow(cues, state),
    candidates: (state, ref) => candidateRow(cues, answer, state, ref),
    stop: (state) => stopRow(cues, state),
    maintenance: (state, ref) => maintenanceRow(cues, state, ref),
  };
}

const PLAIN = featurizerTable(textCues, answerCues);

/**
 * The row of `group` for a typed state and ref (dispatches to the featurizer of that group; no
 * text cache). Read an untyped state first with `readGroupState` (validate.ts).
 * @param state - the group's typed state ({@link GroupStates}).
 * @param ref - the question's ref; ignored by the typing, routing and stop groups.
 */
export function featuresFor<G extends HeadGroup>(group: G, state: GroupStates[G], ref: string | undefined): Float32Array {
  return (PLAIN[group] as FeaturizerTable[G])(state, ref);
}

/** Texts whose cues a {@link Featurizer} keeps by default (an LRU; one entry ≈ 1 KB). */
export const CUE_CACHE_MAX = 2048;

/** The featurizers with a private, bounded text-cue cache (one per head backend). */
export interface Featurizer {
  /** The row of `group` for a typed state and ref; same numbers as {@link featuresFor}. */
  features<G extends HeadGroup>(group: G, state: GroupStates[G], ref: string | undefined): Float32Array;
  /** Drops the memoised cues of `texts`, or all when undefined (issue 22: an erased memory's text). */
  evict?(texts: readonly string[] | undefined): void;
}

/** A reader of `compute(text)` memoised in `cache` under {@link textKey} (never the text itself; issue 22). */
function memoised<T extends object>(cache: LRUCache<string, T>, compute: (text: string) => T): (text: string) => T {
  return (text) => {
    const key = textKey(text);
    let c = cache.get(key);
    if (c === undefined) {
      c = compute(text);
      cache.set(key, c);
    }
    return c;
  };
}

/**
 * Featurizers that memoise {@link textCues} per text in an LRU of at most `cueCacheSize`
 * entries (default {@link CUE_CACHE_MAX}), and a candidate's {@link answerCues} in a second one of
 * the same size, keyed by {@link textKey} (never the text; issue 22); the caches live and die
 * with the returned object, and `evict(texts)` drops the entries of both.
 * @param options.cueCacheSize - max cached texts, a positive integer.
 */
export function createFeaturizer(options: { cueCacheSize?: number } = {}): Featurizer {
  const cache = new LRUCache<string, TextCues>({ max: options.cueCacheSize ?? CUE_CACHE_MAX });
  const answers = new LRUCache<string, AnswerCues>({ max: options.cueCacheSize ?? CUE_CACHE_MAX });
  const cues: CueReader = memoised(cache, textCues);
  const answer: AnswerCueReader = memoised(answers, answerCues);
  const table = featurizerTable(cues, answer);
  return {
    features: (group, state, ref) => (table[group] as FeaturizerTable[typeof group])(state, ref),
    evict: (texts) => {
      if (texts === undefined) {
        cache.clear();
        answers.clear();
      } else {
        for (const t of texts) {
          const key = textKey(t);
          cache.delete(key);
          answers.delete(key);
        }
      }
    },
  };
}
