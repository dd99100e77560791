/**
 * The local System-One backend (SPEC 5, 9): the shipped quantized model in
 * `models/system-one/` answering catalogue questions with its heads. Two engines run the same
 * ONNX files:
 *
 * - `'ts'` (default): the pure-TypeScript kernels (kernels.ts): no WebAssembly, no extra
 *   package, and faster per call than onnxruntime-web's wasm on these few-KB heads.
 * - `'onnx'`: onnxruntime-web, an optional peer dependency (`npm i onnxruntime-web`). Node: the
 *   wasm execution provider with its files read from the installed `onnxruntime-web/dist/`
 *   (never a CDN), one thread unless told otherwise. Browsers: WebGPU when
 *   `navigator.gpu.requestAdapter()` gives an adapter, else wasm; a bundled app passes
 *   `onnxRuntime` (the `jev-mem/browser/onnx` worker does).
 *
 * All questions of one group in a `decide` / `decideMany` call go through ONE model run
 * (heads.ts `decideBatch`). Loading reads `manifest.json`, checks its format, feature version and
 * head layout against this build, and (by default) each file's SHA-256.
 *
 * Edge builds (Cloudflare Workers) use engine `'ts'`, which never imports onnxruntime-web; mark
 * `onnxruntime-web` as external in the bundler so its lazy import is not inlined.
 *
 * @module
 */
import type { AssetLoader } from '../encoder/encoder.js';
import { JevMemError, isJevMemError } from '../errors.js';
import { FEATURE_NAMES, FEATURE_VERSION, HEAD_GROUPS, type HeadGroup } from './features.js';
import { GROUP_OUTPUTS, HEADS, createHeadBackend, type GroupOutputs, type GroupRunner } from './heads.js';
import type { SystemOneManifest } from './onnx-model.js';
import type { SystemOneBackend } from './wire.js';
import { importOptional } from '../util/optional.js';
import { fetchModelFile } from '../encoder/assets.js';

/** Imports a Node built-in without letting browser or edge bundlers try to resolve it. */
function importNode<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ specifier) as Promise<T>;
}

/**
 * What {@link LocalSystemOneOptions.onnxRuntime} resolves to: the onnxruntime-web module (its
 * namespace object, as `import('onnxruntime-web')` gives it). Structural, with only the members
 * the engine uses, so that the published declarations do not import the optional peer
 * onnxruntime-web (issue 23: an app without it type-checks with `skipLibCheck: false`).
 */
export interface OnnxRuntimeModule {
  /** onnxruntime's settings (`env.wasm.wasmPaths`, `env.wasm.numThreads`). */
  readonly env: { readonly wasm: object };
  /** The session class (`InferenceSession.create(modelBytes, options)`). */
  readonly InferenceSession: { create(model: Uint8Array, options?: object): Promise<unknown> };
  /** The tensor class (`new Tensor('float32', data, dims)`). */
  readonly Tensor: abstract new (...args: never[]) => unknown;
}

/** Options of {@link createLocalSystemOne}. */
export interface LocalSystemOneOptions {
  /** Reads model files; paths are `<modelDir>/<file>` (e.g. `system-one/manifest.json`). */
  load: AssetLoader;
  /**
   * `'ts'`: the TypeScript kernels; `'onnx'`: onnxruntime-web (same numbers within 1e-3).
   * @default 'ts'
   */
  engine?: 'onnx' | 'ts';
  /**
   * Loads onnxruntime-web for engine `'onnx'` (e.g. `() => import('onnxruntime-web')`, so that a
   * bundler ships it).
   * @default a run-time import of the installed `onnxruntime-web` (Node); `DEPENDENCY_MISSING` when absent
   */
  onnxRuntime?: () => Promise<OnnxRuntimeModule>;
  /**
   * onnxruntime execution providers, in order of preference.
   * @default browsers: `['webgpu', 'wasm']` when a WebGPU adapter exists, else `['wasm']`; Node: `['wasm']`
   */
  executionProviders?: Array<'webgpu' | 'wasm'>;
  /**
   * Where onnxruntime-web finds its `.wasm` / `.mjs` files (a URL prefix ending in `/`).
   * @default Node: the installed `onnxruntime-web/dist/` (file URL); browsers: onnxruntime's own
   *   default (next to its module), so a bundler must ship those files
   */
  wasmPaths?: string;
  /**
   * onnxruntime wasm threads.
   * @default 1 in Node; onnxruntime's default in browsers
   */
  numThreads?: number;
  /**
   * Check each model file's SHA-256 against the manifest.
   * @default true
   */
  verify?: boolean;
  /**
   * Directory of the model inside the loader's root.
   * @default 'system-one'
   */
  modelDir?: string;
}

