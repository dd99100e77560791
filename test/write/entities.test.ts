import { describe, expect, it } from 'vitest';
import { NamespaceState } from '../../src/plane/resident/namespace.js';
import { createLexicalIndex } from '../../src/plane/indexes/lexical.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import type { MemoryNode } from '../../src/types.js';
import { extractEntities } from '../../src/write/entities.js';
import { buildNode } from '../../src/write/plan.js';

function stored(i: number, text: string, speaker: string, entities: string[]): MemoryNode {
  return {
    id: `n${i}`,
    namespace: 'ns',
    text,
    ingestedAt: '2024-01-01T00:00:00.000Z',
    provenance: { speaker },
    entities,
    keywords: [],
    timeRefs: [],
    types: { episodic: 0.5, semantic: 0.5, procedural: 0.5, preference: 0.5 },
    embedding: { encoder: 'test', vector: [1, 0] },
    status: 'active',
    supersededBy: [],
    seq: i,
  };
}

describe('extractEntities with known names', () => {
  it('takes a sentence-initial name only when the lookup knows it (any object with has)', () => {
    const text = 'Luna loves the park.';
    expect(extractEntities(text)).toEqual([]);
    expect(extractEntities(text, { has: (name) => name === 'luna' })).toEqual(['luna']);
  });
});

describe('buildNode', () => {
  it('knows the speakers and every earlier mention of the namespace (no copy per write)', async () => {
    const state = await NamespaceState.fromSnapshot(
      'ns',
      { nodes: [stored(1, 'We adopted Luna.', 'Caroline', ['luna'])], edges: [], meta: {} },
      { lexical: createLexicalIndex, vector: (d) => createFlatVectorIndex(d) },
      2,
    );
    const node = buildNode(
      'ns',
      {
        id: 'n2',
        checked: { text: 'Luna met caroline today.', provenance: {} },
        vector: Float32Array.from([0, 1]),
        encoder: 'test',
        types: { episodic: 0.5, semantic: 0.5, procedural: 0.5, preference: 0.5 },
        nowIso: '2024-01-02T00:00:00.000Z',
      },
      state,
    );
    // "Luna" opens the sentence (known from a mention); "caroline" is lower case (known speaker).
    expect(node.entities).toEqual(['luna', 'caroline']);
    state.dispose();
  });
});
