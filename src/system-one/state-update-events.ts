/**
 * Change events of the state-update decision (h-v6, issue 24: "facts that change"): three kinds
 * of change the MLP head (./state-update-mlp.ts) and its gates refused or could not read, read
 * here by rule and answered with {@link CHANGE_EVENT_PROBABILITY}:
 *
 * 1. **Age** — both texts tell the age of one holder, the newer a higher one: "I am 25" → "I'm 26
 *    now", "My daughter is 5" → "My daughter turned 6". The gates had no age slot (the object
 *    gate saw two numbers and no shared word) and the head read 0.05. An age is a number right
 *    after "is / am / 's / 'm / turned / turns" that closes the clause or is followed by "years
 *    old", "now", "today", a time phrase or "and": "I'm 5 minutes away", "Tom is 6 feet tall" and
 *    "I was 20 when …" tell none.
 * 2. **End of a named thing** — the newer ends (quit, stopped, gave up, cancelled, closed, ended,
 *    "no longer …", "don't … anymore"; or "my X is / was cancelled") a thing whose head word the
 *    older states of the same holder in the present: "I quit smoking last week, day 7 now!" after
 *    "I smoke about ten cigarettes a day"; "Cancelled the gym membership today" after "I go to the
 *    gym … with my membership at FitLife". Not when the end is negated, wanted or planned ("I
 *    want to quit smoking"), "stopped by …", when the holders differ ("My dad quit smoking" after
 *    "I smoke"), nor when the older clause is past, negated, history or itself an end.
 * 3. **Status of an identifier** — the newer gives a status (arrived, closed, refunded, delayed …)
 *    of a labelled identifier the older names with the same label and number, the older a
 *    different status or, for a thing that always has one (an order, a ticket …), any text:
 *    "My order #4417 is on its way" → "Order 4417 arrived today"; "Support ticket 88 is open" →
 *    "Ticket 88 was closed yesterday". Order 4418, or a phone number ending in 4417, is another thing.
 *
 * A pair with a change event answers at least {@link CHANGE_EVENT_PROBABILITY} whatever the head
 * and the gates say (the event's own checks are the stricter object test). English, hand-written,
 * deterministic; each side is read once per readings memo.
 *
 * @module
 */
import { STOP_WORDS } from '../plane/text/text.js';
import type { SideReading } from './state-update-types.js';

/** What a pair with a change event answers at least (above the 0.85 threshold of SPEC 8). */
export const CHANGE_EVENT_PROBABILITY = 0.95;

/** The kind of a change event ({@link changeEvent}). */
export type ChangeEventKind = 'age' | 'end' | 'status' | 'schedule';

/** An age told in a text: its holder key and the years. */
interface AgeClaim {
  holder: string;
  years: number;
}

/** A thing a text ends: its holder key and the stems of its head word. */
interface EndClaim {
  holder: string;
  head: string;
  /** Stems of every content word of the thing ("newspaper delivery"). */
  object: string[];
}

/** What one side tells, for the rules of the module. */
interface EventReading {
  ages: AgeClaim[];
  ends: EndClaim[];
  /** Per clause: its holder key and the stems of its content words (present, positive clauses only). */
  states: Array<{ holder: string; stems: Set<string> }>;
  /** Labelled identifiers → their numbers. */
  ids: Map<string, Set<string>>;
  /** Status words of the text. */
  status: Set<string>;
  /** Times of the text (week days, dates, clock times, parts of the day). */
  times: Set<string>;
  /** Clauses that move a recurring thing to a new time: holder, the thing's stems (no time, no marker). */
  moves: Array<{ holder: string | undefined; stems: Set<string> }>;
  /** Stems of the whole text (content words). */
  allStems: Set<string>;
  /** Stems of the thing a text schedules: content words less times, markers, end verbs and the schedule words themselves ("my Spanish class on Fridays" → spanish). */
  things: Set<string>;
}

