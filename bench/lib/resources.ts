/**
 * What a benchmark records about where it ran: the machine (CPU model, cores, memory, Node
 * version), the git commit of the checkout, and the process's peak resident memory. Node-only.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { arch, cpus, platform, release, totalmem } from 'node:os';

/** The machine a run used. */
export interface MachineInfo {
  /** CPU model string of the first core. */
  cpuModel: string;
  /** Logical cores. */
  cores: number;
  /** Physical memory, bytes. */
  totalMemoryBytes: number;
  /** `process.version`. */
  node: string;
  /** V8 version. */
  v8: string;
  platform: string;
  osRelease: string;
  arch: string;
}

/** Describes this machine. */
export function machineInfo(): MachineInfo {
  const c = cpus();
  return {
    cpuModel: c[0]?.model.trim() ?? 'unknown',
    cores: c.length,
    totalMemoryBytes: totalmem(),
    node: process.version,
    v8: process.versions.v8,
    platform: platform(),
    osRelease: release(),
    arch: arch(),
  };
}

/** The checkout a run used. */
export interface GitInfo {
  /** `git rev-parse HEAD`, or null outside a repository / before the first commit. */
  commit: string | null;
  /** True when tracked or untracked files differ from the commit (null when unknown). */
  dirty: boolean | null;
}

/** Reads the commit of the repository at `dir` (never throws). */
export function gitInfo(dir: string): GitInfo {
  const run = (args: string[]): string | null => {
    try {
      return execFileSync('git', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).trim();
    } catch {
      return null;
    }
  };
  const commit = run(['rev-parse', 'HEAD']);
  const status = run(['status', '--porcelain']);
  return { commit: commit && /^[0-9a-f]{40}$/.test(commit) ? commit : null, dirty: status === null ? null : status.length > 0 };
}

/**
 * Samples `process.memoryUsage().rss` on a timer (the timer cannot fire inside long synchronous
 * work, so callers also call {@link RssSampler.sample} at checkpoints). `peakBytes` is the larger
 * of the samples and, when `useProcessPeak`, the kernel's own peak (`process.resourceUsage().maxRSS`,
 * which covers the whole process life, test runner included).
 */
export class RssSampler {
  #peak = 0;
  #timer: ReturnType<typeof setInterval> | undefined;

  /** Starts sampling every `intervalMs` ms (the timer does not keep the process alive). */
  start(intervalMs = 50): this {
    this.sample();
    this.#timer = setInterval(() => this.sample(), intervalMs);
    this.#timer.unref?.();
    return this;
  }

  /** Takes one sample now; returns the current RSS in bytes. */
  sample(): number {
    const rss = process.memoryUsage().rss;
    if (rss > this.#peak) this.#peak = rss;
    return rss;
  }

  /** Largest sample so far, bytes. */
  get sampledPeakBytes(): number {
    return this.#peak;
  }

  /** The process's peak RSS as the kernel reports it, bytes. */
  static processPeakBytes(): number {
    return process.resourceUsage().maxRSS * 1024;
  }

  /** Stops the timer; returns the sampled peak in bytes. */
  stop(): number {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    this.sample();
    return this.#peak;
  }
}
