/**
 * An {@link AssetLoader} over model files that a Worker imports as modules (SPEC 9: workerd has
 * no file system and nothing may be fetched from a hub): `Data` modules arrive as an
 * `ArrayBuffer`, `Text` modules as a string, JSON modules as the parsed value.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { AssetLoader } from '../encoder/encoder.js';

/**
 * Model files keyed by their path under `models/` (`'glove-sif-100d/vectors.i8'`): bytes
 * (`ArrayBuffer` or a typed-array view), text (encoded as UTF-8) or a parsed JSON value
 * (serialised back with `JSON.stringify`, so only files that are parsed, never hashed, may come
 * as JSON).
 */
export type EdgeModelFiles = Readonly<Record<string, ArrayBuffer | ArrayBufferView | string | object>>;

/**
 * Creates a loader that answers from `files` without copying binary data.
 * @returns A loader whose promise rejects with JevMemError `MODEL_LOAD_FAILED` naming the missing
 *   path and the paths it has.
 */
export function createEdgeAssetLoader(files: EdgeModelFiles): AssetLoader {
  return async (relativePath: string): Promise<Uint8Array> => {
    const value = Object.prototype.hasOwnProperty.call(files, relativePath) ? files[relativePath] : undefined;
    if (value === undefined || value === null) {
      throw new JevMemError(
        'MODEL_LOAD_FAILED',
        `model file ${JSON.stringify(relativePath)} was not bundled with the Worker (bundled: ${Object.keys(files).sort().join(', ') || 'none'}); import it as a module and add it to the files`,
        { path: relativePath },
      );
    }
    if (value instanceof ArrayBuffer) return new Uint8Array(value);
    if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    if (typeof value === 'string') return new TextEncoder().encode(value);
    return new TextEncoder().encode(JSON.stringify(value));
  };
}
