/**
 * The chats bench's **preference** parts (issue 24, h-pref): recommendation and suggestion
 * questions whose evidence is one long user turn, written for this set (not the dev / novel
 * generators' wording), in the style of public long-memory chat benchmarks: the user asks for
 * help with something and mentions a taste, a constraint or a habit in passing ("I'm looking for
 * a new recipe; I've been really into Thai food lately, and I'm vegetarian"), and much later asks
 * for a recommendation that should rest on it ("What should I cook this weekend?"). About half
 * the questions never name the evidence's category.
 *
 * {@link PREFERENCE_EPISODES} has 48 questions. The first {@link PREF_DEV_COUNT} make the
 * `prefdev` part (tune on it), the rest the `prefheld` part (report only). Each history carries
 * {@link PREFS_PER_HISTORY} of them, planted in long-answer histories of the dev generator
 * (`generate.ts`: long assistant answers that echo the user's words, a trap session per question
 * that reuses the question's words, unrelated filler sessions), speakers known only by role.
 *
 * @module
 */
import type { Episode, Rng } from './episodes.js';
import { generateHistory, type ChatHistory } from './generate.js';

/** One preference question and the long user turn that is its evidence. */
export interface PreferenceEpisode {
  /** The recommendation / suggestion request. */
  question: string;
  /** The user's turn (a request for help with the taste mentioned in passing). */
  evidence: string;
  /** Topic of the evidence's session (a `topics.ts` name). */
  topic: string;
  /** Topic of the trap session. */
  trap: string;
}

