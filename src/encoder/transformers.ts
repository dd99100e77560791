/**
 * A pluggable {@link Encoder} backed by any transformers.js-compatible ONNX sentence encoder
 * (SPEC 9): a local folder by default, a model hub only when the caller allows it. The library
 * (`@huggingface/transformers`) is imported lazily inside the factory, so builds that never call
 * it do not pull it in.
 *
 * @module
 */

import { JevMemError, describeValue, invalidInput, invalidOption, throwIfAborted } from '../errors.js';
import type { Encoder } from './encoder.js';

type Transformers = typeof import('@huggingface/transformers');
type FeatureExtractor = Awaited<ReturnType<typeof import('@huggingface/transformers').pipeline<'feature-extraction'>>>;

/** Weight formats transformers.js can load (the model folder must hold the matching ONNX file). */
export type TransformersDtype = 'auto' | 'fp32' | 'fp16' | 'q8' | 'int8' | 'uint8' | 'q4' | 'bnb4' | 'q4f16';

/** Options of {@link createTransformersEncoder}. */
export interface TransformersEncoderOptions {
  /**
   * Model: a hub id (`Xenova/all-MiniLM-L6-v2`, looked up under `localModelPath` first) or a path
   * to a local folder holding `config.json`, `tokenizer.json` and `onnx/model*.onnx`.
   */
  model: string;
  /**
   * Folder (Node) or URL path (browser) under which hub ids are looked up.
   * @default transformers.js's own default (`/models/`)
   */
  localModelPath?: string;
  /**
   * Allow downloading from the model hub when the model is not found locally.
   * @default false
   */
  allowRemoteModels?: boolean;
  /** Weight format to load. @default transformers.js's choice for the device */
  dtype?: TransformersDtype;
  /**
   * Execution device. Node supports `cpu` (onnxruntime-node) and `webgpu`; browsers `wasm` and
   * `webgpu`. @default `cpu` in Node, `wasm` in browsers
   */
  device?: 'wasm' | 'webgpu' | 'cpu';
  /** Token pooling: mean over tokens or the first (`[CLS]`) token. @default 'mean' */
  pooling?: 'mean' | 'cls';
  /** Vectors are always L2-normalised (the {@link Encoder} contract). @default true */
  normalize?: true;
  /**
   * URL prefix (ending in `/`) of onnxruntime-web's `.wasm`/`.mjs` files, served by the caller.
   * Required in browsers unless the app already set `env.backends.onnx.wasm.wasmPaths`:
   * jev-mem never lets onnxruntime-web fall back to its CDN.
   */
  wasmPaths?: string;
  /** Texts per model call. @default 32 */
  batchSize?: number;
}

const CDN_HINT = 'cdn.jsdelivr.net';

/**
 * Loads a feature-extraction pipeline and wraps it as an {@link Encoder}.
 *
 * Side effect: sets transformers.js's global `env` (`allowLocalModels = true`,
 * `allowRemoteModels`, `localModelPath`, `backends.onnx.wasm.wasmPaths`) at each call; nothing
 * else in jev-mem touches it.
 *
 * `fingerprint` = `transformers:<model>` (add a revision to `model` to tell versions apart);
 * `dimension` is measured by embedding one probe text at load. Texts that are empty or white
 * space only get the zero vector.
 *
 * @throws JevMemError `DEPENDENCY_MISSING` when `@huggingface/transformers` is not installed;
 *   `MODEL_LOAD_FAILED` when the library, the model or its files cannot be
 *   loaded (names the model and where it looked); `INVALID_OPTION` for a bad option, for a device
 *   the runtime lacks, or for a browser run without local `wasmPaths`.
 */
export async function createTransformersEncoder(options: TransformersEncoderOptions): Promise<Encoder> {
  const resolved = resolveOptions(options);
  let lib: Transformers;
  try {
    lib = await import('@huggingface/transformers');
  } catch (cause) {
    if (/Cannot find (package|module)|Failed to resolve module specifier/i.test(message(cause))) {
      throw new JevMemError('DEPENDENCY_MISSING', 'the transformers.js encoder needs the optional package @huggingface/transformers, which is not installed here: run `npm i @huggingface/transformers`', { cause, package: '@huggingface/transformers' });
    }
    throw new JevMemError('MODEL_LOAD_FAILED', `could not import @huggingface/transformers: ${message(cause)}`, { cause });
  }
  configureEnv(lib, resolved);

  const where = resolved.localModelPath ?? lib.env.localModelPath;
  let extractor: FeatureExtractor;
  try {
    extractor = await lib.pipeline('feature-extraction', resolved.model, {
      local_files_only: !resolved.allowRemoteModels,
      ...(resolved.dtype === undefined ? {} : { dtype: resolved.dtype }),
      ...(resolved.device === undefined ? {} : { device: resolved.device }),
    });
  } catch (cause) {
    if (/unsupported device/i.test(message(cause))) {
      throw invalidOption('device', `${message(cause)} (Node runs 'cpu' or 'webgpu'; browsers 'wasm' or 'webgpu')`);
    }
    throw new JevMemError(
      'MODEL_LOAD_FAILED',
      `could not load transformers model ${JSON.stringify(resolved.model)} (hub ids are looked up under ${where}; ` +
        `remote ${resolved.allowRemoteModels ? 'allowed' : 'not allowed: set allowRemoteModels to download'}): ${message(cause)}`,
      { cause, model: resolved.model, localModelPath: where },
    );
  }

  const encoder = new TransformersEncoder(`transformers:${resolved.model}`, extractor, resolved.pooling, resolved.batchSize);
  try {
    await encoder.measureDimension();
  } catch (cause) {
    await encoder.close();
    throw new JevMemError('MODEL_LOAD_FAILED', `transformers model ${JSON.stringify(resolved.model)} failed its probe run: ${message(cause)}`, {
      cause,
    });
  }
  return encoder;
}

