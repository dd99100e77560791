/**
 * The order bench's histories (issue 24, review finding 5): questions about what held before or
 * after another fact ("Where did I live before Berlin?", "Which car did Maya have after the
 * Volvo?"). Each history follows one or two people through chains of states of four kinds (home
 * city, employer, car, instrument), each state said once, in its own dated turn, in words that
 * mostly differ from the question's ("I moved to Lisbon" / "Where did I live …?"), among filler
 * sessions. Two styles:
 *
 * - `first`: a user/assistant chat (speakers `user` and `assistant`), questions in the first
 *   person; the assistant congratulates on some changes, naming the new state (an assistant turn
 *   is never the answer);
 * - `third`: two people talking (LoCoMo style), each with chains of their own (the other's are
 *   distractors of the same kind), questions in the third person naming the holder.
 *
 * Evidence of a question: the turn that states the state right before (after) the anchor's.
 * Deterministic (seeded), no data.
 *
 * @module
 */
import type { LocomoQuestion } from '../../src/formats/locomo.js';
import type { Observation } from '../../src/types.js';
import { rng, type Rng } from '../chats/episodes.js';
import { TOPICS } from '../chats/topics.js';

/** A kind of state: its values, how a change is said, and how the questions ask. */
interface StateKind {
  name: 'home' | 'job' | 'car' | 'instrument';
  values: readonly string[];
  /** Statements of a change to `{v}` (first person, said by the holder). */
  says: readonly string[];
  /** The anchor phrase of value `{v}` in a question. */
  anchor: readonly string[];
  /** Question frames; `{s}` subject (I / Maya), `{p}` possessive, `{aux}` "did". */
  before: readonly string[];
  after: readonly string[];
}

const KINDS: readonly StateKind[] = [
  {
    name: 'home',
    values: ['Lisbon', 'Berlin', 'Porto', 'Madrid', 'Vienna', 'Oslo', 'Dublin', 'Prague', 'Seattle', 'Austin', 'Montreal', 'Lyon'],
    says: ['I moved to {v} last week, still surrounded by boxes.', 'We finally settled into a flat in {v}.', 'Just signed the lease on an apartment in {v}!', 'The movers dropped everything off, we relocated to {v} on Saturday.', 'First night in our new place in {v}, the street is so quiet.'],
    anchor: ['{v}'],
    before: ['Where did {s} live before {a}?', 'Which city did {s} live in before {a}?'],
    after: ['Where did {s} live after {a}?', 'Which city did {s} move to after {a}?'],
  },
  {
    name: 'job',
    values: ['Northloop', 'Brightwave', 'Kestrel Labs', 'Ardentia', 'Polaris Health', 'Quillmark', 'Tidepool', 'Ironbark'],
    says: ['I joined {v} as a data analyst this week.', 'Started my new job at {v} today, the onboarding is intense.', 'I accepted the offer from {v}, my first day is Monday.', 'Signed my contract with {v} this morning.', 'My badge for the {v} office finally arrived, first week done.'],
    anchor: ['{v}', '{s2} joined {v}'],
    before: ['Where did {s} work before {a}?', 'Which company did {s} work for before {a}?'],
    after: ['Where did {s} work after {a}?', 'Which company did {s} work for after {a}?'],
  },
  {
    name: 'car',
    values: ['Tesla', 'Prius', 'Volvo', 'Golf', 'Civic', 'Outback', 'Jeep', 'Miata'],
    says: ['We bought a {v} this weekend.', 'Picked up our new {v} from the dealer today.', 'Traded in the old car for a {v}.', 'The {v} arrived today, we took it for a spin along the coast.', 'Finally got the keys to the {v}, it drives like a dream.'],
    anchor: ['the {v}'],
    before: ['Which car did {s} have before {a}?', 'What car did {s} drive before {a}?'],
    after: ['Which car did {s} get after {a}?', 'What car did {s} drive after {a}?'],
  },
  {
    name: 'instrument',
    values: ['cello', 'piano', 'guitar', 'drums', 'violin', 'saxophone', 'banjo', 'clarinet'],
    says: ['I started taking {v} lessons on Tuesdays.', 'Bought a second-hand {v} and booked a teacher.', 'Signed up for a beginner {v} class at the community centre.', 'My {v} teacher says my posture is getting better.'],
    anchor: ['the {v}'],
    before: ['What instrument did {s} play before {a}?', 'Which instrument did {s} learn before {a}?'],
    after: ['What instrument did {s} play after {a}?', 'Which instrument did {s} take up after {a}?'],
  },
];

/** Small talk of the two-person style (no state in it). */
const CHAT = [
  'How was your weekend? Mine was mostly errands and a long walk.',
  'I tried a new recipe yesterday, a lemon pasta, it came out great.',
  'Work has been busy, lots of meetings this month.',
  'Did you see the game last night? What a finish.',
  'I have been reading a mystery novel before bed, it is gripping.',
  'The weather turned cold so fast this week.',
  'My sister visited and we went to a museum downtown.',
  'I started going to the gym again, my legs are sore.',
  'We watched a documentary about octopuses, fascinating animals.',
  'I am thinking about planting herbs on the balcony.',
  'That sounds lovely, tell me more about it!',
  'Haha, same here, it has been a long week.',
  'I baked bread for the first time, it was a bit dense.',
  'We went hiking by the lake, the views were amazing.',
];

/** Replies of the assistant to a change (they name the new state; never evidence). */
const CONGRATS = ['Congratulations on {v}! Here are a few tips to settle in smoothly.', 'That is exciting news about {v}. Let me know if you want a checklist for the first weeks.', 'Great choice with {v}! Many people find the first month is the hardest part.'];

function fill(t: string, x: Record<string, string>): string {
  return t.replace(/\{(\w+)\}/g, (_, k: string) => x[k] ?? '');
}

