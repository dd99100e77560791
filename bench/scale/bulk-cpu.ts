/**
 * CPU per observation of one bulk `addMany` into a Node SQLite file store (issue 25, h-fast), for
 * a tree given by path, so two trees (a base and a branch) run the same measurement side by side:
 *
 * `cd <this repo> && JEV_MEM_LOCOMO_DATA=… node --import tsx bench/scale/bulk-cpu.ts <repo> <N> [--append <store dir>] [--param name=value]…`
 *
 * `<repo>`'s own `createNodeMemory`, encoder and local System One (`vectorIndex: 'auto'`) write
 * N observations of the scale recipe (`scale.ts scaleObservations`: the LoCoMo turns, then renamed
 * copies) through one `addMany` (chunks of 64). Without `--append` into a fresh store (a temporary
 * folder, removed after); with `--append <dir>` into the store there (namespace `scale`: run it on
 * a fresh copy), the N observations that follow its nodes. `--param` sets a memory parameter
 * (`parameters` of the memory's options; a number when it reads as one).
 *
 * Prints one JSON line: observations, wall seconds, CPU ms in all and per observation
 * (`process.cpuUsage`, user + system, of the `addMany` call alone: the figure to compare on a
 * shared machine), nodes before and after, edges after.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scaleObservations } from './scale.js';

const args = process.argv.slice(2);
const flag = (name: string): string[] => {
  const out: string[] = [];
  for (let i = args.indexOf(name); i >= 0; i = args.indexOf(name)) {
    const v = args[i + 1];
    if (v === undefined) throw new Error(`${name} needs a value`);
    out.push(v);
    args.splice(i, 2);
  }
  return out;
};
const appendDir = flag('--append')[0];
const parameters: Record<string, unknown> = {};
for (const p of flag('--param')) {
  const [k, v] = p.split('=') as [string, string];
  parameters[k] = Number.isFinite(Number(v)) ? Number(v) : v;
}
const repo = resolve(args[0] ?? '.');
const n = Number(args[1] ?? 2000);
const { createNodeMemory } = (await import(`${repo}/src/node.ts`)) as typeof import('../../src/node.js');
const { createDefaultNodeEncoder } = (await import(`${repo}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
const { createSystemOneFromName } = (await import(`${repo}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
const { loadLocomo, defaultLocomoPath } = (await import(`${repo}/bench/lib/data.ts`)) as typeof import('../lib/data.js');

const data = await loadLocomo(process.env.JEV_MEM_LOCOMO_DATA || defaultLocomoPath());
const encoder = await createDefaultNodeEncoder();
const systemOne = await createSystemOneFromName('local', { env: process.env });
const work = appendDir === undefined ? await mkdtemp(join(tmpdir(), 'jev-mem-bulk-cpu-')) : undefined;
try {
  const store = appendDir ?? join(work as string, 'store');
  const memory = await createNodeMemory({ store, namespace: 'scale', encoder, systemOne, vectorIndex: 'auto', parameters });
  await memory.recall('what did they do', { k: 20 }); // loads the namespace, not timed
  const first = (await memory.stats()).nodes;
  const observations = scaleObservations(data.conversations, first + n).slice(first);
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  await memory.addMany(observations);
  const s = (performance.now() - t) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const stats = await memory.stats();
  console.log(JSON.stringify({ repo, n, before: first, wallS: Number(s.toFixed(1)), cpuMs: Math.round(cpuMs), cpuMsPerObs: Number((cpuMs / n).toFixed(2)), nodes: stats.nodes, edges: stats.edges, parameters }));
  await memory.close();
} finally {
  await systemOne.close?.();
  await encoder.close?.();
  if (work !== undefined) await rm(work, { recursive: true, force: true });
}
