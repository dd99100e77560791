/**
 * The package's install and publish hygiene, read from package.json, the README and the docs
 * (no build, no install): `npm pack` builds by itself (`prepack`), once; npm warns about no
 * project config (npm 11 warns "Unknown project config" for a key it does not know, and npm 12
 * drops it); every `npm ci` the docs and CI run keeps onnxruntime-node from downloading CUDA
 * libraries; the Node versions the README claims agree with the `engines` of what is installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

interface Manifest {
  engines: { node: string };
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}
const pkg = JSON.parse(read('package.json')) as Manifest;
const readme = read('README.md');

/** `engines.node` of an installed package, or undefined. */
function enginesOf(name: string): string | undefined {
  return (JSON.parse(read(`node_modules/${name}/package.json`)) as { engines?: { node?: string } }).engines?.node;
}

/**
 * The lowest Node version (major, minor) a range admits, for the forms packages use:
 * `>=20`, `>= 20.3.0`, `^20.19.0 || >=22.12.0`, `20 || >=22`.
 */
function lowestNode(range: string): [number, number] {
  const lows = range.split('||').map((alt) => {
    const m = /^\s*(?:>=|\^|~)?\s*v?(\d+)(?:\.(\d+))?/.exec(alt);
    if (!m) throw new Error(`unsupported engines range ${JSON.stringify(range)}`);
    return [Number(m[1]), Number(m[2] ?? 0)] as [number, number];
  });
  return lows.reduce((a, b) => (b[0] < a[0] || (b[0] === a[0] && b[1] < a[1]) ? b : a));
}
const after = (a: [number, number], b: [number, number]): boolean => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
const show = ([major, minor]: [number, number]): string => (minor === 0 ? `${major}` : `${major}.${minor}`);

describe('lowestNode', () => {
  it.each([
    ['>=20', [20, 0]],
    ['>= 20.3.0', [20, 3]],
    ['^20.19.0 || >=22.12.0', [20, 19]],
    ['20 || >=22', [20, 0]],
    ['^12.20.0 || ^14.13.1 || >=16.0.0', [12, 20]],
  ])('%s → %j', (range, expected) => {
    expect(lowestNode(range)).toEqual(expected);
  });
});

describe('npm pack and publish', () => {
  it('npm pack builds the package itself (prepack), and publish builds once (no prepublishOnly build)', () => {
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.scripts.prepublishOnly).toBeUndefined();
    expect(pkg.scripts.prepublish).toBeUndefined();
  });

  it("check:package builds once: attw's own npm pack runs without the prepack build", () => {
    expect(pkg.scripts['check:package']).toBe('npm run build && publint --strict && npm_config_ignore_scripts=true attw --pack --profile esm-only');
  });
});

describe('npm configuration', () => {
  it('npm reads no config key it does not know from the repository (no "Unknown project config")', () => {
    const r = spawnSync('npm', ['pkg', 'get', 'name'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'warn' } });
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe('"jev-mem"');
    expect(r.stderr).not.toMatch(/Unknown (project|env|user) config/);
    expect(existsSync(join(ROOT, '.npmrc'))).toBe(false);
  });

  it("package.json denies onnxruntime-node's install script (npm's allowScripts: its CUDA download)", () => {
    expect((pkg as Manifest & { allowScripts?: Record<string, boolean> }).allowScripts).toEqual({ 'onnxruntime-node': false });
  });

  it('every npm ci of the docs and of CI skips the CUDA download of onnxruntime-node (npm without allowScripts)', () => {
    const runs: Array<[string, string]> = [];
    for (const file of ['README.md', 'docs/edge.md', 'docs/extension.md', '.ci/run']) {
      for (const line of read(file).split('\n')) if (/\bnpm ci\b/.test(line) && !/^\s*(#|\/\/)/.test(line) && !line.includes('`npm ci`')) runs.push([file, line]);
    }
    expect(runs.length).toBeGreaterThanOrEqual(4);
    const ci = read('.ci/run');
    for (const [file, line] of runs) {
      const skipped = line.includes('ONNXRUNTIME_NODE_INSTALL=skip npm ci') || (file === '.ci/run' && ci.includes('export ONNXRUNTIME_NODE_INSTALL=skip'));
      expect(skipped, `${file}: ${line}`).toBe(true);
    }
  });
});

describe('the Node versions the README claims', () => {
  const ours = lowestNode(pkg.engines.node);

  it('every runtime dependency runs on the lowest Node that engines admits', () => {
    const later = Object.keys(pkg.dependencies).filter((name) => {
      const range = enginesOf(name);
      return range !== undefined && after(lowestNode(range), ours);
    });
    expect(later).toEqual([]);
  });

  it('an optional peer that needs a later Node says so in its install row (ai v7: Node ≥ 22)', () => {
    const needing = Object.keys(pkg.peerDependencies).flatMap((name) => {
      const range = enginesOf(name);
      return range !== undefined && after(lowestNode(range), ours) ? [[name, show(lowestNode(range))] as const] : [];
    });
    expect(needing).toEqual([['ai', '22']]);
    for (const [name, version] of needing) {
      const row = readme.split('\n').find((l) => l.startsWith('|') && l.includes(`\`npm i ${name}\``));
      expect(row, name).toBeDefined();
      expect(row, name).toContain(`Node ≥ ${version}`);
    }
  });

  it("the checkout's quick start names a Node every dev tool supports (ai aside, documented beside it)", () => {
    const claimed = /## Quick start from a checkout \(a new machine, Node ≥ (\d+)(?:\.(\d+))?\)/.exec(readme);
    expect(claimed).not.toBeNull();
    const floor: [number, number] = [Number(claimed![1]), Number(claimed![2] ?? 0)];
    const later = Object.keys(pkg.devDependencies)
      .filter((name) => name !== 'ai')
      .flatMap((name) => {
        const range = enginesOf(name);
        return range !== undefined && after(lowestNode(range), floor) ? [`${name} ${range}`] : [];
      });
    expect(later).toEqual([]);
    expect(readme).toMatch(/the `ai` v7 dev dependency declares\s+Node ≥ 22/);
  });
});
