/**
 * The int8 row block of a serialised vector index (issue 22, checkpoint @3): the flat and ann
 * kinds keep every vector on the int8 grid as one row of d int8 entries in their bytes
 * (`vector-flat.ts`, `vector-ann-format.ts`), so a checkpoint's node directory can point at those
 * rows instead of keeping a second copy (`node-directory.ts`). Read straight from the header
 * fields, without decoding the ids or the graph.
 *
 * @module
 */
import { VECTOR_HEADER_BYTES, corruptVectorIndex, decodeIds, readVectorHeader } from './vector-format.js';

/**
 * The int8 rows of the serialised flat or ann index `bytes`, row-major, d entries a row (a view
 * of `bytes`, not a copy): row r is the grid row numbered r by the index's `gridRowOf`; a flat
 * index's int8 rows in order, an ann index's slots (a free slot's row is zeros).
 * @returns `undefined` for another kind (hnswlib's bytes keep float32 vectors).
 * @throws JevMemError `STORAGE_FAILED` (field `bytes`) when the header is malformed or the row
 *   block does not fit in `bytes`; `SCHEMA_MISMATCH` on a newer format version.
 */
export function gridRowsOf(bytes: Uint8Array): Int8Array | undefined {
  const { kind, dimension: d } = readVectorHeader(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (i: number): number => {
    const at = VECTOR_HEADER_BYTES + 4 * i;
    if (at + 4 > bytes.length) throw corruptVectorIndex(`${kind} index of ${bytes.length} bytes, shorter than its head`);
    return view.getUint32(at, true);
  };
  let at: number;
  let rows: number;
  if (kind === 'flat') {
    // nq, nf, id bytes; ids; nq scales; nf·d float32; nq·d int8
    const [nq, nf, idBytes] = [u32(0), u32(1), u32(2)];
    at = VECTOR_HEADER_BYTES + 12 + idBytes + 4 * nq + 4 * nf * d;
    rows = nq;
  } else if (kind === 'ann') {
    // M, efC, efS, rng, S, n, entry+1, id bytes, f, r, w; ids; 4n slots; 4r free; S levels; 4S scales; S·d int8
    const [S, n, idBytes, r] = [u32(4), u32(5), u32(7), u32(9)];
    at = VECTOR_HEADER_BYTES + 44 + idBytes + 4 * n + 4 * r + S + 4 * S;
    rows = S;
  } else return undefined;
  if (at + rows * d > bytes.length) throw corruptVectorIndex(`the ${rows} int8 rows of the ${kind} index end after its ${bytes.length} bytes`);
  return new Int8Array(bytes.buffer, bytes.byteOffset + at, rows * d);
}

/**
 * The id of each int8 row of the serialised flat or ann index `bytes` (the rows of
 * {@link gridRowsOf}; `undefined` for a free slot), decoded from its id list: for a checkpoint
 * whose vector index was not restored (an index restored from the bytes answers `gridRowId`).
 * @returns `undefined` for another kind.
 * @throws JevMemError `STORAGE_FAILED` (field `bytes`) on a malformed header or id list.
 */
export function gridRowIdsOf(bytes: Uint8Array): Array<string | undefined> | undefined {
  const { kind } = readVectorHeader(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (at: number): number => {
    if (at + 4 > bytes.length) throw corruptVectorIndex(`${kind} index of ${bytes.length} bytes, shorter than its head`);
    return view.getUint32(at, true);
  };
  if (kind === 'flat') {
    const [nq, nf, idBytes] = [u32(VECTOR_HEADER_BYTES), u32(VECTOR_HEADER_BYTES + 4), u32(VECTOR_HEADER_BYTES + 8)];
    const at = VECTOR_HEADER_BYTES + 12;
    return decodeIds(bytes.subarray(at, at + idBytes), nq + nf).slice(0, nq);
  }
  if (kind !== 'ann') return undefined;
  const head = (i: number): number => u32(VECTOR_HEADER_BYTES + 4 * i);
  const [S, n, idBytes] = [head(4), head(5), head(7)];
  let at = VECTOR_HEADER_BYTES + 44;
  const ids = decodeIds(bytes.subarray(at, at + idBytes), n);
  at += idBytes;
  const out = new Array<string | undefined>(S).fill(undefined);
  for (let i = 0; i < n; i++, at += 4) {
    const slot = u32(at);
    if (slot >= S) throw corruptVectorIndex(`live slot ${slot} is out of range`);
    out[slot] = ids[i];
  }
  return out;
}
