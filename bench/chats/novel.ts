/**
 * Generator of the chats bench's **novel** part (issue 24): user/assistant histories whose
 * facts, questions (`novel-episodes.ts`), user requests, follow-ups and assistant sentences are
 * all written anew (none of `episodes.ts` / `topics.ts`'s templates; only the topic word lists
 * are shared), in two styles:
 *
 * - `long`: assistant answers of 120-350 words; users also write long messages (a fact is
 *   buried mid-way in 60-170 words of chatter in about half the user plants, and some other
 *   user messages are long too).
 * - `short`: every turn short (assistant replies of one to three sentences, ≤ 60 words), so a
 *   trigger on turn length alone never fires.
 *
 * In both the assistant's reply after a user plant often repeats the fact back (a restatement by
 * the other role), and trap sessions reuse the question's words. Speakers are roles only.
 * Reporting only: the novel part is never used to choose constants. Deterministic for a seed.
 *
 * @module
 */
import type { Observation } from '../../src/types.js';
import { rng, type Rng } from './episodes.js';
import type { ChatHistory, ChatQuestion } from './generate.js';
import { kindCategory } from './generate.js';
import { novelEpisodes, type NovelEpisode, type NovelPlant } from './novel-episodes.js';
import { TOPICS, type Topic } from './topics.js';

/** Style of a novel history. */
export type NovelStyle = 'long' | 'short';

/** Seeds of the novel part and their styles (reported only, never tuned on). */
export const CHATS_NOVEL_SEEDS: readonly number[] = Object.freeze([201, 202, 203, 204, 205, 206, 207, 208]);

/** The style of a novel seed: odd seeds long, even seeds short. */
export function novelStyle(seed: number): NovelStyle {
  return seed % 2 === 1 ? 'long' : 'short';
}

const ASKS: readonly string[] = [
  'Quick one: what do you think about {w}?',
  'I have been going back and forth on {w}. Thoughts?',
  'Could you walk me through {w} step by step?',
  'Is there a sensible way to approach {w} on a tight schedule?',
  'What would you do about {w} in my shoes?',
  'Give me the short version on {w}, please.',
];

const FOLLOW: readonly string[] = [
  'Right. And how does the {a} fit into that?',
  'Hmm, what if the {b} goes wrong?',
  'OK, could you shorten that to three bullet points?',
  'Sounds good. Is the {a} really worth the effort?',
  'Thanks! Would you change anything for a beginner?',
  'And what about doing the {c} on weekends only?',
];

/** Sentences of long assistant answers (new templates): {a},{b},{c} topic words, {x},{y} other topics. */
const SENTENCES: readonly string[] = [
  'The honest answer is that the {a} tends to reward patience far more than clever tricks.',
  'Think of the {b} as the foundation, and treat the {c} as something you layer on later.',
  'A surprising number of people skip the {a} entirely, and then wonder why the {b} never settles.',
  'When in doubt, write down what you expect from the {a} and check it again after a fortnight.',
  'There is a parallel with {x} here, where the boring basics end up doing most of the work.',
  'If money is tight, prioritise the {b} and borrow or rent whatever you need for the {c}.',
  'Small experiments beat grand plans, so try one tweak to the {a} at a time.',
  'It is easy to overthink the {c}; most of the benefit comes from simply showing up.',
  'Some people like pairing the {a} with {y}, because one habit reminds them of the other.',
  'Be wary of advice that promises quick results with the {b}, since real progress is gradual.',
  'A friend or a local group can make the {a} far more enjoyable than going it alone.',
  'Seasonal changes matter too, so revisit the {c} when the weather turns.',
  'You can also keep a tiny log of the {a}, which makes patterns obvious after a month.',
  'If something about the {b} hurts or worries you, pause and ask someone qualified.',
  'The classic trap is buying gear for the {a} before knowing what you actually need.',
  'Over time the {c} becomes second nature, much like {x} did for many of us.',
  'Make the {a} visible, for instance with a note on the fridge, so you remember it.',
  'Do not be discouraged by a bad week with the {b}; averages matter more than single days.',
  'Plenty of guides overcomplicate the {a}, and a plain approach usually holds up better.',
  'Happy to sketch a weekly plan around the {a} and the {b} whenever you want one.',
];

const OPENERS: readonly string[] = ['Good question, let me think it through.', 'Here is how I would look at it.', 'Sure thing.', 'Let me break this down.', 'Nice, this is a fun one.', 'Okay, a few pointers.'];

