/**
 * Evidence of the chats bench's **novel** part (issue 24): question factories whose fact
 * templates, question phrasings and values are all new (none of `episodes.ts`'s sentences,
 * questions or value lists), so the novel part measures generalisation over phrasing, not only
 * over seeds. Questions are phrased as people ask assistants ("What did I say about…",
 * "Remind me…", "Which … did you recommend", suggestion requests that never name the category),
 * and each user plant has a `restate` line for the assistant's reply that repeats the fact back
 * (a turn by the other role that holds the answer words but is not the evidence). Reporting only:
 * nothing is tuned on this part. Data only, written here.
 *
 * @module
 */
import type { ChatKind, Episode, Plant, Rng } from './episodes.js';

/** A plant of the novel part: a {@link Plant} with the assistant's restatement of a user fact. */
export interface NovelPlant extends Plant {
  /** The assistant's next reply opens with this line (repeats a user fact back). */
  restate?: string;
}

/** An episode of the novel part. */
export interface NovelEpisode extends Episode {
  plants: NovelPlant[];
}

type Factory = (r: Rng) => NovelEpisode;

const ANY: [number, number] = [0, 1];
const EARLY: [number, number] = [0, 0.4];
const LATE: [number, number] = [0.6, 1];

const PEOPLE = ['Astrid', 'Bruno', 'Chiara', 'Dmitri', 'Esme', 'Farid', 'Gwen', 'Hugo', 'Ilse', 'Joaquin', 'Kemal', 'Lucia', 'Mirela', 'Nikhil', 'Odile', 'Pavel'];
const TOWNS = ['Ljubljana', 'Bergen', 'Cork', 'Granada', 'Halifax', 'Tallinn', 'Bruges', 'Cusco', 'Hobart', 'Salzburg', 'Oaxaca', 'Trieste'];
const RESTAURANTS = ['Casa Lume', 'The Copper Pot', 'Little Saffron', 'Osteria Verde', 'Blue Heron Grill', 'Maison Tilleul'];
const PODCASTS = [['Planet Money', 'economics'], ['Radiolab', 'science'], ['Hardcore History', 'history'], ['Song Exploder', 'songwriting'], ['99% Invisible', 'design']] as const;
const LAPTOPS = ['ThinkPad X1 Carbon', 'MacBook Air M2', 'Dell XPS 13', 'Framework Laptop 13', 'ASUS Zenbook 14'];
const WINES = ['Soave', 'Pinot Noir', 'Albariño', 'Chianti', 'Grüner Veltliner', 'Rioja'];
const DISHES = ['mushroom risotto', 'grilled salmon', 'lamb tagine', 'butternut squash soup'];
const NOVELS = ['Middlemarch', 'The Remains of the Day', 'Piranesi', 'A Gentleman in Moscow', 'Pachinko', 'Circe', 'Stoner', 'The Overstory'];
const RACES = ['10k', 'half marathon', 'trail run', 'charity 5-miler'];
const CHORES = ['dishes', 'laundry', 'vacuuming', 'bins'];
const LANGS = ['Portuguese', 'Korean', 'Dutch', 'Turkish', 'Swahili', 'Polish'];
const PETS = ['rabbit', 'hamster', 'tortoise', 'parrot', 'guinea pig'];
const SPORTS = ['bouldering at the climbing gym', 'open-water swimming at the lake', 'ultimate frisbee in the park', 'rowing on the river'];
const DRINKS = ['oat milk flat white', 'cortado with almond milk', 'iced matcha latte', 'chai with soy milk'];
const MUSIC = ['seventies soul, mostly Al Green', 'Brazilian bossa nova records', 'nineties trip-hop like Portishead', 'West African highlife'];

