/**
 * The runtime ONNX codec (src/system-one/onnx-build.ts and onnx-decode.ts, `@bufbuild/protobuf/wire`) against the
 * reference onnx-proto classes (a devDependency only): for every shipped `.onnx` file the decoder
 * reads exactly the tensors, nodes, shapes and metadata onnx-proto reads, and rebuilding the
 * shipped weights gives the shipped bytes.
 */
import { readFile } from 'node:fs/promises';
import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';
import { HEAD_GROUPS } from '../../src/system-one/features.js';
import { buildGroupOnnx } from '../../src/system-one/onnx-build.js';
import { decodeOnnx } from '../../src/system-one/onnx-decode.js';
import { validateWeights } from '../../src/system-one/onnx-model.js';

const { onnx } = onnxProto;
const DIR = new URL('../../models/system-one/', import.meta.url);
const num = (v: unknown): number => (typeof v === 'object' && v !== null && 'toNumber' in v ? (v as { toNumber(): number }).toNumber() : Number(v));

/** The reference reading of one tensor: dims and values as plain numbers. */
function reference(t: onnxProto.onnx.ITensorProto): { dims: number[]; values: number[] } {
  const raw = t.rawData as Uint8Array;
  const dims = (t.dims ?? []).map(num);
  if (t.dataType === onnx.TensorProto.DataType.FLOAT) {
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    return { dims, values: Array.from({ length: raw.length / 4 }, (_, i) => view.getFloat32(i * 4, true)) };
  }
  if (t.dataType === onnx.TensorProto.DataType.INT8) return { dims, values: [...new Int8Array(raw.buffer, raw.byteOffset, raw.byteLength)] };
  throw new Error(`unexpected data type ${String(t.dataType)} in ${String(t.name)}`);
}

describe('the runtime ONNX decoder', () => {
  for (const group of HEAD_GROUPS) {
    it(`reads ${group}.onnx exactly as onnx-proto does`, async () => {
      const bytes = new Uint8Array(await readFile(new URL(`${group}.onnx`, DIR)));
      const ref = onnx.ModelProto.decode(bytes);
      const ours = decodeOnnx(bytes);
      const graph = ref.graph as onnxProto.onnx.GraphProto;

      expect(ours.opset).toBe(13);
      expect(ours.opset).toBe(num(ref.opsetImport.find((o) => (o.domain ?? '') === '')?.version));
      // every initializer, value for value
      expect([...ours.initializers.keys()]).toEqual(graph.initializer.map((t) => t.name));
      expect(graph.initializer.length).toBeGreaterThan(4);
      for (const t of graph.initializer) {
        const got = ours.initializers.get(t.name) as { dims: number[]; data: ArrayLike<number> };
        const want = reference(t);
        expect(got.dims, t.name).toEqual(want.dims);
        expect([...Array.from(got.data)], t.name).toEqual(want.values);
      }
      // nodes with their attributes
      expect(ours.nodes.map((n) => [n.opType, n.inputs, n.outputs, n.attributes])).toEqual(
        graph.node.map((n) => [n.opType, n.input, n.output, Object.fromEntries(n.attribute.map((a) => [a.name, num(a.i)]))]),
      );
      expect(ours.nodes.find((n) => n.opType === 'DequantizeLinear')?.attributes).toEqual({ axis: 1 });
      // inputs / outputs with their symbolic and fixed dims
      const dims = (v: onnxProto.onnx.IValueInfoProto): Array<number | string> =>
        (v.type?.tensorType?.shape?.dim ?? []).map((d) => (d.dimParam ? d.dimParam : num(d.dimValue)));
      expect(ours.inputs).toEqual(graph.input.map((v) => ({ name: v.name, dims: dims(v) })));
      expect(ours.inputs[0]?.dims[0]).toBe('N');
      expect(ours.outputs).toEqual(graph.output.map((v) => ({ name: v.name, dims: dims(v) })));
      expect(ours.metadata).toEqual(Object.fromEntries(ref.metadataProps.map((p) => [p.key, p.value])));
      expect(ours.metadata['jev-mem.group']).toBe(group);
    });
  }

  it('refuses bytes that are not an ONNX model with MODEL_LOAD_FAILED', () => {
    expect(() => decodeOnnx(new TextEncoder().encode('<!doctype html><title>404</title>'))).toThrow(expect.objectContaining({ code: 'MODEL_LOAD_FAILED' }));
  });
});

describe('the runtime ONNX builder', () => {
  it('rebuilds every shipped file byte for byte from weights.json', async () => {
    const weights = validateWeights(JSON.parse(await readFile(new URL('weights.json', DIR), 'utf8')));
    for (const group of HEAD_GROUPS) {
      const shipped = new Uint8Array(await readFile(new URL(`${group}.onnx`, DIR)));
      const built = buildGroupOnnx(group, weights.groups[group], { modelVersion: weights.version, trained: weights.training.trained });
      expect(Buffer.from(built).equals(Buffer.from(shipped)), `${group}.onnx`).toBe(true);
    }
  });
});
