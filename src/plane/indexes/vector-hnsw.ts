/**
 * Approximate vector index I^vec (eq. (5)) on hnswlib-wasm (HNSW graph in WebAssembly), for
 * browsers, extensions and Node. It cannot run in Cloudflare Workers (the wasm is inlined as
 * base64 and compiled at run time, SPEC 9), and bundlers do not follow its run-time import:
 * there `'auto'` (`createVectorIndex` of `vector-factory.ts`) builds the pure-TypeScript HNSW of `vector-ann.ts`.
 *
 * Vectors are L2-normalised on the way in and the index uses hnswlib's inner-product space,
 * whose distance is 1 − q·v; so score = 1 − distance = cosine similarity, the same scale as the
 * flat index.
 *
 * @module
 */
import { JevMemError, describeValue, invalidOption } from '../../errors.js';
import type { IndexHit, VectorIndex } from './indexes.js';
import { VECTOR_HEADER_BYTES, corruptVectorIndex, decodeIds, encodeIds, readVectorHeader, writeVectorHeader } from './vector-format.js';
import { readIndexBytes, writeIndexBytes } from './vector-hnsw-files.js';
import { loadHnswlibModule, type HierarchicalNSW, type HnswlibModule } from './vector-hnsw-wasm.js';
import { checkDimension, checkK, normalizedCopy } from './vector-math.js';

/** Options of {@link createHnswVectorIndex}. */
export interface HnswVectorIndexOptions {
  /** Number of entries of every vector (the encoder's dimension). */
  dimension: number;
  /**
   * Initial capacity in vectors; when full the index doubles it (`resizeIndex`).
   * @default 1024
   */
  maxElements?: number;
  /**
   * HNSW `M`: the maximum number of outgoing links per node per layer.
   * @default 16
   */
  m?: number;
  /**
   * Size of the candidate list while building (higher = better graph, slower adds).
   * @default 200
   */
  efConstruction?: number;
  /**
   * Size of the candidate list while searching (raised to `k` when `k` is larger).
   * @default 64
   */
  efSearch?: number;
}

/** hnswlib's random seed: fixed so that builds are reproducible. */
const RANDOM_SEED = 100;

