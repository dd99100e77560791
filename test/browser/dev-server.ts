/**
 * The demo served by Vite's dev server, for browser tests whose page imports `jev-mem/browser` by
 * name (the global setup serves the built demo, whose bundle does not expose it).
 */
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';

const configFile = fileURLToPath(new URL('../../demo/vite.config.ts', import.meta.url));

/** A running dev server of the demo: its local URL and how to stop it. */
export interface DevDemo {
  url: string;
  close: () => Promise<void>;
}

/** Starts the demo's Vite dev server on 127.0.0.1 at a free port (no watcher, no HMR). */
export async function serveDemoDev(): Promise<DevDemo> {
  const server = await createServer({ configFile, logLevel: 'warn', server: { host: '127.0.0.1', port: 0, strictPort: false, watch: null, hmr: false } });
  await server.listen();
  return { url: server.resolvedUrls?.local[0] ?? '', close: () => server.close() };
}
