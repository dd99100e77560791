/**
 * The out-of-distribution guard of the final ranking (issue 24). System One's candidate heads
 * were fitted on one style of conversation (LoCoMo: short turns between two named people, at
 * most ~100 words a turn). On histories whose candidates are far from that range (long
 * assistant answers of hundreds of words, speakers known only by role) their relevance scores
 * favour long turns that repeat the question's words, and recall fell below its own lexical
 * anchor. The guard measures how far the recall's anchors are from the training range and, by
 * that much, moves the final score towards a lexical order that knows about roles, passages and
 * updates:
 *
 *   s'(v) = (1 − g)·s(v) + g·G(v)/max G,
 *   G(v) = ρ(v)·((1 − α)·ℓ(v) + α·p(v) + β·z̃(v))·(1 + η·t̃(v))
 *
 * where g ∈ [0,1] ({@link guardWeight}) measures how far the anchors' features are from the
 * range System One was fitted on, by the features themselves, not by one of them: the share of
 * turns longer than any LoCoMo turn ({@link LONG_TURN_WORDS}; its `words` feature and the
 * overlap / window features grow with length) and the share of turns whose speaker is a role
 * ("user", "assistant": its speaker features never fire and the texts carry no names), each
 * weighted; 0 on LoCoMo (short turns between named people), where the scores are unchanged.
 * ℓ is the normalised BM25 score of the whole turn, p the passage score of its best window of
 * sentences (passage.ts: a long answer is matched by the sentences that hold the fact, and one
 * that repeats the question's words everywhere gets no more than its best window), z̃ the
 * cosine rescaled against the best one, ρ the role prior (a question about what the user said
 * or likes finds it in the user's turns; one about what "you" (the assistant) said in its
 * turns), and t̃ the position in time among the candidates, used only when the question asks
 * for the current state ("now", "currently", "these days"). When the user asks for a suggestion
 * ({@link asksSuggestion}), G is also multiplied by 1 + π·τ(v), τ the memory's preference type
 * weight (the typing head's `type.preference`), since a good suggestion rests on stated tastes,
 * and, when the read path measured the user's tastes (taste.ts), μ·m̃(v) is added inside the
 * bracket: m̃ the best first-person statement's cosine with the query (the statements' common
 * component removed, taste.ts), rescaled against the best candidate's. When the user asks for
 * several things about themselves ("What sports have I picked up…", taste.ts `statementMode`
 * 'items'), m is instead the better of the whole turn's and its best sentence's centred cosine
 * with the query (taste.ts `itemMatch`), weighted μ_A = {@link GUARD_ITEMS}.
 *
 * @module
 */
import { tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';
import { asksAggregate } from './coverage.js';
import { passageQuery, passageScore } from './passage.js';

/** A turn longer than this many words is outside the range System One was fitted on (LoCoMo's longest turn has 97). */
export const LONG_TURN_WORDS = 100;
/** Weight β of the rescaled cosine in G. */
export const GUARD_COSINE_WEIGHT = 0.3;
/** Cosine span below the best cosine that z̃ maps to [0,1]. */
export const GUARD_COSINE_SPAN = 0.2;
/** Role prior of a turn by the other role than the one the question is about (chosen on the chats bench's dev part: 0.2 over 0.3, 0.5, 0.7). */
export const GUARD_OTHER_ROLE = 0.2;
/** Boost η of the latest candidate when the question asks for the current state. */
export const GUARD_RECENCY = 0.3;
/** Weight of the share of long turns among the anchors in g (2: half the anchors long → g = 1). */
export const GUARD_LONG_WEIGHT = 2;
/**
 * Weight of the share of role-speaker turns among the anchors in g: a history of short turns
 * between "user" and "assistant" gets g = 0.3 (chosen on the chats bench's dev part, its
 * short-reply histories: 0.3 over 0.5 and 1).
 */
export const GUARD_ROLE_WEIGHT = 0.3;
/** Weight α of the passage score p against the whole-turn BM25 score ℓ in G (chosen on the chats bench's dev part: 0.8 over 0 and 0.5). */
export const GUARD_PASSAGE_WEIGHT = 0.8;
/** Boost π of a turn typed as a preference when the user asks for a suggestion (chosen on the chats bench's dev part: 0.5 over 0.25 and 1). */
export const GUARD_PREFERENCE = 0.5;
/** Weight μ of the rescaled taste m̃ (taste.ts: the best statement's centred cosine) in G when the user asks for a suggestion (chosen on prefdev and wilddev: 1.5 over 1.0; round five had 1.0 with uncentred cosines). */
export const GUARD_TASTE = 1.5;
/** Taste span below the best taste that m̃ maps to [0,1] (centred cosines spread wider than raw ones: 1.0 chosen on prefdev and wilddev over 0.5, 0.8 and 1.2). */
export const GUARD_TASTE_SPAN = 1.0;
/**
 * Weight μ_A of the rescaled item match m̃ (taste.ts `itemMatch`: the turn's or its best sentence's centred cosine) in G
 * when the question asks for several things about the user (taste.ts `statementMode` 'items'):
 * the tastes' μ, chosen on the chats dev and wilddev parts over 0.5, 1 and 2 (docs/bench/CHATS.md,
 * round ten).
 */
export const GUARD_ITEMS = GUARD_TASTE;
/** Span below the best item match that m̃ maps to [0,1] (the tastes' span; 1.0 over 0.3 and 0.5 on dev and wilddev). */
export const GUARD_ITEMS_SPAN = GUARD_TASTE_SPAN;

/** Speakers that are roles, not names. */
const ROLES = new Set(['user', 'assistant', 'human', 'ai', 'system', 'bot']);
/** Roles of an assistant (every other role is the user's). */
export const ASSISTANT_ROLES: ReadonlySet<string> = new Set(['assistant', 'ai', 'bot', 'system']);
const CURRENT = new Set(['now', 'currently', 'current', 'nowadays', 'latest', 'anymore', 'still', 'today']);
const PAST_SAY = new Set(['said', 'told', 'suggested', 'recommended', 'mentioned', 'gave', 'proposed', 'advised', 'wrote', 'listed', 'explained', 'described', 'provided', 'shared']);

/** How far a recall's anchors are from System One's training range, by feature. */
export interface GuardReading {
  /** Share of anchors longer than {@link LONG_TURN_WORDS} words, in [0,1]. */
  long: number;
  /** Share of anchors whose speaker is a role ("user", "assistant", …), in [0,1]. */
  roles: number;
  /** g = min(1, max({@link GUARD_LONG_WEIGHT}·long, {@link GUARD_ROLE_WEIGHT}·roles)), in [0,1]. */
  g: number;
}

/** True when a speaker is a role ("user", "assistant", "AI", …), not a name. */
export function isRole(speaker: string | undefined): boolean {
  return speaker !== undefined && ROLES.has(speaker.trim().toLowerCase());
}

/**
 * The guard's reading of the anchors (see {@link GuardReading}): every component is 0 on turns
 * of at most {@link LONG_TURN_WORDS} words by named speakers (or without a speaker), so g = 0
 * there; an empty list reads 0.
 */
export function guardReading(anchors: readonly MemoryNode[]): GuardReading {
  if (anchors.length === 0) return { long: 0, roles: 0, g: 0 };
  let long = 0;
  let roles = 0;
  for (const n of anchors) {
    if (wordCount(n.text) > LONG_TURN_WORDS) long++;
    if (isRole(n.provenance.speaker)) roles++;
  }
  const share = { long: long / anchors.length, roles: roles / anchors.length };
  return { ...share, g: Math.min(1, Math.max(GUARD_LONG_WEIGHT * share.long, GUARD_ROLE_WEIGHT * share.roles)) };
}

/** g of {@link guardReading}: how far the anchors are from System One's training range, in [0,1]. */
export function guardWeight(anchors: readonly MemoryNode[]): number {
  return guardReading(anchors).g;
}

/** Words of a text (runs of characters above U+0020). */
export function wordCount(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** Irregular past forms that, after "you", say the assistant did something in the past. */
const PAST_IRREGULAR = new Set(['said', 'told', 'gave', 'wrote', 'made', 'put', 'sent', 'showed', 'shown', 'came', 'found', 'got', 'thought', 'taught', 'chose', 'picked', 'meant', 'brought', 'drew', 'ran', 'set', 'went', 'left', 'read']);
/** What the assistant gave, named by a noun after "your" ("your suggestion", "the recipe from your answer"). */
const ASSISTANT_NOUNS = new Set(['suggestion', 'suggestions', 'recommendation', 'recommendations', 'advice', 'answer', 'answers', 'tip', 'tips', 'idea', 'ideas', 'plan', 'list', 'reply', 'explanation', 'pick', 'picks']);

/** True for a past-tense verb form: an irregular past, or a word of 5+ letters ending in "ed". */
function pastForm(w: string | undefined): boolean {
  return w !== undefined && (PAST_SAY.has(w) || PAST_IRREGULAR.has(w) || (w.length >= 5 && w.endsWith('ed')));
}

/**
 * Whose turns a question's evidence is in, when the speakers are roles: `'assistant'` when it
 * asks what "you" said, suggested, showed… (a past-tense verb after "you" or "you had / have",
 * "did you", or "your" before a suggestion, recommendation, advice, answer, tip, idea, plan,
 * list…), otherwise `'user'` (what I did, have, like; "would you suggest…" asks for a
 * recommendation that rests on the user's own preferences).
 */
export function questionRole(query: string): 'user' | 'assistant' {
  const w = tokenize(query);
  for (let i = 0; i < w.length; i++) {
    if (w[i] === 'your' && ASSISTANT_NOUNS.has(w[i + 1] as string)) return 'assistant';
    if (w[i] !== 'you') continue;
    if (i > 0 && w[i - 1] === 'did') return 'assistant';
    const next = w[i + 1];
    if (pastForm(next)) return 'assistant';
    if ((next === 'had' || next === 'have') && pastForm(w[i + 2])) return 'assistant';
  }
  return 'user';
}

const SUGGEST = new Set(['recommend', 'recommendation', 'recommendations', 'suggest', 'suggestion', 'suggestions', 'idea', 'ideas', 'tips', 'advice']);
const CHOOSE = new Set(['pick', 'choose', 'find', 'decide', 'select', 'plan']);
const SUIT = new Set(['suit', 'suits', 'suited', 'fit', 'fits']);

/**
 * True when a question asks for a suggestion ("recommend", "suggest", "any ideas", "tips",
 * "advice", "should / could / can I / we …", "help me / us pick, choose, find, decide, select,
 * plan …", "… would suit / fit me / us"); whatever is suggested should fit the user's stated
 * tastes.
 */
export function asksSuggestion(query: string): boolean {
  const w = tokenize(query);
  for (let i = 0; i < w.length; i++) {
    if (SUGGEST.has(w[i] as string)) return true;
    if ((w[i] === 'should' || w[i] === 'could' || w[i] === 'can') && (w[i + 1] === 'i' || w[i + 1] === 'we')) return true;
    if (w[i] === 'help' && (w[i + 1] === 'me' || w[i + 1] === 'us') && CHOOSE.has(w[i + 2] as string)) return true;
    if (SUIT.has(w[i] as string) && (w[i + 1] === 'me' || w[i + 1] === 'us')) return true;
  }
  return false;
}

/** True when a question asks for the current state of something ("now", "currently", "these days"). */
export function asksCurrent(query: string): boolean {
  const w = tokenize(query);
  for (let i = 0; i < w.length; i++) {
    if (CURRENT.has(w[i] as string)) return true;
    if (w[i] === 'these' && w[i + 1] === 'days') return true;
    if (w[i] === 'at' && w[i + 1] === 'the' && w[i + 2] === 'moment') return true;
  }
  return false;
}

/** One candidate as the guard sees it. */
export interface GuardCandidate {
  node: MemoryNode;
  /** The recall's score s(v) in [0,1]. */
  score: number;
  /** Normalised BM25 score ℓ(v) in [0,1] (0 when not a lexical hit). */
  lexical: number;
  /** Cosine with the query. */
  cosine: number;
}

/** Options of {@link guardedScores}. */
export interface GuardOptions {
  /**
   * Weight of a query stem in the passage score (the namespace's BM25 IDF,
   * `signals.ts` `namespaceIdf`); absent: every stem weighs 1.
   */
  idf?: (stem: string) => number;
  /**
   * The user's tastes m(v) by node id (taste.ts `tasteScores`: best cosine of the query with a
   * first-person statement of the turn), used when the user asks for a suggestion; absent: none.
   */
  taste?: ReadonlyMap<string, number>;
}

/**
 * ρ of a turn by the other role than the one the question is about: {@link GUARD_OTHER_ROLE},
 * raised to (p − p_w)² when the turn's best window holds that much more of the query than the best
 * window of any turn by the wanted role (p, p_w: passage scores in [0,1], passage.ts); squared so
 * that one word of a three-word question the user's turns lack ((1/3)² < 0.2: "learn" in an
 * assistant's climbing tips for "What instrument am I learning at the moment?") keeps the prior,
 * and most of the query (p − p_w ≥ 0.45) relaxes it. An
 * assistant's answer that alone holds "Lisbon", "Porto" and "train" (p = 1, no user turn holds
 * any: p_w = 0) keeps ρ = 1 for "Lisbon Porto train", instead of ranking below user turns that
 * share no word with the query (h-break15 finding 4: the guard put them first, below the lexical
 * anchor); an assistant's talk that repeats the question's words as much as the user's statement
 * does keeps the prior.
 * @returns ρ in [{@link GUARD_OTHER_ROLE}, 1]
 */
export function otherRolePrior(p: number, wantedP: number): number {
  const d = Math.max(0, Math.min(1, p - wantedP));
  return Math.max(GUARD_OTHER_ROLE, d * d);
}

/**
 * The guarded scores s'(v) (see the module comment), in [0,1]; `g` = {@link guardWeight}. With
 * g = 0 the scores are returned unchanged (and no passage is scored).
 */
export function guardedScores(cands: readonly GuardCandidate[], query: string, g: number, o: GuardOptions = {}): number[] {
  if (g <= 0 || cands.length === 0) return cands.map((c) => c.score);
  const pq = passageQuery(query, o.idf ?? (() => 1));
  const roles = cands.every((c) => c.node.provenance.speaker === undefined || isRole(c.node.provenance.speaker));
  const wanted = questionRole(query);
  const current = asksCurrent(query);
  // A suggestion for the user rests on the user's tastes: turns typed as preferences count more.
  const tastes = wanted === 'user' && asksSuggestion(query);
  // A question asking for several things about the user: the items are named in the user's
  // statements (taste.ts 'items'), often without the question's words.
  const items = wanted === 'user' && !tastes && asksAggregate(query);
  const mu = tastes ? GUARD_TASTE : GUARD_ITEMS;
  const span = tastes ? GUARD_TASTE_SPAN : GUARD_ITEMS_SPAN;
  let bestCos = -1;
  for (const c of cands) if (c.cosine > bestCos) bestCos = c.cosine;
  const taste = tastes || items ? o.taste : undefined;
  let bestTaste = -Infinity;
  if (taste !== undefined) for (const c of cands) bestTaste = Math.max(bestTaste, taste.get(c.node.id) ?? -Infinity);
  let t0 = Infinity;
  let t1 = -Infinity;
  if (current) {
    for (const c of cands) {
      const t = c.node.observedAt !== undefined ? Date.parse(c.node.observedAt) : c.node.seq;
      if (t < t0) t0 = t;
      if (t > t1) t1 = t;
    }
  }
  const roleOf = (c: GuardCandidate): 'user' | 'assistant' | undefined => {
    const speaker = c.node.provenance.speaker?.toLowerCase();
    if (!roles || speaker === undefined) return undefined;
    return ASSISTANT_ROLES.has(speaker) ? 'assistant' : 'user';
  };
  const passages = cands.map((c) => passageScore(pq, c.node.text).score);
  // The best window of the wanted role's turns (h-break15 finding 4): the role prior prefers the
  // wanted role's turns among those that match, and relaxes for a turn of the other role by how
  // much more of the query its best window holds than any of the wanted role's (otherRolePrior).
  let wantedP = 0;
  cands.forEach((c, i) => {
    if (roleOf(c) === wanted) wantedP = Math.max(wantedP, passages[i] as number);
  });
  const raw = cands.map((c, i) => {
    const role = roleOf(c);
    const p = passages[i] as number;
    const rho = role === undefined || role === wanted ? 1 : otherRolePrior(p, wantedP);
    const z = Math.max(0, Math.min(1, (c.cosine - (bestCos - GUARD_COSINE_SPAN)) / GUARD_COSINE_SPAN));
    const m = taste?.get(c.node.id);
    const mt = m === undefined ? 0 : Math.max(0, Math.min(1, (m - (bestTaste - span)) / span));
    let gv = rho * ((1 - GUARD_PASSAGE_WEIGHT) * c.lexical + GUARD_PASSAGE_WEIGHT * p + GUARD_COSINE_WEIGHT * z + mu * mt);
    if (tastes) gv *= 1 + GUARD_PREFERENCE * Math.max(0, Math.min(1, c.node.types?.preference ?? 0));
    if (current && t1 > t0) {
      const t = c.node.observedAt !== undefined ? Date.parse(c.node.observedAt) : c.node.seq;
      gv *= 1 + GUARD_RECENCY * ((t - t0) / (t1 - t0));
    }
    return gv;
  });
  let max = 0;
  for (const x of raw) if (x > max) max = x;
  return cands.map((c, i) => (1 - g) * c.score + (max > 0 ? (g * (raw[i] as number)) / max : 0));
}
