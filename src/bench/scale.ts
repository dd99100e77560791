/**
 * `jev-mem bench scale`: how jev-mem behaves as ONE namespace grows (issue 4 item 5), in Node.
 * At each size it reports write throughput and System-One time per write, recall latency
 * p50/p95, RSS and heap, stored bytes, and the time to reopen the store.
 *
 * Observation recipe ({@link SCALE_RECIPE}): the 5,882 LoCoMo turns (all ten conversations, file
 * order) are repeated; copy c (0-based) shifts every date by c × 1,461 days (four years) and
 * renames each speaker X to "X <surname c>" (copy 0 keeps the names), in the speaker field, the
 * "<speaker>: " prefix and whole-word mentions of either speaker in the text. Session and turn
 * ids get a "c<c>/" prefix and the source is `locomo-scale:c<c>:<sample>`, so no copy is an exact
 * repeat of another (nothing is de-duplicated). Questions are every n-th LoCoMo question of
 * categories 1-4 (50 of them), asked against the whole namespace.
 *
 * TODO(browser): the headless-Chromium half of this benchmark (IndexedDB store, System One in a
 * Web Worker, same recipe and sizes, through playwright-core with /usr/bin/chromium) belongs to
 * the browser harness; results.json carries `browser: { status: 'todo' }` until it exists.
 *
 * @module
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSystemOneFromName } from '../cli/system-one.js';
import { createDefaultNodeEncoder } from '../encoder/default-node.js';
import type { Encoder } from '../encoder/encoder.js';
import { invalidOption } from '../errors.js';
import type { LocomoConversation } from '../formats/locomo.js';
import type { Memory, MemoryOptions } from '../memory.js';
import { createNodeMemory } from '../node.js';
import type { SystemOneBackend } from '../system-one/wire.js';
import type { Observation } from '../types.js';
import { DAY_MS, parseTimestamp, toIso } from '../util/time.js';
import { defaultLocomoPath, loadLocomo, repoRoot } from './data.js';
import { countingBackend, countsDelta, sharedEncoder, type CountingBackend } from './jev.js';
import { summarize, type LatencySummary } from './metrics.js';
import { gitInfo, machineInfo, RssSampler, type GitInfo, type MachineInfo } from './resources.js';
import { lineChart } from './svg.js';

/** Default sizes (observations in the namespace). */
export const DEFAULT_SCALE_SIZES: readonly number[] = Object.freeze([1000, 10_000, 100_000]);

/** Days each copy of the LoCoMo turns is shifted by (four years). */
export const SCALE_SHIFT_DAYS = 1461;

/** Surnames given to the speakers of copies 1, 2, ... (copy 0 keeps the LoCoMo names). */
export const SCALE_SURNAMES: readonly string[] = Object.freeze([
  'Adams', 'Baker', 'Clark', 'Davis', 'Evans', 'Foster', 'Garcia', 'Hughes', 'Ito', 'Jensen',
  'Kowalski', 'Lopez', 'Müller', 'Nakamura', 'Okafor', 'Petrov', 'Quinn', 'Rossi', 'Singh', 'Tanaka',
]);

/** The recipe, as written into results.json. */
export const SCALE_RECIPE =
  'LoCoMo turns of all ten conversations in file order, repeated; copy c shifts dates by c×1461 days and renames speaker X to "X <SCALE_SURNAMES[c-1]>" (copy 0 unchanged) in the speaker field, the prefix and whole-word mentions; ids and source carry "c<c>"; no exact repeats.';

/** Writes measured at each size for throughput: the last ones before the size is reached. */
export const SCALE_MEASURED_WRITES = 1000;

/** Questions asked at each size. */
export const SCALE_QUERIES = 50;

/**
 * Parses `--sizes` ("1000,10000,100000"): positive integers, returned ascending without repeats.
 * @throws JevMemError `INVALID_OPTION` (field `sizes`) on anything else.
 */
