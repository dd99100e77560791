/**
 * The evidence of the generated chats (issue 24): for each question kind, factories that make a
 * question and the turns ("plants") that answer it, each with several phrasings. A plant is
 * said by the user (or, for single-session-assistant questions, inside a long assistant answer)
 * in a session of its own topic. Data only, written here.
 *
 * @module
 */
import { CITIES, COMPANIES, NAMES } from './topics.js';

/** The question kinds of the chats bench (LongMemEval-style). */
export const CHAT_KINDS = ['single-session-user', 'single-session-assistant', 'single-session-preference', 'multi-session', 'knowledge-update', 'temporal-reasoning'] as const;
/** One of {@link CHAT_KINDS}. */
export type ChatKind = (typeof CHAT_KINDS)[number];

/** A turn that carries evidence (or, with `evidence: false`, an outdated fact). */
export interface Plant {
  role: 'user' | 'assistant';
  /** For a user plant: the user's turn. For an assistant plant: a sentence put inside its long answer. */
  text: string;
  /** For an assistant plant: the user request that prompts it. */
  ask?: string;
  /** Topic name of the session it is said in. */
  topic: string;
  /** Where in the history, as a fraction range [lo, hi) of the sessions. */
  at: [number, number];
  /** False for the outdated turn of a knowledge update. @default true */
  evidence?: boolean;
}

/** One question with its plants. */
export interface Episode {
  kind: ChatKind;
  /** The question; for temporal questions a function of the plants' order (`first` = index of the earlier plant). */
  question: string | ((first: number) => string);
  plants: Plant[];
  /** Topic of the trap sessions (assistant talk that reuses the question's words without the fact). */
  trapTopic: string;
}

/** Deterministic random numbers. */
export interface Rng {
  next(): number;
  int(n: number): number;
  pick<T>(xs: readonly T[]): T;
  /** k distinct items. */
  some<T>(xs: readonly T[], k: number): T[];
}

/** mulberry32: a seeded generator of floats in [0,1). */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)] as T;
  const some = <T>(xs: readonly T[], k: number): T[] => {
    const c = [...xs];
    for (let i = c.length - 1; i > 0; i--) {
      const j = int(i + 1);
      [c[i], c[j]] = [c[j] as T, c[i] as T];
    }
    return c.slice(0, k);
  };
  return { next, int, pick, some };
}

const ANY: [number, number] = [0, 1];
const EARLY: [number, number] = [0, 0.45];
const LATE: [number, number] = [0.55, 1];

type Factory = (r: Rng) => Episode;

const BREEDS = ['beagle', 'corgi', 'border collie', 'labrador', 'dachshund', 'greyhound'];
const PROFESSIONS = ['paramedic', 'landscape architect', 'data engineer', 'pastry chef', 'high school teacher', 'sound technician'];
const NUTS = ['cashews', 'sesame', 'shellfish', 'kiwi', 'peanuts'];
const FIELDS = ['marine biology', 'economics', 'civil engineering', 'art history', 'statistics', 'linguistics'];
const CARS = ['Honda Fit', 'Subaru Outback', 'Mazda 3', 'Toyota Prius', 'Volkswagen Golf', 'Kia Niro'];
const AREAS = ['Alfama', 'the Gothic Quarter', 'Le Marais', 'Shoreditch', 'Trastevere', 'Gion', 'Kreuzberg'];
const BOOKS = [['Thinking in Systems', 'Donella Meadows', 'systems thinking'], ['The Body Keeps the Score', 'Bessel van der Kolk', 'trauma and recovery'], ['Atomic Habits', 'James Clear', 'habit building'], ['The Design of Everyday Things', 'Don Norman', 'product design'], ['Salt, Fat, Acid, Heat', 'Samin Nosrat', 'cooking fundamentals'], ['Deep Work', 'Cal Newport', 'concentration']] as const;
const INGREDIENTS = ['soy sauce', 'honey', 'lime juice', 'olive oil', 'miso paste', 'maple syrup'];
const EXERCISES = ['Bulgarian split squats', 'Romanian deadlifts', 'farmer carries', 'pull-ups', 'box jumps', 'plank rows'];
const INSTRUMENTS = ['ukulele', 'cello', 'piano', 'bass guitar', 'violin', 'drums', 'saxophone'];
const COUNTRIES = ['Portugal', 'Japan', 'Mexico', 'Norway', 'Vietnam', 'Morocco', 'Chile', 'Greece'];
const PLANTS = ['fiddle-leaf fig', 'rosemary bush', 'lemon tree', 'monstera', 'lavender pot', 'snake plant'];
const COURSES = ['data visualisation', 'beginner Spanish', 'watercolour painting', 'public speaking', 'UX research', 'woodworking'];
const PHONES = ['Pixel 6', 'iPhone 11', 'Galaxy S21', 'Pixel 8', 'iPhone 15', 'Galaxy S24'];
const ROLES = ['product manager', 'UX designer', 'backend developer', 'account manager', 'operations lead', 'data analyst'];

