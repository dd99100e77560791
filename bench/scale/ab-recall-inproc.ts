/**
 * Recall CPU of two code trees in ONE process (issue 25, h-recall25): each tree's own
 * `createNodeMemory`, encoder and local System One over its own copy of one store (namespace
 * `scale`), the 50 scale questions (`k: 20`) recalled by each in turn, the order alternating per
 * round, `rounds` times. Round 1 reads every body and edge list from the store (cold), later rounds
 * find them in the caches (warm). On a shared machine the load then falls on both trees alike,
 * which `ab-recall.ts` run as two processes one after the other cannot give (pairs there spread
 * ±15 % at load 12-17).
 *
 * `node --import tsx bench/scale/ab-recall-inproc.ts <tree A> <tree B> <store copy A> <store copy B> [rounds=5] [--data locomo10.json]`
 *
 * Prints per tree the CPU (`process.cpuUsage`, user + system, the whole process's: the other
 * tree's background work is counted too, both ways) per recall of each round and the wall p50 /
 * p95 / max of each round.
 *
 * @module
 */
import { resolve } from 'node:path';

const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && all[i - 1] !== '--data');
const [aRepo, bRepo, aStore, bStore, roundsArg] = positional;
if (aRepo === undefined || bRepo === undefined || aStore === undefined || bStore === undefined) {
  throw new Error('usage: ab-recall-inproc.ts <tree A> <tree B> <store copy A> <store copy B> [rounds] [--data locomo10.json]');
}
const rounds = Number(roundsArg ?? 5);
const dataIndex = process.argv.indexOf('--data');
const { loadLocomo, defaultLocomoPath } = (await import('../lib/data.js')) as typeof import('../lib/data.js');
const { scaleQuestions, SCALE_QUERIES } = (await import('./scale.js')) as typeof import('./scale.js');
const data = await loadLocomo(dataIndex > 0 ? (process.argv[dataIndex + 1] as string) : defaultLocomoPath());
const questions = scaleQuestions(data.conversations, SCALE_QUERIES);

type NodeModule = typeof import('../../src/node.js');
type Memory = Awaited<ReturnType<NodeModule['createNodeMemory']>>;
const trees: Array<{ name: string; memory: Memory; close: () => Promise<void>; cpu: number[]; wall: number[][] }> = [];
for (const [name, repo, store] of [['A', aRepo, aStore], ['B', bRepo, bStore]] as const) {
  const root = resolve(repo);
  const { createNodeMemory } = (await import(`${root}/src/node.ts`)) as NodeModule;
  const { createDefaultNodeEncoder } = (await import(`${root}/src/encoder/default-node.ts`)) as typeof import('../../src/encoder/default-node.js');
  const { createSystemOneFromName } = (await import(`${root}/src/system-one/from-name.ts`)) as typeof import('../../src/system-one/from-name.js');
  const encoder = await createDefaultNodeEncoder();
  const systemOne = await createSystemOneFromName('local', { env: process.env });
  const memory = await createNodeMemory({ store: resolve(store), namespace: 'scale', encoder, systemOne, vectorIndex: 'auto' });
  await memory.recall(questions[0] as string, { k: 20 }); // loads the namespace
  const close = async (): Promise<void> => {
    await memory.close();
    await systemOne.close?.();
    await encoder.close?.();
  };
  trees.push({ name: `${name} ${root}`, memory, close, cpu: [], wall: [] });
}
for (let r = 1; r <= rounds; r++) {
  for (const t of r % 2 === 1 ? trees : [...trees].reverse()) {
    const c = process.cpuUsage();
    const ms: number[] = [];
    for (const q of questions) {
      const w = performance.now();
      await t.memory.recall(q, { k: 20 });
      ms.push(performance.now() - w);
    }
    const u = process.cpuUsage(c);
    t.cpu.push((u.user + u.system) / 1000 / questions.length);
    t.wall.push(ms.sort((a, b) => a - b));
  }
}
const at = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] as number;
for (const t of trees) {
  const walls = t.wall.map((w) => `${at(w, 0.5).toFixed(0)} / ${at(w, 0.95).toFixed(0)} / ${(w[w.length - 1] as number).toFixed(0)}`);
  console.log(`${t.name}: CPU ms per recall by round ${t.cpu.map((x) => x.toFixed(1)).join(' / ')}; wall p50 / p95 / max by round ${walls.join(' | ')}`);
}
for (const t of trees) await t.close();
