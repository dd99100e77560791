/**
 * Vocabulary of the generated user/assistant chats (issue 24): everyday topics a user asks an
 * assistant about, each with the user's request templates and its words, and the generic
 * sentence templates long assistant answers are assembled from. Data only, written here (no
 * downloads).
 *
 * @module
 */

/** One topic of conversation. */
export interface Topic {
  name: string;
  /** Words the topic's talk is made of (nouns and noun phrases). */
  words: readonly string[];
  /** User requests; `{w}` is replaced by one of `words`. */
  asks: readonly string[];
}

/** Topics of distractor sessions (and the settings of evidence sessions). */
export const TOPICS: readonly Topic[] = [
  { name: 'cooking', words: ['recipe', 'dinner', 'sauce', 'oven', 'spices', 'garlic', 'pasta', 'meal prep', 'skillet', 'marinade', 'vegetables', 'broth', 'seasoning'], asks: ['Can you give me a quick {w} idea for a weeknight?', 'How do I keep my {w} from going bland?', 'What is the trick to a good {w}?', 'I want to get better at cooking. Where should I start with {w}?'] },
  { name: 'travel', words: ['itinerary', 'flight', 'hotel', 'passport', 'luggage', 'train pass', 'travel insurance', 'layover', 'museum', 'neighbourhood', 'trip', 'guidebook'], asks: ['What should I pack for a week-long {w}?', 'Any tips for dealing with a long {w}?', 'How far ahead should I book a {w}?', 'Help me plan a {w} for a long weekend.'] },
  { name: 'programming', words: ['function', 'database', 'unit test', 'API', 'refactor', 'Python script', 'deployment', 'bug', 'git branch', 'type checker', 'query', 'cache', 'loop'], asks: ['How do I debug a slow {w}?', 'What is a clean way to structure a {w}?', 'Can you explain when to use a {w}?', 'My {w} keeps failing in CI. Any ideas?'] },
  { name: 'fitness', words: ['workout', 'squats', 'stretching', 'cardio', 'protein', 'rest day', 'running shoes', 'warm-up', 'kettlebell', 'posture', 'interval training', 'gym'], asks: ['How many times a week should I do {w}?', 'Is it bad to skip the {w}?', 'Can you build me a beginner {w} plan?', 'What should I eat after a {w}?'] },
  { name: 'finance', words: ['budget', 'savings account', 'credit card', 'index fund', 'emergency fund', 'taxes', 'mortgage', 'retirement plan', 'spending', 'interest rate', 'loan'], asks: ['How do I start a {w}?', 'Is it smart to pay off a {w} early?', 'Explain how a {w} works in simple terms.', 'What mistakes do people make with a {w}?'] },
  { name: 'gardening', words: ['tomatoes', 'compost', 'soil', 'seedlings', 'raised bed', 'watering schedule', 'herbs', 'pruning', 'mulch', 'fertilizer', 'succulents', 'balcony garden'], asks: ['When should I plant {w}?', 'Why are my {w} turning yellow?', 'How much sun do {w} need?', 'What is the easiest way to start with {w}?'] },
  { name: 'music', words: ['playlist', 'chords', 'metronome', 'scales', 'headphones', 'album', 'concert', 'practice routine', 'rhythm', 'music theory', 'vinyl'], asks: ['How do I build a better {w}?', 'Can you explain {w} for a beginner?', 'What is a good {w} for focus?', 'How long should a {w} be?'] },
  { name: 'productivity', words: ['to-do list', 'calendar', 'deadline', 'focus', 'meeting notes', 'habit tracker', 'morning routine', 'email inbox', 'time blocking', 'priorities', 'project plan'], asks: ['How do I stick to a {w}?', 'What is the best way to handle my {w}?', 'Any tips to improve my {w}?', 'I keep procrastinating. Can a {w} help?'] },
  { name: 'home', words: ['leaky faucet', 'paint', 'drywall', 'shelves', 'thermostat', 'mould', 'furniture', 'lighting', 'closet', 'cleaning routine', 'rug', 'kitchen cabinets'], asks: ['How do I fix a {w}?', 'What is the cheapest way to update my {w}?', 'Any advice on choosing {w}?', 'How often should I replace the {w}?'] },
  { name: 'pets', words: ['dog', 'cat', 'puppy', 'leash training', 'vet visit', 'litter box', 'pet food', 'grooming', 'chew toys', 'dog park', 'pet insurance', 'name'], asks: ['How do I stop my neighbour\'s {w} from barking at night?', 'What should I know before getting a {w}?', 'Is {w} really necessary?', 'What are good ideas for a {w}?'] },
  { name: 'photography', words: ['camera', 'lens', 'exposure', 'aperture', 'lighting', 'tripod', 'editing software', 'portrait', 'landscape shot', 'shutter speed', 'photo'], asks: ['How do I get sharper {w} results?', 'Which {w} settings matter most?', 'Explain {w} like I am new to this.', 'What is a common {w} mistake?'] },
  { name: 'health', words: ['sleep', 'headache', 'hydration', 'vitamins', 'screen time', 'stress', 'checkup', 'posture', 'allergies', 'caffeine', 'meditation'], asks: ['How can I improve my {w}?', 'Is too much {w} a problem?', 'What helps with {w} in the afternoon?', 'Should I worry about {w}?'] },
  { name: 'career', words: ['resume', 'interview', 'job offer', 'salary', 'manager', 'promotion', 'cover letter', 'networking', 'job', 'company', 'performance review', 'new role'], asks: ['How do I prepare for a {w}?', 'Can you review how I should phrase my {w}?', 'How do I negotiate a {w}?', 'What should I ask about a {w}?'] },
  { name: 'reading', words: ['novel', 'book club', 'audiobook', 'library', 'reading list', 'author', 'poetry', 'biography', 'e-reader', 'chapter', 'book'], asks: ['Can you suggest a {w} for the summer?', 'How do I read more {w} consistently?', 'What makes a good {w}?', 'Is an {w} worth it?'] },
  { name: 'cars', words: ['oil change', 'tyres', 'car', 'brakes', 'fuel economy', 'car insurance', 'battery', 'dashboard light', 'road trip', 'electric car', 'parking'], asks: ['How often do I need an {w}?', 'What does a flashing {w} mean?', 'Is an {w} worth it for city driving?', 'How do I save money on {w}?'] },
  { name: 'learning', words: ['language app', 'vocabulary', 'online course', 'flashcards', 'grammar', 'study schedule', 'exam', 'lecture notes', 'tutor', 'certificate', 'class'], asks: ['How do I remember {w} better?', 'Is a {w} worth paying for?', 'How many hours a week for a {w}?', 'Make me a plan around {w}.'] },
  { name: 'parenting', words: ['toddler', 'bedtime', 'homework', 'screen rules', 'school', 'allowance', 'birthday party', 'tantrums', 'daycare', 'chores', 'family'], asks: ['How do I handle {w} without a fight?', 'What is a fair {w}?', 'Any ideas for a {w}?', 'At what age do kids start {w}?'] },
  { name: 'weather', words: ['rain', 'heatwave', 'snow', 'umbrella', 'forecast', 'humidity', 'winter coat', 'storm', 'sunscreen', 'wind'], asks: ['How do I prepare for a {w}?', 'What should I wear in {w}?', 'Is the {w} reliable a week out?', 'How do I protect plants from {w}?'] },
  { name: 'movies', words: ['film', 'series', 'documentary', 'streaming service', 'director', 'sequel', 'movie night', 'soundtrack', 'thriller', 'comedy', 'actor'], asks: ['Can you recommend a {w} for the weekend?', 'What makes a {w} worth watching?', 'Is that {w} any good?', 'Suggest a {w} like the one I watched.'] },
  { name: 'shopping', words: ['laptop', 'phone', 'headphones', 'mattress', 'sneakers', 'backpack', 'coffee maker', 'warranty', 'discount', 'return policy', 'gift'], asks: ['Which {w} should I buy on a budget?', 'Is it worth getting an extended {w}?', 'What should I look for in a {w}?', 'When are {w} deals best?'] },
];

