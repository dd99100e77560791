/**
 * What each package entry pulls in (issue 12 "The package", STYLE.md "Swappable components"):
 * the `.` entry bundles neither idb nor comlink; no entry but its own bundles an optional peer
 * (onnxruntime-web, @huggingface/transformers, hnswlib-wasm); a missing optional peer is a
 * `DEPENDENCY_MISSING` naming the package; a page instead of a model file is `MODEL_LOAD_FAILED`
 * naming the URL.
 */
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { fetchModelFile } from '../../src/encoder/assets.js';
import { importOptional } from '../../src/util/optional.js';

/** The npm packages an entry's browser bundle contains. */
async function bundledPackages(entry: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    platform: 'browser',
    logLevel: 'silent',
    outdir: 'unused',
    loader: { '.i8': 'file', '.f32': 'file', '.onnx': 'file', '.txt': 'file' },
  });
  const names = new Set<string>();
  for (const input of Object.keys(result.metafile.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) names.add(m[1] as string);
  }
  return [...names].sort();
}

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
const direct = Object.keys(pkg.dependencies);

/** The runtime dependencies and everything they depend on (what `npm i jev-mem` installs). */
function dependencyClosure(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const todo = [...names];
  while (todo.length > 0) {
    const name = todo.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(new URL(`../../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { dependencies?: Record<string, string> };
    todo.push(...Object.keys(manifest.dependencies ?? {}));
  }
  return [...seen].sort();
}
const runtime = dependencyClosure(direct);

describe('package entries', () => {
  it('declares the optional packages as optional peers, not dependencies', () => {
    for (const peer of ['@huggingface/transformers', 'onnxruntime-web', 'hnswlib-wasm', 'fake-indexeddb']) {
      expect(direct).not.toContain(peer);
      expect(Object.keys(pkg.peerDependencies)).toContain(peer);
    }
    expect(direct).not.toContain('onnx-proto');
  });

  it("'.' bundles only runtime dependencies, and neither idb nor comlink", async () => {
    const got = await bundledPackages('src/index.ts');
    expect(got.filter((p) => !runtime.includes(p))).toEqual([]);
    expect(got).toEqual(expect.arrayContaining(['@bufbuild/protobuf', 'chrono-node', 'minisearch']));
    expect(got).not.toContain('idb');
    expect(got).not.toContain('comlink');
  });

  it("'jev-mem/browser' adds idb and comlink, and still nothing but runtime dependencies", async () => {
    const got = await bundledPackages('src/browser.ts');
    expect(got.filter((p) => !runtime.includes(p))).toEqual([]);
    expect(got).toEqual(expect.arrayContaining(['comlink', 'idb']));
  });

  it("the default browser worker bundles no onnxruntime-web; the onnx worker does", async () => {
    expect(await bundledPackages('worker/system-one.worker.ts')).not.toContain('onnxruntime-web');
    expect(await bundledPackages('worker/system-one-onnx.worker.ts')).toContain('onnxruntime-web');
  });

  it("'jev-mem/transformers' bundles @huggingface/transformers", async () => {
    expect(await bundledPackages('src/transformers.ts')).toContain('@huggingface/transformers');
  });
});

describe('sideEffects', () => {
  it('keeps a bare import of a worker entry (package.json lists the worker entries as side effects)', async () => {
    const result = await build({
      stdin: { contents: "import './worker/system-one.worker.ts';", resolveDir: process.cwd(), loader: 'ts' },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      logLevel: 'silent',
    });
    const code = result.outputFiles[0]?.text ?? '';
    // comlink's expose() installs a message listener: the entry ran, not dropped as side-effect free
    expect(code).toContain('addEventListener("message"');
    expect(code.length).toBeGreaterThan(10_000);
  });
});

describe('optional peers and model files', () => {
  it('a missing optional package is DEPENDENCY_MISSING naming the npm i command', async () => {
    await expect(importOptional('no-such-pkg-jev', 'no-such-pkg-jev/x.js', 'the feature F')).rejects.toMatchObject({
      code: 'DEPENDENCY_MISSING',
      message: 'the feature F needs the optional package no-such-pkg-jev, which is not installed here: run `npm i no-such-pkg-jev`',
      details: expect.objectContaining({ package: 'no-such-pkg-jev' }),
    });
  });

  it('an HTML page served for a model file (SPA fallback) is MODEL_LOAD_FAILED naming the URL', async () => {
    const url = new URL('https://app.example/models/glove-sif-100d/encoder.json');
    const page = async (): Promise<Response> => new Response('<!doctype html><title>app</title>', { status: 200, headers: { 'content-type': 'text/html' } });
    const error = await fetchModelFile(url, 'glove-sif-100d/encoder.json', page).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'MODEL_LOAD_FAILED', details: expect.objectContaining({ url: url.href }) });
    expect((error as Error).message).toContain('https://app.example/models/glove-sif-100d/encoder.json answered an HTML page (HTTP 200)');
    // the same bytes without the header are caught too; real file bytes pass
    const bare = async (): Promise<Response> => new Response('\n  <html><body>404</body></html>', { status: 200 });
    await expect(fetchModelFile(url, 'x', bare)).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    const file = async (): Promise<Response> => new Response(new Uint8Array([1, 2, 3]), { status: 200, headers: { 'content-type': 'application/octet-stream' } });
    expect([...(await fetchModelFile(url, 'x', file))]).toEqual([1, 2, 3]);
  });
});
