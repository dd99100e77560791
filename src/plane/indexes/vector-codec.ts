/**
 * Compact vectors (issue 13). The write path stores every embedding on an int8 grid with one
 * float32 scale per vector (symmetric quantisation: v_i = q_i · s, q_i ∈ [−127, 127],
 * s = max_i |x_i| / 127), so a vector costs d + 4 bytes in a store and in the resident slab
 * instead of ~9 bytes per entry as JSON. The cosine error of the grid is below 10⁻³ for d = 100.
 *
 * {@link encodeVector} is lossless for every JSON-safe vector: a vector on the grid is written as
 * `0x01, s (float32 LE), q_1 … q_d (int8)`; any other (older stores, another encoder) as
 * `0x02, x_1 … x_d (float64 LE)`. {@link decodeVector} gives back exactly the numbers encoded.
 *
 * @module
 */

/** Format byte of an int8-grid vector. */
const INT8 = 1;
/** Format byte of a float64 vector (exact fallback). */
const F64 = 2;

/**
 * Puts a vector on the int8 grid: v_i = q_i · s with s = fround(max|x_i| / 127) and
 * q_i = round(x_i / s). Each v_i is a float64 product of a float32 and a small integer, so it is
 * exact and {@link encodeVector} recovers (s, q) without loss. A zero vector stays zero.
 * @returns the grid values as plain numbers (the stored embedding's `vector`).
 */
export function quantizeVector(x: ArrayLike<number>): number[] {
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i] as number));
  if (max === 0 || !Number.isFinite(max)) return Array.from(x, (v) => (Number.isFinite(v) ? 0 : v));
  const s = Math.fround(max / 127);
  // every entry below float32's range (max < ~1.8e-43): the float32 vector is all zeros, not NaN
  if (s === 0) return Array.from(x, () => 0);
  const out = new Array<number>(x.length);
  // `+ 0` turns −0 into 0, so a JSON round trip (which writes −0 as 0) gives the same numbers.
  for (let i = 0; i < x.length; i++) out[i] = Math.max(-127, Math.min(127, Math.round((x[i] as number) / s))) * s + 0;
  return out;
}

/** (s, q) of a vector on the int8 grid, or undefined when it is not on one. */
function gridOf(v: ArrayLike<number>): { s: number; q: Int8Array } | undefined {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const a = Math.abs(v[i] as number);
    if (!Number.isFinite(a) || Object.is(v[i], -0)) return undefined; // the grid has no −0
    if (a > max) max = a;
  }
  if (max === 0) return v.length === 0 ? undefined : { s: 0, q: new Int8Array(v.length) };
  const s = max / 127;
  if (Math.fround(s) !== s) return undefined;
  const q = new Int8Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const k = Math.round((v[i] as number) / s);
    if (k * s !== v[i] || k < -127 || k > 127) return undefined;
    q[i] = k;
  }
  return { s, q };
}

/** Bytes of a vector: int8 grid form when it is on the grid, else exact float64. */
export function encodeVector(v: ArrayLike<number>): Uint8Array {
  const grid = gridOf(v);
  if (grid !== undefined) {
    const out = new Uint8Array(5 + v.length);
    out[0] = INT8;
    new DataView(out.buffer).setFloat32(1, grid.s, true);
    out.set(new Uint8Array(grid.q.buffer), 5);
    return out;
  }
  const out = new Uint8Array(1 + 8 * v.length);
  out[0] = F64;
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat64(1 + 8 * i, v[i] as number, true);
  return out;
}

/**
 * The numbers {@link encodeVector} encoded.
 * @throws Error on bytes that no call of `encodeVector` wrote (the adapter reports it as `STORAGE_FAILED`).
 */
export function decodeVector(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === INT8) {
    const s = view.getFloat32(1, true);
    const out = new Array<number>(bytes.length - 5);
    for (let i = 0; i < out.length; i++) out[i] = view.getInt8(5 + i) * s;
    return out;
  }
  if (bytes[0] === F64 && (bytes.length - 1) % 8 === 0) {
    const out = new Array<number>((bytes.length - 1) / 8);
    for (let i = 0; i < out.length; i++) out[i] = view.getFloat64(1 + 8 * i, true);
    return out;
  }
  throw new Error(`not an encoded vector (format byte ${bytes[0]}, ${bytes.length} bytes)`);
}
