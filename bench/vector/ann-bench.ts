/**
 * Index-only bench of issue 25: per-insert and per-query time of the three vector indexes at
 * n vectors — the pure-TypeScript HNSW (`vector-ann.ts`, kind `ann`), hnswlib-wasm
 * (`vector-hnsw.ts`, kind `hnsw`) and the exact flat scan — with the settings `vectorIndex:
 * 'auto'` uses (M = 16, efConstruction = 100, efSearch = 64), and recall@10 of both approximate
 * indexes against the flat one. Vectors are put on the int8 grid first, as every stored memory
 * vector is.
 *
 *   nice -n 10 node --import tsx bench/vector/ann-bench.ts [--sizes 20000,100000] [--d 100]
 *     [--data random|clustered] [--queries 200] [--skip hnsw] [--clock cpu|wall] [--out docs/bench/vector]
 *   node --import tsx bench/vector/ann-bench.ts --from docs/bench/vector/results.json --out docs/bench/vector
 *
 * With `--out`, also writes `results.json` (the rows and the settings), `results.md` (the table)
 * and two figures, `ann-insert.svg` and `ann-query.svg` (grouped bars per size). `--from` renders
 * the table and figures again from a `results.json` without measuring.
 *
 * Times are CPU time of this process by default (`--clock cpu`; `--clock wall` for elapsed time),
 * so that a loaded shared machine does not inflate them. Per insert: the mean over the last 1,000 inserts before the index reaches n (the marginal cost
 * at that size) and over the whole build. Per query: the mean of `queries` searches with k = 10
 * and k = 100 (recall's pool, `src/read/recall.ts`). Prints one table; nothing is asserted.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { VectorIndex } from '../../src/plane/indexes/indexes.js';
import { createAnnVectorIndex } from '../../src/plane/indexes/vector-ann.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { createHnswVectorIndex } from '../../src/plane/indexes/vector-hnsw.js';
import { prng } from '../../test/helpers/prng.js';
import { groupedBarChart } from '../lib/svg.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '20000,100000' },
    d: { type: 'string', default: '100' },
    data: { type: 'string', default: 'random' },
    queries: { type: 'string', default: '200' },
    skip: { type: 'string', default: '' },
    clock: { type: 'string', default: 'cpu' },
    out: { type: 'string' },
    from: { type: 'string' },
  },
});
/**
 * The clock, in ms: `cpu` = this process's user + system CPU time (robust on a shared machine:
 * other processes' load does not count), `wall` = elapsed time.
 */