/** Events for temporal questions: what the user says on the day, and how a question names it. */
const EVENTS: ReadonlyArray<{ say: string; name: string; topic: string }> = [
  { say: 'Quick update: I got my bike tuned up at the shop today, the gears finally shift cleanly.', name: 'getting my bike tuned up', topic: 'fitness' },
  { say: 'I renewed my passport this morning, so that is one thing off the list.', name: 'renewing my passport', topic: 'travel' },
  { say: 'Today I started a sourdough starter on the counter, fingers crossed.', name: 'starting my sourdough starter', topic: 'cooking' },
  { say: 'I signed up for a pottery class today, first session is next month.', name: 'signing up for the pottery class', topic: 'learning' },
  { say: 'We repainted the spare bedroom today, a soft green colour.', name: 'repainting the spare bedroom', topic: 'home' },
  { say: 'I had my annual checkup with the doctor today and everything looked fine.', name: 'my annual checkup', topic: 'health' },
  { say: 'I finally sold my old couch online today.', name: 'selling my old couch', topic: 'shopping' },
  { say: 'I interviewed for the team lead position this afternoon.', name: 'the team lead interview', topic: 'career' },
  { say: 'Took the car in for new winter tyres today.', name: 'getting the winter tyres put on', topic: 'cars' },
  { say: 'I planted the tomato seedlings in the raised bed today.', name: 'planting the tomato seedlings', topic: 'gardening' },
];

const SSU: Factory[] = [
  (r) => {
    const b = r.pick(BREEDS);
    const n = r.pick(NAMES);
    return r.pick([
      { kind: 'single-session-user', question: 'What did I name my new puppy?', plants: [{ role: 'user', text: `By the way, we finally adopted a ${b} puppy last weekend and named her ${n}. She is chewing everything.`, topic: 'pets', at: ANY }], trapTopic: 'pets' },
      { kind: 'single-session-user', question: 'What breed is the dog we adopted?', plants: [{ role: 'user', text: `We brought home a little ${b} on Saturday, ${n} is her name, and the cat is not impressed yet.`, topic: 'pets', at: ANY }], trapTopic: 'pets' },
    ] as Episode[]);
  },
  (r) => {
    const p = r.pick(PROFESSIONS);
    const n = r.pick(NAMES);
    const rel = r.pick(['brother', 'sister', 'cousin']);
    return { kind: 'single-session-user', question: r.pick([`What does my ${rel} do for work?`, `What is my ${rel}'s job?`]), plants: [{ role: 'user', text: `My ${rel} ${n} just started as a ${p}, so our family dinners have moved to Sundays.`, topic: 'career', at: ANY }], trapTopic: 'career' };
  },
  (r) => {
    const m = 20 + 5 * r.int(8);
    const mode = r.pick(['bus', 'train', 'ferry', 'tram']);
    return { kind: 'single-session-user', question: r.pick(['How long is my commute to work?', 'How do I get to the office every day?']), plants: [{ role: 'user', text: `My commute is about ${m} minutes each way on the ${mode}, which is when I usually listen to podcasts.`, topic: 'productivity', at: ANY }], trapTopic: 'productivity' };
  },
  (r) => {
    const a = r.pick(NUTS);
    return { kind: 'single-session-user', question: r.pick(['What food am I allergic to?', 'Which allergy did I mention to you?']), plants: [{ role: 'user', text: `One thing to keep in mind: I'm allergic to ${a}, so snack ideas need to avoid them.`, topic: 'health', at: ANY }], trapTopic: 'cooking' };
  },
  (r) => {
    const f = r.pick(FIELDS);
    return { kind: 'single-session-user', question: r.pick(['What did I study at university?', 'What was my degree in?']), plants: [{ role: 'user', text: `I did my degree in ${f}, which probably explains why I like tidy spreadsheets.`, topic: 'career', at: ANY }], trapTopic: 'learning' };
  },
  (r) => {
    const c = r.pick(CARS);
    return { kind: 'single-session-user', question: r.pick(['What car do I drive?', 'Which model is my car?']), plants: [{ role: 'user', text: `For context, I drive a ${2009 + r.int(12)} ${c} and it has been very reliable so far.`, topic: 'cars', at: ANY }], trapTopic: 'cars' };
  },
  (r) => {
    const n = r.pick(NAMES);
    const c = r.pick(CITIES);
    return { kind: 'single-session-user', question: `Where is ${n}'s wedding going to be?`, plants: [{ role: 'user', text: `My friend ${n} is getting married in ${c} in June and I am one of the witnesses.`, topic: 'travel', at: ANY }], trapTopic: 'travel' };
  },
];

