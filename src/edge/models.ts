/**
 * The shipped models as Worker modules (SPEC 9: nothing is fetched at run time). Only a
 * bundler that knows the wrangler module rules can build this file: `.i8`, `.f32` and `.onnx`
 * as `Data` modules, `.txt` as `Text`, `.json` as JSON (see examples/edge/wrangler.toml).
 *
 * @module
 */
import gloveManifest from '../../models/glove-sif-100d/encoder.json' with { type: 'json' };
import glovePc from '../../models/glove-sif-100d/pc.f32';
import gloveScales from '../../models/glove-sif-100d/scales.f32';
import gloveVectors from '../../models/glove-sif-100d/vectors.i8';
import gloveVocab from '../../models/glove-sif-100d/vocab.txt';
import candidates from '../../models/system-one/candidates.onnx';
import maintenance from '../../models/system-one/maintenance.onnx';
import systemOneManifest from '../../models/system-one/manifest.json' with { type: 'json' };
import relation from '../../models/system-one/relation.onnx';
import routing from '../../models/system-one/routing.onnx';
import stop from '../../models/system-one/stop.onnx';
import typing from '../../models/system-one/typing.onnx';
import type { EdgeModelFiles } from './assets.js';

/** The shipped GloVe-SIF encoder and System-One model, keyed by their path under `models/`. */
export const SHIPPED_MODEL_FILES: EdgeModelFiles = Object.freeze({
  'glove-sif-100d/encoder.json': gloveManifest,
  'glove-sif-100d/vocab.txt': gloveVocab,
  'glove-sif-100d/vectors.i8': gloveVectors,
  'glove-sif-100d/scales.f32': gloveScales,
  'glove-sif-100d/pc.f32': glovePc,
  'system-one/manifest.json': systemOneManifest,
  'system-one/typing.onnx': typing,
  'system-one/relation.onnx': relation,
  'system-one/routing.onnx': routing,
  'system-one/stop.onnx': stop,
  'system-one/candidates.onnx': candidates,
  'system-one/maintenance.onnx': maintenance,
});
