import { describe, expect, it } from 'vitest';
import { DEFAULT_PARAMETERS, resolveParameters } from '../../src/config.js';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { bridgingEntities, hopDecision, hopSeedsOf, proposeHop, type HopContext, type HopScored } from '../../src/read/hop.js';
import type { MemoryNode } from '../../src/types.js';

function node(id: string, seq: number, entities: string[], speaker?: string): MemoryNode {
  return { id, seq, text: id, entities, provenance: speaker === undefined ? {} : { speaker }, status: 'active', types: [], timeRefs: [], keywords: [], supersededBy: [] } as unknown as MemoryNode;
}

describe('hopDecision (System One decides: h(q) against θ_hop, then eq. (21))', () => {
  const p = resolveParameters({ hopThreshold: 0.5, thetaSuff: 0.9, thetaCont: 0.1 });
  const notEnough = { sufficient: 0.95, continueUseful: 0.5, missing: 0.2, contradiction: 0 };
  it('is off when switched off, whatever h', () => {
    expect(hopDecision(false, 1, undefined, p)).toBe('switched-off');
  });
  it('does not hop below θ_hop and hops at it', () => {
    expect(hopDecision(true, 0.49, undefined, p)).toBe('single-hop');
    expect(hopDecision(true, 0.5, undefined, p)).toBeUndefined();
  });
  it('does not hop when the last stop estimate met eq. (21), and hops when m_d ≥ θ_cont', () => {
    expect(hopDecision(true, 0.8, { ...notEnough, missing: 0.05 }, p)).toBe('sufficient'); // 0.95 ≥ 0.9, 0.05 < 0.1, 0 < 0.1
    expect(hopDecision(true, 0.8, notEnough, p)).toBeUndefined(); // m_d = 0.2 ≥ 0.1
  });
  it('the defaults are θ_hop 0.5, 3 seeds, 20 added nodes, and θ_hop is checked as a probability', () => {
    expect([DEFAULT_PARAMETERS.hopThreshold, DEFAULT_PARAMETERS.hopSeeds, DEFAULT_PARAMETERS.hopAnchors]).toEqual([0.5, 3, 20]);
    expect(() => resolveParameters({ hopThreshold: 1.5 })).toThrow(/hopThreshold/);
    expect(() => resolveParameters({ hopAnchors: 0 })).toThrow(/hopAnchors/);
  });
});

describe('hop seeds and bridging entities', () => {
  const s = (n: MemoryNode, score: number): HopScored => ({ node: n, score });
  it('takes the best scores first, older first on ties', () => {
    const scored = new Map([s(node('a', 3, []), 0.2), s(node('b', 2, []), 0.9), s(node('c', 1, []), 0.2), s(node('d', 4, []), 0.5)].map((x) => [x.node.id, x]));
    expect(hopSeedsOf(scored, 3).map((x) => x.node.id)).toEqual(['b', 'd', 'c']);
  });
  it("keeps the seeds' entities the question does not name, each once, never the seed's own speaker", () => {
    const seeds = [s(node('a', 1, ['caroline', 'mel'], 'Caroline'), 0.9), s(node('b', 2, ['mel', 'biscuit', 'melanie'], 'Melanie'), 0.8), s(node('c', 3, ['new york'], 'Jon'), 0.7)];
    expect(bridgingEntities(seeds, "What is the name of the dog of Caroline's friend?", new Set(['caroline']))).toEqual(['mel', 'biscuit', 'new york']);
    // caroline and melanie are their seeds' own speakers; "Mel" is not part of "Melanie"
    expect(bridgingEntities(seeds, 'Did Mel ever visit New York?', new Set())).toEqual(['biscuit']);
    expect(bridgingEntities(seeds, 'Where did Melanie go?', new Set(['melanie']))).toEqual(['mel', 'biscuit', 'new york']);
  });
});

