/**
 * Life events of one person (h-retrain, issues 22 and 24): the cross-kind non-updates the v4
 * state-update head was never fitted on. v4 read "same subject, a change word" as an update, so
 * "we bought a cabin" superseded "I moved to Oslo" and "I started learning Japanese" superseded
 * "I have two cats" (test/fixtures/state-unrelated.ts). Here a person tells of trips, illness,
 * family news, purchases, courses, hobbies, repairs, prizes, clubs, debts, habits and opinions —
 * most with the words of a change ("started", "bought", "got", "quit", "joined", "now") — and:
 *
 * - `cross-event` (0): the newer is an event of another kind than the older, which is a state of
 *   the broad grammar's nine kinds (its `older` or `update` templates: "I live in Porto.", "I
 *   started a new job at Acme.") or an event; or the older is an event and the newer a change of
 *   one of the nine kinds ("We took the kids to the Azores." → "I moved to Lyon."): nothing
 *   replaced.
 * - `addition` (0): the same slot, one more and not another ("I also took up archery" after "I
 *   took up fishing"; "We also bought an air fryer"; "I joined a film society too").
 * - `update`, `end`, `end-unnamed` (1): the kinds that hold one state end or change ("I gave up
 *   fishing", "I dropped fishing and took up archery", "I left the film society", "We sold it"),
 *   so a change word inside an event is not read as "never an update".
 *
 * Written for the trainer from general knowledge of how people talk, without reading
 * test/fixtures/state-fresh.ts's pairs (evaluation only) beyond keeping its values out: no value
 * of this module occurs there or in the grammar's held-out split (a test checks both).
 *
 * HONEST SPLIT, as bench/training/state-grammar.ts: every template and value list is cut into
 * `train` and `heldout`; within `train`, `families: 'fit' | 'validation'` keeps every fourth
 * template and the last third of each value list for validation (`familyCut`, `valueCut`).
 * Seeded (mulberry32, {@link EVENTS_SEED}); deterministic.
 *
 * @module
 */
import { prng } from '../../test/helpers/prng.js';
import { GRAMMAR, PREFIX, SPEAKERS, SUFFIX, THIRD, familyCut, fill, firstPerson, sp, thirdPerson, valueCut, whom, type GrammarFamily, type GrammarPair, type Split, type Subject } from './state-grammar.js';

/** The seed of the events' pairs. */
export const EVENTS_SEED = 2525;

/** One kind of event: its values {V} and its statements (templates as in state-grammar.ts). */
export interface EventKind {
  values: Split<string>;
  /** Statements of the event; a `{V}` names the value. */
  said: Split<string>;
  /** For kinds that hold one state at a time or accumulate (hobbies, purchases, clubs): more of the same, an end naming it {W}, a swap to {V}, an end naming none. */
  addition?: Split<string>;
  end?: Split<string>;
  update?: Split<string>;
  endUnnamed?: Split<string>;
}