/**
 * Generic sentences of long assistant answers: `{a}`, `{b}`, `{c}` are words of the session's
 * topic, `{x}` and `{y}` words of other topics (answers wander across many topics).
 */
export const ANSWER_SENTENCES: readonly string[] = [
  'A good first step is to look at your {a} before you change anything about the {b}.',
  'Many people find that the {a} matters more than the {b}, at least at the start.',
  'If you only have a little time, focus on the {a} and leave the {c} for later.',
  'It helps to think of the {a} the way you would think about {x}: small, regular adjustments work better than one big overhaul.',
  'One common mistake is treating the {b} as an afterthought; it usually shapes how the {a} turns out.',
  'You might also keep a short note of what you tried with the {c}, so you can compare next time.',
  'There is no single right answer here, because the best {a} depends on your goals, your budget and how much time you have.',
  'For example, some people pair their {a} with a simple {y} habit, and that consistency makes a real difference.',
  'If anything feels off with the {b}, it is worth checking with a professional rather than guessing.',
  'Here is a simple way to structure it: start with the {a}, then the {b}, and finish with the {c}.',
  'The same principle shows up in {x} and in {y}: preparation saves effort later.',
  'Try not to compare your {a} with what you see online, since those examples are often heavily curated.',
  'A checklist can help: decide on the {a}, set a time for the {b}, and review the {c} once a week.',
  'Keep in mind that the {c} can change with the seasons, so revisit your plan every few months.',
  'If you want a low-effort option, a basic {a} with a reliable {b} covers most situations.',
  'Some readers like to track their {a} in a spreadsheet, much like they would track {x}.',
  'Budget is often the deciding factor, and a mid-range {b} is usually the best value.',
  'Do not worry about getting the {a} perfect on day one; it is a skill you build over weeks.',
  'It can also be useful to ask friends how they handle their {c}, because practical tips travel well.',
  'In short, pick one change to the {a}, give it two weeks, and see whether the {b} improves.',
  'Finally, remember that rest, good {y} and a bit of patience make every {a} easier.',
  'People often overlook the {c}, yet it is the part that keeps the {a} sustainable.',
  'If you enjoy {x}, you can borrow the same mindset here: curiosity first, optimisation later.',
  'Let me know if you would like a more detailed plan for the {a}, or a comparison of options for the {b}.',
];

