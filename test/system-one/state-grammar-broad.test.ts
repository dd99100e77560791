/**
 * The broader training grammar of h-changes (bench/training/state-grammar-broad.ts, issue 24):
 * train lists only, nothing of the held-out split, and the held-out pairs unchanged by it.
 */
import { describe, expect, it } from 'vitest';
import { GRAMMAR, PREFIX, SPEAKERS, SUFFIX, THIRD, generateGrammarPairs } from '../../bench/training/state-grammar.js';
import { BROAD_PREFIX, BROAD_SPEAKERS, BROAD_SUFFIX, BROAD_THIRD, BROAD_TRAIN, broadGrammar, broadTrainParts } from '../../bench/training/state-grammar-broad.js';

const esc = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the broad train grammar', () => {
  it('adds train entries only: no held-out template, value or name among them', () => {
    const heldTemplates = new Set(Object.values(GRAMMAR).flatMap((g) => Object.values(g).flatMap((l) => (typeof l === 'object' && 'heldout' in l ? (l.heldout as string[]) : []))));
    const added = Object.values(BROAD_TRAIN).flatMap((g) => Object.values(g).flat());
    expect(added.filter((t) => heldTemplates.has(t))).toEqual([]);
    // Counted, not listed: the held-out values and names are not to be read while writing training data.
    const heldValues = Object.values(GRAMMAR).flatMap((g) => [...g.values.heldout, ...(g.things?.heldout ?? [])]);
    const heldNames = [...THIRD.heldout.map(([n]) => n), ...SPEAKERS.heldout];
    const text = [...added, ...BROAD_THIRD.map(([n]) => n), ...BROAD_SPEAKERS, ...BROAD_PREFIX, ...BROAD_SUFFIX].join('\n');
    expect([...heldValues, ...heldNames].filter((v) => new RegExp(`\\b${esc(v)}\\b`, 'i').test(text)).length).toBe(0);
    expect([...PREFIX.heldout, ...SUFFIX.heldout].filter((w) => text.includes(w.trim())).length).toBe(0);
  });

  it('keeps every held-out list of GRAMMAR and appends to the train lists', () => {
    const b = broadGrammar();
    for (const [kind, g] of Object.entries(GRAMMAR)) {
      const k = b[kind];
      expect(k?.update.heldout).toEqual(g.update.heldout);
      expect(k?.values.heldout).toEqual(g.values.heldout);
      expect(k?.update.train.slice(0, g.update.train.length)).toEqual(g.update.train);
      expect(k?.update.train.length).toBe(g.update.train.length + (BROAD_TRAIN[kind]?.update?.length ?? 0));
    }
    // A kind only the broad grammar has (phones, laptops) has no held-out entry.
    expect(b.gadget?.update.heldout).toEqual([]);
    expect(b.gadget?.update.train.length).toBeGreaterThan(10);
  });

  it('leaves the held-out pairs exactly as they were, and fills every train slot', () => {
    const broad = broadTrainParts();
    expect(generateGrammarPairs({ split: 'heldout', perKind: 8, broad })).toEqual(generateGrammarPairs({ split: 'heldout', perKind: 8 }));
    const train = generateGrammarPairs({ split: 'train', perKind: 60, families: 'fit', broad });
    expect(new Set(train.map((p) => p.kind)).size).toBe(10);
    expect(train.filter((p) => /\{[A-Za-z]+\}/.test(`${p.older.text} ${p.newer.text}`))).toEqual([]);
    // Every update, end and unnamed end names its subject (else an other-subject copy would be mislabelled).
    for (const g of Object.values(BROAD_TRAIN)) for (const t of [...(g.update ?? []), ...(g.end ?? []), ...(g.endUnnamed ?? [])]) expect(t, t).toMatch(/\{(?:S|P|Ps|O)\}/);
  });
});
