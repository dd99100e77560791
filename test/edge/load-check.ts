/**
 * Load check of the edge Worker over loopback (a benchmark that prints figures, not a test):
 * the deployable bundle (examples/edge/wrangler.toml) in workerd on 127.0.0.1, then per mode
 * (sequential, 8 requests in flight) 500 single-observation writes followed by 500 recalls
 * (k = 10) in a fresh namespace, with p50 / p95 / max latency and throughput. Afterwards it
 * proves nothing was lost: the namespace count, the export's ids and texts must equal what was
 * written. Exits 1 when anything was lost or a request failed.
 *
 * Run: `npx tsx test/edge/load-check.ts [--writes 500] [--recalls 500] [--concurrency 8]`
 */
import { parseArgs } from 'node:util';
import { parseJsonl } from '../../src/formats/jsonl.js';
import { buildEdgeBundle, call, EXAMPLE_CONFIG, ROOT, startEdge, type RunningEdge } from './harness.js';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

const { values } = parseArgs({ options: { writes: { type: 'string', default: '500' }, recalls: { type: 'string', default: '500' }, concurrency: { type: 'string', default: '8' } } });
const WRITES = Number(values.writes);
const RECALLS = Number(values.recalls);
const CONCURRENCY = Number(values.concurrency);
const TOKEN = 'load-check-token';

const SAMPLE = parseJsonl(readFileSync(join(ROOT, 'examples/sample-conversation.jsonl'), 'utf8'));

/** The i-th observation: the example turns, one session of 10 turns per round, a day apart. */
function observation(i: number): { text: string; observedAt: string; speaker: string; sessionId: string; turnId: string } {
  const base = SAMPLE[i % SAMPLE.length] as (typeof SAMPLE)[number];
  const round = Math.floor(i / SAMPLE.length);
  return {
    text: `${base.text} (round ${round})`,
    observedAt: new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString(),
    speaker: base.speaker as string,
    sessionId: `s${Math.floor(i / 10)}`,
    turnId: `T${i}`,
  };
}

const QUERIES = [
  "When is Theo's half marathon?",
  "Who teaches Maya's pottery class?",
  'Why did Theo rest for a few days?',
  'What did Theo replace on his bike?',
  'What kind of dog does Maya want to adopt?',
  'What did Biscuit eat?',
  'What colour did Maya glaze her bowl?',
  'Where will they celebrate the race?',
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Runs `count` requests with `concurrency` in flight; returns latencies (ms) and failures. */
async function run(count: number, concurrency: number, one: (i: number) => Promise<boolean>): Promise<{ ms: number[]; failed: number; wallMs: number }> {
  const ms: number[] = [];
  let failed = 0;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const t = performance.now();
        const ok = await one(i).catch(() => false);
        ms.push(performance.now() - t);
        if (!ok) failed++;
      }
    }),
  );
  return { ms: ms.sort((a, b) => a - b), failed, wallMs: performance.now() - t0 };
}

function row(label: string, r: { ms: number[]; failed: number; wallMs: number }): string {
  const f = (x: number): string => x.toFixed(1).padStart(7);
  return `${label.padEnd(28)} n=${String(r.ms.length).padStart(4)}  p50 ${f(percentile(r.ms, 50))} ms  p95 ${f(percentile(r.ms, 95))} ms  max ${f(r.ms.at(-1) ?? NaN)} ms  ${((r.ms.length * 1000) / r.wallMs).toFixed(0).padStart(5)} req/s  failed ${r.failed}`;
}

async function mode(edge: RunningEdge, namespace: string, concurrency: number): Promise<boolean> {
  const ids = new Map<number, string>();
  const writes = await run(WRITES, concurrency, async (i) => {
    const r = await call(edge, 'POST', `/v1/namespaces/${namespace}/memories`, { token: TOKEN, body: observation(i) });
    if (r.status !== 201) return false;
    ids.set(i, r.json.results[0].id as string);
    return true;
  });
  const recalls = await run(RECALLS, concurrency, async (i) => {
    const r = await call(edge, 'POST', `/v1/namespaces/${namespace}/recall`, { token: TOKEN, body: { query: QUERIES[i % QUERIES.length], k: 10 } });
    return r.status === 200 && Array.isArray(r.json.memories) && r.json.memories.length === 10;
  });
  console.log(row(`writes, ${concurrency} in flight`, writes));
  console.log(row(`recalls, ${concurrency} in flight`, recalls));
  const stats = await call(edge, 'GET', `/v1/namespaces/${namespace}`, { token: TOKEN });
  const exp = await call(edge, 'GET', `/v1/namespaces/${namespace}/export`, { token: TOKEN });
  const exported = exp.json.nodes as Array<{ id: string; text: string; provenance: { turnId: string } }>;
  const wantIds = new Set(ids.values());
  const gotIds = new Set(exported.map((n) => n.id));
  const sameIds = wantIds.size === WRITES && gotIds.size === WRITES && [...wantIds].every((id) => gotIds.has(id));
  const sameTexts = exported.every((n) => n.text === observation(Number(n.provenance.turnId.slice(1))).text);
  console.log(
    `  check: ${WRITES} written, ${ids.size} acknowledged, count ${stats.json.nodes}, export ${exported.length} nodes / ${exp.json.edges.length} edges, ids ${sameIds ? 'match' : 'DIFFER'}, texts ${sameTexts ? 'match' : 'DIFFER'}, storage ${stats.json.storageBytes} B`,
  );
  return writes.failed === 0 && recalls.failed === 0 && stats.json.nodes === WRITES && exported.length === WRITES && sameIds && sameTexts;
}

const bundle = buildEdgeBundle(EXAMPLE_CONFIG);
const edge = await startEdge(bundle, { bindings: { JEV_MEM_TOKEN: TOKEN } });
let ok = true;
try {
  console.log(`edge load check: workerd on ${edge.url.href}, ${WRITES} writes then ${RECALLS} recalls per mode; ${process.version}, ${cpus().length} cores, load average ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
  const t = performance.now();
  const first = await call(edge, 'GET', '/v1/namespaces/warmup', { token: TOKEN });
  console.log(`cold start (first request, loads encoder + System One): ${(performance.now() - t).toFixed(0)} ms, status ${first.status}`);
  ok = (await mode(edge, 'load-sequential', 1)) && ok;
  ok = (await mode(edge, `load-concurrent-${CONCURRENCY}`, CONCURRENCY)) && ok;
} finally {
  await edge.dispose();
  bundle.remove();
}
console.log(`${ok ? 'nothing lost' : 'LOST DATA OR FAILED REQUESTS'}; load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}`);
process.exit(ok ? 0 : 1);
