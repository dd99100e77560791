/**
 * The offline default sentence encoder: GloVe 6B 100-d word vectors combined by Smooth Inverse
 * Frequency (SPEC 9; Arora, Liang & Ma, ICLR 2017, Algorithm 1). Pure TypeScript, no Node APIs:
 * it reads its model through an {@link AssetLoader}, so it runs in browsers, workers and Node.
 *
 * Model files (built by `scripts/build-encoder.ts` into `models/glove-sif-100d/`):
 * `encoder.json` (the {@link GloveSifManifest}), `vocab.txt` (one word a line, frequency order),
 * `vectors.i8` (int8, words × dimension, row-major), `scales.f32` (float32 LE, one per row) and
 * `pc.f32` (float32 LE, the common component u, length = dimension).
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
import { zipfSifWeights } from './sif.js';

/** The manifest format this build reads (`encoder.json` → `formatVersion`). */
export const GLOVE_SIF_FORMAT_VERSION = 1;

/** Description and integrity data of one model file. */
export interface GloveSifFileEntry {
  /** File size in bytes. */
  bytes: number;
  /** Lower-case hex SHA-256 of the file. */
  sha256: string;
}

/**
 * `encoder.json`: what the build script wrote and the encoder checks on load.
 * File names in {@link GloveSifManifest.files} are relative to the model folder.
 */
export interface GloveSifManifest {
  /** Model name, also the folder name and the fingerprint prefix (`glove-sif-100d`). */
  name: string;
  /** Manifest layout version; the encoder refuses any other than {@link GLOVE_SIF_FORMAT_VERSION}. */
  formatVersion: number;
  /** Model version (semver); bump when the build changes the output. */
  version: string;
  /** Vector length (100). */
  dimension: number;
  /** Vocabulary size N (lines of `vocab.txt`, rows of `vectors.i8`). */
  words: number;
  /** SIF smoothing constant a (Arora et al. 2017, Alg. 1), default 1e-3. */
  sifA: number;
  /** Word-probability model. Only `zipf-rank`: p(r) = 1/(r·H_N), r = 1-based line of `vocab.txt`. */
  frequencyModel: { kind: 'zipf-rank'; formula: string; n: number; harmonic: number };
  /** How rows are stored: v[r][i] ≈ scales[r] · q[r][i], scales[r] = max_i |v[r][i]| / 127. */
  quantization: { kind: 'int8-row-scale'; formula: string; byteOrder: 'little-endian' };
  /** The common component removed from every sentence vector, or `null` for none. */
  commonComponent: { file: string; method: string; explainedVarianceRatio: number } | null;
  /** The tokenizer the vocabulary was filtered for (it holds only words that tokenizer can produce). */
  tokenizer: { description: string };
  /** The model files with sizes and hashes: `vocab.txt`, `vectors.i8`, `scales.f32`, `pc.f32`. */
  files: Record<string, GloveSifFileEntry>;
  /** Where the vectors come from. */
  source: {
    package: string;
    version: string;
    license: string;
    file: string;
    sha256: string;
    upstream: string;
    upstreamLicense: string;
  };
  /** How the model was built. */
  build: { script: string; command: string; keptWords: string; droppedTokens: number };
}

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

