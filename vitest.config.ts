/**
 * The unit config (`npm run test:unit`, `vitest run`): every `*.test.ts` under test/ and
 * bench/test/, except the suites with their own config that `npm test` runs next — the browser
 * suites (test/browser, bench/test/browser) and the extension suite (test/extension). The
 * package suite's config takes only `*.e2e.ts`, so test/package's `*.test.ts` run here.
 */
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'bench/test/**/*.test.ts'],
    exclude: ['test/browser/**', 'bench/test/browser/**', 'test/extension/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One core left to the main process (it collects, transforms and reports); two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
