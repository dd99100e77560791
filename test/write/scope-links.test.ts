/**
 * Issue 23 (scope), the write side: in one namespace, the memories of two users (or two agents)
 * are never linked. No deterministic edge (consecutive observations, session turns, close in
 * time, shared entity), no System-One relation edge, no maintenance edge and no explicit update
 * joins two nodes whose `userId` / `agentId` differ, and no pair across scopes is even put to
 * System One; the same user's memories are still linked as before.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory, type Memory } from '../../src/memory.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';
import type { MemoryEdge } from '../../src/types.js';
import { errorOf, forcing, lifecycleFixture } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('scope-links', (e) => (encoder = e));

/** Texts sharing names, topics and times, so every rule and every judged relation would link them. */
const TEXTS = [
  'Melanie went hiking with Caroline near Lake Tahoe.',
  'Melanie bought new hiking boots for the Lake Tahoe trip.',
  'Caroline painted a sunset over Lake Tahoe after hiking.',
  'Melanie and Caroline planned another hiking trip to Lake Tahoe.',
  'The hiking trip with Melanie was rained out at Lake Tahoe.',
  'Caroline sold the Lake Tahoe sunset painting to Melanie.',
];

/** A System One that judges every relation and maintenance question yes, recording the pairs it was asked about. */
function yesToAll(asked: Array<[string, string]>): SystemOneBackend {
  const base = forcing((key) => (/^(rel|maint)\./.test(key) ? 0.99 : undefined));
  const record = (r: SystemOneRequest): void => {
    const st = r.state as { kind: string; observation?: { ref: string }; node?: { ref: string }; candidates?: Array<{ ref: string }> };
    const self = st.kind === 'relation' ? st.observation?.ref : st.kind === 'maintenance' ? st.node?.ref : undefined;
    if (self === undefined) return;
    for (const c of st.candidates ?? []) asked.push([self, c.ref]);
  };
  return {
    ...base,
    async decide(r, o) {
      record(r);
      return base.decide(r, o);
    },
    async decideMany(rs, o) {
      rs.forEach(record);
      return base.decideMany(rs, o);
    },
  };
}

/** Every edge of the namespace, read unscoped from each node. */
async function allEdges(memory: Memory, ids: readonly string[]): Promise<MemoryEdge[]> {
  const out = new Map<string, MemoryEdge>();
  for (const id of ids) for (const e of await memory.edges(id)) out.set(e.id, e);
  return [...out.values()];
}

type Scope = { userId?: string; agentId?: string };

/** Writes TEXTS interleaved across `scopes` (one observation each, a minute apart), then maintains. */
async function interleaved(scopes: readonly Scope[], session: boolean, bulk = false): Promise<{ memory: Memory; scopeOf: Map<string, string>; asked: Array<[string, string]> }> {
  const asked: Array<[string, string]> = [];
  const memory = await createMemory({ encoder, systemOne: yesToAll(asked), parameters: { maintenanceInterval: 0 } });
  const scopeOf = new Map<string, string>();
  let t = Date.parse('2024-05-01T10:00:00Z');
  const obs = TEXTS.flatMap((text) => scopes.map((scope) => ({ text, ...scope, observedAt: new Date((t += 60_000)).toISOString(), ...(session ? { sessionId: 's1' } : {}) })));
  // One at a time, or in one bulk write (addMany plans its chunk's observations one after another).
  const ids = bulk ? (await memory.addMany(obs)).map((r) => r.id) : await obs.reduce<Promise<string[]>>(async (acc, o) => [...(await acc), (await memory.add(o)).id], Promise.resolve([]));
  ids.forEach((id, i) => scopeOf.set(id, JSON.stringify([obs[i]?.userId ?? null, obs[i]?.agentId ?? null])));
  await memory.maintain();
  return { memory, scopeOf, asked };
}

