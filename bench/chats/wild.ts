/**
 * The chats bench's **wild** parts (issue 24, round nine): preference and multi-session
 * questions in histories where the *user* talks at length too, as real users of an assistant do.
 * In the other parts most user turns are short requests ("How do I fix a leaky faucet?"), so the
 * few user turns that state something in the first person stand out; in public long-memory chat
 * benchmarks many user turns give context about themselves ("I'm a nurse on night shifts and my
 * manager asked me to…", "I tried a few things already…", pasted drafts), and a taste has to be
 * found among many first-person statements that are not tastes.
 *
 * - Every filler user turn is 25-130 words: a first-person context line, a first-person line
 *   about the session's topic, sometimes a pasted draft (generic sentences), then the request.
 * - Sessions of 3-5 exchanges; the assistant's answers are the dev generator's long answers.
 * - Preference questions ({@link WILD_PREFS}) are written anew for this set (no question or
 *   evidence is taken from `prefs.ts`, `episodes.ts` or `novel-episodes.ts`): about half repeat
 *   a word of the evidence ("Any tips for improving my sourdough?" ← "I bake a sourdough every
 *   Sunday…"), where BM25 finds it; the others share no content word with it.
 * - Multi-session questions ({@link WILD_MULTI}): 2-3 user turns in different sessions, each a
 *   request about something else that names one item in passing.
 * - One trap session per question: the user talks in the first person about the question's words
 *   for someone else, without the fact.
 *
 * Parts: `wilddev` (seeds 401-404, tune on it) and `wildheld` (seeds 451-453, reported only),
 * with disjoint question lists.
 *
 * @module
 */
import type { LocomoQuestion } from '../../src/formats/locomo.js';
import type { Observation } from '../../src/types.js';
import { rng, type Rng } from './episodes.js';
import { answer, echo, fill, kindCategory, questionWords, type ChatHistory } from './generate.js';
import { TOPICS, type Topic } from './topics.js';

/** One wild question: a preference request (one evidence) or a multi-session question (2-3). */
export interface WildEpisode {
  kind: 'single-session-preference' | 'multi-session';
  question: string;
  /** The user turns that are its evidence, each in a session of its own. */
  evidence: readonly string[];
  /** Topic of the evidence sessions and of the trap session (a `topics.ts` name). */
  topic: string;
}

const P = 'single-session-preference' as const;
const M = 'multi-session' as const;

