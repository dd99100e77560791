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

describe('adjacency records, format 2 (stop 33)', () => {
  const edges = [
    edge(A, B, 'precedes', { weight: 0.64, createdAt: '2026-12-03T08:09:22.162Z' }),
    edge(A, 'named-peer', 'contradicts', { weight: 0.1 + 0.2, createdAt: '1969-12-31T23:59:59.999Z' }),
    edge(B, A, 'same_session', { id: 'custom-id', weight: -0, createdAt: '+020000-01-01T00:00:00.000Z' }),
    edge('named-peer', A, 'precedes', { weight: 1e-9, createdAt: '2026-12-03T08:09:22.162Z', origin: { kind: 'system-one', by: 'jev-mem/system-one@1.2.0' } }),
    edge(A, A, 'precedes', { weight: 100, createdAt: '2026-12-03T08:09:22.100Z' }),
  ];
  const adjacency: Adjacency = { out: new Map(), in: new Map() };
  for (const e of edges) {
    if (e.from === A) adjacency.out.set(e.id, e);
    if (e.to === A && e.from !== A) adjacency.in.set(e.id, e);
  }
  const record = encodeAdjacency(A, adjacency)!;

  it('gives back every weight and time exactly (hundredths, other floats, -0, times before 1970 and past year 37 000)', () => {
    const back = decodeAdjacency('ns', A, record);
    expect([...back.out.values()]).toEqual([edges[0], edges[1], edges[4]]);
    expect([...back.in.values()]).toEqual([edges[2], edges[3]]); // a self-loop is kept once, in out
    expect(Object.is([...back.in.values()][0]!.weight, -0)).toBe(true);
    expect([...decodeAdjacency('ns', A, record, 'precedes').in.values()]).toEqual([edges[3]]);
    expect([...decodeAdjacency('ns', A, record, 'precedes').out.values()]).toEqual([edges[0], edges[4]]);
  });

  it('stores a class (view, subtype, origin) and a time once per record: 20 bytes an entry with a UUID peer', () => {
    expect(record.b[0]).toBe(0x82);
    const many: Adjacency = { out: new Map(), in: new Map() };
    for (let i = 0; i < 30; i++) {
      const to = `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000`;
      const e = edge(A, to, 'precedes', { weight: 0.57, createdAt: '2026-12-03T08:09:22.162Z' });
      many.out.set(e.id, e);
    }
    const packed = encodeAdjacency(A, many)!;
    // header 1, classes 1 + 4, times 1 + 6, then 30 × (flags, class, 16 peer bytes, weight, time)
    expect(packed.b.length).toBe(1 + 5 + 7 + 30 * 20);
    expect(packed.s).toEqual(['temporal', 'precedes', 'rule', 'consecutive-turns']);
  });

  it('fails on a record cut inside an entry or naming a class or time it lacks', () => {
    expect(() => decodeAdjacency('ns', A, { s: record.s, b: record.b.subarray(0, record.b.length - 1) })).toThrow(/ends early/);
    const bad = record.b.slice();
    bad[1] = 0; // no classes: the first entry names class 0
    expect(() => decodeAdjacency('ns', A, { s: record.s, b: bad })).toThrow();
  });

  it('fails on a time outside Date\'s range even where no entry read uses it (times are written as text only when used, issue 25)', () => {
    const varint = (x: number): number[] => {
      const out: number[] = [];
      for (; x >= 128; x = Math.floor(x / 128)) out.push((x % 128) | 128);
      out.push(x);
      return out;
    };
    // one class; two times: 0 ms and 9e15 ms (past Date's ±8.64e15); one entry (out, named
    // peer, weight in hundredths) at time 0
    const bytes = (second: number): Uint8Array => new Uint8Array([0x82, 1, 0, 1, 2, 3, 2, 0, ...varint(2 * second), 16, 0, 4, 50, 0]);
    const s = ['temporal', 'precedes', 'rule', 'consecutive-turns', 'named-peer'];
    const fine = decodeAdjacency('ns', A, { s, b: bytes(8.64e15) }); // the last time a Date holds
    expect([...fine.out.values()].map((e) => [e.to, e.weight, e.createdAt])).toEqual([['named-peer', 0.5, '1970-01-01T00:00:00.000Z']]);
    expect(() => decodeAdjacency('ns', A, { s, b: bytes(9e15) })).toThrow(RangeError);
    expect(() => decodeAdjacency('ns', A, { s, b: bytes(9e15) }, 'precedes')).toThrow(RangeError);
    expect(() => decodeAdjacency('ns', A, { s, b: bytes(9e15) }, 'contradicts')).toThrow(RangeError);
  });
});
