/**
 * CI-suite hygiene: `npm test` runs the unit config, then the browser, extension and package
 * configs; no test file may run in two of them (the extension's unit tests ran twice before).
 * Each config's file list comes from `vitest list --filesOnly`, as vitest collects it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

/** The test files `config` collects (paths relative to the repository). */
function collected(config: string): string[] {
  const out = execFileSync(process.execPath, [VITEST, 'list', '--filesOnly', '--config', config], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return out.split('\n').map((l) => l.trim()).filter((l) => /\.(test|e2e)\.ts$/.test(l));
}

describe('the suites npm test runs', () => {
  it('npm test runs these four configs', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.test).toBe(
      'node scripts/ensure-chromium.mjs && vitest run && vitest run --config test/browser/vitest.config.ts && vitest run --config test/extension/vitest.config.ts && vitest run --config test/package/vitest.config.ts',
    );
  });

  it('collect disjoint files: none runs twice', () => {
    const configs = ['vitest.config.ts', 'test/browser/vitest.config.ts', 'test/extension/vitest.config.ts', 'test/package/vitest.config.ts'];
    const lists = configs.map((c) => [c, collected(c)] as const);
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [config, files] of lists) {
      expect(files.length, config).toBeGreaterThan(0);
      for (const f of files) {
        const other = seen.get(f);
        if (other !== undefined) twice.push(`${f}: ${other} and ${config}`);
        seen.set(f, config);
      }
    }
    expect(twice).toEqual([]);
    const unit = lists[0]![1];
    expect(unit.filter((f) => f.startsWith('test/extension/'))).toEqual([]);
    expect(unit).toContain('test/package/suites.test.ts');
    expect(lists[2]![1]).toContain('test/extension/host.test.ts');
  }, 120_000);
});