export function parseSizes(value: string | undefined): number[] {
  if (value === undefined || value.trim() === '') return [...DEFAULT_SCALE_SIZES];
  const parts = value.split(',').map((s) => s.trim().replace(/_/g, '').replace(/k$/i, '000'));
  const sizes = parts.map(Number);
  sizes.forEach((n, i) => {
    if (!Number.isInteger(n) || n < 1) throw invalidOption('sizes', `expected positive integers separated by commas (e.g. 1000,10000,100000), got ${JSON.stringify(parts[i])}`);
  });
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Speaker name of copy c ({@link SCALE_RECIPE}). */
export function scaleSpeaker(name: string, copy: number): string {
  if (copy === 0) return name;
  const i = copy - 1;
  const surname = SCALE_SURNAMES[i % SCALE_SURNAMES.length] as string;
  const round = Math.floor(i / SCALE_SURNAMES.length);
  return `${name} ${surname}${round > 0 ? ` ${round + 1}` : ''}`;
}

/** The first `n` observations of the scale recipe ({@link SCALE_RECIPE}). */
export function scaleObservations(conversations: readonly LocomoConversation[], n: number): Observation[] {
  const base: Array<{ o: Observation; conv: LocomoConversation }> = conversations.flatMap((conv) => conv.observations.map((o) => ({ o, conv })));
  if (base.length === 0) return [];
  const out: Observation[] = [];
  for (let i = 0; i < n; i++) {
    const copy = Math.floor(i / base.length);
    const { o, conv } = base[i % base.length] as { o: Observation; conv: LocomoConversation };
    if (copy === 0) {
      out.push({ ...o });
      continue;
    }
    const [a, b] = conv.speakers;
    const names = new Map([
      [a, scaleSpeaker(a, copy)],
      [b, scaleSpeaker(b, copy)],
    ]);
    const re = new RegExp(`\\b(${[a, b].map(escapeRegExp).join('|')})\\b`, 'g');
    const text = o.text.replace(re, (m) => names.get(m) ?? m);
    const next: Observation = { text, source: `locomo-scale:c${copy}:${conv.sampleId}` };
    if (o.speaker !== undefined) next.speaker = names.get(o.speaker) ?? o.speaker;
    if (o.sessionId !== undefined) next.sessionId = `c${copy}/${conv.sampleId}/${o.sessionId}`;
    if (o.turnId !== undefined) next.turnId = `c${copy}/${o.turnId}`;
    if (o.observedAt !== undefined) {
      const ms = parseTimestamp(o.observedAt);
      if (ms !== undefined) next.observedAt = toIso(ms + copy * SCALE_SHIFT_DAYS * DAY_MS);
    }
    out.push(next);
  }
  return out;
}

/** Every n-th question (categories 1-4, with evidence) so that `count` are taken across the file. */
export function scaleQuestions(conversations: readonly LocomoConversation[], count: number): string[] {
  const all = conversations.flatMap((c) => c.questions.filter((q) => q.category >= 1 && q.category <= 4 && q.evidence.length > 0).map((q) => q.question));
  if (all.length <= count) return all;
  const stride = all.length / count;
  return Array.from({ length: count }, (_, i) => all[Math.floor(i * stride)] as string);
}

/** Figures at one size. */
export interface ScalePoint {
  /** Observations in the namespace. */
  size: number;
  nodes: number;
  edges: number;
  write: {
    /** Writes timed for throughput (the last ones before reaching the size). */
    measured: number;
    /** Their wall time, ms. */
    ms: number;
    /** Observations per second over them. */
    perSecond: number;
    /** System-One calls (round trips) per write over them. */
    systemOneCallsPerWrite: number;
    /** System-One time per write over them, ms. */
    systemOneMsPerWrite: number;
    /** Wall time of growing from the previous size to this one, ms. */
    segmentMs: number;
  };
  /** Recall latency over the questions, ms. */
  recall: LatencySummary;
  memory: { rssBytes: number; heapUsedBytes: number };
  storage: { bytes: number; bytesPerNode: number };
  /** Close, open again and load the namespace (`stats()`), ms; then the first recall, ms. */
  reopen: { ms: number; firstRecallMs: number };
}

/** `results.json` of `jev-mem bench scale`. */
export interface ScaleResults {
  format: 'jev-mem/bench-scale';
  version: 1;
  startedAt: string;
  durationMs: number;
  machine: MachineInfo;
  git: GitInfo;
  settings: { sizes: number[]; recipe: string; measuredWrites: number; queries: number; systemOne: string; systemOneModel: string; encoder: string; vectorIndex: string; data: string };
  modelLoadMs: { encoder: number; systemOne: number };
  points: ScalePoint[];
  /** Peak RSS of the run, bytes. */
  peakRssBytes: number;
  /** The headless-Chromium half (not implemented here). */
  browser: { status: 'todo'; note: string };
}

/** Options of {@link runScaleBench}. */
export interface ScaleBenchOptions {
  /** @default {@link DEFAULT_SCALE_SIZES} */
  sizes?: readonly number[];
  /** @default `<repo>/../shared/data/locomo10.json` */
  dataPath?: string;
  /** @default 'local' */
  systemOne?: string;
  /** @default 'flat' */
  vectorIndex?: MemoryOptions['vectorIndex'];
  /** Parent of the temporary store. @default os.tmpdir() */
  tmpDir?: string;
  log?: (line: string) => void;
}

async function timedRecalls(memory: Memory, questions: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const q of questions) {
    const t = performance.now();
    await memory.recall(q, { k: 20 });
    out.push(performance.now() - t);
  }
  return out;
}

