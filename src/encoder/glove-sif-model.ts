/**
 * The GloVe-SIF model files (glove-sif.ts): the manifest `encoder.json` and its format, and the
 * load that checks every file against it (size, SHA-256) and decodes the vocabulary, int8 rows,
 * per-row scales and common component into the in-memory model the encoder runs.
 *
 * @module
 */
import { JevMemError, invalidOption } from '../errors.js';
import type { AssetLoader } from './encoder.js';
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

/** The model files besides `encoder.json`, in the order they are read. */
const MODEL_FILES = ['vocab.txt', 'vectors.i8', 'scales.f32', 'pc.f32'] as const;

/** The decoded model held by an encoder. */
export interface GloveSifModel {
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

/**
 * Loads and checks the model `name` through `load` (checksums only with `verify`).
 * @returns the manifest, the decoded model and the encoder's fingerprint
 *   (`<name>@<first 12 hex digits of SHA-256(vectors.i8)>`).
 * @throws JevMemError `MODEL_LOAD_FAILED` when a file is missing, malformed, inconsistent with
 *   the manifest or fails its checksum; `INVALID_OPTION` (`verify`) without WebCrypto.
 */
export async function loadGloveSifModel(load: AssetLoader, name: string, verify: boolean): Promise<{ manifest: GloveSifManifest; model: GloveSifModel; fingerprint: string }> {
  const read = (file: string): Promise<Uint8Array> => loadFile(load, `${name}/${file}`);
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
  return { manifest, model, fingerprint: `${manifest.name}@${vectorHash.slice(0, 12)}` };
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