/** hnswlib's message for a wasm exception (embind throws a pointer or an Error). */
function wasmMessage(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

function positiveInt(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw invalidOption(name, `expected a positive integer, got ${describeValue(value)}`);
  return value;
}

class HnswVectorIndex implements VectorIndex {
  readonly kind = 'hnsw' as const;
  readonly dimension: number;
  readonly #efSearch: number;
  #index: HierarchicalNSW | undefined;
  readonly #labelOf = new Map<string, number>();
  readonly #idOf = new Map<number, string>();
  /** Next fresh label; labels are never reused for another id while it is live. */
  #nextLabel = 0;
  /** Slots freed by `markDelete` that hnswlib can hand to the next new vector. */
  #deleted = 0;

  readonly #lib: HnswlibModule;

  /** Wraps `index` (initialised or read); `labels` are the live id → label pairs, `deleted` the free slots. */
  constructor(lib: HnswlibModule, dimension: number, index: HierarchicalNSW, efSearch: number, state?: { labels: Map<string, number>; nextLabel: number; deleted: number }) {
    this.#lib = lib;
    this.dimension = dimension;
    this.#efSearch = efSearch;
    index.setEfSearch(efSearch);
    this.#index = index;
    if (state !== undefined) {
      for (const [id, label] of state.labels) {
        this.#labelOf.set(id, label);
        this.#idOf.set(label, id);
      }
      this.#nextLabel = state.nextLabel;
      this.#deleted = state.deleted;
    }
  }

  get size(): number {
    return this.#labelOf.size;
  }

  add(id: string, vector: Float32Array): void {
    if (typeof id !== 'string' || id.length === 0) {
      throw new JevMemError('INVALID_INPUT', `id: expected a non-empty string, got ${JSON.stringify(id)}`, { field: 'id' });
    }
    const unit = normalizedCopy(vector, this.dimension);
    const index = this.#live();
    // The wasm wrapper refuses any addPoint (even an update) while the index is full.
    if (index.getCurrentCount() >= index.getMaxElements()) index.resizeIndex(index.getMaxElements() * 2);
    const existing = this.#labelOf.get(id);
    if (existing !== undefined) {
      index.addPoint(unit, existing, false); // update in place
      return;
    }
    const label = this.#nextLabel++;
    // replaceDeleted = true: reuse a slot freed by markDelete when there is one.
    index.addPoint(unit, label, this.#deleted > 0);
    if (this.#deleted > 0) this.#deleted--;
    this.#labelOf.set(id, label);
    this.#idOf.set(label, id);
  }

  remove(id: string): void {
    const label = this.#labelOf.get(id);
    if (label === undefined) return;
    const index = this.#live();
    // Erasure (issue 22): hnswlib keeps a deleted point's vector in its memory and in the file
    // `serialize()` writes; it is overwritten with zeros first, so neither holds it.
    if (index.getCurrentCount() >= index.getMaxElements()) index.resizeIndex(index.getMaxElements() * 2);
    index.addPoint(new Float32Array(this.dimension), label, false);
    index.markDelete(label);
    this.#deleted++;
    this.#labelOf.delete(id);
    this.#idOf.delete(label);
  }

  has(id: string): boolean {
    return this.#labelOf.has(id);
  }

  vectorOf(id: string): Float32Array | undefined {
    const index = this.#live();
    const label = this.#labelOf.get(id);
    return label === undefined ? undefined : Float32Array.from(index.getPoint(label));
  }

  search(vector: Float32Array, k: number): IndexHit[] {
    checkK(k);
    const q = normalizedCopy(vector, this.dimension);
    const index = this.#live();
    const n = Math.min(k, this.#labelOf.size);
    if (n === 0) return [];
    index.setEfSearch(Math.max(this.#efSearch, n));
    const result = index.searchKnn(q, n, undefined);
    const hits: IndexHit[] = [];
    for (let i = 0; i < result.neighbors.length; i++) {
      const id = this.#idOf.get(result.neighbors[i] as number);
      // z = 1 − d_ip = q·v = cos(q, v) for unit vectors
      if (id !== undefined) hits.push({ id, score: 1 - (result.distances[i] as number) });
    }
    hits.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return hits;
  }

  /**
   * The index as bytes: header (kind 2), then capacity, efSearch, next label, live count n,
   * deleted count m, id bytes b, file bytes f (uint32 LE each); the ids as a UTF-8 JSON array
   * (b bytes); their labels (n uint32); the deleted labels (m uint32); hnswlib's own index file
   * (f bytes: graph, vectors, deletion marks) as `writeIndex` wrote it.
   */
  async serialize(): Promise<Uint8Array> {
    const index = this.#live();
    const ids = [...this.#labelOf.keys()];
    const labels = ids.map((id) => this.#labelOf.get(id) as number);
    const deleted = index.getDeletedLabels();
    const capacity = index.getMaxElements();
    const nextLabel = this.#nextLabel;
    let file: Uint8Array;
    try {
      file = await writeIndexBytes(this.#lib, index);
    } catch (cause) {
      throw new JevMemError('STORAGE_FAILED', `the HNSW index could not be written out: ${wasmMessage(cause)}`, { cause });
    }
    const idBytes = encodeIds(ids);
    const out = new Uint8Array(HNSW_BODY_OFFSET + idBytes.length + 4 * labels.length + 4 * deleted.length + file.length);
    const view = new DataView(out.buffer);
    writeVectorHeader(view, 'hnsw', this.dimension);
    [capacity, this.#efSearch, nextLabel, labels.length, deleted.length, idBytes.length, file.length].forEach((x, i) =>
      view.setUint32(VECTOR_HEADER_BYTES + 4 * i, x, true),
    );
    let at = HNSW_BODY_OFFSET;
    out.set(idBytes, at);
    at += idBytes.length;
    for (const label of labels) {
      view.setUint32(at, label, true);
      at += 4;
    }
    for (const label of deleted) {
      view.setUint32(at, label, true);
      at += 4;
    }
    out.set(file, at);
    return out;
  }

  dispose(): void {
    const index = this.#index;
    this.#index = undefined;
    this.#labelOf.clear();
    this.#idOf.clear();
    index?.delete();
  }

  #live(): HierarchicalNSW {
    if (this.#index === undefined) throw new JevMemError('CLOSED', 'the HNSW vector index was used after dispose()');
    return this.#index;
  }
}

/**
 * Creates an HNSW index (hnswlib-wasm 0.8.2, inner-product space over L2-normalised vectors):
 * `score` = cosine similarity in [-1, 1], approximate (recall against the exact index depends on
 * `m`, `efConstruction`, `efSearch`). String ids map to integer labels inside; `remove` marks the
 * label deleted and the next new vector reuses its slot. The capacity doubles when full.
 *
 * @throws JevMemError `INVALID_INPUT` (field `dimension`) on a bad dimension, `INVALID_OPTION`
 *   (field `maxElements` / `m` / `efConstruction` / `efSearch`) on a bad option,
 *   `MODEL_LOAD_FAILED` when hnswlib-wasm cannot load. `add` / `search` throw `INVALID_INPUT`
 *   (field `vector`, `id` or `k`) on bad arguments and `CLOSED` after `dispose()`.
 *
 * Source: SPEC 2 (hnswlib-wasm where it can run), SPEC 9 (loading it in Node), eq. (5) I^vec.
 */
export async function createHnswVectorIndex(options: HnswVectorIndexOptions): Promise<VectorIndex> {
  checkDimension(options.dimension);
  const maxElements = positiveInt('maxElements', options.maxElements, 1024);
  const m = positiveInt('m', options.m, 16);
  const efConstruction = positiveInt('efConstruction', options.efConstruction, 200);
  const efSearch = positiveInt('efSearch', options.efSearch, 64);
  const lib = await loadHnswlibModule();
  const index = new lib.HierarchicalNSW('ip', options.dimension, '');
  index.initIndex(maxElements, m, efConstruction, RANDOM_SEED);
  return new HnswVectorIndex(lib, options.dimension, index, efSearch);
}

/** Offset of the id list in a serialised HNSW index: header, then seven uint32 fields. */
const HNSW_BODY_OFFSET = VECTOR_HEADER_BYTES + 28;

/** Bytes of the fixed head of hnswlib's index file (wasm32: ten 4-byte fields, a double, one more). */
const HNSWLIB_FILE_HEAD = 52;

/** Options of {@link restoreHnswVectorIndex}. */
export interface RestoreHnswOptions {
  /** Search candidate list size; default: the one the serialised index had. */
  efSearch?: number;
}

/**
 * Restores an HNSW index from the bytes of its `serialize()` without re-inserting vectors:
 * hnswlib's own index file is handed to `readIndex` (graph, vectors and deletion marks as they
 * were) and the id ↔ label maps and free slots are read back, so the restored index answers
 * every search exactly as the original did, and `add` / `remove` go on from there. `M` and
 * `efConstruction` come from the file; `efSearch` from the bytes unless `options` sets it.
 *
 * The file travels through hnswlib-wasm's IDBFS mount (`/hnswlib-index`; the package does not
 * export its emscripten `FS`): written to its IndexedDB store, synced in, read, then deleted from
 * both. Operations of one realm queue behind each other; two browser tabs serialising at the same
 * instant can remove each other's file in a sync, which fails the operation with
 * `STORAGE_FAILED` (retry it) rather than corrupting anything.
 *
 * @throws JevMemError `STORAGE_FAILED` (field `bytes`) on bytes that are truncated, of another
 *   kind, or whose id list / labels / hnswlib file do not agree (hnswlib's own check included);
 *   `SCHEMA_MISMATCH` on a newer format version; `INVALID_INPUT` (field `bytes`) when `bytes` is
 *   not a `Uint8Array`; `INVALID_OPTION` (field `efSearch`); `MODEL_LOAD_FAILED` /
 *   `DEPENDENCY_MISSING` when hnswlib-wasm cannot load.
 *
 * Source: issue 13 (derived indexes reopen without a rebuild), SPEC 2 (hnswlib-wasm).
 */
export async function restoreHnswVectorIndex(bytes: Uint8Array, options: RestoreHnswOptions = {}): Promise<VectorIndex> {
  const header = readVectorHeader(bytes);
  if (header.kind !== 'hnsw') throw corruptVectorIndex(`expected an hnsw index, got a ${header.kind} index`);
  const dim = header.dimension;
  if (bytes.length < HNSW_BODY_OFFSET) throw corruptVectorIndex(`hnsw index of ${bytes.length} bytes, shorter than its ${HNSW_BODY_OFFSET}-byte head`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const [capacity, storedEf, nextLabel, count, deletedCount, idBytes, fileBytes] = Array.from({ length: 7 }, (_, i) =>
    view.getUint32(VECTOR_HEADER_BYTES + 4 * i, true),
  ) as [number, number, number, number, number, number, number];
  const expected = HNSW_BODY_OFFSET + idBytes + 4 * count + 4 * deletedCount + fileBytes;
  if (bytes.length !== expected) {
    throw corruptVectorIndex(`hnsw index of ${count} vectors (${deletedCount} deleted, ${fileBytes}-byte file) needs ${expected} bytes, got ${bytes.length}`);
  }
  if (capacity < count + deletedCount || storedEf === 0) throw corruptVectorIndex(`capacity ${capacity} / efSearch ${storedEf} do not fit ${count + deletedCount} slots`);
  const efSearch = positiveInt('efSearch', options.efSearch, storedEf);
  let at = HNSW_BODY_OFFSET;
  const ids = decodeIds(bytes.subarray(at, at + idBytes), count);
  at += idBytes;
  const labels = new Map<string, number>();
  const seen = new Set<number>();
  for (const id of ids) {
    const label = view.getUint32(at, true);
    at += 4;
    if (label >= nextLabel || seen.has(label)) throw corruptVectorIndex(`label ${label} of ${JSON.stringify(id)} is repeated or not below the next label ${nextLabel}`);
    seen.add(label);
    labels.set(id, label);
  }
  const deleted = new Set<number>();
  for (let i = 0; i < deletedCount; i++, at += 4) deleted.add(view.getUint32(at, true));
  const file = bytes.subarray(at, at + fileBytes);
  // hnswlib's file starts with size_t (4 bytes in wasm32) fields; label_offset_ − offsetData_ is
  // the vector's byte size 4·d. hnswlib itself does not check it against the space's dimension.
  if (file.length < HNSWLIB_FILE_HEAD) throw corruptVectorIndex(`the hnswlib file has ${file.length} bytes, shorter than its ${HNSWLIB_FILE_HEAD}-byte head`);
  const fileView = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const vectorBytes = fileView.getUint32(16, true) - fileView.getUint32(20, true);
  if (vectorBytes !== 4 * dim) throw corruptVectorIndex(`the hnswlib file holds vectors of ${vectorBytes} bytes, the header says dimension ${dim} (${4 * dim} bytes)`);

  const lib = await loadHnswlibModule();
  const index = new lib.HierarchicalNSW('ip', dim, '');
  try {
    await readIndexBytes(lib, index, file, capacity);
  } catch (cause) {
    index.delete();
    throw new JevMemError('STORAGE_FAILED', `vector index checkpoint is corrupt: hnswlib could not read its index file (${wasmMessage(cause)}); drop the checkpoint to rebuild the index`, {
      field: 'bytes',
      cause,
    });
  }
  const problem =
    index.getCurrentCount() !== count + deletedCount
        ? `the hnswlib file holds ${index.getCurrentCount()} slots, the maps ${count} live + ${deletedCount} deleted`
        : !sameSet(index.getDeletedLabels(), deleted)
          ? 'the deleted labels of the hnswlib file differ from the listed ones'
          : [...seen].some((label) => deleted.has(label))
            ? 'a live label is marked deleted'
            : undefined;
  if (problem !== undefined) {
    index.delete();
    throw corruptVectorIndex(problem);
  }
  return new HnswVectorIndex(lib, dim, index, efSearch, { labels, nextLabel, deleted: deletedCount });
}

function sameSet(list: number[], set: Set<number>): boolean {
  return list.length === set.size && list.every((x) => set.has(x));
}
