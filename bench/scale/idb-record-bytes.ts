/**
 * Structured-clone bytes of the IndexedDB records (v8.serialize: the serializer Chromium's
 * IndexedDB uses for values) for a typical node with 17 edges (100-d GloVe vector on the int8
 * grid, UUID ids, System-One and rule edges), version 1 against version 2. Keys are counted the
 * way Chromium's IndexedDB encodes them (a string as UTF-16, 2 bytes a code unit, plus a short
 * header), and each index entry as its key plus the primary key. Run: `npx tsx bench/scale/idb-record-bytes.ts`.
 */
import { serialize } from 'node:v8';
import { decodeAdjacency, encodeAdjacency, type Adjacency } from '../../src/plane/store/record-adjacency.js';
import { toNodeRecord } from '../../src/plane/store/record-codec.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import type { MemoryEdge, MemoryNode } from '../../src/types.js';

const ns = 'default';
const uuid = (i: number): string => `${(0x1000_0000 + i).toString(16)}-3b1c-4a8e-9f2d-${(0x1000_0000_0000 + i * 7919).toString(16)}`;
let seed = 7;
const rand = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

function node(i: number): MemoryNode {
  return {
    id: uuid(i),
    namespace: ns,
    text: 'Caroline: I went to a LGBTQ support group yesterday and it was so powerful, the stories really moved me.',
    observedAt: '2023-05-08T13:56:00.000Z',
    ingestedAt: '2024-06-01T10:11:12.345Z',
    provenance: { speaker: 'Caroline', sessionId: 'session_1', turnId: 'D1:3' },
    entities: ['caroline', 'lgbtq'],
    keywords: ['lgbtq', 'support', 'group', 'stori', 'power'],
    timeRefs: [{ text: 'yesterday', start: '2023-05-07T00:00:00.000Z', end: '2023-05-08T00:00:00.000Z', granularity: 'day' }] as unknown as MemoryNode['timeRefs'],
    types: { episodic: 0.91, semantic: 0.22, procedural: 0.04, preference: 0.13 },
    embedding: { encoder: 'glove-sif-100d@1', vector: quantizeVector(Array.from({ length: 100 }, () => rand() - 0.5)) },
    status: 'active',
    supersededBy: [],
    seq: i,
  };
}

const kinds: Array<[MemoryEdge['view'], MemoryEdge['subtype'], MemoryEdge['origin']]> = [
  ['temporal', 'precedes', { kind: 'rule', by: 'consecutive-turns' }],
  ['temporal', 'same_session', { kind: 'rule', by: 'same-session' }],
  ['semantic', 'related', { kind: 'system-one', by: 'jev-s1-gbdt@3' }],
  ['entity', 'mentions_same' as MemoryEdge['subtype'], { kind: 'rule', by: 'shared-entity' }],
];
function edge(from: number, to: number, k: number): MemoryEdge {
  const [view, subtype, origin] = kinds[k % kinds.length]!;
  const f = uuid(from);
  const t = uuid(to);
  return { id: `${f}>${t}:${view}:${subtype}`, namespace: ns, from: f, to: t, view, subtype, weight: rand(), origin, createdAt: '2024-06-01T10:11:12.345Z' };
}

/** Chromium IndexedDB key bytes: type byte + varint length + UTF-16 per string; array header. */
const keyBytes = (parts: string[]): number => 2 + parts.reduce((n, s) => n + 2 + 2 * s.length, 0);

const N = 2000;
const PER_NODE = 17;
const edges: MemoryEdge[] = [];
for (let i = 1; i <= N; i++) for (let k = 0; k < PER_NODE; k++) edges.push(edge(i, 1 + Math.floor(rand() * N), k));

// version 1: a node record and a record per edge, each with a by-namespace index entry.
const n1 = node(1);
const v1Node = serialize(n1).length + keyBytes([ns, n1.id]);
const v1Index = (pk: string[]): number => keyBytes([ns]) + keyBytes(pk);
const v1Edge = edges.slice(0, 200).reduce((s, e) => s + serialize(e).length + keyBytes([ns, e.id]) + v1Index([ns, e.id]), 0) / 200;
console.log(`v1 node record ${serialize(n1).length} B value (+ key ${keyBytes([ns, n1.id])}, index ${v1Index([ns, n1.id])})`);
console.log(`v1 edge record ${(edges.slice(0, 200).reduce((s, e) => s + serialize(e).length, 0) / 200).toFixed(0)} B value, ${v1Edge.toFixed(0)} B with key and index`);
console.log(`v1 per node: ${(v1Node + v1Index([ns, n1.id]) + PER_NODE * v1Edge).toFixed(0)} B`);

// version 2: compact node, one adjacency record per node.
const v2NodeValue = serialize(toNodeRecord(n1)).length;
const adj = new Map<string, Adjacency>();
const of = (id: string): Adjacency => {
  let a = adj.get(id);
  if (!a) adj.set(id, (a = { out: new Map(), in: new Map() }));
  return a;
};
for (const e of edges) {
  of(e.from).out.set(e.id, e);
  if (e.from !== e.to) of(e.to).in.set(e.id, e);
}
let adjBytes = 0;
for (const [id, a] of adj) {
  const rec = encodeAdjacency(id, a)!;
  adjBytes += serialize(rec).length + keyBytes([ns, id]);
  if (id === uuid(1)) {
    const back = decodeAdjacency(ns, id, rec);
    if (back.out.size !== a.out.size || back.in.size !== a.in.size) throw new Error('round trip');
  }
}
console.log(`v2 node record ${v2NodeValue} B value (+ key ${keyBytes([ns, n1.id])}); vector ${serialize(n1.embedding.vector).length} B as numbers → ${toNodeRecord(n1).embedding.bytes.length} B`);
console.log(`v2 adjacency: ${(adjBytes / N).toFixed(0)} B per node (${(adjBytes / edges.length).toFixed(1)} B per edge, both ends, keys included)`);
console.log(`v2 per node: ${(v2NodeValue + keyBytes([ns, n1.id]) + adjBytes / N).toFixed(0)} B`);
