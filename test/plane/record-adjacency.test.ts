/**
 * Adjacency records (`record-adjacency.ts`): an edge list packed and read back whole, and read
 * with a subtype filter (the other entries skipped undecoded, issue 22 read path).
 */
import { describe, expect, it } from 'vitest';
import { canonicalEdgeId, decodeAdjacency, encodeAdjacency, type Adjacency } from '../../src/plane/store/record-adjacency.js';
import type { MemoryEdge } from '../../src/types.js';

const A = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const B = 'ffeeddcc-bbaa-4988-8776-655443322110';

const edge = (from: string, to: string, subtype: MemoryEdge['subtype'], extra: Partial<MemoryEdge> = {}): MemoryEdge => ({
  id: canonicalEdgeId(from, to, 'temporal', subtype),
  namespace: 'ns',
  from,
  to,
  view: 'temporal',
  subtype,
  weight: 0.5,
  origin: { kind: 'rule', by: 'consecutive-turns' },
  createdAt: '2024-01-01T00:00:00.000Z',
  ...extra,
});

describe('adjacency records', () => {
  // Every kind of entry: UUID peer, named peer, explicit id, a time kept as text, in and out.
  const edges = [
    edge(A, B, 'precedes'),
    edge(A, 'named-peer', 'contradicts', { weight: 1, createdAt: '2024-01-01T00:00:00Z' }),
    edge(B, A, 'same_session', { id: 'custom-id' }),
    edge('named-peer', A, 'precedes', { weight: 0.25 }),
  ];
  const adjacency: Adjacency = { out: new Map(), in: new Map() };
  for (const e of edges) (e.from === A ? adjacency.out : adjacency.in).set(e.id, e);
  const record = encodeAdjacency(A, adjacency);

  it('reads back every edge as it was written', () => {
    const back = decodeAdjacency('ns', A, record);
    expect([...back.out.values()]).toEqual([edges[0], edges[1]]);
    expect([...back.in.values()]).toEqual([edges[2], edges[3]]);
  });

  it('with a subtype, reads the edges of that subtype only, whatever entries lie between them', () => {
    const precedes = decodeAdjacency('ns', A, record, 'precedes');
    expect([...precedes.out.values()]).toEqual([edges[0]]);
    expect([...precedes.in.values()]).toEqual([edges[3]]);
    const contradicts = decodeAdjacency('ns', A, record, 'contradicts');
    expect([...contradicts.out.values()]).toEqual([edges[1]]);
    expect(contradicts.in.size).toBe(0);
    const same = decodeAdjacency('ns', A, record, 'same_session');
    expect([...same.in.values()]).toEqual([edges[2]]);
    expect(same.out.size).toBe(0);
  });

  it('fails on a record cut inside an entry, filtered or not', () => {
    const cut = { s: record!.s, b: record!.b.subarray(0, record!.b.length - 3) };
    expect(() => decodeAdjacency('ns', A, cut)).toThrow(/ends early/);
    expect(() => decodeAdjacency('ns', A, cut, 'contradicts')).toThrow(/ends early/);
  });
});
