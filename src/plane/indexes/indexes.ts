/**
 * Interfaces of the derived indexes of the memory plane (eq. (5): I^vec, I^lex). Both are caches:
 * they can always be rebuilt from the nodes in the store.
 *
 * @module
 */

/** One hit of an index: node id and the index's own score (higher is better). */
export interface IndexHit {
  id: string;
  score: number;
}

/** A document of the lexical index. */
export interface LexicalDoc {
  id: string;
  text: string;
  /** Speaker name, indexed with the text. */
  speaker?: string;
}

/**
 * Lexical (BM25) index I^lex. Implemented with MiniSearch over the language-aware terms of
 * `text.ts` (`lexical.ts`).
 */
export interface LexicalIndex {
  add(doc: LexicalDoc): void;
  remove(id: string): void;
  has(id: string): boolean;
  /**
   * Best `k` hits for `query`, best first. Empty query or no match → `[]`. `language` is the
   * language of a query too short to identify (the namespace's `language` option, else its
   * dominant one; default the index's {@link LexicalIndex.language}, else English).
   */
  search(query: string, k: number, language?: string): IndexHit[];
  /**
   * The language indexed texts too short to identify are read in (issue 24: the namespace's
   * `language` option); `undefined` when each text's own (English when too short to tell).
   */
  readonly language?: string | undefined;
  readonly size: number;
  /** Versioned JSON snapshot (see MiniSearch `toJSON`). */
  toJSON(): unknown;
  /**
   * Optional: drops what removed documents left in the index (MiniSearch `vacuum`), so a
   * snapshot taken afterwards holds no term of them (erasure, issue 13).
   */
  vacuum?(): Promise<void>;
  /**
   * Optional: waits until the synchronous calls that follow in the same turn of the event loop
   * can read the index without waiting (a store-kept index of the Node SQLite store takes the
   * database lock, asynchronously, while another process writes). Callers await it right before
   * `search`; an index in memory has none.
   */
  ready?(): Promise<void>;
}

/**
 * Vector index I^vec over L2-normalised vectors; score = cosine similarity in [-1,1].
 * Implementations: exact flat scan (`vector-flat.ts`, pure TypeScript, runs everywhere), HNSW in
 * pure TypeScript (`vector-ann.ts`, runs everywhere) and HNSW through hnswlib-wasm
 * (`vector-hnsw.ts`, browsers and Node, not Workers).
 */
export interface VectorIndex {
  /** `'flat'`, `'ann'` (pure-TypeScript HNSW) or `'hnsw'` (hnswlib-wasm). */
  readonly kind: string;
  readonly dimension: number;
  /** Adds or replaces the vector of `id`. @throws JevMemError `INVALID_INPUT` on a wrong dimension. */
  add(id: string, vector: Float32Array): void;
  remove(id: string): void;
  has(id: string): boolean;
  /** Up to `k` nearest ids by cosine, best first. */
  search(vector: Float32Array, k: number): IndexHit[];
  readonly size: number;
  /**
   * The stored vector of `id`: its unit-length copy as the index keeps it (for the flat index,
   * dequantised from the int8 grid when it was on it; for HNSW, hnswlib's `getPoint`), or
   * `undefined` for an unknown id. A fresh array the caller may keep.
   */
  vectorOf(id: string): Float32Array | undefined;
  /**
   * The whole index as bytes, for a checkpoint (issue 13): a 12-byte header (magic `JVIX`, kind,
   * format version, dimension; `vector-format.ts`) then the kind's body. Restore with
   * `restoreVectorIndex` (`vector-factory.ts`). Synchronous for the flat and ann indexes; a promise for hnswlib's HNSW
   * (hnswlib-wasm writes its file through its emscripten file system). Indexes that cannot be
   * serialised leave it out.
   * @throws JevMemError `STORAGE_FAILED` when the bytes cannot be produced; `CLOSED` after `dispose()`.
   */
  serialize?(): Uint8Array | Promise<Uint8Array>;
  /**
   * Optional (the flat and ann indexes, issue 22): the number of `id`'s row in the int8 row
   * block of the bytes `serialize()` would write now (`vector-rows.ts` `gridRowsOf`), or −1
   * when `id` is unknown or its vector is kept off the int8 grid. Valid until the next change.
   */
  gridRowOf?(id: string): number;
  /** With {@link VectorIndex.gridRowOf}: the id whose int8 row is number `row`, or undefined (a free or unknown row). */
  gridRowId?(row: number): string | undefined;
  /**
   * Optional (the flat index): adds or replaces the vector of `id` given on an int8 grid, the
   * `dimension` entries `q[at ..]` times `scale` (a node directory's row, `node-directory.ts`),
   * exactly as `add(id, Float32Array.from(those entries, (x) => x * scale))` would, without
   * building that array (an exact open builds I^vec from the directory's 20,000+ rows; issue 22).
   */
  addGridRow?(id: string, q: Int8Array, at: number, scale: number): void;
  /** Frees native / wasm memory. */
  dispose(): void;
}
