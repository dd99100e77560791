import { describe, expect, it } from 'vitest';
import { descendants, parseProcStatus, parseStatParent, parseTimeVerbose } from '../lib/proc.js';
import { cliAcceptance, medianRun } from '../scale/cli-check.js';

describe('parseProcStatus', () => {
  it('reads Name, VmRSS and VmHWM (kB = KiB) as bytes', () => {
    const text = 'Name:\tworkerd\nUmask:\t0022\nVmPeak:\t 9000 kB\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nThreads:\t4\n';
    // 204800 KiB = 200 MiB = 209715200 B; 102400 KiB = 104857600 B
    expect(parseProcStatus(text)).toEqual({ name: 'workerd', peakRssBytes: 209_715_200, rssBytes: 104_857_600 });
  });
  it('leaves out what a kernel thread lacks', () => {
    expect(parseProcStatus('Name:\tkthreadd\nState:\tS (sleeping)\n')).toEqual({ name: 'kthreadd' });
  });
});

describe('parseTimeVerbose', () => {
  const report = (wall: string): string =>
    `child's own stderr\n\tCommand being timed: "node x.js"\n\tUser time (seconds): 1.20\n\tElapsed (wall clock) time (h:mm:ss or m:ss): ${wall}\n\tMaximum resident set size (kbytes): 181248\n\tExit status: 0\n`;
  it('reads m:ss.ss wall clock and the peak RSS (KiB) as bytes', () => {
    // 1:02.50 = 62.5 s; 181248 KiB = 185597952 B
    expect(parseTimeVerbose(report('1:02.50'))).toEqual({ wallMs: 62_500, peakRssBytes: 185_597_952, exitStatus: 0 });
  });
  it('reads h:mm:ss wall clock', () => {
    // 1:00:03 = 3603 s
    expect(parseTimeVerbose(report('1:00:03'))?.wallMs).toBe(3_603_000);
  });
  it('is undefined without the report', () => {
    expect(parseTimeVerbose('Segmentation fault')).toBeUndefined();
  });
});

describe('parseStatParent / descendants', () => {
  it('finds the parent pid after a command with spaces and parentheses', () => {
    expect(parseStatParent('4242 (my (odd) cmd) S 17 4242 17 0 -1')).toBe(17);
  });
  it('lists children, then grandchildren, without the root or strangers', () => {
    const parents = new Map([[10, 1], [12, 10], [11, 10], [20, 12], [30, 2]]);
    expect(descendants(parents, 10)).toEqual([11, 12, 20]);
    expect(descendants(parents, 30)).toEqual([]);
  });
});

describe('cliAcceptance (issue 13: ≤ 1.5× wall, ≤ +150 MiB peak RSS)', () => {
  const MiB = 2 ** 20;
  it('passes on the bounds themselves', () => {
    const v = cliAcceptance({ wallMs: 1000, peakRssBytes: 200 * MiB }, { wallMs: 1500, peakRssBytes: 350 * MiB });
    expect(v).toEqual({ wallRatio: 1.5, rssExtraMiB: 150, wallOk: true, rssOk: true, pass: true });
  });
  it('fails on either bound alone', () => {
    const slow = cliAcceptance({ wallMs: 1000, peakRssBytes: 200 * MiB }, { wallMs: 1510, peakRssBytes: 210 * MiB });
    expect([slow.wallOk, slow.rssOk, slow.pass]).toEqual([false, true, false]);
    const fat = cliAcceptance({ wallMs: 1000, peakRssBytes: 200 * MiB }, { wallMs: 1100, peakRssBytes: 351 * MiB });
    expect([fat.wallOk, fat.rssOk, fat.pass]).toEqual([true, false, false]);
    expect(fat.rssExtraMiB).toBe(151);
  });
  it('refuses a small run without wall time', () => {
    expect(() => cliAcceptance({ wallMs: 0, peakRssBytes: 1 }, { wallMs: 1, peakRssBytes: 1 })).toThrow(/small/);
  });
  it('takes each figure\'s own median', () => {
    // walls 900, 1000, 3000 → 1000; peaks 5, 1, 3 → 3
    expect(medianRun([{ wallMs: 3000, peakRssBytes: 1 }, { wallMs: 900, peakRssBytes: 5 }, { wallMs: 1000, peakRssBytes: 3 }])).toEqual({ wallMs: 1000, peakRssBytes: 3 });
  });
});