/** The 48 questions: dev first ({@link PREF_DEV_COUNT}), then held-out. */
export const PREFERENCE_EPISODES: readonly PreferenceEpisode[] = Object.freeze([
  // ---- dev (32) ----
  { question: 'What should I cook this weekend?', topic: 'cooking', trap: 'cooking', evidence: "I'm looking for a new recipe to try, something I can make in one pot because my kitchen is tiny. I've been really into Thai food lately, green curry especially, and I'm vegetarian, so no fish sauce either. Do you know if coconut milk keeps once it's opened? I always end up throwing half a can away." },
  { question: 'Can you recommend a show for me to watch tonight?', topic: 'movies', trap: 'movies', evidence: "My flatmate keeps pushing me to cancel one of my streaming subscriptions and I can't decide which. For what it's worth, the only things I ever finish are slow-burn British crime dramas, the moodier the better, and I can't stand laugh tracks. Is it cheaper to rotate services month by month or just keep one all year?" },
  { question: 'Any tips for my trip next month?', topic: 'travel', trap: 'travel', evidence: "I need help sorting out travel insurance before I book anything. The tricky part is that I get terribly seasick, so I never do ferries or cruises, and I always travel with my own bike when I can, it's how I like to see a place. Does a standard policy cover a bike in the hold, or is that extra?" },
  { question: 'Which podcast should I start on my drive to work?', topic: 'cars', trap: 'cars', evidence: "My commute went up to fifty minutes each way after we moved, and my car's Bluetooth keeps dropping the connection. Music gets boring after a week; I'm a big history nerd, the ancient Mediterranean most of all, and I like hosts who argue with each other a bit. How do I reset the pairing on the head unit without losing my saved stations?" },
  { question: 'What should I get my sister for her birthday?', topic: 'shopping', trap: 'shopping', evidence: "Quick question about return policies for online orders. I bought my sister a scarf last year and she never wore it; she's all about houseplants and her balcony jungle these days, she even names them, and she hates clutter in her flat. Do most shops give store credit only, or can I insist on a refund?" },
  { question: 'Any ideas for a date night this Friday?', topic: 'parenting', trap: 'parenting', evidence: "We finally found a babysitter we trust, which feels like a miracle with a toddler who fights every bedtime. My partner and I both love live jazz, tiny basement clubs rather than big concert halls, and neither of us drinks anymore. How long should the first few evenings with a new sitter be so our son gets used to her?" },
  { question: 'What could I read on holiday?', topic: 'reading', trap: 'reading', evidence: "I'm trying to set up my new e-reader and the font settings are driving me mad. Once it works I want to get back into reading; I devour twisty locked-room mysteries, anything in the style of an old country-house puzzle, but gory thrillers give me nightmares. Is there a way to move my library loans onto it without a computer?" },
  { question: 'Can you suggest a workout I could do at home?', topic: 'fitness', trap: 'fitness', evidence: "My knee has been acting up again since the half marathon, and the physio told me to stop running for six weeks. I also really dislike anything with jumping, my downstairs neighbour complains about the noise, and I only have a yoga mat and a pair of resistance bands. How long does patellar tendon pain usually take to settle?" },
  { question: 'What game should I buy next?', topic: 'shopping', trap: 'programming', evidence: "My laptop fan is getting loud and I wonder whether it's dust or the battery. I mostly use it in the evenings for cosy farming and building games, the kind without timers or combat, because I play to wind down after work. Should I open it up myself or take it to a repair shop?" },
  { question: 'Could you help me pick a restaurant for Saturday?', topic: 'health', trap: 'cooking', evidence: "I got my blood test results back and my doctor wants me to cut down on salt, which is hard because I eat out a lot. I'm also lactose intolerant, and honestly I'm happiest at small family-run Lebanese or Turkish places with lots of grilled vegetables. Are there any everyday foods that hide a surprising amount of salt?" },
  { question: 'What kind of dog would suit me?', topic: 'pets', trap: 'pets', evidence: "Our landlord finally said yes to pets, so I'm reading up on what to sort out first. I live in a third-floor flat with no garden, I'm out at the office three days a week, and I'm slightly allergic to dander, so shedding is a real issue. Is pet insurance worth it from day one or only for older animals?" },
  { question: 'I want to pick up a new hobby. What do you suggest?', topic: 'productivity', trap: 'learning', evidence: "I've been using time blocking for a month and it mostly works, except my evenings are a blank. I sit at a screen all day for work, so I'd love something with my hands that gets me away from it, and I've always been drawn to woodwork and old furniture. How do I stop work tasks from creeping into the evening blocks?" },
  { question: 'Where should we go for our anniversary weekend?', topic: 'travel', trap: 'travel', evidence: "Can you explain how train passes work for a couple? We don't have a car and won't rent one, and we're both happiest walking around old harbour towns with good seafood rather than anything with nightlife. Do passes cover seat reservations, or is that always extra?" },
  { question: 'Any album recommendations for my long run on Sunday?', topic: 'music', trap: 'fitness', evidence: "My earbuds keep falling out when I sweat, which is annoying because I'm building up to a 20-mile run. Music-wise I've gone all in on 80s synth-pop lately, and anything around 170 beats per minute is perfect for my stride. Are the hook-over-the-ear ones actually more secure?" },
  { question: 'What should I plant in the spring?', topic: 'gardening', trap: 'gardening', evidence: "How do I get rid of the slugs on my balcony without using poison? I have a cat who wanders out there, so nothing toxic, and the balcony faces north and barely gets direct sun. I'd love to grow things I can actually eat, especially herbs for cooking. Do copper tapes really work or is that a myth?" },
  { question: 'Could you suggest a course I could take this autumn?', topic: 'learning', trap: 'career', evidence: "I'm trying to decide whether my employer's training budget can be used for evening classes. I've always wanted to learn Japanese properly, I've been watching anime with subtitles for years and I'm planning a trip to Kyoto, and I learn best in a small group rather than from an app. Who usually signs off on that kind of request?" },
  { question: 'Can you recommend a coffee machine for me?', topic: 'shopping', trap: 'health', evidence: "I need a new kettle and a few other kitchen bits. I only ever drink my coffee black and strong, I'm not into milky drinks at all, and the counter space is tiny, so anything big is out. Also, I'm clumsy in the mornings, so easy to clean matters. Is descaling with vinegar bad for the element?" },
  { question: 'What should I do with my free afternoon tomorrow?', topic: 'health', trap: 'productivity', evidence: "I've been getting tension headaches after long days at my desk. My GP said I need more time outside, which suits me, I'm happiest wandering around botanical gardens and old cemeteries with a camera, anything quiet and green. Could my monitor height be part of the problem?" },
  { question: 'Which board game should we buy for the holidays?', topic: 'parenting', trap: 'shopping', evidence: "My kids are six and nine and they fight over everything, chores, screen rules, the last biscuit. The only time they get along is when they're on the same team against me, so games where they have to cooperate work wonders, and the younger one can't read well yet. How do I set up a chore chart they won't argue about?" },
  { question: 'Any suggestions for a new phone?', topic: 'photography', trap: 'shopping', evidence: "How do I stop my photos from coming out blurry at night? I don't own a proper camera, everything I shoot is on my phone, mostly my friends' gigs in dark venues, and I refuse to carry anything bigger than my jacket pocket. Is a longer exposure the fix, or does it just make it worse?" },
  { question: 'What could I make for the team lunch on Friday?', topic: 'cooking', trap: 'career', evidence: "Our team is finally back in the office two days a week, and I've offered to organise a monthly potluck. Two of my colleagues are coeliac, one is vegan, and I personally can't handle spicy food at all. Is there a way to label dishes so people can check ingredients without it being awkward?" },
  { question: 'What film should we put on for the family movie night?', topic: 'movies', trap: 'parenting', evidence: "We're trying to cut down on screen time in the week, so Saturday evening is now our one family film slot. My youngest is scared of anything with villains, and my eldest only cares about animals and nature, especially anything about the ocean. How strict should we be on weekdays with homework apps that count as screens?" },
  { question: 'Can you recommend somewhere to stay in Lisbon?', topic: 'travel', trap: 'travel', evidence: "Before my conference in Portugal I need to get my passport renewed, and I'm not sure how long it takes. When I travel for work I always stay somewhere with a kitchen, I'm on a strict low-sodium diet and eating out every night doesn't work, and I'm a light sleeper, so street noise is a nightmare. Can I travel while the renewal is being processed?" },
  { question: 'What should I knit next?', topic: 'home', trap: 'home', evidence: "I'm clearing out the spare room and trying to find storage for my yarn stash. I only knit with natural fibres, wool and cotton, never acrylic, and I love projects I can finish in a weekend, hats and mittens rather than big blankets. Are vacuum bags safe for wool, or does it ruin the fibres?" },
  { question: 'Give me a few ideas for my garden party next weekend.', topic: 'gardening', trap: 'gardening', evidence: "My raised bed has gone completely wild this summer and I need to tidy it before people come round. Most of my friends are teetotal, and I'm really into making my own cordials and shrubs from the garden, elderflower and rhubarb mostly. How hard should I cut back the mint so it doesn't take over?" },
  { question: 'Which headphones should I buy?', topic: 'music', trap: 'shopping', evidence: "I've been practising scales on my digital piano late at night so I don't wake anyone. I wear glasses, so anything that presses on my ears gives me a headache after an hour, and I mostly listen to classical, where the quiet passages get lost with cheap gear. Is it bad for my technique to practise with the volume low?" },
  { question: 'Could you recommend a beginner camera for me?', topic: 'photography', trap: 'photography', evidence: "I just got back from a birding trip and my phone photos are useless. Everything I want to shoot is far away, birds mostly, sometimes the odd deer, and I go hiking so I don't want something heavy around my neck all day. How do people keep a lens from fogging up in the cold?" },
  { question: 'What should I listen to while I study for my exams?', topic: 'learning', trap: 'music', evidence: "I've started revising for my accountancy exams and I can't focus for more than twenty minutes. Lyrics completely distract me, but total silence makes me anxious; I used to love video game soundtracks as a teenager. Is the pomodoro method actually backed by evidence or is it just a trend?" },
  { question: 'Any suggestions for a weekend away with my dog?', topic: 'pets', trap: 'travel', evidence: "My dog has been limping a bit after our long walks, so the vet wants to see her next week. She's a fourteen-year-old greyhound, gentle but she hates being around other dogs, and I don't drive, so wherever we go has to be reachable by train. Should I be giving her joint supplements at her age?" },
  { question: 'What should I wear to the wedding in June?', topic: 'weather', trap: 'shopping', evidence: "The forecast for June is saying heatwave again, and I'm already dreading it. I have very fair skin and burn in minutes, I always go for linen because synthetic fabrics make me itch, and I'm a bridesmaid-turned-guest this time so I don't have to match anything. Is SPF 50 really that different from SPF 30?" },
  { question: 'Can you suggest a present for my dad?', topic: 'cars', trap: 'shopping', evidence: "My dad's car is making a grinding noise when he brakes and he refuses to take it to a garage. He's retired and spends every weekend fishing on the river, he still uses his grandfather's old reel, and he hates gadgets with screens. How urgent is a grinding brake, honestly?" },
  { question: 'What should we do for my son\'s party?', topic: 'parenting', trap: 'parenting', evidence: "My son's school has a new homework policy and I want to understand it before the parents' evening. He's turning eight in March, he's obsessed with dinosaurs and fossils, and loud places like soft-play centres totally overwhelm him. Is an hour of homework a night normal at his age?" },
  // ---- held-out (16) ----
  { question: 'Any ideas for dinner tonight?', topic: 'cooking', trap: 'cooking', evidence: "What's the safest way to sharpen a knife without a whetstone? I've just started cooking properly, and the only things I really crave are Japanese dishes, ramen and anything with miso, and I don't eat pork. My partner gave me a cheap knife set and it's already dull." },
  { question: 'Can you recommend a documentary?', topic: 'movies', trap: 'movies', evidence: "I'm trying to get our TV's picture settings right, everything looks too bright. I watch mostly in the evenings to learn something, I'm fascinated by space exploration and the early rocket programmes, and I fall asleep to anything about true crime. Is motion smoothing worth keeping on?" },
  { question: 'Where should I go for a week in October?', topic: 'travel', trap: 'travel', evidence: "How do I handle a long layover without losing my mind? I have a week off in October and I want to switch off completely; I'm a keen scuba diver with about forty dives logged, and I really don't like cold weather. Are airport lounges worth paying for on a six-hour wait?" },
  { question: 'What should I bring to the book club on Thursday?', topic: 'reading', trap: 'cooking', evidence: "Our book club has grown to twelve people and picking the next novel has become a fight. I'm the one who always hosts, and I love baking for it, but three of the members are gluten-free, and I have a nut allergy myself. How do other clubs decide on books without endless votes?" },
  { question: 'Could you suggest a plan for my Saturday morning?', topic: 'fitness', trap: 'fitness', evidence: "I'm trying to get back into shape after a winter of doing nothing. Gyms make me self-conscious, I'm much happier outdoors, and I've always loved open-water swimming at the lake near my house. Also I have mild asthma, so I have to be careful in cold air. How many rest days should a beginner take?" },
  { question: 'What music should I play at my barbecue?', topic: 'music', trap: 'cooking', evidence: "I'm setting up a small speaker system in the garden and the wiring confuses me. I grew up on reggae and old Motown, and my friends are mostly in their fifties, so nothing too loud or too new. Can outdoor speakers stay out all winter or do they need bringing in?" },
  { question: 'Can you recommend a new game for my kids?', topic: 'parenting', trap: 'parenting', evidence: "My twins start school in September and I'm trying to work out the morning routine. They're five, they go wild for anything with drawing and colouring, and their screen rules at home are strict, so no tablets. How early should we start practising the new wake-up time?" },
  { question: 'What should I do about lunch at work this week?', topic: 'health', trap: 'career', evidence: "I've had a lot of afternoon energy crashes lately and I think it's my eating. I'm training for a triathlon, I don't eat red meat, and I can't stand anything that needs a microwave because the office one always has a queue. Could it be my caffeine timing instead?" },
  { question: 'Which laptop should I get?', topic: 'programming', trap: 'shopping', evidence: "My Python scripts take ages to run on my old machine and I'm not sure if it's the code or the hardware. I travel every other week for work, so anything over a kilo is a no, and I do all my development in Linux, never Windows. How do I profile a script to see where the time goes?" },
  { question: 'What could we cook together as a family on Sunday?', topic: 'parenting', trap: 'cooking', evidence: "Bedtime has become a battle since the clocks changed, and I need a calmer evening routine. My daughter's favourite thing in the world is pizza, and she loves getting her hands in dough, but my son has a dairy allergy. Does a bath before bed actually help kids sleep?" },
  { question: 'Can you help me choose a plant for my desk?', topic: 'gardening', trap: 'home', evidence: "I've moved to a new office, a windowless room with only artificial light, and I'm trying to make it feel less grim. I always forget to water things, my last three cacti still died somehow, and my cat visits me at work, so nothing poisonous to cats. Should I get a daylight lamp as well?" },
  { question: 'Any recommendations for my next holiday read?', topic: 'reading', trap: 'travel', evidence: "I'm packing light for a beach week and I can't decide between the e-reader and paper. I've gotten really into narrative non-fiction about food and cooking history lately, and I'm bored of romance novels. Does sand actually damage an e-reader screen?" },
  { question: 'What should I get my wife for Christmas?', topic: 'shopping', trap: 'shopping', evidence: "I need advice on a mattress, our old one is sagging in the middle. My wife has been taking pottery classes on Tuesdays and she's completely hooked, she talks about glazes all the time, and she dislikes jewellery. Are memory foam mattresses too hot for summer?" },
  { question: 'Suggest a class I could join in the evenings.', topic: 'learning', trap: 'learning', evidence: "I've been using a language app for a year and I've plateaued. I'm really craving something social and physical after work, I've always wanted to try salsa dancing, and my evenings are only free on Tuesdays and Thursdays. Are streaks on those apps actually motivating or just stressful?" },
  { question: 'Where should we eat for my mum\'s birthday?', topic: 'cooking', trap: 'cooking', evidence: "I want to learn how to make a proper stock for soups. My mum is the one who taught me to cook; she's diabetic now and adores Italian food, and she uses a wheelchair, so step-free access always matters when we go out. Can I freeze stock in glass jars?" },
  { question: 'What kind of car should I look at?', topic: 'cars', trap: 'cars', evidence: "How often should I really be changing the oil? My current car is falling apart. I have three kids and two large dogs, I drive long distances on motorways every week, and charging an electric car isn't possible where I live, we have no driveway. Does synthetic oil last longer?" },
] as const);