/** Openers of assistant answers. */
export const ANSWER_OPENERS: readonly string[] = [
  'Great question!',
  'Happy to help with that.',
  'Sure, here are some thoughts.',
  'That is a common challenge, and there are a few ways to approach it.',
  'Good thinking to plan this ahead.',
  'Absolutely.',
  'Thanks for the context, that helps.',
  'Here is an overview.',
];

/** Short user follow-ups inside a session. */
export const FOLLOW_UPS: readonly string[] = [
  'Thanks, that makes sense. What about the {a}?',
  'Okay. Could you expand a bit on the {b} part?',
  'Interesting. Is there a cheaper way to do the {a}?',
  'Got it. How long does that usually take?',
  'Can you make that into a short checklist?',
  'That is helpful. Anything I should avoid with the {c}?',
  'Nice. And if I only have twenty minutes a day?',
  'Could you compare that with doing the {b} instead?',
];

/** First names used for people in the histories (never speakers: speakers are roles). */
export const NAMES: readonly string[] = ['Maya', 'Jonas', 'Priya', 'Tomas', 'Aisha', 'Leo', 'Nora', 'Diego', 'Hana', 'Felix', 'Ines', 'Omar', 'Clara', 'Ravi', 'Sofia', 'Mateo', 'Yuki', 'Elena', 'Kofi', 'Greta'];

/** Cities. */
export const CITIES: readonly string[] = ['Denver', 'Lisbon', 'Austin', 'Toronto', 'Seattle', 'Porto', 'Melbourne', 'Edinburgh', 'Boston', 'Valencia', 'Portland', 'Kyoto', 'Dublin', 'Chicago'];

/** Companies. */
export const COMPANIES: readonly string[] = ['Acme Robotics', 'Brightline Health', 'Northwind Logistics', 'Crescent Analytics', 'Bluefin Studios', 'Harbor Bank', 'Pinecone Labs', 'Meridian Foods', 'Sable Energy', 'Oakridge Publishing'];