const SSA: Factory[] = [
  (r) => {
    const c = r.pick(CITIES);
    const a = r.pick(AREAS);
    return { kind: 'single-session-assistant', question: `When we talked about my trip to ${c}, which neighbourhood did you suggest staying in?`, plants: [{ role: 'assistant', ask: `I'm visiting ${c} for four days next month. Where should I stay?`, text: `For a first visit to ${c}, I would stay in ${a}: it is walkable, lively in the evening and close to the main sights.`, topic: 'travel', at: ANY }], trapTopic: 'travel' };
  },
  (r) => {
    const [t, au, subj] = r.pick(BOOKS);
    return { kind: 'single-session-assistant', question: r.pick([`What book on ${subj} did you recommend to me?`, `Remind me which ${subj} book you said I should start with?`]), plants: [{ role: 'assistant', ask: `Can you recommend a good book about ${subj}?`, text: `If you read only one, make it "${t}" by ${au}; it is clear, practical and short enough to finish.`, topic: 'reading', at: ANY }], trapTopic: 'reading' };
  },
  (r) => {
    const ing = r.pick(INGREDIENTS);
    const n = 2 + r.int(4);
    return { kind: 'single-session-assistant', question: `How many tablespoons of ${ing} did you tell me to put in the chicken marinade?`, plants: [{ role: 'assistant', ask: 'How do I make a simple chicken marinade for the grill?', text: `For the marinade, whisk ${n} tablespoons of ${ing} with crushed garlic, a pinch of salt and some pepper, then rest the chicken for an hour.`, topic: 'cooking', at: ANY }], trapTopic: 'cooking' };
  },
  (r) => {
    const ex = r.pick(EXERCISES);
    const d = r.pick(['Wednesdays', 'Fridays', 'Mondays']);
    return { kind: 'single-session-assistant', question: `Which exercise did you tell me to do on ${d} in my strength plan?`, plants: [{ role: 'assistant', ask: 'Can you put together a three-day strength plan for me?', text: `On ${d}, focus on ${ex}: four sets of eight, resting ninety seconds between sets.`, topic: 'fitness', at: ANY }], trapTopic: 'fitness' };
  },
  (r) => {
    const n = r.pick(NAMES);
    return { kind: 'single-session-assistant', question: 'What name did you suggest for my new sourdough bakery stall at the market?', plants: [{ role: 'assistant', ask: 'I need a catchy name for my sourdough stall at the farmers market.', text: `My favourite option is "${n}'s Rise", which is short, friendly and easy to put on a sign.`, topic: 'cooking', at: ANY }], trapTopic: 'shopping' };
  },
];

