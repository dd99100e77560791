#!/usr/bin/env node
// The jev-mem command. Runs the compiled CLI (dist/) when it exists, else the TypeScript
// sources through tsx (a development checkout).
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const compiled = new URL('../dist/src/cli/main.js', import.meta.url);
let mod;
if (existsSync(fileURLToPath(compiled))) {
  mod = await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  mod = await import(pathToFileURL(`${here}../src/cli/main.ts`).href);
}
process.exitCode = await mod.main(process.argv.slice(2));
