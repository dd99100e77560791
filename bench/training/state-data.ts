/**
 * The pairs the state-update MLP head (issue 24) is fitted, calibrated and evaluated on:
 *
 * - `train`: the broad grammar's train split, fit families (bench/training/state-grammar.ts:
 *   train templates and values less every fourth template and the last third of each value list),
 *   with `withEvents` the life events' fit families (bench/training/state-events.ts, the v5
 *   candidate of h-retrain, not shipped: cross-kind non-updates, same-slot additions and updates),
 *   with `--talk` the chat grammar's fit families (bench/training/state-talk.ts, thirteen kinds), the train split of the issue-14 pairs (bench/training/state-pairs.ts), and
 *   non-update pairs from LoCoMo dev conversations conv-26, conv-30, conv-41, conv-42;
 * - `validation` (chooses the model and its operating point): the grammar's train split,
 *   validation families only (the templates and values the fit leaves out; other seed), with
 *   `withEvents` the life events' validation families, with
 *   `--talk` the chat grammar's validation families, and
 *   non-update pairs of LoCoMo dev conv-43;
 * - `heldout` (never used to fit or choose anything): the grammar's held-out split (held-out
 *   template families, values and names).
 *
 * LoCoMo non-updates: for each turn of a dev conversation, the 2 earlier turns of the same speaker
 * with the most shared content words and 2 earlier turns of the speaker at random (maintenance's
 * vector neighbours often share no word; seed {@link LOCOMO_SEED}), labelled 0.
 * A real change hidden among them would be a wrong label; a LoCoMo conversation states few
 * changes, so this noise is small, and no test conversation is read.
 *
 * @module
 */
import { loadLocomo } from '../lib/data.js';
import type { StateSide } from '../../src/system-one/state-update.js';
import { tokenize, STOP_WORDS } from '../../src/plane/text/text.js';
import { generateGrammarPairs, type GrammarPair } from './state-grammar.js';
import { broadTrainParts } from './state-grammar-broad.js';
import { generateEventPairs } from './state-events.js';
import { generateStatePairs } from './state-pairs.js';
import { generateTalkPairs, type TalkPair } from './state-talk.js';
import { prng } from '../../test/helpers/prng.js';

/** Seed of the random LoCoMo pairs. */
export const LOCOMO_SEED = 4343;

/** A pair for fitting or evaluation. */
export interface LabelledPair {
  newer: StateSide;
  older: StateSide;
  label: 0 | 1;
  /** Where it comes from: `grammar:<kind>:<family>`, `pairs:<kind>:<family>`, `locomo`. */
  source: string;
}

const fromGrammar = (p: GrammarPair): LabelledPair => ({ newer: p.newer, older: p.older, label: p.label, source: `grammar:${p.kind}:${p.family}` });
const fromTalk = (p: TalkPair): LabelledPair => ({ newer: p.newer, older: p.older, label: p.label, source: `talk:${p.kind}:${p.family}` });

/** Update pairs per kind of the chat grammar (bench/training/state-talk.ts) in `train` and in `validation`. */
export const TALK_PER_KIND = { fit: 250, validation: 60 } as const;

/**
 * Cross-kind non-update pairs of the life events (bench/training/state-events.ts, h-retrain) in
 * `train` and `validation`; each adds a quarter as many same-slot additions and as many same-slot
 * updates. Their sources are `grammar:event:<kind>:<family>`: the validation ones count among the
 * grammar's validation non-updates of the operating point (≤ 2 % pass).
 */
export const EVENTS_CROSS = { fit: 900, validation: 180 } as const;

/** Update pairs per kind of the grammar with the broad train lists (./state-grammar-broad.ts, `--broad`) in `train` and `validation`. */
export const BROAD_PER_KIND = { fit: 500, validation: 80 } as const;

/**
 * LoCoMo dev non-updates per turn with `--broad` (lexical neighbours, random earlier turns): twice
 * the default, as the broader grammar's head read more small talk of one speaker as a change
 * ("No problem! …" after "No problem! …") when maintenance asked its neighbours.
 */
export const BROAD_LOCOMO = { lexical: 4, random: 4 } as const;

