/**
 * A superseded memory ranks below every memory that replaced it, directly or along its chain
 * (README "Superseded memories … always rank below the memory that replaced them"), in recall on
 * every shipped store and in the pure cap of src/read/recalled.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { demotesSuperseded, supersessionCaps } from '../../src/read/recalled.js';
import { createLocalSystemOne } from '../../src/system-one/local.js';
import { createNodeAssetLoader } from '../../src/encoder/assets-node.js';
import type { MemoryNode } from '../../src/types.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';
import { SHIPPED_STORES, storePlace } from '../lifecycle/stores.js';

let encoder: Encoder;
const { tempDir } = lifecycleFixture('supersession-chain', (e) => (encoder = e));

/** Positions in `ids` never put a replaced version before the one that replaced it. */
function expectChainOrder(ids: string[], chain: string[]): void {
  const at = chain.map((id) => ids.indexOf(id));
  for (let i = 0; i + 1 < chain.length; i++) {
    if (at[i] === -1 || at[i + 1] === -1) continue;
    expect(at[i + 1], `version ${i + 1} before version ${i}`).toBeLessThan(at[i] as number);
  }
  // Every recalled version below the current one (the end of the chain), wherever it is.
  const last = at[chain.length - 1] as number;
  if (last !== -1) for (const p of at.slice(0, -1)) if (p !== -1) expect(p).toBeGreaterThan(last);
}

describe('a chain of updates in recall', () => {
  for (const kind of SHIPPED_STORES) {
    it(`${kind}: Porto → Vienna → Oslo: "Where do I live?" ranks Oslo, then Vienna, then Porto (the shipped System One)`, async () => {
      const place = storePlace(kind, tempDir);
      const systemOne = await createLocalSystemOne({ load: createNodeAssetLoader(), engine: 'ts' });
      const m = await createMemory({ encoder, storage: await place.open(), systemOne });
      try {
        const v1 = await m.add({ text: 'user: I live in Porto', speaker: 'user' });
        const v2 = await m.update(v1.id, { text: 'user: I live in Vienna now' });
        const v3 = await m.update(v2.id, { text: 'user: I moved to Oslo' });
        const got = (await m.recall('Where do I live?')).memories;
        expect(got.map((x) => x.id)).toEqual([v3.id, v2.id, v1.id]);
        expect(got.map((x) => x.status)).toEqual(['active', 'superseded', 'superseded']);
        for (let i = 0; i + 1 < got.length; i++) expect((got[i] as { score: number }).score).toBeGreaterThanOrEqual((got[i + 1] as { score: number }).score);
      } finally {
        await m.close();
        await systemOne.close?.();
      }
    });
  }

  it('a middle version not recalled (a chain of 3, the middle one filtered out): the oldest still ranks below the newest', async () => {
    const m = await createMemory({ encoder });
    try {
      const v1 = await m.add({ text: 'user: my office is in Porto', metadata: { keep: true } });
      const v2 = await m.update(v1.id, { text: 'user: my office moved to Vienna' });
      const v3 = await m.update(v2.id, { text: 'user: my office is in Oslo now', metadata: { keep: true } });
      // The filter drops Vienna from the candidates; Porto matches the query best.
      const ids = (await m.recall('Porto', { filter: { keep: true } })).memories.map((x) => x.id);
      expect(ids).toEqual([v3.id, v1.id]);
    } finally {
      await m.close();
    }
  });
});

