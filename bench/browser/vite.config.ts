/**
 * Vite config of the System-One bench page (`bench/browser/system-one.html`), used by
 * `npm run bench -- system-one --browser` (which builds it into a temporary folder and serves it
 * with `vite preview`). It is the demo's config (demo/vite.config.ts: package aliases,
 * onnxruntime-web resolved for external wasm, `/models/` and `/ort/` from the page's own origin)
 * with:
 * - this folder as the root and `system-one.html` and `scale.html` (`npm run bench -- scale --browser`)
 *   as the only entries (the demo UI is not built);
 * - cross-origin isolation headers (COOP/COEP), so `performance.now()` has 5 µs resolution
 *   instead of 100 µs (onnxruntime still runs one thread: the page asks for one);
 * - the page bundles bench/system-one/system-one.ts for its replay loop only, so the warnings about
 *   that module's (unused, tree-shaken) Node built-ins are dropped;
 * - `dpack` (a dependency of @orama/plugin-data-persistence, which the scale page's Orama run
 *   uses) resolved to its own browser entry `dpack/browser.js`: its package.json has no browser
 *   field, and its Node entry extends `stream.Transform`, which fails to load in a page.
 *
 * Manual use: `npx vite build --config bench/browser/vite.config.ts && npx vite preview --config bench/browser/vite.config.ts`,
 * then open /system-one.html (the page waits for a driver to call `window.jevMemSystemOneBench.run`).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type UserConfig } from 'vite';
import demo from '../../demo/vite.config.js';

const benchDir = dirname(fileURLToPath(import.meta.url));
const base = demo as UserConfig;
const dpackBrowser = join(dirname(createRequire(import.meta.url).resolve('dpack')), 'browser.js');
const baseAliases = (base.resolve?.alias ?? []) as Array<{ find: string | RegExp; replacement: string }>;

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  ...base,
  root: benchDir,
  resolve: { ...base.resolve, alias: [...baseAliases, { find: /^dpack$/, replacement: dpackBrowser }] },
  server: { ...base.server, headers: ISOLATION },
  preview: { ...base.preview, headers: ISOLATION },
  build: {
    ...base.build,
    outDir: join(benchDir, 'dist'),
    // JEV_MEM_BENCH_PAGE_PROFILE (bench scale --browser): unminified, so the page's CPU profile names functions.
    ...(process.env.JEV_MEM_BENCH_PAGE_PROFILE ? { minify: false } : {}),
    rolldownOptions: {
      input: [join(benchDir, 'system-one.html'), join(benchDir, 'scale.html')],
      onwarn(warning, warn) {
        if (warning.message.includes('has been externalized for browser compatibility')) return;
        warn(warning);
      },
    },
  },
});