describe('the hop reaches an answer only a bridging entity leads to (issue 24)', () => {
  // Round one is held to the two best fused anchors and no graph expansion, so it cannot reach the
  // turn that names the dog: that turn does not say "Caroline" or "friend", only "Mel".
  const turns: Array<[string, string]> = [
    ['Caroline', 'My friend Mel adopted a dog last spring, she finally has the companion she wanted.'],
    ['Melanie', 'That is lovely news about your friend, Caroline!'],
    ['Caroline', 'Thanks, my friend group has been great this year.'],
    ['Melanie', 'I painted a lake at sunrise over the weekend.'],
    ['Caroline', 'I went to a counselling workshop on Tuesday.'],
    ['Melanie', 'The kids loved the museum trip with the dinosaur bones.'],
    ['Caroline', "Mel's dog is called Biscuit, he loves running on the beach."],
    ['Melanie', 'We are planning a camping trip in the mountains next month.'],
  ];
  const question = "What is the name of the dog of Caroline's friend?";
  const bridge = turns[6]![1];

  async function run(hop: boolean) {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      let t = Date.parse('2024-03-01T10:00:00Z');
      for (const [speaker, text] of turns) await memory.add({ text, speaker, observedAt: new Date((t += 60_000)).toISOString(), sessionId: 's1' });
      return await memory.recall(question, { k: 8, switches: { graph: false, stopping: false, hop }, parameters: { anchors: 2, hopThreshold: 0, hopAnchors: 1 } });
    } finally {
      await memory.close();
    }
  }

  it('without the hop the bridging turn is never recalled; with it, the hop adds and returns it', async () => {
    const off = await run(false);
    expect(off.trace.anchors).toHaveLength(2);
    expect(off.memories.map((m) => m.text)).not.toContain(bridge); // two anchors, no expansion: only they come back
    expect(off.memories).toHaveLength(2);
    expect(off.trace.hop?.reason).toBe('switched-off');

    const on = await run(true);
    // Round one is the same: the same two anchors (ids differ between the two memories: compare texts).
    const texts = (r: typeof on): string[] => r.trace.anchors.map((a) => r.memories.find((m) => m.id === a.id)?.text ?? '');
    expect(texts(on)).toEqual(texts(off));
    expect(on.trace.hop?.reason).toBe('ran');
    expect(on.trace.hop?.entities).toContain('mel');
    expect(on.trace.hop?.seeds).toEqual(on.trace.anchors.map((a) => a.id).sort((a, b) => (on.trace.anchors.find((x) => x.id === b)!.score - on.trace.anchors.find((x) => x.id === a)!.score)));
    const id = on.memories.find((m) => m.text === bridge)?.id;
    expect(id).toBeDefined();
    expect(on.trace.hop?.added.map((x) => x.id)).toContain(id);
    // The entity list (third) found it: "Mel" is in the bridging turn, not in the question.
    expect(on.trace.hop?.added.find((x) => x.id === id)?.ranks[2]).toBeGreaterThan(0);
    // hopAnchors = 1: the hop adds one node, and it is the bridging turn (the only unvisited turn
    // that names Mel, so the first of the entity list, and the only one that says "dog").
    expect(on.trace.hop?.added.map((x) => x.id)).toEqual([id]);
    expect(on.trace.limits.visited).toBe(3);
    expect(on.memories).toHaveLength(3);
  });

  it('expands the nodes it adds through the views as round one does, and traces that step as its own round', async () => {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      const more: Array<[string, string]> = [
        ['Melanie', 'The camping trip was wonderful, the kids saw deer.'],
        ['Caroline', 'I started reading a novel about a lighthouse keeper.'],
        ['Melanie', 'My husband fixed the old bicycle in the garage.'],
        ['Caroline', 'The adoption agency called me back on Friday.'],
        ['Melanie', 'We baked bread together on Sunday morning.'],
        ['Caroline', 'My painting class ends next week.'],
      ];
      let t = Date.parse('2024-03-01T10:00:00Z');
      for (const [i, [speaker, text]] of [...turns, ...more].entries()) await memory.add({ text, speaker, observedAt: new Date((t += 60_000)).toISOString(), sessionId: i < turns.length ? 's1' : 's2' });
      // One anchor, depth 1, uniform routing: round one leaves the second session mostly unvisited.
      const r = await memory.recall(question, { k: 14, switches: { stopping: false, routing: false }, parameters: { anchors: 1, hopThreshold: 0, hopAnchors: 4, maxDepth: 1 } });
      const hop = r.trace.hop!;
      expect(hop.reason).toBe('ran');
      expect(hop.added).toHaveLength(4);
      expect(hop.expanded).toBeGreaterThan(0);
      const step = r.trace.expansions.filter((e) => e.round === hop.round);
      expect(step).toHaveLength(hop.expanded);
      const added = new Set(hop.added.map((x) => x.id));
      for (const e of step) expect(added.has(e.from)).toBe(true); // expanded from the hop's own nodes
      expect(r.trace.rounds[hop.round!]).toMatchObject({ round: hop.round, proposed: hop.added.length + hop.expanded });
      expect(r.trace.limits.visited).toBe(1 + r.trace.expansions.length + hop.added.length); // anchor + every expansion + hop nodes
    } finally {
      await memory.close();
    }
  });

  it('records why it did not run: single-hop when h(q) < θ_hop = 1', async () => {
    const memory = await createNodeMemory({ store: 'unused-in-memory', storage: createMemoryStorage() });
    try {
      for (const [speaker, text] of turns) await memory.add({ text, speaker });
      const r = await memory.recall(question, { k: 3, parameters: { hopThreshold: 1 } });
      expect(r.trace.routing.h).toBeLessThan(1);
      expect(r.trace.hop).toMatchObject({ ran: false, reason: 'single-hop', threshold: 1, h: r.trace.routing.h, added: [] });
    } finally {
      await memory.close();
    }
  });
});