/** Preference and multi-session questions of the wild set: `dev` (tune on it) and `held` (report only). */
export const WILD_EPISODES: { readonly dev: readonly WildEpisode[]; readonly held: readonly WildEpisode[] } = Object.freeze({
  dev: [
    { kind: P, topic: 'photography', question: 'Can you suggest some accessories that would go with my camera gear?', evidence: ["I finally upgraded to a Fujifilm X-T5 last month and I'm shooting mostly street scenes at night now, handheld, because I hate lugging a tripod around. I'm struggling with the menus though; is there a way to save custom settings so I don't dig through them every time?"] },
    { kind: P, topic: 'cooking', question: 'Any tips for improving my sourdough?', evidence: ["My oven runs hot and I've burned two loaves this week. I bake a sourdough every Sunday with a starter I've kept alive for three years, always with some rye flour mixed in. Should I buy an oven thermometer or just turn the dial down?"] },
    { kind: P, topic: 'travel', question: 'What should I listen to on my flight next Tuesday?', evidence: ["I'm a nervous flyer and I'm trying to get my anxiety under control before a work trip. Long interviews calm me down, especially slow conversations with scientists, and I can't handle anything with loud music. Is there a breathing exercise that works during takeoff?"] },
    { kind: P, topic: 'home', question: "I'm thinking of redecorating my living room. Any suggestions?", evidence: ["We just painted the hallway and now the living room looks tired next to it. I'm drawn to mid-century furniture, teak and walnut, and I really dislike anything glossy or chrome. How long should fresh paint cure before we hang pictures?"] },
    { kind: P, topic: 'learning', question: 'Could you recommend a video editing course?', evidence: ["I've been cutting my travel vlogs in DaVinci Resolve for about a year, mostly colour grading by feel, and I want to get more cinematic. My laptop struggles with 4K timelines though. Is a proxy workflow worth setting up?"] },
    { kind: P, topic: 'productivity', question: 'What should I get for my home office setup?', evidence: ["My back has been killing me since I started working remotely full time. I stand for half the day now at a sit-stand desk, I'm very picky about cable clutter, and I like warm, dim light rather than a bright ceiling lamp. Should I see a physio or try stretching first?"] },
    { kind: P, topic: 'fitness', question: 'Any suggestions for a hike this weekend?', evidence: ["I moved to Boulder in the spring and I'm still getting used to the altitude. I prefer trails with a lake at the end, nothing too exposed because I get vertigo on ridges, and I always bring my dog along. How much water should I carry above 9,000 feet?"] },
    { kind: P, topic: 'cooking', question: 'Can you suggest a dessert for my dinner party?', evidence: ["I'm hosting eight people on Saturday and the main is sorted, slow-roasted lamb. I'm much better at baking than cooking, tarts especially, and one guest is allergic to eggs. Do I carve the lamb before they arrive or at the table?"] },
    { kind: P, topic: 'pets', question: 'What kind of plants could I add to my aquarium?', evidence: ["The nitrate reading in my aquarium jumped this week and I don't know why. It's a 60-litre tank with cherry shrimp and a few neon tetras, and I keep it low-tech, no CO2 injection. Could overfeeding alone explain it?"] },
    { kind: P, topic: 'fitness', question: 'Which running shoes should I try next?', evidence: ["I've started getting blisters on my left heel after long runs. I run almost entirely on muddy forest trails, I overpronate a little, and I've always liked a wide toe box. Is it the socks or the shoes?"] },
    { kind: P, topic: 'learning', question: 'Any tips for my next painting session?', evidence: ["I've been doing watercolour landscapes on weekends and my skies always turn muddy. I work from photos of the coast where I grew up, and I only use a limited palette of three colours. Should I wet the paper first or paint wet on dry?"] },
    { kind: P, topic: 'home', question: 'What should I cook for my parents when they visit?', evidence: ["My parents are coming to stay for a week and I need to sort out the spare room. Dad had heart surgery last year so he's on a strict low-fat diet, and Mum won't touch anything spicy. Is an air mattress okay for a week or should I borrow a proper bed?"] },
    { kind: P, topic: 'productivity', question: 'Can you recommend a board game for two players?', evidence: ["My partner and I are trying to cut back on screens in the evenings. We both love puzzles and logic games with a bit of strategy, but we get bored of anything that drags past an hour. How do couples stick to a no-phones rule?"] },
    { kind: P, topic: 'career', question: "I need a gift idea for my coworker's farewell.", evidence: ["One of my colleagues is leaving next month and I'm collecting money for a card. She's mad about tea, loose-leaf oolong especially, and she's moving into a tiny studio, so nothing bulky. How much should each person chip in?"] },
    { kind: P, topic: 'parenting', question: 'Any ideas for snacks on our road trip?', evidence: ["We're driving to the coast with the kids in August and I'm dreading the car sickness. My eldest is diabetic so I keep an eye on sugar, and we try to avoid anything that leaves crumbs all over the seats. Is it better to leave at dawn or drive overnight?"] },
    { kind: P, topic: 'health', question: 'Can you suggest a new skincare routine for me?', evidence: ["The heating in my office dries everything out and my hands are cracking. I have really sensitive skin, anything with fragrance makes me break out, and I'd rather keep it to two or three products. Is a humidifier worth it at a desk?"] },
    { kind: M, topic: 'finance', question: 'How many weddings have I been to this year?', evidence: ["I need to sort out my budget, last weekend's wedding in the Cotswolds cost me a fortune between the hotel and the gift. Is there a sensible monthly amount to set aside for events?", "My feet are still sore from dancing all night at my cousin's wedding on Saturday. Are there insoles that actually help with heels?", "I'm writing a thank-you note to my old flatmate, her wedding by the lake was the loveliest I've been to. How formal should the note be?"] },
    { kind: M, topic: 'fitness', question: 'What sports have I picked up since the start of the year?', evidence: ["My shoulder aches after my second week of climbing at the bouldering gym. Should I ice it or use heat?", "I joined a Sunday five-a-side football team in February and I'm the slowest one there. Any drills to get faster?", "Now that I'm paddleboarding on weekday evenings, I want waterproof earbuds. Do any survive a dunk?"] },
    { kind: M, topic: 'cars', question: 'How much have I spent on repairs for my car so far?', evidence: ["The garage charged me 340 pounds for new brake pads, which feels steep. How can I tell if a mechanic is overcharging?", "I paid 95 to get the air conditioning regassed in my car last week and it's already blowing warm. Is that normal?"] },
    { kind: M, topic: 'career', question: 'In which cities have I given talks?', evidence: ["I'm still jet-lagged after presenting at the conference in Singapore. How long does it take to adjust going west?", "My talk in Berlin went well but I rushed the ending. How do I pace a thirty-minute slot?", "I'm reusing the slides from my Montreal keynote for a webinar next month. Should I cut the animations?"] },
    { kind: M, topic: 'reading', question: 'How many books have I finished this month?', evidence: ["I just finished the third book in the Expanse series and I need something to fill the gap. Actually, first, how do I stop reading on my phone in bed?", "I finally got through Middlemarch after three attempts. Is it weird that I cried at the end?", "I powered through a history of the Silk Road on my commute and I'm thinking of writing a short review. What should a review cover?"] },
    { kind: M, topic: 'cooking', question: 'Which dishes have I cooked for guests recently?', evidence: ["I made a mushroom risotto for friends on Friday and it came out gluey. What did I do wrong?", "My in-laws loved the lemon tart I baked for them, but the pastry shrank. How do I stop that?", "I served a whole roasted cauliflower to my book club and nobody touched it. Was it the seasoning?"] },
    { kind: M, topic: 'health', question: 'What health issues have I mentioned to you?', evidence: ["I was diagnosed with a mild thyroid issue in March and I'm on a low dose of medication. Can I still drink coffee in the morning?", "My hay fever is brutal this year, my eyes are streaming. Do daily antihistamines lose their effect?", "The dentist says I grind my teeth at night. Is a night guard uncomfortable?"] },
    { kind: M, topic: 'learning', question: 'Which online courses have I signed up for?', evidence: ["I enrolled in an online course on data visualisation and the first assignment is due Friday. How should I structure my notebook?", "The Spanish course I signed up for starts next week, three evenings a week. How do I fit the homework around work?"] },
  ],
  held: [
    { kind: P, topic: 'travel', question: 'Can you recommend a hotel for my trip to Miami?', evidence: ["I'm trying to use up my airline miles before they expire in December. When I travel I need a gym on site because I work out every morning, and I really prefer places with a rooftop pool and a view. Can miles be transferred to a partner airline?"] },
    { kind: P, topic: 'cooking', question: 'What should I try baking this weekend?', evidence: ["I bought a stand mixer on sale and it's still in the box. I've been gluten-free since last year and I miss bread terribly, and I love anything with cinnamon and cardamom. Do I need to wash the bowl or anything before first use?"] },
    { kind: P, topic: 'gardening', question: 'Any advice for my garden this spring?', evidence: ["The previous owners left a concrete patio out back and I'm not sure what to do with it. I want to attract bees and butterflies, I'm keen on native wildflowers, and I don't have time for anything that needs daily watering. Can concrete be broken up without a professional?"] },
    { kind: P, topic: 'learning', question: 'Could you suggest some resources to learn more about astronomy?', evidence: ["I got a secondhand Dobsonian telescope from a neighbour and I can barely find Jupiter with it. I learn best from videos rather than books, and I'd love to get into astrophotography eventually. How do I collimate the mirrors?"] },
    { kind: P, topic: 'music', question: 'Which guitar should I upgrade to?', evidence: ["My fingertips hurt after twenty minutes of practice and I wonder if my strings are too heavy. I play mostly fingerstyle folk, I've got small hands, and I'm saving about five hundred pounds for something better. Do lighter strings really make a difference?"] },
    { kind: P, topic: 'career', question: 'What should I do for my birthday this year?', evidence: ["I've been feeling burned out at work and I need something to look forward to. I'm happiest near water, kayaking or just sitting by a lake, and big parties make me anxious, I'd rather have two or three close friends around. Is it normal to feel this tired after a promotion?"] },
    { kind: P, topic: 'movies', question: 'Any suggestions for a new series to binge?', evidence: ["I cancelled two streaming apps to save money this month. I'm hooked on anything set in space with a proper mystery at its heart, and I switch off as soon as a show turns into a romance. Is there a way to see which service has which show?"] },
    { kind: P, topic: 'health', question: 'Can you recommend some healthy lunches I could bring to work?', evidence: ["I've started a new job with an hour-long commute, so my lunch has to survive a backpack. I'm pescatarian, and I'm trying to get more protein because I'm lifting weights three times a week. Are insulated lunch bags worth it?"] },
    { kind: P, topic: 'parenting', question: 'What could I do with my kids this rainy weekend?', evidence: ["My seven-year-old has suddenly become obsessed with science experiments, volcanoes, slime, anything that fizzes, and her little brother just wants to build things out of cardboard. How do I keep the mess manageable in a small flat?"] },
    { kind: P, topic: 'pets', question: 'What pet would fit my lifestyle?', evidence: ["I'm a flight attendant, so I'm away three or four nights a week, and my flat is a studio with no balcony. I grew up with reptiles and I've always found them fascinating. Do building rules usually cover tanks and terrariums?"] },
    { kind: P, topic: 'cooking', question: 'Any ideas for a picnic next Saturday?', evidence: ["My partner was just diagnosed with coeliac disease and we're relearning how to shop. We both love Mediterranean food, olives, hummus, flatbreads, and we walk everywhere, so nothing that needs a cool box. Which labels should we trust for gluten?"] },
    { kind: P, topic: 'cooking', question: 'Can you suggest a wine for our anniversary dinner?', evidence: ["My wife and I are celebrating ten years together next month and I want to cook at home. We've both got into natural wines since our trip to the Loire, and she can't drink anything high in sulphites, they give her headaches. How far ahead can I make a beef bourguignon?"] },
    { kind: M, topic: 'music', question: 'How many concerts have I been to this year?', evidence: ["My ears were ringing for a day after the Arctic Monkeys concert in May. Should I buy musician earplugs?", "I queued three hours for merch at the festival last weekend and my back is wrecked. Any stretches?", "I saw a string quartet play in a church on Tuesday and now I want to get into chamber music. Where do I start?"] },
    { kind: M, topic: 'home', question: 'What home improvements have I done since moving in?', evidence: ["I retiled the bathroom myself last month and the grout is already cracking in one corner. Can I patch it?", "We replaced all the windows in the flat in the spring and the heating bill dropped a lot. Is it worth insulating the loft too?"] },
    { kind: M, topic: 'learning', question: 'Which languages am I learning?', evidence: ["My Portuguese tutor says my pronunciation is improving but my verbs are a mess. Any tricks for irregular verbs?", "I've been doing Korean on an app every morning, forty days straight. Should I learn Hangul properly first?"] },
    { kind: M, topic: 'finance', question: 'How much money have I put aside for the holiday so far?', evidence: ["I moved 200 into my holiday pot this month after getting my bonus. Is a separate account a good idea?", "Another 150 went into the holiday savings today, we're aiming for Greece next summer. How early should I book flights?"] },
    { kind: M, topic: 'pets', question: 'What animals have I adopted?', evidence: ["The rescue centre let me take home a three-legged cat called Biscuit last week. How do I help her settle in?", "I adopted two guinea pigs from a family who were moving abroad. Do they need more company or is two enough?"] },
    { kind: M, topic: 'fitness', question: 'What injuries have I had from sport?', evidence: ["I sprained my ankle playing netball on Thursday and it's swollen. How long should I rest it?", "My tennis elbow flared up again after Saturday's match. Does a brace help?"] },
  ],
});

