/**
 * Repeated texts in the final ranking (h-break11 finding 6): the same words said at several
 * times ("Long shift at work today." on three days) are separate observations and stay separate
 * memories, but three copies in the top k answer a question no better than one and push other
 * evidence out ("I now work at AKH Vienna…" ranked 4th under three copies for "Where do I
 * work?"). Every copy after the best-ranked one of the same normalised text (text.ts
 * `normalizeText`, case kept) is scored × {@link REPEAT_FACTOR}. Not for a question that asks for
 * several things (coverage.ts `asksAggregate`: "How many times did I …?"), where every copy is
 * evidence.
 *
 * @module
 */
import { normalizeText } from '../plane/text/text.js';

/** Score factor of each copy of a text after its best-ranked one, in (0, 1]. Chosen a priori (not tuned). */
export const REPEAT_FACTOR = 0.5;

/**
 * The scores with every later copy of a text × {@link REPEAT_FACTOR}.
 * @param ranked the memories' texts and scores, best first (the order the copies are read in)
 * @returns the scores, in the same order (the caller sorts again)
 */
export function demoteRepeats(ranked: ReadonlyArray<{ text: string; score: number }>): number[] {
  const seen = new Set<string>();
  return ranked.map(({ text, score }) => {
    const key = normalizeText(text);
    if (!seen.has(key)) {
      seen.add(key);
      return score;
    }
    return score > 0 ? score * REPEAT_FACTOR : score;
  });
}