const MODEL_FILES = ['vocab.txt', 'vectors.i8', 'scales.f32', 'pc.f32'] as const;

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

  const read = (file: string): Promise<Uint8Array> => loadFile(options.load, `${name}/${file}`);
  const manifest = parseManifest(await read('encoder.json'), name);
  const [vocabBytes, vectorBytes, scaleBytes, pcBytes] = await Promise.all(
    MODEL_FILES.map((file) => (file === 'pc.f32' && manifest.commonComponent === null ? null : read(file))),
  );

  const hashes = new Map<string, string>();
  for (const [file, bytes] of [
    ['vocab.txt', vocabBytes],
    ['vectors.i8', vectorBytes],
    ['scales.f32', scaleBytes],
    ['pc.f32', pcBytes],
  ] as const) {
    if (bytes === null || bytes === undefined) continue;
    const entry = manifest.files[file];
    if (entry === undefined) throw modelError(`${name}/encoder.json lists no entry for ${file}`);
    if (bytes.byteLength !== entry.bytes) {
      throw modelError(`${name}/${file} has ${bytes.byteLength} bytes; encoder.json says ${entry.bytes}`);
    }
    if (verify) {
      const actual = await sha256Hex(bytes);
      if (actual !== entry.sha256) {
        throw modelError(
          `${name}/${file} fails its checksum: sha256 ${actual}, encoder.json expects ${entry.sha256} ` +
            '(the file is corrupt or from another build; rebuild with `npm run build:encoder`)',
        );
      }
      hashes.set(file, actual);
    }
  }

  const model = decodeModel(manifest, vocabBytes!, vectorBytes!, scaleBytes!, pcBytes ?? null);
  const vectorHash = hashes.get('vectors.i8') ?? manifest.files['vectors.i8']!.sha256;
  return new GloveSifEncoder(`${manifest.name}@${vectorHash.slice(0, 12)}`, model);
}

