/**
 * The trained state-update head (issue 14): its featuriser on hand-computed pairs, its ranking of
 * held-out generated pairs, and that the committed weights are what the trainer fits.
 */
import { describe, expect, it } from 'vitest';
import { fitLogistic } from '../../bench/lib/logistic.js';
import { readFileSync } from 'node:fs';
import { buildStateLexicon } from '../../bench/training/state-lexicon.js';
import { generateStatePairs } from '../../bench/training/state-pairs.js';
import { STATE_LEXICON } from '../../src/system-one/state-lexicon.js';
import { STATE_UPDATE_WEIGHTS } from '../../src/system-one/state-update-weights.js';
import { STATE_UPDATE_FEATURES, STATE_UPDATE_MODEL_ID, stateUpdateFeatures, trainedStateUpdate } from '../../src/system-one/state-update.js';

describe('stateUpdateFeatures', () => {
  it('reads a move of the same speaker: match, other value, change word, 1/3 word overlap, later, same topic, new value, same subject', () => {
    const x = stateUpdateFeatures({ text: 'Maya: I moved to Porto with my cat.', speaker: 'Maya', timeMs: 2 }, { text: 'Maya: I live in Lisbon with my cat.', speaker: 'Maya', timeMs: 1 });
    // words ≥ 3 letters: {moved, porto, with, cat} vs {live, lisbon, with, cat}: 2 shared of 6.
    // The claims match (topic 1);
    // "moved" is a seed of the lexicon (1); "moved" alone ends nothing; Porto is a new value.
    // Substitution: each side has 2 words the other lacks (moved, porto / live, lisbon): 2/6.
    // No history told, no end.
    expect(x).toEqual([1, 1, 0, 1, 1, 1, 0, 0, 0, 1 / 3, 1, 1, 1, 0, 0, 0, 1, 1, 1 / 3, 0, 0, 0]);
    expect(x).toHaveLength(STATE_UPDATE_FEATURES.length);
  });

  it('reads a repeat by another speaker said earlier: no match, repeat word, 2/3 overlap, not later', () => {
    const x = stateUpdateFeatures({ text: 'Theo: I still live in Lisbon.', speaker: 'Theo', timeMs: 1 }, { text: 'Maya: I live in Lisbon.', speaker: 'Maya', timeMs: 2 });
    // claims: lives/theo/home/lisbon vs lives/maya/home/lisbon (other subject); words {still, live,
    // lisbon} vs {live, lisbon}: 2 of 3. Both say
    // "live" (a lexicon seed: topic 1 each); Lisbon, the older value, is named again; the subjects
    // are Theo and Maya.
    // The older text has no word the newer lacks: no substitution (0).
    expect(x).toEqual([0, 0, 0, 1, 1, 0, 0, 1, 0, 2 / 3, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
  });

  it('ends a state named again ("I quit Acme"), but not a negated end word or a listener named in a chat', () => {
    const f = (newer: string, older: string, ns = 'Maya', os = 'Maya') => stateUpdateFeatures({ text: `${ns}: ${newer}`, speaker: ns, timeMs: 2 }, { text: `${os}: ${older}`, speaker: os, timeMs: 1 });
    const at = (name: (typeof STATE_UPDATE_FEATURES)[number]) => STATE_UPDATE_FEATURES.indexOf(name);
    const quit = f('I quit Acme last week.', 'I work at Acme.');
    expect([quit[at('end_marker')], quit[at('ends_state')], quit[at('old_value_in_newer')]]).toEqual([1, 1, 1]);
    const wont = f("I won't quit Acme, whatever happens.", 'I work at Acme.');
    expect([wont[at('end_marker')], wont[at('ends_state')]]).toEqual([0, 0]);
    // "Hey Gina" and "Keep going, Gina!" call the listener: Gina is not a value named again.
    const chat = f('Hey Gina, I had to shut down my bank account. It was tough.', "Hey Gina, how's it going? Keep going, Gina!", 'Jon', 'Jon');
    expect([chat[at('old_value_in_newer')], chat[at('ends_state')]]).toEqual([0, 0]);
    // A state told as history is not news: "I used to live in Lisbon".
    expect(f('I used to live in Lisbon.', 'I live in Porto.')[at('history_marker')]).toBe(1);
    expect(trainedStateUpdate({ text: 'Jon: Hey Gina, I had to shut down my bank account. It was tough.', speaker: 'Jon', timeMs: 2 }, { text: "Jon: Hey Gina, how's it going? Keep going, Gina!", speaker: 'Jon', timeMs: 1 }).probability).toBeLessThan(0.5);
  });
});

describe('trainedStateUpdate', () => {
  const held = generateStatePairs().filter((p) => p.split === 'heldout');

  it('ranks every held-out update above every held-out addition of the same kind', () => {
    for (const kind of new Set(held.map((p) => p.kind))) {
      const p = (fam: string) => held.filter((x) => x.kind === kind && x.family === fam).map((x) => trainedStateUpdate(x.newer, x.older).probability);
      const updates = p('update');
      const additions = p('addition');
      expect(updates.length, kind).toBeGreaterThan(0);
      expect(additions.length, kind).toBeGreaterThan(0);
      expect(Math.min(...updates), kind).toBeGreaterThan(Math.max(...additions));
    }
  });

  it('answers with its model id, 0 for a time-reversed pair', () => {
    const d = trainedStateUpdate({ text: 'Maya: I moved to Porto.', speaker: 'Maya', timeMs: 1 }, { text: 'Maya: I live in Lisbon.', speaker: 'Maya', timeMs: 2 });
    expect(d).toEqual({ probability: 0, model: STATE_UPDATE_MODEL_ID });
  });

  it('ships the weights the trainer fits on the train split (λ = 1)', () => {
    const train = generateStatePairs().filter((p) => p.split === 'train');
    const m = fitLogistic(train.map((p) => stateUpdateFeatures(p.newer, p.older)), train.map((p) => p.label), [...STATE_UPDATE_FEATURES], { l2: 1 });
    expect(STATE_UPDATE_WEIGHTS.features).toEqual([...STATE_UPDATE_FEATURES]);
    m.weights.forEach((w, i) => expect(STATE_UPDATE_WEIGHTS.weights[i]).toBeCloseTo(w, 9));
    expect(STATE_UPDATE_WEIGHTS.bias).toBeCloseTo(m.bias, 9);
  });
});

describe('the state-topic lexicon', () => {
  it('is what the builder makes from the shipped GloVe vectors, seeds scoring 1 and neighbours their cosine', async () => {
    const { text } = await buildStateLexicon();
    expect(text).toBe(readFileSync(new URL('../../src/system-one/state-lexicon.ts', import.meta.url), 'utf8'));
    expect(STATE_LEXICON.contact?.email).toBe(1); // a seed
    expect(STATE_LEXICON.contact?.inbox).toBe(1); // a seed too
    expect(STATE_LEXICON.owns?.truck).toBeGreaterThanOrEqual(0.65); // a neighbour of "car"
    expect(STATE_LEXICON.works?.the).toBeUndefined(); // stop words never join
  });
});
