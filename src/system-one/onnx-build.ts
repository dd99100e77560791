/**
 * Builds the quantized ONNX file of one System-One head group from its float weights
 * (onnx-model.ts; the graph is drawn there), written with `@bufbuild/protobuf/wire` in
 * field-number order, which gives the same bytes as onnx-proto's encoder.
 *
 * @module
 */
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { FEATURE_VERSION, type HeadGroup } from './features.js';
import { GROUP_OUTPUTS } from './heads.js';
import { INPUT_NAME, IR_VERSION, OPSET, type DenseLayer, type GroupWeights, type OutputLayer } from './onnx-model.js';
import { quantizeColumns } from './onnx-quantize.js';
import { ONNX_ATTRIBUTE_TYPE, ONNX_DATA_TYPE, ONNX_FIELDS } from './onnx-wire.js';

const F = ONNX_FIELDS;
const LEN = WireType.LengthDelimited;
const VARINT = WireType.Varint;

const bytesOf = (a: Float32Array | Int8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Writes a length-delimited sub-message `field` with `body`. */
function sub(w: BinaryWriter, field: number, body: (w: BinaryWriter) => void): void {
  w.tag(field, LEN).fork();
  body(w);
  w.join();
}

function writeTensor(w: BinaryWriter, name: string, dims: number[], dataType: number, raw: Uint8Array): void {
  w.tag(F.tensor.dims, LEN).fork();
  for (const d of dims) w.int64(d);
  w.join();
  w.tag(F.tensor.dataType, VARINT).int32(dataType);
  w.tag(F.tensor.name, LEN).string(name);
  w.tag(F.tensor.rawData, LEN).bytes(raw);
}

function writeValueInfo(w: BinaryWriter, name: string, width: number): void {
  w.tag(F.valueInfo.name, LEN).string(name);
  sub(w, F.valueInfo.type, (w) =>
    sub(w, F.type.tensorType, (w) => {
      w.tag(F.tensorType.elemType, VARINT).int32(ONNX_DATA_TYPE.FLOAT);
      sub(w, F.tensorType.shape, (w) => {
        sub(w, F.shape.dim, (w) => w.tag(F.dim.dimParam, LEN).string('N'));
        sub(w, F.shape.dim, (w) => w.tag(F.dim.dimValue, VARINT).int64(width));
      });
    }),
  );
}

interface BuiltNode {
  opType: string;
  inputs: string[];
  output: string;
  /** Integer attributes. */
  ints?: Record<string, number>;
}

function writeNode(w: BinaryWriter, n: BuiltNode): void {
  for (const i of n.inputs) w.tag(F.node.input, LEN).string(i);
  w.tag(F.node.output, LEN).string(n.output);
  w.tag(F.node.name, LEN).string(n.output);
  w.tag(F.node.opType, LEN).string(n.opType);
  for (const [name, i] of Object.entries(n.ints ?? {})) {
    sub(w, F.node.attribute, (w) => {
      w.tag(F.attribute.name, LEN).string(name);
      w.tag(F.attribute.i, VARINT).int64(i);
      w.tag(F.attribute.type, VARINT).int32(ONNX_ATTRIBUTE_TYPE.INT);
    });
  }
}

interface BuiltTensor {
  name: string;
  dims: number[];
  dataType: number;
  raw: Uint8Array;
}

const floatTensor = (name: string, values: readonly number[] | Float32Array): BuiltTensor => {
  const data = Float32Array.from(values);
  return { name, dims: [data.length], dataType: ONNX_DATA_TYPE.FLOAT, raw: bytesOf(data) };
};

const int8Tensor = (name: string, dims: number[], data: Int8Array): BuiltTensor => ({ name, dims, dataType: ONNX_DATA_TYPE.INT8, raw: bytesOf(data) });

/** Facts written into each ONNX file's `metadata_props`. */
export interface OnnxMetadata {
  modelVersion: string;
  trained: boolean;
}

/** Metadata keys of the built files. */
export const METADATA_KEYS = {
  group: 'jev-mem.group',
  featureVersion: 'jev-mem.feature_version',
  features: 'jev-mem.features',
  outputs: 'jev-mem.outputs',
  modelVersion: 'jev-mem.model_version',
  trained: 'jev-mem.trained',
} as const;

/**
 * Builds the quantized ONNX file of one group (see the module graph). Deterministic: the same
 * weights give the same bytes.
 * @param weights - a group of a file that passed `validateWeights` (onnx-model.ts).
 */
export function buildGroupOnnx(group: HeadGroup, weights: GroupWeights, meta: OnnxMetadata): Uint8Array {
  const initializer: BuiltTensor[] = [floatTensor('mean', weights.mean), floatTensor('std', weights.std)];
  const nodes: BuiltNode[] = [
    { opType: 'Sub', inputs: [INPUT_NAME, 'mean'], output: 'centred' },
    { opType: 'Div', inputs: ['centred', 'std'], output: 'x' },
  ];
  const dense = (prefix: string, input: string, layer: DenseLayer): string => {
    const m = quantizeColumns(layer.weights);
    initializer.push(
      int8Tensor(`${prefix}.w_q`, [m.rows, m.cols], m.q),
      floatTensor(`${prefix}.w_scale`, m.scale),
      int8Tensor(`${prefix}.w_zero`, [m.cols], m.zeroPoint),
      floatTensor(`${prefix}.b`, layer.bias),
    );
    nodes.push(
      { opType: 'DequantizeLinear', inputs: [`${prefix}.w_q`, `${prefix}.w_scale`, `${prefix}.w_zero`], output: `${prefix}.w`, ints: { axis: 1 } },
      { opType: 'MatMul', inputs: [input, `${prefix}.w`], output: `${prefix}.mm` },
      { opType: 'Add', inputs: [`${prefix}.mm`, `${prefix}.b`], output: `${prefix}.z` },
    );
    return `${prefix}.z`;
  };
  let x = 'x';
  weights.hidden.forEach((layer, i) => {
    const z = dense(`h${i}`, x, layer);
    nodes.push({ opType: 'Relu', inputs: [z], output: `h${i}` });
    x = `h${i}`;
  });
  const outputs: Array<{ name: string; width: number }> = [];
  for (const spec of GROUP_OUTPUTS[group]) {
    const layer = weights.outputs[spec.name] as OutputLayer;
    const z = dense(`out.${spec.name}`, x, layer);
    nodes.push(spec.activation === 'sigmoid' ? { opType: 'Sigmoid', inputs: [z], output: spec.name } : { opType: 'Softmax', inputs: [z], output: spec.name, ints: { axis: -1 } });
    outputs.push({ name: spec.name, width: spec.labels.length });
  }
  const metadataProps: Array<[string, string]> = [
    [METADATA_KEYS.group, group],
    [METADATA_KEYS.featureVersion, FEATURE_VERSION],
    [METADATA_KEYS.features, JSON.stringify(weights.features)],
    [METADATA_KEYS.outputs, JSON.stringify(GROUP_OUTPUTS[group])],
    [METADATA_KEYS.modelVersion, meta.modelVersion],
    [METADATA_KEYS.trained, String(meta.trained)],
  ];
  const w = new BinaryWriter();
  w.tag(F.model.irVersion, VARINT).int64(IR_VERSION);
  w.tag(F.model.producerName, LEN).string('jev-mem scripts/build-system-one.ts');
  w.tag(F.model.producerVersion, LEN).string(meta.modelVersion);
  w.tag(F.model.domain, LEN).string('jev-mem');
  w.tag(F.model.docString, LEN).string(`jev-mem System One, head group "${group}" (${meta.trained ? 'trained' : 'hand-set, not trained'} weights).`);
  sub(w, F.model.graph, (w) => {
    for (const n of nodes) sub(w, F.graph.node, (w) => writeNode(w, n));
    w.tag(F.graph.name, LEN).string(`jev-mem-system-one-${group}`);
    for (const t of initializer) sub(w, F.graph.initializer, (w) => writeTensor(w, t.name, t.dims, t.dataType, t.raw));
    sub(w, F.graph.input, (w) => writeValueInfo(w, INPUT_NAME, weights.features.length));
    for (const o of outputs) sub(w, F.graph.output, (w) => writeValueInfo(w, o.name, o.width));
  });
  sub(w, F.model.opsetImport, (w) => {
    w.tag(F.opset.domain, LEN).string('');
    w.tag(F.opset.version, VARINT).int64(OPSET);
  });
  for (const [key, value] of metadataProps) {
    sub(w, F.model.metadataProps, (w) => {
      w.tag(F.entry.key, LEN).string(key);
      w.tag(F.entry.value, LEN).string(value);
    });
  }
  return w.finish();
}
