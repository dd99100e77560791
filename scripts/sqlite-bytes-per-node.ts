/**
 * Stored bytes per node of the SQLite store (issue 13) on LoCoMo-sized nodes: ~120-char text,
 * 16 keywords, 3 entities, a 100-d int8-grid vector, 17 edges per node (write-path ids and
 * origins). Prints bytes/node (file size / nodes), insert rate and the mean node+edges lookup.
 *
 *   npx tsx scripts/sqlite-bytes-per-node.ts [nodes=10000]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteFileStorage } from '../src/plane/store/sqlite-file-storage.js';
import { quantizeVector } from '../src/plane/indexes/vector-codec.js';
import type { MemoryEdge, MemoryNode, View } from '../src/types.js';

const total = Number(process.argv[2] ?? 10_000);
let state = 42;
const rand = (): number => ((state = (state * 1103515245 + 12345) >>> 0) / 2 ** 32);
const word = (): string => Array.from({ length: 3 + Math.floor(rand() * 6) }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
const idOf = (i: number): string => `D${Math.floor(i / 20) + 1}:${(i % 20) + 1}-${(i * 2654435761 >>> 0).toString(16)}`;

function node(i: number): MemoryNode {
  let text = '';
  while (text.length < 120) text += `${word()} `;
  return {
    id: idOf(i),
    namespace: 'conv-26',
    text: text.trim(),
    observedAt: new Date(Date.UTC(2023, 4, 8) + i * 60_000).toISOString(),
    ingestedAt: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
    provenance: { speaker: i % 2 ? 'Caroline' : 'Melanie', sessionId: `session_${Math.floor(i / 20) + 1}`, turnId: `D${Math.floor(i / 20) + 1}:${(i % 20) + 1}` },
    entities: [word(), word(), i % 2 ? 'caroline' : 'melanie'],
    keywords: Array.from({ length: 16 }, word),
    timeRefs: [],
    types: { episodic: rand(), semantic: rand(), procedural: rand(), preference: rand() },
    embedding: { encoder: 'glove-sif-100d@1', vector: quantizeVector(Array.from({ length: 100 }, () => rand() * 2 - 1)) },
    status: 'active',
    supersededBy: [],
    seq: i + 1,
  };
}

const views: Array<[View, MemoryEdge['subtype'], MemoryEdge['origin']]> = [
  ['temporal', 'precedes', { kind: 'rule', by: 'consecutive-turns' }],
  ['temporal', 'same_session', { kind: 'rule', by: 'same-session' }],
  ['semantic', 'related', { kind: 'system-one', by: 'system-one@trained-v3' }],
  ['entity', 'same_entity', { kind: 'rule', by: 'shared-entity' }],
];

function edgesOf(i: number): MemoryEdge[] {
  const out: MemoryEdge[] = [];
  for (let k = 1; k <= 17 && i - k >= 0; k++) {
    const [view, subtype, origin] = views[k % views.length]!;
    const from = idOf(i - k);
    const to = idOf(i);
    out.push({ id: `${from}>${to}:${view}:${subtype}`, namespace: 'conv-26', from, to, view, subtype, weight: Math.round(rand() * 1000) / 1000, origin, createdAt: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString() });
  }
  return out;
}

const dir = await mkdtemp(join(tmpdir(), 'jev-mem-bytes-'));
const s = await createSqliteFileStorage({ dir });
const t0 = performance.now();
let edges = 0;
for (let i = 0; i < total; i += 100) {
  const nodes = Array.from({ length: Math.min(100, total - i) }, (_, k) => node(i + k));
  const es = nodes.flatMap((_, k) => edgesOf(i + k));
  edges += es.length;
  await s.commit('conv-26', { putNodes: nodes, putEdges: es, change: i / 100 + 1 });
}
const insertS = (performance.now() - t0) / 1000;
const bytes = (await stat(join(dir, 'jev-mem.sqlite'))).size;
const jsonBytes = Buffer.byteLength(JSON.stringify(node(7))) + 17 * Buffer.byteLength(JSON.stringify(edgesOf(100)[0]));
const t1 = performance.now();
const lookups = 1000;
for (let k = 0; k < lookups; k++) {
  const id = idOf(Math.floor(rand() * total));
  await s.getNodes!('conv-26', [id]);
  await s.getEdges!('conv-26', [id]);
}
const lookupMs = (performance.now() - t1) / lookups;
await s.close();
await rm(dir, { recursive: true, force: true });
console.log(JSON.stringify({ nodes: total, edges, edgesPerNode: +(edges / total).toFixed(1), fileBytes: bytes, bytesPerNode: Math.round(bytes / total), jsonBytesPerNodeWithEdges: jsonBytes, insertSeconds: +insertS.toFixed(1), nodesPerSecond: Math.round(total / insertS), lookupMsNodeAndEdges: +lookupMs.toFixed(3) }));
