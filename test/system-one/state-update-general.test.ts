/**
 * The general features of the state-update head (issue 24): the change lexicon with inflections
 * and negation, whom a side is about, and the feature row on hand-read pairs; and the grammar's
 * validation families (the slice of TRAINING families the trainer chooses its model on).
 */
import { describe, expect, it } from 'vitest';
import { familyCut, generateGrammarPairs, GRAMMAR, valueCut } from '../../bench/training/state-grammar.js';
import { generateTalkPairs } from '../../bench/training/state-talk.js';
import { CHANGE_LEXICON, STATE_GENERAL_FEATURES, subjectOf } from '../../src/system-one/state-update-general.js';
import { stateMlpFeatureNames, stateMlpFeatures } from '../../src/system-one/state-update.js';

const side = (text: string, timeMs: number, speaker = 'Maya') => ({ text: `${speaker}: ${text}`, speaker, timeMs });

describe('CHANGE_LEXICON', () => {
  it('reads beginnings and ends in their inflections', () => {
    for (const t of ['I relocated to Leeds.', 'She is relocating to Leeds.', 'We switched banks.', 'He joined Globex.', 'She became a nurse.', 'I adopted a puppy.', 'They got engaged.']) expect(CHANGE_LEXICON.begin.test(t), t).toBe(true);
    for (const t of ['I quit.', 'She is quitting.', 'He sold the van.', 'We broke up.', 'They are breaking up.', 'I gave up meat.', 'He retired.', 'She resigned.', 'I no longer drive.', 'I do not smoke anymore.', 'Our dog passed away.']) expect(CHANGE_LEXICON.end.test(t), t).toBe(true);
    for (const t of ['I live in Porto.', 'The weather is nice.', 'I love sushi.']) {
      expect(CHANGE_LEXICON.begin.test(t), t).toBe(false);
      expect(CHANGE_LEXICON.end.test(t), t).toBe(false);
    }
  });

  it('tells repeats, history, additions and hypotheticals', () => {
    expect(CHANGE_LEXICON.repeat.test('I still live in Porto.')).toBe(true);
    expect(CHANGE_LEXICON.history.test('I used to live in Porto.')).toBe(true);
    expect(CHANGE_LEXICON.history.test('As a kid I lived in Porto.')).toBe(true);
    expect(CHANGE_LEXICON.addition.test('I have a cat too.')).toBe(true);
    expect(CHANGE_LEXICON.addition.test('The commute was too long.')).toBe(false);
    expect(CHANGE_LEXICON.hypothetical.test('I am thinking about moving.')).toBe(true);
  });
});

describe('subjectOf', () => {
  const none = new Set<string>();
  it('names the speaker, a relative or a named person, whichever comes first', () => {
    expect(subjectOf('I moved to Vienna.', 'maya', none)).toBe('self:maya');
    expect(subjectOf('Anyway. My mother moved to Vienna.', 'maya', none)).toBe('kin:mother');
    expect(subjectOf('Hi there! Yuki said goodbye to Munich.', 'maya', none)).toBe('name:yuki');
    expect(subjectOf("They moved Samuel's spin class to Fridays.", 'maya', none)).toBe('name:samuel');
    // A sentence opener is no one; a value of the other side is not a subject.
    expect(subjectOf('Big news! We bought a house.', 'maya', none)).toBe('self:maya');
    expect(subjectOf('Glasgow is behind me now.', 'maya', new Set(['glasgow']))).toBe('self:maya');
    expect(subjectOf('Glasgow is lovely.', 'maya', none)).toBe('name:glasgow');
  });
});

