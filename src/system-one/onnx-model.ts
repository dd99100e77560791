/**
 * The shipped System-One model format (SPEC 5, 9): the float weights file a trainer writes, its
 * int8 quantization, the ONNX graph built from it, the decoder the TypeScript kernels use, and
 * the manifest that lists the files.
 *
 * One ONNX file per head group (`<group>.onnx`), opset 13:
 *
 * ```
 * features [N,F] ─Sub(mean)─Div(std)─► x                      (standardisation baked in)
 * x ─MatMul(DequantizeLinear(Wq,s,z))─Add(b)─Relu─► h          (0 or more hidden layers)
 * h ─MatMul(DequantizeLinear(Wq,s,z))─Add(b)─Sigmoid|Softmax─► <output> [N,k]   (one per output)
 * ```
 *
 * Weights are int8, symmetric, one scale per output column (`DequantizeLinear` axis 1, zero
 * point 0): s_j = max_i |W_ij| / 127, q_ij = round(W_ij / s_j). Biases, means and standard
 * deviations stay float32. The ONNX file is the one source of truth for the numbers: the
 * onnxruntime engine runs it, and the TypeScript kernels decode and run the same file.
 *
 * The protobuf wire format is written and read with `@bufbuild/protobuf/wire` (no generated ONNX
 * classes at run time): only the subset of onnx.proto listed in {@link ONNX_FIELDS} is written,
 * in field-number order, which gives the same bytes as onnx-proto's encoder (the tests check it
 * against every shipped file and decode each with onnx-proto too).
 *
 * @module
 */
import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { JevMemError } from '../errors.js';
import { FEATURE_NAMES, FEATURE_VERSION, HEAD_GROUPS, type HeadGroup } from './features.js';
import { GROUP_OUTPUTS } from './heads.js';

/** Format tag of the weights file (`models/system-one/weights.json`). */
export const WEIGHTS_FORMAT = 'jev-mem/system-one-weights@1';
/** Format tag of the manifest (`models/system-one/manifest.json`). */
export const MANIFEST_FORMAT = 'jev-mem/system-one-manifest@1';
/** Model id prefix; the versioned id is `jev-mem/system-one@<version>`. */
export const MODEL_NAME = 'jev-mem/system-one';
/** ONNX opset of the built graphs (DequantizeLinear with `axis`, Softmax over the last axis). */
export const OPSET = 13;
/** ONNX IR version of the built files (the lowest that carries opset 13). */
export const IR_VERSION = 7;
/** The most parameters (weights + biases, all groups) a shipped model may have. */
export const MAX_PARAMS = 50_000;
/** Name of each graph's input (rows × features, float32). */
export const INPUT_NAME = 'features';

/** A dense layer: `weights[i][j]` maps input i to output j; one bias per output. */
export interface DenseLayer {
  weights: number[][];
  bias: number[];
}

/** One output layer of a group's network. */
export interface OutputLayer extends DenseLayer {
  activation: 'sigmoid' | 'softmax';
  /** Column labels; must equal `GROUP_OUTPUTS` of heads.ts. */
  labels: string[];
}

/** Float weights of one head group, as a trainer writes them. */
export interface GroupWeights {
  /** Feature names in row order; must equal `FEATURE_NAMES[group]`. */
  features: string[];
  /** Standardisation: x' = (x − mean) / std, per feature. */
  mean: number[];
  /** Per-feature standard deviation (> 0). */
  std: number[];
  /** Hidden layers, each followed by Relu; empty for a linear (logistic) model. */
  hidden: DenseLayer[];
  /** Output layers by output name (`noul`, `temporal`, `representation`). */
  outputs: Record<string, OutputLayer>;
}

/** Decision thresholds shipped with the model (SPEC 5 "calibrated per backend", SPEC 8). */
export interface Thresholds {
  /** θ_rel, edge insertion (eq. (9)). */
  theta_rel: number;
  /** θ_act, view activation (eq. (12)). */
  theta_act: number;
  /** θ_suff, sufficiency (eq. (21)). */
  theta_suff: number;
  /** θ_cont, continue / missing / contradiction (eq. (21)-(22)). */
  theta_cont: number;
  /** True only when a calibration run on held-out data chose these values. */
  calibrated: boolean;
  /** Where the values come from. */
  source: string;
}