/** Questions per wild history (6 histories' worth of the dev list's 24 over 4 histories). */
export const WILD_PER_HISTORY = 6;
/** Filler sessions per wild history (with 3-5 exchanges a session: about 450-550 turns). */
export const WILD_FILLERS = 48;
/** First seed of the wild dev histories; the held-out ones start 50 later. */
export const WILD_SEED_BASE = 401;

const JOBS = ['nurse', 'teacher', 'software developer', 'accountant', 'student', 'project manager', 'chef', 'graphic designer', 'pharmacist', 'electrician', 'civil servant', 'researcher'];
/** First-person context lines of filler user turns (not tastes: circumstances of the request). */
const CONTEXT: readonly string[] = [
  "I'm a {j} and this week has been chaotic.",
  "I've been meaning to ask you about this for a while.",
  'My partner and I keep arguing about this.',
  'I work from home most days, so this comes up a lot for me.',
  "I'm helping a friend who is just starting out, and I want to give her good advice.",
  "We're in a small flat and money is tight this month.",
  'I tried a few things already and none of them worked for me.',
  'My manager brought this up in our one-to-one on Monday.',
  'I read an article about this last night and now I am confused.',
  "I'm putting together some notes for my team and I want them to be right.",
  "I'm a {j}, so I don't have much time in the evenings.",
  'My sister asked me about this and I realised I had no idea.',
];
/** First-person lines about the session's topic (`{w}` a topic word). */
const TOPIC_LINES: readonly string[] = [
  "I've been looking into the {w} and I keep finding opposite advice.",
  "My friend swears by the {w}, but I'm not sure it's for me.",
  "I'm trying to understand how the {w} works before I spend any money.",
  'Last time I dealt with the {w} it went badly and I lost a whole weekend.',
  'I need to explain the {w} to my team tomorrow and I want to get it right.',
  'I wrote down a few questions about the {w} so I would not forget them.',
  'My neighbour asked me about the {w} and I gave her a vague answer.',
];

