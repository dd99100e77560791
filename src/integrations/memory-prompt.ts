/**
 * The system message of recalled memories that the AI SDK middleware puts into a prompt
 * (`jev-mem/ai-sdk` `memoryMiddleware`), kept within a character budget (h-break15 finding 5:
 * a 150,000-character answer stored in two parts filled the prompt with 48,341 characters of an
 * unrelated itinerary for "What is my dog called?").
 *
 * Budget rule: the message (header and lines, line breaks included) is at most `maxChars` UTF-16
 * code units (JavaScript string length). Memories come in rank order, one line each. A memory
 * whose text is longer than a quarter of the budget ({@link LONG_MEMORY_SHARE}) is a long memory:
 * its line holds its best-matching passage instead of the whole text — the text is cut into
 * pieces of at most that length at sentence ends (write/split-long.ts `splitTurnText`, never
 * inside a surrogate pair), and the piece whose best window of sentences holds the largest
 * share of the query's content terms wins (read/passage.ts `passageScore`, every term weighted
 * 1; ties to the earliest), marked with `…` where text was left out. A memory that does not fit
 * in what is left of the budget is cut the same way to what is left; once less than
 * {@link MIN_PASSAGE_CHARS} is left, the remaining memories are left out.
 *
 * @module
 */
import { passageQuery, passageScore } from '../read/passage.js';
import type { RecalledMemory } from '../types.js';
import { splitTurnText } from '../write/split-long.js';

/** Marks the system message the middleware adds (so a later step does not add a second one). */
export const MEMORY_MESSAGE_HEADER = 'Memories from earlier conversations (jev-mem, most relevant first; use them when they help, ignore the rest):';

/** Default budget of the memory message, in UTF-16 code units (about 1,000 tokens of English). */
export const DEFAULT_MEMORY_CHARS = 4000;

/** Smallest budget accepted, in UTF-16 code units: the header and one short passage. */
export const MIN_MEMORY_CHARS = 256;

/** A memory whose text is longer than this share of the budget is cut to its best passage. */
export const LONG_MEMORY_SHARE = 0.25;

/** The fewest characters of a memory's text worth a line; below, the remaining memories are left out. */
export const MIN_PASSAGE_CHARS = 64;

/** What {@link formatMemories} (or a custom `format`) is given besides the memories. */
export interface MemoryFormatContext {
  /** The recall query (the latest user message, or its tail): what a passage should match. */
  query: string;
  /** The most UTF-16 code units the whole message may hold (header included). */
  maxChars: number;
}

/**
 * The best-matching passage of `text` in at most `max` UTF-16 code units (the module comment's
 * rule): `text` itself when it fits, else its best piece, trimmed, with `…` before and after it
 * where text was left out (the marks count in `max`).
 * @param max - at least 4 (room for the marks and a character).
 */
export function bestPassage(text: string, query: string, max: number): string {
  if (text.length <= max) return text;
  const pieces = splitTurnText(text, max - 2);
  const q = passageQuery(query, () => 1);
  let best = 0;
  let bestScore = -1;
  pieces.forEach((p, i) => {
    const s = passageScore(q, p).score;
    if (s > bestScore) {
      bestScore = s;
      best = i;
    }
  });
  const piece = (pieces[best] as string).trim();
  return `${best > 0 ? '…' : ''}${piece}${best < pieces.length - 1 ? '…' : ''}`;
}

/**
 * The default system message: the header, then one line per memory, in rank order, with its
 * local date and speaker (`- [2025-03-01] user: text`), within `context.maxChars` UTF-16 code
 * units (the module comment's rule). Without a context, the query is empty (a long memory's
 * first piece is kept) and the budget {@link DEFAULT_MEMORY_CHARS}.
 */
export function formatMemories(memories: RecalledMemory[], context: Partial<MemoryFormatContext> = {}): string {
  const maxChars = context.maxChars ?? DEFAULT_MEMORY_CHARS;
  const query = context.query ?? '';
  const long = Math.floor(maxChars * LONG_MEMORY_SHARE);
  let out = MEMORY_MESSAGE_HEADER;
  for (const m of memories) {
    const when = m.observedAtLocal !== undefined ? `[${m.observedAtLocal.slice(0, 10)}] ` : '';
    const who = m.provenance.speaker !== undefined ? `${m.provenance.speaker}: ` : '';
    const old = m.status === 'superseded' ? ' (outdated: replaced by a newer memory)' : '';
    const head = `\n- ${when}${who}`;
    const room = Math.min(long, maxChars - out.length - head.length - old.length);
    if (m.text.length > room && room < MIN_PASSAGE_CHARS) break;
    out += `${head}${bestPassage(m.text, query, room)}${old}`;
  }
  return out;
}
