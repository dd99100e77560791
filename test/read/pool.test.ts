import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMETERS, resolveParameters } from '../../src/config.js';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { softQueryText } from '../../src/read/pool.js';

describe('softQueryText: the question words replaced by their nearest vocabulary terms', () => {
  // Two-dimensional unit vectors: cos(instruments, ·) = x.
  const vectors: Record<string, Float32Array> = {
    instruments: Float32Array.of(1, 0),
    instrument: Float32Array.of(1, 0),
    violin: Float32Array.of(0.8, 0.6),
    guitar: Float32Array.of(0.6, 0.8),
    cello: Float32Array.of(0.49, Math.sqrt(1 - 0.49 ** 2)),
    kitchen: Float32Array.of(0, 1),
    piano: Float32Array.of(0.9, Math.sqrt(1 - 0.81)),
    melanie: Float32Array.of(1, 0),
  };
  const lookup = (words: string[]) => words.map((w) => vectors[w]);
  const df = new Map([
    ['violin', 2],
    ['guitar', 1],
    ['cello', 1],
    ['kitchen', 3],
    ['piano', 50], // more frequent than maxDf: not a stand-in
    ['instrument', 4], // the word's own term: the plain lexical list has it
    ['x1', 1], // not a word of 3+ letters
  ]);

  it('keeps terms with cosine ≥ 0.5, nearest first, never the own term, a frequent term, a speaker or an asking word', () => {
    // violin 0.8, guitar 0.6 kept; cello 0.49 and kitchen 0 below 0.5; piano over maxDf 10
    expect(softQueryText('What kind of instruments does Melanie play?', new Set(['melanie']), df, 10, lookup)).toBe('violin guitar');
  });
  it('is empty without word vectors or without a content word in their vocabulary', () => {
    expect(softQueryText('Which instruments?', new Set(), df, 10, undefined)).toBe('');
    expect(softQueryText('What kind of things?', new Set(), df, 10, lookup)).toBe('');
  });
});

describe('the wider pool of a multi-hop question (issue 24)', () => {
  // One anchor only, no graph expansion, no hop: the first round reaches the guitar turn only
  // through the soft list ("instruments" → violin, guitar by word vector; no shared word).
  const turns: Array<[string, string]> = [
    ['Melanie', 'My sister bought new instruments for the school band.'],
    ['Caroline', 'We went to the beach and the kids built sand castles.'],
    ['Melanie', 'I have been practising the guitar every evening this month.'],
    ['Caroline', 'The museum trip with the dinosaur bones was great.'],
    ['Melanie', 'We are planning a camping trip in the mountains.'],
  ];
  const guitar = turns[2]![1];

  async function run(parameters: Record<string, number>, pool = true, roles = false, routing = true) {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      let t = Date.parse('2024-03-01T10:00:00Z');
      for (const [name, text] of turns) {
        const speaker = roles ? (name === 'Melanie' ? 'user' : 'assistant') : name;
        await memory.add({ text, speaker, observedAt: new Date((t += 60_000)).toISOString(), sessionId: 's1' });
      }
      return await memory.recall(roles ? 'Which instruments do I play?' : 'Which instruments does Melanie play?', { k: 8, switches: { graph: false, stopping: false, hop: false, pool, routing }, parameters: { anchors: 1, maxVisited: 40, poolThreshold: 0, ...parameters } });
    } finally {
      await memory.close();
    }
  }

  it('defaults to 60 extra anchors at θ_pool 1 (the guard reading decides), and is off at poolAnchors 0 or switched off', async () => {
    expect([DEFAULT_PARAMETERS.poolAnchors, DEFAULT_PARAMETERS.poolThreshold]).toEqual([60, 1]);
    for (const r of [await run({ poolAnchors: 0 }), await run({ poolAnchors: 1 }, false)]) {
      expect(r.trace.pool?.ran).toBe(false);
      expect(r.trace.anchors).toHaveLength(1);
      expect(r.memories.map((m) => m.text)).toEqual([turns[0]![1]]); // the one anchor: it says "instruments"
    }
  });
  it('adds the soft list’s turn as an anchor when h ≥ θ_pool, and grows maxVisited by as much', async () => {
    const r = await run({ poolAnchors: 1 });
    expect(r.trace.pool?.ran).toBe(true);
    expect(r.trace.pool?.softQuery.split(' ')).toContain('guitar');
    expect(r.trace.anchors).toHaveLength(2);
    expect(r.memories.map((m) => m.text)).toContain(guitar);
    expect(r.trace.limits.maxVisited).toBe(41); // the recall's 40, plus the one extra anchor
  });
  it('is not built below θ_pool on named speakers’ short turns (g = 0)', async () => {
    const r = await run({ poolAnchors: 1, poolThreshold: 1 });
    expect(r.trace.pool?.ran).toBe(false);
    expect(r.trace.pool?.h).toBeLessThan(1);
    expect(r.trace.pool?.g).toBe(0);
    expect(r.memories.map((m) => m.text)).not.toContain(guitar);
  });
  it('is not built by the h = 1 of a recall without routing when θ_pool = 1 (that route is off)', async () => {
    const r = await run({ poolAnchors: 1, poolThreshold: 1 }, true, false, false);
    expect(r.trace.routing.h).toBe(1);
    expect(r.trace.pool?.ran).toBe(false);
    expect((await run({ poolAnchors: 1, poolThreshold: 0.99 }, true, false, false)).trace.pool?.ran).toBe(true);
  });
  it('is built below θ_pool when the guard reads the history as out of range (role speakers: g = 0.3)', async () => {
    const r = await run({ poolAnchors: 1, poolThreshold: 1 }, true, true);
    expect(r.trace.pool?.h).toBeLessThan(1);
    expect(r.trace.pool?.g).toBeCloseTo(0.3, 10); // GUARD_ROLE_WEIGHT × the one anchor's role share 1
    expect(r.trace.pool?.ran).toBe(true);
    expect(r.memories.map((m) => m.text)).toContain(guitar);
  });
  it('validates its parameters', () => {
    expect(() => resolveParameters({ poolThreshold: 1.5 })).toThrow(/poolThreshold/);
    expect(() => resolveParameters({ poolAnchors: -1 })).toThrow(/poolAnchors/);
    expect(() => resolveParameters({ poolAnchors: 2.5 })).toThrow(/poolAnchors/);
  });
});
