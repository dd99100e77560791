/**
 * Vite config of the demo page (`npm run demo`, `npm run build:demo`). The page imports the
 * package by name (`jev-mem`, `jev-mem/browser`; aliases.ts maps them to this checkout's sources),
 * as a user's app would, and serves from its own origin everything the browser entry fetches:
 * - `/models/…` → the repo's `models/` (GloVe-SIF encoder and System-One model);
 * - `/ort/…` → onnxruntime-web's wasm files from `node_modules/onnxruntime-web/dist/` (SPEC 9:
 *   never a CDN).
 * Dev: a middleware serves both folders; build: they are copied into `demo/dist/`.
 * Host 127.0.0.1, port `PORT` (default 5173) for both `vite` and `vite preview`.
 */
import { createReadStream } from 'node:fs';
import { cp, mkdir, stat } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';
import { JEV_MEM_ALIASES } from './aliases.js';

const demoDir = dirname(fileURLToPath(import.meta.url));
const repoDir = join(demoDir, '..');

/**
 * onnxruntime-web files the page needs. The `onnxruntime-web-use-extern-wasm` condition (below)
 * selects `ort.min.mjs`, which loads its JavaScript glue and the JSEP wasm (WebGPU + WASM) from
 * `env.wasm.wasmPaths` at run time instead of letting the bundler copy a second 28 MB wasm.
 */
const ORT_FILES = ['ort-wasm-simd-threaded.jsep.wasm', 'ort-wasm-simd-threaded.jsep.mjs'];

/** URL prefix → folder on disk, with an optional file-name allow list. */
const MOUNTS: Array<{ prefix: string; dir: string; only?: string[] }> = [
  { prefix: '/models/', dir: join(repoDir, 'models') },
  { prefix: '/ort/', dir: join(repoDir, 'node_modules', 'onnxruntime-web', 'dist'), only: ORT_FILES },
];

const TYPES: Record<string, string> = {
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
};

/** Resolves a request path to a file under one of {@link MOUNTS}, or undefined. */
function mountedFile(urlPath: string): string | undefined {
  for (const m of MOUNTS) {
    if (!urlPath.startsWith(m.prefix)) continue;
    const rel = normalize(decodeURIComponent(urlPath.slice(m.prefix.length)));
    if (rel.startsWith('..') || rel.includes(`${sep}..`)) return undefined;
    if (m.only !== undefined && !m.only.includes(rel)) return undefined;
    return join(m.dir, rel);
  }
  return undefined;
}

/** Serves (dev) and copies (build) the model and onnxruntime files. */
function staticAssets(): Plugin {
  let outDir = '';
  return {
    name: 'jev-mem-demo-assets',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const path = mountedFile(new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/[^/]*\/(models|ort)\//, '/$1/'));
        if (path === undefined) return next();
        stat(path).then(
          (s) => {
            if (!s.isFile()) return next();
            const ext = path.slice(path.lastIndexOf('.'));
            res.setHeader('content-type', TYPES[ext] ?? 'application/octet-stream');
            res.setHeader('content-length', String(s.size));
            createReadStream(path).pipe(res);
          },
          () => next(),
        );
      });
    },
    async writeBundle() {
      for (const m of MOUNTS) {
        const target = join(outDir, m.prefix);
        await mkdir(target, { recursive: true });
        if (m.only === undefined) await cp(m.dir, target, { recursive: true });
        else for (const f of m.only) await cp(join(m.dir, f), join(target, f));
      }
    },
  };
}

const port = Number(process.env.PORT ?? 5173);

export default defineConfig({
  root: demoDir,
  base: './',
  publicDir: false,
  resolve: { alias: JEV_MEM_ALIASES, conditions: ['onnxruntime-web-use-extern-wasm', ...defaultClientConditions] },
  server: { host: '127.0.0.1', port, strictPort: true },
  preview: { host: '127.0.0.1', port, strictPort: true },
  // Pre-bundled up front so the dev server does not reload the page when the worker first asks for it.
  // The dependency scan starts from the page's own entry only: by default Vite scans every HTML
  // file under the root, the extension's popup.html / offscreen.html included, whose scripts
  // (popup.js, offscreen.js) exist only once the extension is built ("Failed to run dependency scan").
  optimizeDeps: { entries: ['index.html'], include: ['onnxruntime-web', 'comlink', 'idb', 'minisearch', 'chrono-node'] },
  worker: { format: 'es' },
  build: { outDir: join(demoDir, 'dist'), emptyOutDir: true, target: 'es2022', reportCompressedSize: false },
  plugins: [staticAssets()],
});
