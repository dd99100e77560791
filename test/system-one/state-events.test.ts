/**
 * The life events of the state-update trainer (h-retrain; bench/training/state-events.ts): the
 * cross-kind non-updates, same-slot additions and same-slot updates the v5 head is fitted on keep
 * the grammar's honest split, and none of their values comes from an evaluation set.
 */
import { describe, expect, it } from 'vitest';
import { EVENTS, SLOT_EVENT_KINDS, generateEventPairs } from '../../bench/training/state-events.js';
import { GRAMMAR } from '../../bench/training/state-grammar.js';
import { FRESH_FACTS, FRESH_FACTS_ASSISTANT, FRESH_FACTS_THIRD, FRESH_UPDATES } from '../fixtures/state-fresh.js';
import { UNRELATED_FACTS, UNRELATED_FACTS_LATER } from '../fixtures/state-unrelated.js';

const escape = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const strip = (t: string) => t.replace(/^\w+: /, '');

describe('state-update training events (h-retrain)', () => {
  const fit = generateEventPairs({ split: 'train', cross: 400, families: 'fit' });
  const val = generateEventPairs({ split: 'train', cross: 120, seed: 99, families: 'validation' });
  const held = generateEventPairs({ split: 'heldout', cross: 120 });

  it('makes cross-kind non-updates, then a quarter each of same-slot additions (0) and updates (1)', () => {
    expect(fit.filter((p) => p.family === 'cross-event')).toHaveLength(400);
    expect(fit.filter((p) => p.family === 'addition')).toHaveLength(100);
    expect(fit.filter((p) => p.label === 1)).toHaveLength(100);
    expect(fit.every((p) => (p.label === 1) === ['update', 'end', 'end-unnamed'].includes(p.family))).toBe(true);
    expect(fit.filter((p) => p.family === 'addition' || p.label === 1).every((p) => SLOT_EVENT_KINDS.includes(p.kind.slice('event:'.length)))).toBe(true);
    // One subject per pair: the older and newer lines are the same speaker's.
    expect(fit.every((p) => p.older.speaker === p.newer.speaker && p.newer.timeMs > p.older.timeMs)).toBe(true);
  });

  it('keeps held-out templates and values out of the train lists, and validation lines out of the fit pairs', () => {
    for (const [kind, e] of Object.entries(EVENTS)) {
      for (const part of ['values', 'said', 'addition', 'end', 'update', 'endUnnamed'] as const) {
        const list = e[part];
        if (list === undefined) continue;
        const train = new Set(list.train);
        for (const t of list.heldout) expect(train.has(t), `${kind}.${part}: ${t}`).toBe(false);
      }
    }
    const seen = new Set(fit.map((p) => strip(p.newer.text)));
    expect(val.filter((p) => p.label === 1 && seen.has(strip(p.newer.text))).map((p) => p.newer.text)).toEqual([]);
    const trainText = [...fit, ...val].map((p) => `${p.older.text} ${p.newer.text}`).join('\n');
    const heldValues = Object.values(EVENTS).flatMap((e) => e.values.heldout);
    expect(heldValues.filter((v) => new RegExp(`\\b${escape(v)}\\b`).test(trainText))).toEqual([]);
    expect(held.length).toBe(180);
  });

  it('uses no held-out value of state-grammar.ts and no value of an evaluation set', () => {
    const text = [...fit, ...val].map((p) => `${p.older.text} ${p.newer.text}`).join('\n');
    const grammarHeld = Object.values(GRAMMAR).flatMap((g) => g.values.heldout);
    expect(grammarHeld.filter((v) => new RegExp(`\\b${escape(v)}\\b`, 'i').test(text)).length).toBe(0);
    const evaluation = [...FRESH_FACTS, ...FRESH_FACTS_THIRD, ...FRESH_FACTS_ASSISTANT, ...UNRELATED_FACTS, ...UNRELATED_FACTS_LATER].map((f) => f.text).concat(FRESH_UPDATES.flatMap((u) => [u.older, u.newer])).join('\n');
    const values = Object.values(EVENTS).flatMap((e) => [...e.values.train, ...e.values.heldout]);
    expect(values.filter((v) => new RegExp(`\\b${escape(v)}\\b`, 'i').test(evaluation))).toEqual([]);
  });
});
