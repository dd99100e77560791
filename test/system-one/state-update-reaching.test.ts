/**
 * The state-update MLP head read whole only when it can reach the threshold (h-writeperf, issue
 * 22: single-add CPU): `stateUpdateReaching` answers exactly what `decideStateUpdate` answers for
 * every pair whose answer reaches the threshold, skips (undefined) only pairs whose answer is
 * below it, and keeps its answers with the readings memo (so the second ask of a pair is the
 * first's answer).
 */
import { describe, expect, it } from 'vitest';
import { generateGrammarPairs } from '../../bench/training/state-grammar.js';
import { generateTalkPairs } from '../../bench/training/state-talk.js';
import { decideStateUpdate, stateUpdateReaching, type StateSide } from '../../src/system-one/state-update.js';
import { NATURAL_CASES } from '../fixtures/state-changes.js';

const side = (text: string, timeMs: number, speaker = 'Maya'): StateSide => ({ text: `${speaker}: ${text}`, speaker, timeMs });

/**
 * The hand-written natural cases and held-out generated pairs, both ways round, every case's
 * newer line against every other case's older line, and chat-grammar pairs (many newer and older
 * lines of several clauses: the bound must hold for the best clause pair, h-update3).
 */
function pairs(): Array<[StateSide, StateSide]> {
  const out: Array<[StateSide, StateSide]> = [];
  for (const c of NATURAL_CASES) out.push([side(c.newer, 2, c.newerSpeaker ?? c.speaker), side(c.older, 1, c.speaker)]);
  for (const p of generateGrammarPairs({ split: 'heldout', perKind: 6 })) out.push([p.newer, p.older], [{ ...p.older, timeMs: p.newer.timeMs }, { ...p.newer, timeMs: p.older.timeMs }]);
  for (const a of NATURAL_CASES.slice(0, 25)) for (const b of NATURAL_CASES.slice(0, 25)) if (a !== b) out.push([side(a.newer, 2), side(b.older, 1)]);
  for (const p of generateTalkPairs({ families: 'validation', perKind: 4 })) out.push([p.newer, p.older]);
  return out;
}

describe('stateUpdateReaching (the MLP head)', () => {
  const all = pairs();

  it('answers as decideStateUpdate for every pair that can reach the threshold, and skips only pairs below it', () => {
    for (const threshold of [0.85, 0.5, 0.1]) {
      let skipped = 0;
      let reached = 0;
      for (const [newer, older] of all) {
        const whole = decideStateUpdate(newer, older, new Map(), 'mlp');
        const got = stateUpdateReaching(newer, older, new Map(), 'mlp', threshold);
        if (got === undefined) {
          skipped++;
          expect(whole.probability, `${newer.text} / ${older.text}`).toBeLessThan(threshold);
        } else expect(got).toEqual(whole);
        if (whole.probability >= threshold) reached++;
      }
      // Both kinds of pair are there: some reach the threshold, some are skipped.
      expect(reached, `threshold ${threshold}`).toBeGreaterThan(5);
      expect(skipped, `threshold ${threshold}`).toBeGreaterThan(5);
    }
  });

  it('keeps each answer with the readings memo: asked again, a pair answers the same without reading it again', () => {
    const memo = new Map();
    const [newer, older] = [side('I moved to Vienna in the spring.', 2), side('I live in Porto.', 1)];
    const first = stateUpdateReaching(newer, older, memo, 'mlp', 0.85);
    expect(first).toEqual(decideStateUpdate(newer, older, new Map(), 'mlp'));
    expect(first?.probability).toBeGreaterThanOrEqual(0.85); // the issue's own report is an update
    const readings = memo.size;
    expect(stateUpdateReaching(newer, older, memo, 'mlp', 0.85)).toEqual(first);
    expect(decideStateUpdate(newer, older, memo, 'mlp')).toEqual(first);
    expect(memo.size).toBe(readings);
  });
});
