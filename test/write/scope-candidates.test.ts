/**
 * Issue 22/24: a scoped write gets its K_w candidates (SPEC 4 step 4, `writeCandidates` = 10)
 * when other users' memories outrank its own. Bob's 60 memories are near copies of the new
 * observation; alice's own 12 are further from it. Before, discovery retrieved the namespace's
 * top 10 per ranking, all bob's, and dropped them: alice's write had at most her last node.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';
import { lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('scope-candidates', (e) => (encoder = e));

/** The heuristic System One, recording the candidate texts of each relation request by observation text. */
function recording(asked: Map<string, string[]>): SystemOneBackend {
  const base = createHeuristicSystemOne();
  const see = (r: SystemOneRequest): void => {
    const st = r.state as { kind: string; observation?: { text: string }; candidates?: Array<{ text: string }> };
    if (st.kind === 'relation' && st.observation && st.candidates) asked.set(st.observation.text, st.candidates.map((c) => c.text));
  };
  return { ...base, decide: (r, o) => (see(r), base.decide(r, o)), decideMany: (rs, o) => (rs.forEach(see), base.decideMany(rs, o)) };
}

describe('scoped candidate discovery', () => {
  it("tops a scoped write up to K_w of its own scope's candidates, and stops at the scope's size", async () => {
    const asked = new Map<string, string[]>();
    const memory = await createMemory({ encoder, systemOne: recording(asked), parameters: { maintenanceInterval: 0 } });
    const obs = [
      ...Array.from({ length: 60 }, (_, i) => ({ text: `Bob's sourdough starter batch ${i} rose well in the kitchen this morning.`, userId: 'bob' })),
      ...Array.from({ length: 12 }, (_, i) => ({ text: `Alice planted tomato row ${i} in the garden and watered it.`, userId: 'alice' })),
      ...Array.from({ length: 3 }, (_, i) => ({ text: `Carol tuned her violin string ${i} before practice.`, userId: 'carol' })),
    ];
    for (const o of obs) await memory.add(o);
    const aliceNew = 'Alice baked a sourdough loaf; the starter rose well in the kitchen this morning.';
    await memory.add({ text: aliceNew, userId: 'alice' });
    const carolNew = 'Carol baked a sourdough loaf; the starter rose well in the kitchen this morning.';
    await memory.add({ text: carolNew, userId: 'carol' });
    const alice = asked.get(aliceNew) ?? [];
    expect(alice.length).toBe(10);
    expect(alice.every((t) => t.startsWith('Alice planted'))).toBe(true);
    const carol = asked.get(carolNew) ?? [];
    expect(carol.length).toBe(3);
    expect(carol.every((t) => t.startsWith('Carol tuned'))).toBe(true);
    await memory.close();
  });
});
