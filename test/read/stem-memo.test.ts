/**
 * The namespace's stem memo (read/signals.ts soft term matching): private to NamespaceState,
 * reached only through memoStem, bounded (an LRU of STEM_MEMO_WORDS words), and emptied by a
 * batch that deletes a node, so that no cache keeps a word of a deleted text (issue 22 erasure).
 */
import { describe, expect, it } from 'vitest';
import { createLexicalIndex } from '../../src/plane/indexes/lexical.js';
import { createFlatVectorIndex } from '../../src/plane/indexes/vector-flat.js';
import { NamespaceState, STEM_MEMO_WORDS } from '../../src/plane/resident/namespace.js';
import { softQuery } from '../../src/read/signals.js';
import type { MemoryNode } from '../../src/types.js';

function node(i: number, text: string): MemoryNode {
  return {
    id: `n${i}`,
    namespace: 'ns',
    text,
    ingestedAt: '2024-01-01T00:00:00.000Z',
    provenance: {},
    entities: [],
    keywords: [],
    timeRefs: [],
    types: { episodic: 0.5, semantic: 0.5, procedural: 0.5, preference: 0.5 },
    embedding: { encoder: 'test', vector: [1, 0] },
    status: 'active',
    supersededBy: [],
    seq: i,
  };
}

const factories = { lexical: createLexicalIndex, vector: (d: number) => createFlatVectorIndex(d) };
const lookup = (words: string[]): Array<Float32Array | undefined> => words.map(() => undefined);

describe('NamespaceState stem memo', () => {
  it('is private: no public field, only memoStem and its size', async () => {
    const state = await NamespaceState.fromSnapshot('ns', { nodes: [node(1, 'x')], edges: [], meta: {} }, factories, 2);
    expect('stemMemo' in state).toBe(false);
    expect(Object.keys(state)).not.toContain('stemMemo');
    expect(STEM_MEMO_WORDS).toBe(16_384);
    state.dispose();
  });

  it('memoises what soft matching stems, and a delete empties it; a batch that only puts keeps it', async () => {
    const texts = ['Zorblatt painted the garden fence.', 'We watched a film.'];
    const state = await NamespaceState.fromSnapshot('ns', { nodes: texts.map((t, i) => node(i + 1, t)), edges: [], meta: {} }, factories, 2);
    const sq = softQuery('Which hobby is painting?', state, lookup);
    // Candidate words: zorblatt, painted, garden, fence (the: a stop word, memoised as false).
    expect(sq?.overlap([texts[0] as string])).toBeCloseTo(0.5, 6); // "painted" shares painting's stem; hobby matches nothing
    expect(state.stemMemoSize).toBe(5);
    const computed: string[] = [];
    const compute = (w: string): string | false => (computed.push(w), `fresh-${w}`);
    expect(state.memoStem('zorblatt', compute)).toBe('zorblatt');
    expect(state.memoStem('the', compute)).toBe(false);
    expect(computed).toEqual([]);

    state.apply({ putNodes: [node(3, 'Another note.')] });
    expect(state.stemMemoSize).toBe(5);

    await state.loadNodes(['n1']);
    state.apply({ deleteNodeIds: ['n1'] });
    expect(state.stemMemoSize).toBe(0);
    expect(state.memoStem('zorblatt', compute)).toBe('fresh-zorblatt');
    expect(computed).toEqual(['zorblatt']);
    state.dispose();
  });
});
