/**
 * The slot gate of the state-update decision (h-falsesup, issues 22 and 24; h-break9's false
 * supersessions): a newer memory replaces an older one only when both are about the same slot —
 * the same kind of state (where one lives, the job, a pet, a car, the partner, the diet, a
 * language being learnt …). The MLP head (./state-update-mlp.ts) was fitted on pairs of one kind
 * each (bench/training/state-grammar.ts: updates against same-kind non-updates), so between two
 * unrelated facts of one person it read "same subject, both with a change word" as an update:
 * 224 of 1078 pairs of test/fixtures/state-unrelated.ts at P ≥ 0.85 ("we bought a cabin near
 * Lillehammer" superseded "I moved to Oslo from Bergen last spring" and "I have two cats").
 *
 * Rules (English, hand-written, deterministic; {@link slotsAgree}):
 * 1. The slot patterns' claims decide first (state-update.ts `stateClaims`): when both texts hold
 *    claims, the pair agrees only when a claim of each has the same kind and key ("I moved to
 *    Zurich for work" is `lives/home`, "I started a new job at UBS" `works/job`: no agreement).
 * 2. Else the slot words ({@link SLOT_WORDS}): each text's slots are those its words name; the
 *    pair agrees when the two sets share a slot. A text with no slot word at all agrees with any
 *    text, and the head decides as before: the gate only refuses pairs it can read as two slots.
 * 3. Always agreeing: a cancelled plan (the newer cancels, the older announced: the plan kind),
 *    and an end that names the older's value ("I quit Acme" after "I work at Acme"; "Rex passed
 *    away" after "I have a dog named Rex").
 * A pair that does not agree answers at most {@link SLOT_DISAGREE_CAP}.
 *
 * @module
 */
import type { SideReading, StateClaim } from './state-update-types.js';

/** The most a pair of two different slots answers (below every threshold: no update). */
export const SLOT_DISAGREE_CAP = 0.05;

const group = (slot: string, words: string): Array<[string, string]> => words.split(/\s+/).filter((w) => w !== '').map((w) => [w, slot]);

/**
 * Slot words: a word → the slots it names (lower-case, singular where a plural exists). Kinds of
 * state a person holds one of at a time: home, job, partner, diet, a vehicle; a pet; and, each its
 * own slot, things and pastimes ("a guitar" is no update of "a laptop", "a choir" none of
 * "climbing"). Brand and occupation lists are a stand-in for a learned slot reader: a word not
 * listed names no slot (rule 2: the head decides).
 */
export const SLOT_WORDS: ReadonlyMap<string, readonly string[]> = (() => {
  const pairs: Array<[string, string]> = [
    ...group('home', 'live lived living moved move moving relocated relocate flat apartment house home address neighbourhood neighborhood rent rented lease landlord landlady city town settled'),
    ...group('job', 'job work works working worked employer employed hired career office company boss colleague salary promotion promoted fired laid resigned retired retire profession position contract intern internship shift unemployed freelance freelancer offer trade teacher nurse lawyer accountant chef engineer architect electrician journalist plumber waiter waitress pharmacist dentist carpenter librarian firefighter mechanic translator doctor designer developer manager programmer consultant cashier barista photographer'),
    ...group('pet', 'dog cat kitten puppy pet parrot hamster rabbit goldfish fish tortoise turtle guinea vet beagle labrador retriever poodle terrier spaniel'),
    ...group('vehicle', 'car drive drives driving drove bike bicycle e-bike motorbike motorcycle scooter vespa moped van truck pickup tesla volvo honda toyota ford audi bmw fiat mazda subaru jeep renault nissan volkswagen mercedes tyre petrol parking'),
    ...group('partner', 'married marry marriage wedding wife husband girlfriend boyfriend partner fiance fiancé fiancee fiancée dating engaged engagement divorced divorce breakup single relationship couple separated together'),
    ...group('diet', 'vegan vegetarian pescatarian keto paleo gluten gluten-free dairy dairy-free diet dieting sugar sugar-free meat carb low-carb fasting eat eating ate'),
    // Week days are no slot of their own ("started on Monday" is a date): the things that recur are.
    ...group('schedule', 'class lesson rehearsal session appointment meeting rescheduled schedule club'),
    ...group('study', 'learning learn studying study course degree university college school master master\'s phd enrolled programme program duolingo japanese spanish french german italian chinese mandarin korean arabic portuguese russian'),
    ...group('health', 'surgery diagnosed diagnosis injury injured wrist knee ankle asthma allergic allergy sick illness pregnant medication cast'),
    ...group('family', 'daughter son baby born expecting kid child children'),
    ...group('looks', 'hair beard dyed tattoo glasses haircut'),
    ...group('contact', 'number email e-mail handle phone'),
    ...group('preference', 'favourite favorite fave prefer love fan obsessed hooked'),
    // Things and pastimes: each its own slot.
    ...['cabin cottage chalet', 'laptop computer macbook thinkpad chromebook', 'phone iphone smartphone pixel galaxy samsung oneplus fairphone motorola xiaomi huawei nokia', 'sofa couch', 'camera nikon canon photography', 'guitar gibson fender', 'piano keyboard', 'violin cello', 'watch', 'boat',
      'climbing bouldering', 'running runner marathon', 'swimming pool', 'yoga', 'pilates', 'tennis', 'football soccer', 'gym', 'hiking', 'cycling', 'choir singing', 'knitting', 'painting', 'chess', 'garden gardening', 'volunteering volunteer', 'band']
      .flatMap((ws) => group(`thing:${ws.split(' ')[0] as string}`, ws)),
  ];
  const out = new Map<string, string[]>();
  for (const [w, s] of pairs) out.set(w, [...(out.get(w) ?? []), s]);
  return out;
})();

