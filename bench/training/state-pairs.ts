/**
 * The labelled state-update pairs the state-update head is trained and evaluated on (issue 14;
 * dev only, every name, place, company and address invented). Generated deterministically from
 * template families × invented values with a seeded PRNG (mulberry32, seed {@link PAIR_SEED}).
 *
 * Each kind (lives, works, relationship, owns, schedule, preference, contact, plan) has several
 * phrasings of the older state and of its update; the LAST phrasing of every list (and a disjoint
 * name and value pool) is held out, so held-out pairs use phrasings, names and values never seen
 * in training. Positives are updates of the same subject's state (with a change phrasing, or a plain
 * restatement of the older phrasing with a new value, whose twin with the same value is a negative,
 * or a state that ends with its value named again: "I quit Brightloom", or unnamed: "I quit my
 * job"); hard negatives: the same kind told as history ("I used to live in X"), the end of
 * another state of the same kind ("I quit Y" after "I work at X"), are additions
 * ("I also..."), repeats ("still..."), the same change said about a different person, an
 * unrelated state of the same person, the same topic with another key (a bike vs a car, email vs
 * phone), an update stated before the older memory (time reversed), and chatter that holds no
 * state at all (one per positive step: what most pairs in a real conversation look like).
 *
 * This set is independent of bench/time/cases.ts (whose 47 state pairs wrote the stand-in's
 * rules); neither is used to choose anything of the other.
 *
 * @module
 */
import type { StateSide } from '../../src/system-one/state-update.js';
import { prng } from '../../test/helpers/prng.js';

/** The seed of the generator. */
export const PAIR_SEED = 1414;

/** Why a pair is labelled as it is. */
export type PairFamily = 'update' | 'end' | 'end-unnamed' | 'end-other' | 'history' | 'plain-update' | 'plain-repeat' | 'chatter' | 'conversation' | 'addition' | 'repeat' | 'other-subject' | 'unrelated-state' | 'other-key' | 'time-reversed';

/** One labelled pair. */
export interface StatePair {
  kind: string;
  family: PairFamily;
  split: 'train' | 'heldout';
  newer: StateSide;
  older: StateSide;
  /** 1 when `newer` updates the state `older` holds, else 0. */
  label: 0 | 1;
}

