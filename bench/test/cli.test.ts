import { describe, expect, it } from 'vitest';
import { BENCH_USAGE, main } from '../cli.js';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) } };
}

describe('npm run bench (bench/cli.ts main)', () => {
  it('prints the usage for --help and exits 0', async () => {
    const t = io();
    expect(await main(['--help'], t.io)).toBe(0);
    expect(t.out).toEqual([BENCH_USAGE]);
  });

  it('refuses an unknown flag with exit code 2 and the usage', async () => {
    const t = io();
    expect(await main(['locomo', '--splitt', 'test'], t.io)).toBe(2);
    expect(t.err.join('\n')).toContain("Unknown option '--splitt'");
    expect(t.err.join('\n')).toContain(BENCH_USAGE);
  });

  it('refuses a missing or unknown sub-command with exit code 2', async () => {
    const a = io();
    expect(await main([], a.io)).toBe(2);
    expect(a.err.join('\n')).toContain('missing sub-command');
    const b = io();
    expect(await main(['locomoo'], b.io)).toBe(2);
    expect(b.err.join('\n')).toContain('unknown sub-command "locomoo"');
  });

  it('passes a bad --split through to the harness as a usage error (exit 2)', async () => {
    const t = io();
    expect(await main(['locomo', '--split', 'train'], t.io)).toBe(2);
    expect(t.err.join('\n')).toMatch(/^bench: INVALID_OPTION: /);
  });
});
