/**
 * Profiles a bulk `addMany` (issue 25): N observations of the scale recipe written through
 * `addMany` into a fresh file store with the shipped local System One, timed end to end. Run it
 * under the V8 profiler to see where the time of a write goes:
 *
 * `node --cpu-prof --cpu-prof-dir=<dir> --import tsx bench/scale/profile-write.ts [N=10000] [chunkSize=64]`
 *
 * then summarise the profile with `node --import tsx bench/scale/profile-summary.ts <file.cpuprofile>`.
 * Prints one line: observations, seconds, observations/s, and the load-independent counts per
 * observation (`profile-counters.ts`: takes of SQLite's lock directory, fsyncs) and the heap
 * after the call (after a GC when node runs with `--expose-gc`).
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { scaleObservations } from './scale.js';
import { countFsCalls, since } from './profile-counters.js';

const n = Number(process.argv[2] ?? 10_000);
const chunkSize = Number(process.argv[3] ?? 64);
const data = await loadLocomo(defaultLocomoPath());
const observations = scaleObservations(data.conversations, n);
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const work = await mkdtemp(join(tmpdir(), 'jev-mem-profile-write-'));
const fsCounts = countFsCalls();
try {
  const memory = await createNodeMemory({ store: join(work, 'store'), namespace: 'profile', encoder, systemOne, vectorIndex: 'auto' });
  const before = { ...fsCounts };
  const t = performance.now();
  await memory.addMany(observations, { chunkSize });
  const s = (performance.now() - t) / 1000;
  const c = since(fsCounts, before);
  const stats = await memory.stats();
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed / 2 ** 20;
  console.log(
    `profile-write: ${n} observations in ${s.toFixed(1)} s = ${(n / s).toFixed(0)}/s (chunk ${chunkSize}); ${stats.nodes} nodes, ${stats.edges} edges; ` +
      `per observation: ${(c.lockTakes / n).toFixed(2)} lock takes (${c.lockBusy} busy in all), ${(c.fsyncs / n).toFixed(2)} fsyncs; heap ${heap.toFixed(0)} MiB`,
  );
  await memory.close();
} finally {
  await systemOne.close?.();
  await encoder.close?.();
  await rm(work, { recursive: true, force: true });
}
