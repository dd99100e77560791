/**
 * The deployable bundle (examples/edge/wrangler.toml, built as `wrangler deploy` builds it): what
 * goes in, what must stay out (SPEC 9: nothing that compiles WebAssembly from bytes or needs
 * IndexedDB), and its compressed size against Cloudflare's limits (3 MiB free, 10 MiB paid).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEdgeBundle, EXAMPLE_CONFIG, type EdgeBundle } from './harness.js';

const MIB = 1024 * 1024;
let bundle: EdgeBundle;

beforeAll(() => {
  bundle = buildEdgeBundle(EXAMPLE_CONFIG);
}, 120_000);

afterAll(() => bundle?.remove());

describe('edge bundle', () => {
  it('bundles no package that needs WebAssembly from bytes, IndexedDB, Node or a Web Worker', () => {
    const banned = ['onnxruntime-web', 'onnxruntime-node', 'onnxruntime-common', 'hnswlib-wasm', 'fake-indexeddb', 'idb', '@huggingface/transformers', 'comlink'];
    const offending = bundle.inputs.filter((path) => banned.some((pkg) => path.includes(`node_modules/${pkg}/`)));
    expect(offending).toEqual([]);
    expect(bundle.modules.filter((m) => m.path.endsWith('.wasm'))).toEqual([]);
  });

  it('has no eval, no Function constructor and no WebAssembly compilation in its JavaScript (SPEC 9)', () => {
    const js = readFileSync(bundle.modules[0]!.path, 'utf8');
    expect(js.match(/\beval\s*\(/g)).toBeNull();
    expect(js.match(/\bnew\s+Function\s*\(|\bFunction\s*\(\s*["'`]/g)).toBeNull();
    expect(js.match(/WebAssembly\.(compile|instantiate|Module)\b/g)).toBeNull();
    expect(js.match(/\bnew\s+Worker\s*\(|\bindexedDB\./g)).toBeNull();
  });

  it("bundles the pure-TypeScript HNSW, and the Durable Object asks for 'auto', which switches to it (issue 25)", () => {
    expect(bundle.inputs.some((p) => p.endsWith('src/plane/indexes/vector-ann.ts'))).toBe(true);
    expect(bundle.inputs.some((p) => p.endsWith('src/plane/indexes/vector-ann-format.ts'))).toBe(true);
    const js = readFileSync(bundle.modules[0]!.path, 'utf8');
    // The DO's memory options (src/edge/memory-object.ts), as minified: 'auto', never 'flat'.
    expect(js).toMatch(/vectorIndex:\s*"auto"/);
    expect(js).not.toMatch(/vectorIndex:\s*"flat"/);
    // The switch at AUTO_HNSW_FROM builds the ann index (src/memory.ts), whose kind string is in the bundle.
    expect(js).toMatch(/kind\s*=\s*"ann"/);
  });

  it('bundles the TypeScript kernels and the shipped model files as modules', () => {
    expect(bundle.inputs.some((p) => p.endsWith('src/system-one/kernels.ts'))).toBe(true);
    const names = bundle.modules.map((m) => m.path.replace(/^.*\/[0-9a-f]{40}-/, ''));
    for (const f of ['vectors.i8', 'scales.f32', 'pc.f32', 'vocab.txt', 'typing.onnx', 'relation.onnx', 'routing.onnx', 'stop.onnx', 'candidates.onnx', 'maintenance.onnx']) {
      expect(names).toContain(f);
    }
  });

  it('fits the paid plan limit (10 MiB compressed); prints the size against the free limit (3 MiB)', () => {
    const gzip = bundle.modules.reduce((s, m) => s + m.gzipBytes, 0);
    const raw = bundle.modules.reduce((s, m) => s + m.bytes, 0);
    const rows = bundle.modules.map((m) => `  ${m.path.replace(/^.*\//, '').padEnd(60)} ${String(m.bytes).padStart(9)} B  gzip ${String(m.gzipBytes).padStart(9)} B`);
    console.log(
      [
        `edge bundle: ${(raw / MIB).toFixed(2)} MiB raw, ${(gzip / MIB).toFixed(2)} MiB gzip -9 (free plan limit 3 MiB, paid 10 MiB)`,
        `wrangler reports: ${bundle.wrangler ? `${bundle.wrangler.uploadKiB} KiB / gzip ${bundle.wrangler.gzipKiB} KiB` : 'no size line'}`,
        ...rows,
      ].join('\n'),
    );
    expect(bundle.wrangler).toBeDefined();
    expect((bundle.wrangler?.gzipKiB ?? Infinity) * 1024).toBeLessThan(10 * MIB);
    expect(gzip).toBeLessThan(10 * MIB);
  });
});
