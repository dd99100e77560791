import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FORMAT, NamespaceState } from '../../src/plane/resident/namespace.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { createLexicalIndex } from '../../src/plane/indexes/lexical.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { createHnswVectorIndex } from '../../src/plane/indexes/vector-hnsw.js';
import type { MemoryNode } from '../../src/types.js';
import { lexicalProbe, PROBE_FROM_NODES } from '../../src/write/candidates.js';
import { DEFAULT_PARAMETERS } from '../../src/config.js';

function node(i: number, vector: number[], keywords: string[] = []): MemoryNode {
  return {
    id: `n${i}`,
    namespace: 'ns',
    text: `text ${i}`,
    ingestedAt: '2024-01-01T00:00:00.000Z',
    provenance: {},
    entities: [],
    keywords,
    timeRefs: [],
    types: { episodic: 0.5, semantic: 0.5, procedural: 0.5, preference: 0.5 },
    embedding: { encoder: 'test', vector },
    status: 'active',
    supersededBy: [],
    seq: i,
  };
}

describe('NamespaceState vector upgrade', () => {
  it('stays exact below the threshold and switches to HNSW at it, keeping every vector', async () => {
    const nodes = [node(1, [1, 0, 0]), node(2, [0, 1, 0]), node(3, [0, 0, 1])];
    const factories = { lexical: createLexicalIndex, vector: (d: number) => createFlatVectorIndex(d), upgrade: { threshold: 3, create: (d: number) => createHnswVectorIndex({ dimension: d }) } };
    const small = await NamespaceState.fromSnapshot('ns', { nodes: nodes.slice(0, 2), edges: [], meta: {} }, factories, 3);
    await small.maybeUpgradeVector();
    expect(small.vector.kind).toBe('flat');
    const full = await NamespaceState.fromSnapshot('ns', { nodes, edges: [], meta: {} }, factories, 3);
    await full.maybeUpgradeVector();
    expect(full.vector.kind).toBe('hnsw');
    expect(full.vector.size).toBe(3);
    expect(full.vector.search(Float32Array.from([0, 0.1, 1]), 1)[0]?.id).toBe('n3');
    full.dispose();
    small.dispose();
  });
});

describe('NamespaceState vector upgrade that fails', () => {
  it('keeps the exact index, returns and keeps the error, and does not try again', async () => {
    const nodes = [node(1, [1, 0, 0]), node(2, [0, 1, 0]), node(3, [0, 0, 1])];
    let tries = 0;
    const failure = new Error('hnswlib-wasm could not be loaded');
    const factories = {
      lexical: createLexicalIndex,
      vector: (d: number) => createFlatVectorIndex(d),
      upgrade: { threshold: 3, create: async () => { tries++; throw failure; } },
    };
    const s = await NamespaceState.fromSnapshot('ns', { nodes, edges: [], meta: {} }, factories, 3);
    expect(await s.maybeUpgradeVector()).toEqual({ error: failure });
    expect(s.vector.kind).toBe('flat');
    expect(s.vector.size).toBe(3);
    expect(s.vectorUpgradeError).toBe(failure);
    expect(await s.maybeUpgradeVector()).toBeUndefined(); // reported once, not retried by this state
    expect(tries).toBe(1);
    s.dispose();
  });
});

