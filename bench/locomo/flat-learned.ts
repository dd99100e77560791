/**
 * The flat learned scorer of SPEC 10: logistic regression over the candidate pool and features
 * of `flat-features.ts`, trained on the development split only. A test conversation is scored by
 * the model trained on all five development conversations; a development conversation by the
 * model trained on the other four (leave one conversation out), so no conversation is ever
 * scored by a model that saw its questions.
 *
 * @module
 */
import type { Encoder } from '../../src/encoder/encoder.js';
import { invalidInput } from '../../src/errors.js';
import { LOCOMO_DEV, type LocomoConversation, type LocomoQuestion } from '../../src/formats/locomo.js';
import type { ConversationIndex, PreparedQuery } from './baselines.js';
import { buildConversationIndex } from './baselines.js';
import { evaluable } from '../lib/data.js';
import { candidatePool, FLAT_FEATURES } from './flat-features.js';
import { fitLogistic, predictLogistic, type LogisticModel } from '../lib/logistic.js';

/**
 * Categories the scorer is trained on: 1-4, the ones the overall figure reports. Category 5
 * questions name the wrong speaker on purpose, which would teach the speaker features the
 * opposite of what they mean for the other categories.
 */
export const FLAT_TRAIN_CATEGORIES: readonly number[] = Object.freeze([1, 2, 3, 4]);

/** λ of the L2 penalty (fixed, not tuned). */
export const FLAT_L2 = 1;

/** Training rows of one conversation: each pool candidate labelled 1 when it is gold evidence. */
export interface LabelledPools {
  sampleId: string;
  rows: number[][];
  labels: number[];
  questions: number;
}

/** Embeds questions in one batch. */
export async function prepareQueries(questions: readonly LocomoQuestion[], encoder: Encoder): Promise<PreparedQuery[]> {
  const vectors = questions.length > 0 ? await encoder.embed(questions.map((q) => q.question)) : [];
  return questions.map((q, i) => ({ text: q.question, vector: vectors[i] as Float32Array }));
}

/** Labelled pools of every training question (categories {@link FLAT_TRAIN_CATEGORIES} with evidence). */
export async function labelledPools(index: ConversationIndex, questions: readonly LocomoQuestion[], encoder: Encoder): Promise<LabelledPools> {
  const qs = evaluable(questions).filter((q) => FLAT_TRAIN_CATEGORIES.includes(q.category));
  const prepared = await prepareQueries(qs, encoder);
  const rows: number[][] = [];
  const labels: number[] = [];
  qs.forEach((q, i) => {
    const gold = new Set(q.evidence);
    const pool = candidatePool(index, prepared[i] as PreparedQuery);
    pool.ids.forEach((id, j) => {
      rows.push(pool.rows[j] as number[]);
      labels.push(gold.has(id) ? 1 : 0);
    });
  });
  return { sampleId: index.sampleId, rows, labels, questions: qs.length };
}

/** Fits the scorer on the given conversations' pools. */
export function trainFlatLearned(pools: readonly LabelledPools[]): LogisticModel {
  return fitLogistic(
    pools.flatMap((p) => p.rows),
    pools.flatMap((p) => p.labels),
    FLAT_FEATURES,
    { l2: FLAT_L2 },
  );
}

/** Ranks a question's pool by the model's probability (ties: pool order). Returns ids, best first. */
export function rankFlatLearned(model: LogisticModel, index: ConversationIndex, q: PreparedQuery, k: number): string[] {
  const pool = candidatePool(index, q);
  const scored = pool.ids.map((id, i) => ({ id, i, p: predictLogistic(model, pool.rows[i] as number[]) }));
  scored.sort((a, b) => b.p - a.p || a.i - b.i);
  return scored.slice(0, k).map((s) => s.id);
}

/** Description of one trained model, for results.json. */
export interface TrainedModelInfo {
  /** Conversations whose questions trained it. */
  trainedOn: string[];
  model: LogisticModel;
}

/**
 * Trains on the development split and hands out the right model per conversation: for a test
 * conversation the model of all development conversations; for a development conversation the
 * one that leaves it out. Models are trained once and cached.
 */
export class FlatLearnedTrainer {
  readonly #pools = new Map<string, LabelledPools>();
  readonly #models = new Map<string, TrainedModelInfo>();

  private constructor() {}

  /**
   * Builds the training pools of every development conversation.
   * @param dev The development conversations (all of {@link LOCOMO_DEV}, whatever the run evaluates).
   * @param indexes Already built indexes to reuse, by sample id.
   * @throws JevMemError `INVALID_INPUT` (field `dev`) when a conversation is not of the development split.
   */
  static async create(dev: readonly LocomoConversation[], encoder: Encoder, indexes: ReadonlyMap<string, ConversationIndex> = new Map()): Promise<FlatLearnedTrainer> {
    const t = new FlatLearnedTrainer();
    for (const conv of dev) {
      if (!LOCOMO_DEV.includes(conv.sampleId)) throw invalidInput('dev', `flat-learned trains only on the development split (${LOCOMO_DEV.join(', ')}); got ${conv.sampleId}`);
      const index = indexes.get(conv.sampleId) ?? (await buildConversationIndex(conv, encoder));
      t.#pools.set(conv.sampleId, await labelledPools(index, conv.questions, encoder));
    }
    return t;
  }

  /** The model that may score `sampleId` (never trained on it). */
  modelFor(sampleId: string): TrainedModelInfo {
    const trainedOn = [...this.#pools.keys()].filter((id) => id !== sampleId).sort();
    const key = trainedOn.join(',');
    let info = this.#models.get(key);
    if (info === undefined) {
      info = { trainedOn, model: trainFlatLearned(trainedOn.map((id) => this.#pools.get(id) as LabelledPools)) };
      this.#models.set(key, info);
    }
    return info;
  }

  /** Every model trained so far. */
  models(): TrainedModelInfo[] {
    return [...this.#models.values()];
  }
}
