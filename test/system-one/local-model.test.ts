import { readFileSync } from 'node:fs';
import { FEATURE_VERSION } from '../../src/system-one/features.js';
import { readFile } from 'node:fs/promises';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-web';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildModel, heuristicWeightsFile, stableJson } from '../../scripts/lib/system-one-model.js';
import type { AssetLoader } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { CATALOGUE, questionKey } from '../../src/system-one/catalogue.js';
import { FEATURE_NAMES, HEAD_GROUPS } from '../../src/system-one/features.js';
import { GROUP_OUTPUTS } from '../../src/system-one/heads.js';
import { runHeuristicGroup } from '../../src/system-one/heuristic.js';
import { compileOnnx } from '../../src/system-one/kernels.js';
import { createLocalSystemOne, urlAssetLoader, type LocalSystemOne } from '../../src/system-one/local.js';
import { decodeOnnx } from '../../src/system-one/onnx-decode.js';
import { MAX_PARAMS, validateWeights } from '../../src/system-one/onnx-model.js';
import { dequantize, quantizeColumns } from '../../src/system-one/onnx-quantize.js';
import { runConformanceSuite } from './conformance.js';
import { prng } from '../helpers/prng.js';

/** Id of the model in models/system-one (read from its manifest, so retraining does not break the test). */
const SHIPPED_MODEL_ID = `jev-mem/system-one@${(JSON.parse(readFileSync(new URL('../../models/system-one/manifest.json', import.meta.url), 'utf8')) as { version: string }).version}`;

const MODELS = new URL('../../models/', import.meta.url);
const DIR = new URL('system-one/', MODELS);
const load = urlAssetLoader(MODELS);

runConformanceSuite('local (onnx engine)', async () => createLocalSystemOne({ load, engine: 'onnx' }));
runConformanceSuite('local (ts engine)', async () => createLocalSystemOne({ load, engine: 'ts' }));


/** `rows` random rows for `group`: values in [-1, 3] (wider than real features), some exact zeros. */
function randomRows(group: (typeof HEAD_GROUPS)[number], rows: number, seed: number): Float32Array {
  const rand = prng(seed);
  const out = new Float32Array(rows * FEATURE_NAMES[group].length);
  for (let i = 0; i < out.length; i++) out[i] = rand() < 0.3 ? 0 : -1 + 4 * rand();
  return out;
}

async function weightsOnDisk(): Promise<unknown> {
  return JSON.parse(await readFile(new URL('weights.json', DIR), 'utf8'));
}

describe('the shipped model files', () => {
  it('are exactly what scripts/build-system-one.ts builds from weights.json', async () => {
    const { files, manifest } = buildModel(await weightsOnDisk());
    for (const [name, bytes] of files) expect(Buffer.compare(await readFile(new URL(name, DIR)), Buffer.from(bytes)), name).toBe(0);
    expect(await readFile(new URL('manifest.json', DIR), 'utf8')).toBe(stableJson(manifest));
  });

  it('build deterministically (same weights, same bytes)', () => {
    const a = buildModel(heuristicWeightsFile());
    const b = buildModel(heuristicWeightsFile());
    for (const [name, bytes] of a.files) expect(Buffer.compare(Buffer.from(bytes), Buffer.from(b.files.get(name)!)), name).toBe(0);
  });

  it('hold the heuristic hand-set tables while they are marked not trained', async () => {
    const weights = (await weightsOnDisk()) as { training: { trained: boolean; data: unknown } };
    if (weights.training.trained) expect(weights.training.data, 'trained weights must name their data').toEqual(expect.any(String));
    else expect(weights).toEqual(JSON.parse(stableJson(heuristicWeightsFile((weights as unknown as { version: string }).version))));
  });

  it('ship a manifest with id, version, hashes, thresholds and training info', async () => {
    const manifest = JSON.parse(await readFile(new URL('manifest.json', DIR), 'utf8'));
    expect(manifest).toMatchObject({
      id: 'jev-mem/system-one',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      featureVersion: FEATURE_VERSION,
      thresholds: { theta_rel: expect.any(Number), theta_act: expect.any(Number), theta_suff: expect.any(Number), theta_cont: expect.any(Number), calibrated: expect.any(Boolean) },
      training: { trained: expect.any(Boolean), method: expect.any(String) },
    });
    expect(manifest.files.map((f: { path: string }) => f.path)).toEqual(HEAD_GROUPS.map((g) => `${g}.onnx`));
    expect(manifest.files.every((f: { sha256: string }) => /^[0-9a-f]{64}$/.test(f.sha256))).toBe(true);
    expect(manifest.params).toBeLessThan(MAX_PARAMS);
  });

  it('built from hand-set weights, carry the SPEC 8 thresholds marked uncalibrated', () => {
    const { manifest } = buildModel(heuristicWeightsFile());
    expect(manifest.thresholds).toMatchObject({ theta_rel: 0.6, theta_act: 0.1, theta_suff: 0.95, theta_cont: 0.15, calibrated: false });
    expect(manifest.training).toMatchObject({ trained: false, method: 'hand-set' });
  });

  it('store int8 weights with a float scale and zero point feeding DequantizeLinear', () => {
    return readFile(new URL('typing.onnx', DIR)).then((bytes) => {
      const m = decodeOnnx(new Uint8Array(bytes));
      expect(m.initializers.get('out.noul.w_q')?.data).toBeInstanceOf(Int8Array);
      expect(m.initializers.get('out.noul.w_scale')?.data).toBeInstanceOf(Float32Array);
      expect(m.initializers.get('out.noul.w_zero')?.data).toBeInstanceOf(Int8Array);
      expect(m.nodes.map((n) => n.opType).slice(0, 3)).toEqual(['Sub', 'Div', 'DequantizeLinear']);
      expect(m.nodes.map((n) => n.opType).slice(-4)).toEqual(['DequantizeLinear', 'MatMul', 'Add', 'Sigmoid']);
    });
  });
});

