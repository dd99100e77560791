/**
 * One-off bench of the vector indexes (issue 13): resident bytes per vector and search time of
 * the flat index at n vectors of dimension d (int8 slab for vectors on the codec's grid, float32
 * rows for the others), serialise / restore times and blob sizes of both kinds.
 *
 *   node --expose-gc --import tsx bench/vector/index-bench.ts [n=100000] [d=100] [hnswN=20000]
 *
 * Prints numbers only; nothing is asserted.
 */
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import { createFlatVectorIndex, restoreFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { createHnswVectorIndex, restoreHnswVectorIndex } from '../../src/plane/indexes/vector-hnsw.js';
import { prng } from '../../test/helpers/prng.js';

const n = Number(process.argv[2] ?? 100_000);
const d = Number(process.argv[3] ?? 100);
const hnswN = Number(process.argv[4] ?? 20_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');

const random = prng(13);
function unit(): Float32Array {
  const v = new Float32Array(d);
  let norm = 0;
  for (let i = 0; i < d; i++) norm += (v[i] = random() * 2 - 1) ** 2;
  for (let i = 0; i < d; i++) v[i] = v[i]! / Math.sqrt(norm);
  return v;
}
const heap = (): number => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const ms = (t0: number): number => performance.now() - t0;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const fmt = (x: number, digits = 1): string => x.toFixed(digits);

const queries = Array.from({ length: 50 }, unit);
const ids = Array.from({ length: n }, (_, i) => `node-${i.toString(36).padStart(8, '0')}`); // ids exist before: count the index only

for (const form of ['int8 grid (stored memory vectors)', 'float32 (off-grid vectors)'] as const) {
  const vectors = Array.from({ length: n }, () => (form.startsWith('int8') ? Float32Array.from(quantizeVector(unit())) : unit()));
  const before = heap();
  const index = createFlatVectorIndex(d);
  let t0 = performance.now();
  vectors.forEach((x, i) => index.add(ids[i]!, x));
  const addMs = ms(t0);
  const bytes = heap() - before;
  const times = queries.map((q) => {
    const t = performance.now();
    index.search(q, 10);
    return ms(t);
  });
  t0 = performance.now();
  const blob = index.serialize();
  const serMs = ms(t0);
  t0 = performance.now();
  const back = restoreFlatVectorIndex(blob);
  const resMs = ms(t0);
  console.log(
    `flat ${form}: n=${n} d=${d} layout=${JSON.stringify(index.layout)} resident ${fmt(bytes / n)} B/vector (incl. id map; capacity slack) · ` +
      `add all ${fmt(addMs, 0)} ms · search k=10 median ${fmt(median(times), 2)} ms, max ${fmt(Math.max(...times), 2)} ms · ` +
      `serialize ${fmt(serMs, 0)} ms, ${fmt(blob.length / n)} B/vector · restore ${fmt(resMs, 0)} ms (size ${back.size})`,
  );
  index.dispose();
  back.dispose();
}

const hnsw = await createHnswVectorIndex({ dimension: d, maxElements: hnswN });
let t0 = performance.now();
for (let i = 0; i < hnswN; i++) hnsw.add(ids[i]!, Float32Array.from(quantizeVector(unit())));
const buildMs = ms(t0);
t0 = performance.now();
const blob = await hnsw.serialize!();
const serMs = ms(t0);
t0 = performance.now();
const back = await restoreHnswVectorIndex(blob);
const resMs = ms(t0);
const same = queries.every((q) => JSON.stringify(back.search(q, 10)) === JSON.stringify(hnsw.search(q, 10)));
console.log(
  `hnsw: n=${hnswN} d=${d} build (one by one) ${fmt(buildMs / 1000, 1)} s · serialize ${fmt(serMs, 0)} ms, ${fmt(blob.length / hnswN)} B/vector · ` +
    `restore ${fmt(resMs, 0)} ms · same top-10 on ${queries.length} queries: ${same}`,
);
hnsw.dispose();
back.dispose();
