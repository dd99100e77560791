/**
 * Passage-level matching inside long turns (issue 24). A long turn (an assistant answer of
 * hundreds of words, a long user message) is matched against a question by its best window of
 * {@link PASSAGE_WINDOW} consecutive sentences, not by the whole text, so an answer that holds
 * the fact in one sentence ranks by that sentence, and an answer that repeats the question's
 * words all over gets no more than its best window:
 *
 *   p(v) = max over windows W of v  Σ_{t ∈ Q} w_t · [t ∈ W] / Σ_{t ∈ Q} w_t   ∈ [0,1]
 *
 * where Q is the query's distinct content stems (English stop words dropped, Porter stems as in
 * the lexical index) and w_t their weights (the BM25 IDF of the namespace: rare words count
 * more). A text of at most {@link PASSAGE_WINDOW} sentences is one window (the whole turn).
 * Pure and deterministic.
 *
 * @module
 */
import { contentTerms } from '../plane/text/text.js';

/** Sentences per window. */
export const PASSAGE_WINDOW = 2;

/** The query side of passage matching: distinct content stems and their weights. */
export interface PassageQuery {
  /** Distinct content stems of the query. */
  terms: readonly string[];
  /** Weight w_t ≥ 0 of each stem (same order). */
  weights: readonly number[];
}

/** The best window of a text. */
export interface PassageMatch {
  /** p(v) in [0,1] (0 when the query has no weighted term). */
  score: number;
  /** Index of the window's first sentence. */
  start: number;
  /** Number of sentences of the text. */
  sentences: number;
}

/**
 * Sentences of a text: split after `.`, `!`, `?` or `…` followed by white space, and at line
 * breaks (list items); empty pieces dropped. A text without such a break is one sentence.
 */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?…])\s+|\n+/u)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/**
 * The {@link PassageQuery} of a query: its distinct content stems, each weighted by `weight`
 * (e.g. the namespace's BM25 IDF of the stem).
 */
export function passageQuery(query: string, weight: (stem: string) => number): PassageQuery {
  const terms = [...new Set(contentTerms(query))];
  return { terms, weights: terms.map((t) => Math.max(0, weight(t))) };
}

/**
 * p(v): the weighted share of the query's terms found in the text's best window of `window`
 * consecutive sentences (module comment). Ties go to the earliest window.
 * @throws RangeError when `window` is not a positive integer.
 */
export function passageScore(q: PassageQuery, text: string, window: number = PASSAGE_WINDOW): PassageMatch {
  if (!Number.isInteger(window) || window < 1) throw new RangeError(`passageScore: window must be a positive integer, got ${window}`);
  let total = 0;
  for (const w of q.weights) total += w;
  const sentences = splitSentences(text);
  if (total <= 0 || sentences.length === 0) return { score: 0, start: 0, sentences: sentences.length };
  const index = new Map<string, number>();
  q.terms.forEach((t, i) => index.set(t, i));
  // The query terms each sentence holds.
  const held = sentences.map((s) => {
    const out = new Set<number>();
    for (const st of contentTerms(s)) {
      const i = index.get(st);
      if (i !== undefined) out.add(i);
    }
    return out;
  });
  const span = Math.min(window, sentences.length);
  let best = -1;
  let bestStart = 0;
  for (let s = 0; s + span <= sentences.length; s++) {
    const seen = new Set<number>();
    for (let j = s; j < s + span; j++) for (const i of held[j] as Set<number>) seen.add(i);
    let sum = 0;
    for (const i of seen) sum += q.weights[i] as number;
    if (sum > best) {
      best = sum;
      bestStart = s;
    }
  }
  return { score: best / total, start: bestStart, sentences: sentences.length };
}
