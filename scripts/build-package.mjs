#!/usr/bin/env node
// The package build: compiles src/ and worker/ with tsc (arguments pass through, e.g.
// `--outDir /tmp/x/dist`), then copies the runtime model files into <outDir>/models so the
// compiled code finds them at `new URL('../models/…', import.meta.url)` (src/bundled-models.ts).
// The training weights (weights.json) stay out of the package.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const at = args.indexOf('--outDir');
const outDir = resolve(root, at >= 0 && args[at + 1] !== undefined ? args[at + 1] : 'dist');

const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), ...args], { stdio: 'inherit' });
if (r.status !== 0) process.exit(r.status ?? 1);

rmSync(join(outDir, 'models'), { recursive: true, force: true });
for (const model of ['glove-sif-100d', 'system-one']) {
  cpSync(join(root, 'models', model), join(outDir, 'models', model), { recursive: true, filter: (f) => !f.endsWith('weights.json') });
}