/** A local backend, with the facts tests and benchmarks need. */
export interface LocalSystemOne extends SystemOneBackend {
  readonly kind: 'local';
  /** The engine in use. */
  readonly engine: 'onnx' | 'ts';
  /** The execution providers requested from onnxruntime (empty for the `'ts'` engine). */
  readonly executionProviders: readonly string[];
  /** The loaded manifest (thresholds, training info, files). */
  readonly manifest: SystemOneManifest;
  /**
   * Runs one group's network on raw feature rows (rows × features, row-major) and returns its
   * outputs as probabilities. For tests and benchmarks; `decide` is the API.
   * @throws JevMemError `SYSTEM_ONE_FAILED` when the run fails, `CLOSED` after close().
   */
  runGroup(group: HeadGroup, input: Float32Array, rows: number): Promise<GroupOutputs>;
}

/** True in Node (and not in browsers, even with a `process` shim). */
function isNode(): boolean {
  const p = (globalThis as { process?: { versions?: { node?: string }; release?: { name?: string } } }).process;
  return p?.versions?.node !== undefined && p.release?.name === 'node';
}

function loadFailed(message: string, cause?: unknown): JevMemError {
  return new JevMemError('MODEL_LOAD_FAILED', `System-One model: ${message}`, cause === undefined ? {} : { cause });
}

async function readAsset(load: AssetLoader, path: string): Promise<Uint8Array> {
  try {
    return await load(path);
  } catch (e) {
    if (isJevMemError(e, 'MODEL_LOAD_FAILED')) throw e;
    throw loadFailed(`cannot read ${path} (${e instanceof Error ? e.message : String(e)})`, e);
  }
}

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Reads and checks `<modelDir>/manifest.json`: the manifest format, the feature version
 * (features.ts) and the head layout (heads.ts) must match this build.
 * @throws JevMemError `MODEL_LOAD_FAILED` naming what differs.
 */
export async function loadManifest(load: AssetLoader, modelDir = 'system-one'): Promise<SystemOneManifest> {
  const path = `${modelDir}/manifest.json`;
  let manifest: SystemOneManifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(await readAsset(load, path))) as SystemOneManifest;
  } catch (e) {
    if (isJevMemError(e)) throw e;
    throw loadFailed(`${path} is not valid JSON`, e);
  }
  if (manifest?.format !== 'jev-mem/system-one-manifest@1') throw loadFailed(`${path}: unknown format ${JSON.stringify(manifest?.format)}, expected "jev-mem/system-one-manifest@1"`);
  if (manifest.featureVersion !== FEATURE_VERSION) {
    throw loadFailed(`${path}: the model was built for features ${manifest.featureVersion}, this build computes ${FEATURE_VERSION}; rebuild the model (scripts/build-system-one.ts)`);
  }
  for (const [id, head] of Object.entries(HEADS)) {
    const m = manifest.heads?.[id];
    if (m === undefined || m.group !== head.group || m.output !== head.output || m.index !== head.index || m.type !== head.type) {
      throw loadFailed(`${path}: head ${id} is laid out differently from this build (heads.ts)`);
    }
  }
  for (const group of HEAD_GROUPS) {
    const g = manifest.groups?.[group];
    if (g === undefined) throw loadFailed(`${path}: group ${group} is missing`);
    if (g.inputSize !== FEATURE_NAMES[group].length) throw loadFailed(`${path}: group ${group} takes ${g.inputSize} features, this build makes ${FEATURE_NAMES[group].length}`);
    const expected = GROUP_OUTPUTS[group].map((o) => `${o.name}:${o.activation}:${o.labels.join('|')}`).join(',');
    if (g.outputs.map((o) => `${o.name}:${o.activation}:${o.labels.join('|')}`).join(',') !== expected) {
      throw loadFailed(`${path}: group ${group} has other outputs than this build (heads.ts)`);
    }
    if (!manifest.files.some((f) => f.path === g.file)) throw loadFailed(`${path}: group ${group} names ${g.file}, which is not in files`);
  }
  return manifest;
}

/** Loads every group file of the manifest, checking sizes and (when `verify`) SHA-256. */
async function loadGroupFiles(load: AssetLoader, modelDir: string, manifest: SystemOneManifest, verify: boolean): Promise<Map<HeadGroup, Uint8Array>> {
  const out = new Map<HeadGroup, Uint8Array>();
  await Promise.all(HEAD_GROUPS.map(async (group) => {
    const file = manifest.groups[group].file;
    const entry = manifest.files.find((f) => f.path === file);
    const bytes = await readAsset(load, `${modelDir}/${file}`);
    if (verify && entry !== undefined) {
      if (bytes.length !== entry.bytes) throw loadFailed(`${modelDir}/${file} has ${bytes.length} bytes, the manifest says ${entry.bytes}`);
      const sum = await sha256Hex(bytes);
      if (sum !== entry.sha256) throw loadFailed(`${modelDir}/${file} fails its checksum (sha256 ${sum}, manifest ${entry.sha256})`);
    }
    out.set(group, bytes);
  }));
  return out;
}

