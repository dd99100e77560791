/**
 * Recall cost of the items step (round eleven of docs/bench/CHATS.md), base against branch in
 * pairs: builds one chats history in two memories, one from each checkout's `src/` (the base
 * checkout's path from `--base`), then asks the history's questions alternately of each, `--reps`
 * times, and prints the median ms per recall by question kind and overall. A tuning part only.
 *
 *   npx tsx bench/training/items-cost.ts --base /path/to/base/checkout [--part wildlong] [--history 0] [--reps 5]
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { categoryKind } from '../chats/generate.js';
import { partHistories, questionDate, type ChatPart } from '../chats/chats.js';

const { values } = parseArgs({ options: { base: { type: 'string' }, part: { type: 'string', default: 'wildlong' }, history: { type: 'string', default: '0' }, reps: { type: 'string', default: '5' } } });
if (values.base === undefined) throw new Error('items-cost: --base <checkout> is required');
const part = values.part as ChatPart;
if (!['dev', 'wilddev', 'wildlong', 'prefdev'].includes(part)) throw new Error(`items-cost: tuning parts only, not ${part}`);
const h = (partHistories(part)[Number(values.history)] as () => ReturnType<ReturnType<typeof partHistories>[number]>)();
const asked = questionDate(h);

async function open(root: string) {
  const { createNodeMemory } = (await import(`${root}/src/node.js`)) as typeof import('../../src/node.js');
  const { createMemoryStorage } = (await import(`${root}/src/plane/store/memory-storage.js`)) as typeof import('../../src/plane/store/memory-storage.js');
  const m = await createNodeMemory({ store: 'unused', namespace: h.sampleId, storage: createMemoryStorage() });
  await m.addMany(h.observations);
  return m;
}
const here = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const sides = { base: await open(values.base), branch: await open(here) };
const ms: Record<string, Record<string, number[]>> = { base: {}, branch: {} };
for (let rep = 0; rep < Number(values.reps); rep++) {
  for (const q of h.questions) {
    const order = rep % 2 === 0 ? (['base', 'branch'] as const) : (['branch', 'base'] as const);
    for (const side of order) {
      const t = performance.now();
      await sides[side].recall(q.question, { k: 10, ...(asked !== undefined ? { now: asked } : {}) });
      const d = performance.now() - t;
      for (const key of [categoryKind(q.category), 'all']) ((ms[side] as Record<string, number[]>)[key] ??= []).push(d);
    }
  }
}
const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1] as number; };
for (const key of Object.keys(ms.branch as object)) {
  const b = median((ms.base as Record<string, number[]>)[key] as number[]);
  const n = median((ms.branch as Record<string, number[]>)[key] as number[]);
  process.stdout.write(`${key.padEnd(26)} n ${((ms.base as Record<string, number[]>)[key] as number[]).length}  base ${b.toFixed(1)} ms  branch ${n.toFixed(1)} ms  (${(n - b >= 0 ? '+' : '') + (n - b).toFixed(1)})\n`);
}
await sides.base.close();
await sides.branch.close();
