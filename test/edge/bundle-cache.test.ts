/**
 * The shared edge bundle (harness.ts `sharedBundle`): built once while its inputs are unchanged,
 * rebuilt when one of them changes or disappears, and once for callers in several processes.
 * A stand-in build (it writes one module and names the files it "bundled") replaces wrangler.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT, sharedBundle, type EdgeBundle } from './harness.js';

const work = mkdtempSync(join(tmpdir(), 'jev-mem-edge-cache-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A project: a config, two sources it "bundles" (relative to the config's folder), a data file. */
function project(name: string): { config: string; src: string; data: string; cacheRoot: string } {
  const dir = join(work, name);
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'wrangler.toml'), 'main = "src/a.ts"\n');
  writeFileSync(join(dir, 'src', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(dir, 'src', 'b.ts'), 'export const b = 2;\n');
  writeFileSync(join(dir, 'model.i8'), 'v1');
  return { config: join(dir, 'wrangler.toml'), src: join(dir, 'src', 'a.ts'), data: join(dir, 'model.i8'), cacheRoot: join(dir, 'cache') };
}

/** A build that records each call and bundles the current text of src/a.ts (and src/b.ts while it exists). */
function stand(calls: string[]): (config: string, dir: string) => EdgeBundle {
  return (config, dir) => {
    calls.push(dir);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'worker.js'), readFileSync(join(config, '..', 'src', 'a.ts')));
    const path = join(dir, 'worker.js');
    return { dir, modules: [{ type: 'ESModule', path, bytes: 1, gzipBytes: 1 }], wrangler: { uploadKiB: 1, gzipKiB: 0.5 }, log: 'built', inputs: ['src/a.ts', 'src/b.ts'].filter((f) => existsSync(join(config, '..', f))), remove: () => rmSync(dir, { recursive: true, force: true }) };
  };
}

describe('sharedBundle', () => {
  it('builds once while the inputs are unchanged, and gives back the same bundle', () => {
    const p = project('same');
    const calls: string[] = [];
    const first = sharedBundle(p.config, stand(calls), { cacheRoot: p.cacheRoot, extraInputs: [p.config, p.data] });
    const second = sharedBundle(p.config, stand(calls), { cacheRoot: p.cacheRoot, extraInputs: [p.config, p.data] });
    expect(calls).toHaveLength(1);
    expect(second).toMatchObject({ dir: first.dir, wrangler: { uploadKiB: 1, gzipKiB: 0.5 }, log: 'built', inputs: ['src/a.ts', 'src/b.ts'] });
    expect(second.modules).toEqual([{ type: 'ESModule', path: join(first.dir, 'worker.js'), bytes: 1, gzipBytes: 1 }]);
    second.remove(); // shared: kept
    expect(readFileSync(join(first.dir, 'worker.js'), 'utf8')).toBe('export const a = 1;\n');
  });

  it('rebuilds when a bundled source, an extra input or the configuration changes, or a source is gone', () => {
    const p = project('changed');
    const calls: string[] = [];
    const get = (): EdgeBundle => sharedBundle(p.config, stand(calls), { cacheRoot: p.cacheRoot, extraInputs: [p.config, p.data] });
    get();
    writeFileSync(p.src, 'export const a = 3;\n');
    expect(readFileSync(get().modules[0]!.path, 'utf8')).toBe('export const a = 3;\n');
    expect(calls).toHaveLength(2);
    writeFileSync(p.data, 'v2');
    get();
    expect(calls).toHaveLength(3);
    writeFileSync(p.config, 'main = "src/a.ts"\nminify = true\n');
    get();
    expect(calls).toHaveLength(4);
    rmSync(join(p.src, '..', 'b.ts'));
    get();
    expect(calls).toHaveLength(5);
    get();
    expect(calls).toHaveLength(5);
  });

  it('several processes asking at once build once (the others wait for it)', async () => {
    const p = project('racing');
    const marks = join(work, 'racing-builds');
    mkdirSync(marks);
    const script = `
      import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
      import { join } from 'node:path';
      import { sharedBundle } from ${JSON.stringify(join(ROOT, 'test/edge/harness.ts'))};
      const b = sharedBundle(${JSON.stringify(p.config)}, (config, dir) => {
        appendFileSync(${JSON.stringify(join(marks, 'log'))}, 'build\\n');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
        mkdirSync(dir, { recursive: true });
        writeFileSync(join(dir, 'worker.js'), 'x');
        return { dir, modules: [{ type: 'ESModule', path: join(dir, 'worker.js'), bytes: 1, gzipBytes: 1 }], wrangler: undefined, log: '', inputs: ['src/a.ts'], remove() {} };
      }, { cacheRoot: ${JSON.stringify(p.cacheRoot)} });
      console.log(b.dir);
    `;
    const runs = Array.from({ length: 2 }, () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
        child.once('error', reject);
        child.once('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
      }),
    );
    const dirs = await Promise.all(runs);
    expect(new Set(dirs).size).toBe(1);
    expect(readFileSync(join(marks, 'log'), 'utf8')).toBe('build\n');
  }, 60_000);
});
