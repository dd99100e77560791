/**
 * Edge writes that only add edges to a node append to its adjacency record (stop 33,
 * `appendAdjacency`): the record keeps its old entries as they were and decodes to exactly what
 * encoding the whole grown adjacency gives (same edges, same order), across puts, re-puts,
 * deletes, explicit ids, named peers, self-loops and strings new to the record.
 */
import { describe, expect, it } from 'vitest';
import type { RecordTable, RecordTx } from '../../src/plane/drivers/record-driver.js';
import { type Adjacency, type AdjacencyRecord, canonicalEdgeId, decodeAdjacency, encodeAdjacency } from '../../src/plane/store/record-adjacency.js';
import { appendAdjacency, hasCanonicalOut } from '../../src/plane/store/record-adjacency-append.js';
import type { SpaceRecord } from '../../src/plane/store/record-codec.js';
import { applyEdges } from '../../src/plane/store/record-edges.js';
import type { EdgeSubtype, MemoryEdge, View } from '../../src/types.js';

/** A transaction over plain maps (gets, puts, deletes only). */
function mapTx(): { tx: RecordTx; data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  const k = (t: RecordTable, ns: string, key: string | number): string => `${t}\u0000${ns}\u0000${key}`;
  const tx = {
    get: async (t: RecordTable, ns: string, key: string | number) => data.get(k(t, ns, key)),
    put: (t: RecordTable, ns: string, key: string | number, v: unknown) => void data.set(k(t, ns, key), v),
    delete: (t: RecordTable, ns: string, key: string | number) => void data.delete(k(t, ns, key)),
  } as unknown as RecordTx;
  return { tx, data };
}

const space = (): SpaceRecord => ({ nodes: 0, bytes: 0, checkpointBytes: 0, edges: 0, byView: {}, explicit: 0, floor: 0 });

const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const SUBTYPES: Array<[View, EdgeSubtype]> = [
  ['temporal', 'precedes'],
  ['semantic', 'related'],
  ['semantic', 'updates'],
  ['entity', 'same_entity'],
  ['causal', 'leads_to'],
];

