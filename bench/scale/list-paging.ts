/**
 * Cost of paging a whole namespace with `Memory.list` (issue 22, break3 item 8): N memories
 * (default 20,000; built by one `import` of a synthetic export, copies of one real node with
 * their own ids, texts and seq), then every page of `limit` (default 100) from the first to the
 * last, timed. Prints the total, the mean of the first and of the last ten pages, and their ratio
 * (about 1 when a page costs O(page + log n); it grows with the page index when each page pays
 * for the whole namespace).
 *
 * Run: `npx tsx bench/scale/list-paging.ts [N] [limit]`
 *
 * @module
 */
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';

const n = Number(process.argv[2] ?? 20_000);
const limit = Number(process.argv[3] ?? 100);
const encoder = await createDefaultNodeEncoder();
const memory = await createMemory({ encoder, systemOne: createHeuristicSystemOne() });
await memory.add({ text: 'Seed note about the heron in the garden.', observedAt: '2024-01-01T00:00:00Z' });
const seed = await memory.export();
const [proto] = seed.nodes;
if (proto === undefined) throw new Error('no seed node');
const nodes = Array.from({ length: n }, (_, i) => ({ ...structuredClone(proto), id: `n${String(i).padStart(6, '0')}`, text: `Note ${i} about the heron in the garden.`, seq: i + 1, supersedes: [], supersededBy: [] }));
const { textHashes: _hashes, ...file } = seed;
let t = performance.now();
await memory.import({ ...file, nodes, edges: [], meta: {} }, { namespace: 'big' });
console.log(`built ${n} memories by import in ${(performance.now() - t).toFixed(0)} ms`);

const pageMs: number[] = [];
let cursor: string | undefined;
let seen = 0;
t = performance.now();
do {
  const p0 = performance.now();
  const page = await memory.list({ namespace: 'big', limit, ...(cursor !== undefined ? { cursor } : {}) });
  pageMs.push(performance.now() - p0);
  seen += page.memories.length;
  cursor = page.cursor;
} while (cursor !== undefined);
const total = performance.now() - t;
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const first = mean(pageMs.slice(0, 10));
const last = mean(pageMs.slice(-10));
console.log(`paged ${seen} memories in ${pageMs.length} pages of ${limit}: total ${total.toFixed(0)} ms, mean ${(total / pageMs.length).toFixed(2)} ms/page; first 10 pages ${first.toFixed(2)} ms/page, last 10 ${last.toFixed(2)} ms/page (last/first ${(last / first).toFixed(2)})`);
await memory.close();
await encoder.close?.();