interface Engine {
  run: GroupRunner;
  providers: string[];
  release(): Promise<void>;
}

async function tsEngine(files: Map<HeadGroup, Uint8Array>): Promise<Engine> {
  const { compileOnnx } = await import('./kernels.js');
  const models = new Map(HEAD_GROUPS.map((g) => {
    const m = compileOnnx(files.get(g) as Uint8Array);
    if (m.metadata['jev-mem.feature_version'] !== FEATURE_VERSION) throw loadFailed(`${g}.onnx was built for features ${m.metadata['jev-mem.feature_version'] ?? '(none)'}, expected ${FEATURE_VERSION}`);
    if (m.inputSize !== FEATURE_NAMES[g].length) throw loadFailed(`${g}.onnx takes ${m.inputSize} features, expected ${FEATURE_NAMES[g].length}`);
    return [g, m] as const;
  }));
  return {
    providers: [],
    run: (group, input, rows) => (models.get(group) as ReturnType<typeof compileOnnx>).run(input, rows),
    release: async () => {},
  };
}

async function defaultProviders(): Promise<Array<'webgpu' | 'wasm'>> {
  if (isNode()) return ['wasm'];
  const gpu = (globalThis.navigator as { gpu?: { requestAdapter?: () => Promise<unknown> } } | undefined)?.gpu;
  try {
    const adapter = await gpu?.requestAdapter?.();
    return adapter ? ['webgpu', 'wasm'] : ['wasm'];
  } catch {
    return ['wasm'];
  }
}

/** The installed onnxruntime-web `dist/` folder as a file URL (Node only). */
async function nodeWasmPaths(): Promise<string> {
  const { createRequire } = await importNode<typeof import('node:module')>('node:module');
  const { pathToFileURL } = await importNode<typeof import('node:url')>('node:url');
  const entry = createRequire(import.meta.url).resolve('onnxruntime-web');
  return new URL('./', pathToFileURL(entry)).href;
}

