/**
 * Generator of the chats bench (issue 24): long user/assistant chat histories in the style of
 * public long-memory chat benchmarks (hundreds of turns across dated sessions, short-to-medium
 * user turns, long assistant answers that wander across many topics, speakers known only by
 * role), with questions of six kinds whose evidence turns are known. Deterministic for a seed,
 * data-free (every word comes from `topics.ts` / `episodes.ts`).
 *
 * Each question's evidence is planted in a session of its own topic; the assistant's long reply
 * right after a user plant talks about the same words (a strong lexical neighbour that is not
 * the evidence); trap sessions on the question's topic have the assistant reuse the question's
 * words at length without the fact; the other sessions are on unrelated topics.
 *
 * @module
 */
import { contentTerms } from '../../src/plane/text/text.js';
import type { LocomoConversation, LocomoQuestion } from '../../src/formats/locomo.js';
import type { Observation } from '../../src/types.js';
import { CHAT_KINDS, episodes, rng, type ChatKind, type Episode, type Plant, type Rng } from './episodes.js';
import { ANSWER_OPENERS, ANSWER_SENTENCES, FOLLOW_UPS, TOPICS, type Topic } from './topics.js';

/** One generated history as a LoCoMo-shaped conversation (question `category` = 1 + index in {@link CHAT_KINDS}). */
export interface ChatHistory extends LocomoConversation {
  /** Seed it was generated from (0 for a history read from a file). */
  seed: number;
  /** The date its questions are asked (ISO-8601), when the history gives one; else the day after its last turn. */
  askedAt?: string;
  questions: ChatQuestion[];
}

/** A question of a generated history. */
export interface ChatQuestion extends LocomoQuestion {
  /**
   * The outdated turns of a knowledge update (the plants with `evidence: false`: the value the
   * user stated before the update); not scored by recall@K, read by the knowledge-update
   * trace (public benchmarks of this style count both the old and the new statement as evidence).
   */
  outdated?: string[];
}

/** Options of {@link generateHistory}. */
export interface HistoryOptions {
  /** Questions of each kind. @default 3 */
  perKind?: number;
  /** Unrelated filler sessions. @default 22 */
  fillers?: number;
  /** Short assistant replies (one or two sentences) instead of long answers: no turn is long. @default false */
  short?: boolean;
  /** The questions and their plants; absent: `episodes(r, perKind)` of `episodes.ts` (every kind). */
  episodes?: (r: Rng) => Episode[];
}

/** Category number of a kind (1-based index in {@link CHAT_KINDS}). */
export function kindCategory(k: ChatKind): number {
  return CHAT_KINDS.indexOf(k) + 1;
}

/** The kind of a category number. */
export function categoryKind(c: number): ChatKind {
  return CHAT_KINDS[c - 1] as ChatKind;
}

const TOPIC = new Map(TOPICS.map((t) => [t.name, t]));

function topicOf(name: string): Topic {
  const t = TOPIC.get(name);
  if (t === undefined) throw new Error(`chats: unknown topic ${name}`);
  return t;
}

export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w)\}/g, (_, k: string) => slots[k] ?? k);
}

/**
 * A long assistant answer (≈150-400 words): an opener, then sentences over `words` (the
 * session's) and words of other topics, sometimes as a numbered list; `inject` sentences are
 * put in at random places.
 */
export function answer(r: Rng, words: readonly string[], inject: readonly string[] = [], short = false): string {
  const others = TOPICS.flatMap((t) => t.words);
  const n = short ? 1 + r.int(2) : 9 + r.int(12);
  const sentences: string[] = [];
  const picked = r.some(ANSWER_SENTENCES, Math.min(n, ANSWER_SENTENCES.length));
  for (const s of picked) sentences.push(fill(s, { a: r.pick(words), b: r.pick(words), c: r.pick(words), x: r.pick(others), y: r.pick(others) }));
  for (const s of inject) sentences.splice(1 + r.int(sentences.length), 0, s);
  const opener = r.pick(ANSWER_OPENERS);
  if (!short && r.next() < 0.35) {
    const head = sentences.slice(0, 2).join(' ');
    const list = sentences.slice(2).map((s, i) => `${i + 1}. ${s}`);
    return [opener, head, ...list].join('\n');
  }
  return `${opener} ${sentences.join(' ')}`;
}

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  /** Index of the plant it carries, for evidence. */
  plant?: { episode: number; plant: number };
}

/** Words of a text for the assistant to talk about (its content words, at least 4 letters). */
export function echo(text: string, topic: Topic): string[] {
  const w = contentTerms(text).length > 0 ? text.toLowerCase().match(/[a-z][a-z-]{3,}/g) ?? [] : [];
  const keep = w.filter((x) => contentTerms(x).length > 0);
  return [...new Set([...keep, ...topic.words.slice(0, 4)])];
}

