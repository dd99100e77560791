/**
 * The object gate of the state-update decision (h-endgate, issues 22 and 24; h-break10 finding
 * 1): a newer state — an end or a change above all — replaces only a memory about **the same thing**. The MLP head
 * (./state-update-mlp.ts) reads "same holder + an end word" as an update, so one short "I stopped
 * taking melatonin" superseded "I take ibuprofen for my back", "I walk my dog every morning" and
 * "My favourite band is Muse"; "Order 1042 was cancelled" superseded order 1041. The slot gate
 * (./state-update-slots.ts) lets such pairs through because neither text holds a slot word.
 *
 * The gate asks of every pair the slot gate lets through: an end ("I stopped …", "we sold …"), a
 * change ("… now", "I switched to …") or a new state told plainly ("We became grandparents",
 * "I joined the Green Party", which the head read as replacing "I now work nights at the
 * airport"). Asked only of ends and changes, it left 19.6 % false supersessions on the later
 * unrelated facts (test/fixtures/state-unrelated.ts) where asked of all it leaves none of 316, at the
 * same natural cases caught (`npm run bench -- changes`, h-endgate's report). Rules, in order
 * ({@link sameObject}; English, hand-written, deterministic):
 * 1. Identifiers: a label opening a noun phrase, then a number ("Order 1042 …", "… of note 4",
 *    "my flight BA370"; not a quantity after a verb: "I run 5k"). When the newer names one and the
 *    older names the same label with the same number, they are one thing; with the same label and
 *    only other numbers, two things ("order 1041" is not "order 1042").
 * 2. State claims (state-update.ts `stateClaims`) of one kind in both texts: one slot ("I moved to
 *    Berlin" after "I live in Porto"; "I work at a pharmacy now" after "I work at the hospital"),
 *    unless the newer is an end whose claims name only other values of that kind (2b, h-su:
 *    "Tom and I broke up." after "I'm married to Alex." ends another relationship).
 * 3. Object words: the newer's content words (no stop word, no end/change/cancel marker, no light
 *    verb such as "take", no time word such as "morning" or "weekends", no speaker name) share a
 *    stem with the older's content words ("melatonin", "Acme", "Miso", "coffee"), or the two
 *    texts' slot words name one slot (./state-update-slots.ts `slotsOf`: "the car" ~ "our
 *    Toyota", "my job" ~ "I work at Acme").
 * Otherwise the pair is about two things and answers at most {@link OBJECT_DISAGREE_CAP}. An end
 * that names no object at all ("We sold it", "I quit") replaces nothing by inference: its object is
 * a pronoun or is implied, and any reading of it would be a guess; `Memory.update` names it.
 *
 * Word vectors are not used here: the state-update head's 24-dimensional word table
 * (./state-update-vectors.ts) puts "dog" and "cat" at cosine 0.90, "laptop" and "car" at 0.55
 * but "car" and "toyota" at 0.53, so no threshold separates "the same thing" from "a thing of the
 * same sort"; the slot words carry the synonyms the gate knows.
 *
 * @module
 */
import { STOP_WORDS } from '../plane/text/text.js';
import { slotsOf } from './state-update-slots.js';
import type { SideReading } from './state-update-types.js';

/** The most a pair about two different things answers (below every threshold: no update). */
export const OBJECT_DISAGREE_CAP = 0.05;

/** Words that mark an end, a change or a cancellation, and the particles of those phrases: not objects. */
const MARKERS = new Set(
  ('quit quits quitting left leave leaving broke break split divorced separated sold sell selling gave give given away got rid moved move moving out from ' +
    'longer anymore more stopped stop stopping dropped ended end over gone closed deleted shut down dead retired resigned done last day stole stolen ' +
    'together passed died relocated switched switch changed change new instead replaced rescheduled since then now these days ' +
    'cancel cancels canceled cancelled cancelling canceling called off postponed put scrapped fell through withdrew withdrawn pulled happening going finally')
    .split(' '),
);

/** Verbs too general to name what a state is about ("I take ibuprofen" and "I take melatonin", "we bought a townhouse" and "we bought a sailboat" are two things). */
const LIGHT_VERBS = new Set(
  ('take takes took taking taken buy buys bought buying have has had having get gets got getting gotten make makes made making use uses used using ' +
    'keep keeps kept keeping want wants wanted like likes liked need needs needed try tries tried trying feel feels felt ' +
    'think thought say says said tell told see saw seen come came coming goes went really also still just only even ' +
    'thing things stuff lot bit kind sort way much many every each whole ' +
    // "number" labels identifiers of every sort ("order number 48213", "my phone number"): it
    // names no object by itself (h-break11 finding 3); a contact claim or a contact slot does.
    'number numbers').split(' '),
);

/** Time words: when a state holds, not what it is about ("every morning" joins no two facts). */
const TIME_WORDS = new Set(
  ('morning mornings evening evenings night nights afternoon afternoons day days week weeks weekend weekends weekday weekdays ' +
    'month months year years today tonight yesterday tomorrow daily weekly monthly yearly always usually often sometimes never ' +
    'time times hour hours minute minutes spring summer autumn fall winter ago recently lately early late ' +
    'monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays sunday sundays ' +
    'january february march april june july august september october november december').split(' '),
);

/** A number that can name a thing: digits, with up to 3 letters before ("BA370") and letters or dashes after ("12b"). */
const NUMBER = /^[\p{L}]{0,3}\d[\p{L}\p{N}-]*$/u;
/** Words after which a word opens a noun phrase: determiners, possessives, prepositions, conjunctions. */
const BEFORE_NOUN = new Set('the a an this that these those my our your his her their its of for to from in on at with about by into and or but no'.split(' '));