/** A generated history of the order bench (a `LocomoConversation` with its seed and style). */
export interface OrderHistory {
  sampleId: string;
  speakers: [string, string];
  observations: Observation[];
  questions: LocomoQuestion[];
  seed: number;
  style: 'first' | 'third';
}

/** Question categories of the order bench: 1 before, 2 after. */
export const ORDER_CATEGORIES = ['before', 'after'] as const;

const PEOPLE: ReadonlyArray<[string, string]> = [['Maya', 'Theo'], ['Caroline', 'Melanie'], ['Jonas', 'Priya'], ['Elena', 'Marcus']];

/**
 * One history from a seed: `first` or `third` style (see the module comment), every kind of
 * state a chain of 4 values per holder, one change every 20-80 days in shuffled order across
 * kinds, with 1-3 filler sessions between changes; the questions ask, per holder and kind, two
 * `before` (of the 2nd-4th value) and one `after` (of the 1st-3rd).
 */
export function generateOrderHistory(seed: number, style: 'first' | 'third'): OrderHistory {
  const r: Rng = rng(seed * 7919 + (style === 'first' ? 1 : 2));
  const pair = r.pick(PEOPLE);
  const holders = style === 'first' ? ['user'] : [...pair];
  type Change = { holder: string; kind: StateKind; i: number; value: string; turnId?: string };
  const chains = new Map<string, Change[]>();
  const events: Change[] = [];
  const taken = new Set<string>(); // each value held by one holder only: a question's anchor is unambiguous
  for (const holder of holders) {
    for (const kind of KINDS) {
      const values = r.some(kind.values.filter((v) => !taken.has(v)), 4);
      values.forEach((v) => taken.add(v));
      const chain = values.map((value, i) => ({ holder, kind, i, value }));
      chains.set(`${holder}/${kind.name}`, chain);
      events.push(...chain);
    }
  }
  // order: each chain in its own order, chains interleaved at random
  const queues = [...chains.values()].map((c) => [...c]);
  const ordered: Change[] = [];
  while (queues.some((q) => q.length > 0)) {
    const live = queues.filter((q) => q.length > 0);
    ordered.push((r.pick(live).shift() as Change));
  }
  const observations: Observation[] = [];
  let day = Date.UTC(2021, r.int(12), 1 + r.int(27), 9);
  let s = 0;
  const other = (who: string): string => (style === 'first' ? (who === 'user' ? 'assistant' : 'user') : who === pair[0] ? pair[1] : pair[0]);
  const push = (speaker: string, text: string): string => {
    const n = observations.filter((o) => o.sessionId === `session_${s}`).length;
    const turnId = `S${s}:${n + 1}`;
    observations.push({ text, speaker, sessionId: `session_${s}`, turnId, observedAt: new Date(day + n * 60_000).toISOString(), source: `order:${seed}:${style}` });
    return turnId;
  };
  const filler = (): void => {
    s++;
    day += (1 + r.int(6)) * 86_400_000;
    if (style === 'first') {
      const t = r.pick(TOPICS);
      for (let i = 0; i < 2; i++) {
        push('user', fill(r.pick(t.asks), { w: r.pick(t.words) }));
        push('assistant', `Good question. ${r.pick(t.words)} and ${r.pick(t.words)} are worth a look; start small and keep at it.`);
      }
    } else {
      for (let i = 0; i < 4; i++) push(pair[i % 2] as string, r.pick(CHAT));
    }
  };
  for (const ch of ordered) {
    for (let k = 1 + r.int(3); k > 0; k--) filler();
    s++;
    day += (20 + r.int(60)) * 86_400_000;
    const opener = style === 'first' ? 'user' : other(ch.holder);
    if (style === 'third') push(opener, r.pick(CHAT));
    ch.turnId = push(ch.holder, fill(r.pick(ch.kind.says), { v: ch.value }));
    push(other(ch.holder), style === 'first' ? fill(r.pick(CONGRATS), { v: ch.value }) : r.pick(['Wow, big news!', 'That is great, congrats!', 'Oh nice, how does it feel?']));
  }
  for (let k = 2; k > 0; k--) filler();
  const questions: LocomoQuestion[] = [];
  const subject = (h: string): { s: string; s2: string } => (style === 'first' ? { s: h === 'user' ? 'I' : 'you', s2: 'I' } : { s: h, s2: h });
  for (const [key, chain] of chains) {
    const holder = key.split('/')[0] as string;
    const kind = (chain[0] as Change).kind;
    const asks: Array<['before' | 'after', number]> = [...r.some([1, 2, 3], 2).map((i): ['before', number] => ['before', i]), ['after', r.int(3)]];
    for (const [rel, i] of asks) {
      const anchorOf = chain[i] as Change;
      const answer = chain[rel === 'before' ? i - 1 : i + 1] as Change;
      const a = fill(r.pick(kind.anchor), { v: anchorOf.value, ...subject(holder) });
      const question = fill(r.pick(rel === 'before' ? kind.before : kind.after), { a, ...subject(holder) });
      questions.push({ id: `order-${seed}-${style}#${questions.length}`, question, answer: answer.value, category: rel === 'before' ? 1 : 2, evidence: [answer.turnId as string], brokenEvidence: false });
    }
  }
  return { sampleId: `order-${seed}-${style}`, speakers: style === 'first' ? ['user', 'assistant'] : [pair[0], pair[1]], observations, questions, seed, style };
}

/** Seeds of the dev part (tune on these only). */
export const ORDER_DEV_SEEDS: readonly number[] = Object.freeze([1, 2, 3]);
/** Seeds of the held-out part (report only). */
export const ORDER_HELDOUT_SEEDS: readonly number[] = Object.freeze([101, 102, 103]);
