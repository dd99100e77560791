#!/usr/bin/env node
// Makes sure the browser suites have a Chromium to drive (playwright-core never downloads one).
// Uses $CHROMIUM_PATH, else Debian's /usr/bin/chromium. When it is missing: as root on a machine
// with apt-get, installs Debian's `chromium` package; otherwise stops with the exact command to
// run. Exit 0 when a Chromium is there at the end, 1 otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const installCommand = 'sudo apt-get update && sudo apt-get install -y chromium';

function fail(message) {
  console.error(`ensure-chromium: ${message}`);
  console.error(`ensure-chromium: install it with:\n\n  ${installCommand}\n\nor point CHROMIUM_PATH at a Chromium binary, then run the tests again.`);
  process.exit(1);
}

if (existsSync(path)) process.exit(0);
if (process.env.CHROMIUM_PATH !== undefined) fail(`CHROMIUM_PATH is ${path}, which does not exist`);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
if (!isRoot || !hasApt) {
  fail(`the browser suites need Chromium at ${path}, and ${isRoot ? 'this machine has no apt-get' : 'installing it needs root'}`);
}

console.error(`ensure-chromium: no Chromium at ${path}; installing Debian's chromium package (apt-get)`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
  const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (r.status !== 0) fail(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
}
if (!existsSync(path)) fail(`apt-get installed chromium but ${path} is still missing`);
console.error(`ensure-chromium: installed ${path}`);
