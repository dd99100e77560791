import { describe, expect, it } from 'vitest';
import { NamespaceState } from '../../src/plane/namespace.js';
import { createLexicalIndex } from '../../src/plane/lexical.js';
import { createFlatVectorIndex } from '../../src/plane/vector-flat.js';
import { createHnswVectorIndex } from '../../src/plane/vector-hnsw.js';
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