const TOPIC = new Map(TOPICS.map((t) => [t.name, t]));
function topicOf(name: string): Topic {
  const t = TOPIC.get(name);
  if (t === undefined) throw new Error(`chats wild: unknown topic ${name}`);
  return t;
}

/** A long first-person user turn on a topic (25-130 words). */
function userTurn(r: Rng, words: readonly string[], ask: string): string {
  const parts = [fill(r.pick(CONTEXT), { j: r.pick(JOBS) }), fill(r.pick(TOPIC_LINES), { w: r.pick(words) })];
  if (r.next() < 0.3) parts.push(`Here is what I have so far: ${answer(r, words, [], true)}`);
  parts.push(ask);
  return parts.join(' ');
}

interface Turn {
  role: 'user' | 'assistant';
  text: string;
  evidence?: { episode: number; index: number };
}

/**
 * A planted turn inside first-person chatter (the wildlong part): a context line, the plant, a
 * line about the topic and, half the time, a pasted draft, so the item sits mid-way in 40-140
 * words of a turn about something else.
 */
function longPlant(r: Rng, words: readonly string[], text: string): string {
  const parts = [fill(r.pick(CONTEXT), { j: r.pick(JOBS) }), text, fill(r.pick(TOPIC_LINES), { w: r.pick(words) })];
  if (r.next() < 0.5) parts.push(`Here is what I have so far: ${answer(r, words, [], true)}`);
  return parts.join(' ');
}

