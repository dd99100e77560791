/**
 * The CLI as the built package runs it: `npm run build` (into a temporary folder), the package's
 * `files` laid out as an install would have them, then `node bin/jev-mem.js`. Covers what only
 * the build shows: `--version` read from the package's package.json, and `--system-one worker`,
 * whose models must come from the package's `models/` folder, not from `dist/models/` (where the
 * build leaves only the manifest that a JSON import copies).
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, SAMPLE } from './helpers.js';

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'jev-mem-cli-built-'));
const pkg = join(dir, 'package');
const store = join(dir, 'store');
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; files: string[] };

async function jevMem(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(pkg, 'bin', 'jev-mem.js'), ...args], { cwd: dir, maxBuffer: 64 << 20 });
    return { code: 0, stdout, stderr };
  } catch (e) {
    const x = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof x.code === 'number' ? x.code : -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' };
  }
}

beforeAll(async () => {
  // The build script itself, into the package folder's dist/ (the checkout's dist/ is left alone).
  await run('npm', ['run', 'build', '--', '--outDir', join(pkg, 'dist')], { cwd: ROOT, maxBuffer: 64 << 20 });
  for (const f of manifest.files) if (f !== 'dist' && existsSync(join(ROOT, f))) cpSync(join(ROOT, f), join(pkg, f), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir'); // the dependencies an install brings
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the built package', () => {
  it('has the compiled CLI that bin/jev-mem.js runs', () => {
    expect(existsSync(join(pkg, 'dist', 'src', 'cli', 'main.js'))).toBe(true);
  });

  it('jev-mem --version prints the version of package.json', async () => {
    expect(await jevMem(['--version'])).toMatchObject({ code: 0, stdout: `${manifest.version}\n` });
  });

  it('recall --system-one worker loads the shipped model in the worker and recalls', async () => {
    const ingest = await jevMem(['ingest', SAMPLE, '--store', store, '--namespace', 'sample', '--system-one', 'heuristic']);
    expect(ingest.code, ingest.stderr).toBe(0);
    const r = await jevMem(['recall', 'What did Theo replace on his bike?', '--store', store, '--namespace', 'sample', '--k', '3', '--json', '--system-one', 'worker']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { memories: Array<{ provenance: { turnId: string } }>; trace: { fallbacks: number; limits: { controllerCalls: number } } };
    expect(j.memories).toHaveLength(3);
    expect(j.memories.map((m) => m.provenance.turnId)).toContain('S1:6');
    expect(j.trace.limits.controllerCalls).toBeGreaterThan(0); // System One was asked …
    expect(j.trace.fallbacks).toBe(0); // … and the worker answered, not the fallback
  });
});
