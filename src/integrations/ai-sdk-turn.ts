/**
 * How the AI SDK middleware (./ai-sdk.ts) keeps one finished exchange (h-break12 findings 1, 2):
 * which turns are stored, how a message longer than the memory's text limit is kept in parts,
 * and how a failed write is reported without failing the model call whose answer it follows.
 *
 * @module
 */
import { cutBefore } from '../util/text-windows.js';

/**
 * How a generation ended, as the AI SDK's unified `finishReason` (`stop`, `length`,
 * `content-filter`, `error`, `interrupted`, `other`; `tool-calls` ends no turn).
 */
export type TurnFinish = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'interrupted' | 'other';

/** What a failed step of the middleware was doing, handed to `onError`. */
export interface RememberFailure {
  /**
   * Which step failed: `'recall'` before the model call (the model is then called without
   * memories), `'remember'` after it (the answer is returned, the exchange is not kept).
   * Absent means `'remember'` (the only step reported before this field existed).
   */
  stage?: 'recall' | 'remember';
  /** The user's message of the exchange (whole, before any split). */
  question: string;
  /** The model's reply ('' when it wrote none, and always at the `'recall'` stage). */
  reply: string;
}

/**
 * The default `onError` of the middleware: one console warning line naming the error and the step,
 * so a memory that cannot be read or written is seen, while the model call still goes on.
 */
export function warnRememberFailed(error: unknown, turn?: RememberFailure): void {
  const e = error as { code?: unknown; message?: unknown };
  const what = (typeof e?.message === 'string' ? `${typeof e.code === 'string' ? `${e.code}: ` : ''}${e.message}` : String(error)).split('\n')[0];
  if (turn?.stage === 'recall') console.warn(`jev-mem/ai-sdk: no memories were recalled (${what}); the model is called without them`);
  else console.warn(`jev-mem/ai-sdk: the exchange was not remembered (${what}); the model's answer is returned`);
}

/**
 * `text` cut into parts of at most `max` UTF-16 code units each, so that each is an observation
 * the memory accepts (`parameters.maxTextChars`). A part ends just after the last sentence end
 * (`.` `!` `?` or a line break) in its second half, else just after the last white space there,
 * else at `max` (never inside a surrogate pair). The parts concatenate to exactly `text`: white
 * space at a cut stays with the part before it (h-break14 finding 2: parts were trimmed, so the
 * line break at each cut and the reply's last one were lost). One part (the text) when it fits;
 * none for the empty text. A part may be all white space (only where `text` holds a run of white
 * space longer than `max / 2`); the middleware stores no such part ({@link storableParts}).
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
 * The parts of `text` the middleware stores ({@link splitTurnText}), less those that are all
 * white space (the memory accepts no blank text). They concatenate to exactly `text` unless it
 * holds a run of white space longer than `max / 2`.
 */
export function storableParts(text: string, max: number): string[] {
  return splitTurnText(text, max).filter((p) => p.trim() !== '');
}
