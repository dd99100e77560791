/**
 * Vitest config of the extension suite (`npx vitest run --config test/extension/vitest.config.ts`):
 * the unit tests of the extension's modules and the browser test (`*.e2e.ts`, which builds the
 * extension and drives Debian's Chromium; named so that the default `npm test` run leaves it out).
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/extension/**/*.test.ts', 'test/extension/**/*.e2e.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
