/**
 * Answer shaping shared by every System-One backend (SPEC 5): turns a model's probabilities (or
 * logits) into wire answers with 2-decimal probabilities that sum to exactly 1.00, the argmax
 * choice, the expected score Σ i·p_i and the confidence clip((max p − 1/k)/(1 − 1/k), 0, 1).
 * Pure functions, no I/O.
 *
 * Rounding: each probability is rounded to hundredths by largest-remainder rounding (floors
 * first, the leftover hundredths to the largest remainders, ties to the larger probability, then
 * to the earlier option). This equals plain rounding whenever plain rounding already sums to
 * 1.00, and unlike "round, then fix the largest" it never lets another option overtake the
 * argmax. Confidence and score are computed from the rounded probabilities, so every answer is
 * consistent with its own probabilities.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { ChoiceAnswer, NoulAnswer, Question, Answer, ScoreAnswer } from './wire.js';

/** How the numbers given to {@link choiceAnswer} / {@link scoreAnswer} are to be read. */
export interface ShapeOptions {
  /**
   * `'probabilities'`: non-negative weights, normalised by their sum; `'logits'`: raw scores,
   * turned into probabilities by {@link softmax}.
   * @default 'probabilities'
   */
  input?: 'probabilities' | 'logits';
}

function badOutput(message: string): JevMemError {
  return new JevMemError('SYSTEM_ONE_FAILED', `invalid model output: ${message}`);
}

/** Rounds `x` to 2 decimals (hundredths). */
export function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/** Clips `x` to [lo, hi]. */
function clip(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}

/**
 * Numerically stable softmax: p_i = exp(x_i − max x) / Σ_j exp(x_j − max x).
 * @param logits - finite numbers (at least one).
 * @returns probabilities in [0,1] summing to 1.
 * @throws JevMemError `SYSTEM_ONE_FAILED` on an empty input or a non-finite value.
 */
export function softmax(logits: readonly number[]): number[] {
  if (logits.length === 0) throw badOutput('softmax of no values');
  if (!logits.every(Number.isFinite)) throw badOutput(`non-finite logit in [${logits.join(', ')}]`);
  const max = Math.max(...logits);
  const exps = logits.map((x) => Math.exp(x - max));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((e) => e / total);
}

/** Numerically stable logistic function σ(x) = 1 / (1 + e^(−x)), in [0,1]. */
export function sigmoid(x: number): number {
  if (x >= 0) return 1 / (1 + Math.exp(-x));
  const e = Math.exp(x);
  return e / (1 + e);
}

/**
 * Normalises non-negative weights to probabilities (divides by their sum).
 * @throws JevMemError `SYSTEM_ONE_FAILED` when a value is negative or non-finite, or all are 0.
 */
export function normalise(weights: readonly number[]): number[] {
  if (weights.length === 0) throw badOutput('no probabilities');
  if (!weights.every((w) => Number.isFinite(w) && w >= 0)) {
    throw badOutput(`probabilities must be finite and ≥ 0, got [${weights.join(', ')}]`);
  }
  const total = weights.reduce((a, b) => a + b, 0);
  if (total <= 0) throw badOutput('probabilities sum to 0');
  return weights.map((w) => w / total);
}

/**
 * Rounds probabilities that sum to 1 to hundredths so that the rounded values sum to exactly
 * 1.00 (largest-remainder rounding; see the module notes). Order is kept: p_a ≥ p_b implies
 * rounded p_a ≥ rounded p_b.
 *
 * @param probs - probabilities in [0,1] that sum to 1 (e.g. from {@link normalise}).
 * @returns values with at most 2 decimals, each in [0,1], summing to 1.00 in hundredths.
 */
export function roundProbabilities(probs: readonly number[]): number[] {
  const scaled = probs.map((p) => p * 100);
  // 1e-9 absorbs binary error such as 0.29 * 100 = 28.999999999999996.
  const cents = scaled.map((x) => Math.floor(x + 1e-9));
  let left = 100 - cents.reduce((a, b) => a + b, 0);
  const order = scaled
    .map((x, i) => ({ i, rem: x - (cents[i] ?? 0), p: probs[i] ?? 0 }))
    .sort((a, b) => b.rem - a.rem || b.p - a.p || a.i - b.i);
  for (let j = 0; left > 0 && order.length > 0; j = (j + 1) % order.length, left--) {
    const i = order[j]!.i;
    cents[i] = (cents[i] ?? 0) + 1;
  }
  return cents.map((c) => c / 100);
}

