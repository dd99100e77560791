/**
 * Whether the anchor evidence of a before/after question answers it by itself (issue 24, hostile
 * review of cbb897b): "Our dog Biscuit passed away in June … We adopted a rescue greyhound called
 * Pepper" answers "Which dog did Priya have before Pepper?"; "I sold the Fiesta in August and
 * bought a second-hand Nissan Leaf" answers "What car did Priya have before the Nissan Leaf?";
 * "The week after the wedding I started a cooking class" answers "What did Marco start after the
 * wedding?". A change told in one message names the other state on the asked side of the anchor
 * (before it in the text for `before`, after it for `after`). Then the neighbours in time (order.ts)
 * are only runners-up: they are lifted below that message, never above it.
 *
 * The test reads the text on the asked side of the anchor term's first mention (the same analysis
 * as the index, `termsOf`) and holds when, for
 * 1. `after`, it says what came next ("Next I …", "now", "then"; or the message tells what came
 *    after the anchor: "The week after the wedding …") and what the question's frame asks for: one
 *    of the frame's content words ("sign up", "start"; not the holder's name nor a light verb), by
 *    stem or by a word-vector cosine of at least {@link FRAME_SIMILARITY} ("started" / "start").
 *    Not without the first: "Finally got the keys to the Civic, it drives like a dream" says no
 *    car after it. Not a name: the words after an anchor are mostly where and when it happened
 *    ("the wedding in Naples");
 * 2. `before`, it names another thing: a capitalised word that does not open a sentence and is
 *    not a speaker, the pronoun I, a month or a day ("Our dog Biscuit passed away … Pepper", "sold
 *    the Fiesta … bought a Leaf", "moved out of Leeds to Manchester"), nor the anchor's own name
 *    ("Alfa Romeo Giulietta"). Not the frame's words: before the anchor they name its kind ("took
 *    a job at Brookfield" for "Where did I work before Brookfield?"), not the state before it.
 *
 * @module
 */
import type { LanguageCode } from '../plane/text/language.js';
import { contentTerms, STOP_WORDS, termsOf, tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';
import type { TermVectorLookup } from './signals.js';

/** Least word-vector cosine between a frame word and a word of the asked side to count as saying it (shipped GloVe: "started"/"start" 0.82, "signed"/"sign" 0.71, "puppy"/"dog" 0.72; "bought"/"car" 0.47). */
export const FRAME_SIMILARITY = 0.7;

/** Frame words that ask nothing of their own (light verbs, "thing"). */
const LIGHT = new Set(['do', 'did', 'doe', 'done', 'have', 'had', 'get', 'got', 'happen', 'happened', 'thing', 'go', 'went', 'be', 'was', 'were', 'hacer', 'hizo', 'fazer', 'fez', 'faire', 'fait', 'fare', 'fatto']);
/** Capitalised words that are times, not things (en and the Romance languages the cue list reads). */
const TIME_WORDS = /^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|christmas|easter|today|yesterday|tomorrow)$/i;
/** Words that say what came next (en, es, pt, fr, it). */
const SEQUENCE = /(?:^|[^\p{L}])(?:next|then|now|afterwards|later|since then|luego|después|ahora|depois|agora|ensuite|puis|maintenant|poi|dopo|ora)(?=[^\p{L}]|$)/iu;
/** A cue of `after` right before the anchor's mention ("the week after the wedding"). */
const AFTER_CUE = /(?:^|[^\p{L}])(?:after|following|después de|depois d[eoa]|après|dopo)(?:\s+(?:the|a|an|my|our|his|her|their|el|la|los|las|o|a|le|la|les|il|lo))?\s*$/iu;
const WORD = /[\p{L}\p{M}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu;

function unit(v: Float32Array | undefined): Float32Array | undefined {
  if (v === undefined) return undefined;
  let n = 0;
  for (const x of v) n += x * x;
  return n === 0 ? undefined : v.map((x) => x / Math.sqrt(n));
}

function cosine(a: Float32Array | undefined, b: Float32Array | undefined): number {
  if (a === undefined || b === undefined || a.length !== b.length) return 0;
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/**
 * True when the memory's text answers the question by itself (module comment); `oq` as order.ts
 * `orderQuestion` reads it.
 * @param term the anchor phrase's most specific term (order.ts `findOrderAnchors`)
 * @param names lower-cased speaker names (the holder's and the others'), never things
 */
export function answersItself(n: Pick<MemoryNode, 'text'>, oq: { relation: 'before' | 'after'; frame: string; anchor: string }, term: string, o: { language: string; names: ReadonlySet<string>; termVectors?: TermVectorLookup | undefined }): boolean {
  const lang = o.language as LanguageCode;
  const text = n.text.normalize('NFC');
  let at: { start: number; end: number } | undefined;
  for (const m of text.matchAll(WORD)) {
    if (termsOf(m[0].toLowerCase(), lang).includes(term)) {
      at = { start: m.index, end: m.index + m[0].length };
      break;
    }
  }
  if (at === undefined) return false;
  const side = oq.relation === 'before' ? text.slice(0, at.start) : text.slice(at.end);
  if (oq.relation === 'before') return namesAnother(side, oq.anchor, o.names);
  // 1. the frame's own words, after a word that says what came next ("Next I signed up …") or in a
  // message that tells what came after the anchor itself ("The week after the wedding I started …")
  if (!SEQUENCE.test(side) && !AFTER_CUE.test(text.slice(Math.max(0, at.start - 24), at.start))) return false;
  const frameWords = tokenize(oq.frame).filter((w) => !STOP_WORDS.has(w) && !LIGHT.has(w) && !o.names.has(w));
  const frameTerms = new Set(contentTerms(frameWords.join(' '), lang));
  if (frameTerms.size > 0 && contentTerms(side, lang).some((t) => frameTerms.has(t))) return true;
  const sideWords = [...new Set(tokenize(side))].filter((w) => !STOP_WORDS.has(w) && !o.names.has(w) && w.length > 2);
  if (o.termVectors !== undefined && frameWords.length > 0 && sideWords.length > 0) {
    const fv = o.termVectors(frameWords).map(unit);
    const sv = o.termVectors(sideWords).map(unit);
    if (fv.some((f) => sv.some((s) => cosine(f, s) >= FRAME_SIMILARITY))) return true;
  }
  return false;
}

/** 2. Another thing named in `side` (the text before the anchor): a capitalised word that opens no sentence and is no speaker, I, month or day. */
function namesAnother(side: string, anchor: string, names: ReadonlySet<string>): boolean {
  const anchorWords = new Set(tokenize(anchor));
  // the capitalised words right before the anchor are its own name ("Alfa Romeo Giulietta")
  const rest = side.replace(/(?:[\p{Lu}][\p{L}\p{M}\p{N}'’-]*\s+)+$/u, '');
  for (const m of rest.matchAll(WORD)) {
    const w = m[0];
    const first = w[0] as string;
    if (first === first.toLowerCase() || first === first.toUpperCase() && w.length > 1 && w === w.toUpperCase()) continue;
    const lower = w.toLowerCase();
    if (lower === 'i' || lower.startsWith("i'") || lower.startsWith('i’') || names.has(lower) || anchorWords.has(lower) || TIME_WORDS.test(w)) continue;
    const before = rest.slice(0, m.index).trimEnd();
    if (before === '' || /[.!?:;¿¡"“]$/.test(before)) continue; // opens a sentence (or follows "Priya:")
    return true;
  }
  return false;
}