const now = values.clock === 'wall' ? (): number => performance.now() : (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

interface Row {
  kind: string;
  n: number;
  insertUs: number;
  buildS: number;
  query10Us: number;
  query100Us: number;
  recall10: number | null;
}

/** What a run measured: its settings and rows. */
interface Results {
  title: string;
  settings: { d: number; data: string; queries: number; m: 16; efConstruction: 100; efSearch: 64; clock: string; node: string; when: string };
  rows: Row[];
}

async function measure(): Promise<Results> {
  const sizes = values.sizes.split(',').map(Number);
  const d = Number(values.d);
  const nq = Number(values.queries);
  const skip = new Set(values.skip.split(',').filter(Boolean));
  const MARGIN = 1000;

  const random = prng(25);
  const unit = (v: Float32Array): Float32Array => {
    let s = 0;
    for (const x of v) s += x * x;
    const inv = 1 / Math.sqrt(s);
    return v.map((x) => x * inv);
  };
  const centres = Array.from({ length: 100 }, () => unit(Float32Array.from({ length: d }, () => random() * 2 - 1)));
  const draw = (): Float32Array =>
    values.data === 'clustered'
      ? unit(centres[Math.floor(random() * centres.length)]!.map((c) => c + (random() * 2 - 1) * 0.08))
      : unit(Float32Array.from({ length: d }, () => random() * 2 - 1));

  const max = Math.max(...sizes);
  const vectors = Array.from({ length: max }, () => Float32Array.from(quantizeVector(draw())));
  const queries = Array.from({ length: nq }, draw);
  const ids = vectors.map((_, i) => `node-${i.toString(36).padStart(8, '0')}`);

  async function make(kind: string): Promise<VectorIndex> {
    if (kind === 'ann') return createAnnVectorIndex({ dimension: d });
    if (kind === 'hnsw') return createHnswVectorIndex({ dimension: d, efConstruction: 100 });
    return createFlatVectorIndex(d);
  }

  const rows: Row[] = [];
  const exact = new Map<number, Array<Set<string>>>();
  for (const kind of ['flat', 'ann', 'hnsw'].filter((k) => !skip.has(k))) {
    const index = await make(kind);
    let built = 0;
    let buildMs = 0;
    for (const n of [...sizes].sort((a, b) => a - b)) {
      const t0 = now();
      for (; built < n - MARGIN; built++) index.add(ids[built]!, vectors[built]!);
      const t1 = now();
      for (; built < n; built++) index.add(ids[built]!, vectors[built]!);
      const t2 = now();
      buildMs += t2 - t0;
      const time = (k: number): number => {
        const t = now();
        for (const q of queries) index.search(q, k);
        return ((now() - t) / nq) * 1000;
      };
      const hits = queries.map((q) => index.search(q, 10).map((h) => h.id));
      if (kind === 'flat') exact.set(n, hits.map((h) => new Set(h)));
      const truth = exact.get(n);
      const found = truth === undefined ? NaN : hits.reduce((s, h, i) => s + h.filter((id) => truth[i]!.has(id)).length, 0) / (10 * nq);
      rows.push({ kind, n, insertUs: ((t2 - t1) / MARGIN) * 1000, buildS: buildMs / 1000, query10Us: time(10), query100Us: time(100), recall10: found });
      console.error(`  ${kind} n=${n} done`);
    }
    index.dispose();
  }

  return {
    title: `vector indexes, d=${d}, ${values.data} unit vectors on the int8 grid, ${nq} queries; ann and hnsw at M=16, efConstruction=100, efSearch=64 (vectorIndex 'auto'); ${values.clock} time`,
    settings: { d, data: values.data, queries: nq, m: 16, efConstruction: 100, efSearch: 64, clock: values.clock, node: process.version, when: new Date().toISOString() },
    rows,
  };
}

function table(r: Results): string {
  return [
    r.title,
    '',
    '| index | n | insert (µs, last 1,000) | build total (s) | query k=10 (µs) | query k=100 (µs) | recall@10 vs flat |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (x) =>
        `| ${x.kind} | ${x.n} | ${x.insertUs.toFixed(0)} | ${x.buildS.toFixed(1)} | ${x.query10Us.toFixed(0)} | ${x.query100Us.toFixed(0)} | ${x.recall10 === null || Number.isNaN(x.recall10) ? '—' : x.recall10.toFixed(3)} |`,
    ),
  ].join('\n');
}

function figures(r: Results, out: string): void {
  const ns = [...new Set(r.rows.map((x) => x.n))].sort((a, b) => a - b);
  const kinds = [...new Set(r.rows.map((x) => x.kind))];
  const series = (pick: (x: Row) => number) => kinds.map((kind) => ({ name: kind, values: ns.map((n) => r.rows.find((x) => x.kind === kind && x.n === n)).map((x) => (x === undefined ? null : pick(x))) }));
  const groups = ns.map((n) => `${n / 1000}k vectors`);
  writeFileSync(join(out, 'ann-insert.svg'), groupedBarChart({ title: `Per-insert time at n (mean of the last 1,000 inserts), d=${r.settings.d}, ${r.settings.data}`, groups, series: series((x) => x.insertUs), yLabel: 'µs per insert' }));
  writeFileSync(join(out, 'ann-query.svg'), groupedBarChart({ title: `Per-query time, k=10, d=${r.settings.d}, ${r.settings.data} (flat = exact scan)`, groups, series: series((x) => x.query10Us), yLabel: 'µs per query' }));
}

const results: Results = values.from !== undefined ? (JSON.parse(readFileSync(values.from, 'utf8')) as Results) : await measure();
console.log(table(results));
if (values.out !== undefined) {
  mkdirSync(values.out, { recursive: true });
  if (values.from === undefined) writeFileSync(join(values.out, 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(values.out, 'results.md'), `${table(results)}\n`);
  figures(results, values.out);
}
