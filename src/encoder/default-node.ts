/**
 * The default encoder for Node (CLI, benchmarks, tests): GloVe-SIF read from the package's
 * `models/` folder (SPEC 9). Node-only.
 *
 * @module
 */

import { createNodeAssetLoader } from './assets-node.js';
import type { Encoder } from './encoder.js';
import { createGloveSifEncoder } from './glove-sif.js';

/** Options of {@link createDefaultNodeEncoder}. */
export interface DefaultNodeEncoderOptions {
  /**
   * Folder holding `glove-sif-100d/`. @default the jev-mem package's `models/` folder
   */
  modelsDir?: string;
  /**
   * Check the model files' SHA-256 (about 30 ms). @default true
   */
  verify?: boolean;
}

/**
 * Loads `glove-sif-100d` from disk.
 *
 * @throws JevMemError `MODEL_LOAD_FAILED` when the model files are missing or corrupt.
 */
export function createDefaultNodeEncoder(options: DefaultNodeEncoderOptions = {}): Promise<Encoder> {
  return createGloveSifEncoder({
    load: createNodeAssetLoader(options.modelsDir),
    verify: options.verify ?? true,
  });
}