interface ResolvedOptions {
  model: string;
  localModelPath: string | undefined;
  allowRemoteModels: boolean;
  dtype: TransformersDtype | undefined;
  device: 'wasm' | 'webgpu' | 'cpu' | undefined;
  pooling: 'mean' | 'cls';
  wasmPaths: string | undefined;
  batchSize: number;
}

/** Validates options and merges defaults (the one place defaults live). */
function resolveOptions(options: TransformersEncoderOptions): ResolvedOptions {
  if (typeof options?.model !== 'string' || options.model.trim() === '') {
    throw invalidOption('model', 'expected a hub id or a local folder path');
  }
  const pooling = options.pooling ?? 'mean';
  if (pooling !== 'mean' && pooling !== 'cls') throw invalidOption('pooling', `${JSON.stringify(pooling)}; expected 'mean' or 'cls'`);
  if (options.normalize !== undefined && options.normalize !== true) {
    throw invalidOption('normalize', 'vectors are always L2-normalised; omit the option or pass true');
  }
  const device = options.device;
  if (device !== undefined && device !== 'wasm' && device !== 'webgpu' && device !== 'cpu') {
    throw invalidOption('device', `${JSON.stringify(device)}; expected 'wasm', 'webgpu' or 'cpu'`);
  }
  const batchSize = options.batchSize ?? 32;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw invalidOption('batchSize', `expected a positive integer, got ${describeValue(batchSize)}`);
  const allowRemoteModels = options.allowRemoteModels ?? false;
  if (typeof allowRemoteModels !== 'boolean') throw invalidOption('allowRemoteModels', 'expected a boolean');
  return {
    model: options.model,
    localModelPath: options.localModelPath,
    allowRemoteModels,
    dtype: options.dtype,
    device,
    pooling,
    wasmPaths: options.wasmPaths,
    batchSize,
  };
}

/** Sets transformers.js's global env for this load; refuses a CDN for onnxruntime-web's files. */
function configureEnv(lib: Transformers, options: ResolvedOptions): void {
  const { env } = lib;
  env.allowLocalModels = true;
  env.allowRemoteModels = options.allowRemoteModels;
  if (options.localModelPath !== undefined) env.localModelPath = options.localModelPath;
  const wasm = env.backends.onnx?.wasm;
  if (wasm === undefined) return;
  if (options.wasmPaths !== undefined) {
    wasm.wasmPaths = options.wasmPaths;
    return;
  }
  if (JSON.stringify(wasm.wasmPaths ?? '').includes(CDN_HINT)) {
    throw invalidOption(
      'wasmPaths',
      "onnxruntime-web's wasm files would come from a CDN; serve node_modules/onnxruntime-web/dist/ yourself and pass its URL",
    );
  }
}

class TransformersEncoder implements Encoder {
  readonly fingerprint: string;
  dimension = 0;
  #extractor: FeatureExtractor | null;
  readonly #pooling: 'mean' | 'cls';
  readonly #batchSize: number;

  constructor(fingerprint: string, extractor: FeatureExtractor, pooling: 'mean' | 'cls', batchSize: number) {
    this.fingerprint = fingerprint;
    this.#extractor = extractor;
    this.#pooling = pooling;
    this.#batchSize = batchSize;
  }

  /** Embeds a probe text once to learn the output length. */
  async measureDimension(): Promise<void> {
    const [vector] = await this.#run(['dimension probe']);
    this.dimension = vector?.length ?? 0;
    if (this.dimension === 0) throw new Error('the model returned an empty vector');
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    throwIfAborted(signal);
    if (this.#extractor === null) throw new JevMemError('CLOSED', 'the transformers encoder was used after close()');
    if (!Array.isArray(texts)) throw invalidInput('texts', `expected an array of strings, got ${typeof texts}`);
    texts.forEach((text, i) => {
      if (typeof text !== 'string') throw invalidInput(`texts[${i}]`, `expected a string, got ${typeof text}`);
    });
    const out: Float32Array[] = texts.map(() => new Float32Array(this.dimension));
    const todo = texts.map((text, i) => ({ text, i })).filter(({ text }) => text.trim() !== '');
    for (let start = 0; start < todo.length; start += this.#batchSize) {
      throwIfAborted(signal);
      const batch = todo.slice(start, start + this.#batchSize);
      const vectors = await this.#run(batch.map(({ text }) => text));
      batch.forEach(({ i }, k) => (out[i] = vectors[k]!));
    }
    return out;
  }

  async #run(texts: string[]): Promise<Float32Array[]> {
    const extractor = this.#extractor;
    if (extractor === null) throw new JevMemError('CLOSED', 'the transformers encoder was used after close()');
    const tensor = await extractor(texts, { pooling: this.#pooling, normalize: true });
    const [rows, width] = tensor.dims as number[];
    const data = tensor.data as Float32Array;
    if (rows !== texts.length || width === undefined || data.length !== rows * width) {
      throw new JevMemError('MODEL_LOAD_FAILED', `unexpected encoder output shape [${tensor.dims.join(', ')}] for ${texts.length} texts`);
    }
    const out: Float32Array[] = [];
    for (let r = 0; r < rows; r += 1) out.push(Float32Array.from(data.subarray(r * width, (r + 1) * width)));
    return out;
  }

  async close(): Promise<void> {
    const extractor = this.#extractor;
    this.#extractor = null;
    if (extractor !== null) await extractor.dispose();
  }
}

function message(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
