/** The resident node directory (issue 13): slots, statuses, sessions, int8 vectors, checkpoint parts. */
import { describe, expect, it } from 'vitest';
import { contentHash, hash53, NodeDirectory, STATUS_CODE, VEC_ROW_PART } from '../../src/plane/resident/node-directory.js';
import { createAnnVectorIndex } from '../../src/plane/indexes/vector-ann.js';
import { gridRowIdsOf, gridRowsOf } from '../../src/plane/indexes/vector-rows.js';
import { quantizeVector } from '../../src/plane/indexes/vector-codec.js';
import type { MemoryNode } from '../../src/types.js';
import { makeNode } from './fixtures.js';

function node(id: string, seq: number, session: string | undefined, vector: number[], status: MemoryNode['status'] = 'active'): MemoryNode {
  const n = makeNode('ns', id, seq);
  n.provenance = session === undefined ? {} : { sessionId: session };
  n.embedding = { encoder: 'e', vector };
  n.status = status;
  return n;
}

describe('NodeDirectory', () => {
  it('keeps seq, status, session, language and the grid vector of each node; reuses freed slots', () => {
    const d = new NodeDirectory(3);
    const va = quantizeVector([0.5, -0.25, 0.1]);
    d.add(node('a', 1, 's1', va), 11, 'en');
    d.add(node('b', 2, 's1', [0, 0, 0], 'superseded'), 12, 'de');
    d.add(node('c', 3, 's2', quantizeVector([1, 0, 0])), 13, undefined);
    expect(d.size).toBe(3);
    expect([d.seq('b'), d.status('b'), d.language('b'), d.hashOf('b')]).toEqual([2, 'superseded', 'de', 12]);
    expect(Array.from(d.vector('a') as Float32Array)).toEqual(va.map((x) => Math.fround(x)));
    expect(d.idsWithStatus(STATUS_CODE.active)).toEqual(['a', 'c']);
    expect(d.sessionRange('s1')).toEqual({ firstId: 'a', lastId: 'b' });
    expect([d.session('a'), d.session('c'), d.session('zz')]).toEqual(['s1', 's2', undefined]);
    expect(d.latest()).toBe('c');
    d.remove('a');
    expect([d.has('a'), d.size, d.sessionRange('s1')]).toEqual([false, 2, { firstId: 'b', lastId: 'b' }]);
    d.add(node('d', 4, 's2', quantizeVector([0, 1, 0])), 14, 'en'); // takes a's slot
    expect(d.sessionRange('s2')).toEqual({ firstId: 'c', lastId: 'd' });
    expect([...d.liveVectors()].map(([id]) => id).sort()).toEqual(['b', 'c', 'd']);
  });

  it('idsAfterSeq lists active and superseded ids above a seq in seq order, through out-of-order adds, removes, seq changes and a restore (issue 22: the order is kept, not sorted per list page)', () => {
    const d = new NodeDirectory(2);
    const v = [0, 0];
    for (const [id, seq] of [['a', 1], ['b', 2], ['c', 3], ['d', 4]] as const) d.add(node(id, seq, undefined, v), 0, undefined);
    expect([...d.idsAfterSeq(0)]).toEqual(['a', 'b', 'c', 'd']);
    expect([...d.idsAfterSeq(2)]).toEqual(['c', 'd']);
    d.remove('b'); // kept in order: b's slot leaves the order
    d.add(node('e', 5, undefined, v), 0, undefined); // takes b's slot, appended at seq 5
    expect([...d.idsAfterSeq(0)]).toEqual(['a', 'c', 'd', 'e']);
    d.add(node('f', 0.5, undefined, v), 0, undefined); // out of order: the order is rebuilt on next use
    expect([...d.idsAfterSeq(0)]).toEqual(['f', 'a', 'c', 'd', 'e']);
    d.update(node('a', 9, undefined, v, 'superseded')); // a seq change moves it
    expect([...d.idsAfterSeq(1)]).toEqual(['c', 'd', 'e', 'a']);
    d.add(node('g', 10, undefined, v, 'deleted'), 0, undefined); // a deleted node is never listed
    expect([...d.idsAfterSeq(4)]).toEqual(['e', 'a']);
    expect([...d.idsAfterSeq(10)]).toEqual([]);
    const { header, parts } = d.toParts();
    const r = new NodeDirectory(2);
    r.restore(JSON.parse(JSON.stringify(header)), parts);
    expect([...r.idsAfterSeq(0)]).toEqual(['f', 'a', 'c', 'd', 'e'].sort((x, y) => (r.seq(x) as number) - (r.seq(y) as number)));
  });

  it('gives back exactly what it held after toParts → restore', () => {
    const d = new NodeDirectory(4);
    for (let i = 1; i <= 50; i++) d.add(node(`n${i}`, i, `s${i % 3}`, quantizeVector([i, -i / 2, 1, (i % 7) - 3]), i % 5 === 0 ? 'superseded' : 'active'), hash53(`n${i}`), i % 2 ? 'en' : 'fr');
    d.remove('n7');
    const { header, parts } = d.toParts();
    const back = new NodeDirectory(4);
    back.restore(JSON.parse(JSON.stringify(header)), parts);
    expect(back.size).toBe(49);
    for (let i = 1; i <= 50; i++) {
      const id = `n${i}`;
      expect([back.has(id), back.seq(id), back.status(id), back.language(id), back.hashOf(id), back.session(id)]).toEqual([d.has(id), d.seq(id), d.status(id), d.language(id), d.hashOf(id), d.session(id)]);
      expect(back.vector(id)).toEqual(d.vector(id));
    }
    expect(back.sessionRange('s1')).toEqual(d.sessionRange('s1'));
    back.add(node('new', 51, 's1', quantizeVector([1, 1, 1, 1])), 1, 'en');
    expect(back.size).toBe(50); // the freed slot of n7 is reused
  });

  it('checkpoint @3: points each row and id into the vector index bytes (dir.vecrow), restores the same directory, and refuses a row or id it lacks', () => {
    const d = new NodeDirectory(4);
    for (let i = 1; i <= 30; i++) d.add(node(`n${i}`, i, `s${i % 3}`, quantizeVector([i, -i / 2, 1, (i % 7) - 3])), hash53(`n${i}`), 'en');
    d.add(node('zero', 31, 's0', []), 1, 'en'); // no vector: a zero row, its id kept in the header
    d.remove('n7');
    const index = createAnnVectorIndex({ dimension: 4 });
    for (const [id, v] of d.liveVectors()) index.add(id, v);
    const bytes = index.serialize();
    const rows = gridRowsOf(bytes)!;
    const { header, parts } = d.toParts({ rows, rowOf: (id) => index.gridRowOf(id) });
    expect(Object.keys(parts)).toContain(VEC_ROW_PART);
    expect(Object.keys(parts)).not.toContain('dir.vec');
    expect(parts[VEC_ROW_PART]!.length).toBe(4 * header.count);
    // every slot with a row lists its id as 0; the zero row keeps its id; n7's freed slot is null
    expect(header.ids.filter((id) => id === 0).length).toBe(29);
    expect(header.ids.filter((id) => typeof id === 'string')).toEqual(['zero']);
    expect(header.ids.filter((id) => id === null).length).toBe(1);
    // restored through the index (gridRowId) and through the bytes' decoded id list: the same directory
    const rowIds = gridRowIdsOf(bytes)!;
    for (const idAt of [(r: number) => index.gridRowId(r), (r: number) => rowIds[r]]) {
      const back = new NodeDirectory(4);
      back.restore(JSON.parse(JSON.stringify(header)), parts, { rows, idAt });
      expect(back.size).toBe(30);
      for (let i = 1; i <= 31; i++) {
        const id = i === 31 ? 'zero' : `n${i}`;
        expect([back.has(id), back.seq(id), back.hashOf(id), back.session(id)]).toEqual([d.has(id), d.seq(id), d.hashOf(id), d.session(id)]);
        expect(back.vector(id)).toEqual(d.vector(id));
      }
    }
    expect(() => new NodeDirectory(4).restore(header, parts)).toThrow('names row');
    expect(() => new NodeDirectory(4).restore(header, parts, { rows: rows.subarray(0, 8), idAt: (r) => rowIds[r] })).toThrow('names row');
    expect(() => new NodeDirectory(4).restore(header, parts, { rows, idAt: () => undefined })).toThrow('which has none');
    // a row the index does not hold as the directory does: dir.vec is written, ids in full
    const other = createAnnVectorIndex({ dimension: 4 });
    for (const [id, v] of d.liveVectors()) other.add(id, id === 'n3' ? Float32Array.from([1, 0, 0, 0]) : v);
    const full = d.toParts({ rows: gridRowsOf(other.serialize())!, rowOf: (id) => other.gridRowOf(id) });
    expect(Object.keys(full.parts)).toContain('dir.vec');
    expect(full.header.ids.includes(0)).toBe(false);
  });

  it('restores parts that are views at aligned and odd offsets of larger buffers, and shares no bytes with them', () => {
    const d = new NodeDirectory(3);
    for (let i = 1; i <= 20; i++) d.add(node(`n${i}`, i * 1.5, `s${i % 4}`, quantizeVector([i, -i, (i % 5) - 2])), hash53(`n${i}`) + 0.25, i % 3 ? 'en' : 'de');
    const { header, parts } = d.toParts();
    for (const offset of [0, 8, 1, 3]) {
      const moved: Record<string, Uint8Array> = {};
      for (const [name, bytes] of Object.entries(parts)) {
        const host = new Uint8Array(bytes.byteLength + offset + 5).fill(0xee);
        host.set(bytes, offset);
        moved[name] = host.subarray(offset, offset + bytes.byteLength);
      }
      const back = new NodeDirectory(3);
      back.restore(header, moved);
      for (const part of Object.values(moved)) part.fill(0x7f); // the parts change after the restore
      for (let i = 1; i <= 20; i++) {
        const id = `n${i}`;
        expect([back.seq(id), back.status(id), back.language(id), back.hashOf(id), back.session(id)]).toEqual([i * 1.5, 'active', i % 3 ? 'en' : 'de', hash53(id) + 0.25, `s${i % 4}`]);
        expect(back.vector(id)).toEqual(d.vector(id));
      }
    }
  });

  it('refuses parts whose lengths do not match the header', () => {
    const d = new NodeDirectory(2);
    d.add(node('a', 1, undefined, quantizeVector([1, 0])), 1, 'en');
    expect(d.session('a')).toBeUndefined(); // no session
    const { header, parts } = d.toParts();
    expect(() => new NodeDirectory(2).restore(header, { ...parts, 'dir.vec': new Uint8Array(1) })).toThrow(/dir\.vec has 1 bytes, expected 2/);
  });

  it('hashes content, not status or vector; hash53 is a stable 53-bit integer', () => {
    const a = node('a', 1, 's', [1, 0]);
    expect(contentHash({ ...a, status: 'superseded', embedding: { encoder: 'x', vector: [0, 1] } })).toBe(contentHash(a));
    expect(contentHash({ ...a, text: 'other' })).not.toBe(contentHash(a));
    const h = hash53('hello');
    expect(Number.isSafeInteger(h) && h >= 0 && h < 2 ** 53).toBe(true);
    expect(hash53('hello')).toBe(h);
    expect(hash53('hellp')).not.toBe(h);
  });
});

