/**
 * The fresh-process figures of `bench scale` (`open-probe.ts`) for one code tree, with CPU time
 * beside the wall time (issue 25, h-open: "open to first recall ≤ 1 s"): the same script measures
 * main and a branch, since it imports `<repo>`'s own `createNodeMemory`, encoder, local System One
 * and scale questions (as `ab-recall.ts` and `ab-heap.ts` do). This process loads the models,
 * opens the store `<store>` (namespace `scale`, `create: false`, `vectorIndex: 'auto'`, as the
 * probe) and asks the 50 scale questions one by one (`k: 20`).
 *
 * Prints one line `ab-open <json>`: `openToFirstRecall` (from `createNodeMemory` to the first
 * recall's answer) and `open` (`createNodeMemory` alone), each as wall ms and CPU ms (user +
 * system, `process.cpuUsage`: less sensitive than wall time to the other load of a shared
 * machine); the recalls' wall p50 / p95 / max, their CPU ms in all, the CPU ms of recalls 2-50
 * (the first one loads the namespace); heap used after the recalls, before and after a full GC,
 * and RSS (MiB); the GC pause ms of the process from the open on (`PerformanceObserver`, kind
 * `gc`); the five slowest recalls (question index, wall and CPU ms).
 *
 * Run from inside `<repo>` (so its imports resolve), on a COPY of the store (an open may migrate
 * it): `cd <repo> && node --expose-gc --import tsx <this repo>/bench/scale/ab-open.ts <repo> <store> [--ids <file>] [--data locomo10.json]`.
 * With `--ids`, the ranked ids and scores of every recall are written there (`cmp` two trees'
 * files: identical rankings). With `JEV_MEM_PROFILE_CPU=<file.cpuprofile>`, a V8 CPU profile of
 * the open and the first recall (`JEV_MEM_PROFILE_ALL=1`: of all the recalls) is written, for
 * `profile-summary.ts`.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--data' && all[i - 1] !== '--ids');
const [repoArg, storeArg] = positional;
if (repoArg === undefined || storeArg === undefined) throw new Error('usage: ab-open.ts <repo> <store> [--ids <file>] [--data locomo10.json]');
const repo = resolve(repoArg);
const store = resolve(storeArg);
const option = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const idsFile = option('--ids');
const dataPath = option('--data');

const { createNodeMemory } = (await import(`${repo}/src/node.ts`)) as typeof import('../../src/node.js');
const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
const { loadLocomo, defaultLocomoPath } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');
const { scaleQuestions, SCALE_QUERIES } = (await import(`${repo}/bench/scale/scale.ts`)) as typeof import('./scale.js');

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};
const mib = (bytes: number): number => Number((bytes / 2 ** 20).toFixed(1));
const round1 = (x: number): number => Number(x.toFixed(1));

const questions = scaleQuestions((await loadLocomo(dataPath ?? defaultLocomoPath())).conversations, SCALE_QUERIES);
const tm = performance.now();
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const modelLoadMs = performance.now() - tm;
const profileFile = process.env.JEV_MEM_PROFILE_CPU || undefined;
const session = profileFile === undefined ? undefined : new Session();
if (session !== undefined) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 250 });
  await session.post('Profiler.start');
}
let gcMs = 0;
const gcObserver = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcMs += e.duration;
});
gcObserver.observe({ entryTypes: ['gc'] });
try {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const memory = await createNodeMemory({ store, namespace: 'scale', create: false, encoder, systemOne, vectorIndex: 'auto' });
  const open = { wallMs: round1(performance.now() - t0), cpuMs: round1(cpuMs(c0)) };
  try {
    const wall: number[] = [];
    const cpu: number[] = [];
    const ids: Array<{ question: string; ids: string[] }> = [];
    let first = { wallMs: 0, cpuMs: 0 };
    let rest = process.cpuUsage();
    for (const q of questions) {
      const t = performance.now();
      const c = process.cpuUsage();
      const res = await memory.recall(q, { k: 20 });
      cpu.push(cpuMs(c));
      wall.push(performance.now() - t);
      ids.push({ question: q, ids: res.memories.map((m) => `${m.id} ${m.score}`) });
      if (wall.length === 1) {
        first = { wallMs: round1(performance.now() - t0), cpuMs: round1(cpuMs(c0)) };
        if (session !== undefined && process.env.JEV_MEM_PROFILE_ALL !== '1') writeFileSync(profileFile as string, JSON.stringify((await session.post('Profiler.stop')).profile));
        rest = process.cpuUsage();
      }
    }
    const restCpuMs = cpuMs(rest);
    if (session !== undefined && process.env.JEV_MEM_PROFILE_ALL === '1') writeFileSync(profileFile as string, JSON.stringify((await session.post('Profiler.stop')).profile));
    const heap = process.memoryUsage();
    (globalThis as { gc?: () => void }).gc?.();
    const heapAfterGc = process.memoryUsage().heapUsed;
    const sorted = [...wall].sort((a, b) => a - b);
    const at = (p: number): number => round1(sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number);
    if (idsFile !== undefined) writeFileSync(idsFile, `${JSON.stringify(ids, null, 1)}\n`);
    const report = {
      repo,
      nodes: (await memory.stats()).nodes,
      modelLoadMs: round1(modelLoadMs),
      open,
      openToFirstRecall: first,
      firstRecallWallMs: round1(wall[0] as number),
      recall: { p50: at(0.5), p95: at(0.95), max: at(1), cpuMs: round1(first.cpuMs - open.cpuMs + restCpuMs), restCpuMsPerRecall: round1(restCpuMs / (wall.length - 1)) },
      heapMiB: mib(heap.heapUsed),
      heapAfterGcMiB: mib(heapAfterGc),
      rssMiB: mib(heap.rss),
      gcMs: round1(gcMs),
      slowest: wall
        .map((w, i) => ({ i, wallMs: round1(w), cpuMs: round1(cpu[i] as number) }))
        .sort((a, b) => b.wallMs - a.wallMs)
        .slice(0, 5),
    };
    console.log(`ab-open ${JSON.stringify(report)}`);
  } finally {
    await memory.close();
  }
} finally {
  gcObserver.disconnect();
  session?.disconnect();
  await systemOne.close?.();
  await encoder.close?.();
}
