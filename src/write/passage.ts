/**
 * The bounded passage of a long text that the write path's System-One requests and state-update
 * readings read (issue 22/25: long texts cost what they should). Their features (word cues, term
 * sets, names, statements) cost O(text) per read, and a 100k-character observation was read by the
 * typing request, by each of its ≤ K_w relation pairs, by maintenance and by the state-update
 * head. A text of at most {@link PASSAGE_CHARS} characters (every LoCoMo turn, every answer of the
 * chats bench) is its own passage, so nothing changes for it; a longer one is read as its first
 * ~{@link PASSAGE_HEAD_CHARS} characters and its last ~{@link PASSAGE_TAIL_CHARS}, cut at sentence
 * ends, joined by " … ". The node keeps its whole text: the embedding, the lexical index, the
 * entities and the time references read all of it.
 *
 * @module
 */
import type { StateMemory } from '../system-one/catalogue.js';
import { stateMemory } from '../system-one/state.js';
import type { MemoryNode } from '../types.js';
import { cutAfter, cutBefore } from '../util/text-windows.js';

/** Longest text read whole; a longer one is read as its passage ({@link passageOf}). */
export const PASSAGE_CHARS = 4000;
/** Characters of a long text's beginning its passage keeps (to the last sentence end before). */
export const PASSAGE_HEAD_CHARS = 3000;
/** Characters of a long text's end its passage keeps (from the first sentence start after). */
export const PASSAGE_TAIL_CHARS = 800;

/**
 * The passage of `text`: the text itself when it has at most {@link PASSAGE_CHARS} characters,
 * else its beginning (at most {@link PASSAGE_HEAD_CHARS} characters, cut after the last sentence
 * end in its second half, else at white space) and its end (at most {@link PASSAGE_TAIL_CHARS},
 * from the first sentence start in its first half, else from white space) joined by `" … "`.
 * At most PASSAGE_HEAD_CHARS + PASSAGE_TAIL_CHARS + 3 characters; cost O(that), whatever the text.
 */
export function passageOf(text: string): string {
  const n = text.length;
  if (n <= PASSAGE_CHARS) return text;
  const head = cutBefore(text, PASSAGE_HEAD_CHARS, Math.floor(PASSAGE_HEAD_CHARS / 2));
  const tail = cutAfter(text, n - PASSAGE_TAIL_CHARS, n - Math.floor(PASSAGE_TAIL_CHARS / 2));
  return `${text.slice(0, head).trimEnd()} … ${text.slice(tail).trimStart()}`;
}

/** {@link stateMemory} of a node with its text read as its {@link passageOf passage} (the write path's System-One states). */
export function passageMemory(n: MemoryNode, ref = n.id): StateMemory {
  const m = stateMemory(n, ref);
  m.text = passageOf(n.text);
  return m;
}