describe('NodeDirectory erasure (issue 22)', () => {
  it('a removed node leaves nothing in its slot, and its session name leaves the checkpoint with its last node', () => {
    const d = new NodeDirectory(4);
    const secret = quantizeVector([0.9, -0.7, 0.5, -0.3]);
    d.add(node('keep', 1, 'public', quantizeVector([0.1, 0.2, 0.3, 0.4])), 101, 'en');
    d.add(node('gone', 2, 'sess-Plumbrook', secret), 202, 'fr');
    d.remove('gone');
    const { header, parts } = d.toParts();
    // Slot 1 is free: every per-node array holds zeros there (seq, hash, vector, scale), session −1.
    expect(header.ids).toEqual(['keep', null]);
    expect(header.sessions).toEqual(['public']);
    expect(Array.from(new Int8Array(parts['dir.vec']!.slice(4, 8).buffer))).toEqual([0, 0, 0, 0]);
    expect(new Float32Array(parts['dir.scale']!.slice().buffer)[1]).toBe(0);
    expect(new Float64Array(parts['dir.seq']!.slice().buffer)[1]).toBe(0);
    expect(new Float64Array(parts['dir.hash']!.slice().buffer)[1]).toBe(0);
    expect(Array.from(new Int32Array(parts['dir.session']!.slice().buffer))).toEqual([0, -1]);
    // The kept node reads back the same after a restore.
    const back = new NodeDirectory(4);
    back.restore(header, parts);
    expect([back.session('keep'), back.seq('keep'), back.hashOf('keep'), back.has('gone')]).toEqual(['public', 1, 101, false]);
  });
});