describe('a question about the past (issue 24): a replaced state is not demoted', () => {
  it('"Which river did I live near?" ranks the replaced Porto flat first; "Which river do I live near?" ranks Vienna first', async () => {
    const m = await createMemory({ encoder });
    try {
      const porto = await m.add({ text: 'user: I live in Porto, in a flat near the river.', speaker: 'user', observedAt: '2022-03-01T10:00:00Z' });
      const vienna = await m.update(porto.id, { text: 'user: I moved to Vienna.', speaker: 'user', observedAt: '2023-06-01T10:00:00Z' });
      const past = (await m.recall('Which river did I live near?')).memories;
      expect(past.map((x) => x.id).slice(0, 2)).toEqual([porto.id, vienna.id]);
      expect(past[0]).toMatchObject({ status: 'superseded', supersededAt: '2023-06-01T10:00:00.000Z' });
      const now = (await m.recall('Which river do I live near?')).memories;
      expect(now.map((x) => x.id).slice(0, 2)).toEqual([vienna.id, porto.id]);
    } finally {
      await m.close();
    }
  });

  it('demotesSuperseded (pure): the present and no time demote; the past, and a window that ends before the replacement, do not', () => {
    const replaced = { status: 'superseded' as const, supersededBy: ['v'] };
    const by = { observedAt: '2023-06-01T10:00:00.000Z', ingestedAt: '2024-01-01T00:00:00.000Z' };
    const nodeOf = (id: string) => (id === 'v' ? by : undefined);
    const year = (y: number) => ({ text: String(y), startMs: Date.parse(`${y}-01-01T00:00:00Z`), endMs: Date.parse(`${y + 1}-01-01T00:00:00Z`) - 1 });
    expect(demotesSuperseded(replaced, {}, nodeOf)).toBe(true);
    expect(demotesSuperseded(replaced, { past: true }, nodeOf)).toBe(false);
    expect(demotesSuperseded(replaced, { window: year(2022) }, nodeOf)).toBe(false); // ends before 2023-06-01
    expect(demotesSuperseded(replaced, { window: year(2023) }, nodeOf)).toBe(true); // reaches the replacement
    expect(demotesSuperseded(replaced, { window: year(2022) }, () => undefined)).toBe(true); // replacement not loaded
    expect(demotesSuperseded({ status: 'active', supersededBy: [] }, {}, nodeOf)).toBe(false);
  });

  it('demotesSuperseded: a question asked (RecallOptions.now) before the replacement was observed keeps the replaced state (h-break7 finding 3)', () => {
    const replaced = { status: 'superseded' as const, supersededBy: ['v'] };
    const nodeOf = (id: string) => (id === 'v' ? { observedAt: '2023-06-01T10:00:00.000Z', ingestedAt: '2024-01-01T00:00:00.000Z' } : undefined);
    expect(demotesSuperseded(replaced, { asOfMs: Date.parse('2023-05-31T23:59:59Z') }, nodeOf)).toBe(false);
    expect(demotesSuperseded(replaced, { asOfMs: Date.parse('2023-06-01T10:00:00Z') }, nodeOf)).toBe(true); // said by then
    expect(demotesSuperseded(replaced, { asOfMs: Date.parse('2025-01-01T00:00:00Z') }, nodeOf)).toBe(true);
    expect(demotesSuperseded(replaced, { asOfMs: Date.parse('2022-01-01T00:00:00Z') }, () => undefined)).toBe(true); // replacement not loaded
  });

  it('supersessionCaps leaves a memory `applies` refuses at its score, depth 0', () => {
    const a = { id: 'a', supersededBy: ['b'], status: 'superseded' } as unknown as MemoryNode;
    const b = { id: 'b', supersededBy: [], status: 'active' } as unknown as MemoryNode;
    expect(supersessionCaps([{ node: a, score: 0.9 }, { node: b, score: 0.5 }], () => undefined, (n) => n.id !== 'a')).toEqual([{ score: 0.9, depth: 0 }, { score: 0.5, depth: 0 }]);
  });
});

describe('supersessionCaps (pure)', () => {
  const node = (id: string, supersededBy: string[] = []): MemoryNode => ({ id, supersededBy, status: supersededBy.length > 0 ? 'superseded' : 'active' }) as unknown as MemoryNode;
  const nodes = new Map<string, MemoryNode>();
  const nodeOf = (id: string): MemoryNode | undefined => nodes.get(id);
  /** Sorted as finalRanking sorts: score descending, then depth ascending. */
  const order = (items: Array<{ node: MemoryNode; score: number }>): string[] =>
    supersessionCaps(items, nodeOf)
      .map((c, i) => ({ id: (items[i] as { node: MemoryNode }).node.id, ...c }))
      .sort((a, b) => b.score - a.score || a.depth - b.depth)
      .map((x) => x.id);

  it('a → b → c with a highest and c lowest: c, b, a; scores c 0.04, b and a just below', () => {
    const items = [
      { node: node('a', ['b']), score: 0.39 },
      { node: node('b', ['c']), score: 0.5 },
      { node: node('c'), score: 0.04 },
    ];
    const caps = supersessionCaps(items, nodeOf);
    expect(caps.map((c) => c.depth)).toEqual([2, 1, 0]);
    expect(caps[2]?.score).toBe(0.04);
    expect(caps[1]?.score).toBeCloseTo(0.04 - 1e-6, 12);
    expect(caps[0]?.score).toBeCloseTo(0.04 - 2e-6, 12);
    expect(order(items)).toEqual(['c', 'b', 'a']);
  });

  it('through a link not recalled: a → b → c with only a and c recalled puts a below c', () => {
    nodes.set('b', node('b', ['c']));
    expect(order([{ node: node('a', ['b']), score: 0.9 }, { node: node('c'), score: 0.1 }])).toEqual(['c', 'a']);
  });

  it('scores at 0 or below: the depth keeps the chain in order', () => {
    expect(order([{ node: node('a', ['b']), score: 0 }, { node: node('b', ['c']), score: 0 }, { node: node('c'), score: 0 }])).toEqual(['c', 'b', 'a']);
    expect(order([{ node: node('a', ['c']), score: 0.3 }, { node: node('c'), score: -0.2 }])).toEqual(['c', 'a']);
  });

  it('two replacements (an explicit update and an inferred one): below both; a score already lower is kept', () => {
    const caps = supersessionCaps([{ node: node('a', ['x', 'y']), score: 0.7 }, { node: node('x'), score: 0.6 }, { node: node('y'), score: 0.2 }], nodeOf);
    expect(caps[0]?.score).toBeCloseTo(0.2 - 1e-6, 12);
    expect(supersessionCaps([{ node: node('a', ['x']), score: 0.1 }, { node: node('x'), score: 0.6 }], nodeOf)[0]?.score).toBe(0.1);
  });

  it('a cycle (a damaged store) ends', () => {
    const out = supersessionCaps([{ node: node('p', ['q']), score: 0.5 }, { node: node('q', ['p']), score: 0.4 }], nodeOf);
    expect(out).toHaveLength(2);
  });
});