/** How the weights were obtained. */
export interface TrainingInfo {
  /** False for hand-set weights. */
  trained: boolean;
  /** `hand-set`, `logistic-regression`, `mlp`… */
  method: string;
  /** Free text for the model card. */
  note: string;
  /** Training data (e.g. `LoCoMo development split (conv-26, 30, 41, 42, 43)`), null when none. */
  data: string | null;
  /** Held-out metrics, null when none. */
  metrics: Record<string, number> | null;
}

/** The weights file (`models/system-one/weights.json`) the build script reads. */
export interface SystemOneWeights {
  format: typeof WEIGHTS_FORMAT;
  /** Model version (semver); the model id is `jev-mem/system-one@<version>`. */
  version: string;
  /** Must equal {@link FEATURE_VERSION}. */
  featureVersion: string;
  training: TrainingInfo;
  thresholds: Thresholds;
  /**
   * Read parameters calibrated for this model on the development split (keys of
   * `MemoryParameters`, e.g. `anchors`, `maxVisited`, `lambdas`); absent = SPEC 8.
   */
  parameters?: Record<string, number | number[]>;
  groups: Record<HeadGroup, GroupWeights>;
}

/** One file listed in the manifest. */
export interface ManifestFile {
  /** Path relative to the manifest's directory. */
  path: string;
  /** Lower-case hex SHA-256 of the file. */
  sha256: string;
  /** Size in bytes. */
  bytes: number;
}

/** The model manifest (`models/system-one/manifest.json`). */
export interface SystemOneManifest {
  format: typeof MANIFEST_FORMAT;
  id: typeof MODEL_NAME;
  version: string;
  featureVersion: string;
  files: ManifestFile[];
  /** Per group: its file, input width and outputs. */
  groups: Record<HeadGroup, { file: string; input: string; inputSize: number; hidden: number[]; outputs: Array<{ name: string; activation: string; labels: string[] }> }>;
  /** Catalogue id → group / output / column / type. */
  heads: Record<string, { group: string; output: string; index: number; type: string }>;
  thresholds: Thresholds;
  /** Calibrated read parameters (see {@link SystemOneWeights.parameters}). */
  parameters?: Record<string, number | number[]>;
  training: TrainingInfo;
  quantization: { scheme: string; weights: string; scale: string; zeroPoint: number; opset: number };
  /** Weights + biases over all groups. */
  params: number;
}

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

function bad(field: string, message: string): JevMemError {
  return new JevMemError('INVALID_INPUT', `weights ${field}: ${message}`, { field });
}

function checkVector(field: string, v: unknown, n: number): asserts v is number[] {
  if (!Array.isArray(v) || v.length !== n) throw bad(field, `expected ${n} numbers, got ${Array.isArray(v) ? v.length : typeof v}`);
  v.forEach((x, i) => {
    if (typeof x !== 'number' || !Number.isFinite(x)) throw bad(`${field}.${i}`, `expected a finite number, got ${String(x)}`);
  });
}

function checkDense(field: string, layer: DenseLayer, inputs: number): number {
  if (!Array.isArray(layer?.weights) || layer.weights.length !== inputs) {
    throw bad(`${field}.weights`, `expected ${inputs} rows (one per input), got ${Array.isArray(layer?.weights) ? layer.weights.length : typeof layer?.weights}`);
  }
  const outputs = layer.weights[0]?.length ?? 0;
  if (outputs === 0) throw bad(`${field}.weights`, 'expected at least one output column');
  layer.weights.forEach((row, i) => checkVector(`${field}.weights.${i}`, row, outputs));
  checkVector(`${field}.bias`, layer.bias, outputs);
  return outputs;
}

/** Weights + biases of one group. */
export function countGroupParams(g: GroupWeights): number {
  let n = 0;
  for (const l of [...g.hidden, ...Object.values(g.outputs)]) n += l.weights.length * (l.weights[0]?.length ?? 0) + l.bias.length;
  return n;
}

/**
 * Checks a weights file against the feature lists, the head outputs and {@link MAX_PARAMS}.
 * @returns the file, typed.
 * @throws JevMemError `INVALID_INPUT` naming the offending field (e.g. `groups.typing.mean`).
 */
