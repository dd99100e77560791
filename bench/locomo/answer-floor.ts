/**
 * Which memories `answer()` should hand System Two by default (issue 22/24: the absolute floor
 * `minScore` 0.01 on the calibrated relevance cut the top-ranked evidence of small stores and
 * of questions in other languages). On LoCoMo DEV only (conversations 0-4), for each question
 * with evidence, recall with the default k and label each recalled turn gold when it is one of
 * the question's evidence turns; then, per rule, print the share of recalled gold kept, of
 * recalled non-gold dropped, of questions keeping at least one recalled gold turn, and the mean
 * number of memories kept. Rules: `rel ≥ t` (the old default, t = 0.01), `score ≥ ρ·s₁` (a floor
 * relative to the top-ranked memory's final score s₁), `rank ≤ r` (the r top-ranked), and unions. Usage:
 *
 *   nice -n 10 npx tsx bench/locomo/answer-floor.ts [questionsPerConversation] [locomo10.json]
 */
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import { LOCOMO_DEV } from '../../src/formats/locomo.js';
import { createMemory } from '../../src/memory.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { loadLocomo } from '../lib/data.js';

const perConv = Number(process.argv[2] ?? 40);
const data = await loadLocomo(process.argv[3]);
const encoder = await createDefaultNodeEncoder();
const systemOne = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
type Row = { rel: number; ratio: number; rank: number; gold: boolean };
const questions: Row[][] = [];
for (const conv of data.conversations.filter((c) => LOCOMO_DEV.includes(c.sampleId))) {
  const memory = await createMemory({ encoder, systemOne, namespace: conv.sampleId });
  await memory.addMany(conv.observations);
  const qs = conv.questions.filter((q) => q.evidence.length > 0 && !q.brokenEvidence);
  const step = Math.max(1, Math.floor(qs.length / perConv));
  for (let i = 0; i < qs.length && i / step < perConv; i += step) {
    const q = qs[i]!;
    const r = await memory.recall(q.question);
    const s1 = r.memories[0]?.score ?? 0;
    questions.push(r.memories.map((m, rank) => ({ rank, rel: m.relevance ?? 0, ratio: s1 > 0 ? m.score / s1 : 0, gold: q.evidence.includes(m.provenance.turnId ?? '') })));
  }
  await memory.close();
  process.stderr.write(`${conv.sampleId} done (${questions.length} questions)\n`);
}
const rows = questions.flat();
const gold = rows.filter((r) => r.gold).length;
const non = rows.length - gold;
const withGold = questions.filter((q) => q.some((r) => r.gold));
console.log(`${systemOne.modelId}; ${questions.length} questions, ${rows.length} recalled memories, ${gold} gold; ${withGold.length} questions with a recalled gold turn`);
console.log('rule | gold kept | non-gold dropped | questions keeping a gold turn | memories kept per question');
const rules: Array<[string, (r: Row) => boolean]> = [['none', () => true], ['rel ≥ 0.01', (r) => r.rel >= 0.01]];
for (const rho of [0.2, 0.3, 0.4, 0.5, 0.6, 0.7]) rules.push([`score ≥ ${rho}·s1`, (r) => r.ratio >= rho]);
for (const rho of [0.3, 0.4, 0.5, 0.6]) rules.push([`rel ≥ 0.01 or score ≥ ${rho}·s1`, (r) => r.rel >= 0.01 || r.ratio >= rho]);
for (const top of [1, 3, 5, 10]) rules.push([`rank ≤ ${top}`, (r) => r.rank < top]);
for (const top of [1, 3, 5, 10]) rules.push([`rel ≥ 0.01 or rank ≤ ${top}`, (r) => r.rel >= 0.01 || r.rank < top]);
for (const [name, keep] of rules) {
  const kept = rows.filter(keep);
  const g = kept.filter((r) => r.gold).length;
  const qk = withGold.filter((q) => q.some((r) => r.gold && keep(r))).length;
  console.log(`${name} | ${(g / gold).toFixed(3)} | ${((non - (kept.length - g)) / non).toFixed(3)} | ${(qk / withGold.length).toFixed(3)} | ${(kept.length / questions.length).toFixed(1)}`);
}
await systemOne.close();
await encoder.close?.();
