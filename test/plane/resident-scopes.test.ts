/**
 * Issue 22/24: the per-scope bookkeeping of the namespace book (plane/resident/scopes.ts): each
 * scope's last node and turn distances, kept node by node through removals (a delete, an
 * expiry, a re-indexed version: the directory drops the node before the book does) and restored
 * from `book.json`; a namespace of one scope reads the namespace's last node, and a book from a
 * checkpoint written before scopes were kept says nothing it does not know.
 */
import { describe, expect, it } from 'vitest';
import { NamespaceBook } from '../../src/plane/resident/book.js';
import { NodeDirectory } from '../../src/plane/resident/node-directory.js';
import { scopeKeyOf } from '../../src/plane/resident/scopes.js';
import type { MemoryNode } from '../../src/types.js';
import { makeNode } from './fixtures.js';

const ALICE = scopeKeyOf({ userId: 'alice' });
const BOB = scopeKeyOf({ userId: 'bob' });

/** Node n`i` (seq i) of `userId`. */
function node(i: number, userId: string): MemoryNode {
  const n = makeNode('ns', `n${i}`, i, `t${i}`);
  return { ...n, provenance: { ...n.provenance, metadata: { userId } } };
}

/** A directory and book of n1..n6: alice holds the odd seqs, bob the even ones. */
function shared(): { dir: NodeDirectory; book: NamespaceBook; nodes: MemoryNode[] } {
  const dir = new NodeDirectory(2);
  const book = new NamespaceBook(dir);
  const nodes: MemoryNode[] = [];
  for (let i = 1; i <= 6; i++) {
    const n = node(i, i % 2 === 1 ? 'alice' : 'bob');
    dir.add(n, i, 'en');
    book.add(n, 'en');
    nodes.push(n);
  }
  return { dir, book, nodes };
}

/** Removes `n` as the resident core does: directory first, then the book. */
function remove(dir: NodeDirectory, book: NamespaceBook, n: MemoryNode): void {
  dir.remove(n.id);
  book.remove(n, 'en');
}

describe('per-scope bookkeeping', () => {
  it("gives each scope its last node and its turn distances, through removals and a restore", () => {
    const { dir, book, nodes } = shared();
    expect([book.lastId, book.lastIdOf(ALICE), book.lastIdOf(BOB)]).toEqual(['n6', 'n5', 'n6']);
    // From alice's n1 to her next node: n3 and n5 lie between, so 3 (alone: seqs 1, 2, 3 → 4 − 1).
    expect([book.scopeGapAfter(ALICE, 1), book.scopeGapAfter(ALICE, 5), book.scopeGapAfter(BOB, 2)]).toEqual([3, 1, 3]);
    expect([book.onlyScope(ALICE), book.onlyScope(BOB)]).toEqual([false, false]);
    remove(dir, book, nodes[4] as MemoryNode); // alice's n5
    expect([book.lastIdOf(ALICE), book.scopeGapAfter(ALICE, 1)]).toEqual(['n3', 2]);
    const back = new NamespaceBook(dir);
    back.restore(JSON.parse(JSON.stringify(book.toJSON())));
    expect(JSON.stringify(back.toJSON())).toBe(JSON.stringify(book.toJSON()));
    expect([back.lastIdOf(ALICE), back.lastIdOf(BOB), back.scopeGapAfter(ALICE, 1), back.scopeGapAfter(BOB, 2)]).toEqual(['n3', 'n6', 2, 3]);
    // Bob's nodes all removed: alice is the only scope left, and reads the namespace's last node.
    for (const i of [1, 3, 5]) remove(dir, back, nodes[i] as MemoryNode);
    expect([back.onlyScope(ALICE), back.lastIdOf(ALICE), back.lastId]).toEqual([true, 'n3', 'n3']);
  });

  it('a namespace of one scope writes no seqs and rebuilds them from the directory; an older book.json knows no scope', () => {
    const dir = new NodeDirectory(2);
    const book = new NamespaceBook(dir);
    for (let i = 1; i <= 3; i++) {
      const n = makeNode('ns', `n${i}`, i, `t${i}`);
      dir.add(n, i, 'en');
      book.add(n, 'en');
    }
    const json = book.toJSON();
    expect(json.scopes).toEqual([['[null,null]', 3, ['n1', 'n2', 'n3']]]);
    const back = new NamespaceBook(dir);
    back.restore(JSON.parse(JSON.stringify(json)));
    const lone = scopeKeyOf(undefined);
    expect([back.onlyScope(lone), back.lastIdOf(lone), back.scopeGapAfter(lone, 1)]).toEqual([true, 'n3', 3]);
    const { scopes: _, ...older } = json;
    const old = new NamespaceBook(dir);
    old.restore(JSON.parse(JSON.stringify(older)));
    expect([old.onlyScope(lone), old.lastIdOf(lone), old.scopeGapAfter(lone, 1), old.toJSON().scopes]).toEqual([false, 'n3', undefined, undefined]);
  });
});
