/**
 * The user's stated tastes for a recommendation request (issue 24, preference questions). When
 * the user asks for a suggestion ("Can you recommend a show for tonight?", "What should I cook
 * this weekend?"), a good answer rests on what the user said of themselves in an earlier session,
 * often in passing inside a long request for help ("I'm looking for a new recipe; I've been
 * really into Thai food lately, and I'm vegetarian"). Neither the whole turn's words nor its
 * whole vector find it well: the assistant's long answers share more words with the question, and
 * the user's own short requests ("What should I look for in headphones?") are closer in meaning to
 * a question than any statement is. So the read path, on such a request in a history whose
 * speakers are roles:
 *
 * 1. draws the asker's turns into the candidate pool ({@link tastePool}: the user-role turns
 *    among the {@link TASTE_POOL} nearest turns by the stored vectors), and
 * 2. scores each user turn by meaning at passage level ({@link tasteScores}):
 *
 *      m(v) = max over statements s of v  cos(e(q) − c̄, e(s) − c̄),
 *
 *    where the statements are the turn's sentences that do not end with "?" and say something in
 *    the first person (I, my, we, our, …): a taste is stated, not asked. e is the encoder's
 *    sentence vector. A turn without a statement has no m.
 *
 * A question asking for several things about the user ('items' mode, {@link statementMode}) is
 * matched against every statement, first person or not, and the whole turn ({@link itemMatch}).
 *
 * The guard (guard.ts) adds μ·m̃(v) to G, m̃ the taste rescaled against the best among the
 * candidates. Measured on the chats bench's preference dev part (`bench/chats/prefs.ts`): among
 * the user's turns, the evidence turn is in the top 10 by m for 27 of 32 questions, by the whole
 * turn's cosine for 20, by the best of all its sentences (questions included) for 19.
 *
 * @module
 */
import type { NamespaceState } from '../plane/resident/namespace.js';
import { tokenize } from '../plane/text/text.js';
import type { MemoryNode } from '../types.js';
import { dot } from '../util/vector.js';
import type { Scored } from './assess.js';
import { asksAggregate } from './coverage.js';
import { ASSISTANT_ROLES, asksSuggestion, isRole, questionRole, wordCount } from './guard.js';
import { splitSentences } from './passage.js';

/** Depth of the vector search that draws the user's turns for a recommendation request. */
export const TASTE_POOL = 300;
/** Depth of the second, centred search of a question asking for several things ({@link tastePool}). */
export const CENTRED_POOL = 300;
/**
 * A user turn longer than this many words is matched by its sentences too in the items mode
 * ({@link itemMatch}); shorter turns by their whole vector only. Chosen on the chats bench's
 * wilddev and wildlong parts over 0, 30, 60, 80 and 100 (docs/bench/CHATS.md, round eleven).
 */
export const ITEM_SENTENCE_WORDS = 40;
/** At most this many statements are embedded in one recall (the most similar turns first keep theirs). */
export const TASTE_MAX_STATEMENTS = 1200;

/** Embeds texts with the namespace's encoder (unit vectors, as `Encoder.embed` gives them). */
export type EmbedTexts = (texts: string[]) => Promise<Float32Array[]>;

const FIRST_PERSON = new Set(['i', "i'm", "i've", "i'd", "i'll", 'im', 'ive', 'my', 'me', 'mine', 'myself', 'we', "we're", "we've", 'our', 'ours', 'us']);

/** True when a turn's speaker is the user's role (a role that is not an assistant's). */
export function isUserRole(n: MemoryNode): boolean {
  const s = n.provenance.speaker;
  return isRole(s) && !ASSISTANT_ROLES.has((s as string).trim().toLowerCase());
}

/**
 * The statements of a text: its sentences (passage.ts `splitSentences`) that do not end with
 * "?" and, when `firstPerson` (the default), hold a first-person word (I, I'm, my, me, we, our,
 * us, …), in order.
 */
export function statements(text: string, firstPerson = true): string[] {
  return splitSentences(text).filter((s) => !s.endsWith('?') && (!firstPerson || tokenize(s).some((w) => FIRST_PERSON.has(w))));
}

/**
 * Which statements of the user's turns a question is matched against: `'taste'` for a
 * suggestion the user asks for (guard.ts `asksSuggestion`; first-person statements), `'items'`
 * for a question asking for several things about the user (coverage.ts `asksAggregate`: "What
 * sports have I picked up…", "How many books have I finished…"; every statement, since a user
 * names an item without "I" as often as with it: "Finally got through Middlemarch on the train").
 * Undefined: neither, or the question is about the assistant's turns (guard.ts `questionRole`).
 */
export function statementMode(query: string): 'taste' | 'items' | undefined {
  if (questionRole(query) !== 'user') return undefined;
  if (asksSuggestion(query)) return 'taste';
  return asksAggregate(query) && !asksDuration(query) ? 'items' : undefined;
}

