/**
 * The change-event step of the state-update decision (h-v6, issue 24), asked of every pair before
 * the slot and object gates (state-update.ts `slotGated`):
 *
 * - a change event (./state-update-events.ts `changeEvent`: an age, the end of a named thing, a
 *   new status of one identifier, a moved schedule) answers at least
 *   {@link CHANGE_EVENT_PROBABILITY}, whatever the head and the gates say;
 * - a second thing of a kind one holds several of ("I started reading Mistborn" after "I'm
 *   reading Dune") and an end of a thing the older never names ("I don't drink coffee anymore"
 *   after "I drink green tea every afternoon"; not when the two share a slot word, nor after a
 *   plan), and two different things that share only the schedule slot ({@link otherScheduledThing})
 *   answer at most {@link EVENT_DISAGREE_CAP}.
 *
 * @module
 */
import { CHANGE_EVENT_PROBABILITY, changeEvent, readEvents } from './state-update-events.js';

export { CHANGE_EVENT_PROBABILITY };
import { readingSlots } from './state-update-slots.js';
import type { SideReading } from './state-update-types.js';

/** The most a second book or an end of another thing answers (below every threshold). */
export const EVENT_DISAGREE_CAP = 0.05;

/**
 * Whether `newer` ends a named thing (rule 2's reading: "I don't drink coffee anymore", "I
 * cancelled my dentist appointment") that `older` does not name at all: then `newer` ends
 * something else and replaces nothing of `older` ("I drink green tea every afternoon", "I am a
 * member of the climbing club"). The caller asks this only of pairs whose slot words share no
 * slot (a job, a car, a flat named two ways) and whose older is no plan (a cancelled trip).
 */
function endsAnotherThing(newer: SideReading, older: SideReading): boolean {
  const n = readEvents(newer);
  if (n.ends.length === 0) return false;
  const o = readEvents(older);
  return n.ends.every((e) => !o.allStems.has(e.head) && !e.object.some((x) => o.allStems.has(x)));
}

/** Things a person does several of at once: two books, two series, two podcasts. */
const PARALLEL = /\b(?:started|starting|began|begun|am|'m|is|are|now)\s+(?:also\s+|now\s+)?(reading|watching|listening)\b/i;
/** Words that do end the older one ("I finished Dune and started Mistborn"). */
const ENDS_OLDER = /\b(?:finished|finish|done with|instead|switched|quit|stopped|gave up|dropped|abandoned|put down|no longer|anymore)\b/i;

/**
 * Whether `newer` begins an activity one holds several of at once (reading, watching, listening
 * to …) that `older` also tells, and ends nothing: "I started reading Mistborn" after "I'm
 * reading Dune" adds a second book and replaces neither (the review's finding; the head read 0.998).
 */
export function parallelActivity(newer: SideReading, older: SideReading): boolean {
  const m = PARALLEL.exec(newer.text);
  if (m === null || ENDS_OLDER.test(newer.text)) return false;
  return new RegExp(`\\b${(m[1] as string).toLowerCase()}\\b`, 'i').test(older.text);
}

/**
 * Whether two texts share only the schedule slot (state-update-slots.ts: class, lesson,
 * appointment, club …) and schedule two different things: "I cancelled my dentist appointment"
 * after "I'm a member of the climbing club", "My Spanish class is on Fridays now" after "My spin
 * class is on Tuesdays" (h-v6's leftovers: the head read 0.99 and 0.97). A text whose only
 * content is schedule words and times ("The lessons moved to Wednesdays") names no thing and is
 * left to the head.
 */
export function otherScheduledThing(newer: SideReading, older: SideReading): boolean {
  const a = readingSlots(newer);
  const b = readingSlots(older);
  let shared = 0;
  for (const x of a) if (b.has(x)) { if (x !== 'schedule') return false; shared++; }
  if (shared === 0) return false;
  const n = readEvents(newer).things;
  const o = readEvents(older).things;
  if (n.size === 0 || o.size === 0) return false;
  for (const x of n) if (o.has(x)) return false;
  return true;
}

/** Whether a pair has a change event that lifts it to {@link CHANGE_EVENT_PROBABILITY} (read by the write path's bound, state-update.ts `stateUpdateReaching`, before it skips a pair). */
export function hasChangeEvent(newer: SideReading, older: SideReading, sameSpeaker: boolean, forward: boolean): boolean {
  return forward && changeEvent(newer, older, sameSpeaker) !== undefined;
}

/**
 * The probability the change-event step answers for a pair whose head (and gates) said `p`, or
 * undefined when it has nothing to say (module doc). `forward`: the newer is later than the
 * older; `sameSpeaker`: one speaker said both.
 */
export function eventDecision(newer: SideReading, older: SideReading, sameSpeaker: boolean, forward: boolean, p: number): number | undefined {
  if (hasChangeEvent(newer, older, sameSpeaker, forward)) return Math.max(p, CHANGE_EVENT_PROBABILITY);
  if (p <= EVENT_DISAGREE_CAP) return undefined;
  if (parallelActivity(newer, older) || otherScheduledThing(newer, older)) return EVENT_DISAGREE_CAP;
  if (older.future || !endsAnotherThing(newer, older)) return undefined;
  const a = readingSlots(newer);
  const b = readingSlots(older);
  for (const x of a) if (b.has(x)) return undefined;
  return EVENT_DISAGREE_CAP;
}