/** Short assistant replies of the `short` style. */
const SHORT_REPLIES: readonly string[] = [
  'Keep the {a} simple and check back in a week.',
  'I would start with the {a}, then see about the {b}.',
  'Try a small change to the {b} first.',
  'Honestly the {c} matters less than consistency.',
  'Sounds like a plan. Maybe ask a friend about the {a} too.',
  'Go for the cheaper {b}, it is usually enough.',
  'That works. Just watch out for the {c}.',
];

/** Chatter of long user messages (a fact is buried among these). */
const CHATTER: readonly string[] = [
  'Work has been chaotic this week and I barely had time to breathe.',
  'The weather keeps flipping between sunshine and drizzle, so my plans keep changing.',
  'I also promised myself I would be better about answering emails on time.',
  'Anyway, I was thinking about the {a} on the way home and got a bit carried away.',
  'My neighbour keeps asking me about the {b}, which is funny because I know nothing about it.',
  'On another note, the kitchen is a mess and I need a better system for the {c}.',
  'Sorry for rambling, it has been a long day and my head is everywhere.',
  'I watched a video about {x} last night, which was oddly relaxing.',
  'Also, the train was delayed again, so I had plenty of time to think.',
  'I keep meaning to sort out the {a} but something else always comes up.',
];

function fill(t: string, s: Record<string, string>): string {
  return t.replace(/\{(\w)\}/g, (_, k: string) => s[k] ?? k);
}

const OTHER_WORDS = TOPICS.flatMap((t) => t.words);

function slotsOf(r: Rng, words: readonly string[]): Record<string, string> {
  return { a: r.pick(words), b: r.pick(words), c: r.pick(words), x: r.pick(OTHER_WORDS), y: r.pick(OTHER_WORDS), w: r.pick(words) };
}

/** A long assistant answer: opener, 8-18 sentences (in a list 30 % of the time), `inject` placed inside. */
function longAnswer(r: Rng, words: readonly string[], lead: string | undefined, inject: readonly string[]): string {
  const n = 8 + r.int(11);
  const sentences = r.some(SENTENCES, Math.min(n, SENTENCES.length)).map((s) => fill(s, slotsOf(r, words)));
  for (const s of inject) sentences.splice(2 + r.int(Math.max(1, sentences.length - 3)), 0, s);
  const opener = lead ?? r.pick(OPENERS);
  if (r.next() < 0.3) return [opener, ...sentences.map((s) => `- ${s}`)].join('\n');
  return `${opener} ${sentences.join(' ')}`;
}

/** A short assistant reply (≤ 3 sentences). */
function shortAnswer(r: Rng, words: readonly string[], lead: string | undefined, inject: readonly string[]): string {
  const parts = [lead ?? '', ...inject, fill(r.pick(SHORT_REPLIES), slotsOf(r, words))].filter((s) => s.length > 0);
  return parts.join(' ');
}

/** A long user message: 5-12 chatter sentences with `fact` placed mid-way. */
function longUser(r: Rng, words: readonly string[], fact: string | undefined): string {
  const n = 5 + r.int(8);
  const s = r.some(CHATTER, Math.min(n, CHATTER.length)).map((x) => fill(x, slotsOf(r, words)));
  if (fact !== undefined) s.splice(1 + r.int(Math.max(1, s.length - 1)), 0, fact);
  return s.join(' ');
}

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  plant?: { episode: number; plant: number };
}

function wordsOf(text: string): string[] {
  return [...new Set(text.toLowerCase().match(/[a-z][a-z-]{3,}/g) ?? [])];
}

/** A session of 2-4 exchanges on a topic; `plant` is said at one of them. */
function session(r: Rng, style: NovelStyle, topic: Topic, plant?: { p: NovelPlant; episode: number; index: number }, trap?: readonly string[]): Turn[] {
  const exchanges = 2 + r.int(3);
  const at = r.int(exchanges);
  const out: Turn[] = [];
  const words = trap !== undefined ? [...trap, ...topic.words.slice(0, 3)] : topic.words;
  const reply = (lead: string | undefined, inject: readonly string[], w: readonly string[]): string => (style === 'long' ? longAnswer(r, w, lead, inject) : shortAnswer(r, w, lead, inject));
  for (let i = 0; i < exchanges; i++) {
    let user = fill(i === 0 ? r.pick(ASKS) : r.pick(FOLLOW), slotsOf(r, words));
    if (trap !== undefined && i === 0) user = `${user} I was wondering about ${trap.slice(0, 3).join(', ')}.`;
    if (plant !== undefined && i === at && plant.p.role === 'user') {
      const buried = style === 'long' && r.next() < 0.6;
      const text = buried ? longUser(r, topic.words, plant.p.text) : r.next() < 0.5 ? plant.p.text : `${plant.p.text} ${user}`;
      out.push({ role: 'user', text, plant: { episode: plant.episode, plant: plant.index } });
      const lead = plant.p.restate !== undefined && r.next() < 0.7 ? plant.p.restate : undefined;
      out.push({ role: 'assistant', text: reply(lead, [], [...wordsOf(plant.p.text), ...topic.words.slice(0, 4)]) });
      continue;
    }
    if (plant !== undefined && i === at && plant.p.role === 'assistant') {
      out.push({ role: 'user', text: plant.p.ask ?? user });
      out.push({ role: 'assistant', text: reply(undefined, [plant.p.text], [...wordsOf(plant.p.ask ?? ''), ...topic.words.slice(0, 4)]), plant: { episode: plant.episode, plant: plant.index } });
      continue;
    }
    // Users write long messages too (long style): about one plain exchange in six.
    out.push({ role: 'user', text: style === 'long' && r.next() < 0.17 ? longUser(r, words, user) : user });
    out.push({ role: 'assistant', text: reply(undefined, [], words) });
  }
  return out;
}