const SSP: Factory[] = [
  (r) => {
    const g = r.pick(['slow-burn Scandinavian crime', 'nature documentary', 'light-hearted workplace comedy']);
    return { kind: 'single-session-preference', question: r.pick(['Can you recommend a series I could start this weekend?', 'Any suggestions for something to watch tonight?']), plants: [{ role: 'user', text: `Lately I can't get enough of ${g} series, anything with a quiet pace really works for me.`, topic: 'movies', at: ANY }], trapTopic: 'movies' };
  },
  (r) => {
    const cam = r.pick(['Fujifilm X100V', 'Ricoh GR III', 'Sony a6400']);
    return { kind: 'single-session-preference', question: 'What camera accessories would you suggest for me?', plants: [{ role: 'user', text: `I mostly do street photography with my ${cam} and I hate carrying a big bag, so my camera kit stays tiny.`, topic: 'photography', at: ANY }], trapTopic: 'photography' };
  },
  (r) => {
    const c = r.pick(['Thai', 'Sichuan', 'Ethiopian', 'Mexican']);
    return { kind: 'single-session-preference', question: r.pick(['What should I cook for dinner this week? Any food ideas?', 'Can you suggest a dinner recipe I would enjoy?']), plants: [{ role: 'user', text: `I've gone mostly plant-based this year, and spicy ${c} food is my absolute favourite.`, topic: 'cooking', at: ANY }], trapTopic: 'cooking' };
  },
  (r) => {
    const p = r.pick(['quiet hiking trips in the mountains', 'small coastal towns with good walks', 'long train journeys through the countryside']);
    return { kind: 'single-session-preference', question: 'Where should I go for my next trip?', plants: [{ role: 'user', text: `Honestly, I enjoy ${p} much more than big busy cities.`, topic: 'travel', at: ANY }], trapTopic: 'travel' };
  },
  (r) => {
    const i = r.pick(INSTRUMENTS);
    return { kind: 'single-session-preference', question: 'Can you recommend some music I could practice along with?', plants: [{ role: 'user', text: `I practice the ${i} every evening, mostly old jazz standards, and bossa nova is my favourite.`, topic: 'music', at: ANY }], trapTopic: 'music' };
  },
  (r) => {
    const g = r.pick(['epic fantasy', 'historical fiction', 'space opera']);
    return { kind: 'single-session-preference', question: 'Any book suggestions for my commute?', plants: [{ role: 'user', text: `On the commute I listen to audiobooks, long ${g} sagas with lots of characters are my thing.`, topic: 'reading', at: ANY }], trapTopic: 'reading' };
  },
];

const MS: Factory[] = [
  (r) => {
    const [a, b, c] = r.some(INSTRUMENTS, 3);
    return {
      kind: 'multi-session',
      question: r.pick(['How many musical instruments am I learning to play?', 'Which instruments have I told you I play?']),
      plants: [
        { role: 'user', text: `Small win: I signed up for ${a} lessons with a teacher down the street.`, topic: 'music', at: ANY },
        { role: 'user', text: `I dusted off my old ${b} and started playing again after ten years.`, topic: 'music', at: ANY },
        { role: 'user', text: `My partner gave me a ${c} for my birthday, so now I'm practising that too.`, topic: 'music', at: ANY },
      ],
      trapTopic: 'music',
    };
  },
  (r) => {
    const [a, b] = r.some(COUNTRIES, 2);
    return {
      kind: 'multi-session',
      question: 'Which countries have I travelled to this year?',
      plants: [
        { role: 'user', text: `Just got back from ${a}, the food alone was worth the flight.`, topic: 'travel', at: ANY },
        { role: 'user', text: `We spent ten days in ${b} last month and I'm still sorting through the pictures.`, topic: 'travel', at: ANY },
      ],
      trapTopic: 'travel',
    };
  },
  (r) => {
    const [a, b, c] = r.some(PLANTS, 3);
    return {
      kind: 'multi-session',
      question: 'What plants have I bought for my balcony so far?',
      plants: [
        { role: 'user', text: `I bought a ${a} for the balcony this weekend.`, topic: 'gardening', at: ANY },
        { role: 'user', text: `Picked up a ${b} at the market, it's sitting next to the railing now.`, topic: 'gardening', at: ANY },
        { role: 'user', text: `Couldn't resist, there is a ${c} out on the balcony as well now.`, topic: 'gardening', at: ANY },
      ],
      trapTopic: 'gardening',
    };
  },
  (r) => {
    const [a, b] = r.some(COURSES, 2);
    return {
      kind: 'multi-session',
      question: 'What online courses have I enrolled in?',
      plants: [
        { role: 'user', text: `I enrolled in an online course on ${a}, the first module was surprisingly fun.`, topic: 'learning', at: ANY },
        { role: 'user', text: `Also started ${b} classes online on Tuesday evenings.`, topic: 'learning', at: ANY },
      ],
      trapTopic: 'learning',
    };
  },
  (r) => {
    const x = 40 + 10 * r.int(20);
    const y = 15 + 5 * r.int(20);
    return {
      kind: 'multi-session',
      question: 'How much did I spend in total on the new running shoes and the gym bag?',
      plants: [
        { role: 'user', text: `Treated myself to new running shoes, they were $${x} on sale.`, topic: 'fitness', at: ANY },
        { role: 'user', text: `The gym bag I ordered arrived, it cost $${y} but feels sturdy.`, topic: 'shopping', at: ANY },
      ],
      trapTopic: 'fitness',
    };
  },
];