describe('general features', () => {
  const names = stateMlpFeatureNames();
  const at = (x: number[], n: string) => x[names.indexOf(n)];

  it('are part of the MLP row, in order', () => {
    const first = names.indexOf(STATE_GENERAL_FEATURES[0]);
    expect(first).toBeGreaterThan(0);
    expect(names.slice(first, first + STATE_GENERAL_FEATURES.length)).toEqual([...STATE_GENERAL_FEATURES]);
  });

  it('read an update of the same subject', () => {
    const x = stateMlpFeatures(side('I moved to Vienna last month.', 2), side('I live in Porto.', 1));
    expect(['g_begin', 'g_end', 'g_subj_same', 'g_subj_conflict', 'g_new_value', 'g_old_value_named', 'g_act_update'].map((n) => at(x, n))).toEqual([1, 0, 1, 0, 1, 0, 1]);
  });

  it('read the same change about another subject as a conflict', () => {
    const other = stateMlpFeatures(side('I moved to Vienna.', 2, 'Theo'), side('I live in Porto.', 1));
    expect(['g_subj_same', 'g_self_other_speaker', 'g_act_update'].map((n) => at(other, n))).toEqual([0, 1, 0]);
    const kin = stateMlpFeatures(side('My brother moved to Vienna.', 2), side('I live in Porto.', 1));
    expect(['g_subj_same', 'g_kin_vs_self'].map((n) => at(kin, n))).toEqual([0, 1]);
  });

  it('read an end that names the old value, negated', () => {
    const x = stateMlpFeatures(side('I do not work at Acme anymore.', 2), side('I work at Acme.', 1));
    expect(['g_end', 'g_old_value_named', 'g_old_value_negated', 'g_new_value'].map((n) => at(x, n))).toEqual([1, 1, 1, 0]);
    // "did not quit" is no end.
    expect(at(stateMlpFeatures(side('I did not quit Acme.', 2), side('I work at Acme.', 1)), 'g_end')).toBe(0);
  });
});

describe('validation families of the grammar', () => {
  it('cut every list into disjoint fit and validation parts', () => {
    const xs = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    expect(familyCut(xs, 'validation')).toEqual(['d', 'h']);
    expect(familyCut(xs, 'fit')).toEqual(['a', 'b', 'c', 'e', 'f', 'g', 'i']);
    expect(familyCut(['a', 'b', 'c'], 'validation')).toEqual(['c']);
    expect(valueCut(['a', 'b', 'c', 'd', 'e', 'f', 'g'], 'validation')).toEqual(['e', 'f', 'g']);
    expect(valueCut(['a', 'b', 'c', 'd', 'e'], 'fit')).toEqual(['a', 'b', 'c']);
  });

  it('generate validation pairs whose sentences never occur among the fit pairs', () => {
    const strip = (t: string) => t.replace(/^\w+: /, '');
    const fit = new Set(generateGrammarPairs({ split: 'train', perKind: 60, families: 'fit' }).flatMap((p) => [strip(p.newer.text), strip(p.older.text)]));
    const val = generateGrammarPairs({ split: 'train', perKind: 20, seed: 99, families: 'validation' });
    const shared = val.filter((p) => fit.has(strip(p.newer.text)));
    // Only the other-kind distractors may repeat a fit sentence (they draw from other kinds' lists
    // through the same cut, so they too are validation templates): none at all is expected.
    expect(shared).toEqual([]);
  });
});

describe('the chat grammar (bench/training/state-talk.ts)', () => {
  const strip = (t: string) => t.replace(/^\w+: /, '');
  const fit = generateTalkPairs({ families: 'fit', perKind: 80 });
  const val = generateTalkPairs({ families: 'validation', perKind: 30 });

  it('has thirteen kinds, updates and non-updates in equal numbers', () => {
    expect(new Set(fit.map((p) => p.kind)).size).toBe(13);
    expect(fit.filter((p) => p.label === 1)).toHaveLength(13 * 80);
    expect(fit.filter((p) => p.label === 0)).toHaveLength(13 * 80);
    expect(new Set(fit.filter((p) => p.label === 0).map((p) => p.family))).toEqual(new Set(['addition', 'repeat', 'history', 'hypothetical', 'same-topic', 'other-subject', 'other-kind', 'small-talk']));
  });

  it('keeps validation update lines out of the fit pairs', () => {
    const seen = new Set(fit.flatMap((p) => [strip(p.newer.text), strip(p.older.text)]));
    // Update lines are drawn from validation templates only; a short line could coincide only if a
    // fit template produced the same words, which none does.
    expect(val.filter((p) => p.label === 1 && seen.has(strip(p.newer.text))).map((p) => p.newer.text)).toEqual([]);
  });

  it('uses no value of the held-out split of state-grammar.ts', () => {
    const held = Object.values(GRAMMAR).flatMap((g) => g.values.heldout);
    const text = [...fit, ...val].map((p) => `${p.older.text} ${p.newer.text}`).join('\n');
    // Counted, not listed: the held-out values are not to be read while writing training data.
    expect(held.filter((v) => new RegExp(`\\b${v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text)).length).toBe(0);
  });
});

