/**
 * Calibration of `RecalledMemory.relevance` (issue 23) and the evidence `answer` gives System Two
 * ({@link answerEvidence}; `minScore` compares with the final score since h-break10): System One's relevance a_v
 * (question `cand.relevance`) mapped to the probability that the memory is evidence for the
 * question, P = σ(α·logit(a_v) + β) (Platt scaling), with (α, β) fitted per System-One model on
 * LoCoMo DEV only (conversations 0-4; `bench/locomo/relevance-calibration.ts`, labels: the gold
 * evidence turns among each question's top 40). A backend whose model is not in
 * {@link RELEVANCE_CALIBRATION} (a remote or custom model) is taken as already calibrated: its
 * a_v is reported as it is.
 *
 * @module
 */

/** Platt parameters of one System-One model. */
export interface PlattParameters {
  alpha: number;
  beta: number;
  /** Where the parameters come from (command and data), for the docs. */
  source: string;
}

const FITTED_WITH = 'LoCoMo DEV, 200 questions (40 per conversation), 8,000 recalled memories: nice -n 15 npx tsx bench/locomo/relevance-calibration.ts';

/**
 * Fitted calibrations, by exact System-One model id (a new model version needs a new fit; until
 * then its a_v is reported as it is). Frozen: no global mutable configuration. Expected
 * calibration error on the fitting data (10 bins): trained model 0.0145 raw → 0.0026; heuristic
 * stand-in 0.553 raw → 0.0023.
 */
export const RELEVANCE_CALIBRATION: Readonly<Record<string, Readonly<PlattParameters>>> = Object.freeze({
  'jev-mem/system-one@1.2.0': Object.freeze({ alpha: 1.304, beta: 0.2324, source: `${FITTED_WITH} local` }),
  'jev-mem/heuristic-standin@0.1.0': Object.freeze({ alpha: 1.0502, beta: -5.6099, source: `${FITTED_WITH} heuristic` }),
});

/** logit of a_v, with a_v clamped to [0.005, 0.995] (a_v is given to two decimals). */
export function relevanceLogit(a: number): number {
  const p = Math.min(0.995, Math.max(0.005, Number.isFinite(a) ? a : 0));
  return Math.log(p / (1 - p));
}

/** The calibration of a System-One model, or undefined when none was fitted (a_v is then reported as it is). */
export function calibrationOf(modelId: string): Readonly<PlattParameters> | undefined {
  return Object.hasOwn(RELEVANCE_CALIBRATION, modelId) ? RELEVANCE_CALIBRATION[modelId] : undefined;
}

/** The calibrated relevance of a_v under `c` (a_v itself without a calibration), in [0,1]. */
export function calibratedRelevance(a: number, c: Readonly<PlattParameters> | undefined): number {
  if (c === undefined) return Math.min(1, Math.max(0, a));
  return 1 / (1 + Math.exp(-(c.alpha * relevanceLogit(a) + c.beta)));
}

/**
 * Floor of the calibrated relevance for the evidence `answer` gives System Two when no
 * `minScore` is given: the evidence runs down to the lowest-ranked memory at or above it (with
 * {@link DEFAULT_ANSWER_KEEP_TOP} at least; see {@link answerEvidence}). Chosen
 * on LoCoMo DEV (`bench/locomo/relevance-calibration.ts`, top 40 of 200 questions; docs/api.md):
 * at 0.01 the trained System One keeps 89.3% of the gold evidence turns recalled and drops 70.3%
 * of the other memories; the base rate is 2.7% (214 gold of 8,000), so 0.01 drops what is
 * clearly less likely than average.
 */
export const DEFAULT_ANSWER_MIN_SCORE = 0.01;

/**
 * The top-ranked memories `answer` always gives System Two when no `minScore` is given, whatever
 * their calibrated relevance. The relevance a_v is System One's answer given to two decimals and
 * calibrated on LoCoMo's English conversations: where it has no signal (a question in another
 * language, a small store, a wording its features do not cover) every memory gets a_v ≈ 0
 * (calibrated 0.001-0.008, all alike), and a floor alone would empty the prompt although the
 * read path's final score still ranks the evidence first ("Where do I live?" / "Onde eu moro?"
 * after "I live in Lisbon now"). On LoCoMo DEV (`bench/locomo/answer-floor.ts`, 200 questions,
 * default k) keeping the top 3 as well changes the 0.01 floor's 88.4% / 70.6% / 92.2% (gold
 * kept / other memories dropped / questions keeping a gold turn) to 88.9% / 70.4% / 92.2%, 12.7
 * memories a question instead of 12.6.
 */
export const DEFAULT_ANSWER_KEEP_TOP = 3;

/**
 * The evidence `answer` (and the AI SDK middleware) gives System Two from the memories recall
 * ranked, in their order; always a prefix of the ranking, so no memory is left out while one
 * ranked below it goes in (h-break10 finding 4). With `minScore` given, those whose final `score`
 * is at least `minScore` (0 keeps all; `score` falls with rank, so this is a prefix). Without it,
 * the {@link DEFAULT_ANSWER_KEEP_TOP} top-ranked, and below them every memory down to the
 * lowest-ranked one whose calibrated `relevance` is at least {@link DEFAULT_ANSWER_MIN_SCORE}
 * (the memories between come too): a superset of the former rule (the top 3 and, below them,
 * only those at or above the floor), which dropped memories ranked above ones it kept.
 */
export function answerEvidence<T extends { score: number; relevance?: number }>(ranked: readonly T[], minScore: number | undefined): T[] {
  if (minScore !== undefined) {
    const cut = ranked.findIndex((m) => !(m.score >= minScore));
    return cut < 0 ? [...ranked] : ranked.slice(0, cut);
  }
  let last = DEFAULT_ANSWER_KEEP_TOP - 1;
  ranked.forEach((m, i) => {
    if ((m.relevance ?? 0) >= DEFAULT_ANSWER_MIN_SCORE) last = Math.max(last, i);
  });
  return ranked.slice(0, last + 1);
}
