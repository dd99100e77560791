/**
 * The offline default sentence encoder: GloVe 6B 100-d word vectors combined by Smooth Inverse
 * Frequency (SPEC 9; Arora, Liang & Ma, ICLR 2017, Algorithm 1). Pure TypeScript, no Node APIs:
 * it reads its model through an {@link AssetLoader}, so it runs in browsers, workers and Node.
 *
 * Model files (built by `scripts/build-encoder.ts` into `models/glove-sif-100d/`):
 * `encoder.json` (the {@link GloveSifManifest}), `vocab.txt` (one word a line, frequency order),
 * `vectors.i8` (int8, words × dimension, row-major), `scales.f32` (float32 LE, one per row) and
 * `pc.f32` (float32 LE, the common component u, length = dimension); glove-sif-model.ts loads and
 * checks them.
 *
 * Memory: the int8 matrix is kept as loaded (words × dimension bytes, 7.0 MB for 70,000 × 100)
 * plus one float32 coefficient per word; rows are never dequantised into floats because each
 * row's scale is folded into its SIF weight.
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import { JevMemError, invalidInput, invalidOption, throwIfAborted } from '../errors.js';
import { hash53 } from '../util/hash.js';
import { tokenize } from '../plane/text/text.js';
import type { AssetLoader, Encoder } from './encoder.js';
import { loadGloveSifModel, type GloveSifModel } from './glove-sif-model.js';

export { GLOVE_SIF_FORMAT_VERSION, type GloveSifFileEntry, type GloveSifManifest } from './glove-sif-model.js';

/** Options of {@link createGloveSifEncoder}. */
export interface GloveSifEncoderOptions {
  /** Reads model files; paths are `<name>/<file>` (e.g. `glove-sif-100d/encoder.json`). */
  load: AssetLoader;
  /**
   * Model folder and expected manifest name.
   * @default 'glove-sif-100d'
   */
  name?: 'glove-sif-100d';
  /**
   * Check every file's SHA-256 against `encoder.json` with WebCrypto (`crypto.subtle.digest`);
   * costs a few ms per MB. With `false` the fingerprint uses the hash recorded in the manifest.
   * @default true
   */
  verify?: boolean;
}

/**
 * Loads the GloVe-SIF model and returns an {@link Encoder}.
 *
 * Embedding of a text s (Arora et al. 2017, Algorithm 1):
 * - words: the memory plane's `tokenize()` (`src/plane/text/text.ts`: NFC, lower case, runs of
 *   letters/digits; no stemming, stop words kept); words outside the vocabulary are skipped;
 * - v_s = Σ_w a/(a + p(w)) · v_w (the paper's 1/|s| is dropped: it cancels under normalisation);
 * - v_s ← v_s − (u·v_s) u, u = the shipped common component;
 * - v_s ← v_s / ‖v_s‖₂; a text with no known word gets the zero vector.
 *
 * `fingerprint` = `<name>@<first 12 hex digits of SHA-256(vectors.i8)>`, `dimension` = 100.
 * The fingerprint covers the weights only: a change to `tokenize()` that alters embeddings must
 * come with a rebuilt model and a new model version.
 *
 * @throws JevMemError `MODEL_LOAD_FAILED` when a file is missing, malformed, inconsistent with
 *   the manifest or fails its checksum; `INVALID_OPTION` for a bad option.
 */
export async function createGloveSifEncoder(options: GloveSifEncoderOptions): Promise<Encoder> {
  if (typeof options?.load !== 'function') {
    throw invalidOption('load', 'expected an AssetLoader function (relativePath) => Promise<Uint8Array>');
  }
  const name = options.name ?? 'glove-sif-100d';
  if (name !== 'glove-sif-100d') {
    throw invalidOption('name', `unknown model ${JSON.stringify(name)}; expected 'glove-sif-100d'`);
  }
  const verify = options.verify ?? true;
  if (typeof verify !== 'boolean') throw invalidOption('verify', `expected a boolean, got ${typeof verify}`);
  const { model, fingerprint } = await loadGloveSifModel(options.load, name, verify);
  return new GloveSifEncoder(fingerprint, model);
}

class GloveSifEncoder implements Encoder {
  readonly fingerprint: string;
  readonly dimension: number;
  /** GloVe's vocabulary is English: a query in another language has no vector evidence (issue 15). */
  readonly languages: readonly string[] = ['en'];
  #model: GloveSifModel | null;
  readonly #accumulator: Float64Array;
  /**
   * Word vectors by word, the word kept as two independent {@link hash53} (the key, and a check
   * with the length in the entry: 106 bits, as `textKey` keeps) so the cache holds no text;
   * `vector` false when out of vocabulary. An LRU of {@link TERM_CACHE_WORDS} words. A hit costs
   * two short hashes and a numeric lookup: no `textKey` string per word (issue 22: building it
   * cost more than the lookup it saved), no normalisation nor vocabulary lookup.
   */
  readonly #termCache = new LRUCache<number, { check: number; length: number; vector: Float32Array | false }>({ max: TERM_CACHE_WORDS });