const words = (s: string): string[] => s.match(/[\p{L}\p{N}#'-]+/gu) ?? [];

/** Clauses: sentences cut at , ; : ! ? and "but", "so", "because". */
function clauses(text: string): string[][] {
  const out: string[][] = [];
  for (const c of text.split(/[.!?;:,()]+|\s+(?=(?:but|so|because|although|though|while)\s)/iu)) {
    const ws = words(c).flatMap((w) => {
      const m = /^(.+?)('m|'s|'re|'ve|'ll|'d|n't)$/iu.exec(w);
      if (m === null) return [w];
      const tail = (m[2] as string).toLowerCase();
      const base = m[1] as string;
      // "I'm" → I am; "Tom's 40" → Tom is; "don't" → do not.
      return tail === "n't" ? [base.toLowerCase() === 'wo' ? 'will' : base.toLowerCase() === 'ca' ? 'can' : base, 'not'] : [base, tail === "'m" ? 'am' : tail === "'s" ? 'is' : tail === "'re" ? 'are' : tail === "'ve" ? 'have' : tail === "'ll" ? 'will' : 'would'];
    });
    if (ws.length > 0) out.push(ws);
  }
  return out;
}

/** A crude English stem: -ing/-ed/-es/-s/-e cut (≥ 3 letters kept), a doubled last consonant undone, -ship/-y dropped. */
export function eventStem(w: string): string {
  let s = w.toLowerCase().replace(/'s?$/, '');
  s = s.replace(/ship$/, '');
  const cut = s.replace(/(?:ing|ed|es|s|e|y)$/, '');
  s = cut.length >= 3 ? cut : s;
  return /([b-df-hj-np-tv-z])\1$/.test(s) ? s.slice(0, -1) : s;
}

const OPENERS = new Set('and but so now well also just finally officially recently already then oh yes yeah ok okay honestly'.split(' '));
const POSSESSIVES = new Set('my our his her their your'.split(' '));

/** Nouns of people: "my dad" is a holder of his own, "my gym membership" a thing of the speaker's. */
const PEOPLE = new Set(
  ('dad mom mum mother father brother sister son daughter wife husband partner boyfriend girlfriend grandma grandpa grandmother grandfather ' +
    'aunt uncle cousin friend boss manager colleague roommate flatmate neighbour neighbor kid kids child children baby fiance fiancee nephew niece parents')
    .split(' '),
);

/**
 * The holder of a clause (its subject) as a key: `self` for I / we, for "my / our <thing>" and for
 * a clause that opens on its verb ("Cancelled the gym membership today"); `rel:<noun>` for "my
 * sister", "his dad"; `name:<name>` for a capitalised name; undefined otherwise. `age` asks for the
 * holder of an age: then "we" and a thing have none. `verbAt`: the index of the clause's verb when
 * known. `from`: the index after the subject.
 */
function holderOf(ws: readonly string[], verbAt?: number, age = false): { holder: string | undefined; from: number } {
  let i = 0;
  while (i < ws.length && OPENERS.has((ws[i] as string).toLowerCase())) i++;
  const w = ws[i];
  if (w === undefined) return { holder: verbAt === i ? 'self' : undefined, from: i };
  const lw = w.toLowerCase();
  if (lw === 'i' || (lw === 'we' && !age)) return { holder: 'self', from: i + 1 };
  if (POSSESSIVES.has(lw)) {
    // The noun: the word before the verb, else the next one ("my yoga class is" → class).
    const end = verbAt !== undefined && verbAt > i + 1 ? verbAt - 1 : i + 1;
    const noun = (ws[end] ?? '').toLowerCase();
    if (noun === '') return { holder: undefined, from: i };
    if (PEOPLE.has(noun) || PEOPLE.has(noun.replace(/s$/, ''))) return { holder: `${lw === 'our' ? 'my' : lw}:${noun}`, from: end + 1 };
    return { holder: age || !(lw === 'my' || lw === 'our') ? undefined : 'self', from: end + 1 };
  }
  if (verbAt === i) return { holder: 'self', from: i };
  if (/^\p{Lu}\p{Ll}+$/u.test(w) && !STOP_WORDS.has(lw)) return { holder: `name:${lw}`, from: i + 1 };
  return { holder: undefined, from: i };
}

/** The name in "our dog Rex", "my sister Ana" (a possessive, a noun, a capitalised name): then the name is the holder. */
function namedHolder(ws: readonly string[], verbAt: number): string | undefined {
  const name = ws[verbAt - 1];
  return name !== undefined && verbAt >= 3 && /^\p{Lu}\p{Ll}+$/u.test(name) && POSSESSIVES.has((ws[verbAt - 3] as string).toLowerCase()) ? `name:${name.toLowerCase()}` : undefined;
}

const AGE_VERBS = new Set(['is', 'am', 'turned', 'turns']);
/** Words that may follow an age: the clause goes on with a time, "years old", or a conjunction. */
const AFTER_AGE = new Set('years year yrs y/o yo now today yesterday tomorrow this last on in since already and but next soon'.split(' '));

function agesOf(cls: readonly string[][]): AgeClaim[] {
  const out: AgeClaim[] = [];
  for (const ws of cls) {
    for (let j = 1; j < ws.length; j++) {
      const n = ws[j] as string;
      if (!/^\d{1,3}$/.test(n) || !AGE_VERBS.has((ws[j - 1] as string).toLowerCase())) continue;
      const next = ws[j + 1]?.toLowerCase();
      if (next !== undefined && !AFTER_AGE.has(next)) continue;
      if ((next === 'years' || next === 'year') && ws[j + 2] !== undefined && ws[j + 2]?.toLowerCase() !== 'old') continue;
      // The verb, after "just" / "has" / "have" ("I just turned 20", "she has turned 6").
      let v = j - 1;
      while (v > 0 && /^(?:just|has|have|finally|officially|already|now)$/i.test(ws[v - 1] as string)) v--;
      // The holder must be the whole subject ("I", "my daughter", "Rex"), not "the score" or "it".
      const h = holderOf(ws.slice(0, v), v, true);
      const holder = namedHolder(ws, v) ?? (h.from === v ? h.holder : undefined);
      if (holder === undefined) continue;
      const years = Number(n);
      if (years >= 1 && years <= 120) out.push({ holder, years });
    }
  }
  return out;
}

/** End verbs (past or present: "I quit", "stopped", "gave up"). */
const END_VERBS = new Set('quit quitted stopped gave kicked cancelled canceled ended closed dropped ditched unsubscribed'.split(' '));
/** Before an end verb: a wish, a plan, a negation — no end yet. */
const NOT_YET = new Set('to will would should could can cannot might may not never going gonna wanna trying try want wants hope hoping plan planning thinking if about'.split(' '));
/** Particles and determiners after the verb, skipped. */
const SKIP_AFTER = new Set('up off my our the a an his her their your out of on with'.split(' '));
/** Words that close the object of an end. */
const CLOSE_OBJECT = new Set('online again for because after since last this that yesterday today ago before when as at by in from now finally forever entirely completely altogether cold turkey and but'.split(' '));
/** Verbs too general to be the thing ("stopped taking melatonin" ends melatonin). */
const LIGHT = new Set('take taking takes took have having has get getting go going do doing doing use using using eat eating drink drinking buy buying pay paying'.split(' '));
const PASSIVE_END = new Set('cancelled canceled closed ended over terminated'.split(' '));
/** Clause marks of a past, negated or merely told state: the older's clause must hold none. */
const NOT_PRESENT = /^(?:was|were|did|had|used|ago|yesterday|last|never|not|no|quit|quitted|stopped|cancelled|canceled|ended|closed|gave|once|when|if|would|want|wanted)$/i;

function endsOf(cls: readonly string[][]): EndClaim[] {
  const out: EndClaim[] = [];
  for (const ws of cls) {
    const lw = ws.map((w) => w.toLowerCase());
    for (let j = 0; j < lw.length; j++) {
      const w = lw[j] as string;
      let objFrom = -1;
      let holder: string | undefined;
      const passive = PASSIVE_END.has(w) && j >= 2 && /^(?:is|was|got|been|are|were)$/.test(lw[j - 1] as string);
      if (END_VERBS.has(w) && !passive && !(w === 'gave' && lw[j + 1] !== 'up') && !(w === 'kicked' && !['the', 'my'].includes(lw[j + 1] ?? ''))) {
        let b = j - 1;
        while (b >= 0 && /^(?:just|finally|officially|already|recently|actually|have|has|had)$/.test(lw[b] as string)) b--;
        if (b >= 0 && NOT_YET.has(lw[b] as string)) continue;
        if (w === 'stopped' && /^(?:by|at|in|for|over|to)$/.test(lw[j + 1] ?? '')) continue;
        if (w === 'closed' && lw[j + 1] === 'at') continue;
        holder = namedHolder(ws, b + 1) ?? holderOf(ws.slice(0, j), b + 1).holder ?? (b < 0 ? 'self' : undefined);
        objFrom = j + 1;
      } else if (w === 'longer' && lw[j - 1] === 'no') {
        holder = holderOf(ws.slice(0, j - 1), j - 1).holder;
        objFrom = j + 1;
      } else if (w === 'not' && lw[j - 1] === 'do' || (w === 'not' && lw[j - 1] === 'does')) {
        if (!lw.slice(j + 1).some((x, k) => x === 'anymore' || (x === 'more' && lw[j + k] === 'any'))) continue;
        holder = holderOf(ws.slice(0, j - 1), j - 1).holder;
        objFrom = j + 1;
      } else if (passive) {
        // "My gym membership is cancelled": the thing before the verb.
        if (holderOf(ws.slice(0, j - 1), j - 1).holder !== 'self' || !POSSESSIVES.has(lw[0] as string)) continue;
        out.push({ holder: 'self', head: eventStem(ws[j - 2] as string), object: ws.slice(1, j - 1).filter((x) => !STOP_WORDS.has(x.toLowerCase())).map(eventStem) });
        continue;
      }
      if (objFrom < 0 || holder === undefined) continue;
      let head: string | undefined;
      const object: string[] = [];
      for (let k = objFrom; k < lw.length; k++) {
        const x = lw[k] as string;
        if (head !== undefined && (CLOSE_OBJECT.has(x) || x === 'a' || x === 'the' || x === 'anymore' || x === 'any')) break;
        if (head === undefined && (SKIP_AFTER.has(x) || LIGHT.has(x))) continue;
        if (CLOSE_OBJECT.has(x) || x === 'anymore' || x === 'any') break;
        if (STOP_WORDS.has(x) || /^\d/.test(x)) continue;
        head = x;
        if (!LIGHT.has(x)) object.push(eventStem(x));
      }
      if (head !== undefined) out.push({ holder, head: eventStem(head), object });
    }
  }
  return out;
}

/** Present, positive clauses: holder and content-word stems (what an end may end). */
function statesOf(cls: readonly string[][]): EventReading['states'] {
  const out: EventReading['states'] = [];
  for (const ws of cls) {
    if (ws.some((w) => NOT_PRESENT.test(w) || /^\p{L}+ed$/u.test(w.toLowerCase()) && !/^(?:need|feed|seed|bleed|speed|breed)$/i.test(w))) continue;
    const holder = holderOf(ws).holder;
    if (holder === undefined) continue;
    // "I go to the gym": self; "My dad smokes": self:dad — the holder of the end is compared with it.
    out.push({ holder, stems: new Set(ws.filter((w) => !STOP_WORDS.has(w.toLowerCase()) && w.length >= 3).map(eventStem)) });
  }
  return out;
}

/** Labels of things that always have a status. */
const STATEFUL = new Set('order orders ticket tickets parcel package shipment delivery claim request case bug issue flight booking reservation application invoice refund return'.split(' '));
/** Status words (and the first word of a status phrase). */
const STATUS = new Set(
  ('arrived delivered shipped dispatched closed resolved fixed cancelled canceled refunded returned approved rejected denied declined accepted delayed landed departed boarded ' +
    'reopened merged completed paid processed confirmed pending open opened way transit review prepared placed lost stuck late time postponed escalated')
    .split(' '),
);
const NUMBER = /^[\p{L}]{0,3}\d[\p{L}\p{N}-]*$/u;
const BEFORE_NOUN = new Set('the a an this that these those my our your his her their its of for to from in on at with about by into and or but no'.split(' '));

/** Labelled identifiers (as the object gate reads them, ./state-update-object.ts, and "support ticket 88": a stateful label after a modifier). */
function idsOf(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const sentence of text.toLowerCase().split(/(?<=[.!?;:])\s+/)) {
    const ws = words(sentence).map((w) => w.replace(/^#/, ''));
    for (let i = 0; i + 1 < ws.length; i++) {
      const label = ws[i] as string;
      const num = ws[i + 1] as string;
      if (!NUMBER.test(num) || !/^\p{L}[\p{L}-]*$/u.test(label) || STOP_WORDS.has(label)) continue;
      const opens = i === 0 || BEFORE_NOUN.has(ws[i - 1] as string);
      // "support ticket 88", "Jonas says order 650 …": a label of a thing with a status names it anywhere.
      if (!opens && !STATEFUL.has(label)) continue;
      const set = out.get(label) ?? new Set<string>();
      set.add(num);
      out.set(label, set);
    }
  }
  return out;
}

/** Week days, parts of the day, clock times and dates: the times a schedule names. */
const DAY = /^(?:mon|tues|wednes|thurs|fri|satur|sun)days?$|^(?:morning|afternoon|evening|night)s?$/;
const CLOCK = /^(?:\d{1,2}(?::\d{2})?(?:am|pm)?|\d{1,2}(?:st|nd|rd|th))$/;
/** Words of a schedule change ("moved to Thursdays", "rescheduled", "now", "from now on", "switched to"). */
const MOVE = new Set('moved rescheduled now switched changed pushed shifted'.split(' '));
/** The schedule slot's own words (state-update-slots.ts 'schedule') and their plurals, with other words of recurrence: they name no thing. */
const SCHEDULE_WORD = /^(?:class(?:es)?|lessons?|rehearsals?|sessions?|appointments?|meetings?|schedules?|rescheduled|clubs?|weekly|daily|monthly|usually|always|today|tomorrow|anymore|instead|member|for|change)$/;
/** Words that are neither the thing nor its time: markers, times, quantifiers ("every other Friday"). */
const NOT_THING = new Set('moved rescheduled now switched changed pushed shifted from on at to every other first last second third each week weeks month months am pm starting start starts start'.split(' '));

function timesOf(cls: readonly string[][]): Set<string> {
  const out = new Set<string>();
  for (const ws of cls) {
    for (let k = 0; k < ws.length; k++) {
      const w = (ws[k] as string).toLowerCase();
      if (DAY.test(w)) out.add(w.replace(/s$/, ''));
      // A clock time after "at" / "to" / "from" or before am / pm; a date ("the 12th").
      else if (CLOCK.test(w) && (/(?:st|nd|rd|th|am|pm)$/.test(w) || /^(?:at|to|from|until)$/i.test(ws[k - 1] ?? '') || /^(?:am|pm|o'clock)$/i.test(ws[k + 1] ?? ''))) out.add(`${w}${/^(?:am|pm)$/i.test(ws[k + 1] ?? '') ? (ws[k + 1] as string).toLowerCase() : ''}`);
    }
  }
  return out;
}

function movesOf(cls: readonly string[][]): EventReading['moves'] {
  const out: EventReading['moves'] = [];
  for (const ws of cls) {
    const lw = ws.map((w) => w.toLowerCase());
    const m = lw.findIndex((w, k) => MOVE.has(w) && !(w === 'now' && lw[k + 1] === 'and'));
    if (m < 0 || timesOf([ws]).size === 0) continue;
    const stems = new Set(ws.filter((w) => { const x = w.toLowerCase(); return !STOP_WORDS.has(x) && !NOT_THING.has(x) && !DAY.test(x) && !CLOCK.test(x) && !/^\d/.test(x) && !LIGHT.has(x); }).map(eventStem));
    if (stems.size > 0) out.push({ holder: holderOf(ws).holder, stems });
  }
  return out;
}

const READINGS = new WeakMap<SideReading, EventReading>();

/** The events reading of a side (rules 1-4 read it), kept with its {@link SideReading}. */
export function readEvents(r: SideReading): EventReading {
  const kept = READINGS.get(r);
  if (kept !== undefined) return kept;
  const cls = clauses(r.text);
  const lower = r.text.toLowerCase();
  const status = new Set(words(lower).filter((w) => STATUS.has(w)));
  const reading: EventReading = {
    ages: agesOf(cls),
    ends: endsOf(cls),
    states: statesOf(cls),
    ids: /\d/.test(r.text) ? idsOf(r.text) : new Map(),
    status,
    times: timesOf(cls),
    moves: movesOf(cls),
    allStems: new Set(words(r.text).filter((w) => !STOP_WORDS.has(w.toLowerCase()) && w.length >= 3).map(eventStem)),
    things: new Set(words(lower).filter((x) => x.length >= 3 && !STOP_WORDS.has(x) && !NOT_THING.has(x) && !SCHEDULE_WORD.test(x) && !END_VERBS.has(x) && !LIGHT.has(x) && !DAY.test(x) && !CLOCK.test(x) && !/^\d/.test(x)).map(eventStem)),
  };
  READINGS.set(r, reading);
  return reading;
}

/**
 * The change event by which `newer` replaces `older` (their side readings, state-update.ts
 * `readStateSide`; `sameSpeaker`: the two sides have one speaker, so "I" and "my …" are one
 * holder), or undefined: rules 1-3 of the module.
 */
export function changeEvent(newer: SideReading, older: SideReading, sameSpeaker: boolean): ChangeEventKind | undefined {
  const n = readEvents(newer);
  if (n.ages.length === 0 && n.ends.length === 0 && n.ids.size === 0 && n.moves.length === 0) return undefined;
  const o = readEvents(older);
  const holderAgrees = (a: string, b: string) => a === b && (sameSpeaker || a.startsWith('name:'));
  // Rule 1: an older age of the same holder, a higher one now.
  for (const a of n.ages) if (o.ages.some((b) => holderAgrees(a.holder, b.holder) && a.years > b.years)) return 'age';
  // Rule 2: the older states the thing the newer ends, of the same holder, in the present.
  for (const e of n.ends) if (o.states.some((st) => st.stems.has(e.head) && holderAgrees(e.holder, st.holder))) return 'end';
  // Rule 3: one identifier, a new status.
  if (n.ids.size > 0 && n.status.size > 0 && o.ids.size > 0) {
    for (const [label, nums] of n.ids) {
      const theirs = o.ids.get(label);
      if (theirs === undefined || ![...nums].some((x) => theirs.has(x))) continue;
      const same = [...n.status].every((x) => o.status.has(x));
      if (!same && (o.status.size > 0 || STATEFUL.has(label))) return 'status';
    }
  }
  // Rule 4: a recurring thing of the older, every word of it, moved to a time the older does not name.
  // One speaker: "my dance lesson" of two speakers is two lessons.
  if (sameSpeaker && n.moves.length > 0 && o.times.size > 0) {
    for (const mv of n.moves) {
      if ([...mv.stems].every((x) => o.allStems.has(x)) && [...n.times].some((t) => !o.times.has(t))) return 'schedule';
    }
  }
  return undefined;
}