/** Events of the temporal questions (all new): what the user says, and how a question names it. */
const EVENTS: ReadonlyArray<{ say: string; name: string; topic: string }> = [
  { say: 'Small milestone: the new dishwasher got installed this morning, no more washing up by hand.', name: 'the dishwasher installation', topic: 'home' },
  { say: 'I handed in my thesis draft to my supervisor today, what a relief.', name: 'handing in my thesis draft', topic: 'learning' },
  { say: 'Our neighbours threw a street party today and I ended up running the grill.', name: 'the street party', topic: 'parenting' },
  { say: 'I got my first tattoo this afternoon, a tiny fern on my wrist.', name: 'getting my tattoo', topic: 'health' },
  { say: 'We took the kids to the aquarium today and they loved the jellyfish.', name: 'our aquarium visit', topic: 'parenting' },
  { say: 'I switched my electricity provider to a green tariff today.', name: 'switching electricity providers', topic: 'finance' },
  { say: 'I ran my first trail race today, muddy but so much fun.', name: 'my first trail race', topic: 'fitness' },
  { say: 'I adopted a rescue cat from the shelter this morning.', name: 'adopting the rescue cat', topic: 'pets' },
  { say: 'Our team shipped the new billing system to production today.', name: 'the billing system launch', topic: 'programming' },
  { say: 'I went to my cousin Farid’s graduation ceremony today.', name: "Farid's graduation", topic: 'learning' },
];

const SSU: Factory[] = [
  (r) => {
    const p = r.pick(PEOPLE);
    const t = r.pick(TOWNS);
    return { kind: 'single-session-user', question: r.pick(['Remind me, which city did my sister move to?', 'What did I tell you about where my sister lives?']), plants: [{ role: 'user', text: `My sister ${p} packed up her flat and moved to ${t} for a hospital job.`, restate: `It sounds like ${p}'s move to ${t} is a big change for your family.`, topic: 'home', at: ANY }], trapTopic: 'travel' };
  },
  (r) => {
    const n = 4 + r.int(9);
    return { kind: 'single-session-user', question: r.pick(['How big is the team I manage?', 'What did I say about the size of my team at work?']), plants: [{ role: 'user', text: `These days I look after ${n} engineers, which leaves me almost no time to write code myself.`, restate: `Leading ${n} engineers is a lot, so it makes sense that coding time shrinks.`, topic: 'career', at: ANY }], trapTopic: 'career' };
  },
  (r) => {
    const f = 3 + r.int(6);
    return { kind: 'single-session-user', question: r.pick(['Which floor is our apartment on?', 'Remind me what I said about the stairs at our building?']), plants: [{ role: 'user', text: `Carrying groceries is a workout because our flat is on floor ${f} and the lift has been broken since spring.`, restate: `Floor ${f} with no lift does make grocery runs hard.`, topic: 'home', at: ANY }], trapTopic: 'home' };
  },
  (r) => {
    const x = r.pick(RESTAURANTS);
    return { kind: 'single-session-user', question: r.pick(['Where did we book the anniversary dinner?', 'Remind me which restaurant I picked for our anniversary.']), plants: [{ role: 'user', text: `For our tenth anniversary I reserved a corner table at ${x}, the place with the tasting menu.`, restate: `${x} sounds like a lovely spot for a tenth anniversary.`, topic: 'cooking', at: ANY }], trapTopic: 'cooking' };
  },
  (r) => {
    const pet = r.pick(PETS);
    const name = r.pick(PEOPLE);
    return { kind: 'single-session-user', question: r.pick(['What kind of animal did my daughter get for her birthday?', 'What did I tell you about my daughter’s new pet?']), plants: [{ role: 'user', text: `My daughter got a ${pet} for her birthday and insisted on calling it ${name}.`, restate: `A ${pet} called ${name}, what a fun birthday present.`, topic: 'pets', at: ANY }], trapTopic: 'pets' };
  },
  (r) => {
    const l = r.pick(LANGS);
    return { kind: 'single-session-user', question: r.pick(['Which language is my husband learning?', 'What did I mention about my husband and languages?']), plants: [{ role: 'user', text: `My husband has been practising ${l} every night since his company opened an office abroad.`, restate: `Practising ${l} every night is a great habit for him.`, topic: 'learning', at: ANY }], trapTopic: 'learning' };
  },
];

