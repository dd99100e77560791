/**
 * Byte format of a serialised vector index (issue 13: derived indexes reopen from a checkpoint
 * instead of a rebuild). Every serialised index starts with one 12-byte header:
 *
 * | offset | bytes | field |
 * |---|---|---|
 * | 0 | 4 | magic `JVIX` (ASCII) |
 * | 4 | 1 | kind: 1 = flat, 2 = hnsw (hnswlib-wasm), 3 = ann (pure-TypeScript HNSW) |
 * | 5 | 1 | format version of that kind (see {@link VECTOR_FORMAT_VERSION}) |
 * | 6 | 2 | reserved, 0 |
 * | 8 | 4 | dimension (uint32 LE) |
 *
 * followed by the kind's body (`vector-flat.ts`, `vector-hnsw.ts`, `vector-ann-format.ts`). All numbers are little-endian.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';

/** Bytes of the common header. */
export const VECTOR_HEADER_BYTES = 12;

/** Kind byte of each index kind. */
export const VECTOR_KIND_CODE = { flat: 1, hnsw: 2, ann: 3 } as const;

/** Format version each kind writes (and the newest it reads). */
export const VECTOR_FORMAT_VERSION = { flat: 1, hnsw: 1, ann: 1 } as const;

/** A serialised index kind. */
export type SerializedVectorKind = keyof typeof VECTOR_KIND_CODE;

/** The header of a serialised vector index. */
export interface VectorIndexHeader {
  kind: SerializedVectorKind;
  version: number;
  dimension: number;
}

const MAGIC = [0x4a, 0x56, 0x49, 0x58]; // "JVIX"

/** The error every malformed vector-index blob raises: `STORAGE_FAILED` naming what was wrong. */
export function corruptVectorIndex(what: string): JevMemError {
  return new JevMemError('STORAGE_FAILED', `vector index checkpoint is corrupt: ${what}; drop the checkpoint to rebuild the index`, {
    field: 'bytes',
  });
}

/** Writes the header of an index of `kind` into the first {@link VECTOR_HEADER_BYTES} of `view`. */
export function writeVectorHeader(view: DataView, kind: SerializedVectorKind, dimension: number): void {
  MAGIC.forEach((b, i) => view.setUint8(i, b));
  view.setUint8(4, VECTOR_KIND_CODE[kind]);
  view.setUint8(5, VECTOR_FORMAT_VERSION[kind]);
  view.setUint16(6, 0, true);
  view.setUint32(8, dimension, true);
}

/**
 * Reads and checks the header of a serialised vector index.
 * @throws JevMemError `INVALID_INPUT` (field `bytes`) when `bytes` is not a `Uint8Array`;
 *   `STORAGE_FAILED` (field `bytes`) when it is too short, has another magic, an unknown kind or
 *   a zero dimension; `SCHEMA_MISMATCH` when its format version is newer than this build reads.
 */
export function readVectorHeader(bytes: Uint8Array): VectorIndexHeader {
  if (!(bytes instanceof Uint8Array)) {
    throw new JevMemError('INVALID_INPUT', `bytes: expected a Uint8Array, got ${bytes === null ? 'null' : typeof bytes}`, { field: 'bytes' });
  }
  if (bytes.length < VECTOR_HEADER_BYTES) throw corruptVectorIndex(`${bytes.length} bytes, shorter than the ${VECTOR_HEADER_BYTES}-byte header`);
  if (MAGIC.some((b, i) => bytes[i] !== b)) throw corruptVectorIndex('no JVIX magic at offset 0 (not a serialised vector index)');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const code = view.getUint8(4);
  const kind = (Object.keys(VECTOR_KIND_CODE) as SerializedVectorKind[]).find((k) => VECTOR_KIND_CODE[k] === code);
  if (kind === undefined) throw corruptVectorIndex(`unknown index kind byte ${code}`);
  const version = view.getUint8(5);
  if (version === 0) throw corruptVectorIndex(`format version 0 of the ${kind} index`);
  if (version > VECTOR_FORMAT_VERSION[kind]) {
    throw new JevMemError(
      'SCHEMA_MISMATCH',
      `vector index checkpoint has ${kind} format version ${version}; this build reads up to ${VECTOR_FORMAT_VERSION[kind]}; drop the checkpoint to rebuild the index`,
      { field: 'bytes' },
    );
  }
  const dimension = view.getUint32(8, true);
  if (dimension === 0) throw corruptVectorIndex('dimension 0');
  return { kind, version, dimension };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 bytes of the JSON array of `ids`. */
export function encodeIds(ids: readonly string[]): Uint8Array {
  return encoder.encode(JSON.stringify(ids));
}

/**
 * The id array {@link encodeIds} wrote. `distinct` false leaves the check that no id repeats to
 * the caller (one that files the ids in a map anyway checks its size: a set here costs as much).
 * @throws JevMemError `STORAGE_FAILED` (field `bytes`) when it is not a JSON array of `count`
 *   non-empty strings, distinct unless `distinct` is false.
 */
export function decodeIds(bytes: Uint8Array, count: number, distinct = true): string[] {
  let ids: unknown;
  try {
    ids = JSON.parse(decoder.decode(bytes));
  } catch {
    throw corruptVectorIndex('the id list is not UTF-8 JSON');
  }
  if (!Array.isArray(ids) || ids.length !== count) throw corruptVectorIndex(`the id list does not hold ${count} ids`);
  if (ids.some((id) => typeof id !== 'string' || id.length === 0)) throw corruptVectorIndex('the id list holds a value that is not a non-empty string');
  if (distinct && new Set(ids).size !== ids.length) throw corruptVectorIndex('the id list repeats an id');
  return ids as string[];
}