export function validateWeights(value: unknown): SystemOneWeights {
  const w = value as SystemOneWeights;
  if (typeof w !== 'object' || w === null) throw bad('file', 'expected an object');
  if (w.format !== WEIGHTS_FORMAT) throw bad('format', `expected "${WEIGHTS_FORMAT}", got ${JSON.stringify(w.format)}`);
  if (typeof w.version !== 'string' || !/^\d+\.\d+\.\d+([-+].*)?$/.test(w.version)) throw bad('version', `expected a semver string, got ${JSON.stringify(w.version)}`);
  if (w.featureVersion !== FEATURE_VERSION) throw bad('featureVersion', `expected "${FEATURE_VERSION}" (features.ts), got ${JSON.stringify(w.featureVersion)}`);
  if (typeof w.training?.trained !== 'boolean') throw bad('training.trained', 'expected a boolean');
  for (const k of ['theta_rel', 'theta_act', 'theta_suff', 'theta_cont'] as const) {
    const t = w.thresholds?.[k];
    if (typeof t !== 'number' || !(t >= 0 && t <= 1)) throw bad(`thresholds.${k}`, `expected a number in [0,1], got ${String(t)}`);
  }
  let params = 0;
  for (const group of HEAD_GROUPS) {
    const g = w.groups?.[group];
    const at = `groups.${group}`;
    if (g === undefined) throw bad(at, 'missing');
    const names = FEATURE_NAMES[group];
    if (!Array.isArray(g.features) || g.features.join(',') !== names.join(',')) {
      throw bad(`${at}.features`, `expected the ${names.length} names of FEATURE_NAMES.${group} in order`);
    }
    checkVector(`${at}.mean`, g.mean, names.length);
    checkVector(`${at}.std`, g.std, names.length);
    g.std.forEach((s, i) => {
      if (!(s > 0)) throw bad(`${at}.std.${i}`, `expected a standard deviation > 0, got ${s}`);
    });
    let width = names.length;
    (g.hidden ?? []).forEach((layer, i) => {
      width = checkDense(`${at}.hidden.${i}`, layer, width);
    });
    const expectedOutputs = GROUP_OUTPUTS[group];
    const gotOutputs = Object.keys(g.outputs ?? {});
    if (gotOutputs.sort().join(',') !== expectedOutputs.map((o) => o.name).sort().join(',')) {
      throw bad(`${at}.outputs`, `expected the outputs [${expectedOutputs.map((o) => o.name).join(', ')}], got [${gotOutputs.join(', ')}]`);
    }
    for (const spec of expectedOutputs) {
      const out = g.outputs[spec.name] as OutputLayer;
      const oat = `${at}.outputs.${spec.name}`;
      if (out.activation !== spec.activation) throw bad(`${oat}.activation`, `expected "${spec.activation}", got ${JSON.stringify(out.activation)}`);
      if (!Array.isArray(out.labels) || out.labels.join(',') !== spec.labels.join(',')) throw bad(`${oat}.labels`, `expected [${spec.labels.join(', ')}]`);
      const cols = checkDense(oat, out, width);
      if (cols !== spec.labels.length) throw bad(`${oat}.weights`, `expected ${spec.labels.length} columns, got ${cols}`);
    }
    params += countGroupParams(g);
  }
  if (params >= MAX_PARAMS) throw bad('groups', `the model has ${params} parameters; the limit is ${MAX_PARAMS}`);
  return w;
}

// ---------------------------------------------------------------------------------------------
// Quantization
// ---------------------------------------------------------------------------------------------

/** An int8 matrix with one float scale and zero point per column: W ≈ (q − z) · s. */
export interface QuantizedMatrix {
  rows: number;
  cols: number;
  /** Row-major rows × cols. */
  q: Int8Array;
  /** One per column, float32. */
  scale: Float32Array;
  /** One per column (all 0: symmetric). */
  zeroPoint: Int8Array;
}

/**
 * Symmetric per-column int8 quantization: s_j = max_i |W_ij| / 127 (1 for an all-zero column),
 * q_ij = round(W_ij / s_j) in [-127, 127], z_j = 0. Deterministic.
 * @param weights - rows × cols, `weights[i][j]`.
 */
