/** Seeded random unit vectors for the vector index tests. */

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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
