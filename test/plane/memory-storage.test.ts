import { describe, expect, it } from 'vitest';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { makeNode } from './fixtures.js';
import { describeStorageContract } from './storage-contract.js';

describeStorageContract('memory', async () => createMemoryStorage(), 100);

describe('memory storage', () => {
  it('stores a copy: mutating the committed node afterwards changes nothing', async () => {
    const s = createMemoryStorage();
    const node = makeNode('ns', 'a', 1, 'original');
    await s.commit('ns', { putNodes: [node] });
    node.text = 'mutated';
    node.entities.push('intruder');
    const [loaded] = (await s.load('ns')).nodes;
    expect(loaded?.text).toBe('original');
    expect(loaded?.entities).toEqual(['caroline']);
  });

  it('returns a copy: mutating a loaded node changes nothing stored', async () => {
    const s = createMemoryStorage();
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'original')], meta: { cursor: { seq: 1 } } });
    const first = await s.load('ns');
    first.nodes[0]!.text = 'mutated';
    (first.meta.cursor as { seq: number }).seq = 99;
    const second = await s.load('ns');
    expect(second.nodes[0]?.text).toBe('original');
    expect(second.meta).toEqual({ cursor: { seq: 1 } });
  });

  it('leaves the store unchanged when a batch holds a value that cannot be cloned', async () => {
    const s = createMemoryStorage();
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1, 'kept')] });
    const bad = makeNode('ns', 'b', 2);
    (bad.provenance.metadata as Record<string, unknown>).fn = () => 1;
    await expect(
      s.commit('ns', { deleteNodeIds: ['a'], putNodes: [makeNode('ns', 'c', 3), bad] }),
    ).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    expect((await s.load('ns')).nodes.map((n) => n.id)).toEqual(['a']);
  });

  it('forgets a namespace whose last record was deleted', async () => {
    const s = createMemoryStorage();
    await s.commit('ns', { putNodes: [makeNode('ns', 'a', 1)] });
    await s.commit('ns', { deleteNodeIds: ['a'] });
    expect(await s.namespaces()).toEqual([]);
  });

  it('sizeBytes is the record store estimate (keys and values: strings as UTF-8, numbers 8), 0 when empty', async () => {
    const s = createMemoryStorage();
    expect(await s.sizeBytes!('ns')).toBe(0);
    await s.commit('ns', { meta: { k: 'é' } });
    // meta record: namespace "ns" 2 + key "k" 1 + value "é" 2 = 5; spaces record: namespace 2 +
    // {nodes 5+8, bytes 5+8, checkpointBytes 15+8, edges 5+8, byView 6+0, explicit 8+8, floor 5+8} 97 = 99.
    expect(await s.sizeBytes!('ns')).toBe(5 + 99);
  });
});
