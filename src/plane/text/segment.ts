/**
 * Word segmentation of text in scripts written without spaces (Chinese, Japanese, Thai, Lao,
 * Khmer, Myanmar) by `Intl.Segmenter`, in bounded pieces so that its cost stays linear in the
 * text's length (h-break14: one 100,000-character piece took seconds). `text.ts` turns the
 * segments into tokens.
 *
 * @module
 */

/**
 * The most UTF-16 code units `Intl.Segmenter` is given at once. Its cost grows faster than the
 * length of the string it is given (h-break14: 100,000 Japanese characters take 3 s in one piece,
 * 60 ms in pieces of 1,000), so a longer text is segmented piece by piece ({@link segmentWords}).
 */
export const SEGMENT_CHUNK_CHARS = 1000;

/**
 * Characters left at the end of a piece cut inside a run of letters (no white space or
 * punctuation in the piece's second half): segments starting in them are segmented again with
 * the next piece, so a word is not cut where the piece happens to end.
 */
const HARD_CUT_MARGIN = 32;

/** Sentence and clause punctuation after which a piece may end (with white space, {@link softCut}). */
const CUT_AFTER = /[\s.,;:!?\u3001\u3002\uff0c\uff0e\uff01\uff1f\uff1b\uff1a\u2026\u0e2f\u0e5a\u0e5b\u104a\u104b\u17d4\u17d5]/u;
/** A character that belongs to the one before it (combining mark, joiner, variation selector): never the first of a piece. */
const CLINGS = /[\p{M}\u200c\u200d\ufe0e\ufe0f]/u;

/**
 * The end of a piece of `text` in `(lo, hi]`: just after the last white space or sentence /
 * clause punctuation ({@link CUT_AFTER}) in `[lo, hi)` that a combining character does not
 * follow; -1 when there is none. Word boundaries always fall there (UAX 29; ICU's dictionaries
 * for Han, kana, Thai, Lao, Khmer and Myanmar read runs of their letters only), so the pieces
 * give the tokens the whole text gives.
 */
function softCut(text: string, lo: number, hi: number): number {
  for (let i = hi - 1; i >= lo; i -= 1) {
    if (CUT_AFTER.test(text[i] as string) && !CLINGS.test(text[i + 1] ?? '')) return i + 1;
  }
  return -1;
}

/**
 * Hands `emit` the segments of `norm` (NFC, lower case) that `segmenter` (word granularity)
 * finds word-like or that hold more than white space and punctuation (emoji, symbols), in order,
 * giving it pieces
 * of at most {@link SEGMENT_CHUNK_CHARS} code units: the whole text when it is that short
 * (tokens exactly as one call gives them); else pieces ending at white space or sentence /
 * clause punctuation in their second half ({@link softCut}); else, in a run of letters longer
 * than half a piece, a piece ends at the start of its last word that starts before the final
 * {@link HARD_CUT_MARGIN} code units (a boundary the segmenter found, never inside a surrogate
 * pair or a word), and the rest is segmented with what follows. Linear in the text's length.
 */
export function segmentWords(segmenter: Intl.Segmenter, norm: string, emit: (segment: string) => void): void {
  let from = 0;
  while (from < norm.length) {
    let end = norm.length;
    let hard = false;
    if (end - from > SEGMENT_CHUNK_CHARS) {
      end = softCut(norm, from + (SEGMENT_CHUNK_CHARS >> 1), from + SEGMENT_CHUNK_CHARS);
      if (end < 0) {
        end = from + SEGMENT_CHUNK_CHARS;
        const c = norm.charCodeAt(end - 1);
        if (c >= 0xd800 && c <= 0xdbff) end -= 1; // not inside a surrogate pair
        hard = true;
      }
    }
    const piece = norm.slice(from, end);
    const segments = [...segmenter.segment(piece)];
    let keep = segments.length;
    if (hard) {
      // The last segment starting before the margin is left for the next piece (unless it is the first).
      let last = 0;
      for (let i = 0; i < segments.length; i += 1) if ((segments[i] as Intl.SegmentData).index <= piece.length - HARD_CUT_MARGIN) last = i;
      if (last > 0) keep = last;
    }
    for (let i = 0; i < keep; i += 1) {
      const seg = segments[i] as Intl.SegmentData;
      if (seg.isWordLike || !/^[\s\p{P}]*$/u.test(seg.segment)) emit(seg.segment); // words; emoji, symbols
    }
    from += keep === segments.length ? piece.length : (segments[keep] as Intl.SegmentData).index;
  }
}
