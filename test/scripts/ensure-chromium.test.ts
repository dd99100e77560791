import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/ensure-chromium.mjs', import.meta.url));
const run = (chromiumPath: string) =>
  spawnSync(process.execPath, [script], { encoding: 'utf8', env: { ...process.env, CHROMIUM_PATH: chromiumPath } });

describe('scripts/ensure-chromium.mjs (the test command on a machine without a browser)', () => {
  it('passes when the Chromium it was pointed at exists', () => {
    const r = run(process.execPath); // any existing file stands in for the binary
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
  });

  it('stops with the exact install command when CHROMIUM_PATH names a missing file', () => {
    const r = run('/nonexistent/chromium');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('CHROMIUM_PATH is /nonexistent/chromium, which does not exist');
    expect(r.stderr).toContain('sudo apt-get update && sudo apt-get install -y chromium');
  });
});