/** Counts of [same-scope, cross-scope] among the edges and the judged pairs. */
async function tally(r: Awaited<ReturnType<typeof interleaved>>): Promise<{ sameEdges: number; crossEdges: number; crossAsked: number; sameAsked: number }> {
  const edges = await allEdges(r.memory, [...r.scopeOf.keys()]);
  const cross = (a: string, b: string): boolean => r.scopeOf.get(a) !== r.scopeOf.get(b);
  return {
    sameEdges: edges.filter((e) => !cross(e.from, e.to)).length,
    crossEdges: edges.filter((e) => cross(e.from, e.to)).length,
    sameAsked: r.asked.filter(([a, b]) => !cross(a, b)).length,
    crossAsked: r.asked.filter(([a, b]) => cross(a, b)).length,
  };
}

describe('no edge joins two scopes', () => {
  for (const [session, bulk] of [[false, false], [true, false], [true, true]] as const) {
    it(`two users interleaved in one namespace${session ? ', one shared session id' : ''}${bulk ? ', addMany' : ''}: only same-user edges, no cross-user pair judged`, async () => {
      const r = await interleaved([{ userId: 'alice' }, { userId: 'bob' }], session, bulk);
      const t = await tally(r);
      expect(t.crossEdges).toBe(0);
      expect(t.crossAsked).toBe(0);
      expect(t.sameEdges).toBeGreaterThan(TEXTS.length); // each user's observations are still linked
      expect(t.sameAsked).toBeGreaterThan(0);
      await r.memory.close();
    });
  }

  it('two agents of one user, and a scoped and an unscoped writer: no edge across', async () => {
    for (const scopes of [[{ userId: 'u', agentId: 'a1' }, { userId: 'u', agentId: 'a2' }], [{ userId: 'alice' }, {}]]) {
      const r = await interleaved(scopes, false);
      const t = await tally(r);
      expect([t.crossEdges, t.crossAsked]).toEqual([0, 0]);
      expect(t.sameEdges).toBeGreaterThan(TEXTS.length);
      await r.memory.close();
    }
  });

  it('an update keeps the scope: moving a version to another user or agent is INVALID_INPUT and writes nothing', async () => {
    const r = await interleaved([{ userId: 'alice' }, { userId: 'bob' }], false);
    const [aliceId] = [...r.scopeOf].find(([, s]) => s === JSON.stringify(['alice', null])) as [string, string];
    const before = (await r.memory.list()).memories.length;
    for (const [obs, field] of [
      [{ text: 'Melanie moved to Reno.', userId: 'bob' }, 'observation.userId'],
      [{ text: 'Melanie moved to Reno.', agentId: 'helper' }, 'observation.agentId'],
      [{ text: 'Melanie moved to Reno.', metadata: { userId: 'bob' } }, 'observation.userId'],
    ] as const) {
      const e = (await errorOf(r.memory.update(aliceId, obs))) as { code: string; field: string };
      expect([e.code, e.field]).toEqual(['INVALID_INPUT', field]);
    }
    expect((await r.memory.list()).memories.length).toBe(before);
    // Within the scope the update goes through, and its edges stay inside it.
    const next = await r.memory.update(aliceId, { text: 'Melanie moved to Reno.' });
    expect((await r.memory.get(next.id))?.provenance.metadata).toEqual({ userId: 'alice' });
    r.scopeOf.set(next.id, JSON.stringify(['alice', null]));
    const t = await tally(r);
    expect(t.crossEdges).toBe(0);
    expect((await r.memory.edges(next.id)).some((e) => e.to === aliceId && e.subtype === 'updates')).toBe(true);
    await r.memory.close();
  });

  it('an unscoped update of an unscoped memory may not give it a user', async () => {
    const memory = await createMemory({ encoder, parameters: { maintenanceInterval: 0 } });
    const { id } = await memory.add({ text: 'Melanie lives in Reno.' });
    const e = (await errorOf(memory.update(id, { text: 'Melanie lives in Tahoe.', userId: 'alice' }))) as { code: string; field: string };
    expect([e.code, e.field]).toEqual(['INVALID_INPUT', 'observation.userId']);
    await memory.close();
  });
});
