/**
 * The order bench (issue 24, review finding 5): recall@1 and recall@5 of the evidence of
 * before/after questions over generated histories (`generate.ts`), by relation (before, after)
 * and style (first person chat, third person conversation), for jev-mem, its ablation `no-order`
 * (the before/after step of src/read/order.ts off) and BM25. Two parts: dev (tune on it) and
 * held-out (report only). Node-only; deterministic histories, no data.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createSystemOneFromName } from '../../src/system-one/from-name.js';
import { bm25Hits, buildConversationIndex } from '../locomo/baselines.js';
import { buildJevMemory, recallJev } from '../lib/jev.js';
import { recallAtK } from '../lib/metrics.js';
import { generateOrderHistory, ORDER_DEV_SEEDS, ORDER_HELDOUT_SEEDS, type OrderHistory } from './generate.js';
import { generateOrderKindsHistory, ORDER_KINDS_SEEDS } from './kinds.js';

/** Systems of the order bench. */
export const ORDER_SYSTEMS = ['jev-mem', 'no-order', 'bm25'] as const;
/** Parts of the order bench. */
/** dev (tune on it), heldout (same generator, other seeds) and kinds (kinds.ts: answer in the anchor's message, chains of three, events; held out, report only). */
export const ORDER_PARTS = ['dev', 'heldout', 'kinds'] as const;

/** R@1 and R@5 (fractions) of one group of questions. */
export interface OrderScore {
  n: number;
  r1: number;
  r5: number;
}

/** Everything {@link runOrderBench} measured: system → part → group (`before`, `after`, `first`, `third`, `overall`). */
export interface OrderResults {
  format: 'jev-mem/bench-order';
  seeds: Record<string, readonly number[]>;
  systems: Record<string, Record<string, Record<string, OrderScore>>>;
  /** Median recall latency of jev-mem per part, ms. */
  p50Ms: Record<string, number>;
}

/** Runs the order bench. */
export async function runOrderBench(o: { parts?: ReadonlyArray<(typeof ORDER_PARTS)[number]>; log?: (l: string) => void; onQuestion?: (x: object) => void } = {}): Promise<OrderResults> {
  const log = o.log ?? (() => undefined);
  const encoder = await createDefaultNodeEncoder();
  const backend = await createSystemOneFromName('local', { env: process.env });
  const root = await mkdtemp(join(tmpdir(), 'jev-mem-order-'));
  const seeds = { dev: ORDER_DEV_SEEDS, heldout: ORDER_HELDOUT_SEEDS, kinds: ORDER_KINDS_SEEDS };
  const out: OrderResults = { format: 'jev-mem/bench-order', seeds, systems: {}, p50Ms: {} };
  try {
    for (const part of o.parts ?? ORDER_PARTS) {
      const rows: Array<{ system: string; rel: string; style: string; kind: string; r1: number; r5: number }> = [];
      const lat: number[] = [];
      for (const seed of seeds[part]) {
        const histories: OrderHistory[] = part === 'kinds' ? [generateOrderKindsHistory(seed)] : [generateOrderHistory(seed, 'first'), generateOrderHistory(seed, 'third')];
        for (const h of histories) {
          const style = h.style;
          const index = await buildConversationIndex(h, encoder);
          const build = await buildJevMemory(h, { encoder, backend, store: join(root, h.sampleId), storeKind: 'memory' });
          const asked = new Date(Date.parse(h.observations[h.observations.length - 1]?.observedAt as string) + 86_400_000).toISOString();
          log(`order: ${part} ${h.sampleId}: ${h.observations.length} turns, ${h.questions.length} questions`);
          try {
            for (const q of h.questions) {
              const ranked: Record<string, string[]> = {};
              for (const system of ['jev-mem', 'no-order'] as const) {
                const r = await recallJev(build.memory, q.question, system, 20, undefined, asked);
                if (system === 'jev-mem') lat.push(r.latencyMs);
                ranked[system] = r.ranked.map((x) => (typeof x === 'string' ? x : (x[0] as string)));
              }
              ranked.bm25 = bm25Hits(index, q.question, 20).map((x) => x.id);
              const rel = q.category === 1 ? 'before' : 'after';
              for (const system of ORDER_SYSTEMS) rows.push({ system, rel, style, kind: /-(same|chain|event)#/.exec(q.id)?.[1] ?? '', r1: recallAtK(ranked[system] ?? [], q.evidence, 1), r5: recallAtK(ranked[system] ?? [], q.evidence, 5) });
              o.onQuestion?.({ part, history: h.sampleId, question: q.question, evidence: q.evidence, ranked });
            }
          } finally {
            await build.memory.close();
          }
        }
      }
      for (const system of ORDER_SYSTEMS) {
        const mine = rows.filter((x) => x.system === system);
        const group = (f: (x: (typeof rows)[number]) => boolean): OrderScore => {
          const g = mine.filter(f);
          return { n: g.length, r1: g.reduce((a, x) => a + x.r1, 0) / Math.max(1, g.length), r5: g.reduce((a, x) => a + x.r5, 0) / Math.max(1, g.length) };
        };
        ((out.systems[system] ??= {})[part] = {
          before: group((x) => x.rel === 'before'),
          after: group((x) => x.rel === 'after'),
          first: group((x) => x.style === 'first'),
          third: group((x) => x.style === 'third'),
          ...(part === 'kinds' ? { same: group((x) => x.kind === 'same'), chain: group((x) => x.kind === 'chain'), event: group((x) => x.kind === 'event') } : {}),
          overall: group(() => true),
        });
      }
      lat.sort((a, b) => a - b);
      out.p50Ms[part] = lat[Math.floor(lat.length / 2)] ?? 0;
    }
  } finally {
    await rm(root, { recursive: true, force: true });
    await encoder.close?.();
    await backend.close();
  }
  return out;
}

/** Markdown tables: per part, one row per system, R@1 / R@5 per group. */
export function orderTables(r: OrderResults): string[] {
  const lines: string[] = [];
  const base = ['before', 'after', 'first', 'third'];
  const pct = (x: number): string => (x * 100).toFixed(1);
  for (const part of ORDER_PARTS) {
    const first = r.systems['jev-mem']?.[part];
    if (first === undefined) continue;
    const groups = [...base, ...(part === 'kinds' ? ['same', 'chain', 'event'] : []), 'overall'];
    lines.push(`### ${part} (seeds ${(r.seeds[part] ?? []).join(',')}; jev-mem p50 ${(r.p50Ms[part] ?? 0).toFixed(1)} ms)`, '');
    lines.push(`| system | ${groups.map((g) => `${g} (n ${first[g]?.n ?? 0}) R@1 / R@5`).join(' | ')} |`);
    lines.push(`|---|${groups.map(() => '---').join('|')}|`);
    for (const s of ORDER_SYSTEMS) {
      const x = r.systems[s]?.[part];
      if (x === undefined) continue;
      lines.push(`| ${s} | ${groups.map((g) => `${pct(x[g]?.r1 ?? 0)} / ${pct(x[g]?.r5 ?? 0)}`).join(' | ')} |`);
    }
    lines.push('');
  }
  return lines;
}
