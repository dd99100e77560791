/**
 * Builds the shipped System-One model files from a weights file (see
 * src/system-one/onnx-model.ts for the format): one quantized ONNX file per head group plus the
 * manifest. Pure and deterministic: the same weights give byte-identical files. Used by
 * `scripts/build-system-one.ts` and by the tests that check the committed files are up to date.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { HEAD_GROUPS, FEATURE_VERSION } from '../../src/system-one/features.js';
import { GROUP_OUTPUTS, HEADS } from '../../src/system-one/heads.js';
import { heuristicGroupWeights } from '../../src/system-one/heuristic.js';
import {
  INPUT_NAME,
  MANIFEST_FORMAT,
  MODEL_NAME,
  OPSET,
  WEIGHTS_FORMAT,
  countGroupParams,
  validateWeights,
  type SystemOneManifest,
  type SystemOneWeights,
} from '../../src/system-one/onnx-model.js';
import { buildGroupOnnx } from '../../src/system-one/onnx-build.js';

/** File name of the manifest inside the model directory. */
export const MANIFEST_FILE = 'manifest.json';
/** File name of the float weights inside the model directory. */
export const WEIGHTS_FILE = 'weights.json';

/** SPEC 8 thresholds (set for the hosted Jev model), shipped uncalibrated until a calibration run. */
export const SPEC8_THRESHOLDS = {
  theta_rel: 0.6,
  theta_act: 0.1,
  theta_suff: 0.95,
  theta_cont: 0.15,
  calibrated: false,
  source: 'SPEC 8 (the paper profile, set for the hosted Jev model); not calibrated for this model',
} as const;

/**
 * A weights file holding the heuristic stand-in's hand-set tables (src/system-one/heuristic.ts),
 * marked as NOT trained, with the SPEC 8 thresholds marked NOT calibrated.
 */
export function heuristicWeightsFile(version = '0.1.0'): SystemOneWeights {
  const groups = Object.fromEntries(HEAD_GROUPS.map((g) => [g, heuristicGroupWeights(g)])) as SystemOneWeights['groups'];
  return {
    format: WEIGHTS_FORMAT,
    version,
    featureVersion: FEATURE_VERSION,
    training: {
      trained: false,
      method: 'hand-set',
      note: 'Hand-set logistic weights copied from the heuristic stand-in (src/system-one/heuristic.ts, HEURISTIC_TABLES). NOT trained on any data; replace with weights trained on the LoCoMo development split.',
      data: null,
      metrics: null,
    },
    thresholds: { ...SPEC8_THRESHOLDS },
    groups,
  };
}

/** The built model: files by name (relative to the model directory) and the manifest. */
export interface BuiltModel {
  /** `<group>.onnx` → bytes, in HEAD_GROUPS order. */
  files: Map<string, Uint8Array>;
  manifest: SystemOneManifest;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Validates `weights` and builds every group's quantized ONNX file and the manifest.
 * @throws JevMemError `INVALID_INPUT` for a malformed weights file (see validateWeights).
 */
export function buildModel(weightsValue: unknown): BuiltModel {
  const weights = validateWeights(weightsValue);
  const files = new Map<string, Uint8Array>();
  const groups = {} as SystemOneManifest['groups'];
  let params = 0;
  for (const group of HEAD_GROUPS) {
    const gw = weights.groups[group];
    const file = `${group}.onnx`;
    files.set(file, buildGroupOnnx(group, gw, { modelVersion: weights.version, trained: weights.training.trained }));
    groups[group] = {
      file,
      input: INPUT_NAME,
      inputSize: gw.features.length,
      hidden: gw.hidden.map((l) => l.bias.length),
      outputs: GROUP_OUTPUTS[group].map((o) => ({ name: o.name, activation: o.activation, labels: [...o.labels] })),
    };
    params += countGroupParams(gw);
  }
  const heads: SystemOneManifest['heads'] = {};
  for (const [id, h] of Object.entries(HEADS)) heads[id] = { group: h.group, output: h.output, index: h.index, type: h.type };
  const manifest: SystemOneManifest = {
    format: MANIFEST_FORMAT,
    id: MODEL_NAME,
    version: weights.version,
    featureVersion: weights.featureVersion,
    files: [...files].map(([path, bytes]) => ({ path, sha256: sha256(bytes), bytes: bytes.length })),
    groups,
    heads,
    thresholds: weights.thresholds,
    ...(weights.parameters ? { parameters: weights.parameters } : {}),
    training: weights.training,
    quantization: {
      scheme: 'int8 symmetric, one scale per output column (DequantizeLinear axis=1); float32 biases, mean and std',
      weights: 'int8',
      scale: 'float32, max|w|/127 per column',
      zeroPoint: 0,
      opset: OPSET,
    },
    params,
  };
  return { files, manifest };
}

/** JSON with 2-space indentation but each array of numbers on one line; ends with a newline. */
export function stableJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2).replace(/\[\s+([-+\d.eE,\s]+?)\s+\]/g, (_, body: string) => `[${body.split(/,\s*/).join(', ')}]`)}\n`;
}