describe('proposeHop takes the lexical index\'s lock before its search', () => {
  it('awaits lexical.ready() in the turn of its search, as the first round does (a store-kept index holds its lock one turn)', async () => {
    const calls: string[] = [];
    let armed = false;
    // Like the SQLite FTS5 index: ready() takes the lock for the rest of the turn; a search in a
    // later turn without it finds the database busy.
    const lexical = {
      async ready(): Promise<void> {
        calls.push('ready');
        armed = true;
        setImmediate(() => (armed = false));
      },
      search(): Array<{ id: string; score: number }> {
        calls.push(armed ? 'search' : 'search without the lock');
        return [{ id: 'b', score: 1 }];
      },
    };
    const a = node('a', 1, ['mel']);
    const b = node('b', 2, []);
    const nodes = new Map([a, b].map((n) => [n.id, n]));
    const state = {
      lexical,
      keywordDf: new Map<string, number>(),
      vector: { size: 0 },
      vectors: new Map(),
      mentions: new Map<string, string[]>(),
      nodes,
      loadNodes: async () => undefined,
      statusOf: (id: string) => (nodes.has(id) ? 'active' : undefined),
    };
    await lexical.ready(); // the first round's lock ...
    await new Promise((done) => setImmediate(done)); // ... ends with its turn (System One, body reads)
    const c = { state, params: resolveParameters({}), query: 'Who is the friend?', queryVector: undefined, speakersNamed: new Set<string>(), scored: new Map(), visited: new Set(['a']), passes: () => true, language: 'en' };
    const out = await proposeHop(c as unknown as HopContext, [{ node: a, score: 1 }], 5);
    expect(calls).toEqual(['ready', 'ready', 'search']);
    expect(out.lexicalQuery).toBe('Who is the friend? mel');
    expect(out.proposals.map((p) => p.node.id)).toEqual(['b']);
  });
});
