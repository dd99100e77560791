/**
 * Development loop for evidence that rests on several turns (issue 24: chats multi-session,
 * LoCoMo multi-hop; never a held-out, novel or test part): builds each history once, then asks
 * every question once per variant and prints recall@5/10/20 by kind, and, per question, where
 * each gold turn ended: its rank, or "pool" (scored but below the returned list), or "out" (never
 * scored: a retrieval miss). `--dump` writes every question's ranking with the session of each
 * ranked turn, for tracing why the second and third evidence turns miss the top 10.
 *
 *   npx tsx bench/training/multi-dev.ts --set chats|locomo [--stores /tmp/multi-stores] \
 *     [--variant '{"name":"x","parameters":{...}}'] [--dump out.jsonl] [--k 50] [--data locomo10.json]
 *
 * Chats histories are built in memory stores each run (as the chats bench does); LoCoMo dev
 * conversations into SQLite file stores under `--stores`, reused by later runs.
 *
 * @module
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { MemoryParameters } from '../../src/config.js';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { sharedEncoder } from '../../src/encoder/shared.js';
import type { LocomoConversation, LocomoQuestion } from '../../src/formats/locomo.js';
import type { Memory, RecallOptions } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import type { RecallSwitches } from '../../src/read/recall.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { categoryKind } from '../chats/generate.js';
import { partHistories, questionDate, type ChatPart } from '../chats/chats.js';
import { loadLocomo, selectRun } from '../lib/data.js';
import { openDevStore } from '../lib/dev-store.js';
import { scoreQuestion, type QuestionScore } from '../lib/metrics.js';

interface Variant {
  name: string;
  switches?: RecallSwitches;
  parameters?: Partial<MemoryParameters>;
}

const { values } = parseArgs({
  options: {
    set: { type: 'string', default: 'chats' },
    stores: { type: 'string', default: '/tmp/multi-stores' },
    variant: { type: 'string', multiple: true, default: ['{"name":"default"}'] },
    dump: { type: 'string' },
    k: { type: 'string', default: '50' },
    data: { type: 'string', default: '/work/shared/data/locomo10.json' },
    part: { type: 'string', default: 'dev' },
    kind: { type: 'string' },
    show: { type: 'boolean', default: false },
  },
});
const set = values.set as 'chats' | 'locomo';
// tuning parts only: the held-out, novel and test parts are never looked at here
const part = values.part as ChatPart;
if (!['dev', 'wilddev', 'wildlong', 'prefdev'].includes(part)) throw new Error(`multi-dev: --part must be dev, wilddev, wildlong or prefdev (tuning parts), not ${part}`);
const variants = (values.variant as string[]).map((v) => JSON.parse(v) as Variant);
const encoder = sharedEncoder(await createDefaultNodeEncoder());
const backend = await createSystemOneFromName('local', { env: process.env });
if (values.dump) await writeFile(values.dump, '');

const histories: Array<{ conv: LocomoConversation; questions: LocomoQuestion[]; asked: string | undefined }> =
  set === 'chats'
    ? partHistories(part).map((make) => {
        const h = make();
        const asked = questionDate(h);
        return { conv: h, questions: h.questions.filter((q) => values.kind === undefined || categoryKind(q.category) === values.kind), asked };
      })
    : selectRun(await loadLocomo(values.data as string), 'dev', false).map((s) => ({ conv: s.conversation, questions: s.questions, asked: undefined }));

const kindOf = (c: number): string => (set === 'chats' ? categoryKind(c) : `cat${c}`);
const acc = variants.map(() => ({ scores: [] as QuestionScore[], fate: new Map<string, number[]>() }));
for (const { conv, questions, asked } of histories) {
  const id = conv.sampleId;
  let memory: Memory;
  if (set === 'chats') {
    memory = await createNodeMemory({ store: join(values.stores as string, 'chats-unused'), namespace: id, encoder, systemOne: backend, storage: createMemoryStorage() });
    await memory.addMany(conv.observations);
  } else {
    memory = await openDevStore(values.stores as string, id, conv.observations, encoder, backend);
  }
  process.stderr.write(`built ${id}\n`);
  const ex = await memory.export();
  const turnOf = new Map(ex.nodes.map((n) => [n.id, n.provenance.turnId ?? n.id]));
  const sessionOfTurn = new Map(ex.nodes.map((n) => [n.provenance.turnId ?? n.id, n.provenance.sessionId ?? '']));
  const speakerOfTurn = new Map(ex.nodes.map((n) => [n.provenance.turnId ?? n.id, n.provenance.speaker ?? '']));
  for (const q of questions) {
    for (let i = 0; i < variants.length; i++) {
      const v = variants[i] as Variant;
      const a = acc[i] as (typeof acc)[number];
      const opts: RecallOptions = { k: Number(values.k) };
      if (asked !== undefined) opts.now = asked; // the chats bench's question clock
      if (v.switches) opts.switches = v.switches;
      if (v.parameters) opts.parameters = v.parameters;
      const r = await memory.recall(q.question, opts);
      const ranked = r.memories.map((m) => m.provenance.turnId ?? m.id);
      a.scores.push(scoreQuestion(ranked, q.evidence, q.category));
      const pool = new Set([...r.trace.anchors.map((x) => x.id), ...r.trace.expansions.map((x) => x.to), ...(r.trace.hop?.added ?? []).map((x) => x.id)].map((x) => turnOf.get(x) ?? x));
      // fate of each gold turn: 1-based rank, 0 = scored but not returned, -1 = never scored
      const fates = q.evidence.map((e) => {
        const at = ranked.indexOf(e);
        return at >= 0 ? at + 1 : pool.has(e) ? 0 : -1;
      });
      const key = kindOf(q.category);
      if (values.show) {
        const textOf = new Map(ex.nodes.map((n) => [n.provenance.turnId ?? n.id, n.text]));
        const line = (t: string, score?: number): string => `${t}|${sessionOfTurn.get(t)}|${speakerOfTurn.get(t)}${score === undefined ? '' : `|${score.toFixed(3)}`} ${(textOf.get(t) ?? '').replace(/\s+/g, ' ').slice(0, 110)}`;
        process.stdout.write(`\n# ${id} ${q.question}  fates ${fates.join(',')}  g ${(r.trace.guard ?? 0).toFixed(2)} f ${(r.trace.coverage ?? 1).toFixed(2)}\n`);
        r.memories.slice(0, 10).forEach((m, j) => process.stdout.write(`  ${j + 1}${q.evidence.includes(ranked[j] as string) ? '*' : ' '} ${line(ranked[j] as string, m.score)}\n`));
        q.evidence.forEach((e, j) => { if ((fates[j] as number) < 1 || (fates[j] as number) > 10) process.stdout.write(`  miss(${fates[j]}) ${line(e, r.memories.find((m) => (m.provenance.turnId ?? m.id) === e)?.score)}\n`); });
      }
      a.fate.set(key, [...(a.fate.get(key) ?? []), ...fates]);
      if (values.dump) {
        await appendFile(
          values.dump,
          `${JSON.stringify({
            variant: v.name,
            conv: id,
            q: q.question,
            kind: key,
            gold: q.evidence.map((e, j) => ({ id: e, session: sessionOfTurn.get(e), speaker: speakerOfTurn.get(e), fate: fates[j] })),
            top: r.memories.map((m) => { const t = m.provenance.turnId ?? m.id; return `${t}|${sessionOfTurn.get(t)}|${speakerOfTurn.get(t)}|${m.score.toFixed(4)}`; }),
            h: r.trace.routing.h,
            k: r.trace.k,
            g: r.trace.guard,
            pool: pool.size,
          })}\n`,
        );
      }
    }
  }
  await memory.close();
}

const pct = (x: number): string => (100 * x).toFixed(1);
const mean = (ss: QuestionScore[], k: 5 | 10 | 20): number => ss.reduce((x, s) => x + s.recall[k], 0) / Math.max(1, ss.length);
for (let i = 0; i < variants.length; i++) {
  const a = acc[i] as (typeof acc)[number];
  const over = set === 'chats' ? a.scores : a.scores.filter((s) => s.category >= 1 && s.category <= 4);
  const cats = [...new Set(a.scores.map((s) => s.category))].sort((x, y) => x - y);
  const by = cats.map((c) => `${kindOf(c)} ${pct(mean(a.scores.filter((s) => s.category === c), 10))}`).join(' | ');
  process.stdout.write(`${(variants[i] as Variant).name.padEnd(14)} R@5 ${pct(mean(over, 5))} R@10 ${pct(mean(over, 10))} R@20 ${pct(mean(over, 20))} || R@10 ${by}\n`);
  for (const [kind, f] of a.fate) {
    const top10 = f.filter((x) => x >= 1 && x <= 10).length;
    const low = f.filter((x) => x > 10).length;
    const pooled = f.filter((x) => x === 0).length;
    const out = f.filter((x) => x === -1).length;
    process.stdout.write(`    ${kind.padEnd(26)} gold ${f.length}: top10 ${top10}, ranked 11+ ${low}, scored not returned ${pooled}, never scored ${out}\n`);
  }
}
