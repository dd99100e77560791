/**
 * How well `RecalledMemory.relevance` (a_v, System One's `cand.relevance` probability) is
 * calibrated on LoCoMo DEV (conversations 0-4 only; issue 23, `minScore`). For each question with
 * evidence, recall top 40 and label each recalled turn 1 when it is gold evidence. Prints, per
 * relevance bin, the recalled memories and the share that is gold; and per threshold, the share
 * of recalled gold kept, of recalled non-gold dropped, and of questions that keep at least one of
 * their recalled gold turns. Then fits the Platt calibration P(gold) = σ(α·logit(a_v) + β) that
 * `src/memory/relevance.ts` keeps per System-One model, and prints the same tables for the
 * calibrated values. Usage:
 *
 *   nice -n 10 npx tsx bench/locomo/relevance-calibration.ts [local|heuristic] [questionsPerConversation] [locomo10.json]
 */
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { LOCOMO_DEV } from '../../src/formats/locomo.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { loadLocomo } from '../lib/data.js';
import { expectedCalibrationError, fitLogistic } from '../lib/logistic.js';
import { relevanceLogit } from '../../src/memory/relevance.js';

const backendName = process.argv[2] ?? 'local';
const perConv = Number(process.argv[3] ?? 60);
const data = await loadLocomo(process.argv[4]); // optional path of locomo10.json (default ../shared/data)
const encoder = await createDefaultNodeEncoder();
const inner = backendName === 'heuristic' ? createHeuristicSystemOne() : await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
// Under a model id with no calibration, so recall reports the raw a_v (memory/relevance.ts).
const systemOne: typeof inner = {
  kind: inner.kind,
  modelId: `uncalibrated-probe/${inner.modelId}`,
  decide: (r, o) => inner.decide(r, o),
  decideMany: (r, o) => inner.decideMany(r, o),
  close: () => inner.close(),
  ...(inner.parameters !== undefined ? { parameters: inner.parameters } : {}),
};
const rows: Array<{ rel: number; gold: boolean; q: string }> = [];
const goldInTop = new Map<string, number>();
for (const conv of data.conversations.filter((c) => LOCOMO_DEV.includes(c.sampleId))) {
  const memory = await createMemory({ encoder, systemOne, namespace: conv.sampleId });
  await memory.addMany(conv.observations);
  const qs = conv.questions.filter((q) => q.evidence.length > 0 && !q.brokenEvidence);
  const step = Math.max(1, Math.floor(qs.length / perConv));
  for (let i = 0; i < qs.length && i / step < perConv; i += step) {
    const q = qs[i]!;
    const r = await memory.recall(q.question, { k: 40 });
    for (const m of r.memories) {
      const gold = q.evidence.includes(m.provenance.turnId ?? '');
      rows.push({ rel: m.relevance ?? 0, gold, q: q.id });
      if (gold) goldInTop.set(q.id, (goldInTop.get(q.id) ?? 0) + 1);
    }
  }
  await memory.close();
  process.stderr.write(`${conv.sampleId} done (${rows.length} rows)\n`);
}
console.log(`backend ${inner.modelId}; ${new Set(rows.map((r) => r.q)).size} questions, ${rows.length} recalled memories, ${rows.filter((r) => r.gold).length} gold`);
console.log('relevance bin | recalled | gold share');
report(rows);
const fit = fitLogistic(rows.map((r) => [relevanceLogit(r.rel)]), rows.map((r) => (r.gold ? 1 : 0)), ['logit_a'], { l2: 1e-6 });
const alpha = (fit.weights[0] ?? 0) / (fit.scale[0] ?? 1);
const beta = fit.bias - alpha * (fit.mean[0] ?? 0);
console.log(`Platt fit: alpha ${alpha.toFixed(4)}, beta ${beta.toFixed(4)}`);
const calibrated = rows.map((r) => ({ ...r, rel: 1 / (1 + Math.exp(-(alpha * relevanceLogit(r.rel) + beta))) }));
console.log(`ECE raw ${expectedCalibrationError(rows.map((r) => r.rel), rows.map((r) => (r.gold ? 1 : 0))).toFixed(4)}, calibrated ${expectedCalibrationError(calibrated.map((r) => r.rel), calibrated.map((r) => (r.gold ? 1 : 0))).toFixed(4)}`);
console.log('--- calibrated ---');
report(calibrated);
await systemOne.close();
await encoder.close?.();

function report(rows: Array<{ rel: number; gold: boolean; q: string }>): void {
console.log('relevance bin | recalled | gold share');
for (let b = 0; b < 10; b++) {
  const inBin = rows.filter((r) => Math.min(9, Math.floor(r.rel * 10)) === b);
  console.log(`[${(b / 10).toFixed(1)}, ${((b + 1) / 10).toFixed(1)}) | ${inBin.length} | ${inBin.length ? (inBin.filter((r) => r.gold).length / inBin.length).toFixed(3) : '-'}`);
}
console.log('threshold | gold kept | non-gold dropped | questions keeping a gold turn');
const goldQs = [...goldInTop.keys()];
for (const t of [0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
  const gold = rows.filter((r) => r.gold);
  const non = rows.filter((r) => !r.gold);
  const keptQs = goldQs.filter((q) => rows.some((r) => r.q === q && r.gold && r.rel >= t)).length;
  console.log(`${t.toFixed(2)} | ${(gold.filter((r) => r.rel >= t).length / gold.length).toFixed(3)} | ${(non.filter((r) => r.rel < t).length / non.length).toFixed(3)} | ${(keptQs / goldQs.length).toFixed(3)}`);
}
}