/** The decoded model held by an encoder. */
interface GloveSifModel {
  dimension: number;
  /** word → 0-based row. */
  index: Map<string, number>;
  /** int8 rows, words × dimension. */
  rows: Int8Array;
  /** Per-row coefficient: SIF weight a/(a + p(r)) times the row's dequantisation scale. */
  coefficients: Float32Array;
  /** Unit common component u (float64), or null. */
  component: Float64Array | null;
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

/** Calls the loader, turning any failure into `MODEL_LOAD_FAILED` that names the file. */
async function loadFile(load: AssetLoader, path: string): Promise<Uint8Array> {
  let bytes: unknown;
  try {
    bytes = await load(path);
  } catch (cause) {
    if (cause instanceof JevMemError && cause.code === 'MODEL_LOAD_FAILED') throw cause;
    throw modelError(`could not load model file ${path}: ${describe(cause)}`, cause);
  }
  if (!(bytes instanceof Uint8Array)) {
    throw modelError(`the asset loader returned ${describe(bytes)} for ${path}; expected a Uint8Array`);
  }
  return bytes;
}

/** Parses and checks `encoder.json`. */
function parseManifest(bytes: Uint8Array, name: string): GloveSifManifest {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (cause) {
    throw modelError(`${name}/encoder.json is not valid UTF-8 JSON: ${describe(cause)}`, cause);
  }
  const m = value as Partial<GloveSifManifest> | null;
  if (m === null || typeof m !== 'object') throw modelError(`${name}/encoder.json is not a JSON object`);
  if (m.formatVersion !== GLOVE_SIF_FORMAT_VERSION) {
    throw modelError(
      `${name}/encoder.json has formatVersion ${JSON.stringify(m.formatVersion)}; this build reads ${GLOVE_SIF_FORMAT_VERSION}`,
    );
  }
  if (m.name !== name) throw modelError(`${name}/encoder.json names model ${JSON.stringify(m.name)}; expected ${name}`);
  const positiveInt = (v: unknown): v is number => Number.isInteger(v) && (v as number) > 0;
  if (!positiveInt(m.dimension)) throw modelError(`${name}/encoder.json: dimension must be a positive integer`);
  if (!positiveInt(m.words)) throw modelError(`${name}/encoder.json: words must be a positive integer`);
  if (typeof m.sifA !== 'number' || !(m.sifA > 0)) throw modelError(`${name}/encoder.json: sifA must be > 0`);
  if (m.frequencyModel?.kind !== 'zipf-rank' || m.frequencyModel.n !== m.words) {
    throw modelError(`${name}/encoder.json: frequencyModel must be zipf-rank over n = words`);
  }
  if (m.quantization?.kind !== 'int8-row-scale') {
    throw modelError(`${name}/encoder.json: quantization must be int8-row-scale`);
  }
  if (m.files === null || typeof m.files !== 'object' || typeof m.files['vectors.i8']?.sha256 !== 'string') {
    throw modelError(`${name}/encoder.json: files must list vectors.i8 with its sha256`);
  }
  if (m.commonComponent === undefined) throw modelError(`${name}/encoder.json: commonComponent is missing`);
  return m as GloveSifManifest;
}

/** Checks file sizes against the manifest and builds the in-memory model. */
function decodeModel(
  manifest: GloveSifManifest,
  vocabBytes: Uint8Array,
  vectorBytes: Uint8Array,
  scaleBytes: Uint8Array,
  pcBytes: Uint8Array | null,
): GloveSifModel {
  const { name, words, dimension } = manifest;
  if (vectorBytes.byteLength !== words * dimension) {
    throw modelError(`${name}/vectors.i8 has ${vectorBytes.byteLength} bytes; expected words × dimension = ${words * dimension}`);
  }
  if (scaleBytes.byteLength !== words * 4) {
    throw modelError(`${name}/scales.f32 has ${scaleBytes.byteLength} bytes; expected 4 × words = ${words * 4}`);
  }
  let vocabText: string;
  try {
    vocabText = new TextDecoder('utf-8', { fatal: true }).decode(vocabBytes);
  } catch (cause) {
    throw modelError(`${name}/vocab.txt is not valid UTF-8`, cause);
  }
  const lines = vocabText.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  if (lines.length !== words) throw modelError(`${name}/vocab.txt has ${lines.length} words; encoder.json says ${words}`);
  const index = new Map<string, number>();
  for (let r = 0; r < lines.length; r += 1) index.set(lines[r]!, r);
  if (index.size !== words) throw modelError(`${name}/vocab.txt has duplicate words`);

  const weights = zipfSifWeights(words, manifest.sifA);
  const scales = new DataView(scaleBytes.buffer, scaleBytes.byteOffset, scaleBytes.byteLength);
  const coefficients = new Float32Array(words);
  for (let r = 0; r < words; r += 1) coefficients[r] = weights[r]! * scales.getFloat32(r * 4, true);

  let component: Float64Array | null = null;
  if (manifest.commonComponent !== null && pcBytes !== null) {
    if (pcBytes.byteLength !== dimension * 4) {
      throw modelError(`${name}/pc.f32 has ${pcBytes.byteLength} bytes; expected 4 × dimension = ${dimension * 4}`);
    }
    const view = new DataView(pcBytes.buffer, pcBytes.byteOffset, pcBytes.byteLength);
    component = new Float64Array(dimension);
    let norm = 0;
    for (let i = 0; i < dimension; i += 1) {
      component[i] = view.getFloat32(i * 4, true);
      norm += component[i]! * component[i]!;
    }
    norm = Math.sqrt(norm);
    if (!(norm > 0.5)) throw modelError(`${name}/pc.f32 is not a unit vector (norm ${norm})`);
    for (let i = 0; i < dimension; i += 1) component[i]! /= norm;
  }
  const rows = new Int8Array(vectorBytes.buffer, vectorBytes.byteOffset, vectorBytes.byteLength);
  return { dimension, index, rows, coefficients, component };
}

/** Lower-case hex SHA-256 through WebCrypto. */
async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) {
    throw invalidOption('verify', 'WebCrypto (crypto.subtle) is not available here; pass verify: false to skip checksums');
  }
  const data = bytes.buffer instanceof ArrayBuffer ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(bytes);
  const digest = new Uint8Array(await subtle.digest('SHA-256', data));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

function modelError(message: string, cause?: unknown): JevMemError {
  return new JevMemError('MODEL_LOAD_FAILED', message, cause === undefined ? {} : { cause });
}

function describe(value: unknown): string {
  if (value instanceof Error) return value.message;
  if (value === null) return 'null';
  return typeof value === 'object' ? Object.prototype.toString.call(value) : `${typeof value} ${String(value)}`;
}