/** A session of 3-5 exchanges on a topic; `plant` (a user turn) is said at a random exchange (inside chatter when `long`). */
function session(r: Rng, topic: Topic, plant?: { text: string; episode: number; index: number; long?: boolean }, trap?: readonly string[]): Turn[] {
  const exchanges = 3 + r.int(3);
  const at = r.int(exchanges);
  const words = trap !== undefined ? [...trap, ...topic.words.slice(0, 3)] : topic.words;
  const out: Turn[] = [];
  for (let i = 0; i < exchanges; i++) {
    if (plant !== undefined && i === at) {
      out.push({ role: 'user', text: plant.long === true ? longPlant(r, topic.words, plant.text) : plant.text, evidence: { episode: plant.episode, index: plant.index } });
      out.push({ role: 'assistant', text: answer(r, echo(plant.text, topic)) });
      continue;
    }
    let ask = fill(r.pick(topic.asks), { w: r.pick(words) });
    if (trap !== undefined && i === 0) ask = `My friend asked me about the ${trap.slice(0, 3).join(', ')}, and I said I'd ask you for her. ${ask}`;
    out.push({ role: 'user', text: userTurn(r, words, ask) });
    out.push({ role: 'assistant', text: answer(r, words) });
  }
  return out;
}

/** The questions of a wild part, in history order. */
export function wildEpisodes(part: WildPart): readonly WildEpisode[] {
  return part === 'wildheld' ? WILD_EPISODES.held : WILD_EPISODES.dev;
}

