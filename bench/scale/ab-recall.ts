/**
 * CPU per recall of one code tree over a store it built (issues 22 and 25, h-readperf): the
 * same script measures the filing code (d9efaed) and main, since it imports `<repo>`'s own
 * `createNodeMemory`, encoder, local System One, LoCoMo loader and scale recipe (as
 * `ab-heap.ts` and `ab-write.ts` do). The store at `<store>` is built first when missing (the
 * first N observations of the scale recipe through one `addMany`, chunks of 64, namespace `ns`);
 * then it is opened, one recall loads the namespace, and the 50 scale questions are recalled
 * `rounds` times (`k: 20`, as `bench scale`). Round 1 reads every body and adjacency record
 * from the store (cold); later rounds find them in the memory's caches (warm). With
 * `JEV_MEM_AB_REOPEN=1` the memory is closed and opened again before each later round (cold
 * data in a warm process). Prints the CPU and wall time of the open and first recall, the CPU
 * (`process.cpuUsage`, user + system) per recall of each round, the wall p50 / p95 of all
 * recalls and p50 / p95 / max of each round, and the heap after a GC; with
 * `JEV_MEM_AB_SLOWEST=1`, also the five slowest questions of each round.
 *
 * Run from inside `<repo>` (so its imports resolve), on a COPY of the store (opening may
 * migrate it):
 * `cd <repo> && node --expose-gc --import tsx <this repo>/bench/scale/ab-recall.ts <repo> <store> [N=20000] [rounds=2] [ids.json|-] [ns=profile] [--data locomo10.json]`
 *
 * With `ids.json`, the ranked ids and scores of every recall (one entry per round and
 * question) are written there, so two trees or two versions can be checked for identical
 * results (`cmp` the files). `JEV_MEM_PROFILE_CPU=<file.cpuprofile>` profiles round
 * `JEV_MEM_PROFILE_ROUND` (default 1, the cold one) alone, for `profile-summary.ts`;
 * `JEV_MEM_PROFILE_HEAP=<file.heapprofile>` samples what that round allocates (V8's sampling
 * heap profiler, every 32 KiB, collected objects included) and prints the MiB per recall.
 *
 * @module
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--data');
const [repoArg, storeArg, nArg, roundsArg, idsArg, nsArg] = positional;
if (repoArg === undefined || storeArg === undefined) throw new Error('usage: ab-recall.ts <repo> <store> [N] [rounds] [ids.json|-] [ns] [--data locomo10.json]');
const repo = resolve(repoArg);
const store = resolve(storeArg);
const n = Number(nArg ?? 20_000);
const rounds = Number(roundsArg ?? 2);
const idsFile = idsArg === undefined || idsArg === '-' ? undefined : idsArg;
const namespace = nsArg ?? 'profile';
const dataIndex = process.argv.indexOf('--data');
const dataPath = dataIndex > 0 ? process.argv[dataIndex + 1] : undefined;

const { createNodeMemory } = (await import(`${repo}/src/node.ts`)) as typeof import('../../src/node.js');
const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
const { loadLocomo, defaultLocomoPath } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');
const { scaleObservations, scaleQuestions, SCALE_QUERIES } = (await import(`${repo}/bench/scale/scale.ts`)) as typeof import('./scale.js');

const cpuMs = (since: NodeJS.CpuUsage): number => {
  const c = process.cpuUsage(since);
  return (c.user + c.system) / 1000;
};

const data = await loadLocomo(dataPath ?? defaultLocomoPath());
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const open = (): ReturnType<typeof createNodeMemory> => createNodeMemory({ store, namespace, encoder, systemOne, vectorIndex: 'auto' });
try {
  if (!existsSync(store)) {
    const c = process.cpuUsage();
    const builder = await open();
    await builder.addMany(scaleObservations(data.conversations, n), { chunkSize: 64 });
    await builder.close();
    console.log(`built ${n} observations: CPU ${(cpuMs(c) / 1000).toFixed(0)} s`);
  }
  const questions = scaleQuestions(data.conversations, SCALE_QUERIES);
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  let memory = await open();
  await memory.recall(questions[0] as string, { k: 20 }); // loads the namespace
  console.log(`open + first recall: CPU ${cpuMs(c0).toFixed(0)} ms, wall ${(performance.now() - w0).toFixed(0)} ms`);
  const profileFile = process.env.JEV_MEM_PROFILE_CPU || undefined;
  const heapFile = process.env.JEV_MEM_PROFILE_HEAP || undefined;
  const profileRound = Number(process.env.JEV_MEM_PROFILE_ROUND ?? 1);
  const session = profileFile === undefined && heapFile === undefined ? undefined : new Session();
  session?.connect();
  if (profileFile !== undefined) {
    await session?.post('Profiler.enable');
    await session?.post('Profiler.setSamplingInterval', { interval: 250 });
  }
  if (heapFile !== undefined) await session?.post('HeapProfiler.enable');
  const ms: number[] = [];
  const perRound: number[] = [];
  const wallByRound: string[] = [];
  const ids: Array<{ round: number; question: string; ids: string[] }> = [];
  for (let r = 1; r <= rounds; r++) {
    if (r > 1 && process.env.JEV_MEM_AB_REOPEN === '1') {
      await memory.close();
      memory = await open();
      await memory.recall(questions[0] as string, { k: 20 });
    }
    if (r === profileRound && profileFile !== undefined) await session?.post('Profiler.start');
    if (r === profileRound && heapFile !== undefined) {
      await session?.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
    const c = process.cpuUsage();
    for (const q of questions) {
      const t = performance.now();
      const res = await memory.recall(q, { k: 20 });
      ms.push(performance.now() - t);
      ids.push({ round: r, question: q, ids: res.memories.map((m) => `${m.id} ${m.score}`) });
    }
    perRound.push(cpuMs(c) / questions.length);
    const own = ms.slice(-questions.length).sort((a, b) => a - b);
    const q = (p: number): number => own[Math.min(own.length - 1, Math.ceil(p * own.length) - 1)] as number;
    wallByRound.push(`${q(0.5).toFixed(1)} / ${q(0.95).toFixed(1)} / ${(own[own.length - 1] as number).toFixed(1)}`);
    if (process.env.JEV_MEM_AB_SLOWEST === '1') {
      const slow = ms.slice(-questions.length).map((t, i) => [i, t] as const).sort((a, b) => b[1] - a[1]).slice(0, 5);
      console.log(`round ${r} slowest (question index: ms): ${slow.map(([i, t]) => `${i}: ${t.toFixed(0)}`).join(', ')}`);
    }
    if (r === profileRound && session !== undefined && profileFile !== undefined) writeFileSync(profileFile, JSON.stringify((await session.post('Profiler.stop')).profile));
    if (r === profileRound && session !== undefined && heapFile !== undefined) {
      const { profile } = await session.post('HeapProfiler.stopSampling');
      writeFileSync(heapFile, JSON.stringify(profile));
      let bytes = 0;
      const walk = (node: { selfSize: number; children: Array<typeof node> }): void => {
        bytes += node.selfSize;
        for (const c of node.children) walk(c);
      };
      walk(profile.head);
      console.log(`round ${r}: ${(bytes / 2 ** 20 / questions.length).toFixed(1)} MiB allocated per recall (sampled)`);
    }
  }
  session?.disconnect();
  if (idsFile !== undefined) writeFileSync(idsFile, `${JSON.stringify(ids, null, 1)}\n`);
  (globalThis as { gc?: () => void }).gc?.();
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
  console.log(
    `ab-recall ${repo}: ${ms.length} recalls over ${(await memory.stats()).nodes} nodes; CPU ms per recall by round ${perRound.map((x) => x.toFixed(1)).join(' / ')}; ` +
      `wall p50 ${at(0.5).toFixed(1)} / p95 ${at(0.95).toFixed(1)} ms (p50 / p95 / max by round ${wallByRound.join(' | ')}); heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
  );
  await memory.close();
} finally {
  await systemOne.close?.();
  await encoder.close?.();
}