const NAMES = { train: ['Ilvara', 'Tobrin', 'Quenna', 'Marek', 'Sefa', 'Orlin', 'Dessa', 'Kaveh', 'Brisa', 'Ytzel'], heldout: ['Pellam', 'Runa', 'Zorev', 'Aimsa', 'Tellow', 'Nikka'] };
const VALUES: Record<string, { train: string[]; heldout: string[] }> = {
  place: { train: ['Varnholt', 'Lessington', 'Quarrow', 'Brelmouth', 'Ostervik', 'Calder Falls'], heldout: ['Ketterby', 'Mirrowdale', 'Suncrest', 'Halvik'] },
  company: { train: ['Brightloom', 'Kestrel Labs', 'Ondura', 'Vexwell', 'Harrowgate Foods', 'Plinth'], heldout: ['Corvane', 'Tessaly Bank', 'Mirefield', 'Quillon'] },
  partner: { train: ['Joss', 'Amrit', 'Severin', 'Lio', 'Noor', 'Fenna'], heldout: ['Calix', 'Wrenna', 'Oduya', 'Pim'] },
  brand: { train: ['Voltra', 'Pemberly', 'Kessel', 'Arvo', 'Lumen'], heldout: ['Torvik', 'Zephra', 'Gallo'] },
  object: { train: ['car', 'bike', 'van', 'guitar'], heldout: ['boat', 'piano', 'laptop'] },
  activity: { train: ['pottery class', 'choir practice', 'chess club', 'swim training'], heldout: ['fencing lesson', 'band rehearsal', 'book club'] },
  day: { train: ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays'], heldout: ['Fridays', 'Saturdays', 'Sundays'] },
  topic: { train: ['food', 'film', 'colour'], heldout: ['band', 'dessert', 'book'] },
  liking: { train: ['ramen', 'plum cake', 'teal', 'lentil soup', 'the Quiet Orchard'], heldout: ['falafel', 'saffron rice', 'the Long Tide', 'amber'] },
  email: { train: ['ilv@corvo.example', 'tb88@plume.example', 'q.m@rook.example', 'sun@ferra.example'], heldout: ['pz@hollow.example', 'rr@gale.example', 'moss@tarn.example'] },
  phone: { train: ['555-0142', '555-0177', '555-0123', '555-0190'], heldout: ['555-0111', '555-0168', '555-0135'] },
  plan: { train: ['trip', 'party', 'concert', 'visit'], heldout: ['wedding', 'holiday', 'tour'] },
};

/**
 * Chatter: everyday lines holding no state, many with change or addition words ("now", "new",
 * "also"); most pairs maintenance meets in a real conversation are like these. {V} a value of the
 * older's kind, so some share a word with it. The last one is held out.
 */
const CHATTER = {
  train: ['Haha, now that is a new one for me!', 'I also loved the photos you sent.', 'We went hiking again, the weather was great.', 'I am so tired now, long day.', 'Did you see the game? It was wild, no longer close at half time.', 'Talking about {V} reminds me of a funny story.', 'Thanks! I will tell you more about {V} tomorrow.', 'My new haircut is a disaster, ha.'],
  heldout: ['Right now I just want pizza and a nap; {V} can wait.'],
};

/**
 * Conversation: the long lines of a chat between two friends, built from parts — a greeting that
 * names the other person ({O}), a sentence with an invented title or place ({T}), and a line of
 * encouragement or news whose words also occur in state changes ("quit", "new", "since then",
 * "working hard", "moved"). Pairs of these (same speaker or not) are labelled 0: they hold no
 * state that changes. Parts of the last entry of each list are held out.
 */
const CONVERSATION = {
  greeting: ['Hey {O}! Long time no talk.', 'Thanks, {O}!', 'Wow {O}, that is so cool!', 'Hi {O}, great to hear from you!', 'Oh {O}, I know what you mean.', 'Aww, {O}, that means a lot.'],
  middle: [
    'Last weekend we watched {T} and it blew my mind.',
    'I finally read {T}, the ending was wild.',
    'We went to a little market in {T}, so many colours.',
    'My kids keep talking about {T} since then.',
    'There was a new exhibit on {T} at the museum.',
    'I remember you telling me about {T}, right?',
  ],
  coda: [
    'Do not quit, keep working hard and you will get there!',
    'A lot has changed since then, but I am doing fine now.',
    'It feels like a new chapter, I am so excited.',
    'That moved me so much, I cried a bit.',
    'I will not give up, whatever comes my way.',
    'Most people would have quit by then, but not you.',
    'We left early because of the rain, so we went home.',
    'I had to shut down my laptop twice today, it kept freezing.',
    'Let us catch up again soon, I want to hear everything.',
  ],
  title: { train: ['the Glass Harbour', 'Morrowfield', 'Captain Ossery', 'the Ember Trail', 'Lindqvist Park', 'Solbrae'], heldout: ['the Paper Moons', 'Ardwick Hollow', 'Mira Stennet'] },
};

/** Templates: {S} the subject's name, {V} the value, {K} a key (object, activity, topic). First person uses "I". */
interface KindTemplates {
  key: keyof typeof VALUES | null;
  value: keyof typeof VALUES;
  older: string[];
  update: string[];
  /** The state ends, the older value named again ("I quit {V}"): an update (absent for plans, whose end is a cancellation). */
  end: string[];
  /** The state ends without naming the older value ("I quit my job"): an update. */
  endUnnamed: string[];
  /** The same kind of state told as history, with another value ("I used to live in {V}"): not an update. */
  history: string[];
  addition: string[];
  repeat: string[];
  otherKey: string[];
}

const KINDS: Record<string, KindTemplates> = {
  lives: {
    key: null,
    value: 'place',
    older: ['I live in {V} these years.', 'We have lived in {V} since we married.', 'My home is a little flat; I live in {V}.', 'Home for me is {V}, I have a place there.'],
    update: ['I moved to {V} last month!', 'I settled in {V} after the summer.', 'We relocated to {V} in the spring.', 'I no longer live there, I live in {V} now.', 'Big change: home is {V} these days, I packed everything up.'],
    end: ['I moved out of {V}, the lease ended.', 'We left {V} for good.', 'I no longer live in {V}.', 'That chapter in {V} is closed; the keys went back to the landlord.'],
    endUnnamed: ['I moved out last month, the flat is empty now.', 'We left the old place for good.', 'I gave up my flat, the lease is over.', 'The old flat is behind me; I handed back the keys.'],
    history: ['I used to live in {V} years ago.', 'When I was a kid we lived in {V}.', 'I grew up in {V}, lovely town.', 'Back in my student days home was {V}.'],
    addition: ['I also moved my office to {V}.', 'We bought a cabin in {V} as well, for weekends.', 'I also have a studio near {V} now.'],
    repeat: ['I still live in {V}, nothing changed.', 'We are still in {V}, same flat.', 'Yes, home is still {V}, as always.'],
    otherKey: ['My office is in {V}.', 'My parents live in {V}.', 'I grew up near {V}.'],
  },
  works: {
    key: null,
    value: 'company',
    older: ['I work at {V} as an engineer.', 'I have a job with {V} in sales.', 'I work for {V}, on the night team.', 'My employer is {V}; I am on the design team.'],
    update: ['I quit and joined {V} last week.', 'I took a job at {V} in the autumn.', 'I began working for {V} in June.', 'I switched jobs, I work at {V} now.', 'I left my old job and started at {V}.', 'New employer: {V} hired me, first day was Monday.'],
    end: ['I quit {V} last week.', 'I left {V} in March.', 'I no longer work at {V}.', 'My last day at {V} was Friday, I handed in my badge.'],
    endUnnamed: ['I quit my job last week.', 'Today was my last day at work.', 'I resigned, no more office for me.', 'I handed in my notice and walked out; the job is history.'],
    history: ['I used to work at {V} years ago.', 'When I was a student I had a job with {V}.', 'Back then I worked for {V}, a long time ago.', 'My first job, decades back, was at {V}.'],
    addition: ['I also work for {V} on weekends.', 'I took a second job with {V} too.', 'I also do some consulting for {V}.'],
    repeat: ['I still work at {V}, same team.', 'Still at {V}, the job is going fine.', 'I work at {V} again this year, as before.'],
    otherKey: ['My brother works at {V}.', 'I had an interview at {V} but it is just a chat.', 'I bought shares of {V}.'],
  },
  relationship: {
    key: null,
    value: 'partner',
    older: ['I am dating {V}, we met at a gig.', 'My girlfriend {V} is coming over tonight.', 'I am engaged to {V}!', 'I have been with {V} for two years now, we share a flat.'],
    update: ['I broke up with my ex, and now I am seeing {V}.', 'I got engaged to {V} last month.', 'My new partner {V} is wonderful.', 'I am now married to {V}.', 'Things with my ex are over; {V} and I are together since spring.'],
    end: ['I broke up with {V}.', '{V} and I split up.', 'I am no longer with {V}.', 'It is over between {V} and me; we ended it.'],
    endUnnamed: ['We broke up last week.', 'We split up, it is over.', 'I am single again, we ended things.', 'The relationship is finished; we went separate ways.'],
    history: ['I used to date {V} in school.', 'When I was young I was engaged to {V}.', 'Years ago I went out with {V}.', 'My first love, long ago, was {V}.'],
    addition: ['I also met {V} at the gig, a lovely friend too.', 'My friend {V} came along as well.', 'Another friend, {V}, joined us too.'],
    repeat: ['I am still dating {V}, going strong.', 'Still with {V}, we had our anniversary again.', 'Yes, {V} and I are still together, as always.'],
    otherKey: ['My sister is dating {V}.', 'My cousin {V} visited.', 'I work with {V}.'],
  },
  owns: {
    key: 'object',
    value: 'brand',
    older: ['I drive a {V} {K}.', 'I own an old {V} {K}.', 'I have a {V} {K}, it is great.', 'The {K} I use every day is a {V}.'],
    update: ['I sold my {K} and bought a new {V} {K}.', 'I bought a {V} {K} last week.', 'I got a new {V} {K}, the old one is gone.', 'I no longer have my old {K}; I bought a {V} {K}.', 'Replaced the {K} last week — it is a {V} these days.'],
    end: ['I sold my {V} {K}.', 'We gave away the {V} {K}.', 'I no longer have the {V} {K}.', 'The {V} {K} is gone, a neighbour took it off my hands.'],
    endUnnamed: ['I sold my {K} last week.', 'We got rid of the {K}.', 'Someone stole my {K} yesterday.', 'The {K} is gone for good; I have none now.'],
    history: ['I used to drive a {V} {K} years ago.', 'When I was a kid we had a {V} {K}.', 'Back then I owned a {V} {K}.', 'My very first {K}, long ago, was a {V}.'],
    addition: ['I also bought a {V} {K} for my son.', 'I got a second {V} {K} too.', 'We have another {V} {K} as well now.'],
    repeat: ['I still drive my {V} {K}.', 'Still have the {V} {K}, it runs fine again.', 'The {V} {K} is still with me, as always.'],
    otherKey: ['I bought a {V} {K} for my neighbour.', 'My dad has a {V} {K}.', 'I rented a {V} {K} for the weekend.'],
  },
  schedule: {
    key: 'activity',
    value: 'day',
    older: ['My {K} is on {V} at 6.', 'I go to {K} every week on {V}.', 'The {K} meets on {V} evenings.', 'On {V} I have {K}, it is the highlight of my week.'],
    update: ['My {K} moved to {V}.', 'This term my {K} is on {V}.', 'The {K} is now on {V} instead.', 'They rescheduled the {K} to {V}.', 'From now the {K} happens {V}; the old slot is gone.'],
    end: ['I stopped going to {K} on {V}.', 'The {K} on {V} ended for good.', 'No more {K} on {V} for me, I dropped out.', 'I gave up the {K}; {V} evenings are free now.'],
    endUnnamed: ['I stopped going to {K}.', 'The {K} ended for good.', 'No more {K} for me, I dropped out.', 'I gave up on {K} entirely; my evenings are free.'],
    history: ['I used to have {K} on {V} years ago.', 'When I was at school {K} was on {V}.', 'Back then the {K} met on {V}.', 'Long ago my {K} was always on {V}.'],
    addition: ['I also joined a {K} on {V}.', 'There is a second {K} on {V} too.', 'I added another {K} on {V} as well.'],
    repeat: ['My {K} is still on {V}.', 'The {K} is on {V} again this term, as always.', 'Still doing {K} on {V}, as usual.'],
    otherKey: ['My daughter has {K} on {V}.', 'The gym is closed on {V}.', 'I clean the flat on {V}.'],
  },
  preference: {
    key: 'topic',
    value: 'liking',
    older: ['My favourite {K} is {V}.', 'My favorite {K} was {V}, by far.', 'Nothing beats {V}; my favourite {K} is {V}.', 'If you ask me about {K}, I always pick {V}.'],
    update: ['My favourite {K} is now {V}.', 'These days I prefer {V} for {K}.', 'My favourite {K} has become {V}.', 'I changed my mind, my favourite {K} is {V} these days.', 'Lately I pick {V} whenever {K} comes up; the old choice bores me.'],
    end: ['I am over {V}, it is no longer my favourite {K}.', 'I stopped liking {V}.', '{V} is not my favourite {K} anymore.', 'Honestly {V} bores me now; I am done with it as a {K}.'],
    endUnnamed: ['I am so over it now, that is not my favourite {K} anymore.', 'I stopped liking that {K}, done with it.', 'No more of that {K} for me, I went off it.', 'Honestly that {K} bores me now; I moved on.'],
    history: ['I used to love {V} as a {K} when I was a kid.', 'When I was young my favourite {K} was {V}.', 'Years ago my favourite {K} was {V}.', 'As a teenager I always picked {V}, long ago.'],
    addition: ['I also like {V} as a {K}.', 'Another {K} I love is {V} too.', '{V} is a great {K} as well.'],
    repeat: ['My favourite {K} is still {V}.', 'Still {V}, my favourite {K} again.', 'My favourite {K} is {V}, as always.'],
    otherKey: ['My son\'s favourite {K} is {V}.', 'I tried {V} at a fair.', 'The {K} of the year is {V}, says the paper.'],
  },
  contact: {
    key: null,
    value: 'email',
    older: ['My email is {V}, write any time.', 'My email address is {V}.', 'You can reach me, my email: {V}', 'Mail me at {V}, that is the one I check.'],
    update: ['My email changed to {V}.', 'Write to me at {V}, my email.', 'My email address is now {V}.', 'New email, my email is {V}, the old one is closed.', 'The old inbox is dead; mail me at {V} from now on.'],
    end: ['My email {V} is closed, do not use it.', 'I deleted the {V} account.', '{V} no longer works, it was shut down.', 'Please forget {V}; that mailbox is gone.'],
    endUnnamed: ['That old email is closed now, do not use it.', 'I deleted my old email account.', 'My old inbox is gone, shut down last week.', 'The previous mailbox no longer works; please forget it.'],
    history: ['I used to have the email {V} years ago.', 'When I was a student my email was {V}.', 'Back then you could mail me at {V}.', 'Long ago my address was {V}.'],
    addition: ['I also have a work email, my email is {V} too.', 'Another email is {V} as well.', 'I set up a second email: {V}.'],
    repeat: ['My email is still {V}.', 'Still the same email, {V}, as before.', 'My email is {V}, as always.'],
    otherKey: ['My phone number is {V}.', 'My sister\'s email is {V}.', 'The shop email is {V}.'],
  },
  plan: {
    key: 'place',
    value: 'plan',
    older: ['We are going to {K} in June, the {V} is booked.', 'We will go on the {V} to the coast in May.', 'I am going to the {V} next Saturday.', 'We are planning to have the {V} next month.', 'Looking forward to the {V} coming up in June.'],
    update: ['We cancelled the {K} {V}.', 'We cancelled the {V}.', 'The {V} is called off.', 'We postponed the {V}, not going anymore.', 'Sadly the {V} fell through, we scrapped it.'],
    end: [],
    endUnnamed: [],
    history: [],
    addition: ['We will also have a {V} in July.', 'There is another {V} next year too.', 'I booked a second {V} as well.'],
    repeat: ['We will still go on the {V}.', 'The {V} is still on, next month again.', 'Still going to the {V}, as always.'],
    otherKey: ['My neighbour cancelled her {V}.', 'The {V} last year was lovely.', 'I saw photos of a {V}.'],
  },
};

/** Phrasings of a list by split: the last one is held out. */
function bySplit<T>(list: readonly T[], split: 'train' | 'heldout'): T[] {
  return split === 'heldout' ? list.slice(-1) : list.slice(0, -1);
}

/**
 * Generates the pairs: per kind and split, `updatesPerKind` updates and about as many hard
 * negatives spread over the six negative families.
 */
export function generateStatePairs(perKind = { train: 24, heldout: 12 }): StatePair[] {
  const rng = prng(PAIR_SEED);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)] as T;
  const out: StatePair[] = [];
  const kinds = Object.keys(KINDS);
  const day = 86_400_000;
  const t0 = Date.parse('2023-01-01T00:00:00Z');
  for (const split of ['train', 'heldout'] as const) {
    for (const kind of kinds) {
      const k = KINDS[kind] as KindTemplates;
      const vals = VALUES[k.value]![split];
      const keys = k.key === null ? [''] : VALUES[k.key]![split];
      const fill = (tpl: string, v: string, key: string) => tpl.replaceAll('{V}', v).replaceAll('{K}', key);
      const two = (): [string, string] => {
        const a = pick(vals);
        let b = pick(vals);
        while (b === a) b = pick(vals);
        return [a, b];
      };
      const side = (name: string, text: string, time: number): StateSide => ({ text: `${name}: ${text}`, speaker: name, timeMs: time });
      const n = perKind[split];
      for (let i = 0; i < n; i++) {
        const name = pick(NAMES[split]);
        const key = pick(keys);
        const [v1, v2] = two();
        const tOld = t0 + Math.floor(rng() * 200) * day;
        const tNew = tOld + (1 + Math.floor(rng() * 300)) * day;
        const older = side(name, fill(pick(bySplit(k.older, split)), v1, key), tOld);
        const push = (family: PairFamily, newer: StateSide, label: 0 | 1, old = older) => out.push({ kind, family, split, newer, older: old, label });
        // A positive every pair, then one hard negative (families in turn, so each gets its share).
        push('update', side(name, fill(pick(bySplit(k.update, split)), kind === 'plan' ? v1 : v2, key), tNew), 1);
        // Every other step a state that ends, the older value named again ("I quit Acme").
        if (i % 2 === 0 && k.end.length > 0) push('end', side(name, fill(pick(bySplit(k.end, split)), v1, key), tNew), 1);
        // Every other step (the other half) a state that ends without its value named, and the
        // same kind told as history with another value ("I used to live in X": not news).
        if (i % 2 === 1 && k.endUnnamed.length > 0) push('end-unnamed', side(name, fill(pick(bySplit(k.endUnnamed, split)), v1, key), tNew), 1);
        // The end of another state of the same kind ("I quit Vexwell" after "I work at Ondura"): not an update.
        if (i % 2 === 1 && k.end.length > 0) push('end-other', side(name, fill(pick(bySplit(k.end, split)), v2, key), tNew), 0);
        if (i % 2 === 0 && k.history.length > 0) push('history', side(name, fill(pick(bySplit(k.history, split)), v2, key), tNew), 0);
        // Every third step also a plain restatement with no change word, from the older phrasing
        // list: with the new value an update ("I work at X." then "I work at Y."), with the same
        // value a repeat.
        if (i % 2 === 1 && kind !== 'plan') {
          push('plain-update', side(name, fill(pick(bySplit(k.older, split)), v2, key), tNew), 1);
          push('plain-repeat', side(name, fill(pick(bySplit(k.older, split)), v1, key), tNew), 0); // its twin: the same value again, no marker
        }
        // Two lines of conversation (the pairs maintenance meets most), every step: by the same
        // speaker or by the other friend, each naming the other.
        const line = (speaker: string, other: string) =>
          [pick(bySplit(CONVERSATION.greeting, split)), pick(bySplit(CONVERSATION.middle, split)), pick(bySplit(CONVERSATION.coda, split))]
            .filter(() => rng() < 0.85)
            .join(' ')
            .replaceAll('{O}', other)
            .replaceAll('{T}', pick(CONVERSATION.title[split])) || pick(bySplit(CONVERSATION.coda, split));
        {
          let friend = pick(NAMES[split]);
          while (friend === name) friend = pick(NAMES[split]);
          const [a, b] = rng() < 0.5 ? [name, name] : [friend, name];
          push('conversation', side(b, line(b, b === name ? friend : name), tNew), 0, side(a, line(a, a === name ? friend : name), tOld));
        }
        // A chatter line by the same speaker, every step.
        push('chatter', side(name, pick(bySplit([...CHATTER.train, ...CHATTER.heldout], split)).replaceAll('{V}', v1), tNew), 0);
        const fam = (['addition', 'repeat', 'other-subject', 'unrelated-state', 'other-key', 'time-reversed'] as const)[i % 6] as PairFamily;
        if (fam === 'addition') push(fam, side(name, fill(pick(bySplit(k.addition, split)), v2, key), tNew), 0);
        else if (fam === 'repeat') push(fam, side(name, fill(pick(bySplit(k.repeat, split)), v1, key), tNew), 0);
        else if (fam === 'other-subject') {
          let other = pick(NAMES[split]);
          while (other === name) other = pick(NAMES[split]);
          push(fam, side(other, fill(pick(bySplit(k.update, split)), kind === 'plan' ? v1 : v2, key), tNew), 0);
        } else if (fam === 'unrelated-state') {
          let ok = pick(kinds);
          while (ok === kind) ok = pick(kinds);
          const o = KINDS[ok] as KindTemplates;
          const ovals = VALUES[o.value]![split];
          const okey = o.key === null ? '' : pick(VALUES[o.key]![split]);
          push(fam, side(name, fill(pick(bySplit(o.update, split)), pick(ovals), okey), tNew), 0);
        } else if (fam === 'other-key') {
          // Half the time the same phrasing about another key of the kind (the film, not the food; a
          // bike, not the car), else a phrasing about another holder or place of the value.
          const others = keys.filter((x) => x !== key);
          if (others.length > 0 && rng() < 0.8) push(fam, side(name, fill(pick(bySplit(rng() < 0.5 ? k.older : k.update, split)), v2, pick(others)), tNew), 0);
          else push(fam, side(name, fill(pick(bySplit(k.otherKey, split)), v2, key), tNew), 0);
        }
        else push(fam, side(name, fill(pick(bySplit(k.update, split)), kind === 'plan' ? v1 : v2, key), tOld - 30 * day), 0);
      }
    }
  }
  return out;
}
