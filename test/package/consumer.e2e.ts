/**
 * Acceptance (issue 23), against the packed tarball installed into an empty project
 * (global-setup.ts): a Vite + TypeScript app with `skipLibCheck: false` and no optional peer
 * installed type-checks against the shipped declarations; Vite's dev server loads the shipped
 * modules without a source-map warning (no published file names a .map that is not shipped);
 * `require()` of the package fails with the "ESM only" message.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createLogger, createServer } from 'vite';
import { describe, expect, inject, it } from 'vitest';
import { cleanEnv } from './global-setup.js';

const consumerDir = inject('consumerDir');
const installed = join(consumerDir, 'node_modules', 'jev-mem');
const appDir = join(consumerDir, 'typed-app');

/** Every file of the installed package (paths relative to it). */
function packageFiles(): string[] {
  return readdirSync(installed, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(installed.length + 1));
}

describe('the installed package in a TypeScript app (issue 23)', () => {
  it('installs no optional peer (so the check below is without them)', () => {
    for (const peer of ['onnxruntime-web', '@huggingface/transformers', 'hnswlib-wasm', 'fake-indexeddb']) {
      expect(() => createRequire(join(consumerDir, 'x.js')).resolve(`${peer}/package.json`), peer).toThrow();
    }
  });

  it('type-checks with skipLibCheck: false against every browser-side entry', () => {
    rmSync(appDir, { recursive: true, force: true });
    mkdirSync(join(appDir, 'src'), { recursive: true });
    // The tsconfig of Vite's vanilla-ts template, with the library checks on.
    writeFileSync(
      join(appDir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          useDefineForClassFields: true,
          module: 'ESNext',
          lib: ['ES2022', 'DOM', 'DOM.Iterable'],
          types: [],
          moduleResolution: 'bundler',
          noEmit: true,
          strict: true,
          skipLibCheck: false,
          isolatedModules: true,
          verbatimModuleSyntax: true,
          noUnusedLocals: true,
        },
        include: ['src'],
      }),
    );
    writeFileSync(
      join(appDir, 'src', 'main.ts'),
      `import { createMemory, JevMemError, type LocalSystemOneOptions, type Memory } from 'jev-mem';
import { createBrowserMemory } from 'jev-mem/browser';
import * as onnx from 'jev-mem/browser/onnx';
import * as edge from 'jev-mem/edge';
import * as transformers from 'jev-mem/transformers';

export async function start(): Promise<Memory> {
  const memory = await createBrowserMemory();
  const { memories } = await memory.recall('Where does my sister live?', { k: 3 });
  console.log(memories[0]?.text, createMemory, onnx, edge, transformers);
  return memory;
}
export const engine: LocalSystemOneOptions['engine'] = 'ts';
export const isOurs = (e: unknown): boolean => e instanceof JevMemError;
`,
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: appDir, env: cleanEnv(), encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toBe('');
    expect(r.status).toBe(0);
  });

  it('ships no JS that names a source map, and Vite loads the modules with no source-map warning', async () => {
    const files = packageFiles();
    const js = files.filter((f) => f.endsWith('.js'));
    expect(js.length).toBeGreaterThan(10);
    const naming = js.filter((f) => /\/\/# sourceMappingURL=/.test(readFileSync(join(installed, f), 'utf8')));
    expect(naming).toEqual([]);

    const warnings: string[] = [];
    const logger = createLogger('warn', { allowClearScreen: false });
    logger.warn = (msg) => void warnings.push(msg);
    logger.warnOnce = (msg) => void warnings.push(msg);
    logger.error = (msg) => void warnings.push(msg);
    const server = await createServer({
      configFile: false,
      root: appDir,
      logLevel: 'warn',
      customLogger: logger,
      server: { middlewareMode: true, hmr: false, ws: false, watch: null, preTransformRequests: false },
      optimizeDeps: { noDiscovery: true, include: [] },
    });
    try {
      let loaded = 0;
      for (const f of js.filter((p) => p.startsWith('dist/src/'))) {
        try {
          if ((await server.transformRequest(`/@fs${join(installed, f)}`)) !== null) loaded++;
        } catch {
          // A module whose imports Vite cannot resolve here (an optional peer) is not this test's concern.
        }
      }
      expect(loaded).toBeGreaterThan(10);
    } finally {
      await server.close();
    }
    expect(warnings.filter((w) => /source ?map/i.test(w))).toEqual([]);
  });

  it('require() of any entry fails with the ESM-only message', () => {
    for (const entry of ['jev-mem', 'jev-mem/node', 'jev-mem/browser', 'jev-mem/edge']) {
      const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(entry)})`], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' });
      expect(r.status, entry).not.toBe(0);
      expect(r.stderr, entry).toContain('jev-mem is ESM only; use import()');
    }
    // import() still works from CommonJS.
    const ok = execFileSync(process.execPath, ['-e', `import('jev-mem').then((m) => console.log(typeof m.createMemory))`], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' });
    expect(ok.trim()).toBe('function');
  });
});
