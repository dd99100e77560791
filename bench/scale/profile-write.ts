/**
 * Profiles a bulk `addMany` (issue 25): N observations of the scale recipe written through
 * `addMany` with the shipped local System One, timed end to end. Run it under the V8 profiler to
 * see where the time of a write goes:
 *
 * `node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/scale/profile-write.ts [N=10000] [chunkSize=64] [--append <store dir>] [--add]`
 *
 * then summarise the profile with `node --import tsx bench/scale/profile-summary.ts <file.cpuprofile>`.
 *
 * Without `--append` the observations go into a FRESH file store (a temporary folder, removed
 * after). With `--append <store dir>` (stop 33: writes at 100k) they are appended to the existing
 * store at `<store dir>`, namespace `scale` (`bench scale`'s; `--namespace <name>` for another):
 * the store is opened and loaded first (one recall, not timed), then the N observations of the
 * scale recipe that FOLLOW its existing nodes (observations `nodes … nodes+N-1`, so a 100k store
 * built by `bench scale` gets the writes it would get next) are written through one `addMany`.
 * The store is changed in place: run it on a copy (`cp -r`), a fresh copy for each run that is
 * compared.
 *
 * With `--add` the N observations are written one `add` call each (single writes, as an agent
 * writes one turn at a time: its own plan, commit and, every `maintenanceInterval` adds, the
 * maintenance pass) instead of one `addMany`.
 *
 * `JEV_MEM_PROFILE_HEAP=<file.heapprofile>` writes V8's sampling heap profile of the timed writes
 * (objects already collected included: the garbage a write leaves), for `profile-summary.ts`.
 *
 * The LoCoMo file is `$JEV_MEM_LOCOMO_DATA` when set, else the default path (`bench/lib/data.ts`).
 * Prints one line: observations, seconds, observations/s, the process CPU time of the call (user +
 * system ms, in all and per observation: less sensitive than wall time to other load on the
 * machine), the nodes before, the load-independent counts per observation
 * (`profile-counters.ts`: takes of SQLite's lock directory, fsyncs) and the heap after the call
 * (after a GC when node runs with `--expose-gc`).
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { scaleObservations } from './scale.js';
import { countFsCalls, since } from './profile-counters.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined) throw new Error(`${name} needs a value`);
  args.splice(i, 2);
  return v;
};
const appendDir = flag('--append');
const single = args.includes('--add');
if (single) args.splice(args.indexOf('--add'), 1);
const namespace = flag('--namespace') ?? (appendDir === undefined ? 'profile' : 'scale');
const n = Number(args[0] ?? 10_000);
const chunkSize = Number(args[1] ?? 64);
const data = await loadLocomo(process.env.JEV_MEM_LOCOMO_DATA || defaultLocomoPath());
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const work = appendDir === undefined ? await mkdtemp(join(tmpdir(), 'jev-mem-profile-write-')) : undefined;
const fsCounts = countFsCalls();
try {
  const store = appendDir ?? join(work as string, 'store');
  const memory = await createNodeMemory({ store, namespace, encoder, systemOne, vectorIndex: 'auto' });
  let first = 0;
  if (appendDir !== undefined) {
    await memory.recall('what did they do', { k: 20 }); // loads the namespace, not timed
    first = (await memory.stats()).nodes;
  }
  const observations = scaleObservations(data.conversations, first + n).slice(first);
  // JEV_MEM_PROFILE_HEAP=<file.heapprofile>: V8's sampling heap profile of the timed writes, the
  // objects collected since counted too (what the garbage collector had to clear), for profile-summary.ts.
  const heapFile = process.env.JEV_MEM_PROFILE_HEAP || undefined;
  const session = heapFile === undefined ? undefined : new Session();
  session?.connect();
  await session?.post('HeapProfiler.enable');
  await session?.post('HeapProfiler.startSampling', { samplingInterval: 32_768, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
  const before = { ...fsCounts };
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  if (single) for (const o of observations) await memory.add(o);
  else await memory.addMany(observations, { chunkSize });
  const s = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const c = since(fsCounts, before);
  if (heapFile !== undefined) writeFileSync(heapFile, JSON.stringify((await session?.post('HeapProfiler.stopSampling'))?.profile));
  session?.disconnect();
  const stats = await memory.stats();
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed / 2 ** 20;
  console.log(
    `profile-write: ${n} observations${appendDir === undefined ? '' : ` appended after ${first} nodes`} in ${s.toFixed(1)} s = ${(n / s).toFixed(0)}/s (${single ? 'one add each' : `chunk ${chunkSize}`}); ` +
      `CPU ${cpuMs.toFixed(0)} ms (${(cpuMs / n).toFixed(1)} ms per observation: user ${(cpu.user / 1000 / n).toFixed(1)}, system ${(cpu.system / 1000 / n).toFixed(1)}); ${stats.nodes} nodes, ${stats.edges} edges; ` +
      `per observation: ${(c.lockTakes / n).toFixed(2)} lock takes (${c.lockBusy} busy in all), ${(c.fsyncs / n).toFixed(2)} fsyncs, ${(c.bytesWritten / n / 1024).toFixed(1)} KiB written; heap ${heap.toFixed(0)} MiB`,
  );
  await memory.close();
} finally {
  await systemOne.close?.();
  await encoder.close?.();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
}
