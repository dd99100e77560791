/**
 * Vitest config of the browser suite (`npx vitest run --config test/browser/vitest.config.ts`):
 * global-setup.ts builds the demo and serves it on 127.0.0.1; the tests drive Debian's Chromium
 * through playwright-core. Files run one after another (each starts its own browser), so two
 * cores are enough.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { JEV_MEM_ALIASES } from '../../demo/aliases.js';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  resolve: { alias: JEV_MEM_ALIASES },
  test: {
    include: ['test/browser/**/*.test.ts', 'bench/test/browser/**/*.test.ts'],
    globalSetup: ['test/browser/global-setup.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