/** The slots a text's words name (rule 2), from its lower-cased tokens. */
export function slotsOf(tokens: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const w = (tokens[i] as string).replace(/^'+|'+$/g, '');
    // "earn a living as a photographer" is a job, not a home.
    if (w === 'living' && tokens[i - 1] === 'a' && /^(?:earn|earns|earned|earning|make|makes|made|making)$/.test(tokens[i - 2] ?? '')) {
      out.add('job');
      continue;
    }
    const hit = SLOT_WORDS.get(w) ?? (w.length > 3 && w.endsWith('s') ? (SLOT_WORDS.get(w.slice(0, -1)) ?? SLOT_WORDS.get(w.replace(/(?:ss|sh|ch|x)es$|ies$/, (m) => (m === 'ies' ? 'y' : m.slice(0, -2))))) : undefined);
    for (const s of hit ?? []) out.add(s);
  }
  return out;
}

const READING_SLOTS = new WeakMap<SideReading, Set<string>>();

/** {@link slotsOf} a side reading's tokens, read once per reading (the slot, event and object gates all ask it of every pair). */
export function readingSlots(r: SideReading): Set<string> {
  let out = READING_SLOTS.get(r);
  if (out === undefined) READING_SLOTS.set(r, (out = slotsOf(r.tokens)));
  return out;
}

/** The slot of a claim: its kind, except that owning a house, flat or apartment is a home ("we bought a house in Warsaw and moved in"). */
function claimSlot(c: StateClaim): string {
  return c.kind === 'lives' || (c.kind === 'owns' && /^(?:house|flat|apartment)$/.test(c.key)) ? 'home' : c.kind;
}

/**
 * Rules 1-3 of the module: whether `newer` and `older` (their side readings, state-update.ts
 * `readStateSide`) are about one slot. `endsNamed`: the newer ends a state and names a value of
 * the older; `cancelPlan`: the newer cancels a plan the older announced.
 */
export function slotsAgree(newer: SideReading, older: SideReading, endsNamed: boolean, cancelPlan: boolean): boolean {
  if (cancelPlan || endsNamed) return true;
  if (newer.claims.length > 0 && older.claims.length > 0) {
    return newer.claims.some((x) => older.claims.some((y) => claimSlot(x) === claimSlot(y) && (claimSlot(x) === 'home' || x.key === y.key || x.key === '' || y.key === '')));
  }
  const a = readingSlots(newer);
  const b = readingSlots(older);
  if (a.size === 0 || b.size === 0) return true;
  for (const s of a) if (b.has(s)) return true;
  return false;
}