async function onnxEngine(files: Map<HeadGroup, Uint8Array>, options: LocalSystemOneOptions): Promise<Engine> {
  let ort: typeof import('onnxruntime-web');
  if (options.onnxRuntime !== undefined) {
    try {
      // The structural type of the option stands for the module itself (see OnnxRuntimeModule).
      ort = (await options.onnxRuntime()) as unknown as typeof import('onnxruntime-web');
    } catch (e) {
      throw loadFailed(`onnxruntime-web cannot be imported (${e instanceof Error ? e.message : String(e)}); use engine 'ts'`, e);
    }
  } else {
    ort = await importOptional<typeof import('onnxruntime-web')>('onnxruntime-web', 'onnxruntime-web', "the System-One engine 'onnx'");
  }
  const node = isNode();
  const wasmPaths = options.wasmPaths ?? (node ? await nodeWasmPaths() : undefined);
  if (wasmPaths !== undefined) ort.env.wasm.wasmPaths = wasmPaths;
  const threads = options.numThreads ?? (node ? 1 : undefined);
  if (threads !== undefined) ort.env.wasm.numThreads = threads;
  const providers = options.executionProviders ?? (await defaultProviders());
  const sessions = new Map<HeadGroup, import('onnxruntime-web').InferenceSession>();
  try {
    for (const g of HEAD_GROUPS) {
      sessions.set(g, await ort.InferenceSession.create(files.get(g) as Uint8Array, { executionProviders: providers, graphOptimizationLevel: 'all' }));
    }
  } catch (e) {
    await Promise.all([...sessions.values()].map((s) => s.release().catch(() => {})));
    throw loadFailed(`onnxruntime-web could not load the model with [${providers.join(', ')}] (${e instanceof Error ? e.message : String(e)})`, e);
  }
  // onnxruntime-web sessions must not run concurrently: chain the runs.
  let queue: Promise<unknown> = Promise.resolve();
  const run: GroupRunner = (group, input, rows) => {
    const next = queue.then(async () => {
      const session = sessions.get(group) as import('onnxruntime-web').InferenceSession;
      const width = FEATURE_NAMES[group].length;
      const result = await session.run({ features: new ort.Tensor('float32', input, [rows, width]) });
      const out: Record<string, Float32Array> = {};
      for (const spec of GROUP_OUTPUTS[group]) {
        const t = result[spec.name];
        if (t === undefined || !(t.data instanceof Float32Array)) throw new JevMemError('SYSTEM_ONE_FAILED', `onnxruntime returned no float32 output ${spec.name} for group ${group}`);
        out[spec.name] = new Float32Array(t.data);
        t.dispose();
      }
      return out;
    });
    queue = next.catch(() => undefined);
    return next.catch((e: unknown) => {
      if (isJevMemError(e)) throw e;
      throw new JevMemError('SYSTEM_ONE_FAILED', `onnxruntime run of group ${group} failed (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    });
  };
  return {
    providers,
    run,
    release: async () => {
      await queue;
      await Promise.all([...sessions.values()].map((s) => s.release().catch(() => {})));
    },
  };
}

/**
 * Loads the shipped model and returns the local backend: kind `'local'`, model id
 * `jev-mem/system-one@<manifest version>`.
 *
 * @throws JevMemError `MODEL_LOAD_FAILED` when a file is missing, fails its checksum, was built
 *   for other features / heads, or onnxruntime cannot load it; `INVALID_OPTION` for a bad
 *   `engine`. The backend's calls throw `SYSTEM_ONE_INVALID_REQUEST`, `SYSTEM_ONE_FAILED`,
 *   `ABORTED` and, after `close()`, `CLOSED`.
 */
export async function createLocalSystemOne(options: LocalSystemOneOptions): Promise<LocalSystemOne> {
  const engineName = options.engine ?? 'ts';
  if (engineName !== 'onnx' && engineName !== 'ts') {
    throw new JevMemError('INVALID_OPTION', `option engine: expected 'onnx' or 'ts', got ${JSON.stringify(engineName)}`, { field: 'engine' });
  }
  if (typeof options.load !== 'function') {
    throw new JevMemError('INVALID_OPTION', 'option load: expected an AssetLoader function (relativePath) => Promise<Uint8Array>', { field: 'load' });
  }
  const modelDir = options.modelDir ?? 'system-one';
  const manifest = await loadManifest(options.load, modelDir);
  const files = await loadGroupFiles(options.load, modelDir, manifest, options.verify ?? true);
  const engine = engineName === 'ts' ? await tsEngine(files) : await onnxEngine(files, options);
  const modelId = `${manifest.id}@${manifest.version}`;
  let closed = false;
  const backend = createHeadBackend('local', modelId, engine.run, async () => {
    closed = true;
    await engine.release();
  });
  const parameters = calibratedParameters(manifest);
  return {
    kind: 'local',
    modelId,
    ...(parameters !== undefined ? { parameters } : {}),
    engine: engineName,
    executionProviders: engine.providers,
    manifest,
    decide: backend.decide,
    decideMany: backend.decideMany,
    ...(backend.evict !== undefined ? { evict: backend.evict } : {}),
    close: backend.close,
    async runGroup(group, input, rows) {
      if (closed) throw new JevMemError('CLOSED', `System One backend local (${modelId}) was used after close()`);
      return engine.run(group, input, rows);
    },
  };
}

/**
 * An {@link AssetLoader} reading `<base><relativePath>`: `file:` URLs through `node:fs`
 * (Node), anything else through `fetch`.
 * @param base - a URL ending in `/` (e.g. `new URL('../models/', import.meta.url)`).
 * @param files - URLs of single files by relative path (bundled assets), used before `base`.
 * @throws (from the loader) JevMemError `MODEL_LOAD_FAILED` when the file is missing or the
 *   server answers non-2xx.
 */
export function urlAssetLoader(base: string | URL, files?: Readonly<Record<string, string>>): AssetLoader {
  const root = new URL(String(base).endsWith('/') ? String(base) : `${String(base)}/`);
  return async (relativePath: string) => {
    const mapped = files?.[relativePath];
    if (mapped !== undefined) return fetchModelFile(new URL(mapped), relativePath);
    const url = new URL(relativePath, root);
    if (!url.href.startsWith(root.href)) throw loadFailed(`${relativePath} leaves the model directory ${root.href}`);
    try {
      if (url.protocol === 'file:') {
        const { readFile } = await importNode<typeof import('node:fs/promises')>('node:fs/promises');
        return new Uint8Array(await readFile(url));
      }
      return await fetchModelFile(url, relativePath);
    } catch (e) {
      if (isJevMemError(e)) throw e;
      throw loadFailed(`cannot read ${url.href} (${e instanceof Error ? e.message : String(e)})`, e);
    }
  };
}

/**
 * The memory parameters a manifest ships (SPEC 8: calibrated per backend): its thresholds when
 * they were calibrated, and its read parameters; `undefined` when neither exists.
 */
export function calibratedParameters(manifest: SystemOneManifest): Record<string, unknown> | undefined {
  const t = manifest.thresholds;
  const out: Record<string, unknown> = {};
  if (t?.calibrated) Object.assign(out, { thetaRel: t.theta_rel, thetaAct: t.theta_act, thetaSuff: t.theta_suff, thetaCont: t.theta_cont });
  Object.assign(out, manifest.parameters ?? {}); // read parameters tuned with the model win
  return Object.keys(out).length > 0 ? out : undefined;
}
