import { describe, expect, it } from 'vitest';
import { NamespaceBook } from '../../src/plane/resident/book.js';
import { dedupKey, nodeDedupKey } from '../../src/plane/resident/keys.js';
import { hash53, NodeDirectory } from '../../src/plane/resident/node-directory.js';
import { makeNode as makeFixtureNode } from './fixtures.js';

/** A fixture node without metadata: its repeat key is the 3-element one (text, time, source). */
function makeNode(namespace: string, id: string, seq: number, text: string): ReturnType<typeof makeFixtureNode> {
  const n = makeFixtureNode(namespace, id, seq, text);
  delete (n.provenance as { metadata?: unknown }).metadata;
  return n;
}

/** A directory and book holding nodes n1..n5 (texts t1..t5), as a writer builds them. */
function written(): { dir: NodeDirectory; book: NamespaceBook } {
  const dir = new NodeDirectory(2);
  const book = new NamespaceBook(dir);
  for (let i = 1; i <= 5; i++) {
    const n = makeNode('ns', `n${i}`, i, `t${i}`);
    dir.add(n, i, 'en');
    book.add(n, 'en');
  }
  return { dir, book };
}

/**
 * The repeat key of fixture node n<i>: its speaker (Caroline) is part of it (h-break13, checkpoint
 * @4: the 7-element key); before, the 3-element key of text, time and source, which a book restored
 * from an older checkpoint still holds (see the last test).
 */
const keyOf = (i: number): number => hash53(dedupKey(`t${i}`, '2023-05-08T13:56:00.000Z', undefined, undefined, undefined, 'Caroline'));
const olderKeyOf = (i: number): number => hash53(dedupKey(`t${i}`, '2023-05-08T13:56:00.000Z', undefined));