describe('weights validation', () => {
  it('refuses a weights file whose feature list differs from features.ts', () => {
    const w = heuristicWeightsFile();
    w.groups.typing.features = w.groups.typing.features.slice().reverse();
    expect(() => validateWeights(w)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'groups.typing.features' }));
  });

  it(`refuses a model of ${MAX_PARAMS} parameters or more`, () => {
    const w = heuristicWeightsFile();
    const width = w.groups.relation.features.length;
    // one hidden layer of 2,000 units: 24·2000 + 2000 + 2000·12 + 12 > 50k
    w.groups.relation.hidden = [{ weights: Array.from({ length: width }, () => new Array(2000).fill(0)), bias: new Array(2000).fill(0) }];
    for (const out of Object.values(w.groups.relation.outputs)) out.weights = Array.from({ length: 2000 }, () => new Array(out.labels.length).fill(0));
    expect(() => validateWeights(w)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', field: 'groups' }));
  });
});

describe('quantizeColumns', () => {
  it('quantizes each column symmetrically to int8 with s = max|w|/127', () => {
    const m = quantizeColumns([
      [1, -0.5],
      [0.5, 0.25],
    ]);
    expect([...m.scale]).toEqual([Math.fround(1 / 127), Math.fround(0.5 / 127)]);
    expect([...m.q]).toEqual([127, -127, 64, 64]); // 0.5·127 = 63.5 → 64; 0.25/(0.5/127) = 63.5 → 64
    expect([...m.zeroPoint]).toEqual([0, 0]);
  });

  it('reconstructs weights within half a step', () => {
    const w = [[0.3, -2], [1.7, 0.01], [-0.9, 1.2]];
    const m = quantizeColumns(w);
    const back = dequantize(m);
    w.forEach((row, i) => row.forEach((x, j) => expect(Math.abs((back[i * 2 + j] as number) - x)).toBeLessThanOrEqual((m.scale[j] as number) / 2 + 1e-7)));
  });
});

describe('kernels', () => {
  it('refuse an op they do not implement with MODEL_LOAD_FAILED', () => {
    const { onnx } = onnxProto;
    const bytes = onnx.ModelProto.encode({
      irVersion: 7,
      opsetImport: [{ domain: '', version: 13 }],
      graph: {
        name: 'g',
        node: [{ opType: 'Gemm', input: ['x', 'x'], output: ['y'] }],
        input: [{ name: 'x', type: { tensorType: { elemType: 1, shape: { dim: [{ dimParam: 'N' }, { dimValue: 2 }] } } } }],
        output: [{ name: 'y', type: { tensorType: { elemType: 1, shape: { dim: [{ dimParam: 'N' }, { dimValue: 2 }] } } } }],
      },
    }).finish();
    expect(() => compileOnnx(bytes)).toThrow(expect.objectContaining({ code: 'MODEL_LOAD_FAILED' }));
  });

  it('refuse bytes that are not an ONNX model with MODEL_LOAD_FAILED', () => {
    expect(() => compileOnnx(new Uint8Array([0xff, 0xff, 0xff, 0x01, 0x02]))).toThrow(expect.objectContaining({ code: 'MODEL_LOAD_FAILED' }));
  });

  it('equal σ(b + ((x − mean)/std)·W) computed by hand for one stop row', async () => {
    const bytes = new Uint8Array(await readFile(new URL('stop.onnx', DIR)));
    const decoded = decodeOnnx(bytes);
    const t = (name: string): Float32Array | Int8Array => decoded.initializers.get(name)!.data as Float32Array | Int8Array;
    expect(decoded.initializers.has('h0.w_q'), 'stop.onnx has a hidden layer: extend the hand computation below').toBe(false);
    const [mean, std, q, s, b] = [t('mean'), t('std'), t('out.noul.w_q'), t('out.noul.w_scale'), t('out.noul.b')];
    const row = randomRows('stop', 1, 7);
    const out = compileOnnx(bytes).run(row, 1).noul!;
    for (let j = 0; j < 4; j++) {
      let z = b[j] as number;
      for (let i = 0; i < row.length; i++) z += (((row[i] as number) - (mean[i] as number)) / (std[i] as number)) * (q[i * 4 + j] as number) * (s[j] as number);
      expect(out[j]).toBeCloseTo(1 / (1 + Math.exp(-z)), 5);
    }
  });
});

