/** Seeded random unit vectors for the vector index tests. */
import { prng } from '../helpers/prng.js';

export { prng };

/** A random L2-normalised vector (entries uniform in [-1, 1] before normalising). */
export function randomUnit(random: () => number, dimension: number): Float32Array {
  const v = new Float32Array(dimension);
  let norm = 0;
  for (let i = 0; i < dimension; i++) {
    v[i] = random() * 2 - 1;
    norm += v[i]! * v[i]!;
  }
  const inv = 1 / Math.sqrt(norm);
  for (let i = 0; i < dimension; i++) v[i] = v[i]! * inv;
  return v;
}

/** Cosine similarity in float64. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
