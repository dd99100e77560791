/**
 * The order bench's second held-out part, `kinds` (issue 24, hostile review of cbb897b): the
 * kinds of before/after question the first generator (generate.ts) does not make, written from
 * the review's scripts before the step was changed for them, and never tuned on:
 *
 * - `same`: the answer is in the anchor's own message ("Our dog Biscuit passed away … we adopted
 *   Pepper", "I sold the Fiesta … and bought a Leaf", "I finished the pottery course … next I
 *   signed up for Spanish"): the evidence is the anchor's turn itself;
 * - `chain`: a chain of three homes told in long, chatty messages that also speak of other
 *   things; "before" the third asks the second (not the first), "after" the first asks the second;
 * - `event`: "after <event>" where the event is not a state ("my cousin's wedding"): the answer is
 *   the next thing the holder started, its turn naming the event ("The week after the wedding I
 *   started …") or not; a later start of something else is a distractor.
 *
 * Histories alternate the two styles of generate.ts (first person chat, two people talking).
 * Deterministic (seeded), no data.
 *
 * @module
 */
import type { LocomoQuestion } from '../../src/formats/locomo.js';
import type { Observation } from '../../src/types.js';
import { rng } from '../chats/episodes.js';
import { TOPICS } from '../chats/topics.js';
import type { OrderHistory } from './generate.js';

/** Seeds of the `kinds` held-out part (report only, never tune on them). */
export const ORDER_KINDS_SEEDS: readonly number[] = Object.freeze([201, 202, 203, 204]);

const CITIES = ['Leeds', 'Manchester', 'Bristol', 'Turin', 'Milan', 'Zurich', 'Ghent', 'Utrecht', 'Bergen', 'Krakow', 'Malmo', 'Graz'];
const CARS = ['Fiesta', 'Corolla', 'Polo', 'Clio', 'Mustang', 'Yaris', 'Panda', 'Giulietta'];
const PETS = ['Biscuit', 'Pepper', 'Luna', 'Milo', 'Rusty', 'Olive', 'Bruno', 'Daisy'];
const OLD_COURSES = ['pottery', 'photography', 'woodworking', 'watercolour'];
const NEW_COURSES = ['Spanish', 'Italian', 'Japanese', 'salsa'];
const EVENTS = ['wedding', 'graduation', 'marathon', 'reunion'];
const ACTIVITIES = ['cooking class', 'hiking club', 'yoga course', 'book club', 'choir', 'climbing gym', 'chess club', 'swimming squad'];

const HOME_FIRST = [
  "Happy new year! Honestly the holidays were chaotic, but the big news is that I finally settled into my flat in {v}, it's tiny but the neighbourhood has this great little bakery on the corner and I walk to the office.",
  "Hey! So January has been wild. I'm still renting that little studio in {v}, the heating is broken again, and the landlord never answers his phone.",
];
const HOME_NEXT = [
  "Big life update: I moved out to {v} to be closer to the new office, the place has a balcony and I'm growing tomatoes on it.",
  "Another move, can you believe it: the company opened an office there and I relocated to {v} this month, I'm sharing a house with two other people near the harbour.",
  "Finally! I moved into a proper flat in {v}, two bedrooms, and it's ten minutes from the office. Still unpacking boxes.",
  "Big news, the company sent me away for a two-year project, so I moved to {v} last week, everything is so expensive here.",
];
const CAR_SWAP = ["No, I sold the {o} in August and bought a second-hand {n}, parking is a pain but it's so quiet.", "I traded the old {o} for a used {n} last weekend, the {o} had done two hundred thousand kilometres."];
const PET_SWAP = ["Our dog {o} passed away in June, it was so sad. We adopted a rescue greyhound called {n} last week, she is very shy but sweet.", "We lost {o} in the spring, our old dog, after fourteen years. A few weeks ago we brought home a puppy called {n} and she chews everything."];
const COURSE_SWAP = ["Yes! I finished the {o} course in early May and made a wonky blue bowl, my mum loves it. Next I signed up for a {n} evening class.", "I wrapped up the {o} course last month, the last session was great. Now I've signed up for {n} lessons on Wednesdays."];
const EVENT_SAYS = ["Went to my cousin's {e} in Naples, the food was incredible and I danced until 3am.", "The {e} was last Saturday, what a day, everyone was there and it went on all night."];
const START_NAMED = ['The week after the {e} I started a {a} on Thursday evenings, I love it.', 'Right after the {e} I joined a {a}, it meets every Tuesday.'];
const START_PLAIN = ['I started a {a} on Thursday evenings, the group is really friendly.', 'I joined a {a} near work, we meet every Tuesday after work.'];
const CHAT = ['How was your weekend? Mine was mostly errands and a long walk.', 'Work has been busy, lots of meetings this month.', 'The weather turned cold so fast this week.', 'That sounds lovely, tell me more about it!', 'Haha, same here, it has been a long week.', 'We went hiking by the lake, the views were amazing.'];

