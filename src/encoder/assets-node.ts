/**
 * The Node {@link AssetLoader}: reads model files from disk, by default from the `models/` folder
 * of the installed jev-mem package (SPEC 9). Node-only (imports `node:fs`).
 *
 * @module
 */

import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { JevMemError, invalidInput } from '../errors.js';
import type { AssetLoader } from './encoder.js';

const PACKAGE_NAME = 'jev-mem';

/**
 * An {@link AssetLoader} reading `relativePath` under `dir`.
 *
 * @param dir - Folder holding the model folders. @default the `models/` folder next to the
 *   `package.json` named `jev-mem` found by walking up from this source file (works from `src/`
 *   under tsx and from `dist/src/` after tsc).
 * @returns A loader whose promise rejects with JevMemError `MODEL_LOAD_FAILED` naming the file and
 *   the folder it looked in (missing package root, missing or unreadable file), and with
 *   `INVALID_INPUT` (field `relativePath`) for a path that leaves `dir`.
 */
export function createNodeAssetLoader(dir?: string): AssetLoader {
  let root: Promise<string> | undefined = dir === undefined ? undefined : Promise.resolve(resolve(dir));
  return async (relativePath: string): Promise<Uint8Array> => {
    if (typeof relativePath !== 'string') {
      throw invalidInput('relativePath', `expected a string, got ${typeof relativePath}`);
    }
    root ??= findPackageModelsDir();
    const base = await root;
    const path = resolve(base, relativePath);
    const inside = relative(base, path);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) {
      throw invalidInput('relativePath', `${JSON.stringify(relativePath)} is not a file path inside ${base}`);
    }
    try {
      const bytes = await readFile(path);
      return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException | undefined)?.code;
      const why = code === 'ENOENT' ? 'no such file' : cause instanceof Error ? cause.message : String(cause);
      throw new JevMemError(
        'MODEL_LOAD_FAILED',
        `could not read model file ${relativePath}: ${why} (looked at ${path}; pass a folder to createNodeAssetLoader(dir) ` +
          'or run `npm run build:encoder`)',
        { cause, path },
      );
    }
  };
}

/**
 * Walks up from this file to the first `models/` folder holding `glove-sif-100d/encoder.json`
 * (`dist/models/` in the published package, `models/` in a checkout), stopping at the directory
 * whose package.json is named `jev-mem`.
 */
async function findPackageModelsDir(): Promise<string> {
  const start = dirname(fileURLToPath(import.meta.url));
  const looked: string[] = [];
  let current = start;
  for (;;) {
    const models = join(current, 'models');
    looked.push(models);
    try {
      await readFile(join(models, 'glove-sif-100d', 'encoder.json'));
      return models;
    } catch {
      // no model here: keep walking up
    }
    let isRoot = false;
    try {
      isRoot = (JSON.parse(await readFile(join(current, 'package.json'), 'utf8')) as { name?: unknown }).name === PACKAGE_NAME;
    } catch {
      // no (readable) package.json here
    }
    const parent = dirname(current);
    if (isRoot || parent === current) break;
    current = parent;
  }
  throw new JevMemError(
    'MODEL_LOAD_FAILED',
    `could not find the ${PACKAGE_NAME} models folder above ${start} (looked for glove-sif-100d/encoder.json in: ` +
      `${looked.join(', ')}); pass the models folder to createNodeAssetLoader(dir)`,
    { looked },
  );
}
