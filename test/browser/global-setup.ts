/**
 * Builds the demo (`demo/vite.config.ts` → `demo/dist/`) and serves the build with `vite preview`
 * on 127.0.0.1 at a free port for the browser tests; the URL is provided as `demoURL`.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { build, preview } from 'vite';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the served demo, ending in `/`. */
    demoURL: string;
  }
}

const configFile = fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url));

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await mkdir(fileURLToPath(new URL('../../test-artifacts/browser/', import.meta.url)), { recursive: true });
  await build({ configFile, logLevel: 'warn' });
  const server = await preview({ configFile, logLevel: 'warn', preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  const url = server.resolvedUrls?.local[0];
  if (url === undefined) throw new Error('vite preview did not report a URL');
  project.provide('demoURL', url.endsWith('/') ? url : `${url}/`);
  return async () => {
    await server.close();
  };
}
