/**
 * A scoped recall (and `answer`, which recalls) reads only the memories of its scope: another
 * user's memory is never expanded to, never seeds the hop and never appears anywhere in the
 * result — memories, trace (anchors, expansions, hop seeds / entities / days / lexical query,
 * System One's decisions) or the evidence sent to System Two. Without a scope the walk still
 * reaches it (the setup links the two memories).
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';
import type { ChatMessage } from '../../src/system-two/types.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('read-scope-trace', (e) => (encoder = e));

/** Alice's memory, then Bob's: consecutive observations, so a `precedes` edge joins them. */
async function twoUsers(prompts: ChatMessage[][]): Promise<{ memory: Memory; alice: string; bob: string }> {
  const complete = (messages: ChatMessage[]): Promise<string> => {
    prompts.push(messages);
    return Promise.resolve('Lisbon');
  };
  const memory = await createMemory({ encoder, systemTwo: { model: 'test', complete } });
  const { id: alice } = await memory.add({ text: 'Alice went to Lisbon with Zebulon', userId: 'alice', observedAt: '2024-01-01T00:00:00Z' });
  const { id: bob } = await memory.add({ text: 'Bob went to Lisbon too', userId: 'bob', observedAt: '2024-01-02T00:00:00Z' });
  return { memory, alice, bob };
}

/** True when `json` holds Alice's id or a word only her memory has (any case). */
function leaks(json: string, alice: string): boolean {
  const l = json.toLowerCase();
  return json.includes(alice) || l.includes('zebulon') || l.includes('alice') || l.includes('2024-01-01');
}

describe('a scoped read never touches another scope', () => {
  it("without a scope the walk reaches Alice's memory (the setup links them)", async () => {
    const { memory, alice } = await twoUsers([]);
    const r = await memory.recall('Lisbon', { k: 5 });
    await memory.close();
    expect(leaks(JSON.stringify(r), alice)).toBe(true);
  });

  it("Bob's scoped recall: memories and trace hold nothing of Alice's", async () => {
    const { memory, alice, bob } = await twoUsers([]);
    const r = await memory.recall('Lisbon', { scope: { userId: 'bob' }, k: 5 });
    await memory.close();
    expect(r.memories.map((m) => m.id)).toEqual([bob]);
    expect(r.trace.anchors.map((a) => a.id)).toEqual([bob]);
    expect(r.trace.expansions).toEqual([]);
    expect(r.trace.hop.entities).not.toContain('zebulon');
    expect(r.trace.hop.seeds.every((id) => id === bob)).toBe(true);
    expect(r.trace.hop.added).toEqual([]);
    expect(leaks(JSON.stringify(r), alice)).toBe(false);
  });

  it("Bob's scoped answer: result and System Two's prompt hold nothing of Alice's", async () => {
    const prompts: ChatMessage[][] = [];
    const { memory, alice, bob } = await twoUsers(prompts);
    const a = await memory.answer('Where did Bob go?', { scope: { userId: 'bob' }, k: 5 });
    const f = await memory.answer('Where did Bob go?', { filter: { userId: 'bob' }, k: 5 });
    await memory.close();
    expect(a.text).toBe('Lisbon');
    expect(a.memories.map((m) => m.id)).toEqual([bob]);
    expect(f.memories.map((m) => m.id)).toEqual([bob]);
    expect(prompts).toHaveLength(2);
    expect(leaks(JSON.stringify(a), alice)).toBe(false);
    expect(leaks(JSON.stringify(f), alice)).toBe(false);
    expect(leaks(JSON.stringify(prompts), alice)).toBe(false);
  });

  it("System One is asked about nothing of Alice's, and Bob's window signals leave her out", async () => {
    const requests: SystemOneRequest[] = [];
    const inner = createHeuristicSystemOne();
    const recording: SystemOneBackend = {
      kind: inner.kind,
      modelId: inner.modelId,
      decide: (r, o) => (requests.push(r), inner.decide(r, o)),
      decideMany: (rs, o) => (requests.push(...rs), inner.decideMany(rs, o)),
      close: () => inner.close(),
    };
    const memory = await createMemory({ encoder, systemOne: recording });
    const { id: alice } = await memory.add({ text: 'Alice went to Lisbon with Zebulon', userId: 'alice', observedAt: '2024-01-01T00:00:00Z' });
    await memory.add({ text: 'Bob went to Lisbon too', userId: 'bob', observedAt: '2024-01-02T00:00:00Z' });
    requests.length = 0;
    await memory.recall('Lisbon', { scope: { userId: 'bob' }, k: 5 });
    await memory.close();
    expect(leaks(JSON.stringify(requests), alice)).toBe(false);
    const candidates = requests.flatMap((r) => ((r.state as { kind?: string }).kind === 'candidates' ? (r.state as { candidates: Array<{ signals: Record<string, number> }> }).candidates : []));
    expect(candidates.length).toBeGreaterThan(0);
    // Bob's only neighbouring turn is Alice's: with her left out, the window adds nothing.
    for (const c of candidates) {
      expect(c.signals.neighbourCosine).toBe(0);
      expect(c.signals.neighbourLexical).toBe(0);
      expect(c.signals.windowLexical).toBe(c.signals.lexical);
    }
  });
});
