/**
 * Development-split tuning loop (never the test split): builds each development conversation
 * once per System-One backend and prints evidence recall@5/10/20 per category and the pool
 * coverage (gold evidence anywhere in the returned list) for one or more parameter sets.
 *
 *   npx tsx bench/training/tune-dev.ts [--backend heuristic|local] [--params '{"anchors":60}'] [--params '{...}']
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { LOCOMO_DEV, locomoConversation, parseLocomo } from '../../src/formats/locomo.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: resolve(root, '..', 'shared', 'data', 'locomo10.json') },
    backend: { type: 'string', default: 'heuristic' },
    params: { type: 'string', multiple: true, default: ['{}'] },
    write: { type: 'string', default: '{}' },
  },
});

const samples = parseLocomo(await readFile(values.data as string, 'utf8')).filter((s) => LOCOMO_DEV.includes(s.sample_id));
const encoder = await createDefaultNodeEncoder();
const backend = values.backend === 'local' ? await (await import('../../src/system-one/local.js')).createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' }) : createHeuristicSystemOne();
const sets = (values.params as string[]).map((p) => JSON.parse(p) as Record<string, unknown>);
const acc = sets.map(() => ({ r: { 5: [] as number[], 10: [] as number[], 20: [] as number[], pool: [] as number[] }, cat: new Map<number, number[]>(), ms: [] as number[] }));
const t0 = performance.now();
for (const s of samples) {
  const conv = locomoConversation(s);
  const memory = await createMemory({ encoder, systemOne: backend, parameters: JSON.parse(values.write as string) });
  const added = await memory.addMany(conv.observations);
  const turnOf = new Map(added.map((a, i) => [a.id, conv.observations[i]?.turnId as string]));
  for (const q of conv.questions) {
    if (q.category === 5 || q.evidence.length === 0) continue;
    for (let i = 0; i < sets.length; i++) {
      const a = acc[i] as (typeof acc)[number];
      const t = performance.now();
      const r = await memory.recall(q.question, { k: 200, parameters: sets[i] as never });
      a.ms.push(performance.now() - t);
      const ids = r.memories.map((m) => turnOf.get(m.id));
      const gold = new Set(q.evidence);
      const at = (k: number) => ids.slice(0, k).filter((x) => x !== undefined && gold.has(x)).length / gold.size;
      a.r[5].push(at(5));
      a.r[10].push(at(10));
      a.r[20].push(at(20));
      a.r.pool.push(at(ids.length));
      const c = a.cat.get(q.category) ?? [];
      c.push(at(10));
      a.cat.set(q.category, c);
    }
  }
  await memory.close();
}
const mean = (x: number[]) => (100 * x.reduce((p, v) => p + v, 0)) / Math.max(1, x.length);
sets.forEach((p, i) => {
  const a = acc[i] as (typeof acc)[number];
  a.ms.sort((x, y) => x - y);
  console.log(
    `${JSON.stringify(p)}: R@5 ${mean(a.r[5]).toFixed(1)} R@10 ${mean(a.r[10]).toFixed(1)} R@20 ${mean(a.r[20]).toFixed(1)} pool ${mean(a.r.pool).toFixed(1)} | R@10 by cat ${[1, 2, 3, 4].map((c) => `${c}:${mean(a.cat.get(c) ?? []).toFixed(1)}`).join(' ')} | p50 ${a.ms[Math.floor(a.ms.length / 2)]?.toFixed(1)} ms`,
  );
});
console.log(`(${((performance.now() - t0) / 1000).toFixed(0)} s, backend ${backend.modelId})`);
await backend.close();
