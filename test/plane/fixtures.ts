/** Builders of nodes, edges and random batches for the storage tests. */
import fc from 'fast-check';
import type { WriteBatch } from '../../src/plane/store/storage.js';
import type { MemoryEdge, MemoryNode } from '../../src/types.js';

export function makeNode(namespace: string, id: string, seq: number, text = `text of ${id}`): MemoryNode {
  return {
    id,
    namespace,
    text,
    observedAt: '2023-05-08T13:56:00.000Z',
    ingestedAt: '2024-01-01T00:00:00.000Z',
    provenance: { speaker: 'Caroline', sessionId: 's1', turnId: `D1:${seq}`, metadata: { n: seq } },
    entities: ['caroline'],
    keywords: ['lgbtq', 'group'],
    timeRefs: [],
    types: { episodic: 0.9, semantic: 0.2, procedural: 0.05, preference: 0.1 },
    embedding: { encoder: 'test-encoder@1', vector: [0.6, 0.8] },
    status: 'active',
    supersededBy: [],
    seq,
  };
}

export function makeEdge(namespace: string, id: string, from: string, to: string, weight = 0.75): MemoryEdge {
  return {
    id,
    namespace,
    from,
    to,
    view: 'temporal',
    subtype: 'precedes',
    weight,
    origin: { kind: 'rule', by: 'consecutive-turns' },
    createdAt: '2024-01-01T00:00:00.000Z',
  };
}

/** A model of one namespace: what load() must return after a sequence of batches. */
export interface Model {
  nodes: Map<string, MemoryNode>;
  edges: Map<string, MemoryEdge>;
  meta: Map<string, unknown>;
}

export function emptyModel(): Model {
  return { nodes: new Map(), edges: new Map(), meta: new Map() };
}

/** Applies a batch to the model by the documented rule: deletes, then puts, then meta. */
export function applyToModel(model: Model, batch: WriteBatch): void {
  for (const id of batch.deleteNodeIds ?? []) model.nodes.delete(id);
  for (const id of batch.deleteEdgeIds ?? []) model.edges.delete(id);
  for (const n of batch.putNodes ?? []) model.nodes.set(n.id, structuredClone(n));
  for (const e of batch.putEdges ?? []) model.edges.set(e.id, structuredClone(e));
  for (const [k, v] of Object.entries(batch.meta ?? {})) {
    if (v === null) model.meta.delete(k);
    else if (v !== undefined) model.meta.set(k, structuredClone(v));
  }
}

/** The model in the order every adapter's load() uses: nodes by seq then id, edges by id, meta keys sorted. */
export function modelSnapshot(model: Model): { nodes: MemoryNode[]; edges: MemoryEdge[]; meta: Record<string, unknown> } {
  const byId = (a: { id: string }, b: { id: string }): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  const meta: Record<string, unknown> = {};
  for (const k of [...model.meta.keys()].sort()) meta[k] = model.meta.get(k);
  return {
    nodes: [...model.nodes.values()].sort((a, b) => a.seq - b.seq || byId(a, b)),
    edges: [...model.edges.values()].sort(byId),
    meta,
  };
}

const ids = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
const metaKeys = fc.constantFrom('cursor', 'encoder', 'count');
const metaValue = fc.oneof(fc.constant(null), fc.integer(), fc.string({ maxLength: 8 }), fc.record({ x: fc.integer() }));

/** Random batches over a small id space, so that puts, replaces and deletes collide often. */
export function arbitraryBatch(namespace: string): fc.Arbitrary<WriteBatch> {
  return fc.record(
    {
      putNodes: fc.array(
        fc.tuple(ids, fc.integer({ min: 1, max: 50 }), fc.string({ maxLength: 12 })).map(([id, seq, text]) => makeNode(namespace, id, seq, text)),
        { maxLength: 4 },
      ),
      putEdges: fc.array(
        fc.tuple(ids, ids, ids, fc.double({ min: 0, max: 1, noNaN: true })).map(([id, from, to, w]) => makeEdge(namespace, `e-${id}`, from, to, w)),
        { maxLength: 3 },
      ),
      deleteNodeIds: fc.array(ids, { maxLength: 3 }),
      deleteEdgeIds: fc.array(ids.map((id) => `e-${id}`), { maxLength: 2 }),
      meta: fc.dictionary(metaKeys, metaValue, { maxKeys: 2 }),
    },
    { requiredKeys: [] },
  );
}