/** The event kinds. */
export const EVENTS: Readonly<Record<string, EventKind>> = {
  travel: {
    values: sp(['Morocco', 'the Dolomites', 'Vietnam', 'Tuscany', 'Mexico', 'the Azores', 'Croatia', 'Cornwall', 'Sri Lanka'], ['Jordan', 'Lapland', 'Chile']),
    said: sp(['{S} booked a trip to {V}.', '{S} just got back from {V}.', '{S} {be} flying to {V} next month.', '{S} spent two weeks in {V}.', '{S} went backpacking in {V}.', '{S} {have} a holiday in {V} planned for the summer.', '{S} took the kids to {V} for the break.', '{S} finally visited {V}.'], ['{S} came home from a fortnight in {V}, sunburnt.', 'The tickets for {V} are bought, {S} leave{s} in August.']),
  },
  health: {
    values: sp(['the flu', 'a sprained ankle', 'a broken toe', 'migraines', 'a bad back', 'shingles', 'a slipped disc', 'hay fever', 'covid'], ['tendinitis', 'a concussion', 'bronchitis']),
    said: sp(['{S} caught {V} last week.', '{S} {have} been off sick with {V}.', '{S} got diagnosed with {V}.', '{S} {be} recovering from {V}.', '{S} had an operation on {P} shoulder.', '{S} started seeing a physio for {V}.', '{S} got the booster shot yesterday.', '{S} {have} been struggling with {V} lately.'], ['The doctor says {S} {have} {V}, nothing serious.', '{S} spent the night in the emergency room with {V}.']),
  },
  family: {
    values: sp(['Emil', 'Ingrid', 'Leo', 'Mila', 'Oscar', 'Vera', 'Hugo', 'Freya', 'Theo'], ['Astrid', 'Felix', 'Nils']),
    said: sp(['{P} niece {V} was born on Tuesday.', '{P} parents celebrated their fortieth anniversary.', '{P} cousin {V} got married in June.', '{P} grandmother turned ninety.', '{P} little cousin {V} started kindergarten.', '{P} sister had a baby boy, {V}.', '{P} dad moved into a care home.', '{P} godchild {V} graduated from high school.'], ['{P} aunt threw a big party for {P} cousin {V}.', 'The whole family met up for grandad turning eighty.']),
  },
  purchase: {
    values: sp(['a dishwasher', 'a standing desk', 'an espresso machine', 'a robot vacuum', 'a new mattress', 'a tablet', 'a drone', 'a smartwatch', 'a pressure cooker'], ['a projector', 'a sewing machine', 'an air fryer']),
    said: sp(['{S} bought {V}.', '{S} finally got {V}.', '{S} ordered {V} online.', '{S} splashed out on {V}.', '{S} {have} {V} now.', '{S} picked up {V} in the sale.', '{S} got {V} for {P} birthday.', '{S} got {V} as a present.'], ['{V} arrived in the post today, {S} love{s} it.', '{S} won {V} in a raffle.']),
    addition: sp(['{S} also bought {V}.', '{S} got {V} as well.', 'Next to {W}, {S} now {have} {V} too.', '{S} added {V} to the list of gadgets.'], ['On top of {W}, {S} ordered {V} as well.']),
    end: sp(['{S} sold {W}.', '{S} got rid of {W}.', '{S} gave {W} away.', '{W} broke and {S} threw it out.'], ['{S} returned {W} to the shop.']),
    update: sp(['{S} replaced {W} with {V}.', '{S} swapped {W} for {V}.', '{S} sold {W} and bought {V} instead.'], ['{W} is gone, {S} use{s} {V} now.']),
    endUnnamed: sp(['{S} sold it.', '{S} got rid of it last week.', '{S} gave it to a neighbour.', '{S} do{es} not have it anymore.'], ['It went to the recycling centre.']),
  },
  course: {
    values: sp(['an online course in statistics', 'a first-aid course', 'a coding bootcamp', 'an evening class in history', 'a night course in accounting', 'a course in sign language', 'a wine tasting course', 'a course in welding'], ['a diploma in design', 'a course in bookkeeping', 'a photography workshop']),
    said: sp(['{S} signed up for {V}.', '{S} started {V}.', '{S} {be} taking {V}.', '{S} enrolled in {V}.', '{S} finished {V}.', '{S} passed the exam of {V}.', '{S} {be} halfway through {V}.', '{S} got into {V}.'], ['{S} got a certificate for {V}.', 'Every Tuesday {S} go{es} to {V}.']),
  },
  hobby: {
    values: sp(['woodworking', 'birdwatching', 'archery', 'calligraphy', 'salsa dancing', 'fishing', 'kayaking', 'origami', 'beekeeping', 'embroidery'], ['fencing', 'juggling', 'orienteering']),
    said: sp(['{S} took up {V}.', '{S} got into {V}.', '{S} started {V} as a hobby.', '{S} {be} really into {V} now.', '{S} {have} been doing {V} every weekend.', '{S} tried {V} for the first time.', '{S} joined a {V} group.', '{S} spend{s} {P} evenings on {V} these days.'], ['{V} is {Ps} new thing, {S} do{es} it every day.', '{S} discovered {V} and cannot stop.']),
    addition: sp(['{S} also took up {V}.', '{S} picked up {V} as well.', '{S} {have} started {V} too, on top of {W}.', '{S} do{es} {V} now as well as {W}.'], ['Besides {W}, {S} now do{es} {V}.']),
    end: sp(['{S} gave up {W}.', '{S} stopped doing {W}.', '{S} {be} done with {W}.', '{S} {do} not do {W} anymore.'], ['{W} is not for {O} anymore, {S} quit.']),
    update: sp(['{S} dropped {W} and took up {V} instead.', '{S} swapped {W} for {V}.', '{S} switched from {W} to {V}.'], ['No more {W}, it is all {V} now.']),
    endUnnamed: sp(['{S} lost interest in {P} hobby.', '{S} stopped, no time for it.', '{S} quit the hobby.', '{S} packed it in.'], ['The hobby fizzled out.']),
  },
  repairs: {
    values: sp(['the kitchen', 'the attic', 'the garden shed', 'the hallway', 'the basement', 'the utility room', 'the laundry room', 'the guest room'], ['the stairs', 'the loft', 'the fence']),
    said: sp(['{S} renovated {V}.', '{S} painted {V} white.', '{S} {be} redoing {V}.', '{S} put new floors in {V}.', '{S} fixed up {V} over the summer.', '{S} hired a builder for {V}.', '{S} cleared out {V}.', '{S} insulated {V}.'], ['{V} got a makeover, {S} did it all by hand.', '{S} tore down {V} and rebuilt it.']),
  },
  prize: {
    values: sp(['a chess tournament', 'a baking competition', 'a quiz night', 'the office pub quiz', 'a poetry slam', 'a local art prize', 'a 10k race', 'a hackathon'], ['a spelling bee', 'a science fair', 'a darts league']),
    said: sp(['{S} won {V}.', '{S} came second in {V}.', '{S} got a medal at {V}.', '{S} finished {V}.', '{S} entered {V}.', '{S} {was} runner-up in {V}.', '{S} took part in {V}.', '{S} qualified for {V}.'], ['A trophy from {V} now sits on {Ps} shelf.', '{S} beat everyone at {V}.']),
  },
  club: {
    values: sp(['the neighbourhood committee', 'a hiking group', 'the parents association', 'a board game club', 'a community garden', 'a film society', 'a cycling group', 'the residents board'], ['a debate club', 'a walking group', 'the rotary club']),
    said: sp(['{S} joined {V}.', '{S} became a member of {V}.', '{S} {was} elected chair of {V}.', '{S} started helping out at {V}.', '{S} signed up for {V}.', '{S} {be} part of {V} now.', '{S} helped set up {V}.', '{S} went to {P} first meeting of {V}.'], ['{S} {be} on the board of {V} since spring.', 'Thursdays {S} {be} at {V}.']),
    addition: sp(['{S} also joined {V}.', '{S} {be} in {V} as well now.', '{S} joined {V} too, on top of {W}.', '{S} became a member of {V} as well.'], ['Besides {W}, {S} now belong{s} to {V}.']),
    end: sp(['{S} left {W}.', '{S} quit {W}.', '{S} cancelled {P} membership of {W}.', '{S} {be} no longer part of {W}.'], ['{S} stepped away from {W} for good.']),
    update: sp(['{S} left {W} and joined {V}.', '{S} swapped {W} for {V}.', '{S} moved from {W} to {V}.'], ['{S} {be} at {V} now, not {W}.']),
    endUnnamed: sp(['{S} quit the club.', '{S} cancelled the membership.', '{S} stopped going to the meetings.', '{S} left the group.'], ['The membership ran out and {S} let it go.']),
  },
  money: {
    values: sp(['a car loan', 'the credit card', 'a bank loan', 'the overdraft', 'a store card', 'the tax bill'], ['the phone contract', 'a payday loan', 'the rent arrears']),
    said: sp(['{S} paid off {V}.', '{S} finally cleared {V}.', '{S} took out {V}.', '{S} {be} saving up for a new roof.', '{S} got a tax refund.', '{S} started a pension plan.', '{S} put money into an index fund.', '{S} set up a budget spreadsheet.'], ['{V} is paid, {S} {be} debt-free.', '{S} sold some shares to cover {V}.']),
  },
  habit: {
    values: sp(['water', 'green smoothies', 'herbal tea', 'sparkling water', 'kombucha', 'fruit'], ['vitamins', 'soup', 'nuts']),
    said: sp(['{S} started drinking more {V}.', '{S} stopped biting {P} nails.', '{S} meditate{s} every morning now.', '{S} cut down on screen time.', '{S} started journaling every night.', '{S} walk{s} ten thousand steps a day now.', '{S} gave up snacking at night.', '{S} started taking cold showers.'], ['{S} {have} not had a takeaway in a month.', 'Every evening {S} now read{s} instead of scrolling.']),
  },
  opinion: {
    values: sp(['remote work', 'the new bridge', 'electric buses', 'daylight saving', 'modern art', 'the four-day week', 'homework for kids'], ['the congestion charge', 'tipping', 'reality TV']),
    said: sp(['{S} changed {P} mind about {V}.', '{S} think{s} {V} is overrated now.', '{S} {be} all for {V} these days.', '{S} came round to {V}.', '{S} {be} against {V}.', '{S} no longer believe{s} in {V}.', '{S} signed a petition about {V}.', '{S} wrote to the paper about {V}.'], ['After the debate {S} now back{s} {V}.', '{S} {have} grown tired of {V}.']),
  },
};

