/**
 * The state-update MLP head 4.1.0 (h-changes, issue 24: fitted with the broad train grammar) on
 * pairs written for this test before it was scored, none of them in any training or evaluation
 * set: third-person changes, brand and place changes, ends without the value, and non-updates of
 * the same subjects (another person, a visit, a plan, a missed class, a meal).
 */
import { describe, expect, it } from 'vitest';
import { decideStateUpdate, type StateSide } from '../../src/system-one/state-update.js';

const side = (text: string, timeMs: number): StateSide => ({ text: `Maya: ${text}`, speaker: 'Maya', timeMs });
const p = (older: string, newer: string) => decideStateUpdate(side(newer, 2), side(older, 1), undefined, 'mlp').probability;

const UPDATES: Array<[string, string]> = [
  ['I use a Galaxy S24.', 'I switched to a Pixel 8 last week.'],
  ['My brother works at Lidl.', 'My brother got a job at Aldi, he started Monday.'],
  ['Priya is a dental nurse.', 'Priya is a midwife now.'],
  ['My aunt lives in Cardiff.', 'My aunt moved to Swansea in June.'],
  ['Jonas is dating Mila.', 'Jonas and Mila broke up.'],
  ['I have a yellow Vespa.', 'I sold the Vespa, I cycle now.'],
  ['My piano lesson is on Fridays.', 'My piano lesson is on Wednesdays now.'],
  ['Kofi is vegetarian.', 'Kofi eats meat again.'],
  ['I love heavy metal.', "I'm not into metal anymore, it's all folk these days."],
];
const NON_UPDATES: Array<[string, string]> = [
  ['I use a Galaxy S24.', 'My sister just got a Pixel 8.'],
  ['My aunt lives in Cardiff.', 'My aunt visited Swansea last weekend.'],
  ['Jonas is dating Mila.', 'Jonas and Mila went to Rome together.'],
  ['I have a yellow Vespa.', 'I might buy a bike next year.'],
  ['My piano lesson is on Fridays.', 'I missed piano on Friday, I was sick.'],
  ['Kofi is vegetarian.', 'Kofi cooked a lentil curry.'],
];

describe('the state-update head fitted on the broad grammar (4.1.0)', () => {
  it('catches 8 of 9 fresh changes at 0.85 (4.0.0: 6), third-person job and diet changes among them, and supersedes none of the 6 non-updates', () => {
    const caught = UPDATES.filter(([o, n]) => p(o, n) >= 0.85);
    // Measured when the head was committed: all but the brand-only phone change, which a gate caps at 0.05.
    expect(caught.length).toBe(8);
    expect(p('Priya is a dental nurse.', 'Priya is a midwife now.')).toBeGreaterThanOrEqual(0.85);
    expect(p('Kofi is vegetarian.', 'Kofi eats meat again.')).toBeGreaterThanOrEqual(0.85);
    expect(NON_UPDATES.filter(([o, n]) => p(o, n) >= 0.85)).toEqual([]);
  });
});