const fill = (t: string, x: Record<string, string>): string => t.replace(/\{(\w+)\}/g, (_, k: string) => x[k] ?? '');

/**
 * One `kinds` history from a seed: per holder (one in the first person chat, two in the two-person
 * style) a chain of three homes, one car swap, one pet swap, one course swap and an event followed
 * by two starts; each told in its own dated turn among filler sessions, in shuffled order across
 * episodes (a chain keeps its order). Questions: chain before the 3rd and after the 1st; each swap
 * asked once (evidence: the swap's own turn); the event asked once (evidence: the first start after it).
 */
export function generateOrderKindsHistory(seed: number): OrderHistory {
  const r = rng(seed * 104_729 + 17);
  const style: 'first' | 'third' = seed % 2 === 0 ? 'first' : 'third';
  const pair = r.pick([['Priya', 'Sam'], ['Marco', 'Julia'], ['Ines', 'Tom']] as Array<[string, string]>);
  const holders = style === 'first' ? ['user'] : [...pair];
  const other = (who: string): string => (style === 'first' ? (who === 'user' ? 'assistant' : 'user') : who === pair[0] ? pair[1] : pair[0]);
  type Step = { holder: string; text: string; key?: string; gapDays?: number };
  const cities = r.some(CITIES, 3 * holders.length);
  const cars = r.some(CARS, 2 * holders.length);
  const pets = r.some(PETS, 2 * holders.length);
  const olds = r.some(OLD_COURSES, holders.length);
  const news = r.some(NEW_COURSES, holders.length);
  const events = r.some(EVENTS, holders.length);
  const acts = r.some(ACTIVITIES, 2 * holders.length);
  const episodes: Step[][] = [];
  const asks: Array<{ holder: string; q: string; rel: 'before' | 'after'; ev: string; answer: string; kind: 'same' | 'chain' | 'event' }> = [];
  holders.forEach((h, i) => {
    const [c0, c1, c2] = cities.slice(3 * i, 3 * i + 3) as [string, string, string];
    const [n0, n1] = r.some(HOME_NEXT, 2) as [string, string];
    episodes.push([{ holder: h, text: fill(r.pick(HOME_FIRST), { v: c0 }), key: `${h}/home0` }], [{ holder: h, text: fill(n0, { v: c1 }), key: `${h}/home1` }], [{ holder: h, text: fill(n1, { v: c2 }), key: `${h}/home2` }]);
    const [co, cn] = cars.slice(2 * i, 2 * i + 2) as [string, string];
    const [po, pn] = pets.slice(2 * i, 2 * i + 2) as [string, string];
    const [oc, nc] = [olds[i] as string, news[i] as string];
    episodes.push([{ holder: h, text: fill(r.pick(CAR_SWAP), { o: co, n: cn }), key: `${h}/car` }]);
    episodes.push([{ holder: h, text: fill(r.pick(PET_SWAP), { o: po, n: pn }), key: `${h}/pet` }]);
    episodes.push([{ holder: h, text: fill(r.pick(COURSE_SWAP), { o: oc, n: nc }), key: `${h}/course` }]);
    const e = events[i] as string;
    const named = r.int(2) === 0;
    episodes.push([
      { holder: h, text: fill(r.pick(EVENT_SAYS), { e }), key: `${h}/event` },
      { holder: h, text: fill(r.pick(named ? START_NAMED : START_PLAIN), { e, a: acts[2 * i] as string }), key: `${h}/start0`, gapDays: 7 },
      { holder: h, text: fill(r.pick(START_PLAIN), { a: acts[2 * i + 1] as string }), key: `${h}/start1`, gapDays: 60 },
    ]);
    const s = style === 'first' ? 'I' : h;
    asks.push(
      { holder: h, q: `Where did ${s} live before ${c2}?`, rel: 'before', ev: `${h}/home1`, answer: c1, kind: 'chain' },
      { holder: h, q: `Where did ${s} live after ${c0}?`, rel: 'after', ev: `${h}/home1`, answer: c1, kind: 'chain' },
      { holder: h, q: `What car did ${s} have before the ${cn}?`, rel: 'before', ev: `${h}/car`, answer: co, kind: 'same' },
      { holder: h, q: `Which dog did ${s} have before ${pn}?`, rel: 'before', ev: `${h}/pet`, answer: po, kind: 'same' },
      { holder: h, q: `What did ${s} sign up for after the ${oc} course?`, rel: 'after', ev: `${h}/course`, answer: nc, kind: 'same' },
      { holder: h, q: `What did ${s} start after the ${e}?`, rel: 'after', ev: `${h}/start0`, answer: acts[2 * i] as string, kind: 'event' },
    );
  });
  // the three homes are one chain: keep them in order, everything else shuffled around them
  const homes = new Map<string, Step[][]>();
  const rest: Step[][] = [];
  for (const ep of episodes) {
    const k = ep[0]?.key ?? '';
    if (/\/home\d$/.test(k)) homes.set(k.split('/')[0] as string, [...(homes.get(k.split('/')[0] as string) ?? []), ep]);
    else rest.push(ep);
  }
  const queues: Step[][][] = [...homes.values(), ...rest.map((e) => [e])];
  const steps: Step[] = [];
  while (queues.some((q) => q.length > 0)) steps.push(...(r.pick(queues.filter((q) => q.length > 0)).shift() as Step[]));
  const observations: Observation[] = [];
  const turnOf = new Map<string, string>();
  let day = Date.UTC(2023, r.int(12), 1 + r.int(27), 9);
  let s = 0;
  const push = (speaker: string, text: string): string => {
    const n = observations.filter((o) => o.sessionId === `session_${s}`).length;
    const turnId = `S${s}:${n + 1}`;
    observations.push({ text, speaker, sessionId: `session_${s}`, turnId, observedAt: new Date(day + n * 60_000).toISOString(), source: `order-kinds:${seed}:${style}` });
    return turnId;
  };
  const filler = (): void => {
    s++;
    day += (1 + r.int(4)) * 86_400_000;
    if (style === 'first') {
      const t = r.pick(TOPICS);
      push('user', fill(r.pick(t.asks), { w: r.pick(t.words) }));
      push('assistant', `Good question. ${r.pick(t.words)} and ${r.pick(t.words)} are worth a look; start small and keep at it.`);
    } else for (let i = 0; i < 2; i++) push(pair[i % 2] as string, r.pick(CHAT));
  };
  for (const st of steps) {
    if (st.gapDays === undefined) for (let k = 1 + r.int(2); k > 0; k--) filler();
    s++;
    day += (st.gapDays ?? 20 + r.int(40)) * 86_400_000;
    if (style === 'third') push(other(st.holder), r.pick(CHAT));
    turnOf.set(st.key as string, push(st.holder, st.text));
    push(other(st.holder), style === 'first' ? 'That is big news, congratulations! Let me know if I can help with anything.' : r.pick(['Wow, big news!', 'Oh nice, how does it feel?']));
  }
  filler();
  const questions: LocomoQuestion[] = asks.map((a, i) => ({ id: `order-kinds-${seed}-${a.kind}#${i}`, question: a.q, answer: a.answer, category: a.rel === 'before' ? 1 : 2, evidence: [turnOf.get(a.ev) as string], brokenEvidence: false }));
  return { sampleId: `order-kinds-${seed}`, speakers: style === 'first' ? ['user', 'assistant'] : [pair[0], pair[1]], observations, questions, seed, style };
}