/** A session on a topic: 2-4 exchanges; `plant` is said at a random exchange. */
function session(r: Rng, topic: Topic, plant?: { p: Plant; episode: number; index: number }, trapWords?: readonly string[], short = false): Turn[] {
  const exchanges = 2 + r.int(3);
  const at = r.int(exchanges);
  const out: Turn[] = [];
  for (let i = 0; i < exchanges; i++) {
    const words = trapWords !== undefined ? [...trapWords, ...topic.words.slice(0, 3)] : topic.words;
    let user = i === 0 ? fill(r.pick(topic.asks), { w: r.pick(words) }) : fill(r.pick(FOLLOW_UPS), { a: r.pick(words), b: r.pick(words), c: r.pick(words) });
    if (trapWords !== undefined && i === 0) user = `${user} I keep thinking about the ${trapWords.slice(0, 2).join(' and ')}.`;
    if (plant !== undefined && i === at && plant.p.role === 'user') {
      out.push({ role: 'user', text: r.next() < 0.5 ? plant.p.text : `${user} ${plant.p.text}`, plant: { episode: plant.episode, plant: plant.index } });
      out.push({ role: 'assistant', text: answer(r, echo(plant.p.text, topic), [], short) });
      continue;
    }
    if (plant !== undefined && i === at && plant.p.role === 'assistant') {
      out.push({ role: 'user', text: plant.p.ask ?? user });
      out.push({ role: 'assistant', text: answer(r, echo(plant.p.ask ?? '', topic), [plant.p.text], short), plant: { episode: plant.episode, plant: plant.index } });
      continue;
    }
    out.push({ role: 'user', text: user });
    out.push({ role: 'assistant', text: answer(r, words, [], short) });
  }
  return out;
}

/** Content words of a question (what a trap session repeats). */
export function questionWords(q: string): string[] {
  return [...new Set((q.toLowerCase().match(/[a-z][a-z-]{2,}/g) ?? []).filter((w) => contentTerms(w).length > 0))];
}

/**
 * Generates one history from a seed: `perKind` questions of every kind of {@link CHAT_KINDS},
 * their plant sessions, one trap session per question and `fillers` unrelated sessions, shuffled
 * under the plants' placement constraints, one session every 1-4 days from a seed-chosen start
 * in 2023. Turn ids are `S<session>:<turn>` (1-based); the question is asked after the last session.
 */
export function generateHistory(seed: number, o: HistoryOptions = {}): ChatHistory {
  const r = rng(seed);
  const eps: Episode[] = o.episodes !== undefined ? o.episodes(r) : episodes(r, o.perKind ?? 3);
  type Slot = { key: number; make: () => Turn[] };
  const slots: Slot[] = [];
  eps.forEach((e, ei) =>
    e.plants.forEach((p, pi) => {
      const key = p.at[0] + r.next() * (p.at[1] - p.at[0]);
      slots.push({ key, make: () => session(r, topicOf(p.topic), { p, episode: ei, index: pi }, undefined, o.short) });
    }),
  );
  eps.forEach((e) => {
    const q = typeof e.question === 'string' ? e.question : e.question(0);
    const words = questionWords(q);
    slots.push({ key: r.next(), make: () => session(r, topicOf(e.trapTopic), undefined, words.length > 0 ? words : undefined, o.short) });
  });
  for (let i = 0; i < (o.fillers ?? 22); i++) slots.push({ key: r.next(), make: () => session(r, r.pick(TOPICS), undefined, undefined, o.short) });
  slots.sort((a, b) => a.key - b.key);

  const observations: Observation[] = [];
  const where = new Map<string, { turnId: string; session: number }>(); // "<episode>:<plant>" → turn
  let day = Date.UTC(2023, r.int(6), 1 + r.int(27), 9 + r.int(9), r.int(60));
  slots.forEach((slot, si) => {
    day += (1 + r.int(4)) * 86_400_000;
    const turns = slot.make();
    turns.forEach((t, ti) => {
      const turnId = `S${si + 1}:${ti + 1}`;
      observations.push({ text: t.text, speaker: t.role, sessionId: `session_${si + 1}`, turnId, observedAt: new Date(day + ti * 60_000).toISOString(), source: `chats:${seed}` });
      if (t.plant) where.set(`${t.plant.episode}:${t.plant.plant}`, { turnId, session: si });
    });
  });

  const questions: ChatQuestion[] = eps.map((e, ei) => {
    const placed = e.plants.map((_, pi) => where.get(`${ei}:${pi}`) as { turnId: string; session: number });
    const first = placed.length > 1 && (placed[1] as { session: number }).session < (placed[0] as { session: number }).session ? 1 : 0;
    const question = typeof e.question === 'string' ? e.question : e.question(first);
    const evidence = placed.filter((_, pi) => e.plants[pi]?.evidence !== false).map((p) => p.turnId);
    const outdated = placed.filter((_, pi) => e.plants[pi]?.evidence === false).map((p) => p.turnId);
    return { id: `chats-${seed}#${ei}`, question, answer: '', category: kindCategory(e.kind), evidence, brokenEvidence: false, ...(outdated.length > 0 ? { outdated } : {}) };
  });
  return { sampleId: o.short === true ? `chats-${seed}-short` : `chats-${seed}`, speakers: ['user', 'assistant'], observations, questions, seed };
}

/** Seeds of the dev part (tune on these only). */
export const CHATS_DEV_SEEDS: readonly number[] = Object.freeze([11, 12, 13, 14, 15, 16]);
/**
 * Seeds of the dev part's short-reply histories (every turn short, role speakers: the case a
 * trigger on turn length misses), generated with `{ short: true }`; tune on these too.
 */
export const CHATS_DEV_SHORT_SEEDS: readonly number[] = Object.freeze([17, 18]);
/** Seeds of the held-out part (report only). */
export const CHATS_HELDOUT_SEEDS: readonly number[] = Object.freeze([101, 102, 103, 104, 105, 106, 107, 108]);
