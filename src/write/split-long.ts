/**
 * Texts longer than the memory's limit (`parameters.maxTextChars`) kept in parts instead of
 * refused: the AI SDK middleware keeps a long message this way (h-break12 finding 2), and
 * `jev-mem ingest --split-long` does the same for a file's turns (h-break14 finding 2). One
 * splitter for both.
 *
 * @module
 */
import type { Observation } from '../types.js';
import { cutBefore } from '../util/text-windows.js';

/**
 * `text` cut into parts of at most `max` UTF-16 code units each, so that each is an observation
 * the memory accepts (`parameters.maxTextChars`). A part ends just after the last sentence end
 * (`.` `!` `?` or a line break) in its second half, else just after the last white space there,
 * else at `max` (never inside a surrogate pair). The parts concatenate to exactly `text`: white
 * space at a cut stays with the part before it (h-break14 finding 2: parts were trimmed, so the
 * line break at each cut and the reply's last one were lost). One part (the text) when it fits;
 * none for the empty text. A part may be all white space (only where `text` holds a run of white
 * space longer than `max / 2`); what is stored leaves such parts out ({@link storableParts}).
 * @param max - the most UTF-16 code units of a part (an integer ≥ 2).
 */
export function splitTurnText(text: string, max: number): string[] {
  if (text.length <= max) return text === '' ? [] : [text];
  const parts: string[] = [];
  let from = 0;
  while (text.length - from > max) {
    let cut = cutBefore(text, from + max, from + Math.floor(max / 2));
    const c = text.charCodeAt(cut - 1);
    if (cut === from + max && c >= 0xd800 && c <= 0xdbff) cut -= 1;
    // White space after a sentence end goes with the sentence (the next part starts with a word).
    while (cut < from + max && /\s/u.test(text[cut] as string)) cut += 1;
    parts.push(text.slice(from, cut));
    from = cut;
  }
  parts.push(text.slice(from));
  return parts;
}

/**
 * The parts of `text` that are stored ({@link splitTurnText}), less those that are all white
 * space (the memory accepts no blank text). They concatenate to exactly `text` unless it holds a
 * run of white space longer than `max / 2`.
 * @param max - the most UTF-16 code units of a part (an integer ≥ 2).
 */
export function storableParts(text: string, max: number): string[] {
  return splitTurnText(text, max).filter((p) => p.trim() !== '');
}

/**
 * `observations` with each text longer than `max` replaced by its parts ({@link splitTurnText}),
 * in order, each a copy of the observation (same speaker, role, time, session, turn id, source)
 * with `metadata.part` (1-based) and `metadata.parts` (their count) added, as the AI SDK
 * middleware marks them. `from[i]` is the index in `observations` that output `i` came from.
 * @param max - the longest text kept whole, in UTF-16 code units (`memory.parameters.maxTextChars`).
 */
export function splitLongObservations(observations: readonly Observation[], max: number): { observations: Observation[]; from: number[] } {
  const out: Observation[] = [];
  const from: number[] = [];
  observations.forEach((o, i) => {
    const parts = typeof o.text === 'string' ? storableParts(o.text, max) : [o.text];
    if (parts.length <= 1) {
      out.push(o);
      from.push(i);
      return;
    }
    parts.forEach((text, p) => {
      out.push({ ...o, text, metadata: { ...o.metadata, part: p + 1, parts: parts.length } });
      from.push(i);
    });
  });
  return { observations: out, from };
}
