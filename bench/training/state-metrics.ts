/**
 * Operating-point figures of the state-update heads (issue 24), shared by the trainer
 * (bench/training/state-mlp-train.ts) and `bench changes`.
 *
 * @module
 */

/**
 * The smallest threshold t at which at most `maxFalse` (a share in [0,1]) of the negatives'
 * scores are ≥ t: just above the (⌊maxFalse·n⌋+1)-th highest negative score; 0 for no negatives.
 */
export function thresholdAt(negScores: readonly number[], maxFalse: number): number {
  const s = [...negScores].sort((a, b) => b - a);
  const v = s[Math.floor(maxFalse * s.length)];
  return v === undefined ? 0 : v + 1e-9;
}

/** Shares at threshold `t` (score ≥ t passes): updates caught (of label 1) and false passes (of label 0), with the counts. */
export function rates(scores: readonly number[], labels: readonly number[], t: number): { caught: number; falseRate: number; pos: number; neg: number } {
  let tp = 0;
  let fp = 0;
  let pos = 0;
  let neg = 0;
  scores.forEach((s, i) => {
    if (labels[i] === 1) {
      pos++;
      if (s >= t) tp++;
    } else {
      neg++;
      if (s >= t) fp++;
    }
  });
  return { caught: pos ? tp / pos : 0, falseRate: neg ? fp / neg : 0, pos, neg };
}