describe('lexical probe of a write', () => {
  it('uses the whole text while the namespace is small', async () => {
    const s = await NamespaceState.fromSnapshot('ns', { nodes: [node(1, [1, 0], ['dog'])], edges: [], meta: {} }, { lexical: createLexicalIndex, vector: (d) => createFlatVectorIndex(d) }, 2);
    expect(lexicalProbe(s, 'my dog Biscuit', ['dog', 'biscuit'])).toBe('my dog Biscuit');
  });

  it('uses the rarest keywords once the namespace is large, without terms in over 1% of nodes', async () => {
    // "dog" appears in every node (df 2000 > max(50, 2000/100)), "biscuit" in one, "ate" in none.
    const nodes = Array.from({ length: PROBE_FROM_NODES }, (_, i) => node(i + 1, [1, 0], i === 0 ? ['dog', 'biscuit'] : ['dog']));
    const s = await NamespaceState.fromSnapshot('ns', { nodes, edges: [], meta: {} }, { lexical: createLexicalIndex, vector: (d) => createFlatVectorIndex(d) }, 2);
    expect(s.keywordDf.get('dog')).toBe(PROBE_FROM_NODES);
    expect(s.keywordDf.get('biscuit')).toBe(1);
    expect(lexicalProbe(s, 'my dog Biscuit ate', ['dog', 'biscuit', 'ate'])).toBe('ate biscuit');
    expect(lexicalProbe(s, 'my dog', ['dog'])).toBe('');
  });

  it('leaves out terms over writeProbeMaxDf nodes even where 1% of the nodes is more', async () => {
    // 2000 nodes: the 1% rule allows df ≤ max(50, 20) = 50; "cat" is in 40 nodes, "mouse" in 10.
    const nodes = Array.from({ length: PROBE_FROM_NODES }, (_, i) => node(i + 1, [1, 0], i < 40 ? (i < 10 ? ['cat', 'mouse'] : ['cat']) : ['dog']));
    const s = await NamespaceState.fromSnapshot('ns', { nodes, edges: [], meta: {} }, { lexical: createLexicalIndex, vector: (d) => createFlatVectorIndex(d) }, 2);
    expect(lexicalProbe(s, 'cat and mouse', ['cat', 'mouse'])).toBe('mouse cat');
    expect(lexicalProbe(s, 'cat and mouse', ['cat', 'mouse'], 30)).toBe('mouse');
    expect(DEFAULT_PARAMETERS.writeProbeMaxDf).toBe(200);
  });
});

describe('NamespaceState open from a checkpoint, around the switch to HNSW', () => {
  it('restores a checkpointed HNSW index from exactOpenBelow nodes; below it opens exact and restores HNSW (up to date) at the first upgrade', async () => {
    const { createMemoryStorage } = await import('../../src/plane/store/memory-storage.js');
    const { CHANGE_META_KEY } = await import('../../src/plane/store/storage.js');
    const { restoreVectorIndex } = await import('../../src/plane/indexes/vector-factory.js');
    const storage = createMemoryStorage();
    const nodes = [node(1, [1, 0, 0]), node(2, [0, 1, 0]), node(3, [0, 0, 1])];
    await storage.commit('ns', { putNodes: nodes, meta: { [CHANGE_META_KEY]: 1 }, change: 1 });
    let created = 0;
    let exactBuilt = 0;
    const factories = (exactOpenBelow: number) => ({
      lexical: createLexicalIndex,
      vector: (d: number) => {
        exactBuilt++;
        return createFlatVectorIndex(d);
      },
      upgrade: {
        threshold: 3,
        exactOpenBelow: (d: number) => (d === 3 ? exactOpenBelow : 1),
        create: (d: number) => {
          created++;
          return createHnswVectorIndex({ dimension: d });
        },
      },
      restoreVector: restoreVectorIndex,
    });
    const first = await NamespaceState.open({ namespace: 'ns', storage, factories: factories(3), dimension: 3 });
    await first.maybeUpgradeVector();
    expect(first.vector.kind).toBe('hnsw');
    expect(created).toBe(1);
    await storage.writeCheckpoint!('ns', await first.checkpoint(1));
    first.dispose();
    // From exactOpenBelow (3 nodes, 3): the HNSW file is restored at open.
    const again = await NamespaceState.open({ namespace: 'ns', storage, factories: factories(3), dimension: 3 });
    expect(again.openReport.from).toBe('checkpoint');
    expect(again.vector.kind).toBe('hnsw');
    again.dispose();
    // Below it (exactOpenBelow 4): exact, with every live vector, until the first upgrade.
    const below = await NamespaceState.open({ namespace: 'ns', storage, factories: factories(4), dimension: 3 });
    expect(below.openReport.from).toBe('checkpoint');
    expect(below.vector.kind).toBe('flat');
    expect(below.vector.size).toBe(3);
    expect(below.vector.search(Float32Array.from([0, 0.1, 1]), 1)[0]?.id).toBe('n3');
    // A write after the open: n4 added, n1 deleted; the upgrade restores the checkpoint's HNSW
    // (nothing is built: create is not called again) and brings it up to date.
    const n4 = node(4, [0, -1, 0]);
    await below.loadNodes(['n1']);
    await storage.commit('ns', { putNodes: [n4], deleteNodeIds: ['n1'], meta: { [CHANGE_META_KEY]: 2 }, change: 2 });
    below.apply({ putNodes: [n4], deleteNodeIds: ['n1'] });
    expect(await below.maybeUpgradeVector()).toBeUndefined();
    expect(below.vector.kind).toBe('hnsw');
    expect(created).toBe(1);
    expect(below.vector.size).toBe(3);
    expect(below.vector.has('n1')).toBe(false);
    expect(below.vector.search(Float32Array.from([0, -1, 0.1]), 1)[0]?.id).toBe('n4');
    // Its checkpoint (@3) keeps each vector once: no exact index (3 nodes < 4); hnswlib's bytes
    // hold float32 vectors, so the directory keeps its int8 rows. The next open builds the exact
    // index from the directory.
    const cp = await below.checkpoint(2);
    expect(Object.keys(cp.parts)).toEqual(expect.arrayContaining(['vectors', 'dir.vec']));
    expect(Object.keys(cp.parts)).not.toContain('vectors.exact');
    await storage.writeCheckpoint!('ns', cp);
    below.dispose();
    const builtBefore = exactBuilt;
    const reopened = await NamespaceState.open({ namespace: 'ns', storage, factories: factories(4), dimension: 3 });
    expect(exactBuilt).toBe(builtBefore + 1); // built from the directory's rows
    expect([reopened.openReport.from, reopened.openReport.replayed, reopened.vector.kind, reopened.vector.size]).toEqual(['checkpoint', 0, 'flat', 3]);
    expect(reopened.vector.search(Float32Array.from([0, -1, 0.1]), 1)[0]?.id).toBe('n4');
    reopened.dispose();
    // At or above exactOpenBelow the checkpoint has no exact part.
    const at = await NamespaceState.open({ namespace: 'ns', storage, factories: factories(3), dimension: 3 });
    expect(at.vector.kind).toBe('hnsw');
    expect(Object.keys((await at.checkpoint(2)).parts)).not.toContain('vectors.exact');
    at.dispose();
  });
});

