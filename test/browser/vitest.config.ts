/**
 * Vitest config of the browser suite (`npx vitest run --config test/browser/vitest.config.ts`):
 * global-setup.ts builds the demo and serves it on 127.0.0.1; the tests drive Debian's Chromium
 * through playwright-core. Files run one after another (each starts its own browser), so two
 * cores are enough.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/browser/**/*.test.ts'],
    globalSetup: ['test/browser/global-setup.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