const SSA: Factory[] = [
  (r) => {
    const [name, subject] = r.pick(PODCASTS);
    return { kind: 'single-session-assistant', question: `Which podcast did you recommend for learning about ${subject}?`, plants: [{ role: 'assistant', ask: `I want a podcast that makes ${subject} less dry. Ideas?`, text: `Start with ${name}: the episodes are short, well produced and explain ${subject} through real stories.`, topic: 'learning', at: ANY }], trapTopic: 'learning' };
  },
  (r) => {
    const d = 3 + r.int(8);
    return { kind: 'single-session-assistant', question: r.pick(['How often did you say I should water the fern?', 'What watering schedule did you give me for my fern?']), plants: [{ role: 'assistant', ask: 'My Boston fern keeps dropping leaves. What am I doing wrong?', text: `Water the fern every ${d} days, and mist the fronds when the heating is on.`, topic: 'gardening', at: ANY }], trapTopic: 'gardening' };
  },
  (r) => {
    const l = r.pick(LAPTOPS);
    return { kind: 'single-session-assistant', question: r.pick(['Which laptop model did you point me to for travelling?', 'What was the laptop you suggested I buy?']), plants: [{ role: 'assistant', ask: 'I need a light laptop for work trips, nothing too expensive.', text: `The ${l} is the one I would pick, since it is light, has a great keyboard and lasts a full day.`, topic: 'shopping', at: ANY }], trapTopic: 'shopping' };
  },
  (r) => {
    const w = r.pick(WINES);
    const d = r.pick(DISHES);
    return { kind: 'single-session-assistant', question: `What wine did you pair with my ${d}?`, plants: [{ role: 'assistant', ask: `I'm making ${d} for guests on Saturday. What should I serve to drink?`, text: `A chilled ${w} would be my pairing, since its acidity lifts the dish without overpowering it.`, topic: 'cooking', at: ANY }], trapTopic: 'cooking' };
  },
  (r) => {
    const s = 20 + 10 * r.int(5);
    return { kind: 'single-session-assistant', question: 'How long was I supposed to hold the hamstring stretch you showed me?', plants: [{ role: 'assistant', ask: 'My hamstrings are so tight after running. Any stretches?', text: `For the hamstring stretch, keep your back straight and hold it for ${s} seconds on each leg.`, topic: 'fitness', at: ANY }], trapTopic: 'fitness' };
  },
];

const SSP: Factory[] = [
  (r) => {
    const s = r.pick(SPORTS);
    return { kind: 'single-session-preference', question: r.pick(['I have a free Saturday coming up. Any ideas for what I could do?', 'What could I do this weekend to stay active?']), plants: [{ role: 'user', text: `The highlight of my week is ${s}, I never want to miss it.`, restate: 'That sounds like a great way to unwind.', topic: 'fitness', at: ANY }], trapTopic: 'fitness' };
  },
  (r) => {
    const d = r.pick(DRINKS);
    return { kind: 'single-session-preference', question: r.pick(['What should I order at the café this afternoon?', 'Any ideas for a treat on my coffee break?']), plants: [{ role: 'user', text: `Caffeine after lunch ruins my sleep, but I'm hooked on a decaf ${d} in the mornings.`, restate: 'Cutting caffeine after lunch is a smart move for sleep.', topic: 'health', at: ANY }], trapTopic: 'health' };
  },
  (r) => {
    const m = r.pick(MUSIC);
    return { kind: 'single-session-preference', question: r.pick(['What should I put on at the dinner party tonight?', 'Could you help me set the mood for friends coming over tonight?']), plants: [{ role: 'user', text: `My record shelf is basically all ${m}, I could listen to it all day.`, restate: 'A focused record collection is a joy.', topic: 'music', at: ANY }], trapTopic: 'music' };
  },
  () => ({
    kind: 'single-session-preference',
    question: 'What should we play at the next game night?',
    plants: [{ role: 'user', text: 'We hate competitive games in our house, cooperative board games where everybody wins together are what we love.', restate: 'Cooperative games are great for keeping the peace.', topic: 'parenting', at: ANY }],
    trapTopic: 'parenting',
  }),
  (r) => {
    const x = r.pick(['dark chocolate with sea salt', 'lemon desserts', 'anything with pistachio']);
    return { kind: 'single-session-preference', question: r.pick(['Could you suggest something sweet for Friday?', 'Any ideas for what to bake this weekend?']), plants: [{ role: 'user', text: `I'm cutting back on refined sugar, though I'll always make an exception for ${x}.`, restate: 'Making room for the treats you love helps the change stick.', topic: 'cooking', at: ANY }], trapTopic: 'cooking' };
  },
];

