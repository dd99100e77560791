/**
 * Overlapping windows over a long text (issue 22/25: long texts cost what they should): a reader
 * whose cost grows faster than the text (chrono-node's refiners match end-anchored patterns
 * against the whole text before each result) reads each window instead, so its cost is linear in
 * the text with the window's constant. Windows are cut at sentence ends (`.` `!` `?` or a line
 * break), else at white space, so a sentence is read whole when it is shorter than the overlap.
 *
 * @module
 */

/**
 * One window: the reader reads `text.slice(start, end)` and keeps what it finds starting in
 * `[from, to)`. The `[from, to)` of a text's windows tile it without gaps or overlap, so every
 * finding is kept once; `[start, end)` reaches about `overlap` characters past each side, so an
 * expression that crosses `from` or `to` (shorter than the overlap) is read whole by the window
 * it starts in, with the context before it.
 */
export interface TextWindow {
  start: number;
  end: number;
  from: number;
  to: number;
}

const SENTENCE_END = /[.!?\n]/;
const SPACE = /\s/;

/** The last position in (lo, at] just after a sentence end, else after white space, else `at`. */
export function cutBefore(text: string, at: number, lo: number): number {
  for (const re of [SENTENCE_END, SPACE]) for (let i = at; i > lo; i--) if (re.test(text[i - 1] as string)) return i;
  return at;
}

/** The first position in [at, hi) just after a sentence end, else after white space, else `hi`. */
export function cutAfter(text: string, at: number, hi: number): number {
  for (const re of [SENTENCE_END, SPACE]) for (let i = at; i < hi; i++) if (re.test(text[i - 1] as string)) return i;
  return hi;
}

/**
 * The windows of `text`: one window (the whole text) when it is at most `size + overlap`
 * characters, else parts of about `size` characters (cut at a sentence end in their last half, else
 * at white space), each read with about `overlap` (to 2·`overlap`) characters of the parts around
 * it. Cost O(text length).
 * @param size Characters a window keeps findings from (> 0).
 * @param overlap Characters read past each side of it (≥ 0).
 */
export function textWindows(text: string, size: number, overlap: number): TextWindow[] {
  const n = text.length;
  if (!(n > size + overlap)) return [{ start: 0, end: n, from: 0, to: n }];
  const cuts = [0];
  for (let last = 0; last + size + overlap < n; last = cuts[cuts.length - 1] as number) {
    cuts.push(cutBefore(text, last + size, last + Math.floor(size / 2)));
  }
  cuts.push(n);
  const out: TextWindow[] = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    const from = cuts[k] as number;
    const to = cuts[k + 1] as number;
    const start = from === 0 ? 0 : cutBefore(text, Math.max(0, from - overlap), Math.max(0, from - 2 * overlap));
    const end = to === n ? n : cutAfter(text, Math.min(n, to + overlap), Math.min(n, to + 2 * overlap));
    out.push({ start, end, from, to });
  }
  return out;
}
