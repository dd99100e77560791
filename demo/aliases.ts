/**
 * The package names the demo imports, mapped to the package's sources, so the page is written
 * exactly as a user's app (`import { createBrowserMemory } from 'jev-mem/browser'`) while it is
 * built from this checkout. Shared by demo/vite.config.ts and test/browser/vitest.config.ts;
 * demo/tsconfig.json maps the same names for the type checker.
 */
import { fileURLToPath } from 'node:url';

/** Vite `resolve.alias` entries: `jev-mem/browser` → src/browser.ts, `jev-mem` → src/index.ts. */
export const JEV_MEM_ALIASES = [
  { find: /^jev-mem\/browser\/onnx$/, replacement: fileURLToPath(new URL('../src/browser-onnx.ts', import.meta.url)) },
  { find: /^jev-mem\/browser$/, replacement: fileURLToPath(new URL('../src/browser.ts', import.meta.url)) },
  { find: /^jev-mem$/, replacement: fileURLToPath(new URL('../src/index.ts', import.meta.url)) },
];
