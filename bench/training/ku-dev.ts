/**
 * Development trace of knowledge-update questions (issue 24; tuning parts only: dev, wilddev):
 * builds each history once, asks its knowledge-update questions and prints, per question, the
 * rank of the new statement (the evidence) and of the outdated one, whether the write path
 * superseded the old turn and by what, the guard's g, whether the question was read as one about
 * the present, and the top 10 with their scores. Last, R@5 / R@10 of the new statement and the
 * share of outdated statements in the top 10.
 *
 *   npx tsx bench/training/ku-dev.ts [--part dev|wilddev] [--kind knowledge-update] [--top 10] [--quiet]
 *   npx tsx bench/training/ku-dev.ts --trace <file>   (a chats bench `--trace` file of any part: the same
 *     figures from its rankings, per system; no recall is run)
 *
 * @module
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { sharedEncoder } from '../../src/encoder/shared.js';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { decideStateUpdate } from '../../src/system-one/state-update.js';
import { passageOf } from '../../src/write/passage.js';
import { categoryKind } from '../chats/generate.js';
import { partHistories, questionDate, type ChatPart } from '../chats/chats.js';

const { values } = parseArgs({
  options: {
    part: { type: 'string', default: 'dev' },
    kind: { type: 'string', default: 'knowledge-update' },
    top: { type: 'string', default: '10' },
    quiet: { type: 'boolean', default: false },
    trace: { type: 'string' },
  },
});
if (values.trace !== undefined) {
  // figures of a bench run's trace: new statement R@5 / R@10, outdated one in the top 10, per system
  const { readFile } = await import('node:fs/promises');
  const lines = (await readFile(values.trace, 'utf8')).split('\n').filter((l) => l.trim() !== '');
  const by = new Map<string, { n: number; new5: number; new10: number; old10: number; both10: number }>();
  for (const l of lines) {
    const x = JSON.parse(l) as { part: string; kind: string; evidence: string[]; outdated?: string[]; ranked: Record<string, string[]> };
    if (x.kind !== values.kind) continue;
    for (const [system, ranked] of Object.entries(x.ranked)) {
      const t = by.get(`${x.part} ${system}`) ?? { n: 0, new5: 0, new10: 0, old10: 0, both10: 0 };
      const at = (id: string | undefined): number => (id === undefined ? 0 : ranked.indexOf(id) + 1);
      const nr = at(x.evidence[0]);
      const or = at(x.outdated?.[0]);
      t.n++;
      if (nr >= 1 && nr <= 5) t.new5++;
      if (nr >= 1 && nr <= 10) t.new10++;
      if (or >= 1 && or <= 10) t.old10++;
      if (nr >= 1 && nr <= 10 && or >= 1 && or <= 10) t.both10++;
      by.set(`${x.part} ${system}`, t);
    }
  }
  for (const [k, t] of by) {
    const p = (x: number): string => ((100 * x) / Math.max(1, t.n)).toFixed(1);
    process.stdout.write(`${k} ${values.kind}: n ${t.n}  new R@5 ${p(t.new5)}  new R@10 ${p(t.new10)}  old in top 10 ${p(t.old10)}  both in top 10 ${p(t.both10)}\n`);
  }
  process.exit(0);
}
const part = values.part as ChatPart;
// tuning parts only: the held-out, novel and test parts are never looked at here
if (!['dev', 'wilddev'].includes(part)) throw new Error(`ku-dev: --part must be dev or wilddev (tuning parts), not ${part}`);
const top = Number(values.top);
const encoder = sharedEncoder(await createDefaultNodeEncoder());
const backend = await createSystemOneFromName('local', { env: process.env });
const out = (s: string): void => void process.stdout.write(`${s}\n`);
const tally = { n: 0, new5: 0, new10: 0, old10: 0, both10: 0 };
for (const make of partHistories(part)) {
  const h = make();
  const qs = h.questions.filter((q) => categoryKind(q.category) === values.kind);
  if (qs.length === 0) continue;
  const memory = await createNodeMemory({ store: join('/tmp', 'ku-dev-unused'), namespace: h.sampleId, encoder, systemOne: backend, storage: createMemoryStorage() });
  await memory.addMany(h.observations);
  const ex = await memory.export();
  const byTurn = new Map(ex.nodes.map((n) => [n.provenance.turnId ?? n.id, n]));
  const turnOf = new Map(ex.nodes.map((n) => [n.id, n.provenance.turnId ?? n.id]));
  const asked = questionDate(h);
  for (const q of qs) {
    const r = await memory.recall(q.question, { k: 50, now: asked });
    const ranked = r.memories.map((m) => m.provenance.turnId ?? m.id);
    const rank = (t: string): string => (ranked.indexOf(t) >= 0 ? String(ranked.indexOf(t) + 1) : '-');
    const fresh = q.evidence[0] as string;
    const old = q.outdated?.[0];
    const nr = ranked.indexOf(fresh) + 1;
    const or = old === undefined ? 0 : ranked.indexOf(old) + 1;
    tally.n++;
    if (nr >= 1 && nr <= 5) tally.new5++;
    if (nr >= 1 && nr <= 10) tally.new10++;
    if (or >= 1 && or <= 10) tally.old10++;
    if (nr >= 1 && nr <= 10 && or >= 1 && or <= 10) tally.both10++;
    if (values.quiet) continue;
    const desc = (t: string | undefined): string => {
      if (t === undefined) return '';
      const n = byTurn.get(t);
      if (n === undefined) return `${t} ?`;
      const by = n.supersededBy.map((id) => turnOf.get(id) ?? id).join(',');
      return `${t} ${n.status}${by ? ` by ${by}` : ''} "${n.text.slice(0, 90)}"`;
    };
    out(`\n# ${h.sampleId} ${q.question}   new ${rank(fresh)} old ${old === undefined ? 'none' : rank(old)}  g ${(r.trace.guard ?? 0).toFixed(2)} present ${String(r.trace.when?.present)} succ ${JSON.stringify(r.trace.successors?.pairs.map((x) => `${turnOf.get(x.older)}>${turnOf.get(x.newer)}:${x.p.toFixed(2)}`) ?? null)}`);
    const nn = byTurn.get(fresh);
    const on = old === undefined ? undefined : byTurn.get(old);
    const pool = new Set([...r.trace.anchors.map((x) => x.id), ...r.trace.expansions.map((x) => x.to), ...(r.trace.hop?.added ?? []).map((x) => x.id)].map((x) => turnOf.get(x) ?? x));
    if (nn !== undefined && on !== undefined) {
      const side = (n: typeof nn) => ({ text: passageOf(n.text), speaker: n.provenance.speaker, timeMs: Date.parse(n.observedAt ?? n.ingestedAt) });
      const [vn, vo] = await encoder.embed([nn.text, on.text]);
      let c = 0;
      for (let x = 0; x < (vn as Float32Array).length; x++) c += ((vn as Float32Array)[x] as number) * ((vo as Float32Array)[x] as number);
      out(`  pair: P mlp ${decideStateUpdate(side(nn), side(on), undefined, 'mlp').probability.toFixed(3)} P logistic ${decideStateUpdate(side(nn), side(on), undefined, 'logistic').probability.toFixed(3)} cos ${c.toFixed(3)}  new scored ${pool.has(fresh)} old scored ${old !== undefined && pool.has(old)}`);
    }
    out(`  new: ${desc(fresh)}`);
    out(`  old: ${desc(old)}`);
    r.memories.slice(0, top).forEach((m, j) => {
      const t = ranked[j] as string;
      const mark = t === fresh ? 'N' : t === old ? 'O' : ' ';
      out(`  ${String(j + 1).padStart(2)}${mark} ${m.score.toFixed(3)} ${t} ${m.provenance.speaker} ${m.status === 'superseded' ? 'SUP ' : ''}${m.text.replace(/\s+/g, ' ').slice(0, 100)}`);
    });
  }
  await memory.close();
}
const pct = (x: number): string => ((100 * x) / Math.max(1, tally.n)).toFixed(1);
out(`\n${part} ${values.kind}: n ${tally.n}  new R@5 ${pct(tally.new5)}  new R@10 ${pct(tally.new10)}  old in top 10 ${pct(tally.old10)}  both in top 10 ${pct(tally.both10)}`);
