/**
 * The heap of a fresh process of one code tree, step by step (issue 22, h-nodeperf): after its
 * modules are imported, after its encoder and local System One are loaded (the scale bench's
 * "baseline"), and, given a store, after it is opened and the scale questions are recalled
 * (namespace `scale`, `k: 10`). Each figure is `heapUsed` after two full GCs, MiB. With
 * `JEV_MEM_HEAP_SNAPSHOT=<file>`, a V8 heap snapshot is written after the recalls.
 *
 * Run from inside `<repo>` (so its imports resolve), on a COPY of the store (opening may migrate
 * it): `cd <repo> && node --expose-gc --import tsx <this repo>/bench/scale/ab-heap.ts <repo> [<store> [questions=50]] [--data locomo10.json]`.
 *
 * @module
 */
import { resolve } from 'node:path';
import { writeHeapSnapshot } from 'node:v8';

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--data');
const [repoArg, storeArg, questionsArg] = positional;
if (repoArg === undefined) throw new Error('usage: ab-heap.ts <repo> [<store copy> [questions=50]] [--data locomo10.json]');
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run node with --expose-gc');
const repo = resolve(repoArg);
const dataIndex = process.argv.indexOf('--data');
const dataPath = dataIndex > 0 ? process.argv[dataIndex + 1] : undefined;

const heapMiB = (): number => {
  gc();
  gc();
  return Number((process.memoryUsage().heapUsed / 2 ** 20).toFixed(1));
};
const out: Record<string, unknown> = { repo, empty: heapMiB() };
const { createNodeMemory } = (await import(`${repo}/src/node.ts`)) as typeof import('../../src/node.js');
const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
out.modules = heapMiB();
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
out.models = heapMiB();
if (storeArg !== undefined) {
  const { loadLocomo, defaultLocomoPath } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');
  const { scaleQuestions } = (await import(`${repo}/bench/scale/scale.ts`)) as typeof import('./scale.js');
  const data = await loadLocomo(dataPath ?? defaultLocomoPath());
  const questions = scaleQuestions(data.conversations, Number(questionsArg ?? 50));
  const memory = await createNodeMemory({ store: resolve(storeArg), namespace: 'scale', encoder, systemOne });
  const start = process.cpuUsage();
  for (const q of questions) await memory.recall(q, { k: 10 });
  const cpu = process.cpuUsage(start);
  out.recallsCpuMs = Math.round((cpu.user + cpu.system) / 1000);
  out.afterRecalls = heapMiB();
  out.heldByStoreAndRecalls = Number(((out.afterRecalls as number) - (out.models as number)).toFixed(1));
  const snapshot = process.env.JEV_MEM_HEAP_SNAPSHOT;
  if (snapshot !== undefined && snapshot !== '') out.snapshot = writeHeapSnapshot(snapshot);
  await memory.close();
}
console.log(JSON.stringify(out));