const TOPIC = new Map(TOPICS.map((t) => [t.name, t]));
function topicOf(name: string): Topic {
  const t = TOPIC.get(name);
  if (t === undefined) throw new Error(`chats novel: unknown topic ${name}`);
  return t;
}

function questionWords(q: string): string[] {
  return [...new Set((q.toLowerCase().match(/[a-z][a-z-]{3,}/g) ?? []).filter((w) => !['what', 'which', 'remind', 'about', 'have', 'there', 'were', 'tell', 'does', 'could'].includes(w)))];
}

/**
 * One novel history (three questions of every kind, their plant sessions, one trap session per
 * question and 24 unrelated sessions, one session every 1-5 days from a seed-chosen day of 2022),
 * in the seed's {@link novelStyle}. Turn ids `S<session>:<turn>`; question `category` = 1 + the
 * kind's index in `CHAT_KINDS`.
 */
export function generateNovelHistory(seed: number, style: NovelStyle = novelStyle(seed)): ChatHistory {
  const r = rng(seed * 7919 + 17);
  const eps: NovelEpisode[] = novelEpisodes(r, 3);
  type Slot = { key: number; make: () => Turn[] };
  const slots: Slot[] = [];
  eps.forEach((e, ei) =>
    e.plants.forEach((p, pi) => {
      const key = p.at[0] + r.next() * (p.at[1] - p.at[0]);
      slots.push({ key, make: () => session(r, style, topicOf(p.topic), { p, episode: ei, index: pi }) });
    }),
  );
  eps.forEach((e) => {
    const words = questionWords(typeof e.question === 'string' ? e.question : e.question(0));
    slots.push({ key: r.next(), make: () => session(r, style, topicOf(e.trapTopic), undefined, words.length > 0 ? words : undefined) });
  });
  for (let i = 0; i < 24; i++) slots.push({ key: r.next(), make: () => session(r, style, r.pick(TOPICS)) });
  slots.sort((a, b) => a.key - b.key);

  const observations: Observation[] = [];
  const where = new Map<string, { turnId: string; session: number }>();
  let day = Date.UTC(2022, r.int(8), 1 + r.int(27), 8 + r.int(12), r.int(60));
  slots.forEach((slot, si) => {
    day += (1 + r.int(5)) * 86_400_000;
    slot.make().forEach((t, ti) => {
      const turnId = `S${si + 1}:${ti + 1}`;
      observations.push({ text: t.text, speaker: t.role, sessionId: `session_${si + 1}`, turnId, observedAt: new Date(day + ti * 90_000).toISOString(), source: `chats-novel:${seed}` });
      if (t.plant) where.set(`${t.plant.episode}:${t.plant.plant}`, { turnId, session: si });
    });
  });
  const questions: ChatQuestion[] = eps.map((e, ei) => {
    const placed = e.plants.map((_, pi) => where.get(`${ei}:${pi}`) as { turnId: string; session: number });
    const first = placed.length > 1 && (placed[1] as { session: number }).session < (placed[0] as { session: number }).session ? 1 : 0;
    const question = typeof e.question === 'string' ? e.question : e.question(first);
    const evidence = placed.filter((_, pi) => e.plants[pi]?.evidence !== false).map((p) => p.turnId);
    const outdated = placed.filter((_, pi) => e.plants[pi]?.evidence === false).map((p) => p.turnId);
    return { id: `chats-novel-${seed}#${ei}`, question, answer: '', category: kindCategory(e.kind), evidence, brokenEvidence: false, ...(outdated.length > 0 ? { outdated } : {}) };
  });
  return { sampleId: `chats-novel-${seed}-${style}`, speakers: ['user', 'assistant'], observations, questions, seed };
}