export function quantizeColumns(weights: readonly (readonly number[])[]): QuantizedMatrix {
  const rows = weights.length;
  const cols = weights[0]?.length ?? 0;
  const q = new Int8Array(rows * cols);
  const scale = new Float32Array(cols);
  for (let j = 0; j < cols; j++) {
    let max = 0;
    for (let i = 0; i < rows; i++) max = Math.max(max, Math.abs(weights[i]?.[j] ?? 0));
    const s = Math.fround(max > 0 ? max / 127 : 1);
    scale[j] = s;
    for (let i = 0; i < rows; i++) q[i * cols + j] = Math.max(-127, Math.min(127, Math.round((weights[i]?.[j] ?? 0) / s)));
  }
  return { rows, cols, q, scale, zeroPoint: new Int8Array(cols) };
}

/** The float matrix a {@link QuantizedMatrix} stands for: (q − z) · s, row-major. */
export function dequantize(m: QuantizedMatrix): Float32Array {
  const out = new Float32Array(m.rows * m.cols);
  for (let i = 0; i < m.rows; i++) {
    for (let j = 0; j < m.cols; j++) out[i * m.cols + j] = ((m.q[i * m.cols + j] as number) - (m.zeroPoint[j] as number)) * (m.scale[j] as number);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// ONNX wire subset (onnx.proto field numbers)
// ---------------------------------------------------------------------------------------------

/** The onnx.proto field numbers this module writes and reads (source: onnx/onnx.proto, IR 7). */
export const ONNX_FIELDS = {
  model: { irVersion: 1, producerName: 2, producerVersion: 3, domain: 4, docString: 6, graph: 7, opsetImport: 8, metadataProps: 14 },
  opset: { domain: 1, version: 2 },
  entry: { key: 1, value: 2 },
  graph: { node: 1, name: 2, initializer: 5, input: 11, output: 12 },
  node: { input: 1, output: 2, name: 3, opType: 4, attribute: 5, domain: 7 },
  attribute: { name: 1, f: 2, i: 3, type: 20 },
  tensor: { dims: 1, dataType: 2, floatData: 4, int32Data: 5, name: 8, rawData: 9 },
  valueInfo: { name: 1, type: 2 },
  type: { tensorType: 1 },
  tensorType: { elemType: 1, shape: 2 },
  shape: { dim: 1 },
  dim: { dimValue: 1, dimParam: 2 },
} as const;

/** ONNX `TensorProto.DataType` values used here. */
export const ONNX_DATA_TYPE = { FLOAT: 1, UINT8: 2, INT8: 3 } as const;
/** ONNX `AttributeProto.AttributeType` values used here. */
export const ONNX_ATTRIBUTE_TYPE = { FLOAT: 1, INT: 2 } as const;

const F = ONNX_FIELDS;
const LEN = WireType.LengthDelimited;
const VARINT = WireType.Varint;

// ---------------------------------------------------------------------------------------------
// ONNX building
// ---------------------------------------------------------------------------------------------

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
 * @param weights - a group of a file that passed {@link validateWeights}.
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

// ---------------------------------------------------------------------------------------------
// ONNX decoding (for the TypeScript kernels)
// ---------------------------------------------------------------------------------------------

/** A decoded initializer. */
export interface DecodedTensor {
  name: string;
  dims: number[];
  /** Float32 for FLOAT, Int8Array for INT8, Uint8Array for UINT8. */
  data: Float32Array | Int8Array | Uint8Array;
}

/** A decoded graph node. */
export interface DecodedNode {
  opType: string;
  domain: string;
  inputs: string[];
  outputs: string[];
  /** Integer and float attributes by name (others are ignored). */
  attributes: Record<string, number>;
}

/** The parts of an ONNX model the kernels execute. */
export interface DecodedModel {
  opset: number;
  inputs: Array<{ name: string; dims: Array<number | string> }>;
  outputs: Array<{ name: string; dims: Array<number | string> }>;
  initializers: Map<string, DecodedTensor>;
  /** In file order (ONNX requires topological order). */
  nodes: DecodedNode[];
  metadata: Record<string, string>;
}

function loadFailed(message: string, cause?: unknown): JevMemError {
  return new JevMemError('MODEL_LOAD_FAILED', `System-One ONNX: ${message}`, cause === undefined ? {} : { cause });
}

/** Calls `onField` for every field of the message in `bytes`; unknown fields are skipped. */
function readMessage(bytes: Uint8Array, onField: (field: number, wire: WireType, r: BinaryReader) => boolean): void {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (!onField(field, wire, r)) r.skip(wire, field);
  }
}

/** A repeated integer field: packed (length-delimited) or one value per tag. */
function readInts(wire: WireType, r: BinaryReader, read: (r: BinaryReader) => number, into: number[]): void {
  if (wire === LEN) {
    const packed = new BinaryReader(r.bytes());
    while (packed.pos < packed.len) into.push(read(packed));
  } else into.push(read(r));
}

const int64 = (r: BinaryReader): number => Number(r.int64());

interface RawTensor {
  name: string;
  dims: number[];
  dataType: number;
  raw: Uint8Array;
  floatData: number[];
  int32Data: number[];
}

function readTensor(bytes: Uint8Array): RawTensor {
  const t: RawTensor = { name: '', dims: [], dataType: 0, raw: new Uint8Array(0), floatData: [], int32Data: [] };
  readMessage(bytes, (field, wire, r) => {
    if (field === F.tensor.dims) readInts(wire, r, int64, t.dims);
    else if (field === F.tensor.dataType) t.dataType = r.int32();
    else if (field === F.tensor.name) t.name = r.string();
    else if (field === F.tensor.rawData) t.raw = r.bytes();
    else if (field === F.tensor.int32Data) readInts(wire, r, (x) => x.int32(), t.int32Data);
    else if (field === F.tensor.floatData) readInts(wire, r, (x) => x.float(), t.floatData);
    else return false;
    return true;
  });
  return t;
}

function decodeTensor(t: RawTensor): DecodedTensor {
  const { name, dims, raw } = t;
  const count = dims.reduce((a, b) => a * b, 1);
  switch (t.dataType) {
    case ONNX_DATA_TYPE.FLOAT: {
      const data = new Float32Array(count);
      if (raw.length > 0) {
        if (raw.length !== count * 4) throw loadFailed(`initializer ${name}: ${raw.length} raw bytes for ${count} floats`);
        const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
        for (let i = 0; i < count; i++) data[i] = view.getFloat32(i * 4, true);
      } else {
        if (t.floatData.length !== count) throw loadFailed(`initializer ${name}: ${t.floatData.length} floats for ${count}`);
        data.set(t.floatData);
      }
      return { name, dims, data };
    }
    case ONNX_DATA_TYPE.INT8:
    case ONNX_DATA_TYPE.UINT8: {
      const int8 = t.dataType === ONNX_DATA_TYPE.INT8;
      const data = int8 ? new Int8Array(count) : new Uint8Array(count);
      if (raw.length > 0) {
        if (raw.length !== count) throw loadFailed(`initializer ${name}: ${raw.length} raw bytes for ${count} values`);
        data.set(int8 ? new Int8Array(raw.buffer, raw.byteOffset, raw.byteLength) : raw);
      } else {
        if (t.int32Data.length !== count) throw loadFailed(`initializer ${name}: ${t.int32Data.length} values for ${count}`);
        data.set(t.int32Data);
      }
      return { name, dims, data };
    }
    default:
      throw loadFailed(`initializer ${name} has data type ${String(t.dataType)}; only FLOAT, INT8 and UINT8 are supported`);
  }
}

function readNode(bytes: Uint8Array): DecodedNode {
  const n: DecodedNode = { opType: '', domain: '', inputs: [], outputs: [], attributes: {} };
  readMessage(bytes, (field, _wire, r) => {
    if (field === F.node.input) n.inputs.push(r.string());
    else if (field === F.node.output) n.outputs.push(r.string());
    else if (field === F.node.opType) n.opType = r.string();
    else if (field === F.node.domain) n.domain = r.string();
    else if (field === F.node.attribute) {
      let name = '';
      let type = 0;
      let i = 0;
      let f = 0;
      readMessage(r.bytes(), (af, _aw, ar) => {
        if (af === F.attribute.name) name = ar.string();
        else if (af === F.attribute.type) type = ar.int32();
        else if (af === F.attribute.i) i = int64(ar);
        else if (af === F.attribute.f) f = ar.float();
        else return false;
        return true;
      });
      if (type === ONNX_ATTRIBUTE_TYPE.INT) n.attributes[name] = i;
      else if (type === ONNX_ATTRIBUTE_TYPE.FLOAT) n.attributes[name] = f;
    } else return false;
    return true;
  });
  return n;
}

function readValueInfo(bytes: Uint8Array): { name: string; dims: Array<number | string> } {
  const v: { name: string; dims: Array<number | string> } = { name: '', dims: [] };
  readMessage(bytes, (field, _wire, r) => {
    if (field === F.valueInfo.name) v.name = r.string();
    else if (field === F.valueInfo.type) {
      readMessage(r.bytes(), (tf, _tw, tr) => {
        if (tf !== F.type.tensorType) return false;
        readMessage(tr.bytes(), (sf, _sw, sr) => {
          if (sf !== F.tensorType.shape) return false;
          readMessage(sr.bytes(), (df, _dw, dr) => {
            if (df !== F.shape.dim) return false;
            let dim: number | string = 0;
            readMessage(dr.bytes(), (xf, _xw, xr) => {
              if (xf === F.dim.dimValue) dim = int64(xr);
              else if (xf === F.dim.dimParam) dim = xr.string() || dim;
              else return false;
              return true;
            });
            v.dims.push(dim);
            return true;
          });
          return true;
        });
        return true;
      });
    } else return false;
    return true;
  });
  return v;
}

/**
 * Decodes an ONNX file into the parts the kernels run (initializers, nodes, inputs, outputs,
 * metadata). Reads only the fields of {@link ONNX_FIELDS}; others are skipped.
 * @throws JevMemError `MODEL_LOAD_FAILED` when the bytes are not a readable ONNX model or hold a
 *   tensor type other than FLOAT / INT8 / UINT8.
 */
export function decodeOnnx(bytes: Uint8Array): DecodedModel {
  let opset = 0;
  let graph: Uint8Array | undefined;
  const metadata: Record<string, string> = {};
  const tensors: RawTensor[] = [];
  const nodes: DecodedNode[] = [];
  const inputs: Array<{ name: string; dims: Array<number | string> }> = [];
  const outputs: Array<{ name: string; dims: Array<number | string> }> = [];
  try {
    readMessage(bytes, (field, _wire, r) => {
      if (field === F.model.graph) graph = r.bytes();
      else if (field === F.model.opsetImport) {
        let domain = '';
        let version = 0;
        readMessage(r.bytes(), (of, _ow, or) => {
          if (of === F.opset.domain) domain = or.string();
          else if (of === F.opset.version) version = int64(or);
          else return false;
          return true;
        });
        if (domain === '') opset = version;
      } else if (field === F.model.metadataProps) {
        let key = '';
        let value = '';
        readMessage(r.bytes(), (ef, _ew, er) => {
          if (ef === F.entry.key) key = er.string();
          else if (ef === F.entry.value) value = er.string();
          else return false;
          return true;
        });
        metadata[key] = value;
      } else return false;
      return true;
    });
    if (graph !== undefined) {
      readMessage(graph, (field, _wire, r) => {
        if (field === F.graph.node) nodes.push(readNode(r.bytes()));
        else if (field === F.graph.initializer) tensors.push(readTensor(r.bytes()));
        else if (field === F.graph.input) inputs.push(readValueInfo(r.bytes()));
        else if (field === F.graph.output) outputs.push(readValueInfo(r.bytes()));
        else return false;
        return true;
      });
    }
  } catch (e) {
    throw loadFailed(`the file is not a readable ONNX model (${e instanceof Error ? e.message : String(e)})`, e);
  }
  if (graph === undefined) throw loadFailed('the model has no graph');
  const initializers = new Map<string, DecodedTensor>();
  for (const t of tensors) initializers.set(t.name, decodeTensor(t));
  return { opset, inputs: inputs.filter((i) => !initializers.has(i.name)), outputs, initializers, nodes, metadata };
}
