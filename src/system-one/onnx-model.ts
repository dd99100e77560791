/**
 * The shipped System-One model format (SPEC 5, 9): the float weights file a trainer writes and
 * its checks ({@link validateWeights}), and the manifest that lists the files. The int8
 * quantization is in onnx-quantize.ts, the ONNX graph built from the weights in onnx-build.ts,
 * the decoder the TypeScript kernels use in onnx-decode.ts, and the onnx.proto field numbers both
 * share in onnx-wire.ts.
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
 * classes at run time): only the subset of onnx.proto listed in `ONNX_FIELDS` is written,
 * in field-number order, which gives the same bytes as onnx-proto's encoder (the tests check it
 * against every shipped file and decode each with onnx-proto too).
 *
 * @module
 */
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
