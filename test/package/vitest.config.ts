/**
 * Vitest config of the package acceptance suite (`npm run test:package`): global-setup.ts builds
 * and packs the package and installs the tarball into an empty project, as a user would; the
 * tests then use that install from Node, Vite and esbuild (and drive Debian's Chromium through
 * playwright-core). Slow (registry install, two app builds): not part of the unit config.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['test/package/**/*.e2e.ts'],
    globalSetup: ['test/package/global-setup.ts'],
    fileParallelism: false,
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 300_000,
  },
});