/** Preference questions in the dev part (the first of {@link PREFERENCE_EPISODES}); the rest are held out. */
export const PREF_DEV_COUNT = 32;
/** Preference questions per history. */
export const PREFS_PER_HISTORY = 8;
/** Unrelated filler sessions per history (about 400 turns a history, as in the dev part). */
export const PREF_FILLERS = 48;
/** First seed of the preference histories (seed = PREF_SEED_BASE + history index). */
export const PREF_SEED_BASE = 301;

/** The episodes of a preference part. */
export function preferenceEpisodes(part: 'prefdev' | 'prefheld'): readonly PreferenceEpisode[] {
  return part === 'prefdev' ? PREFERENCE_EPISODES.slice(0, PREF_DEV_COUNT) : PREFERENCE_EPISODES.slice(PREF_DEV_COUNT);
}

function toEpisode(e: PreferenceEpisode): Episode {
  return { kind: 'single-session-preference', question: e.question, plants: [{ role: 'user', text: e.evidence, topic: e.topic, at: [0, 1] }], trapTopic: e.trap };
}

/**
 * The histories of a preference part: {@link PREFS_PER_HISTORY} of its episodes each, in
 * long-answer histories of the dev generator ({@link PREF_FILLERS} filler sessions, one trap session per
 * question), seeds {@link PREF_SEED_BASE} onwards (dev) and PREF_SEED_BASE + 50 onwards
 * (held-out). Deterministic.
 */
export function preferenceHistories(part: 'prefdev' | 'prefheld'): Array<() => ChatHistory> {
  const eps = preferenceEpisodes(part);
  const base = PREF_SEED_BASE + (part === 'prefdev' ? 0 : 50);
  const out: Array<() => ChatHistory> = [];
  for (let i = 0; i * PREFS_PER_HISTORY < eps.length; i++) {
    const mine = eps.slice(i * PREFS_PER_HISTORY, (i + 1) * PREFS_PER_HISTORY).map(toEpisode);
    out.push(() => generateHistory(base + i, { episodes: (_r: Rng) => mine, fillers: PREF_FILLERS }));
  }
  return out;
}

/** Seeds of a preference part (in {@link preferenceHistories} order). */
export function preferenceSeeds(part: 'prefdev' | 'prefheld'): number[] {
  const n = Math.ceil(preferenceEpisodes(part).length / PREFS_PER_HISTORY);
  const base = PREF_SEED_BASE + (part === 'prefdev' ? 0 : 50);
  return Array.from({ length: n }, (_, i) => base + i);
}
