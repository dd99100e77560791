/**
 * Profiles recall over a file store (issue 25): the store at `<dir>` (built first, when missing,
 * from the first N observations of the scale recipe through one `addMany`) is opened by this
 * process, and the 50 scale questions are recalled `rounds` times (`k: 20`, as `bench scale`).
 * Run it under the V8 profiler to see where the time of a recall goes:
 *
 * `node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/scale/profile-recall.ts <store dir> [N=10000] [rounds=2] [ids.json] [namespace=profile]`
 *
 * The namespace defaults to `profile` (what this tool builds); a store built by `bench scale`
 * holds the namespace `scale`, so pass `scale` (and an ids file, `-` for none) to profile it.
 *
 * The LoCoMo file is `$JEV_MEM_LOCOMO_DATA` when set, else the default path (`bench/lib/data.ts`).
 * `profile-summary.ts` then lists the top self-time functions of the profile. With `ids.json`,
 * the ranked ids each question recalled (first round) are written there, one entry per question,
 * so two builds can be checked for identical results (`cmp` the files).
 *
 * Prints one line: recalls, p50 / p95 ms, the process CPU time of the recalls (user + system ms,
 * in all and per recall: less sensitive than wall time to other load on the machine), and the
 * load-independent counts per recall
 * (`profile-counters.ts`: takes of SQLite's lock directory), and the heap after the recalls
 * (after a GC with `--expose-gc`). The store is left in place for the next run.
 *
 * To profile the recalls alone (not the start, the open and the first recall, which `--cpu-prof`
 * also records), set `JEV_MEM_PROFILE_CPU=<file.cpuprofile>` (V8's CPU profiler through
 * `node:inspector`, for `profile-summary.ts`) or `JEV_MEM_PROFILE_HEAP=<file.heapprofile>` (V8's
 * sampling heap profiler, every 32 KiB, counting objects the GC has already collected too, so it
 * shows where the bytes a recall allocates come from; `profile-summary.ts` reads it as well).
 *
 * @module
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { countFsCalls, since } from './profile-counters.js';
import { scaleObservations, scaleQuestions, SCALE_QUERIES } from './scale.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: profile-recall.ts <store dir> [N] [rounds]');
const n = Number(process.argv[3] ?? 10_000);
const rounds = Number(process.argv[4] ?? 2);
const idsFile = process.argv[5] === '-' ? undefined : process.argv[5];
const namespace = process.argv[6] ?? 'profile';
const data = await loadLocomo(process.env.JEV_MEM_LOCOMO_DATA || defaultLocomoPath());
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const fsCounts = countFsCalls();
try {
  if (!existsSync(dir)) {
    const builder = await createNodeMemory({ store: dir, namespace, encoder, systemOne, vectorIndex: 'auto' });
    await builder.addMany(scaleObservations(data.conversations, n));
    await builder.close();
  }
  const memory = await createNodeMemory({ store: dir, namespace, encoder, systemOne, vectorIndex: 'auto' });
  const questions = scaleQuestions(data.conversations, SCALE_QUERIES);
  await memory.recall(questions[0] as string, { k: 20 }); // loads the namespace
  const before = { ...fsCounts };
  const ms: number[] = [];
  const ids: Array<{ question: string; ids: string[] }> = [];
  const cpuFile = process.env.JEV_MEM_PROFILE_CPU || undefined;
  const heapFile = process.env.JEV_MEM_PROFILE_HEAP || undefined;
  const session = cpuFile !== undefined || heapFile !== undefined ? new Session() : undefined;
  session?.connect();
  if (cpuFile !== undefined) {
    await session?.post('Profiler.enable');
    await session?.post('Profiler.setSamplingInterval', { interval: 250 });
    await session?.post('Profiler.start');
  }
  if (heapFile !== undefined) {
    await session?.post('HeapProfiler.enable');
    await session?.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  }
  const cpu0 = process.cpuUsage();
  for (let r = 0; r < rounds; r++) {
    for (const q of questions) {
      const t = performance.now();
      const res = await memory.recall(q, { k: 20 });
      ms.push(performance.now() - t);
      if (r === 0) ids.push({ question: q, ids: res.memories.map((m) => `${m.id} ${m.score}`) });
    }
  }
  const cpu = process.cpuUsage(cpu0);
  if (cpuFile !== undefined) writeFileSync(cpuFile, JSON.stringify((await session?.post('Profiler.stop'))?.profile));
  if (heapFile !== undefined) writeFileSync(heapFile, JSON.stringify((await session?.post('HeapProfiler.stopSampling'))?.profile));
  session?.disconnect();
  if (idsFile !== undefined) writeFileSync(idsFile, `${JSON.stringify(ids, null, 1)}\n`);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const c = since(fsCounts, before);
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed / 2 ** 20;
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
  console.log(
    `profile-recall: ${ms.length} recalls over ${(await memory.stats()).nodes} nodes: p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms; ` +
      `CPU ${cpuMs.toFixed(0)} ms (${(cpuMs / ms.length).toFixed(1)} ms per recall); ` +
      `per recall: ${(c.lockTakes / ms.length).toFixed(2)} lock takes (${c.lockBusy} busy in all); heap ${heap.toFixed(0)} MiB`,
  );
  await memory.close();
} finally {
  await systemOne.close?.();
  await encoder.close?.();
}
