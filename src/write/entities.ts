/**
 * Entity identifiers in a text (SPEC 3 `entities`; SPEC 4 step 3: exact shared identifiers give
 * entity edges). Deterministic and cheap: capitalised words and runs of them that are not at the
 * start of a sentence, sentence-initial ones only when the namespace already knows them, and any
 * known name (e.g. a speaker) written in any case. Canonical form: NFC, lower case, single
 * spaces. Scripts without capitals (Chinese, Japanese, Korean, Arabic, Hebrew, Hindi, Thai, …;
 * issue 15) give the names the namespace already knows, found among the words of
 * `Intl.Segmenter` (one word or two or three adjacent ones), and names set off by quotes or
 * brackets (「小雪」, “Наташа”, «…», 《…》).
 *
 * @module
 */
import { tokenize } from '../plane/text/text.js';

const COMMON_CAPITALISED = new Set([
  'i', 'im', "i'm", "i've", "i'll", "i'd", 'the', 'a', 'an', 'and', 'but', 'or', 'so', 'oh', 'hey', 'hi', 'hello', 'yes', 'yeah', 'no', 'ok', 'okay',
  'thanks', 'thank', 'wow', 'well', 'sure', 'great', 'good', 'nice', 'cool', 'awesome', 'sounds', 'that', 'this', 'it', 'my', 'your', 'we', 'you',
  'he', 'she', 'they', 'what', 'when', 'where', 'who', 'why', 'how', 'which', 'do', 'did', 'does', 'is', 'are', 'was', 'were', 'have', 'has',
  'had', 'can', 'could', 'would', 'should', 'will', 'just', 'also', 'not', 'let', "let's", 'lol', 'haha', 'omg', 'btw', 'mr', 'mrs', 'ms', 'dr',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday', 'january', 'february', 'march', 'april', 'may', 'june', 'july',
  'august', 'september', 'october', 'november', 'december', 'image', 'yep', 'nope', 'congrats', 'congratulations', 'absolutely', 'definitely',
  'totally', 'really', 'love', 'glad', 'happy', 'sorry', 'me', 'us', 'there', 'here', 'if', 'as', 'at', 'in', 'on', 'for', 'to', 'of', 'with',
]);

const WORD_RE = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

/**
 * What {@link extractEntities} asks of the names a namespace knows: membership only, so a caller
 * can answer from its own maps (e.g. speakers or mentions) without copying them into a set per
 * call (that copy grows with the memory).
 */
export interface KnownEntities {
  has(canonicalName: string): boolean;
}

/** Canonical form of an entity name: NFC, lower case, no trailing "'s", single spaces, trimmed. */
export function canonicalEntity(name: string): string {
  if (PLAIN_WORD.test(name)) return name; // already canonical: most words of a text (issue 22/25: a 100k text reads ~18k)
  return name.normalize('NFC').toLowerCase().replace(/['’]s$/u, '').replace(/\s+/gu, ' ').trim();
}

/** A word {@link canonicalEntity} leaves as it is: lower-case ASCII letters, digits and inner hyphens. */
const PLAIN_WORD = /^[a-z0-9][a-z0-9-]*$/;

/** A letter of a script without case (Han, kana, Hangul, Arabic, Hebrew, Devanagari, Thai, …). */
const UNCASED_LETTER = /\p{Lo}/u;

/** A span set off by quotes or brackets, at most 24 characters. */
const QUOTED = /[「『《“«‹"]([^「」『』《》“”«»‹›"\n]{1,24})[」』》”»›"]/gu;

/**
 * Names in text of a script without capitals: quoted or bracketed spans that hold such letters,
 * and words (or two or three adjacent words, joined with and without a space) the namespace knows.
 */
function uncasedNames(text: string, known: KnownEntities, push: (name: string) => void): void {
  for (const m of text.matchAll(QUOTED)) {
    const span = (m[1] as string).trim();
    if (UNCASED_LETTER.test(span)) push(span);
  }
  const words = tokenize(text);
  for (let i = 0; i < words.length; i += 1) {
    for (let n = 1; n <= 3 && i + n <= words.length; n += 1) {
      const parts = words.slice(i, i + n);
      for (const name of n === 1 ? parts : [parts.join(''), parts.join(' ')]) {
        if (known.has(canonicalEntity(name))) push(name);
      }
    }
  }
}

/**
 * Extracts entity identifiers from `text`.
 * @param known Canonical names the namespace already knows (speakers, earlier entities); they
 *   match in any case and at sentence starts.
 * @returns Unique canonical names, in order of first appearance; the names of scripts without
 *   capitals follow (quoted spans first, then known names).
 */
export function extractEntities(text: string, known: KnownEntities = new Set<string>()): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (name: string): void => {
    const c = canonicalEntity(name);
    if (c.length < 2 || COMMON_CAPITALISED.has(c) || seen.has(c)) return;
    seen.add(c);
    out.push(c);
  };
  let run: string[] = [];
  let runStartsSentence = false;
  let prevEnd = 0;
  const flush = (): void => {
    if (run.length === 0) return;
    const name = run.join(' ');
    const c = canonicalEntity(name);
    if (!runStartsSentence || known.has(c) || run.length > 1) {
      // A sentence-initial run of several words ("Pottery Class") keeps its tail as the entity.
      if (runStartsSentence && run.length > 1 && !known.has(c) && COMMON_CAPITALISED.has(canonicalEntity(run[0] as string))) push(run.slice(1).join(' '));
      else push(name);
    }
    run = [];
  };
  for (const m of text.matchAll(WORD_RE)) {
    const word = m[0];
    const start = m.index ?? 0;
    const capital = /^\p{Lu}/u.test(word) && !/^\p{Lu}+$/u.test(word.length > 1 ? word : 'x');
    const acronym = /^\p{Lu}{2,6}$/u.test(word);
    if ((capital || acronym) && !COMMON_CAPITALISED.has(word.toLowerCase())) {
      const between = text.slice(prevEnd, start); // read only before a capitalised word
      if (run.length > 0 && /^\s+$/u.test(between)) run.push(word);
      else {
        flush();
        run = [word];
        runStartsSentence = prevEnd === 0 ? between.trim() === '' || /^[\s"'“(]*$/u.test(between) : /[.!?:;]\s*["'“(]?\s*$/u.test(between) || /\n/u.test(between);
      }
    } else {
      flush();
      const c = canonicalEntity(word);
      if (known.has(c)) push(word);
    }
    prevEnd = start + word.length;
  }
  flush();
  if (UNCASED_LETTER.test(text)) uncasedNames(text.normalize('NFC'), known, push);
  return out;
}
