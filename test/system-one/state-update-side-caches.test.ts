/**
 * The state-update head's per-side caches (h-writeperf2, issue 22: write-path CPU): a side object
 * keeps its reading and its asserted form from pair to pair, and the pair's subject scan is read
 * once per text. What is kept must never answer for a side that changed: a side object whose
 * text, speaker or time changed after a pair was asked is read again, so every answer is the one
 * fresh objects and a fresh memo give.
 */
import { describe, expect, it } from 'vitest';
import { stateMlpFeatures, stateUpdateReaching, type StateSide } from '../../src/system-one/state-update.js';
import { subjectOf } from '../../src/system-one/state-update-general.js';

const side = (text: string, timeMs: number, speaker = 'Maya'): StateSide => ({ text: `${speaker}: ${text}`, speaker, timeMs });

describe('the per-side caches of the state-update head', () => {
  it('reads a side object again when its text or speaker changed since it was read', () => {
    const memo = new Map();
    const newer = side('I moved to Vienna in the spring.', 2);
    const older = side('I live in Porto.', 1);
    const first = stateMlpFeatures(newer, older, memo);
    expect(first).toEqual(stateMlpFeatures(side('I moved to Vienna in the spring.', 2), side('I live in Porto.', 1), new Map()));
    newer.text = 'Maya: I still live in Porto, as always.';
    const again = stateMlpFeatures(newer, older, memo);
    expect(again).toEqual(stateMlpFeatures(side('I still live in Porto, as always.', 2), side('I live in Porto.', 1), new Map()));
    expect(again).not.toEqual(first);
    older.speaker = 'Tom';
    older.text = 'Tom: I live in Porto.';
    expect(stateMlpFeatures(newer, older, memo)).toEqual(stateMlpFeatures(side('I still live in Porto, as always.', 2), side('I live in Porto.', 1, 'Tom'), new Map()));
  });

  it('makes the asserted form of a side again when its text or time changed', () => {
    const memo = new Map();
    const older = side('I live in Porto.', 1);
    const newer = side('Have you ever been to Vienna?', 2);
    // Only a question: it asserts nothing, so it updates nothing (probability 0 at any threshold).
    expect(stateUpdateReaching(newer, older, memo, 'mlp', 0)).toEqual({ probability: 0, model: 'jev-mem/state-update-mlp@4.0.0' });
    newer.text = 'Maya: Big news! I moved to Vienna in the spring. Have you been?';
    const moved = stateUpdateReaching(newer, older, memo, 'mlp', 0);
    expect(moved).toEqual(stateUpdateReaching(side('Big news! I moved to Vienna in the spring. Have you been?', 2), side('I live in Porto.', 1), new Map(), 'mlp', 0));
    expect(moved?.probability).toBeGreaterThanOrEqual(0.85);
    // Earlier than the older side now: a time-reversed pair answers 0.
    newer.timeMs = 0;
    expect(stateUpdateReaching(newer, older, memo, 'mlp', 0)?.probability).toBe(0);
  });

  it('takes the first clause-opening name the pair does not exclude, in text order', () => {
    const text = 'Glasgow is lovely, and Yuki said Porto was too.';
    expect(subjectOf(text, 'maya', new Set())).toBe('name:glasgow');
    expect(subjectOf(text, 'maya', new Set(['glasgow']))).toBe('name:yuki');
    expect(subjectOf(text, 'maya', new Set(['glasgow', 'yuki']))).toBe('name:porto');
    expect(subjectOf(text, 'maya', new Set(['glasgow', 'yuki', 'porto']))).toBe('self:maya');
    // The relative and the first person are found whatever the names excluded.
    expect(subjectOf('Yuki said my sister moved to Lyon.', 'maya', new Set(['yuki']))).toBe('kin:sister');
  });
});