/** A deterministic pseudo-random stream (LCG), so the test is the same every run. */
function rng(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** A format 1 record (before stop 33): per entry flags, peer, view, subtype, origin kind and by, weight and ms as float64. */
function format1(node: string, out: MemoryEdge[], incoming: MemoryEdge[]): AdjacencyRecord {
  const s: string[] = [];
  const ref = (x: string): number => (s.includes(x) ? s.indexOf(x) : s.push(x) - 1);
  const b: number[] = [];
  const f64 = (x: number): void => void b.push(...new Uint8Array(new Float64Array([x]).buffer));
  const put = (edge: MemoryEdge, isIn: boolean): void => {
    b.push((isIn ? 1 : 0) | 8);
    const peer = (isIn ? edge.from : edge.to).replaceAll('-', '');
    for (let i = 0; i < 32; i += 2) b.push(Number.parseInt(peer.slice(i, i + 2), 16));
    b.push(ref(edge.view), ref(edge.subtype), ref(edge.origin.kind), ref(edge.origin.by));
    f64(edge.weight);
    f64(Date.parse(edge.createdAt));
  };
  for (const edge of out) put(edge, false);
  for (const edge of incoming) put(edge, true);
  expect(node.length).toBe(36);
  return { s, b: new Uint8Array(b) };
}

describe('adjacency records that only gain edges are appended to', () => {
  it('keeps the old entries byte for byte: new outgoing entries before the incoming ones, new incoming ones last', () => {
    const A = uuid(1);
    const e = (from: string, to: string, subtype: EdgeSubtype, extra: Partial<MemoryEdge> = {}): MemoryEdge => ({
      id: canonicalEdgeId(from, to, 'temporal', subtype),
      namespace: 'ns',
      from,
      to,
      view: 'temporal',
      subtype,
      weight: 0.5,
      origin: { kind: 'rule', by: 'r' },
      createdAt: '2024-01-01T00:00:00.000Z',
      ...extra,
    });
    const old: Adjacency = { out: new Map(), in: new Map() };
    const o1 = e(A, uuid(2), 'precedes');
    const i1 = e(uuid(3), A, 'precedes');
    old.out.set(o1.id, o1);
    old.in.set(i1.id, i1);
    const record = encodeAdjacency(A, old) as AdjacencyRecord;
    const o2 = e(A, 'named', 'same_session', { origin: { kind: 'system-one', by: 'model-x' } });
    const i2 = e(uuid(4), A, 'overlaps', { id: 'explicit-id' });
    const appended = appendAdjacency(A, record, [o2], [i2]) as AdjacencyRecord;
    // Format 2: 0x82, 1 class (4 string indexes), 1 time (a 6-byte varint), then two entries of
    // 20 bytes (flags, class, 16-byte peer, weight 50 hundredths, time 0).
    const ms2 = Date.parse('2024-01-01T00:00:00.000Z') * 2;
    const timeBytes: number[] = [];
    for (let x = ms2; ; x = Math.floor(x / 128)) {
      if (x < 128) {
        timeBytes.push(x);
        break;
      }
      timeBytes.push((x % 128) | 128);
    }
    expect(timeBytes.length).toBe(6);
    expect([...record.b.subarray(0, 13)]).toEqual([0x82, 1, 0, 1, 2, 3, 1, ...timeBytes]);
    expect(record.b.length).toBe(53);
    // The appended record: its tables grown at their ends (3 classes, still 1 time), the old
    // outgoing entry, the new one, the old incoming entry, the new one.
    expect(appended.s).toEqual(['temporal', 'precedes', 'rule', 'r', 'same_session', 'system-one', 'model-x', 'named', 'overlaps', 'explicit-id']);
    expect([...appended.b.subarray(0, 21)]).toEqual([0x82, 3, 0, 1, 2, 3, 0, 4, 5, 6, 0, 8, 2, 3, 1, ...timeBytes]);
    expect([...appended.b.subarray(21, 41)]).toEqual([...record.b.subarray(13, 33)]);
    expect([...appended.b.subarray(41, 46)]).toEqual([16, 1, 7, 50, 0]); // hundredths, class 1, peer 'named', 0.5, time 0
    expect([...appended.b.subarray(46, 66)]).toEqual([...record.b.subarray(33, 53)]);
    expect([...appended.b.subarray(66, 68)]).toEqual([1 | 2 | 8 | 16, 2]); // in, explicit id, UUID peer, hundredths; class 2
    expect([...appended.b.subarray(84)]).toEqual([50, 0, 9]); // 0.5, time 0, id 'explicit-id'
    const back = decodeAdjacency('ns', A, appended);
    expect([...back.out.values()]).toEqual([o1, o2]);
    expect([...back.in.values()]).toEqual([i1, i2]);
    const grown: Adjacency = { out: new Map([[o1.id, o1], [o2.id, o2]]), in: new Map([[i1.id, i1], [i2.id, i2]]) };
    // Here the tables grow in the order a whole encoding fills them: the same bytes.
    expect(appended).toEqual(encodeAdjacency(A, grown));
    // A new time goes at the end of the times, as a delta from the last one (here −1 day).
    const o3 = e(A, uuid(5), 'precedes', { createdAt: '2023-12-31T00:00:00.000Z' });
    const again = appendAdjacency(A, appended, [o3], []) as AdjacencyRecord;
    expect(again.b[14]).toBe(2);
    expect([...again.b.subarray(21, 25)]).toEqual([0x80 | ((86_400_000 * 2 - 1) % 128), 0x80 | (Math.floor((86_400_000 * 2 - 1) / 128) % 128), 0x80 | (Math.floor((86_400_000 * 2 - 1) / 16384) % 128), Math.floor((86_400_000 * 2 - 1) / 2097152)]);
    expect([...decodeAdjacency('ns', A, again).out.values()]).toEqual([o1, o2, o3]);
  });

  it('encodes a format 1 record whole (in format 2) when it gains an edge, and reads it undecoded', async () => {
    const [A, B, C] = [uuid(1), uuid(2), uuid(3)];
    const e = (from: string, to: string): MemoryEdge => ({ id: canonicalEdgeId(from, to, 'semantic', 'related'), namespace: 'ns', from, to, view: 'semantic', subtype: 'related', weight: 0.25, origin: { kind: 'rule', by: 'r' }, createdAt: '2024-01-01T00:00:00.000Z' });
    const ab = e(A, B);
    const ca = e(C, A);
    const record = format1(A, [ab], [ca]);
    expect(decodeAdjacency('ns', A, record)).toEqual({ out: new Map([[ab.id, ab]]), in: new Map([[ca.id, ca]]) });
    expect(hasCanonicalOut(record, B, 'semantic', 'related')).toBe(true);
    expect(hasCanonicalOut(record, C, 'semantic', 'related')).toBe(false);
    expect(hasCanonicalOut(record, B, 'semantic', 'updates')).toBe(false);
    expect(appendAdjacency(A, record, [e(A, C)], [])).toBeUndefined();
    const { tx, data } = mapTx();
    const sp = space();
    data.set(`adj\u0000ns\u0000${A}`, record);
    const ac = e(A, C);
    await applyEdges(tx, 'ns', sp, [], [ac]);
    const stored = data.get(`adj\u0000ns\u0000${A}`) as AdjacencyRecord;
    expect(stored.b[0]).toBe(0x82);
    const want: Adjacency = { out: new Map([[ab.id, ab], [ac.id, ac]]), in: new Map([[ca.id, ca]]) };
    expect(stored).toEqual(encodeAdjacency(A, want));
    expect(decodeAdjacency('ns', A, stored)).toEqual(want);
  });

  it('finds an edge put twice in one call, and a stored canonical entry, without decoding the record', async () => {
    const { tx, data } = mapTx();
    const sp = space();
    const [A, B, C] = [uuid(1), uuid(2), uuid(3)];
    const e = (from: string, to: string, weight: number, subtype: EdgeSubtype = 'related'): MemoryEdge => ({
      id: canonicalEdgeId(from, to, 'semantic', subtype),
      namespace: 'ns',
      from,
      to,
      view: 'semantic',
      subtype,
      weight,
      origin: { kind: 'rule', by: 'r' },
      createdAt: '2024-01-01T00:00:00.000Z',
    });
    await applyEdges(tx, 'ns', sp, [], [e(A, B, 0.1), e(A, 'named', 0.2)]);
    const recordA = data.get(`adj\u0000ns\u0000${A}`) as AdjacencyRecord;
    expect(hasCanonicalOut(recordA, B, 'semantic', 'related')).toBe(true);
    expect(hasCanonicalOut(recordA, 'named', 'semantic', 'related')).toBe(true);
    expect(hasCanonicalOut(recordA, C, 'semantic', 'related')).toBe(false);
    expect(hasCanonicalOut(recordA, B, 'semantic', 'updates')).toBe(false);
    expect(hasCanonicalOut(data.get(`adj\u0000ns\u0000${B}`) as AdjacencyRecord, A, 'semantic', 'related')).toBe(false); // B holds it incoming
    // One call: A→C twice (the second replaces the first), A→B again (replaces the stored one).
    await applyEdges(tx, 'ns', sp, [], [e(A, C, 0.3), e(A, C, 0.4), e(A, B, 0.5)]);
    const back = decodeAdjacency('ns', A, data.get(`adj\u0000ns\u0000${A}`) as AdjacencyRecord);
    expect([...back.out.values()].map((x) => [x.to, x.weight])).toEqual([['named', 0.2], [C, 0.4], [B, 0.5]]);
    expect([...decodeAdjacency('ns', C, data.get(`adj\u0000ns\u0000${C}`) as AdjacencyRecord).in.values()].map((x) => x.weight)).toEqual([0.4]);
    expect(sp.edges).toBe(3);
  });

  it('refuses a malformed record as a decode does', () => {
    const A = uuid(1);
    const e: MemoryEdge = { id: canonicalEdgeId(A, uuid(2), 'temporal', 'precedes'), namespace: 'ns', from: A, to: uuid(2), view: 'temporal', subtype: 'precedes', weight: 1, origin: { kind: 'rule', by: 'r' }, createdAt: '2024-01-01T00:00:00.000Z' };
    const record = encodeAdjacency(A, { out: new Map([[e.id, e]]), in: new Map() }) as AdjacencyRecord;
    expect(() => appendAdjacency(A, { s: record.s.slice(0, 2), b: record.b }, [], [])).toThrow('refers to string 2 of 2');
    // No class (count 0, the entry still refers to class 0); a time index past the times.
    expect(() => appendAdjacency(A, { s: record.s, b: Uint8Array.from([0x82, 0, ...record.b.subarray(6)]) }, [], [])).toThrow('refers to class 0 of 0');
    const b = Uint8Array.from(record.b);
    b[b.length - 1] = 1;
    expect(() => appendAdjacency(A, { s: record.s, b }, [], [])).toThrow('refers to time 1 of 1');
    expect(() => appendAdjacency(A, { s: record.s, b: record.b.subarray(0, 20) }, [], [])).toThrow('ends early');
  });

  it('gives the records a whole re-encoding gives, over 40 random edge batches', async () => {
    const { tx, data } = mapTx();
    const sp = space();
    const nodes = [...Array.from({ length: 12 }, (_, i) => uuid(i + 1)), 'named-a', 'named-b'];
    // The model: each node's adjacency as applyEdges must leave it (Map order included).
    const model = new Map<string, Adjacency>(nodes.map((n) => [n, { out: new Map(), in: new Map() }]));
    const all = new Map<string, MemoryEdge>();
    const random = rng(7);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)] as T;
    let explicitN = 0;
    let appendsSeen = 0;
    for (let round = 0; round < 40; round++) {
      const deletes: string[] = [];
      const puts: MemoryEdge[] = [];
      const known = [...all.keys()];
      if (known.length > 0 && random() < 0.3) deletes.push(pick(known));
      const n = 1 + Math.floor(random() * 6);
      for (let j = 0; j < n; j++) {
        if (known.length > 0 && random() < 0.1) {
          puts.push({ ...(all.get(pick(known)) as MemoryEdge), weight: random() }); // a re-put
          continue;
        }
        const from = pick(nodes);
        const to = random() < 0.05 ? from : pick(nodes);
        const [view, subtype] = pick(SUBTYPES);
        const explicit = random() < 0.15;
        puts.push({
          id: explicit ? `explicit-${explicitN++}` : canonicalEdgeId(from, to, view, subtype),
          namespace: 'ns',
          from,
          to,
          view,
          subtype,
          weight: Math.round(random() * 1000) / 1000,
          origin: { kind: random() < 0.5 ? 'rule' : 'system-one', by: `by-${round % 4}` },
          createdAt: random() < 0.1 ? '2024-01-01T00:00:00Z' : new Date(Date.UTC(2024, 0, 1 + round)).toISOString(),
        });
      }
      const before = new Map([...data].filter(([k]) => k.startsWith('adj')));
      await applyEdges(tx, 'ns', sp, deletes, puts);
      const drop = (id: string): void => {
        const e = all.get(id);
        if (e === undefined) return;
        model.get(e.from)?.out.delete(id);
        model.get(e.to)?.in.delete(id);
        all.delete(id);
      };
      for (const id of deletes) drop(id);
      for (const p of puts) {
        drop(p.id);
        (model.get(p.from) as Adjacency).out.set(p.id, p);
        if (p.from !== p.to) (model.get(p.to) as Adjacency).in.set(p.id, p);
        all.set(p.id, p);
      }
      for (const node of nodes) {
        const stored = data.get(`adj\u0000ns\u0000${node}`) as AdjacencyRecord | undefined;
        const want = model.get(node) as Adjacency;
        const got = decodeAdjacency('ns', node, stored);
        expect([...got.out.values()]).toEqual([...want.out.values()]);
        expect([...got.in.values()]).toEqual([...want.in.values()]);
        expect(got).toEqual(decodeAdjacency('ns', node, encodeAdjacency(node, want)));
        const was = before.get(`adj\u0000ns\u0000${node}`) as AdjacencyRecord | undefined;
        // An appended record starts with the old one's outgoing entries, unchanged.
        if (was !== undefined && stored !== undefined && stored !== was && stored.s.length >= was.s.length && was.s.every((x, i) => stored.s[i] === x) && stored.b.length > was.b.length) appendsSeen++;
      }
      expect(sp.edges).toBe(all.size);
    }
    expect(appendsSeen).toBeGreaterThan(20);
  });
});
