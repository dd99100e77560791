/**
 * Acceptance (issue 12): an app built from the installed tarball by Vite with `export default {}`
 * as its config, calling `createBrowserMemory()` with no options, recalls in headless Chromium
 * with no request off the page's origin; a model file the server does not have is a
 * `MODEL_LOAD_FAILED` naming its URL. The app's built size is printed for the report.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const consumerDir = inject('consumerDir');
const webDir = join(consumerDir, 'web');

const MAIN = `
import { createBrowserMemory } from 'jev-mem/browser';
const out = document.getElementById('out');
try {
  const memory = await createBrowserMemory();
  await memory.add({ text: 'User: my sister Ana lives in Porto and teaches maths', speaker: 'user', observedAt: new Date('2024-03-01') });
  await memory.add({ text: 'User: I bought a red bicycle last week', speaker: 'user', observedAt: new Date('2024-03-02') });
  await memory.add({ text: 'User: my favourite food is ramen', speaker: 'user', observedAt: new Date('2024-03-03') });
  const { memories } = await memory.recall('Where does my sister live?', { k: 3 });
  out.dataset.result = JSON.stringify({ top: memories[0]?.text, platform: memory.platform });
  await memory.close();
} catch (e) {
  out.dataset.result = JSON.stringify({ error: { code: e.code, message: e.message } });
}
`;

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.json': 'application/json', '.txt': 'text/plain', '.wasm': 'application/wasm' };

/** A static server of `dir`; unknown paths get index.html (a single-page-app fallback). */
function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    let file = join(dir, path === '/' ? 'index.html' : path);
    try {
      if (!statSync(file).isFile()) throw new Error('not a file');
    } catch {
      file = join(dir, 'index.html');
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((n, e) => n + statSync(join(e.parentPath, e.name)).size, 0);
}

/** Opens the served app; returns its result and every request the context made (page and workers). */
async function run(browser: Browser, url: string): Promise<{ result: Record<string, unknown>; requests: string[] }> {
  const context = await browser.newContext();
  const requests: string[] = [];
  context.on('request', (r) => requests.push(r.url()));
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForSelector('#out[data-result]', { state: 'attached', timeout: 60_000 });
  const result = JSON.parse((await page.getAttribute('#out', 'data-result')) as string) as Record<string, unknown>;
  await context.close();
  return { result, requests };
}

let browser: Browser;
let server: Server;
let origin: string;
let distDir: string;

beforeAll(async () => {
  rmSync(webDir, { recursive: true, force: true });
  mkdirSync(webDir, { recursive: true });
  writeFileSync(join(webDir, 'vite.config.js'), 'export default {}\n');
  writeFileSync(join(webDir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>app</title><pre id="out"></pre><script type="module" src="./main.js"></script>\n');
  writeFileSync(join(webDir, 'main.js'), MAIN);
  // The repository's Vite, run as a user's `vite build` would run in web/ (its config file is empty).
  execFileSync(process.execPath, ['-e', `import('vite').then((v) => v.build({ root: ${JSON.stringify(webDir)}, logLevel: 'warn' }))`], { cwd: process.cwd(), stdio: 'inherit' });
  distDir = join(webDir, 'dist');
  console.log(`vite app (TS kernels): ${folderBytes(distDir)} bytes in ${readdirSync(distDir, { recursive: true }).length} entries`);
  server = await serve(distDir);
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
});

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
});

describe('a Vite app with an empty config (export default {})', () => {
  it('bundles the worker and the model files itself and bundles no onnxruntime-web', () => {
    const files = readdirSync(join(distDir, 'assets'));
    expect(files.some((f) => f.startsWith('vectors') && f.endsWith('.i8'))).toBe(true);
    expect(files.some((f) => f.startsWith('system-one.worker'))).toBe(true);
    expect(files.filter((f) => /ort|onnxruntime|\.wasm$/.test(f))).toEqual([]);
  });

  it('recalls in headless Chromium with createBrowserMemory() and no request off the page origin', async () => {
    const { result, requests } = await run(browser, `${origin}/`);
    expect(result.error).toBeUndefined();
    expect(result.top).toContain('Porto');
    expect((result.platform as { systemOne: { kind: string; engine: string } }).systemOne).toMatchObject({ kind: 'local-worker', engine: 'ts' });
    const offOrigin = requests.filter((u) => !u.startsWith(`${origin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'));
    expect(offOrigin).toEqual([]);
    expect(requests.some((u) => u.includes('/assets/vectors'))).toBe(true);
  });

  it('reports a model file the server does not have (index.html fallback) as MODEL_LOAD_FAILED naming the URL', async () => {
    const vectors = readdirSync(join(distDir, 'assets')).find((f) => f.startsWith('vectors')) as string;
    const kept = readFileSync(join(distDir, 'assets', vectors));
    rmSync(join(distDir, 'assets', vectors));
    try {
      const { result } = await run(browser, `${origin}/`);
      const error = result.error as { code: string; message: string };
      expect(error.code).toBe('MODEL_LOAD_FAILED');
      expect(error.message).toContain(`${origin}/assets/${vectors}`);
      expect(error.message).toContain('HTML page');
      expect(error.message).toContain('dist/models/');
    } finally {
      writeFileSync(join(distDir, 'assets', vectors), kept);
    }
  });
});

describe('an esbuild app (esbuild does not follow new URL(…, import.meta.url))', () => {
  it('recalls with createBrowserMemory() when the page serves the bundle at its root, the bundled worker at worker/ and dist/models at models/', async () => {
    const out = join(webDir, 'esbuild');
    rmSync(out, { recursive: true, force: true });
    const esbuild = join(process.cwd(), 'node_modules', '.bin', 'esbuild');
    execFileSync(esbuild, ['main.js', '--bundle', '--format=esm', `--outdir=${out}`, '--log-level=warning'], { cwd: webDir, stdio: 'inherit' });
    execFileSync(esbuild, ['node_modules/jev-mem/dist/worker/system-one.worker.js', '--bundle', '--format=esm', `--outdir=${join(out, 'worker')}`, '--log-level=warning'], { cwd: consumerDir, stdio: 'inherit' });
    cpSync(join(consumerDir, 'node_modules', 'jev-mem', 'dist', 'models'), join(out, 'models'), { recursive: true });
    writeFileSync(join(out, 'index.html'), '<!doctype html><meta charset="utf-8"><pre id="out"></pre><script type="module" src="./main.js"></script>\n');
    console.log(`esbuild app (TS kernels): ${folderBytes(out)} bytes`);
    const esServer = await serve(out);
    try {
      const esOrigin = `http://127.0.0.1:${(esServer.address() as AddressInfo).port}`;
      const { result, requests } = await run(browser, `${esOrigin}/`);
      expect(result.error).toBeUndefined();
      expect(result.top).toContain('Porto');
      expect(requests.filter((u) => !u.startsWith(`${esOrigin}/`) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
      expect(requests).toContain(`${esOrigin}/models/glove-sif-100d/vectors.i8`);
      expect(requests).toContain(`${esOrigin}/worker/system-one.worker.js`);
    } finally {
      await new Promise((r) => esServer.close(r));
    }
  });
});
