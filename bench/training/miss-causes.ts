/**
 * Why LoCoMo development evidence misses the top 10 (issue 24; dev conversations only, never the
 * test split): for every gold turn of the chosen categories, asks the question twice, once at the
 * defaults (its fate: rank, scored below the list, or never scored) and once as a probe with every
 * hit of the two anchor pools (lexical 200, vector 100) scored as an anchor and the graph off (the
 * head's rank of the turn among all pool hits, and its ranks in the lexical and vector pools), and
 * sorts each miss by cause:
 *
 * - `no-list`: in neither anchor pool (lexical top 200, vector top 100): no retrieval list reaches it;
 * - `anchor-cut`: in a pool but below the fused anchors of eq. (16) and never reached by the graph;
 * - `scored-low`: a candidate (scored) but ranked 11+ at the defaults.
 *
 * Each miss is also tagged by the question and turn: the question asks for several things
 * (coverage.ts `asksAggregate`), the turn is said by the speaker the question names, the turn
 * shares no content word with the question, the turn holds none of the gold answer's content
 * words, the turn carries an image caption.
 *
 *   npx tsx bench/training/miss-causes.ts [--stores /tmp/h-mh/stores] [--cats 1,3] [--dump out.jsonl]
 *
 * The stores are built as `multi-dev.ts --set locomo` builds them (SQLite file stores, reused).
 *
 * @module
 */
import { appendFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { sharedEncoder } from '../../src/encoder/shared.js';
import type { Memory } from '../../src/memory.js';
import { contentTerms } from '../../src/plane/text/text.js';
import { asksAggregate } from '../../src/read/coverage.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { loadLocomo, selectRun } from '../lib/data.js';
import { openDevStore } from '../lib/dev-store.js';

const { values } = parseArgs({
  options: {
    stores: { type: 'string', default: '/tmp/h-mh/stores' },
    cats: { type: 'string', default: '1,3' },
    dump: { type: 'string' },
    data: { type: 'string', default: '/work/shared/data/locomo10.json' },
  },
});
const cats = new Set((values.cats as string).split(',').map(Number));
const encoder = sharedEncoder(await createDefaultNodeEncoder());
const backend = await createSystemOneFromName('local', { env: process.env });
if (values.dump) await writeFile(values.dump, '');

interface Miss {
  cat: number;
  cause: 'no-list' | 'anchor-cut' | 'scored-low';
  aggregate: boolean;
  namedSpeaker: boolean;
  noQuestionWord: boolean;
  noAnswerWord: boolean;
  image: boolean;
  probeRank: number;
}
const misses: Miss[] = [];
const golds = new Map<number, { all: number; top10: number }>();
const words = (s: string): Set<string> => new Set(contentTerms(s, 'en').map((w) => w.slice(0, 5)));

for (const sel of selectRun(await loadLocomo(values.data as string), 'dev', false)) {
  const id = sel.conversation.sampleId;
  const memory: Memory = await openDevStore(values.stores as string, id, sel.conversation.observations, encoder, backend);
  const ex = await memory.export();
  const byTurn = new Map(ex.nodes.map((n) => [n.provenance.turnId ?? n.id, n]));
  const turnOf = new Map(ex.nodes.map((n) => [n.id, n.provenance.turnId ?? n.id]));
  for (const q of sel.questions) {
    if (!cats.has(q.category)) continue;
    const r = await memory.recall(q.question, { k: 50 });
    const ranked = r.memories.map((m) => m.provenance.turnId ?? m.id);
    const pool = new Set([...r.trace.anchors.map((x) => x.id), ...r.trace.expansions.map((x) => x.to), ...(r.trace.hop?.added ?? []).map((x) => x.id)].map((x) => turnOf.get(x) ?? x));
    const probe = await memory.recall(q.question, { k: 50, switches: { graph: false, hop: false, pool: false }, parameters: { anchors: 300, maxVisited: 400 } });
    const probeAnchors = [...probe.trace.anchors].sort((a, b) => b.score - a.score);
    const probeRank = new Map(probeAnchors.map((a, i) => [turnOf.get(a.id) ?? a.id, { rank: i + 1, a }]));
    const qWords = words(q.question.replace(/\b[A-Z][a-z]+\b/g, ''));
    const aWords = words(q.answer);
    const speakers = new Set([...new Set(ex.nodes.map((n) => n.provenance.speaker ?? ''))].filter((s) => s !== '' && q.question.includes(s.split(' ')[0] as string)));
    const agg = asksAggregate(q.question);
    const g = golds.get(q.category) ?? { all: 0, top10: 0 };
    const rows: object[] = [];
    for (const e of q.evidence) {
      g.all++;
      const at = ranked.indexOf(e) + 1;
      if (at >= 1 && at <= 10) {
        g.top10++;
        continue;
      }
      const n = byTurn.get(e);
      if (n === undefined) continue;
      const pr = probeRank.get(e);
      const cause: Miss['cause'] = pool.has(e) ? 'scored-low' : pr !== undefined ? 'anchor-cut' : 'no-list';
      const tw = words(n.text.replace(/\[image:.*\]/, ''));
      const m: Miss = {
        cat: q.category,
        cause,
        aggregate: agg,
        namedSpeaker: speakers.has(n.provenance.speaker ?? ''),
        noQuestionWord: ![...qWords].some((w) => tw.has(w)),
        noAnswerWord: aWords.size > 0 && ![...aWords].some((w) => words(n.text).has(w)),
        image: n.text.includes('[image:'),
        probeRank: pr?.rank ?? 0,
      };
      misses.push(m);
      rows.push({ e, at, ...m, lexRank: pr?.a.lexicalRank ?? 0, vecRank: pr?.a.vectorRank ?? 0, text: n.text.slice(0, 160) });
    }
    golds.set(q.category, g);
    if (values.dump && rows.length > 0) await appendFile(values.dump as string, `${JSON.stringify({ conv: id, q: q.question, answer: q.answer, cat: q.category, h: r.trace.routing.h, top: ranked.slice(0, 10).map((t) => `${t} ${(byTurn.get(t)?.text ?? '').slice(0, 90)}`), rows })}\n`);
  }
  await memory.close();
  process.stderr.write(`done ${id}\n`);
}

const count = (f: (m: Miss) => boolean, of: Miss[]): string => `${of.filter(f).length}`;
for (const c of [...cats].sort()) {
  const ms = misses.filter((m) => m.cat === c);
  const g = golds.get(c) ?? { all: 0, top10: 0 };
  process.stdout.write(`category ${c}: gold ${g.all}, top 10 ${g.top10}, missed ${ms.length}\n`);
  for (const cause of ['no-list', 'anchor-cut', 'scored-low'] as const) {
    const of = ms.filter((m) => m.cause === cause);
    process.stdout.write(
      `  ${cause.padEnd(11)} ${String(of.length).padStart(4)} | aggregate question ${count((m) => m.aggregate, of)} | named speaker's turn ${count((m) => m.namedSpeaker, of)} | no question word ${count((m) => m.noQuestionWord, of)} | no answer word ${count((m) => m.noAnswerWord, of)} | image ${count((m) => m.image, of)}` +
        (cause === 'scored-low' ? ` | head rank in probe ≤ 20: ${count((m) => m.probeRank > 0 && m.probeRank <= 20, of)}` : cause === 'anchor-cut' ? ` | head rank in probe ≤ 10: ${count((m) => m.probeRank > 0 && m.probeRank <= 10, of)}, ≤ 20: ${count((m) => m.probeRank > 0 && m.probeRank <= 20, of)}` : '') +
        '\n',
    );
  }
}