describe('NamespaceState edges of one subtype', () => {
  const edge = (from: string, to: string, subtype: 'precedes' | 'same_session' | 'contradicts', view: 'temporal' | 'semantic' = 'temporal') => ({
    id: `${from}>${to}:${view}:${subtype}`,
    namespace: 'ns',
    from,
    to,
    view,
    subtype,
    weight: 1,
    origin: { kind: 'rule' as const, by: 'test' },
    createdAt: '2024-01-01T00:00:00.000Z',
  });

  it('reads only that subtype from the store, keeps it across operations until a commit touches edges, and follows writes while pinned', async () => {
    const { createMemoryStorage } = await import('../../src/plane/store/memory-storage.js');
    const storage = createMemoryStorage();
    const calls: Array<{ ids: readonly string[]; subtype: string | undefined }> = [];
    const getEdges = storage.getEdges!.bind(storage);
    storage.getEdges = (ns, ids, filter) => {
      calls.push({ ids, subtype: filter?.subtype });
      return getEdges(ns, ids, filter);
    };
    const nodes = [node(1, [1, 0]), node(2, [0, 1]), node(3, [1, 1]), node(4, [1, -1])];
    // n2 has two precedes edges (n1→n2, n2→n3), a same_session edge and a contradicts edge.
    const edges = [edge('n1', 'n2', 'precedes'), edge('n2', 'n3', 'precedes'), edge('n1', 'n3', 'same_session'), edge('n4', 'n2', 'contradicts', 'semantic')];
    await storage.commit('ns', { putNodes: nodes, putEdges: edges });
    const s = await NamespaceState.open({ namespace: 'ns', storage, factories: { lexical: createLexicalIndex, vector: (d) => createFlatVectorIndex(d) }, dimension: 2 });
    await s.use(async () => {
      await s.loadEdgesOfKind(['n2', 'n3'], 'precedes');
      expect(calls).toEqual([{ ids: ['n2', 'n3'], subtype: 'precedes' }]);
      expect(s.edgesOfKind('n2', 'precedes').map((e) => e.id)).toEqual(['n1>n2:temporal:precedes', 'n2>n3:temporal:precedes']);
      expect(s.edgesOfKind('n3', 'precedes').map((e) => e.id)).toEqual(['n2>n3:temporal:precedes']);
      expect(() => s.edgesOf('n2')).toThrow(/was read before it was loaded/);
      expect(() => s.edgesOfKind('n2', 'contradicts')).toThrow(/contradicts edges of "n2"/);
      // A write during the operation: the pinned list follows it.
      const added = edge('n2', 'n4', 'precedes');
      await storage.commit('ns', { putEdges: [added] });
      s.apply({ putEdges: [added] });
      expect(s.edgesOfKind('n2', 'precedes').map((e) => e.id)).toEqual(['n1>n2:temporal:precedes', 'n2>n3:temporal:precedes', 'n2>n4:temporal:precedes']);
    });
    // The commit above dropped the cache: the next operation reads the store again, and sees n2→n4.
    await s.use(async () => {
      await s.loadEdgesOfKind(['n2'], 'precedes');
      expect(calls).toHaveLength(2);
      expect(s.edgesOfKind('n2', 'precedes')).toHaveLength(3);
    });
    // No commit in between: served from the cache.
    await s.use(async () => {
      await s.loadEdgesOfKind(['n2'], 'precedes');
      expect(calls).toHaveLength(2);
      // A node whose whole list is loaded answers from it, without a filtered read.
      await s.loadEdges(['n4'], false);
      await s.loadEdgesOfKind(['n4'], 'contradicts');
      expect(calls).toHaveLength(3);
      expect(calls[2]).toEqual({ ids: ['n4'], subtype: undefined });
      expect(s.edgesOfKind('n4', 'contradicts').map((e) => e.id)).toEqual(['n4>n2:semantic:contradicts']);
      expect(s.edgesOfKind('n4', 'precedes').map((e) => e.id)).toEqual(['n2>n4:temporal:precedes']);
    });
    s.dispose();
  });
});

