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
 * @module
 */
import onnxProto from 'onnx-proto';
import { JevMemError } from '../errors.js';
import { FEATURE_NAMES, FEATURE_VERSION, HEAD_GROUPS, type HeadGroup } from './features.js';
import { GROUP_OUTPUTS } from './heads.js';

const { onnx } = onnxProto;

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
// ONNX building
// ---------------------------------------------------------------------------------------------

const bytesOf = (a: Float32Array | Int8Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function floatTensor(name: string, values: readonly number[] | Float32Array): onnxProto.onnx.ITensorProto {
  const data = Float32Array.from(values);
  return { name, dims: [data.length], dataType: onnx.TensorProto.DataType.FLOAT, rawData: bytesOf(data) };
}

function int8Tensor(name: string, dims: number[], data: Int8Array): onnxProto.onnx.ITensorProto {
  return { name, dims, dataType: onnx.TensorProto.DataType.INT8, rawData: bytesOf(data) };
}

function valueInfo(name: string, width: number): onnxProto.onnx.IValueInfoProto {
  return {
    name,
    type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: [{ dimParam: 'N' }, { dimValue: width }] } } },
  };
}

function node(opType: string, inputs: string[], output: string, attribute: onnxProto.onnx.IAttributeProto[] = []): onnxProto.onnx.INodeProto {
  return { opType, input: inputs, output: [output], name: output, attribute };
}

const intAttr = (name: string, i: number): onnxProto.onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INT, i });

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
  const initializer: onnxProto.onnx.ITensorProto[] = [floatTensor('mean', weights.mean), floatTensor('std', weights.std)];
  const nodes: onnxProto.onnx.INodeProto[] = [node('Sub', [INPUT_NAME, 'mean'], 'centred'), node('Div', ['centred', 'std'], 'x')];
  const dense = (prefix: string, input: string, layer: DenseLayer): string => {
    const m = quantizeColumns(layer.weights);
    initializer.push(
      int8Tensor(`${prefix}.w_q`, [m.rows, m.cols], m.q),
      floatTensor(`${prefix}.w_scale`, m.scale),
      int8Tensor(`${prefix}.w_zero`, [m.cols], m.zeroPoint),
      floatTensor(`${prefix}.b`, layer.bias),
    );
    nodes.push(
      node('DequantizeLinear', [`${prefix}.w_q`, `${prefix}.w_scale`, `${prefix}.w_zero`], `${prefix}.w`, [intAttr('axis', 1)]),
      node('MatMul', [input, `${prefix}.w`], `${prefix}.mm`),
      node('Add', [`${prefix}.mm`, `${prefix}.b`], `${prefix}.z`),
    );
    return `${prefix}.z`;
  };
  let x = 'x';
  weights.hidden.forEach((layer, i) => {
    const z = dense(`h${i}`, x, layer);
    nodes.push(node('Relu', [z], `h${i}`));
    x = `h${i}`;
  });
  const outputs: onnxProto.onnx.IValueInfoProto[] = [];
  for (const spec of GROUP_OUTPUTS[group]) {
    const layer = weights.outputs[spec.name] as OutputLayer;
    const z = dense(`out.${spec.name}`, x, layer);
    nodes.push(spec.activation === 'sigmoid' ? node('Sigmoid', [z], spec.name) : node('Softmax', [z], spec.name, [intAttr('axis', -1)]));
    outputs.push(valueInfo(spec.name, spec.labels.length));
  }
  const metadataProps = [
    { key: METADATA_KEYS.group, value: group },
    { key: METADATA_KEYS.featureVersion, value: FEATURE_VERSION },
    { key: METADATA_KEYS.features, value: JSON.stringify(weights.features) },
    { key: METADATA_KEYS.outputs, value: JSON.stringify(GROUP_OUTPUTS[group]) },
    { key: METADATA_KEYS.modelVersion, value: meta.modelVersion },
    { key: METADATA_KEYS.trained, value: String(meta.trained) },
  ];
  const model = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    producerName: 'jev-mem scripts/build-system-one.ts',
    producerVersion: meta.modelVersion,
    domain: 'jev-mem',
    docString: `jev-mem System One, head group "${group}" (${meta.trained ? 'trained' : 'hand-set, not trained'} weights).`,
    opsetImport: [{ domain: '', version: OPSET }],
    metadataProps,
    graph: {
      name: `jev-mem-system-one-${group}`,
      node: nodes,
      initializer,
      input: [valueInfo(INPUT_NAME, weights.features.length)],
      output: outputs,
    },
  });
  return onnx.ModelProto.encode(model).finish();
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

