/**
 * Cold open of a file store (issue 22 "no figure worse at 100k", issue 25 "open to first recall
 * ≤ 1 s at 100k"): this process loads the encoder and System One, then opens the store at
 * `<dir>` (built first, when missing, from the first N observations of the scale recipe through
 * one `addMany`, in another step of the same process before the measure) and asks one question.
 *
 * `node --expose-gc --import tsx bench/scale/open-cold.ts <store dir> [N=10000] [namespace=profile]`
 *
 * Prints one line: the CPU time (user + system, ms) and wall time (ms) of the open
 * (`createNodeMemory`) and of the first recall (`k: 20`, the first scale question; it loads the
 * namespace, whose wall time `stats().opened.ms` is given apart), the nodes held, and the heap after (MiB, after a GC when `--expose-gc` is given). CPU time is less
 * sensitive than wall time to other load on the machine. The store is left in place; pass the
 * same N each time (it only sizes a store that is built). With `$JEV_MEM_OPEN_PROFILE` set to a
 * file path, a V8 CPU profile of the open and the first recall alone (not the module loading
 * before them) is written there, for `profile-summary.ts`.
 *
 * @module
 */
import { existsSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { defaultLocomoPath, loadLocomo } from '../lib/data.js';
import { scaleObservations, scaleQuestions, SCALE_QUERIES } from './scale.js';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: open-cold.ts <store dir> [N] [namespace]');
const n = Number(process.argv[3] ?? 10_000);
const namespace = process.argv[4] ?? 'profile';
const data = await loadLocomo(process.env.JEV_MEM_LOCOMO_DATA || defaultLocomoPath());
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });

/** CPU ms (user + system) and wall ms of `f`. */
async function measure<T>(f: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await f();
  const wallMs = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, cpuMs: (c.user + c.system) / 1000, wallMs };
}

try {
  if (!existsSync(dir)) {
    const builder = await createNodeMemory({ store: dir, namespace, encoder, systemOne, vectorIndex: 'auto' });
    await builder.addMany(scaleObservations(data.conversations, n));
    await builder.close();
  }
  const question = scaleQuestions(data.conversations, SCALE_QUERIES)[0] as string;
  // Warms the encoder on another text, so the first recall measures the store, not the model's first run.
  await encoder.embed(['warm up the encoder']);
  const profileFile = process.env.JEV_MEM_OPEN_PROFILE;
  const session = profileFile ? new Session() : undefined;
  if (session !== undefined) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const open = await measure(() => createNodeMemory({ store: dir, namespace, create: false, encoder, systemOne, vectorIndex: 'auto' }));
  const memory = open.value;
  const first = await measure(() => memory.recall(question, { k: 20 }));
  if (session !== undefined) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile as string, JSON.stringify(profile));
    session.disconnect();
  }
  (globalThis as { gc?: () => void }).gc?.();
  const heap = process.memoryUsage().heapUsed / 2 ** 20;
  const stats = await memory.stats();
  console.log(
    `open-cold: ${stats.nodes} nodes: open CPU ${open.cpuMs.toFixed(0)} ms, wall ${open.wallMs.toFixed(0)} ms; ` +
      `first recall CPU ${first.cpuMs.toFixed(0)} ms, wall ${first.wallMs.toFixed(0)} ms ` +
      `(of which the namespace's load from its ${stats.opened.from}: wall ${stats.opened.ms} ms); heap after ${heap.toFixed(1)} MiB`,
  );
  await memory.close();
} finally {
  await systemOne.close?.();
  await encoder.close?.();
}
