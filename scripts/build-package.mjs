#!/usr/bin/env node
// The package build: compiles src/ and worker/ with tsc (arguments pass through, e.g.
// `--outDir /tmp/x/dist`), then copies the runtime model files into <outDir>/models so the
// compiled code finds them at `new URL('../models/…', import.meta.url)` (src/bundled-models.ts).
// The training weights (weights.json) stay out of the package.
//
// Issue 23: the package build emits no source maps (`--sourceMap false`, and maps left by an
// earlier build are removed), so no published file names a .map that is not shipped (Vite's dev
// server warned for each); and it writes <outDir>/esm-only.cjs, the target of the `require`
// condition of every entry in package.json, which throws a clear "ESM only" error.
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--outDir');
const outDir = resolve(root, at >= 0 && args[at + 1] !== undefined ? args[at + 1] : 'dist');

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--sourceMap', 'false', ...args], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

// Maps of an earlier (development) build: the JS next to them no longer names them.
for (const sub of ['src', 'worker']) {
  let entries = [];
  try {
    entries = readdirSync(join(outDir, sub), { recursive: true, withFileTypes: true });
  } catch {
    continue;
  }
  for (const e of entries) if (e.isFile() && e.name.endsWith('.map')) rmSync(join(e.parentPath, e.name));
}

// `require('jev-mem')` (and every subpath): a clear error instead of ERR_REQUIRE_ESM or a
// half-loaded module.
const esmOnly =
  "jev-mem is ESM only; use import() instead of require(): `const { createNodeMemory } = await import('jev-mem/node')`, " +
  'or make your package "type": "module" and use import statements';
writeFileSync(
  join(outDir, 'esm-only.cjs'),
  [
    "'use strict';",
    '// jev-mem is published as ES modules only; this file is what require() of any of its entries loads.',
    `const error = new Error(${JSON.stringify(esmOnly)});`,
    "error.code = 'ERR_REQUIRE_ESM';",
    'throw error;',
    '',
  ].join('\n'),
);

rmSync(join(outDir, 'models'), { recursive: true, force: true });
for (const model of ['glove-sif-100d', 'system-one']) {
  cpSync(join(root, 'models', model), join(outDir, 'models', model), { recursive: true, filter: (f) => !f.endsWith('weights.json') });
}