describe('local backend', () => {
  let onnxBackend: LocalSystemOne;
  let tsBackend: LocalSystemOne;

  beforeAll(async () => {
    [onnxBackend, tsBackend] = await Promise.all([createLocalSystemOne({ load, engine: 'onnx' }), createLocalSystemOne({ load, engine: 'ts' })]);
  });
  afterAll(async () => {
    await Promise.all([onnxBackend?.close(), tsBackend?.close()]);
  });

  it('is kind local with the versioned model id; onnx uses wasm in Node', () => {
    expect([onnxBackend.kind, onnxBackend.modelId, onnxBackend.engine]).toEqual(['local', SHIPPED_MODEL_ID, 'onnx']);
    expect(onnxBackend.executionProviders).toEqual(['wasm']);
    expect(tsBackend.engine).toBe('ts');
  });

  it('onnx and ts engines agree within 1e-3 on every head for random rows', async () => {
    for (const [k, group] of HEAD_GROUPS.entries()) {
      const rows = 64;
      const input = randomRows(group, rows, 100 + k);
      const [a, b] = await Promise.all([onnxBackend.runGroup(group, input, rows), tsBackend.runGroup(group, input, rows)]);
      for (const out of GROUP_OUTPUTS[group]) {
        const x = a[out.name]!;
        const y = b[out.name]!;
        expect(x.length, `${group}.${out.name}`).toBe(rows * out.labels.length);
        let worst = 0;
        for (let i = 0; i < x.length; i++) worst = Math.max(worst, Math.abs((x[i] as number) - (y[i] as number)));
        expect(worst, `${group}.${out.name}`).toBeLessThanOrEqual(1e-3);
      }
    }
  });

  it('differs from the float weights of weights.json only by int8 rounding: |Δp| ≤ ¼·Σ|x′_i|·s_j/2 (linear sigmoid heads)', async () => {
    const weights = validateWeights(await weightsOnDisk());
    const linear = HEAD_GROUPS.filter((g) => weights.groups[g].hidden.length === 0);
    expect(linear.length).toBeGreaterThan(0);
    for (const [k, group] of linear.entries()) {
      const rows = 32;
      const input = randomRows(group, rows, 200 + k);
      const quantized = (await tsBackend.runGroup(group, input, rows)).noul!;
      const g = weights.groups[group];
      const out = g.outputs.noul!;
      const scales = quantizeColumns(out.weights).scale;
      const width = g.features.length;
      const cols = out.bias.length;
      for (let r = 0; r < rows; r++) {
        const x = Array.from({ length: width }, (_, i) => ((input[r * width + i] as number) - (g.mean[i] as number)) / (g.std[i] as number));
        const l1 = x.reduce((a, v) => a + Math.abs(v), 0);
        for (let j = 0; j < cols; j++) {
          const z = x.reduce((a, v, i) => a + v * (out.weights[i]![j] as number), out.bias[j] as number);
          const bound = (l1 * (scales[j] as number)) / 2 / 4 + 1e-5;
          expect(Math.abs((quantized[r * cols + j] as number) - 1 / (1 + Math.exp(-z))), `${group} row ${r} col ${j}`).toBeLessThanOrEqual(bound);
        }
      }
    }
  });

  it('built from the hand-set weights, equals the heuristic stand-in up to int8 rounding', () => {
    // Built here from heuristicWeightsFile(), not read from models/: the shipped weights are
    // trained and are meant to differ, so this runs whatever models/ holds.
    const { files } = buildModel(heuristicWeightsFile());
    for (const [k, group] of HEAD_GROUPS.entries()) {
      const input = randomRows(group, 16, 300 + k);
      const q = compileOnnx(files.get(`${group}.onnx`)!).run(input, 16);
      const f = runHeuristicGroup(group, input, 16);
      for (const out of GROUP_OUTPUTS[group]) {
        let worst = 0;
        q[out.name]!.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - (f[out.name]![i] as number)))));
        expect(worst, `${group}.${out.name}`).toBeLessThan(0.05);
      }
    }
  });

  it('gives the same answers with both engines', async () => {
    const req = {
      state: { kind: 'routing', query: 'Why did Melanie start painting, and what kinds of art does she like?', mentions: ['Melanie'] },
      questions: Object.fromEntries((['route.semantic', 'route.temporal', 'route.causal', 'route.entity', 'route.multi_hop', 'route.recency'] as const).map((id) => [id, CATALOGUE[id]])),
    };
    expect(await onnxBackend.decide(req)).toEqual(await tsBackend.decide(req));
  });

  it('runs onnxruntime once per group for a whole decideMany', async () => {
    const run = vi.spyOn((ort.InferenceSession as unknown as { prototype: ort.InferenceSession }).prototype, 'run');
    try {
      const candidates = Array.from({ length: 12 }, (_, i) => ({
        ref: `c${i}`, text: `memory ${i}`,
        signals: { cosine: i / 12, vectorRank: i + 1, lexical: 0.5, lexicalRank: i + 1, rrf: 0.01, overlap: 0.2, speakerNamed: 0, otherSpeakerNamed: 0, hops: 1, edgeWeight: 0.5, neighbourLexical: 0, sessionDistance: 0, evidenceCosine: 0, hasDate: 0, words: 5, image: 0 },
      }));
      const cand = { state: { kind: 'candidates', query: 'what?', candidates }, questions: Object.fromEntries(candidates.map((c) => [questionKey('cand.relevance', c.ref), CATALOGUE['cand.relevance']])) };
      const typing = { state: { kind: 'typing', observation: { text: 'hi' } }, questions: { 'type.episodic': CATALOGUE['type.episodic'] } };
      await onnxBackend.decideMany([cand, typing, cand, typing]);
      expect(run).toHaveBeenCalledTimes(2);
      const feeds = run.mock.calls.map((c) => (c[0] as Record<string, ort.Tensor>).features!.dims);
      expect(feeds).toEqual([[2, FEATURE_NAMES.typing.length], [24, FEATURE_NAMES.candidates.length]]);
    } finally {
      run.mockRestore();
    }
  });

  it('rejects calls after close() with CLOSED', async () => {
    const b = await createLocalSystemOne({ load, engine: 'ts' });
    await b.close();
    const error = await b.decide({ state: 'x', questions: { 'type.episodic': CATALOGUE['type.episodic'] } }).catch((e: unknown) => e);
    expect(isJevMemError(error, 'CLOSED')).toBe(true);
  });
});

