import { describe, expect, it } from 'vitest';
import { BENCH_USAGE, main, scaleBenchOptions } from '../cli.js';
import { isJevMemError } from '../../src/errors.js';

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

describe('bench scale flags (scaleBenchOptions)', () => {
  it('--peers-only implies --peers, and each half keeps its own sizes', () => {
    expect(scaleBenchOptions([], { 'peers-only': true, browser: true, sizes: '1000', 'browser-sizes': '1000,10k,100_000' })).toEqual({
      sizes: [1000],
      browser: { sizes: [1000, 10000, 100000] },
      peers: true,
      peersOnly: true,
    });
  });

  it('without --peers-only grows jev-mem as before; --browser alone defaults every half to 1k and 10k', () => {
    expect(scaleBenchOptions([], { peers: true, browser: true })).toEqual({ sizes: [1000, 10000], browser: { sizes: [1000, 10000] }, peers: true });
    expect(scaleBenchOptions(['1000,5000'], { 'system-one': 'none' })).toEqual({ sizes: [1000, 5000], systemOne: 'none' });
  });

  it('refuses --peers-only with --edge as a usage error (exit 2), naming the flag', async () => {
    const e = (() => {
      try {
        return scaleBenchOptions([], { 'peers-only': true, edge: true });
      } catch (x) {
        return x;
      }
    })();
    expect(isJevMemError(e) && e.code === 'INVALID_OPTION' && e.field === 'peers-only').toBe(true);
    const t = io();
    expect(await main(['scale', '--peers-only', '--edge'], t.io)).toBe(2);
    expect(t.err.join('\n')).toContain('--peers-only grows no jev-mem namespace');
  });

  it('lists --peers-only in the usage', () => {
    expect(BENCH_USAGE).toContain('--peers-only  scale: grow only the peers (Orama), no jev-mem namespace');
  });
});