describe('NamespaceBook restore (repeat keys filed on first use)', () => {
  it('answers repeat candidates and writes book.json exactly as before the restore', () => {
    const { dir, book } = written();
    const json = book.toJSON();
    const back = new NamespaceBook(dir);
    back.restore(JSON.parse(JSON.stringify(json)));
    expect(JSON.stringify(back.toJSON())).toBe(JSON.stringify(json));
    expect(back.dedupCandidate(keyOf(3))).toBe('n3');
    expect(back.dedupCandidate(keyOf(9))).toBeUndefined();
  });

  it('keeps the entries in their order when a node is added or removed before any lookup', () => {
    const { dir, book } = written();
    const json = JSON.parse(JSON.stringify(book.toJSON()));
    // Removed first: n2 leaves the repeat map, the others keep their order.
    const afterRemove = new NamespaceBook(dir);
    afterRemove.restore(JSON.parse(JSON.stringify(json)));
    afterRemove.remove(makeNode('ns', 'n2', 2, 't2'), 'en');
    expect(afterRemove.toJSON().dedup).toEqual([1, 3, 4, 5].map((i) => [keyOf(i), `n${i}`]));
    // Added first: the new node's key comes after the restored ones.
    const afterAdd = new NamespaceBook(dir);
    afterAdd.restore(JSON.parse(JSON.stringify(json)));
    const n6 = makeNode('ns', 'n6', 6, 't6');
    dir.add(n6, 6, 'en');
    afterAdd.add(n6, 'en');
    expect(afterAdd.toJSON().dedup).toEqual([1, 2, 3, 4, 5, 6].map((i) => [keyOf(i), `n${i}`]));
    // A repeat of n1's key written later takes its place, where n1 stood.
    const again = makeNode('ns', 'n7', 7, 't1');
    dir.add(again, 7, 'en');
    afterAdd.add(again, 'en');
    expect(afterAdd.dedupCandidate(keyOf(1))).toBe('n7');
    expect(afterAdd.toJSON().dedup[0]).toEqual([keyOf(1), 'n7']);
  });

  it('writes the repeat keys as book.dedup (hash, directory slot) and restores the same candidates and JSON (checkpoint @3)', () => {
    const { dir, book } = written();
    const { json, dedup } = book.toParts();
    expect(json.dedup).toEqual([]);
    expect(dedup?.length).toBe(5 * 12);
    const bytes = dedup!.slice();
    expect(Array.from(new Float64Array(bytes.buffer, 0, 5))).toEqual([1, 2, 3, 4, 5].map(keyOf));
    expect(Array.from(new Int32Array(bytes.buffer, 40, 5))).toEqual([0, 1, 2, 3, 4]);
    const back = new NamespaceBook(dir);
    back.restore(JSON.parse(JSON.stringify(json)), dedup);
    expect(back.dedupCandidate(keyOf(3))).toBe('n3');
    expect(JSON.stringify(back.toJSON())).toBe(JSON.stringify(book.toJSON()));
    // A part cut short or naming a free slot is refused (the open rebuilds from a scan).
    expect(() => new NamespaceBook(dir).restore(json, dedup!.subarray(0, 50))).toThrow('book.dedup has 50 bytes');
    const bad = dedup!.slice();
    new Int32Array(bad.buffer, 40, 5)[4] = 9;
    expect(() => new NamespaceBook(dir).restore(json, bad)).toThrow('names slot 9');
  });

  it('keeps the repeat keys in book.json when one names a node the directory does not hold', () => {
    const { dir, book } = written();
    dir.remove('n2'); // the book still files n2 (not removed from it)
    const { json, dedup } = book.toParts();
    expect(dedup).toBeUndefined();
    expect(json.dedup).toEqual([1, 2, 3, 4, 5].map((i) => [keyOf(i), `n${i}`]));
  });

  it('restores an empty repeat map', () => {
    const dir = new NodeDirectory(2);
    const book = new NamespaceBook(dir);
    book.restore({ sessions: [], mentions: [], speakers: [], dedup: [], keywordDf: [], languages: [], seq: 0 });
    expect(book.dedupCandidate(1)).toBeUndefined();
    expect(book.toJSON().dedup).toEqual([]);
  });

  it('files a scoped node under its scoped key; an old unscoped key of it (a checkpoint before the scope) never verifies', () => {
    const dir = new NodeDirectory(2);
    const book = new NamespaceBook(dir);
    const n = makeNode('ns', 'a1', 1, 't1');
    n.provenance.metadata = { userId: 'alice' };
    dir.add(n, 1, 'en');
    book.add(n, 'en');
    const scoped = dedupKey('t1', n.observedAt, undefined, { userId: 'alice' }, undefined, 'Caroline');
    expect(nodeDedupKey(n)).toBe(scoped);
    expect(book.dedupCandidate(hash53(scoped))).toBe('a1');
    expect(book.dedupCandidate(keyOf(1))).toBeUndefined(); // an unscoped write of t1 finds nothing
    // A checkpoint of the old code filed it under the unscoped key: the candidate comes back, but
    // the write path compares real keys (write.ts) and the node's key is the scoped one.
    const old = new NamespaceBook(dir);
    old.restore({ ...book.toJSON(), dedup: [[keyOf(1), 'a1']] });
    expect(old.dedupCandidate(keyOf(1))).toBe('a1');
    expect(nodeDedupKey(n)).not.toBe(dedupKey('t1', n.observedAt, undefined));
    expect(old.dedupCandidate(hash53(scoped))).toBeUndefined(); // a scoped repeat is missed, never merged across scopes
  });

  it('restored with the keys of a checkpoint before the speaker (@3), answers and unfiles them; nodes filed after carry the speaker', () => {
    const { dir, book } = written();
    const old = new NamespaceBook(dir);
    old.restore({ ...book.toJSON(), dedup: [1, 2, 3, 4, 5].map((i) => [olderKeyOf(i), `n${i}`]) });
    expect(old.dedupCandidate(olderKeyOf(3))).toBe('n3'); // the write path looks the older key up too
    expect(old.dedupCandidate(keyOf(3))).toBeUndefined();
    old.remove(makeNode('ns', 'n3', 3, 't3'), 'en'); // its older key leaves with it
    expect(old.dedupCandidate(olderKeyOf(3))).toBeUndefined();
    const n6 = makeNode('ns', 'n6', 6, 't6');
    dir.add(n6, 6, 'en');
    old.add(n6, 'en');
    expect(old.toJSON().dedup).toEqual([...[1, 2, 4, 5].map((i) => [olderKeyOf(i), `n${i}`]), [keyOf(6), 'n6']]);
  });
});
