/**
 * The sentence-encoder interface used for node embeddings and query vectors (SPEC 3, 9).
 *
 * @module
 */

/** Turns texts into L2-normalised vectors. */
export interface Encoder {
  /**
   * Stable fingerprint of the encoder and its weights (e.g. `glove-sif-100d@<sha256 prefix>`).
   * Stored with every embedding; a different fingerprint means the vectors are not comparable.
   */
  readonly fingerprint: string;
  /** Vector length. */
  readonly dimension: number;
  /**
   * Embeds a batch of texts. Each output vector is L2-normalised (a text with no known word gets
   * the zero vector).
   * @throws JevMemError `ABORTED` when `signal` fires.
   */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  /**
   * Optional: unit-norm vectors of single vocabulary words (lower-cased), `undefined` for a word
   * outside the vocabulary. The read path uses them for soft term matching (`softOverlap`,
   * src/read/signals.ts); encoders without word vectors leave it out and that signal is 0.
   * @throws JevMemError `CLOSED` after close.
   */
  termVectors?(words: string[]): Array<Float32Array | undefined>;
  /**
   * Optional: ISO 639-1 codes of the languages whose texts the vectors mean something for
   * (`["en"]` for the shipped GloVe encoder). Absent: every language (a multilingual model). A
   * query in another language has no vector evidence: recall leaves its vector out (issue 15).
   */
  readonly languages?: readonly string[];
  /**
   * Optional: drops what the encoder caches about `texts` (their words' vectors, embeddings), or
   * everything when `texts` is undefined. The memory calls it after a delete or forget commits
   * (issue 22), so no cache of the process keeps an erased memory's words.
   */
  evict?(texts: readonly string[] | undefined): void;
  /** Releases resources. Idempotent. */
  close?(): Promise<void>;
}

/**
 * Reads a shipped asset (model file) as bytes. Node reads the package's `models/` directory;
 * browsers fetch from a URL the caller controls (never a CDN by default).
 */
export type AssetLoader = (relativePath: string) => Promise<Uint8Array>;