/**
 * Confidence of a choice or score answer (SPEC 5): clip((max p − 1/k)/(1 − 1/k), 0, 1) with
 * k = number of options; 0 for a uniform distribution, 1 when one option has all the mass.
 *
 * @param probs - the k ≥ 2 option probabilities (in [0,1], summing to 1).
 * @returns the confidence in [0,1], rounded to 2 decimals (1 when k < 2).
 */
export function confidence(probs: readonly number[]): number {
  const k = probs.length;
  if (k < 2) return 1;
  const max = Math.max(...probs);
  return round2(clip((max - 1 / k) / (1 - 1 / k), 0, 1));
}

/** Index of the largest value; ties go to the earliest. */
function argmax(values: readonly number[]): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if ((values[i] ?? -Infinity) > (values[best] ?? -Infinity)) best = i;
  return best;
}

function toProbabilities(values: readonly number[], options: ShapeOptions | undefined): number[] {
  return (options?.input ?? 'probabilities') === 'logits' ? softmax(values) : normalise(values);
}

/**
 * The answer to a noul question: `{type: 'noul', noul: P(true)}` rounded to 2 decimals, no
 * confidence field (SPEC 5).
 *
 * @param pTrue - P(true); values outside [0,1] are clipped.
 * @throws JevMemError `SYSTEM_ONE_FAILED` when `pTrue` is not finite.
 */
export function noulAnswer(pTrue: number): NoulAnswer {
  if (!Number.isFinite(pTrue)) throw badOutput(`P(true) must be finite, got ${pTrue}`);
  return { type: 'noul', noul: round2(clip(pTrue, 0, 1)) };
}

/**
 * The answer to a choice question (SPEC 5): probabilities over exactly `labels` (2 decimals,
 * summing to 1.00), `choice` = the label with the largest probability (ties: the earliest), and
 * the {@link confidence}.
 *
 * @param labels - the question's labels, in criteria order.
 * @param values - one probability (or logit, see `options.input`) per label.
 * @throws JevMemError `SYSTEM_ONE_FAILED` when the lengths differ or the values are unusable.
 */
export function choiceAnswer(labels: readonly string[], values: readonly number[], options?: ShapeOptions): ChoiceAnswer {
  if (labels.length !== values.length) throw badOutput(`${values.length} values for ${labels.length} labels`);
  const raw = toProbabilities(values, options);
  const rounded = roundProbabilities(raw);
  const probabilities: Record<string, number> = {};
  labels.forEach((label, i) => {
    probabilities[label] = rounded[i] ?? 0;
  });
  // argmax of the raw probabilities; rounding keeps it maximal among the rounded ones.
  return { type: 'choice', choice: labels[argmax(raw)] ?? '', probabilities, confidence: confidence(rounded) };
}

/**
 * The answer to a score question (SPEC 5): probabilities keyed `"0".."n-1"` (2 decimals, summing
 * to 1.00), `score` = Σ_i i·p_i over the rounded probabilities (so it lies in [0, n−1] and has at
 * most 2 decimals), `legend` index → level text, and the {@link confidence}.
 *
 * @param levels - the question's levels, lowest first.
 * @param values - one probability (or logit, see `options.input`) per level.
 * @throws JevMemError `SYSTEM_ONE_FAILED` when the lengths differ or the values are unusable.
 */
export function scoreAnswer(levels: readonly string[], values: readonly number[], options?: ShapeOptions): ScoreAnswer {
  if (levels.length !== values.length) throw badOutput(`${values.length} values for ${levels.length} levels`);
  const rounded = roundProbabilities(toProbabilities(values, options));
  const probabilities: Record<string, number> = {};
  const legend: Record<string, string> = {};
  let scoreCents = 0;
  levels.forEach((level, i) => {
    const p = rounded[i] ?? 0;
    probabilities[String(i)] = p;
    legend[String(i)] = level;
    scoreCents += i * Math.round(p * 100); // score = Σ i·p_i, in hundredths (exact)
  });
  return { type: 'score', score: scoreCents / 100, legend, probabilities, confidence: confidence(rounded) };
}

/**
 * Shapes the answer to any question from a probability vector:
 * noul → `[P(true)]`; choice → one value per label in criteria order; score → one value per level.
 *
 * @throws JevMemError `SYSTEM_ONE_FAILED` when the vector has the wrong length or bad values.
 */
export function answerFromProbabilities(question: Question, probs: readonly number[], options?: ShapeOptions): Answer {
  switch (question.type) {
    case 'noul':
      if (probs.length !== 1) throw badOutput(`a noul question takes [P(true)], got ${probs.length} values`);
      return noulAnswer(probs[0] as number);
    case 'choice':
      return choiceAnswer(Object.keys(question.criteria), probs, options);
    case 'score':
      return scoreAnswer(question.criteria, probs, options);
  }
}