/** int64 fields decode as numbers or as Long objects depending on the environment. */
function toNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v !== null && typeof v === 'object' && 'toNumber' in v && typeof (v as { toNumber: unknown }).toNumber === 'function') {
    return (v as { toNumber(): number }).toNumber();
  }
  return Number(v);
}

function decodeTensor(t: onnxProto.onnx.ITensorProto): DecodedTensor {
  const name = t.name ?? '';
  const dims = (t.dims ?? []).map(toNumber);
  const count = dims.reduce((a, b) => a * b, 1);
  const raw = t.rawData ?? new Uint8Array(0);
  const Type = onnx.TensorProto.DataType;
  switch (t.dataType) {
    case Type.FLOAT: {
      const data = new Float32Array(count);
      if (raw.length > 0) {
        if (raw.length !== count * 4) throw loadFailed(`initializer ${name}: ${raw.length} raw bytes for ${count} floats`);
        const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
        for (let i = 0; i < count; i++) data[i] = view.getFloat32(i * 4, true);
      } else {
        const fd = t.floatData ?? [];
        if (fd.length !== count) throw loadFailed(`initializer ${name}: ${fd.length} floats for ${count}`);
        data.set(fd);
      }
      return { name, dims, data };
    }
    case Type.INT8:
    case Type.UINT8: {
      const data = t.dataType === Type.INT8 ? new Int8Array(count) : new Uint8Array(count);
      if (raw.length > 0) {
        if (raw.length !== count) throw loadFailed(`initializer ${name}: ${raw.length} raw bytes for ${count} values`);
        data.set(t.dataType === Type.INT8 ? new Int8Array(raw.buffer, raw.byteOffset, raw.byteLength) : raw);
      } else {
        const id = t.int32Data ?? [];
        if (id.length !== count) throw loadFailed(`initializer ${name}: ${id.length} values for ${count}`);
        data.set(id);
      }
      return { name, dims, data };
    }
    default:
      throw loadFailed(`initializer ${name} has data type ${String(t.dataType)}; only FLOAT, INT8 and UINT8 are supported`);
  }
}

function decodeDims(v: onnxProto.onnx.IValueInfoProto): Array<number | string> {
  return (v.type?.tensorType?.shape?.dim ?? []).map((d) => (d.dimParam ? d.dimParam : toNumber(d.dimValue ?? 0)));
}

/**
 * Decodes an ONNX file into the parts the kernels run (initializers, nodes, inputs, outputs,
 * metadata).
 * @throws JevMemError `MODEL_LOAD_FAILED` when the bytes are not a readable ONNX model or hold a
 *   tensor type other than FLOAT / INT8 / UINT8.
 */
export function decodeOnnx(bytes: Uint8Array): DecodedModel {
  let model: onnxProto.onnx.ModelProto;
  try {
    model = onnx.ModelProto.decode(bytes);
  } catch (e) {
    throw loadFailed(`the file is not a readable ONNX model (${e instanceof Error ? e.message : String(e)})`, e);
  }
  const graph = model.graph;
  if (graph === null || graph === undefined) throw loadFailed('the model has no graph');
  const opset = toNumber((model.opsetImport ?? []).find((o) => (o.domain ?? '') === '')?.version ?? 0);
  const initializers = new Map<string, DecodedTensor>();
  for (const t of graph.initializer ?? []) initializers.set(t.name ?? '', decodeTensor(t));
  const nodes = (graph.node ?? []).map((n): DecodedNode => {
    const attributes: Record<string, number> = {};
    for (const a of n.attribute ?? []) {
      const name = a.name ?? '';
      if (a.type === onnx.AttributeProto.AttributeType.INT) attributes[name] = toNumber(a.i);
      else if (a.type === onnx.AttributeProto.AttributeType.FLOAT) attributes[name] = a.f ?? 0;
    }
    return { opType: n.opType ?? '', domain: n.domain ?? '', inputs: [...(n.input ?? [])], outputs: [...(n.output ?? [])], attributes };
  });
  const metadata: Record<string, string> = {};
  for (const p of model.metadataProps ?? []) metadata[p.key ?? ''] = p.value ?? '';
  const info = (v: onnxProto.onnx.IValueInfoProto): { name: string; dims: Array<number | string> } => ({ name: v.name ?? '', dims: decodeDims(v) });
  return {
    opset,
    inputs: (graph.input ?? []).filter((i) => !initializers.has(i.name ?? '')).map(info),
    outputs: (graph.output ?? []).map(info),
    initializers,
    nodes,
    metadata,
  };
}
