/**
 * The node directory's checkpoint parts at the byte level: typed arrays to and from part bytes,
 * and the int8 rows against the vector index's row block (checkpoint @3, issue 22: each vector
 * stored once): which row of the index each slot's vector equals, and the copy back at restore
 * (`vector-rows.ts` reads the row block out of the index's bytes).
 *
 * @module
 */

/** The part that lists, per slot, the number of its row in the vector index's row block. */
export const VEC_ROW_PART = 'dir.vecrow';

/**
 * For each slot, the number of the equal row in `rows` (−1 for a zero row or a free slot), or
 * undefined when some slot's row is not there (the checkpoint then keeps `dir.vec`).
 * @param vec - The directory's int8 rows, `d` a slot.
 * @param ids - The id of each slot (undefined: free).
 * @param d - The dimension.
 * @param rows - The index's row block and the row number of an id (−1: none).
 */
export function rowNumbers(vec: Int8Array, ids: ReadonlyArray<string | undefined>, d: number, { rows, rowOf }: { rows: Int8Array; rowOf: (id: string) => number }): Int32Array | undefined {
  const n = ids.length;
  const out = new Int32Array(n).fill(-1);
  for (let slot = 0; slot < n; slot++) {
    const base = slot * d;
    let zero = true;
    for (let i = 0; i < d && zero; i++) zero = vec[base + i] === 0;
    if (zero) continue;
    const id = ids[slot];
    const r = id === undefined ? -1 : rowOf(id);
    if (r < 0 || (r + 1) * d > rows.length) return undefined;
    const at = r * d;
    for (let i = 0; i < d; i++) if (rows[at + i] !== vec[base + i]) return undefined;
    out[slot] = r;
  }
  return out;
}

/**
 * Fills the slots' int8 rows of `vec` from `rows` by their row numbers (−1: a zero row).
 * @throws Error when a number names a row `rows` lacks (or `rows` is not given).
 */
export function copyRows(vec: Int8Array, d: number, numbers: Int32Array, rows: Int8Array | undefined): void {
  const count = rows === undefined ? 0 : rows.length / d;
  for (let slot = 0; slot < numbers.length; slot++) {
    const r = numbers[slot] as number;
    if (r < 0) continue;
    if (rows === undefined || r >= count) throw new Error(`checkpoint part ${VEC_ROW_PART} names row ${r} of the vector index, which has ${count}`);
    vec.set(rows.subarray(r * d, (r + 1) * d), slot * d);
  }
}

/** The first `length` bytes of `a` as a new byte array (a part of its own). */
export function bytesOf(a: ArrayBufferView, length: number): Uint8Array {
  return new Uint8Array(a.buffer.slice(a.byteOffset, a.byteOffset + length));
}

/** A typed array constructor the directory restores a part into. */
export type TypedArrayOf<T> = { new (buffer: ArrayBuffer, byteOffset: number, length: number): T; new (buffer: ArrayBuffer): T; readonly BYTES_PER_ELEMENT: number };

/**
 * The elements of `part` (platform byte order, as {@link NodeDirectory.toParts} wrote them) as a
 * `Type` array: a view over the part's bytes when they are aligned for `Type` (no copy), else a
 * copy of them (a part at an odd offset of a larger buffer). The caller copies it into its own
 * array, so the part is never shared.
 */
export function viewOf<T>(Type: TypedArrayOf<T>, part: Uint8Array): T {
  const size = Type.BYTES_PER_ELEMENT;
  if (part.byteOffset % size === 0) return new Type(part.buffer as ArrayBuffer, part.byteOffset, part.byteLength / size);
  return new Type(part.slice().buffer);
}