/** Non-update pairs of the LoCoMo dev conversations `ids` (see the module doc). */
export async function locomoNegatives(ids: readonly string[], perTurn = 3, randomPerTurn = 0, dataPath?: string): Promise<LabelledPair[]> {
  const data = await loadLocomo(dataPath);
  const out: LabelledPair[] = [];
  const rnd = prng(LOCOMO_SEED);
  for (const conv of data.conversations.filter((c) => ids.includes(c.sampleId))) {
    const turns = conv.observations.map((o) => ({
      side: { text: o.text, speaker: o.speaker, timeMs: o.observedAt === undefined ? 0 : new Date(o.observedAt as string | number | Date).getTime() } as StateSide,
      words: new Set(tokenize(o.text).filter((w) => w.length > 2 && !STOP_WORDS.has(w))),
    }));
    turns.forEach((t, i) => {
      const scored: Array<[number, number]> = [];
      for (let j = 0; j < i; j++) {
        const u = turns[j] as (typeof turns)[number];
        if (u.side.speaker !== t.side.speaker || u.side.timeMs > t.side.timeMs) continue;
        let inter = 0;
        for (const w of t.words) if (u.words.has(w)) inter++;
        if (inter > 0) scored.push([inter / (t.words.size + u.words.size - inter), j]);
      }
      scored.sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      for (const [, j] of scored.slice(0, perTurn)) out.push({ newer: t.side, older: (turns[j] as (typeof turns)[number]).side, label: 0, source: 'locomo' });
      // Maintenance also asks vector neighbours that share no word: earlier turns of the speaker at random.
      const earlier = turns.slice(0, i).filter((u) => u.side.speaker === t.side.speaker && u.side.timeMs <= t.side.timeMs);
      for (let k = 0; k < randomPerTurn && earlier.length > 0; k++) out.push({ newer: t.side, older: (earlier[Math.floor(rnd() * earlier.length)] as (typeof turns)[number]).side, label: 0, source: 'locomo' });
    });
  }
  return out;
}

/**
 * The three sets of the module doc; `dataPath` is the LoCoMo file (default
 * `<repo>/../shared/data/locomo10.json`); the held-out set is empty unless `withHeldout`; the chat
 * grammar's pairs are added only with `withTalk` (the v5 candidate of h-update2, not shipped: the
 * shipped v4 head is fitted without them, so `--check` reproduces it).
 */
export async function statePairSets(withHeldout = true, dataPath?: string, withTalk = false, withEvents = false, withBroad = false): Promise<{ train: LabelledPair[]; validation: LabelledPair[]; heldout: LabelledPair[] }> {
  const broad = withBroad ? broadTrainParts() : undefined;
  const train = [
    ...generateGrammarPairs({ split: 'train', perKind: withBroad ? BROAD_PER_KIND.fit : 300, families: 'fit', broad }).map(fromGrammar),
    ...(withEvents ? generateEventPairs({ split: 'train', cross: EVENTS_CROSS.fit, families: 'fit' }).map(fromGrammar) : []),
    ...(withTalk ? generateTalkPairs({ families: 'fit', perKind: TALK_PER_KIND.fit }).map(fromTalk) : []),
    ...generateStatePairs()
      .filter((p) => p.split === 'train')
      .map((p): LabelledPair => ({ newer: p.newer, older: p.older, label: p.label, source: `pairs:${p.kind}:${p.family}` })),
    ...(await locomoNegatives(['conv-26', 'conv-30', 'conv-41', 'conv-42'], withBroad ? BROAD_LOCOMO.lexical : 2, withBroad ? BROAD_LOCOMO.random : 2, dataPath)),
  ];
  const validation = [
    ...generateGrammarPairs({ split: 'train', perKind: withBroad ? BROAD_PER_KIND.validation : 60, seed: 99, families: 'validation', broad }).map(fromGrammar),
    ...(withEvents ? generateEventPairs({ split: 'train', cross: EVENTS_CROSS.validation, seed: 99, families: 'validation' }).map(fromGrammar) : []),
    ...(withTalk ? generateTalkPairs({ families: 'validation', perKind: TALK_PER_KIND.validation }).map(fromTalk) : []),
    ...(await locomoNegatives(['conv-43'], 2, 2, dataPath)),
  ];
  // The held-out split is built only when asked (the trainer's final scoring, `bench changes`).
  const heldout = withHeldout ? heldoutGrammarPairs().map(fromGrammar) : [];
  return { train, validation, heldout };
}

/** The held-out grammar pairs of the model card and `bench changes`: 40 updates and 40 non-updates per kind. */
export function heldoutGrammarPairs(): GrammarPair[] {
  return generateGrammarPairs({ split: 'heldout', perKind: 40 });
}