/**
 * One wild history: its episodes' evidence sessions (a multi-session question's turns spread
 * over the history), one trap session per question, {@link WILD_FILLERS} filler sessions, one
 * session every 1-4 days from a seed-chosen day in 2023. Turn ids `S<session>:<turn>`.
 * Deterministic for a seed.
 */
export function generateWildHistory(seed: number, eps: readonly WildEpisode[], long = false): ChatHistory {
  const r = rng(seed);
  type Slot = { key: number; make: () => Turn[] };
  const slots: Slot[] = [];
  eps.forEach((e, ei) => {
    e.evidence.forEach((text, pi) => {
      const key = (pi + r.next()) / e.evidence.length; // the turns of one question in different parts of the history
      slots.push({ key, make: () => session(r, topicOf(e.topic), { text, episode: ei, index: pi, long }) });
    });
    const qw = questionWords(e.question);
    slots.push({ key: r.next(), make: () => session(r, topicOf(e.topic), undefined, qw.length > 0 ? qw : undefined) });
  });
  for (let i = 0; i < WILD_FILLERS; i++) slots.push({ key: r.next(), make: () => session(r, r.pick(TOPICS)) });
  slots.sort((a, b) => a.key - b.key);
  const observations: Observation[] = [];
  const where = new Map<string, string>();
  let day = Date.UTC(2023, r.int(6), 1 + r.int(27), 9 + r.int(9), r.int(60));
  slots.forEach((slot, si) => {
    day += (1 + r.int(4)) * 86_400_000;
    slot.make().forEach((t, ti) => {
      const turnId = `S${si + 1}:${ti + 1}`;
      observations.push({ text: t.text, speaker: t.role, sessionId: `session_${si + 1}`, turnId, observedAt: new Date(day + ti * 60_000).toISOString(), source: `chats:${seed}` });
      if (t.evidence) where.set(`${t.evidence.episode}:${t.evidence.index}`, turnId);
    });
  });
  const questions: LocomoQuestion[] = eps.map((e, ei) => ({
    id: `chats-wild-${seed}#${ei}`,
    question: e.question,
    answer: '',
    category: kindCategory(e.kind),
    evidence: e.evidence.map((_, pi) => where.get(`${ei}:${pi}`) as string),
    brokenEvidence: false,
  }));
  return { sampleId: `chats-wild-${seed}`, speakers: ['user', 'assistant'], observations, questions, seed };
}

/**
 * Parts of the wild set: wilddev (tune on it), wildheld (reported only) and wildlong (tune on it:
 * wilddev's questions on other seeds, every planted turn inside 40-140 words of chatter, the
 * style of a user who writes long messages).
 */
export type WildPart = 'wilddev' | 'wildheld' | 'wildlong';

/** Seeds of a wild part: {@link WILD_SEED_BASE} onwards (dev), 20 later (wildlong), 50 later (held-out). */
export function wildSeeds(part: WildPart): number[] {
  const eps = wildEpisodes(part);
  const base = WILD_SEED_BASE + (part === 'wilddev' ? 0 : part === 'wildlong' ? 20 : 50);
  return Array.from({ length: Math.ceil(eps.length / WILD_PER_HISTORY) }, (_, i) => base + i);
}

/**
 * The histories of a wild part: {@link WILD_PER_HISTORY} questions each, preference and
 * multi-session questions mixed (every history gets both kinds), in {@link wildSeeds} order.
 */
export function wildHistories(part: WildPart): Array<() => ChatHistory> {
  const eps = wildEpisodes(part);
  const prefs = eps.filter((e) => e.kind === P);
  const multi = eps.filter((e) => e.kind === M);
  const seeds = wildSeeds(part);
  return seeds.map((seed, i) => {
    const pick = (xs: readonly WildEpisode[]): WildEpisode[] => xs.filter((_, j) => j % seeds.length === i);
    const mine = [...pick(prefs), ...pick(multi)];
    return () => generateWildHistory(seed, mine, part === 'wildlong');
  });
}
