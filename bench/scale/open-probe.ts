/**
 * The fresh-process half of `bench scale` (Node): run as its own process on a store the bench
 * wrote and closed, so its memory figures are not those of the writer. It loads the encoder and
 * System One, then opens the store (`createNodeMemory`), asks the questions one by one (the first
 * one's end marks "open to first recall") and prints one line `{@link OPEN_PROBE_PREFIX}<json>`
 * with {@link OpenProbeReport}.
 *
 * Run: `node --expose-gc --import tsx bench/scale/open-probe.ts <store> <namespace> <questions.json> [systemOne] [vectorIndex]`
 * (the bench does it: {@link runOpenProbe}).
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { JevMemError } from '../../src/errors.js';
import type { MemoryOptions } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { summarize, type LatencySummary } from '../lib/metrics.js';
import { readProcStatus, runMeasured } from '../lib/proc.js';
import { repoRoot } from '../lib/data.js';

/** Prefix of the probe's report line on stdout. */
export const OPEN_PROBE_PREFIX = 'jev-mem-open-probe ';

/** Memory of the probe process at one moment, bytes. */
export interface ProbeMemory {
  /** `process.memoryUsage().heapUsed`. */
  heapUsedBytes: number;
  /** heapUsed after a full GC (`--expose-gc`); absent without it. */
  heapAfterGcBytes?: number;
  /** `process.memoryUsage().rss`. */
  rssBytes: number;
}

/** What the probe reports. */
export interface OpenProbeReport {
  /** Loading the encoder and System One before the store is touched, ms. */
  modelLoadMs: number;
  /** `createNodeMemory` on the existing store, until it resolves, ms. */
  openMs: number;
  /** From `createNodeMemory` until the first recall resolved, ms (open included). */
  openToFirstRecallMs: number;
  /** The first recall alone, ms. */
  firstRecallMs: number;
  /** Every recall, the first included. */
  recall: LatencySummary;
  questions: number;
  /** With the models loaded, before the store is opened (the process's floor). */
  baseline: ProbeMemory;
  /** After the open and every recall. */
  after: ProbeMemory;
  /** Peak RSS of the process up to the report (`VmHWM`, else `resourceUsage().maxRSS`), bytes. */
  peakRssBytes: number;
  /** Nodes the store holds (`stats()` after the recalls). */
  nodes: number;
}

function memoryNow(): ProbeMemory {
  const m = process.memoryUsage();
  const out: ProbeMemory = { heapUsedBytes: m.heapUsed, rssBytes: m.rss };
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    out.heapAfterGcBytes = process.memoryUsage().heapUsed;
  }
  return out;
}

async function probe(store: string, namespace: string, questionsFile: string, systemOneName: string, vectorIndex: MemoryOptions['vectorIndex']): Promise<OpenProbeReport> {
  const questions = JSON.parse(await readFile(questionsFile, 'utf8')) as string[];
  if (questions.length === 0) throw new JevMemError('INVALID_INPUT', 'the probe needs at least one question', { field: 'questions' });
  const tm = performance.now();
  const encoder = await createDefaultNodeEncoder();
  const systemOne = await createSystemOneFromName(systemOneName, { env: process.env });
  const modelLoadMs = performance.now() - tm;
  const baseline = memoryNow();
  const t0 = performance.now();
  const memory = await createNodeMemory({ store, namespace, create: false, encoder, systemOne, ...(vectorIndex ? { vectorIndex } : {}) });
  const openMs = performance.now() - t0;
  try {
    const latencies: number[] = [];
    let openToFirstRecallMs = 0;
    for (const q of questions) {
      const t = performance.now();
      await memory.recall(q, { k: 20 });
      latencies.push(performance.now() - t);
      if (latencies.length === 1) openToFirstRecallMs = performance.now() - t0;
    }
    // Memory first: stats() may touch more of the store than the recalls did.
    const after = memoryNow();
    const peakRssBytes = readProcStatus(process.pid)?.peakRssBytes ?? process.resourceUsage().maxRSS * 1024;
    const nodes = (await memory.stats()).nodes;
    return { modelLoadMs, openMs, openToFirstRecallMs, firstRecallMs: latencies[0] as number, recall: summarize(latencies), questions: questions.length, baseline, after, peakRssBytes, nodes };
  } finally {
    await memory.close();
    await systemOne.close();
    await encoder.close?.();
  }
}

/** Options of {@link runOpenProbe}. */
export interface OpenProbeOptions {
  store: string;
  namespace: string;
  /** A JSON file holding the questions (a string array). */
  questionsFile: string;
  /** @default 'local' */
  systemOne?: string;
  vectorIndex?: MemoryOptions['vectorIndex'];
}

/**
 * Runs the probe as a fresh Node process (`--expose-gc`, tsx) and returns its report.
 * @throws JevMemError `STORAGE_FAILED` when it exits non-zero or prints no report (its stderr in the message).
 */
export async function runOpenProbe(o: OpenProbeOptions): Promise<OpenProbeReport> {
  const script = fileURLToPath(import.meta.url);
  const args = ['--expose-gc', '--import', 'tsx', script, o.store, o.namespace, o.questionsFile, o.systemOne ?? 'local', ...(o.vectorIndex ? [o.vectorIndex] : [])];
  const run = await runMeasured(process.execPath, args, { cwd: repoRoot(), useTime: false });
  const line = run.stdout.split('\n').find((l) => l.startsWith(OPEN_PROBE_PREFIX));
  if (run.code !== 0 || line === undefined) {
    throw new JevMemError('STORAGE_FAILED', `the open probe exited ${run.code}: ${run.stderr.trim().split('\n').slice(-5).join(' | ')}`);
  }
  return JSON.parse(line.slice(OPEN_PROBE_PREFIX.length)) as OpenProbeReport;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [store, namespace, questionsFile, systemOne, vectorIndex] = process.argv.slice(2);
  if (store === undefined || namespace === undefined || questionsFile === undefined) {
    process.stderr.write('usage: open-probe.ts <store> <namespace> <questions.json> [systemOne] [vectorIndex]\n');
    process.exit(2);
  }
  const report = await probe(store, namespace, questionsFile, systemOne ?? 'local', vectorIndex as MemoryOptions['vectorIndex']);
  process.stdout.write(`${OPEN_PROBE_PREFIX}${JSON.stringify(report)}\n`);
}
