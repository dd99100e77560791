/**
 * Development-split loop for the read path's hop (issue 24; never the test split): builds each
 * development conversation once into a SQLite file store under `--stores` (reused by later runs:
 * the hop is a read-path change, the build does not depend on it), then asks every evaluable
 * question once per variant and prints evidence recall@5/10/20 overall (categories 1-4) and per
 * category, the pool coverage (gold evidence anywhere in the trace's scored set), hop use and
 * recall latency p50/p95.
 *
 *   npx tsx bench/training/hop-dev.ts [--stores /tmp/hop-stores] \
 *     [--variant '{"name":"hop"}'] [--variant '{"name":"no-hop","switches":{"hop":false}}'] \
 *     [--variant '{"name":"x","parameters":{"hopThreshold":0.3}}'] [--dump out.jsonl] [--k 20] [--conv conv-26]
 *
 * @module
 */
import { appendFile, mkdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { MemoryParameters } from '../../src/config.js';
import type { Memory, RecallOptions } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import type { RecallSwitches } from '../../src/read/recall.js';
import { sharedEncoder } from '../../src/encoder/shared.js';
import { loadLocomo, selectRun } from '../lib/data.js';
import { percentile, scoreQuestion, type QuestionScore } from '../lib/metrics.js';

interface Variant {
  name: string;
  switches?: RecallSwitches;
  parameters?: Partial<MemoryParameters>;
}

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: '/tmp/hop-stores' },
    variant: { type: 'string', multiple: true, default: ['{"name":"default"}'] },
    dump: { type: 'string' },
    conv: { type: 'string' },
    k: { type: 'string', default: '20' },
  },
});
const variants = (values.variant as string[]).map((v) => JSON.parse(v) as Variant);
const data = await loadLocomo();
const selection = selectRun(data, 'dev', false).filter((s) => values.conv === undefined || s.conversation.sampleId === values.conv);
const encoder = sharedEncoder(await createDefaultNodeEncoder());
const backend = await createSystemOneFromName('local', { env: process.env });
if (values.dump) await writeFile(values.dump, '');

const acc = variants.map(() => ({ scores: [] as QuestionScore[], pool: [] as number[], hops: 0, lat: [] as number[] }));
for (const sel of selection) {
  const id = sel.conversation.sampleId;
  const dir = join(values.stores as string, id);
  const built = await stat(join(dir, 'BUILT')).then(
    () => true,
    () => false,
  );
  await mkdir(dir, { recursive: true });
  const memory: Memory = await createNodeMemory({ store: dir, namespace: id, encoder, systemOne: backend });
  if (!built) {
    const t = performance.now();
    await memory.addMany(sel.conversation.observations);
    await writeFile(join(dir, 'BUILT'), String(performance.now() - t));
    process.stderr.write(`built ${id}\n`);
  }
  const ex = await memory.export();
  const turnOfNode = new Map(ex.nodes.map((n) => [n.id, n.provenance.turnId ?? n.id]));
  for (const q of sel.questions) {
    for (let i = 0; i < variants.length; i++) {
      const v = variants[i] as Variant;
      const a = acc[i] as (typeof acc)[number];
      const opts: RecallOptions = { k: Number(values.k) };
      if (v.switches) opts.switches = v.switches;
      if (v.parameters) opts.parameters = v.parameters;
      const t = performance.now();
      const r = await memory.recall(q.question, opts);
      a.lat.push(performance.now() - t);
      const ranked = r.memories.map((m) => m.provenance.turnId ?? m.id);
      a.scores.push(scoreQuestion(ranked, q.evidence, q.category));
      const poolIds = new Set([...r.trace.anchors.map((x) => x.id), ...r.trace.expansions.map((x) => x.to), ...(r.trace.hop?.added ?? []).map((x) => x.id)]);
      const gold = new Set(q.evidence);
      const pooled = [...poolIds].map((x) => turnOfNode.get(x) ?? x);
      a.pool.push(pooled.filter((x) => gold.has(x)).length / gold.size);
      if (r.trace.hop?.ran) a.hops++;
      if (values.dump) {
        await appendFile(
          values.dump,
          `${JSON.stringify({ variant: v.name, conv: id, q: q.question, cat: q.category, gold: q.evidence, ranked, h: r.trace.routing.h, hop: r.trace.hop, pooled: pooled.filter((x) => gold.has(x)) })}\n`,
        );
      }
    }
  }
  await memory.close();
}

const pct = (x: number): string => (100 * x).toFixed(1);
for (let i = 0; i < variants.length; i++) {
  const a = acc[i] as (typeof acc)[number];
  const over = a.scores.filter((s) => s.category >= 1 && s.category <= 4);
  const mean = (ss: QuestionScore[], k: 5 | 10 | 20): number => ss.reduce((x, s) => x + s.recall[k], 0) / Math.max(1, ss.length);
  const cats = [1, 2, 3, 4, 5].map((c) => `${c}:${pct(mean(a.scores.filter((s) => s.category === c), 10))}`).join(' ');
  const poolMean = a.pool.reduce((x, y) => x + y, 0) / a.pool.length;
  process.stdout.write(
    `${(variants[i] as Variant).name.padEnd(14)} R@5 ${pct(mean(over, 5))} R@10 ${pct(mean(over, 10))} R@20 ${pct(mean(over, 20))} | R@10 by cat ${cats} | pool ${pct(poolMean)} | hops ${a.hops}/${a.scores.length} | p50 ${percentile(a.lat, 50).toFixed(1)} p95 ${percentile(a.lat, 95).toFixed(1)} ms\n`,
  );
}
