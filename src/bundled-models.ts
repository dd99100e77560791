/**
 * The shipped model files as bundler-visible URLs (SPEC 9: served from the app's own origin).
 * Each `new URL('<literal>', import.meta.url)` makes Vite, Rollup, webpack 5 and Parcel emit the
 * file with the app and rewrite the URL, so a browser app needs no copy step. The paths are
 * relative to this module: `src/` → the repository's `models/`, `dist/src/` → the package's
 * `dist/models/` (copied there by `npm run build`).
 *
 * @module
 */

/**
 * URL of every file the browser defaults load, by path under `models/`
 * (`glove-sif-100d/*` for the encoder, `system-one/*` for System One's TypeScript kernels).
 */
export function bundledModelFiles(): Record<string, URL> {
  return {
    'glove-sif-100d/encoder.json': new URL('../models/glove-sif-100d/encoder.json', import.meta.url),
    'glove-sif-100d/vocab.txt': new URL('../models/glove-sif-100d/vocab.txt', import.meta.url),
    'glove-sif-100d/vectors.i8': new URL('../models/glove-sif-100d/vectors.i8', import.meta.url),
    'glove-sif-100d/scales.f32': new URL('../models/glove-sif-100d/scales.f32', import.meta.url),
    'glove-sif-100d/pc.f32': new URL('../models/glove-sif-100d/pc.f32', import.meta.url),
    'system-one/manifest.json': new URL('../models/system-one/manifest.json', import.meta.url),
    'system-one/typing.onnx': new URL('../models/system-one/typing.onnx', import.meta.url),
    'system-one/candidates.onnx': new URL('../models/system-one/candidates.onnx', import.meta.url),
    'system-one/relation.onnx': new URL('../models/system-one/relation.onnx', import.meta.url),
    'system-one/maintenance.onnx': new URL('../models/system-one/maintenance.onnx', import.meta.url),
    'system-one/routing.onnx': new URL('../models/system-one/routing.onnx', import.meta.url),
    'system-one/stop.onnx': new URL('../models/system-one/stop.onnx', import.meta.url),
  };
}