const KU: Factory[] = [
  (r) => {
    const [a, b] = r.some(CITIES, 2);
    return {
      kind: 'knowledge-update',
      question: r.pick(['Which city do I live in now?', 'Where am I living at the moment?']),
      plants: [
        { role: 'user', text: `We have lived in ${a} for about two years now and I love the neighbourhood.`, topic: 'home', at: EARLY, evidence: false },
        { role: 'user', text: r.pick([`Big news: we moved to ${b} last week, boxes everywhere!`, `We relocated to ${b}, so now we live near the river and I'm still unpacking.`]), topic: 'home', at: LATE },
      ],
      trapTopic: 'home',
    };
  },
  (r) => {
    const [a, b] = r.some(COMPANIES, 2);
    const [ra, rb] = r.some(ROLES, 2);
    return {
      kind: 'knowledge-update',
      question: r.pick(['Where do I work now?', 'Which company am I working for currently?']),
      plants: [
        { role: 'user', text: `I work as a ${ra} at ${a}, mostly on internal tools.`, topic: 'career', at: EARLY, evidence: false },
        { role: 'user', text: `I accepted the offer! Starting Monday I'm a ${rb} at ${b}.`, topic: 'career', at: LATE },
      ],
      trapTopic: 'career',
    };
  },
  (r) => {
    const m1 = 26 + r.int(4);
    const m2 = m1 - 1 - r.int(2);
    return {
      kind: 'knowledge-update',
      question: 'What is my current 5k personal best?',
      plants: [
        { role: 'user', text: `My 5k personal best is ${m1}:40, set last spring.`, topic: 'fitness', at: EARLY, evidence: false },
        { role: 'user', text: `I just smashed it at parkrun this morning: ${m2}:15 for the 5k!`, topic: 'fitness', at: LATE },
      ],
      trapTopic: 'fitness',
    };
  },
  (r) => {
    const a = 2 + r.int(2);
    const b = a + 1 + r.int(2);
    return {
      kind: 'knowledge-update',
      question: 'How many times a week do I go to the gym these days?',
      plants: [
        { role: 'user', text: `I go to the gym ${a} times a week, usually before work.`, topic: 'fitness', at: EARLY, evidence: false },
        { role: 'user', text: `I've upped my routine to ${b} sessions a week now that the new gym opened near me.`, topic: 'fitness', at: LATE },
      ],
      trapTopic: 'fitness',
    };
  },
  (r) => {
    const [a, b] = r.some(PHONES, 2);
    return {
      kind: 'knowledge-update',
      question: 'What phone do I have now?',
      plants: [
        { role: 'user', text: `I'm still using my old ${a}, the battery barely lasts a day.`, topic: 'shopping', at: EARLY, evidence: false },
        { role: 'user', text: `Finally upgraded, the ${b} arrived today and the battery is so much better.`, topic: 'shopping', at: LATE },
      ],
      trapTopic: 'shopping',
    };
  },
];

function temporal(r: Rng, a: (typeof EVENTS)[number], b: (typeof EVENTS)[number]): Episode {
  const form = r.int(3);
  return {
    kind: 'temporal-reasoning',
    question: (first: number) => {
      const [x, y] = first === 0 ? [a, b] : [b, a];
      if (form === 0) return `Which happened first, ${a.name} or ${b.name}?`;
      if (form === 1) return `How many days passed between ${x.name} and ${y.name}?`;
      return `How long after ${x.name} was ${y.name}?`;
    },
    plants: [
      { role: 'user', text: a.say, topic: a.topic, at: ANY },
      { role: 'user', text: b.say, topic: b.topic, at: ANY },
    ],
    trapTopic: a.topic,
  };
}

/** `perKind` episodes of each kind, with distinct factories where there are enough. */
export function episodes(r: Rng, perKind: number): Episode[] {
  const out: Episode[] = [];
  for (const pool of [SSU, SSA, SSP, MS, KU]) for (const f of r.some(pool, perKind)) out.push(f(r));
  const ev = r.some(EVENTS, 2 * perKind); // distinct events: no event answers two questions
  for (let i = 0; i < perKind; i++) out.push(temporal(r, ev[2 * i] as (typeof EVENTS)[number], ev[2 * i + 1] as (typeof EVENTS)[number]));
  return out;
}
