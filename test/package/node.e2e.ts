/**
 * Acceptance (issue 12): the packed tarball (packed from a checkout without dist/, so `prepack`
 * built it) installed into an empty project with no environment variables gives a small
 * node_modules, and the README's Node API recalls the right memory; the CLI runs from the
 * install, `--system-one worker` included (its models come from the package's dist/models/).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, inject, it } from 'vitest';
import { cleanEnv } from './global-setup.js';

const consumerDir = inject('consumerDir');
const tarball = inject('tarball');

/** Size of a folder in bytes, as `du -sb` counts it. */
function duBytes(dir: string): number {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

describe('the installed package (Node)', () => {
  it('the tarball holds the compiled entries and CLI (npm pack built them: prepack)', () => {
    const entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const f of ['package/dist/src/index.js', 'package/dist/src/node.js', 'package/dist/src/cli/main.js', 'package/dist/esm-only.cjs', 'package/bin/jev-mem.js']) {
      expect(entries, f).toContain(f);
    }
  });

  it('installs only the runtime dependencies: node_modules ≤ 40 MB, no optional peer, no dev tool', () => {
    const bytes = duBytes(join(consumerDir, 'node_modules'));
    expect(bytes).toBeLessThanOrEqual(40 * 1024 * 1024);
    const top = execFileSync('ls', ['-A', join(consumerDir, 'node_modules')], { encoding: 'utf8' }).split('\n');
    for (const absent of ['onnxruntime-web', 'onnxruntime-node', '@huggingface', 'hnswlib-wasm', 'fake-indexeddb', 'onnx-proto', 'protobufjs', 'vite', 'playwright-core']) {
      expect(top, absent).not.toContain(absent);
    }
  });

  it('ships no benchmark, training, test code or training weights, and the LICENSE', () => {
    const files = execFileSync('find', ['node_modules/jev-mem', '-type', 'f'], { cwd: consumerDir, encoding: 'utf8' }).split('\n').filter(Boolean);
    expect(files.filter((f) => /\/bench\/|\/scripts\/|\/test\/|weights\.json$|\.test\.|\.map$/.test(f))).toEqual([]);
    expect(files).toContain('node_modules/jev-mem/LICENSE');
    expect(files).toContain('node_modules/jev-mem/dist/models/system-one/typing.onnx');
    expect(files).toContain('node_modules/jev-mem/dist/models/glove-sif-100d/vectors.i8');
  });

  it("runs the README's Node API: createNodeMemory, add, recall the right memory (in-process and in the System-One worker)", () => {
    const script = `
      import { createNodeMemory } from 'jev-mem/node';
      for (const systemOne of ['local', 'worker']) {
        const opts = {};
        if (systemOne === 'worker') {
          const { createWorkerSystemOne } = await import('jev-mem/node');
          opts.systemOne = await createWorkerSystemOne();
        } else {
          const { createLocalSystemOne, createNodeAssetLoader } = await import('jev-mem/node');
          opts.systemOne = await createLocalSystemOne({ load: createNodeAssetLoader() });
        }
        const memory = await createNodeMemory({ namespace: 'demo', ...opts });
        await memory.add({ text: 'User: my sister Ana lives in Porto and teaches maths', speaker: 'user', observedAt: new Date('2024-03-01') });
        await memory.add({ text: 'User: I bought a red bicycle last week', speaker: 'user', observedAt: new Date('2024-03-02') });
        await memory.add({ text: 'User: my favourite food is ramen', speaker: 'user', observedAt: new Date('2024-03-03') });
        const { memories } = await memory.recall('Where does my sister live?', { k: 3 });
        console.log(JSON.stringify({ systemOne, model: opts.systemOne.modelId, top: memories[0]?.text }));
        await memory.close();
        await opts.systemOne.close?.();
      }
    `;
    writeFileSync(join(consumerDir, 'recall.mjs'), script);
    const out = execFileSync('node', ['recall.mjs'], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { systemOne: string; model: string; top: string });
    expect(out.map((o) => o.systemOne)).toEqual(['local', 'worker']);
    for (const o of out) {
      expect(o.top).toContain('Porto');
      expect(o.model).toMatch(/^jev-mem\/system-one@\d+\.\d+\.\d+$/);
    }
  });

  it('runs the CLI from the install (npx jev-mem)', () => {
    const version = execFileSync('npx', ['--no-install', 'jev-mem', '--version'], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' });
    expect(version.trim()).toBe(JSON.parse(readFileSync(join(consumerDir, 'node_modules', 'jev-mem', 'package.json'), 'utf8')).version);
    const help = execFileSync('npx', ['--no-install', 'jev-mem', '--help'], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' });
    expect(help).toMatch(/jev-mem/);
    const store = join(consumerDir, 'store');
    writeFileSync(join(consumerDir, 'chat.jsonl'), `${JSON.stringify({ text: 'User: my sister Ana lives in Porto', speaker: 'user', observedAt: '2024-03-01T10:00:00Z' })}\n${JSON.stringify({ text: 'User: I bought a red bicycle', speaker: 'user', observedAt: '2024-03-02T10:00:00Z' })}\n`);
    execFileSync('npx', ['--no-install', 'jev-mem', 'ingest', 'chat.jsonl', '--store', store, '--namespace', 'n', '--system-one', 'worker'], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' });
    const recall = execFileSync('npx', ['--no-install', 'jev-mem', 'recall', 'Where does my sister live?', '--store', store, '--namespace', 'n', '--system-one', 'worker', '--json'], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' });
    expect(recall).toContain('Porto');
  });

  it('recall --system-one worker answers from the worker (System One asked, no fallback) on the sample conversation', () => {
    const sample = fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url));
    const store = join(consumerDir, 'sample-store');
    const opts = { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' } as const;
    execFileSync('npx', ['--no-install', 'jev-mem', 'ingest', sample, '--store', store, '--namespace', 'sample', '--system-one', 'heuristic'], opts);
    const out = execFileSync('npx', ['--no-install', 'jev-mem', 'recall', 'What did Theo replace on his bike?', '--store', store, '--namespace', 'sample', '--k', '3', '--json', '--system-one', 'worker'], opts);
    const j = JSON.parse(out) as { memories: Array<{ provenance: { turnId: string } }>; trace: { fallbacks: number; limits: { controllerCalls: number } } };
    expect(j.memories).toHaveLength(3);
    expect(j.memories.map((m) => m.provenance.turnId)).toContain('S1:6');
    expect(j.trace.limits.controllerCalls).toBeGreaterThan(0); // System One was asked …
    expect(j.trace.fallbacks).toBe(0); // … and the worker answered, not the fallback
  });

  it('names the package to install when an optional peer is asked for and missing', async () => {
    const script = `
      import { createNodeMemory, createLocalSystemOne, createNodeAssetLoader } from 'jev-mem/node';
      const tries = {
        onnx: () => createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'onnx' }),
        hnsw: () => createNodeMemory({ vectorIndex: 'hnsw' }).then((m) => m.add({ text: 'x', observedAt: new Date() })),
        transformers: () => import('jev-mem/transformers').then((t) => t.createTransformersEncoder({ model: 'Xenova/all-MiniLM-L6-v2' })),
      };
      for (const [name, f] of Object.entries(tries)) {
        try { await f(); console.log(JSON.stringify({ name, ok: true })); }
        catch (e) { console.log(JSON.stringify({ name, code: e.code, package: e.details?.package, message: e.message })); }
      }
    `;
    writeFileSync(join(consumerDir, 'missing.mjs'), script);
    const out = execFileSync('node', ['missing.mjs'], { cwd: consumerDir, env: cleanEnv(), encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { name: string; code?: string; package?: string; message?: string });
    expect(out.find((o) => o.name === 'onnx')).toMatchObject({ code: 'DEPENDENCY_MISSING', package: 'onnxruntime-web' });
    expect(out.find((o) => o.name === 'onnx')?.message).toContain('npm i onnxruntime-web');
    expect(out.find((o) => o.name === 'transformers')).toMatchObject({ code: 'DEPENDENCY_MISSING', package: '@huggingface/transformers' });
  });
});