const MS: Factory[] = [
  (r) => {
    const [a, b, c] = r.some(NOVELS, 3);
    return {
      kind: 'multi-session',
      question: r.pick(['Which novels have I finished so far?', 'What did I say about the books I completed?']),
      plants: [
        { role: 'user', text: `Just turned the last page of ${a}, the ending wrecked me.`, restate: `Finishing ${a} is quite something.`, topic: 'reading', at: ANY },
        { role: 'user', text: `${b} is done, I read the last hundred pages in one sitting.`, topic: 'reading', at: ANY },
        { role: 'user', text: `Finally got through ${c} on the train home.`, topic: 'reading', at: ANY },
      ],
      trapTopic: 'reading',
    };
  },
  (r) => {
    const x = 80 + 10 * r.int(30);
    const y = 60 + 10 * r.int(30);
    return {
      kind: 'multi-session',
      question: 'What did I pay altogether for the plumber and the electrician?',
      plants: [
        { role: 'user', text: `The plumber came round to fix the boiler pipe and charged me $${x}.`, restate: `$${x} for the boiler pipe is not bad at all.`, topic: 'home', at: ANY },
        { role: 'user', text: `The electrician sorted out the tripping fuse, $${y} for an hour's work.`, topic: 'home', at: ANY },
      ],
      trapTopic: 'home',
    };
  },
  (r) => {
    const [a, b] = r.some(RACES, 2);
    const [ta, tb] = r.some(TOWNS, 2);
    return {
      kind: 'multi-session',
      question: r.pick(['Which races have I run this year?', 'Remind me of the races I took part in.']),
      plants: [
        { role: 'user', text: `Crossed the finish line of the ${a} in ${ta} this morning, legs are jelly.`, topic: 'fitness', at: ANY },
        { role: 'user', text: `Signed up on a whim and completed the ${b} in ${tb} yesterday.`, topic: 'fitness', at: ANY },
      ],
      trapTopic: 'fitness',
    };
  },
  (r) => {
    const [a, b] = r.some(PEOPLE, 2);
    return {
      kind: 'multi-session',
      question: 'Who has come to stay with us as a house guest?',
      plants: [
        { role: 'user', text: `My old roommate ${a} is sleeping on our sofa bed for the week.`, topic: 'home', at: ANY },
        { role: 'user', text: `${b} from my running club stayed over with us for three nights.`, topic: 'home', at: ANY },
      ],
      trapTopic: 'home',
    };
  },
];

