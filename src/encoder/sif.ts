/**
 * Smooth Inverse Frequency (SIF) weighting shared by the GloVe-SIF encoder and the script that
 * builds its model (SPEC 9). Source: Arora, Liang & Ma, "A Simple but Tough-to-Beat Baseline for
 * Sentence Embeddings", ICLR 2017, Algorithm 1.
 *
 * Word probabilities come from a Zipf model over frequency rank because the shipped vocabulary is
 * in frequency order but carries no counts.
 *
 * @module
 */

/**
 * The harmonic number H_N = Σ_{k=1..N} 1/k, summed from k = 1 upwards (a fixed order, so every
 * platform gets the same double).
 *
 * @param n - Vocabulary size N (a positive integer).
 */
export function harmonicNumber(n: number): number {
  let h = 0;
  for (let k = 1; k <= n; k += 1) h += 1 / k;
  return h;
}

/**
 * Zipf probability of the word at 1-based frequency rank `rank` in a vocabulary of `n` words:
 * p(r) = 1 / (r · H_N), a probability in (0, 1]; the N values sum to 1.
 *
 * @param rank - 1-based rank (line number in `vocab.txt`).
 * @param harmonic - H_N from {@link harmonicNumber}.
 */
export function zipfProbability(rank: number, harmonic: number): number {
  return 1 / (rank * harmonic); // p(r) = 1/(r·H_N)
}

/**
 * SIF weight of a word with unigram probability `p`: a / (a + p(w)), in (0, 1)
 * (Arora et al. 2017, Algorithm 1, line 2).
 *
 * @param a - Smoothing constant a (> 0; 1e-3 by default in this package).
 * @param p - Word probability p(w) in (0, 1].
 */
export function sifWeight(a: number, p: number): number {
  return a / (a + p); // a/(a + p(w))
}

/**
 * The SIF weight of every rank 1..n under the Zipf model, as float64.
 *
 * @param n - Vocabulary size N.
 * @param a - Smoothing constant a.
 * @returns `weights[r - 1]` = a / (a + 1/(r·H_N)).
 */
export function zipfSifWeights(n: number, a: number): Float64Array {
  const harmonic = harmonicNumber(n);
  const weights = new Float64Array(n);
  for (let r = 1; r <= n; r += 1) weights[r - 1] = sifWeight(a, zipfProbability(r, harmonic));
  return weights;
}
