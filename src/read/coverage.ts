/**
 * Coverage of the final top K across sessions (issue 24, multi-session evidence). A question
 * that asks for several things ("Which countries have I travelled to?", "How many instruments am
 * I learning?", "What did I spend in total…") rests on several turns, usually said in different
 * sessions. On histories outside System One's fitted range (the guard's g > 0: long turns,
 * role-only speakers) the final order is mostly the guard's lexical order, and one session can
 * fill the top 10: a session where the assistant repeats the question's words over several long
 * replies, or a user fact followed by the assistant's restatement. The traces of the chats
 * bench's dev part (docs/bench/CHATS.md, "Round four") show the second and third evidence turns
 * of multi-session questions ranked 11-40 below such repeats (4-6 of the top 10 were further
 * turns of one session).
 *
 * The step is a greedy re-ranking (a per-session form of maximal marginal relevance): going down
 * the list, each memory's score is multiplied by f^n, n = how many memories of its session are
 * already ranked above it, and the best adjusted score is taken next. The factor is
 *
 *   f = 1 − g·(1 − δ)
 *
 * with δ the parameter `sessionRepeatFactor` and g the guard's weight, so on histories in System
 * One's range (g = 0, LoCoMo) the order is unchanged: on LoCoMo dev the same step lowered recall
 * at every δ tried, since there a session's further turns are as often the evidence as not.
 *
 * @module
 */
import { tokenize } from '../plane/text/text.js';

/** Words that, anywhere in a question, ask for a count, a sum or a list of several things. */
const AGGREGATE = new Set(['total', 'altogether', 'overall', 'every', 'each', 'list', 'both', 'all']);
/** Question words after which a plural noun asks for several things ("which countries…"). */
const WH = new Set(['which', 'what']);
/** Words ending in "s" that are not plural nouns (verbs, pronouns, adverbs). */
const NOT_PLURAL = new Set(['does', 'was', 'has', 'is', 'this', 'his', 'its', 'yes', 'us', 'as', 'always', 'sometimes', 'perhaps', 'towards', 'less', 'unless', 'plus', 'thus', 'whereas', 'ones', 'hers', 'ours', 'yours', 'theirs', 'lots']);
/** Definite determiners: a plural noun after one names a known set ("the books I finished", "my trips"). */
const DEFINITE = new Set(['the', 'my', 'our', 'those', 'these']);
/** How many words after "which" / "what" a plural noun may come ("what online courses"). */
const PLURAL_WINDOW = 3;

/** True for an English plural noun form: 4+ letters ending in "s" but not "ss", "us" or "is". */
function plural(w: string | undefined): boolean {
  if (w === undefined || w.length < 4 || NOT_PLURAL.has(w) || !w.endsWith('s')) return false;
  return !(w.endsWith('ss') || w.endsWith('us') || w.endsWith('is'));
}

/** True when w[i] opens the question's topic: "about / regarding / concerning …", "(remind / tell) me of …". */
function topic(w: readonly string[], i: number): boolean {
  const t = w[i];
  return t === 'about' || t === 'regarding' || t === 'concerning' || (t === 'of' && w[i - 1] === 'me');
}

/**
 * True when an English question asks for several things, whose evidence is likely spread over
 * several turns: "how many …", "in total", "altogether", "so far", "in all", "all / every / each /
 * both …", "list …", "which / what" followed within three words by a plural noun ("Which
 * countries have I…", "What online courses…"); a topic that is a definite plural noun phrase,
 * after "about / regarding / concerning" or "(remind / tell) me of" ("What did I say about the
 * books I completed?", "Remind me of the races I took part in": a definite plural names the whole
 * set, every member of which is asked about); or "who has / have …" (a subject question in the
 * present perfect asks who, over time, did something: "Who has come to stay with us?", an open
 * list, where "Who is my manager?" asks for one). Possessives ("my sister's job") are not plurals
 * (the tokenizer splits "sister's" at the apostrophe). Questions in other languages read false
 * (the step is then off).
 */
export function asksAggregate(query: string): boolean {
  const w = tokenize(query);
  for (let i = 0; i < w.length; i++) {
    const t = w[i] as string;
    if (AGGREGATE.has(t)) return true;
    if (t === 'how' && w[i + 1] === 'many') return true;
    if ((t === 'so' && w[i + 1] === 'far') || (t === 'in' && w[i + 1] === 'all')) return true;
    if (WH.has(t) && w.slice(i + 1, i + 1 + PLURAL_WINDOW).some(plural)) return true;
    if (topic(w, i) && DEFINITE.has(w[i + 1] as string) && w.slice(i + 2, i + 2 + PLURAL_WINDOW).some(plural)) return true;
    if (t === 'who' && (w[i + 1] === 'has' || w[i + 1] === 'have')) return true;
  }
  return false;
}

/**
 * The factor f = 1 − g·(1 − δ) of {@link sessionCoverage}: 1 (no change) when g = 0 or δ = 1.
 * @param g the guard's weight in [0,1] (guard.ts `guardWeight`).
 * @param delta δ = the parameter `sessionRepeatFactor` in [0,1].
 */
export function coverageFactor(g: number, delta: number): number {
  return 1 - g * (1 - delta);
}

/** One candidate of {@link sessionCoverage}. */
export interface CoverageItem {
  /** The session (`provenance.sessionId`); undefined: the memory is a session of its own. */
  session: string | undefined;
  /** Its score in the ranking before the step (higher first). */
  score: number;
}

/**
 * The greedy per-session re-ranking: repeatedly takes the item with the highest
 * score·f^n (n = items of its session taken before it; ties by input position) and gives it
 * that adjusted score. The returned scores are therefore non-increasing in the new order, and
 * with f = 1 they equal the input scores.
 * @param items candidates in any order.
 * @param f the factor in [0,1] ({@link coverageFactor}).
 * @returns the adjusted score of each item, by input index. O(n²) in the number of items (a
 *   recall scores at most a few hundred).
 */
export function sessionCoverage(items: readonly CoverageItem[], f: number): number[] {
  const out = items.map((x) => x.score);
  if (f >= 1 || items.length < 2) return out;
  const taken = new Map<string, number>();
  const left = items.map((_, i) => i);
  while (left.length > 0) {
    let bestAt = 0;
    let best = -Infinity;
    for (let j = 0; j < left.length; j++) {
      const it = items[left[j] as number] as CoverageItem;
      const n = it.session === undefined ? 0 : (taken.get(it.session) ?? 0);
      const s = it.score * f ** n;
      if (s > best) {
        best = s;
        bestAt = j;
      }
    }
    const i = left.splice(bestAt, 1)[0] as number;
    out[i] = best;
    const sid = (items[i] as CoverageItem).session;
    if (sid !== undefined) taken.set(sid, (taken.get(sid) ?? 0) + 1);
  }
  return out;
}
