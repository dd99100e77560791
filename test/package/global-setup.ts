/**
 * Packs the package from a checkout without dist/ (`npm pack`, whose `prepack` script runs
 * `npm run build`) and installs the tarball into an
 * empty project (`npm init -y && npm i <tgz>`), with npm's and onnxruntime's environment
 * variables removed so that nothing of this repository's configuration reaches the install.
 * Provides `consumerDir` (the project) and `tarball` to the tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    consumerDir: string;
    tarball: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The environment of a user's shell: no npm_config_* / npm_* / ONNXRUNTIME_* variables. */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(npm_|ONNXRUNTIME|NODE_OPTIONS$|VITEST)/i.test(k)));
}

export default function setup(project: TestProject): () => void {
  const work = mkdtempSync(join(tmpdir(), 'jev-mem-package-'));
  // No dist/ before the pack, as in a fresh clone: `npm pack` alone must build (the `prepack`
  // script); a tarball without dist/ fails every test of this suite.
  rmSync(join(ROOT, 'dist'), { recursive: true, force: true });
  const packOutput = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [packed] = JSON.parse(packOutput) as Array<{ filename: string }>;
  const tarball = join(work, (packed as { filename: string }).filename);
  const consumerDir = join(work, 'app');
  execFileSync('mkdir', ['-p', consumerDir]);
  const env = cleanEnv();
  execFileSync('npm', ['init', '-y'], { cwd: consumerDir, env, stdio: 'ignore' });
  execFileSync('npm', ['i', tarball, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: consumerDir, env, stdio: 'inherit' });
  project.provide('consumerDir', consumerDir);
  project.provide('tarball', tarball);
  return () => rmSync(work, { recursive: true, force: true });
}
