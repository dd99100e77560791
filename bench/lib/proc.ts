/**
 * Measuring other processes from the bench (Linux): a child's wall time and peak resident memory,
 * read from `/usr/bin/time -v` when it is installed, else by polling `/proc/<pid>/status`
 * (`VmHWM`, the kernel's high-water mark of the resident set); and the descendants of a process
 * (to find the `workerd` that Miniflare starts). The parsers are pure; the rest is Node-only.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { invalidInput } from '../../src/errors.js';

/** Memory figures of `/proc/<pid>/status`, bytes (absent when the line is missing). */
export interface ProcStatus {
  /** `Name:` (the command, at most 15 characters). */
  name?: string;
  /** `VmRSS`: resident set now. */
  rssBytes?: number;
  /** `VmHWM`: peak resident set so far. */
  peakRssBytes?: number;
}

/**
 * Parses the text of `/proc/<pid>/status`: `Name`, and `VmRSS` / `VmHWM` (given in kB, i.e. KiB,
 * by the kernel) as bytes.
 */
export function parseProcStatus(text: string): ProcStatus {
  const out: ProcStatus = {};
  for (const line of text.split('\n')) {
    const m = /^(\w+):\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const [, key, value] = m as unknown as [string, string, string];
    if (key === 'Name') out.name = value;
    const kib = /^(\d+)\s*kB$/.exec(value);
    if (kib && key === 'VmRSS') out.rssBytes = Number(kib[1]) * 1024;
    if (kib && key === 'VmHWM') out.peakRssBytes = Number(kib[1]) * 1024;
  }
  return out;
}

/** What `/usr/bin/time -v` reports about the command it ran. */
export interface TimeReport {
  /** "Elapsed (wall clock) time", ms. */
  wallMs: number;
  /** "Maximum resident set size" (KiB in GNU time's output), bytes. */
  peakRssBytes: number;
  /** "Exit status". */
  exitStatus: number;
}

/**
 * Parses GNU `time -v` output (its lines may sit among the command's own stderr). The wall clock
 * is `[h:]mm:ss.ss`.
 * @returns undefined when the wall-clock or the maximum-resident-set line is missing.
 */
export function parseTimeVerbose(text: string): TimeReport | undefined {
  const wall = /Elapsed \(wall clock\) time \(h:mm:ss or m:ss\):\s*(?:(\d+):)?(\d+):(\d+(?:\.\d+)?)/.exec(text);
  const rss = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(text);
  if (!wall || !rss) return undefined;
  const exit = /Exit status:\s*(\d+)/.exec(text);
  const seconds = Number(wall[1] ?? 0) * 3600 + Number(wall[2]) * 60 + Number(wall[3]);
  return { wallMs: seconds * 1000, peakRssBytes: Number(rss[1]) * 1024, exitStatus: exit ? Number(exit[1]) : 0 };
}

/** The parent pid in the text of `/proc/<pid>/stat` (field 4; the command in field 2 may hold spaces and parentheses). */
export function parseStatParent(text: string): number | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  const ppid = Number(fields[1]);
  return Number.isInteger(ppid) ? ppid : undefined;
}

/**
 * Every descendant of `root` in a `pid → parent pid` table, breadth first (children before
 * grandchildren, each level in ascending pid order). `root` itself is not included.
 */
export function descendants(parents: ReadonlyMap<number, number>, root: number): number[] {
  const children = new Map<number, number[]>();
  for (const [pid, ppid] of parents) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const out: number[] = [];
  let level = [root];
  while (level.length > 0) {
    const next = level.flatMap((p) => (children.get(p) ?? []).sort((a, b) => a - b));
    out.push(...next);
    level = next;
  }
  return out;
}

/** `/proc/<pid>/status` of a live process, parsed; undefined when it is gone or /proc is missing. */
export function readProcStatus(pid: number): ProcStatus | undefined {
  try {
    return parseProcStatus(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The live descendants of `root` (default: this process) whose `Name` is `name`, from /proc; empty where /proc is missing. */
export function findDescendantsNamed(name: string, root = process.pid): number[] {
  if (!existsSync('/proc')) return [];
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const ppid = parseStatParent(readFileSync(`/proc/${entry}/stat`, 'utf8'));
      if (ppid !== undefined) parents.set(Number(entry), ppid);
    } catch {
      // the process ended while we looked
    }
  }
  return descendants(parents, root).filter((pid) => readProcStatus(pid)?.name === name);
}

/** Whether GNU time is installed at `/usr/bin/time`. */
export function hasGnuTime(): boolean {
  return existsSync('/usr/bin/time');
}

/** A finished child process, measured. */
export interface MeasuredRun {
  /** Exit code (null when a signal ended it). */
  code: number | null;
  stdout: string;
  /** Its stderr (without GNU time's report). */
  stderr: string;
  /** Wall time from spawn to exit, ms. */
  wallMs: number;
  /** Peak resident set, bytes. */
  peakRssBytes: number;
  /** Where the peak came from: GNU `time -v`, or the largest `VmHWM` polled from /proc. */
  peakFrom: 'time -v' | 'proc VmHWM';
}

/**
 * Runs `command args` and measures its wall time and peak RSS: under `/usr/bin/time -v` when
 * installed (GNU time's report is cut out of stderr), else polling `/proc/<pid>/status` every
 * `pollMs` (VmHWM is the kernel's high-water mark, so the poll misses nothing while the process
 * lives; what it allocates in its last `pollMs` before exiting can be missed).
 * @throws JevMemError `INVALID_INPUT` (field `command`) when the process cannot be started.
 */
export function runMeasured(command: string, args: readonly string[], o: { cwd?: string; env?: NodeJS.ProcessEnv; pollMs?: number; useTime?: boolean } = {}): Promise<MeasuredRun> {
  const useTime = o.useTime ?? hasGnuTime();
  const [cmd, argv] = useTime ? ['/usr/bin/time', ['-v', '--', command, ...args]] : [command, [...args]];
  return new Promise((resolvePromise, reject) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: o.cwd, env: o.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    let polled = 0;
    const poll = (): void => {
      if (child.pid === undefined) return;
      const s = readProcStatus(child.pid);
      if (s?.peakRssBytes !== undefined && s.peakRssBytes > polled) polled = s.peakRssBytes;
    };
    const timer = useTime ? undefined : setInterval(poll, o.pollMs ?? 20);
    child.on('error', (e) => {
      if (timer) clearInterval(timer);
      reject(invalidInput('command', `cannot start ${command}: ${e.message}`));
    });
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      const wallMs = performance.now() - t0;
      let stderr = Buffer.concat(err).toString('utf8');
      const stdout = Buffer.concat(out).toString('utf8');
      if (useTime) {
        const report = parseTimeVerbose(stderr);
        // GNU time's report starts with "\tCommand being timed:"; cut it out of the child's stderr
        const at = stderr.search(/(?:Command exited with non-zero status \d+\n)?\tCommand being timed:/);
        if (at >= 0) stderr = stderr.slice(0, at);
        resolvePromise({ code: report ? report.exitStatus : code, stdout, stderr, wallMs, peakRssBytes: report?.peakRssBytes ?? 0, peakFrom: 'time -v' });
        return;
      }
      resolvePromise({ code, stdout, stderr, wallMs, peakRssBytes: polled, peakFrom: 'proc VmHWM' });
    });
  });
}