/**
 * Labelled identifiers of a text: label → its numbers. A label is a word, no stop word, that opens
 * a sentence or follows a determiner, possessive or preposition ("Order 1042 …", "… of note 4",
 * "my flight BA370"), then the number; so "I run 5k", "I now earn 6000" (a quantity after a verb)
 * and "at 9" name no identifier.
 */
function identifiers(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const sentence of text.toLowerCase().split(/(?<=[.!?;:])\s+/)) {
    const ws = (sentence.match(/[\p{L}\p{N}#'-]+/gu) ?? []).map((w) => w.replace(/^#/, ''));
    for (let i = 0; i + 1 < ws.length; i++) {
      const label = ws[i] as string;
      const num = ws[i + 1] as string;
      if (!NUMBER.test(num) || !/^\p{L}[\p{L}-]*$/u.test(label) || STOP_WORDS.has(label) || TIME_WORDS.has(label) || MARKERS.has(label)) continue;
      if (i > 0 && !BEFORE_NOUN.has(ws[i - 1] as string)) continue;
      const set = out.get(label) ?? new Set<string>();
      set.add(num);
      out.set(label, set);
    }
  }
  return out;
}

/** A crude English stem: the possessive, then one of -ing, -ed, -es, -s, -e, keeping ≥ 3 letters. */
function stem(w: string): string {
  const s = w.replace(/'s?$/, '');
  const cut = s.replace(/(?:ing|ed|es|s|e)$/, '');
  return cut.length >= 3 ? cut : s;
}

/** Stems of a reading's content words (see the module's rule 3), without the speakers' names. */
function objectStems(r: SideReading, speakers: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const t of r.tokens) {
    const w = t.replace(/^'+|'+$/g, '');
    if (!/\d/.test(w) && w.length < 3) continue;
    if (STOP_WORDS.has(w) || MARKERS.has(w) || LIGHT_VERBS.has(w) || TIME_WORDS.has(w) || speakers.has(w)) continue;
    out.add(stem(w));
  }
  return out;
}

/** Words before "number" that make it a contact channel ("my number", "phone number"). */
const CONTACT_BEFORE = new Set('my your our his her their its new old phone mobile cell telephone contact home work office whatsapp'.split(' '));

/**
 * `tokens` without a "number" that labels something other than a contact channel ("order number
 * 48213", "ticket number"), which the slot words would read as the contact slot (h-break11
 * finding 3: it made an order number and a phone number one thing). A "number" first in a text,
 * or after a possessive or a channel word, stays.
 */
function contactNumbersOnly(tokens: readonly string[]): readonly string[] {
  return tokens.filter((t, i) => !((t === 'number' || t === 'numbers') && i > 0 && !CONTACT_BEFORE.has(tokens[i - 1] as string)));
}

/**
 * Rule 2b (h-su, issue 24): the newer ends a state of a kind the older also claims, but every
 * value it ends is another one — "Tom and I broke up." after "I'm married to Alex." (claims
 * partner `tom` and partner `alex`), "I quit Globex" after "I work at Acme". An end names what
 * it ends; a new value of the slot ("I'm seeing Marta now" after "I'm dating Lena") is a change,
 * not an end, and keeps rule 2. False when the newer names the older's value anywhere ("Lena and
 * I split, I'm seeing Marta now"), when a claim has no value, or when the newer is no end.
 */
function endsAnotherValue(newer: SideReading, older: SideReading): boolean {
  if (!newer.end) return false;
  const tokens = new Set(newer.tokens.map((t) => t.replace(/^'+|'+$/g, '')));
  let other = false;
  for (const x of newer.claims) {
    for (const y of older.claims) {
      if (y.kind !== x.kind) continue;
      if (x.value === '' || y.value === '') return false;
      if (x.value === y.value || tokens.has(y.value) || y.value.split(/\s+/).every((w) => tokens.has(w))) return false;
      other = true;
    }
  }
  return other;
}

/**
 * Rules 1-3 of the module: whether the state `newer` ends or changes is the thing `older` is about
 * (their side readings, state-update.ts `readStateSide`; `speakers` the two sides' speakers,
 * lower-cased).
 */
export function sameObject(newer: SideReading, older: SideReading, speakers: ReadonlySet<string>): boolean {
  // Rule 1: identifiers.
  const ids = identifiers(newer.text);
  if (ids.size > 0) {
    const olderIds = identifiers(older.text);
    let differs = false;
    for (const [label, nums] of ids) {
      const theirs = olderIds.get(label);
      if (theirs === undefined) continue;
      for (const n of nums) if (theirs.has(n)) return true;
      differs = true;
    }
    if (differs) return false;
  }
  // Rule 2: claims of one kind — unless the newer ENDS another value of that kind (rule 2b).
  if (newer.claims.some((x) => older.claims.some((y) => y.kind === x.kind))) return !endsAnotherValue(newer, older);
  // Rule 3: a shared object word, or one slot.
  const mine = objectStems(newer, speakers);
  if (mine.size === 0) return false;
  const theirs = objectStems(older, speakers);
  for (const s of mine) if (theirs.has(s)) return true;
  const a = slotsOf(contactNumbersOnly(newer.tokens));
  if (a.size === 0) return false;
  const b = slotsOf(contactNumbersOnly(older.tokens));
  for (const s of a) if (b.has(s)) return true;
  return false;
}