/**
 * Runs the scale benchmark in a temporary file store (removed afterwards).
 * @throws JevMemError `NOT_FOUND` (data), `MODEL_LOAD_FAILED`, `INVALID_OPTION`, and the memory's errors.
 */
export async function runScaleBench(o: ScaleBenchOptions = {}): Promise<ScaleResults> {
  const log = o.log ?? (() => undefined);
  const sizes = [...(o.sizes ?? DEFAULT_SCALE_SIZES)].sort((a, b) => a - b);
  const startedAt = new Date();
  const t0 = performance.now();
  const rss = new RssSampler().start(100);
  const data = await loadLocomo(o.dataPath ?? defaultLocomoPath());
  const observations = scaleObservations(data.conversations, sizes[sizes.length - 1] ?? 0);
  const questions = scaleQuestions(data.conversations, SCALE_QUERIES);
  const systemOneName = o.systemOne ?? 'local';
  const vectorIndex = o.vectorIndex ?? 'auto';
  let encoder: Encoder | undefined;
  let inner: SystemOneBackend | undefined;
  let memory: Memory | undefined;
  const dir = await mkdtemp(join(o.tmpDir ?? tmpdir(), 'jev-mem-scale-'));
  try {
    let t = performance.now();
    encoder = await createDefaultNodeEncoder();
    const encoderMs = performance.now() - t;
    t = performance.now();
    inner = await createSystemOneFromName(systemOneName, { env: process.env });
    const systemOneMs = performance.now() - t;
    const backend: CountingBackend = countingBackend(inner);
    const open = (): Promise<Memory> => createNodeMemory({ store: dir, namespace: 'scale', encoder: sharedEncoder(encoder as Encoder), systemOne: backend, vectorIndex });
    memory = await open();
    const points: ScalePoint[] = [];
    let written = 0;
    for (const size of sizes) {
      const segStart = performance.now();
      const measured = Math.min(SCALE_MEASURED_WRITES, size - written);
      const bulk = observations.slice(written, size - measured);
      if (bulk.length > 0) {
        let last = 0;
        await memory.addMany(bulk, {
          onProgress: (p) => {
            if (performance.now() - last > 10_000) {
              last = performance.now();
              log(`scale: ${written + p.done}/${size} written (${p.perSecond.toFixed(0)}/s)`);
            }
          },
        });
      }
      const before = backend.counts();
      const tw = performance.now();
      await memory.addMany(observations.slice(size - measured, size));
      const writeMs = performance.now() - tw;
      const s1 = countsDelta(backend.counts(), before);
      written = size;
      const segmentMs = performance.now() - segStart;
      rss.sample();
      const latencies = await timedRecalls(memory, questions);
      const stats = await memory.stats();
      const mem = process.memoryUsage();
      rss.sample();
      await memory.close();
      const tr = performance.now();
      memory = await open();
      await memory.stats();
      const reopenMs = performance.now() - tr;
      const tf = performance.now();
      await memory.recall(questions[0] ?? 'hello', { k: 20 });
      const firstRecallMs = performance.now() - tf;
      const point: ScalePoint = {
        size,
        nodes: stats.nodes,
        edges: stats.edges,
        write: {
          measured,
          ms: writeMs,
          perSecond: writeMs > 0 ? (measured * 1000) / writeMs : 0,
          systemOneCallsPerWrite: measured > 0 ? s1.calls / measured : 0,
          systemOneMsPerWrite: measured > 0 ? s1.ms / measured : 0,
          segmentMs,
        },
        recall: summarize(latencies),
        memory: { rssBytes: mem.rss, heapUsedBytes: mem.heapUsed },
        storage: { bytes: stats.storageBytes ?? 0, bytesPerNode: stats.nodes > 0 ? (stats.storageBytes ?? 0) / stats.nodes : 0 },
        reopen: { ms: reopenMs, firstRecallMs },
      };
      points.push(point);
      log(`scale: ${size} nodes: ${point.write.perSecond.toFixed(0)} writes/s, recall p50 ${point.recall.p50.toFixed(1)} ms, reopen ${reopenMs.toFixed(0)} ms`);
    }
    return {
      format: 'jev-mem/bench-scale',
      version: 1,
      startedAt: startedAt.toISOString(),
      durationMs: performance.now() - t0,
      machine: machineInfo(),
      git: gitInfo(repoRoot()),
      settings: { sizes, recipe: SCALE_RECIPE, measuredWrites: SCALE_MEASURED_WRITES, queries: questions.length, systemOne: systemOneName, systemOneModel: inner.modelId, encoder: encoder.fingerprint, vectorIndex, data: data.path },
      modelLoadMs: { encoder: encoderMs, systemOne: systemOneMs },
      points,
      peakRssBytes: Math.max(rss.stop(), 0),
      browser: { status: 'todo', note: 'Headless Chromium (IndexedDB store, System One in a Web Worker) is not measured yet; see the TODO in src/bench/scale.ts.' },
    };
  } finally {
    rss.stop();
    await memory?.close().catch(() => undefined);
    await inner?.close().catch(() => undefined);
    await encoder?.close?.().catch(() => undefined);
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Markdown summary of a scale run. */
export function renderScaleMarkdown(r: ScaleResults): string {
  const lines = [
    '# jev-mem: one namespace at scale (Node)',
    '',
    `- Run: ${r.startedAt} (${(r.durationMs / 1000).toFixed(1)} s); code ${r.git.commit ?? 'no commit'}${r.git.dirty ? ' (uncommitted changes)' : ''}`,
    `- Machine: ${r.machine.cpuModel}, ${r.machine.cores} cores, Node ${r.machine.node}`,
    `- System One: ${r.settings.systemOne} (${r.settings.systemOneModel}), loaded in ${r.modelLoadMs.systemOne.toFixed(0)} ms; encoder ${r.settings.encoder} (${r.modelLoadMs.encoder.toFixed(0)} ms); vector index ${r.settings.vectorIndex}`,
    `- Observations: ${r.settings.recipe}`,
    `- Throughput is measured over the last ${r.settings.measuredWrites} writes before each size; recall over ${r.settings.queries} questions.`,
    '',
    '| size | edges | writes/s | System-One calls/write | System-One ms/write | recall p50 ms | p95 ms | max ms | RSS MiB | heap MiB | stored MiB | bytes/node | reopen ms | first recall ms |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...r.points.map(
      (p) =>
        `| ${p.size} | ${p.edges} | ${p.write.perSecond.toFixed(0)} | ${p.write.systemOneCallsPerWrite.toFixed(3)} | ${p.write.systemOneMsPerWrite.toFixed(2)} | ${p.recall.p50.toFixed(1)} | ${p.recall.p95.toFixed(1)} | ${p.recall.max.toFixed(1)} | ${(p.memory.rssBytes / 2 ** 20).toFixed(0)} | ${(p.memory.heapUsedBytes / 2 ** 20).toFixed(0)} | ${(p.storage.bytes / 2 ** 20).toFixed(1)} | ${p.storage.bytesPerNode.toFixed(0)} | ${p.reopen.ms.toFixed(0)} | ${p.reopen.firstRecallMs.toFixed(1)} |`,
    ),
    '',
    `Browser (headless Chromium): ${r.browser.status} — ${r.browser.note}`,
    '',
    '![write throughput](scale-write.svg)',
    '',
    '![recall latency](scale-recall.svg)',
    '',
    '![memory](scale-memory.svg)',
    '',
    '![storage](scale-storage.svg)',
    '',
    '![reopen](scale-reopen.svg)',
    '',
  ];
  return lines.join('\n');
}

/** Writes results.json, results.md and one chart per figure into `outDir`; returns the paths. */
export async function writeScaleOutputs(r: ScaleResults, outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const x = r.points.map((p) => p.size);
  const chart = (title: string, yLabel: string, series: Array<{ name: string; values: number[] }>): string => lineChart({ title, x, series, xLabel: 'observations in the namespace (log scale)', yLabel, logX: true });
  const files: Array<[string, string]> = [
    ['results.json', `${JSON.stringify(r, null, 2)}\n`],
    ['results.md', renderScaleMarkdown(r)],
    ['scale-write.svg', chart('Write throughput', 'observations / s', [{ name: 'writes/s', values: r.points.map((p) => p.write.perSecond) }])],
    ['scale-recall.svg', chart('Recall latency', 'ms', [
      { name: 'p50', values: r.points.map((p) => p.recall.p50) },
      { name: 'p95', values: r.points.map((p) => p.recall.p95) },
    ])],
    ['scale-memory.svg', chart('Process memory', 'MiB', [
      { name: 'RSS', values: r.points.map((p) => p.memory.rssBytes / 2 ** 20) },
      { name: 'heap used', values: r.points.map((p) => p.memory.heapUsedBytes / 2 ** 20) },
    ])],
    ['scale-storage.svg', chart('Stored bytes', 'MiB', [{ name: 'file store', values: r.points.map((p) => p.storage.bytes / 2 ** 20) }])],
    ['scale-reopen.svg', chart('Reopen the store', 'ms', [
      { name: 'open + load', values: r.points.map((p) => p.reopen.ms) },
      { name: 'first recall', values: r.points.map((p) => p.reopen.firstRecallMs) },
    ])],
    ['scale-system-one.svg', chart('System One per write', 'ms', [{ name: 'ms / write', values: r.points.map((p) => p.write.systemOneMsPerWrite) }])],
  ];
  const written: string[] = [];
  for (const [name, text] of files) {
    const p = join(outDir, name);
    await writeFile(p, text, 'utf8');
    written.push(p);
  }
  return written;
}
