/**
 * Index-only bench of issue 25: per-insert and per-query time of the three vector indexes at
 * n vectors — the pure-TypeScript HNSW (`vector-ann.ts`, kind `ann`), hnswlib-wasm
 * (`vector-hnsw.ts`, kind `hnsw`) and the exact flat scan — with the settings `vectorIndex:
 * 'auto'` uses (M = 16, efConstruction = 100, efSearch = 64), and recall@10 of both approximate
 * indexes against the flat one. Vectors are put on the int8 grid first, as every stored memory
 * vector is.
 *
 *   nice -n 10 node --import tsx bench/vector/ann-bench.ts [--sizes 20000,100000] [--d 100]
 *     [--data random|clustered] [--queries 200] [--skip hnsw]
 *
 * Per insert: the mean over the last 1,000 inserts before the index reaches n (the marginal cost
 * at that size) and over the whole build. Per query: the mean of `queries` searches with k = 10
 * and k = 100 (recall's pool, `src/read/recall.ts`). Prints one table; nothing is asserted.
 */
import { parseArgs } from 'node:util';
import type { VectorIndex } from '../../src/plane/indexes/indexes.js';
import { createAnnVectorIndex } from '../../src/plane/indexes/vector-ann.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { createHnswVectorIndex } from '../../src/plane/indexes/vector-hnsw.js';
import { prng } from '../../test/helpers/prng.js';

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '20000,100000' },
    d: { type: 'string', default: '100' },
    data: { type: 'string', default: 'random' },
    queries: { type: 'string', default: '200' },
    skip: { type: 'string', default: '' },
  },
});
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

interface Row {
  kind: string;
  n: number;
  insertUs: number;
  buildS: number;
  query10Us: number;
  query100Us: number;
  recall10: number;
}

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
    const t0 = performance.now();
    for (; built < n - MARGIN; built++) index.add(ids[built]!, vectors[built]!);
    const t1 = performance.now();
    for (; built < n; built++) index.add(ids[built]!, vectors[built]!);
    const t2 = performance.now();
    buildMs += t2 - t0;
    const time = (k: number): number => {
      const t = performance.now();
      for (const q of queries) index.search(q, k);
      return ((performance.now() - t) / nq) * 1000;
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

console.log(`vector indexes, d=${d}, ${values.data} unit vectors on the int8 grid, ${nq} queries; ann and hnsw at M=16, efConstruction=100, efSearch=64 (vectorIndex 'auto')`);
console.log('| index | n | insert (µs, last 1,000) | build total (s) | query k=10 (µs) | query k=100 (µs) | recall@10 vs flat |');
console.log('|---|---:|---:|---:|---:|---:|---:|');
for (const r of rows) {
  console.log(`| ${r.kind} | ${r.n} | ${r.insertUs.toFixed(0)} | ${r.buildS.toFixed(1)} | ${r.query10Us.toFixed(0)} | ${r.query100Us.toFixed(0)} | ${Number.isNaN(r.recall10) ? '—' : r.recall10.toFixed(3)} |`);
}