/** Options of {@link generateEventPairs}. */
export interface EventOptions {
  split: 'train' | 'heldout';
  /** Cross-kind non-updates; additions and same-slot updates are a quarter of it each. */
  cross: number;
  seed?: number;
  /** As state-grammar.ts `GrammarOptions.families` (ignored for `heldout`). */
  families?: 'all' | 'fit' | 'validation';
}

/** The kinds with more of the same, ends and swaps. */
export const SLOT_EVENT_KINDS = Object.freeze(Object.keys(EVENTS).filter((k) => (EVENTS[k] as EventKind).end !== undefined));

/**
 * Labelled pairs of the events (module doc): `cross` cross-kind non-updates, `cross / 4` same-slot
 * additions and `cross / 4` same-slot updates (update : end : end-unnamed about 2 : 1 : 1). Kinds
 * are `event:<kind>`; sides `{text: "<Speaker>: <sentence>", speaker, timeMs}`, the newer a day later.
 */
export function generateEventPairs(opts: EventOptions): GrammarPair[] {
  const rnd = prng((opts.seed ?? EVENTS_SEED) + (opts.split === 'train' ? 0 : 7919));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const split = opts.split;
  const fams = split === 'train' ? (opts.families ?? 'all') : 'all';
  const L = <T>(s: Split<T>): T[] => familyCut(s[split], fams);
  const V = <T>(s: Split<T>): T[] => valueCut(s[split], fams);
  const eventKinds = Object.keys(EVENTS);
  const stateKinds = Object.keys(GRAMMAR);
  const t0 = Date.UTC(2024, 6, 1);
  const out: GrammarPair[] = [];
  const subject = (we: boolean): { subj: Subject; speaker: string; person: 1 | 3 } => {
    const speaker = pick(SPEAKERS[split]);
    if (rnd() < 0.6) return { subj: firstPerson(we && rnd() < 0.25, speaker), speaker, person: 1 };
    return { subj: thirdPerson(pick(THIRD[split])), speaker, person: 3 };
  };
  const dress = (t: string, p: number): string => `${rnd() < p ? pick(PREFIX[split]) : ''}${t}${rnd() < p ? pick(SUFFIX[split]) : ''}`;
  const push = (kind: string, family: GrammarFamily, label: 0 | 1, older: string, newer: string, speaker: string, person: 1 | 3, subj: Subject): void => {
    const i = out.length;
    out.push({ kind: `event:${kind}`, family, split, person, subject: whom(subj, speaker), label, older: { text: `${speaker}: ${dress(older, 0.2)}`, speaker, timeMs: t0 + i * 864e5 }, newer: { text: `${speaker}: ${dress(newer, 0.3)}`, speaker, timeMs: t0 + (i + 1) * 864e5 } });
  };
  const event = (k: string, subj: Subject, v?: string): string => {
    const e = EVENTS[k] as EventKind;
    const val = v ?? pick(V(e.values));
    return fill(pick(L(e.said)), subj, val, val);
  };
  // "we" only for the kinds the grammar lets "we" hold (a home, a car, a pet, a schedule).
  const stateKindFor = (subj: Subject): string => pick(subj.S === 'we' ? stateKinds.filter((k) => GRAMMAR[k]?.we === true) : stateKinds);
  const state = (k: string, subj: Subject, changed: boolean): string => {
    const g = GRAMMAR[k] as (typeof GRAMMAR)[string];
    const v = pick(valueCut(g.values[split], fams));
    return fill(pick(L(changed ? g.update : g.older)), subj, v, v, g.things ? pick(L(g.things)) : '');
  };
  for (let i = 0; i < opts.cross; i++) {
    const { subj, speaker, person } = subject(true);
    const newerKind = pick(eventKinds);
    const r = rnd();
    if (r < 0.45) {
      // A state of the nine kinds, then an event.
      push(newerKind, 'cross-event', 0, state(stateKindFor(subj), subj, rnd() < 0.5), event(newerKind, subj), speaker, person, subj);
    } else if (r < 0.8) {
      let k = pick(eventKinds);
      while (k === newerKind) k = pick(eventKinds);
      push(newerKind, 'cross-event', 0, event(k, subj), event(newerKind, subj), speaker, person, subj);
    } else {
      // An event, then a change of one of the nine kinds.
      const k = stateKindFor(subj);
      push(k, 'cross-event', 0, event(newerKind, subj), state(k, subj, true), speaker, person, subj);
    }
  }
  const slotted = Math.floor(opts.cross / 4);
  for (let i = 0; i < 2 * slotted; i++) {
    const k = pick(SLOT_EVENT_KINDS);
    const e = EVENTS[k] as EventKind;
    const { subj, speaker, person } = subject(true);
    const vs = V(e.values);
    const w = pick(vs);
    let v = pick(vs);
    while (v === w) v = pick(vs);
    const older = event(k, subj, w);
    // An end or swap names the older value as known: "the drone", not "a drone".
    const wThe = w.replace(/^an? /, 'the ');
    if (i < slotted) {
      push(k, 'addition', 0, older, fill(pick(L(e.addition as Split<string>)), subj, v, wThe), speaker, person, subj);
    } else {
      const r = rnd();
      const fam: GrammarFamily = r < 0.5 ? 'update' : r < 0.75 ? 'end' : 'end-unnamed';
      const tpl = (fam === 'update' ? e.update : fam === 'end' ? e.end : e.endUnnamed) as Split<string>;
      push(k, fam, 1, older, fill(pick(L(tpl)), subj, v, wThe), speaker, person, subj);
    }
  }
  return out;
}