/** Units of time: "how many" before one of them asks for a duration ("How many days passed between…"), not for items. */
const TIME_UNITS = new Set(['seconds', 'minutes', 'hours', 'days', 'nights', 'weeks', 'months', 'years', 'decades']);

/** True when an English question counts units of time ("How many days passed between …", "how many weeks since …"). */
export function asksDuration(query: string): boolean {
  const w = tokenize(query);
  for (let i = 0; i + 2 < w.length; i++) if (w[i] === 'how' && w[i + 1] === 'many' && TIME_UNITS.has(w[i + 2] as string)) return true;
  return false;
}

/** What {@link userStatements} needs of the recall. */
export interface StatementsInput {
  query: string;
  queryVector: Float32Array;
  /** The guard's weight on the anchors (guard.ts `guardWeight`): the step runs only when g > 0. */
  g: number;
  embed: EmbedTexts;
}

/**
 * The user's statements m(v) (module comment) when the question is one of {@link statementMode}'s
 * and the guard is on (g > 0: role speakers or long turns; never on LoCoMo): draws the user-role
 * turns of the pool ({@link tastePool}) that are not yet candidates (`score` scores them as
 * candidates), then measures every user-role candidate, nearest by cosine first.
 * @returns the scores by node id, how many turns were drawn, and the mode; undefined when the
 *   step does not run.
 */
export async function userStatements(
  state: NamespaceState,
  input: StatementsInput,
  scored: ReadonlyMap<string, Scored>,
  passes: (n: MemoryNode) => boolean,
  score: (nodes: MemoryNode[]) => Promise<void>,
): Promise<{ scores: Map<string, number>; drawn: number; mode: 'taste' | 'items' } | undefined> {
  const mode = statementMode(input.query);
  if (mode === undefined || input.g <= 0) return undefined;
  const drawn = await tastePool(state, input.queryVector, new Set(scored.keys()), passes, mode === 'items');
  if (drawn.length > 0) await score(drawn); // marks them visited
  const users = [...scored.values()].filter((s) => isUserRole(s.node)).sort((a, b) => b.parts.z - a.parts.z);
  if (mode === 'items') {
    const nodes = users.map((s) => s.node);
    const whole = itemScores(input.queryVector, nodes, (id) => state.vectors.get(id));
    // the sentences of every user turn set the common component c̄_S (itemMatch keeps the long turns')
    return { scores: itemMatch(nodes, whole, await tasteScores(input.queryVector, nodes, input.embed, false)), drawn: drawn.length, mode };
  }
  return { scores: await tasteScores(input.queryVector, users.map((s) => s.node), input.embed, mode === 'taste'), drawn: drawn.length, mode };
}

/**
 * The user-role turns among the {@link TASTE_POOL} nearest turns to the query vector that
 * `keep` keeps and that are not in `seen`, nearest first (their bodies loaded).
 */
export async function tastePool(state: NamespaceState, queryVector: Float32Array, seen: ReadonlySet<string>, keep: (n: MemoryNode) => boolean, centred = false): Promise<MemoryNode[]> {
  if (state.vector.size === 0) return [];
  const near = state.vector.search(queryVector, TASTE_POOL);
  let ids = near.map((h) => h.id);
  if (centred && near.length > 1) {
    // c̄ = the mean unit vector of the nearest turns (their common component); searching with
    // e(q) − c̄ ranks by (e(q) − c̄)·e(v), the centred cosine's numerator (its other term,
    // (e(q) − c̄)·c̄, is the same for every v): turns that share the question's own direction
    const dim = queryVector.length;
    const mean = new Float32Array(dim);
    let n = 0;
    for (const h of near) {
      const v = state.vectors.get(h.id);
      if (v === undefined) continue;
      const u = unit(v, undefined);
      for (let j = 0; j < dim; j++) mean[j] = (mean[j] as number) + (u[j] as number);
      n++;
    }
    if (n > 0) {
      for (let j = 0; j < dim; j++) mean[j] = (mean[j] as number) / n;
      const extra = state.vector.search(unit(queryVector, mean), CENTRED_POOL).map((h) => h.id);
      ids = [...new Set([...ids, ...extra])];
    }
  }
  ids = ids.filter((id) => !seen.has(id));
  await state.loadNodes(ids);
  const out: MemoryNode[] = [];
  for (const id of ids) {
    const n = state.nodes.get(id);
    if (n !== undefined && isUserRole(n) && keep(n)) out.push(n);
  }
  return out;
}

/**
 * m(v) of each node (module comment): the best cosine of the query vector with the node's
 * statements, embedded with `embed`. Nodes are taken in the given order until
 * {@link TASTE_MAX_STATEMENTS} statements; a node without statements (or past the cap) is absent
 * from the result.
 */
