/**
 * Small vector helpers shared by the write and read paths.
 *
 * @module
 */

/** Dot product of two equal-length vectors (cosine for L2-normalised vectors). */
export function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}