const KU: Factory[] = [
  (r) => {
    const a = 1100 + 50 * r.int(8);
    const b = a + 100 + 50 * r.int(3);
    return {
      kind: 'knowledge-update',
      question: r.pick(['How much rent am I paying?', 'What did I say my monthly rent is?']),
      plants: [
        { role: 'user', text: `Our rent is $${a} a month, which is fine for the area.`, topic: 'finance', at: EARLY, evidence: false },
        { role: 'user', text: `The landlord just raised the rent to $${b}, so I need to rethink the budget.`, restate: `A jump to $${b} is a good reason to revisit the budget.`, topic: 'finance', at: LATE },
      ],
      trapTopic: 'finance',
    };
  },
  (r) => {
    const [a, b] = r.some(PEOPLE, 2);
    return {
      kind: 'knowledge-update',
      question: r.pick(['Who is my manager?', 'Who do I report to at work?']),
      plants: [
        { role: 'user', text: `My manager ${a} is great about protecting our focus time.`, topic: 'career', at: EARLY, evidence: false },
        { role: 'user', text: `${a} left the company, and ${b} is my new boss starting this week.`, restate: `Getting used to ${b} as a new boss will take a few weeks.`, topic: 'career', at: LATE },
      ],
      trapTopic: 'career',
    };
  },
  (r) => {
    const m = r.pick(['by bike', 'on an e-scooter', 'on foot']);
    return {
      kind: 'knowledge-update',
      question: r.pick(['How do I get to work?', 'What did I say about how I commute?']),
      plants: [
        { role: 'user', text: 'I drive to work every day, about forty minutes in traffic.', topic: 'cars', at: EARLY, evidence: false },
        { role: 'user', text: `We sold the car last month, so I go to the office ${m} now.`, topic: 'cars', at: LATE },
      ],
      trapTopic: 'cars',
    };
  },
  (r) => {
    const a = 10 + 5 * r.int(3);
    const b = a + 10 + 5 * r.int(3);
    return {
      kind: 'knowledge-update',
      question: r.pick(['How far am I running each week?', 'What is my weekly mileage at the moment?']),
      plants: [
        { role: 'user', text: `I'm averaging ${a} kilometres of running a week.`, topic: 'fitness', at: EARLY, evidence: false },
        { role: 'user', text: `Training for the race pushed me up to ${b} kilometres a week.`, topic: 'fitness', at: LATE },
      ],
      trapTopic: 'fitness',
    };
  },
  (r) => {
    const [a, b] = r.some(['vegetarian', 'vegan', 'pescatarian'], 2);
    return {
      kind: 'knowledge-update',
      question: r.pick(['What diet am I following?', 'Remind me what I eat, diet-wise.']),
      plants: [
        { role: 'user', text: `I've been ${a} for years, so keep that in mind for recipes.`, topic: 'cooking', at: EARLY, evidence: false },
        { role: 'user', text: `Change of plan on food: I've switched to being ${b} since my doctor's advice.`, topic: 'cooking', at: LATE },
      ],
      trapTopic: 'cooking',
    };
  },
];

function temporal(r: Rng, a: (typeof EVENTS)[number], b: (typeof EVENTS)[number]): NovelEpisode {
  const form = r.int(3);
  return {
    kind: 'temporal-reasoning',
    question: (first: number) => {
      const [x, y] = first === 0 ? [a, b] : [b, a];
      if (form === 0) return `Did ${a.name} come before or after ${b.name}?`;
      if (form === 1) return `What came first: ${b.name} or ${a.name}?`;
      return `How many weeks were there between ${x.name} and ${y.name}?`;
    },
    plants: [
      { role: 'user', text: a.say, topic: a.topic, at: ANY },
      { role: 'user', text: b.say, topic: b.topic, at: ANY },
    ],
    trapTopic: b.topic,
  };
}

/** `perKind` novel episodes of each kind (distinct factories where there are enough). */
export function novelEpisodes(r: Rng, perKind: number): NovelEpisode[] {
  const out: NovelEpisode[] = [];
  for (const pool of [SSU, SSA, SSP, MS, KU]) for (const f of r.some(pool, perKind)) out.push(f(r));
  const ev = r.some(EVENTS, 2 * perKind);
  for (let i = 0; i < perKind; i++) out.push(temporal(r, ev[2 * i] as (typeof EVENTS)[number], ev[2 * i + 1] as (typeof EVENTS)[number]));
  return out;
}

/** The kinds, for tests. */
export type { ChatKind };