export async function tasteScores(queryVector: Float32Array, nodes: readonly MemoryNode[], embed: EmbedTexts, firstPerson = true): Promise<Map<string, number>> {
  const texts: string[] = [];
  const owner: string[] = [];
  for (const n of nodes) {
    const st = statements(n.text, firstPerson);
    if (texts.length + st.length > TASTE_MAX_STATEMENTS) break;
    for (const s of st) {
      texts.push(s);
      owner.push(n.id);
    }
  }
  const out = new Map<string, number>();
  if (texts.length === 0) return out;
  const vs = await embed(texts);
  // The common component c̄ (mean of the unit statement vectors) is removed from the query and
  // every statement before the cosine: generic first-person lines ("I've been meaning to ask you
  // about this", "My partner and I keep arguing about this") are close to every question along
  // c̄, a taste only along its own topic.
  const dim = queryVector.length;
  const mean = new Float32Array(dim);
  const units = vs.map((v) => unit(v, undefined));
  for (const u of units) for (let j = 0; j < dim; j++) mean[j] = (mean[j] as number) + (u[j] as number) / units.length;
  const q = unit(queryVector, mean);
  units.forEach((u0, i) => {
    const c = dot(q, unit(u0, mean));
    const id = owner[i] as string;
    const prev = out.get(id);
    if (prev === undefined || c > prev) out.set(id, c);
  });
  return out;
}

/**
 * The item match of a question asking for several things about the user ('items' mode): the
 * centred cosine of the query with each user turn's stored vector,
 *
 *   m(v) = cos(e(q) − c̄, e(v) − c̄),  c̄ = the mean unit vector of the given turns,
 *
 * over whole turns (the user often names an item in one short turn: "I joined a Sunday five-a-side
 * football team in February…"); {@link itemMatch} adds the sentences of long ones. A node without
 * a stored vector is absent from the result.
 * @param vectorOf the stored vector of a node (`NamespaceState.vectors`).
 */
export function itemScores(queryVector: Float32Array, nodes: readonly MemoryNode[], vectorOf: (id: string) => Float32Array | undefined): Map<string, number> {
  const out = new Map<string, number>();
  const units: Array<[string, Float32Array]> = [];
  for (const n of nodes) {
    const v = vectorOf(n.id);
    if (v !== undefined) units.push([n.id, unit(v, undefined)]);
  }
  if (units.length === 0) return out;
  const dim = queryVector.length;
  const mean = new Float32Array(dim);
  for (const [, u] of units) for (let j = 0; j < dim; j++) mean[j] = (mean[j] as number) + (u[j] as number) / units.length;
  const q = unit(queryVector, mean);
  for (const [id, u] of units) out.set(id, dot(q, unit(u, mean)));
  return out;
}

/**
 * The items mode's m(v) (round eleven of docs/bench/CHATS.md): the better of the whole turn's
 * centred cosine and its best sentence's,
 *
 *   m(v) = max(cos(e(q) − c̄_W, e(v) − c̄_W), max over sentences s of v  cos(e(q) − c̄_S, e(s) − c̄_S)),
 *
 * c̄_W the mean unit vector of the user turns ({@link itemScores}), c̄_S that of their sentences
 * that are not questions ({@link tasteScores} without the first-person filter). A user who writes
 * long messages names an item in one sentence among many about something else ("I'm a nurse and
 * this week has been chaotic. My cousin's wedding on Saturday cost a fortune. …"): the whole
 * turn's vector dilutes that sentence by the rest, its own sentence vector does not. Only turns
 * of more than {@link ITEM_SENTENCE_WORDS} words take the sentence match: a short turn's whole
 * vector is hardly diluted, and the best of several sentences is a maximum of noisy draws that
 * lifts generic chatter ("I read an article about this last night…" for "Which instruments am I
 * learning?"). A long node without a whole-turn score keeps its sentence score; nodes not in
 * `nodes` keep their whole-turn score.
 * @param nodes the user turns measured (their texts give the word counts).
 * @param whole the whole-turn match by node id ({@link itemScores}).
 * @param sentences the best sentence match by node id ({@link tasteScores} with `firstPerson` false,
 *   over the same turns, so that c̄_S is their sentences' mean).
 */
export function itemMatch(nodes: readonly MemoryNode[], whole: ReadonlyMap<string, number>, sentences: ReadonlyMap<string, number>): Map<string, number> {
  const out = new Map(whole);
  for (const n of nodes) {
    const d = sentences.get(n.id);
    if (d === undefined || wordCount(n.text) <= ITEM_SENTENCE_WORDS) continue;
    const w = out.get(n.id);
    if (w === undefined || d > w) out.set(n.id, d);
  }
  return out;
}


/** v/|v| − c, scaled to unit length (a zero vector stays zero); `c` absent: v/|v|. */
function unit(v: Float32Array, c: Float32Array | undefined): Float32Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  const out = new Float32Array(v.length);
  for (let j = 0; j < v.length; j++) out[j] = (v[j] as number) / n - (c === undefined ? 0 : (c[j] as number));
  if (c === undefined) return out;
  const m = Math.sqrt(dot(out, out));
  if (m > 0) for (let j = 0; j < out.length; j++) out[j] = (out[j] as number) / m;
  return out;
}