describe('model loading failures', () => {
  const tamper = (target: string, change: (bytes: Uint8Array) => Uint8Array): AssetLoader => async (path) => {
    const bytes = await load(path);
    return path === target ? change(bytes) : bytes;
  };

  it('reject a file that fails its checksum with MODEL_LOAD_FAILED', async () => {
    const flipped = tamper('system-one/stop.onnx', (b) => {
      const c = b.slice();
      c[c.length - 1] = (c[c.length - 1] as number) ^ 1;
      return c;
    });
    await expect(createLocalSystemOne({ load: flipped, engine: 'ts' })).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('checksum') });
  });

  it('reject a missing file with MODEL_LOAD_FAILED', async () => {
    const missing: AssetLoader = async (path) => {
      if (path.endsWith('routing.onnx')) throw new Error('ENOENT');
      return load(path);
    };
    await expect(createLocalSystemOne({ load: missing, engine: 'ts' })).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('routing.onnx') });
  });

  it('reject a model built for another feature version with MODEL_LOAD_FAILED', async () => {
    const other = tamper('system-one/manifest.json', (b) =>
      new TextEncoder().encode(new TextDecoder().decode(b).replace(FEATURE_VERSION, 'jev-mem/system-one-features@0')));
    await expect(createLocalSystemOne({ load: other })).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', message: expect.stringContaining('features') });
  });

  it('reject an unknown engine with INVALID_OPTION', async () => {
    await expect(createLocalSystemOne({ load, engine: 'gpu' as never })).rejects.toMatchObject({ code: 'INVALID_OPTION', field: 'engine' });
  });
});