  constructor(fingerprint: string, model: GloveSifModel) {
    this.fingerprint = fingerprint;
    this.dimension = model.dimension;
    this.#model = model;
    this.#accumulator = new Float64Array(model.dimension);
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    throwIfAborted(signal);
    const model = this.#model;
    if (model === null) throw new JevMemError('CLOSED', 'the GloVe-SIF encoder was used after close()');
    if (!Array.isArray(texts)) throw invalidInput('texts', `expected an array of strings, got ${typeof texts}`);
    const out: Float32Array[] = new Array(texts.length);
    for (let t = 0; t < texts.length; t += 1) {
      const text = texts[t];
      if (typeof text !== 'string') throw invalidInput(`texts[${t}]`, `expected a string, got ${typeof text}`);
      out[t] = this.#embedOne(model, text);
    }
    return out;
  }

  #embedOne(model: GloveSifModel, text: string): Float32Array {
    const { dimension, index, rows, coefficients, component } = model;
    const acc = this.#accumulator;
    acc.fill(0);
    let known = 0;
    for (const word of tokenize(text)) {
      const row = index.get(word);
      if (row === undefined) continue;
      const c = coefficients[row]!; // a/(a + p(w)) · scale_w
      const offset = row * dimension;
      for (let i = 0; i < dimension; i += 1) acc[i]! += c * rows[offset + i]!; // v_s += a/(a+p(w)) v_w
      known += 1;
    }
    const result = new Float32Array(dimension);
    if (known === 0) return result;
    if (component !== null) {
      let dot = 0;
      for (let i = 0; i < dimension; i += 1) dot += acc[i]! * component[i]!;
      for (let i = 0; i < dimension; i += 1) acc[i]! -= dot * component[i]!; // v_s ← v_s − u uᵀ v_s
    }
    let norm = 0;
    for (let i = 0; i < dimension; i += 1) norm += acc[i]! * acc[i]!;
    norm = Math.sqrt(norm);
    if (!(norm > 1e-12)) return result;
    for (let i = 0; i < dimension; i += 1) result[i] = acc[i]! / norm;
    return result;
  }

  /**
   * Unit-norm GloVe vectors of single words (rows of `vectors.i8`; the row scale cancels under
   * normalisation, so v̂_w = q_w / ‖q_w‖₂). Each word is looked up as given after NFC and lower
   * casing; out-of-vocabulary words (and all-zero rows) give `undefined`. The vectors are cached
   * (least recently used first out, up to 8,192 words, ≈3.5 MB) and shared between calls: callers must not modify them.
   * @throws JevMemError `CLOSED` after {@link close}.
   */
  termVectors(words: string[]): Array<Float32Array | undefined> {
    const model = this.#model;
    if (model === null) throw new JevMemError('CLOSED', 'the GloVe-SIF encoder was used after close()');
    return words.map((word) => {
      const key = hash53(word);
      const check = hash53(word, CHECK_SEED);
      const cached = this.#termCache.get(key);
      if (cached !== undefined && cached.check === check && cached.length === word.length) return cached.vector === false ? undefined : cached.vector;
      const row = model.index.get(word.normalize('NFC').toLowerCase());
      const v = row === undefined ? undefined : unitRow(model, row);
      this.#termCache.set(key, { check, length: word.length, vector: v ?? false });
      return v;
    });
  }

  /** Drops the cached word vectors of `texts` (every word as the read path asks, lower case), or all when undefined. */
  evict(texts: readonly string[] | undefined): void {
    if (texts === undefined) {
      this.#termCache.clear();
      return;
    }
    for (const t of texts) {
      for (const w of tokenize(t)) {
        this.#termCache.delete(hash53(w));
        this.#termCache.delete(hash53(w.normalize('NFC').toLowerCase()));
      }
    }
  }

  async close(): Promise<void> {
    this.#model = null;
    this.#termCache.clear();
  }
}

/** Words whose unit vectors an encoder keeps (8,192 × 100 float32 ≈ 3.3 MB plus keys). */
const TERM_CACHE_WORDS = 8192;

/** The seed of the check hash of a cached word (the one `textKey` uses for its second lane). */
const CHECK_SEED = 0x9e3779b9;

/** The unit-norm vector of vocabulary row `row`, undefined when the row is all zeros. */
function unitRow(model: GloveSifModel, row: number): Float32Array | undefined {
  const { dimension, rows } = model;
  const offset = row * dimension;
  let norm = 0;
  for (let i = 0; i < dimension; i += 1) norm += rows[offset + i]! * rows[offset + i]!;
  if (norm === 0) return undefined;
  norm = Math.sqrt(norm);
  const v = new Float32Array(dimension);
  for (let i = 0; i < dimension; i += 1) v[i] = rows[offset + i]! / norm; // v̂_w = q_w / ‖q_w‖₂
  return v;
}
