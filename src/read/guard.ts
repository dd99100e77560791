/**
 * The out-of-distribution guard of the final ranking (issue 24). System One's candidate heads
 * were fitted on one style of conversation (LoCoMo: short turns between two named people, at
 * most ~100 words a turn). On histories whose candidates are far from that range (long
 * assistant answers of hundreds of words, speakers known only by role) their relevance scores
 * favour long turns that repeat the question's words, and recall fell below its own lexical
 * anchor. The guard measures how far the recall's anchors are from the training range and, by
 * that much, moves the final score towards a lexical order that knows about roles and updates:
 *
 *   s'(v) = (1 − g)·s(v) + g·G(v)/max G,   G(v) = ρ(v)·(ℓ(v) + β·z̃(v))·(1 + η·t̃(v))
 *
 * where g ∈ [0,1] is the share of long turns among the anchors (×2, capped; 0 on LoCoMo, whose
 * turns all fall under {@link LONG_TURN_WORDS}), ℓ the normalised BM25 score, z̃ the cosine
 * rescaled against the best one, ρ the role prior (a question about what the user said or
 * likes finds it in the user's turns; one about what "you" (the assistant) said in its turns),
 * and t̃ the position in time among the candidates, used only when the question asks for the
 * current state ("now", "currently", "these days").
 *
 * @module
 */
import { tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';

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

/** Speakers that are roles, not names. */
const ROLES = new Set(['user', 'assistant', 'human', 'ai', 'system', 'bot']);
const ASSISTANT_ROLES = new Set(['assistant', 'ai', 'bot', 'system']);
const CURRENT = new Set(['now', 'currently', 'current', 'nowadays', 'latest', 'anymore', 'still', 'today']);
const PAST_SAY = new Set(['said', 'told', 'suggested', 'recommended', 'mentioned', 'gave', 'proposed', 'advised', 'wrote', 'listed', 'explained', 'described', 'provided', 'shared']);

/**
 * g: how far the anchors are from System One's training range, in [0,1]: twice the share of
 * them longer than {@link LONG_TURN_WORDS} words, capped at 1 (0 when there are none).
 */
export function guardWeight(anchors: readonly MemoryNode[]): number {
  if (anchors.length === 0) return 0;
  let long = 0;
  for (const n of anchors) if (wordCount(n.text) > LONG_TURN_WORDS) long++;
  return Math.min(1, (2 * long) / anchors.length);
}

function wordCount(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/**
 * Whose turns a question's evidence is in, when the speakers are roles: `'assistant'` when it
 * asks what "you" said, suggested, told… (a past-tense verb after "you", or "did you"),
 * otherwise `'user'` (what I did, have, like; "would you suggest…" asks for a recommendation
 * that rests on the user's own preferences).
 */
export function questionRole(query: string): 'user' | 'assistant' {
  const w = tokenize(query);
  for (let i = 0; i < w.length; i++) {
    if (w[i] !== 'you') continue;
    if (i > 0 && w[i - 1] === 'did') return 'assistant';
    const next = w[i + 1];
    if (next !== undefined && PAST_SAY.has(next)) return 'assistant';
    if (next === 'had' || next === 'have') {
      const after = w[i + 2];
      if (after !== undefined && PAST_SAY.has(after)) return 'assistant';
    }
  }
  return 'user';
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

/**
 * The guarded scores s'(v) (see the module comment), in [0,1]; `g` = {@link guardWeight}. With
 * g = 0 the scores are returned unchanged.
 */
export function guardedScores(cands: readonly GuardCandidate[], query: string, g: number): number[] {
  if (g <= 0 || cands.length === 0) return cands.map((c) => c.score);
  const roles = cands.every((c) => c.node.provenance.speaker === undefined || ROLES.has(c.node.provenance.speaker.toLowerCase()));
  const wanted = questionRole(query);
  const current = asksCurrent(query);
  let bestCos = -1;
  for (const c of cands) if (c.cosine > bestCos) bestCos = c.cosine;
  let t0 = Infinity;
  let t1 = -Infinity;
  if (current) {
    for (const c of cands) {
      const t = c.node.observedAt !== undefined ? Date.parse(c.node.observedAt) : c.node.seq;
      if (t < t0) t0 = t;
      if (t > t1) t1 = t;
    }
  }
  const raw = cands.map((c) => {
    const speaker = c.node.provenance.speaker?.toLowerCase();
    let rho = 1;
    if (roles && speaker !== undefined) {
      const role = ASSISTANT_ROLES.has(speaker) ? 'assistant' : 'user';
      if (role !== wanted) rho = GUARD_OTHER_ROLE;
    }
    const z = Math.max(0, Math.min(1, (c.cosine - (bestCos - GUARD_COSINE_SPAN)) / GUARD_COSINE_SPAN));
    let gv = rho * (c.lexical + GUARD_COSINE_WEIGHT * z);
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