describe('NamespaceState erasure (issue 22)', () => {
  it('a speaker name leaves the state and its checkpoint with the last node that has it', async () => {
    const factories = { lexical: createLexicalIndex, vector: (d: number) => createFlatVectorIndex(d) };
    const a = { ...node(1, [1, 0, 0]), provenance: { speaker: 'Quenbyrthia' } };
    const b = { ...node(2, [0, 1, 0]), provenance: { speaker: 'QUENBYRTHIA' } };
    const c = { ...node(3, [0, 0, 1]), provenance: { speaker: 'Maya' } };
    const state = await NamespaceState.fromSnapshot('ns', { nodes: [a, b, c], edges: [], meta: {} }, factories, 3);
    expect([...state.speakers.keys()].sort()).toEqual(['maya', 'quenbyrthia']);
    await state.loadNodes(['n1', 'n2']);
    state.apply({ deleteNodeIds: ['n1'] });
    expect(state.speakers.has('quenbyrthia')).toBe(true); // n2 still has it
    // Through a checkpoint round trip, the count comes along.
    const cp = await state.checkpoint(1);
    expect(cp.format).toBe(CHECKPOINT_FORMAT);
    const storage = createMemoryStorage();
    await storage.commit('ns', { putNodes: [b, c], meta: { change: 1 }, checkpoint: cp });
    const reopened = await NamespaceState.open({ namespace: 'ns', storage, factories, dimension: 3 });
    expect(reopened.openReport.from).toBe('checkpoint');
    await reopened.loadNodes(['n2']);
    reopened.apply({ deleteNodeIds: ['n2'] });
    expect([...reopened.speakers.keys()]).toEqual(['maya']);
    const text = new TextDecoder().decode((await reopened.checkpoint(2)).parts['book.json']);
    expect(text.toLowerCase()).not.toContain('quenbyrthia');
  });
});
