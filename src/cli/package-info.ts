/**
 * Where the installed jev-mem package lives, found from this file: the folder whose
 * `package.json` is named `jev-mem`, walking up. The same walk works from the checkout
 * (`src/cli/` under tsx), from the build (`dist/src/cli/`) and from an install
 * (`node_modules/jev-mem/dist/src/cli/`). Node-only (reads files).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JevMemError } from '../errors.js';

const PACKAGE_NAME = 'jev-mem';

/** The package root and what the CLI reads from its `package.json`. */
export interface PackageInfo {
  /** Absolute path of the package root (the folder holding `package.json`, `models/`, `bin/`). */
  root: string;
  /** `version` of `package.json`, e.g. `0.1.0`. */
  version: string;
}

let cached: Promise<PackageInfo> | undefined;

/**
 * The jev-mem package this CLI belongs to (read once per process).
 * @param from - File URL to start the walk from. @default this module's URL
 * @throws JevMemError `NOT_FOUND` when no `package.json` named `jev-mem` is above `from`.
 */
export function findPackage(from: string = import.meta.url): Promise<PackageInfo> {
  if (from !== import.meta.url) return walk(from);
  cached ??= walk(from);
  return cached;
}

async function walk(from: string): Promise<PackageInfo> {
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
    if (text !== undefined) {
      let pkg: { name?: unknown; version?: unknown } | undefined;
      try {
        pkg = JSON.parse(text) as { name?: unknown; version?: unknown };
      } catch {
        pkg = undefined;
      }
      if (pkg?.name === PACKAGE_NAME && typeof pkg.version === 'string') return { root: dir, version: pkg.version };
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  throw new JevMemError('NOT_FOUND', `no package.json named ${PACKAGE_NAME} above ${fileURLToPath(from)}; is the jev-mem package complete?`, { field: 'package' });
}
