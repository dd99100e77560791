/**
 * The end of ANOTHER value is no update (h-su, issue 24): "Tom and I broke up." after "I'm married
 * to Alex." ends another relationship (the object gate's rule 2b, src/system-one/state-update-object.ts),
 * while an end of the older's own value, or a change that names it, still updates. Phone brands
 * name the phone slot (src/system-one/state-update-slots.ts), so a brand-only change reaches the head.
 * The broad train grammar holds such ends as non-updates (`other-end`, bench/training/state-grammar.ts).
 */
import { describe, expect, it } from 'vitest';
import { decideStateUpdate, readStateSide, type StateSide } from '../../src/system-one/state-update.js';
import { OBJECT_DISAGREE_CAP, sameObject } from '../../src/system-one/state-update-object.js';
import { slotsOf } from '../../src/system-one/state-update-slots.js';
import { tokenize } from '../../src/plane/text/text.js';
import { generateGrammarPairs } from '../../bench/training/state-grammar.js';
import { broadTrainParts } from '../../bench/training/state-grammar-broad.js';

const side = (text: string, timeMs: number): StateSide => ({ text: `Sam: ${text}`, speaker: 'Sam', timeMs });
const p = (older: string, newer: string) => decideStateUpdate(side(newer, 2), side(older, 1), new Map(), 'mlp').probability;
/** The object gate alone (whatever the head says): whether the newer is about the older's thing. */
const same = (older: string, newer: string) => sameObject(readStateSide(side(newer, 2), undefined), readStateSide(side(older, 1), undefined), new Set(['sam']));

describe('the end of another value', () => {
  it('is capped by the object gate: another partner, another employer', () => {
    // Both sides claim a partner (rule 2), but the newer ends another one (rule 2b); before h-su
    // the gate let it through and the head decided (4.1.0 answered 0.89).
    expect(same("I'm married to Alex.", 'Tom and I broke up.')).toBe(false);
    expect(same('I am dating Rowan.', 'I broke up with Jules last week.')).toBe(false);
    expect(same('I am dating Sam.', 'Sam and I broke up.')).toBe(true);
    expect(same('I am dating Rowan.', "I'm seeing Jules now.")).toBe(true);
    expect(p("I'm married to Alex.", 'Tom and I broke up.')).toBeLessThanOrEqual(OBJECT_DISAGREE_CAP);
    expect(p('I am dating Rowan.', 'I broke up with Jules last week.')).toBeLessThanOrEqual(OBJECT_DISAGREE_CAP);
  });

  it("still lets an end of the older's own value, or a change naming it, update", () => {
    expect(p('I am dating Sam.', 'Sam and I broke up.')).toBeGreaterThanOrEqual(0.85);
    expect(p('My girlfriend is Lena.', "Lena and I split, I'm seeing Marta now.")).toBeGreaterThanOrEqual(0.85);
    expect(p('I am dating Rowan.', 'I broke up with Rowan last week.')).toBeGreaterThanOrEqual(0.85);
  });

  it('phone brands name the phone slot', () => {
    expect([...slotsOf(tokenize('I switched to a Pixel 8 last week.'))]).toEqual(['thing:phone']);
    expect([...slotsOf(tokenize('I use a Galaxy S24.'))]).toEqual(['thing:phone']);
    expect([...slotsOf(tokenize('My laptop is a ThinkPad.'))]).toEqual(['thing:laptop']);
  });

  it('the broad train grammar holds other-end non-updates that name a value the older does not', () => {
    const pairs = generateGrammarPairs({ split: 'train', perKind: 60, families: 'fit', broad: broadTrainParts() });
    const other = pairs.filter((x) => x.family === 'other-end');
    expect(other.length).toBeGreaterThan(40);
    expect(other.every((x) => x.label === 0)).toBe(true);
    expect(new Set(other.map((x) => x.kind)).has('relationship')).toBe(true);
    expect(other.some((x) => x.kind === 'diet' || x.kind === 'schedule')).toBe(false);
    // Without the broad parts no pair is of that family (the held-out split is unchanged).
    expect(generateGrammarPairs({ split: 'heldout', perKind: 20 }).some((x) => x.family === 'other-end')).toBe(false);
  });
});
