/**
 * Visible degradation on the write path (issue 12): a write whose System-One requests the
 * configured backend could not answer falls back to the heuristic, and says so in its AddResult
 * (`systemOne`) and in `stats().systemOneWrites`, naming the model that actually answered.
 *
 * Requests per observation, by hand: its typing request (1), plus one relation request when the
 * namespace already holds a node (the previous node is always a candidate, write/candidates.ts).
 * So observations 1..4 written into an empty namespace make 1, 2, 2, 2 requests: 7 in all. In one
 * `addMany` chunk the four typing requests go to the backend as one call and the three relation
 * requests as one more (issue 25: the relation requests of a chunk are one batch): 2 backend calls.
 */
import { describe, expect, it } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { JevMemError } from '../../src/errors.js';
import { createMemory } from '../../src/memory.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import type { SystemOneBackend, SystemOneRequest } from '../../src/system-one/wire.js';
import type { Observation } from '../../src/types.js';
import { forcing, lifecycleFixture, TURNS } from '../lifecycle/helpers.js';

let encoder: Encoder;
lifecycleFixture('write-fallbacks', (e) => (encoder = e));

const HEURISTIC = createHeuristicSystemOne().modelId;
const HEALTHY = 'test/forcing@1'; // forcing() with nothing forced answers as the heuristic, under its own id

/** A backend answering as `forcing(() => undefined)` except for requests `fails(request)` picks, which throw. Counts its calls. */
function failing(fails: (r: SystemOneRequest) => boolean): SystemOneBackend & { calls: number } {
  const base = forcing(() => undefined);
  const b = {
    kind: 'test',
    modelId: HEALTHY,
    calls: 0,
    decide: (r: SystemOneRequest) => b.decideMany([r]).then((x) => x[0] as never),
    async decideMany(rs: SystemOneRequest[], o?: { signal?: AbortSignal; deadlineMs?: number }) {
      b.calls++;
      if (rs.some(fails)) throw new JevMemError('SYSTEM_ONE_FAILED', 'down for the test');
      return base.decideMany(rs, o);
    },
    close: () => base.close(),
  };
  return b;
}

const isRelation = (r: SystemOneRequest): boolean => Object.keys(r.questions).some((k) => k.startsWith('rel.'));

describe('System-One fallbacks of writes', () => {
  it('a backend that throws on every write question: each request falls back to the heuristic, counted in AddResult and stats', async () => {
    const backend = failing(() => true);
    const memory = await createMemory({ encoder, systemOne: backend });
    const res = await memory.addMany(TURNS.slice(0, 4));
    const reason = 'error: SYSTEM_ONE_FAILED down for the test';
    expect(res.map((r) => r.systemOne)).toEqual([
      { calls: 1, fallbacks: 1, model: HEURISTIC, fallbackReason: reason },
      { calls: 2, fallbacks: 2, model: HEURISTIC, fallbackReason: reason },
      { calls: 2, fallbacks: 2, model: HEURISTIC, fallbackReason: reason },
      { calls: 2, fallbacks: 2, model: HEURISTIC, fallbackReason: reason },
    ]);
    // One typing batch, the first turn's relation request (none: it has no candidate), then the
    // relation requests of turns 2-4 in one batch (issue 25): two backend calls, seven requests.
    expect(backend.calls).toBe(2);
    const stats = await memory.stats();
    expect(stats.systemOneWrites).toEqual({ calls: 7, fallbacks: 7, lastFallbackReason: reason });
    expect(stats.systemOne).toBe(HEALTHY); // the configured backend, as before
    await memory.close();
  });

  it('a healthy backend: no fallbacks, and the model is the backend’s', async () => {
    const backend = failing(() => false);
    const memory = await createMemory({ encoder, systemOne: backend });
    const res = await memory.addMany(TURNS.slice(0, 4));
    expect(res.map((r) => r.systemOne)).toEqual([
      { calls: 1, fallbacks: 0, model: HEALTHY },
      { calls: 2, fallbacks: 0, model: HEALTHY },
      { calls: 2, fallbacks: 0, model: HEALTHY },
      { calls: 2, fallbacks: 0, model: HEALTHY },
    ]);
    expect((await memory.stats()).systemOneWrites).toEqual({ calls: 7, fallbacks: 0 });
    await memory.close();
  });

  it('a backend that fails only relation questions: the second write names both models, in the order they answered', async () => {
    const memory = await createMemory({ encoder, systemOne: failing(isRelation) });
    const first = await memory.add(TURNS[0] as never);
    const second = await memory.add(TURNS[1] as never);
    expect(first.systemOne).toEqual({ calls: 1, fallbacks: 0, model: HEALTHY });
    expect(second.systemOne).toEqual({ calls: 2, fallbacks: 1, model: `${HEALTHY}+${HEURISTIC}`, fallbackReason: 'error: SYSTEM_ONE_FAILED down for the test' });
    expect((await memory.stats()).systemOneWrites).toMatchObject({ calls: 3, fallbacks: 1 });
    await memory.close();
  });

  it('one chunk, one relation call (issue 25): a failure of that call falls back for every relation request of the chunk', async () => {
    // Fails the calls holding the relation request of turn 3 (the new observation of its state).
    const turn3 = (TURNS[2] as Observation).text;
    const backend = failing((r) => isRelation(r) && (r.state as { observation?: { text?: string } }).observation?.text === turn3);
    const memory = await createMemory({ encoder, systemOne: backend });
    const res = await memory.addMany(TURNS.slice(0, 4));
    const reason = 'error: SYSTEM_ONE_FAILED down for the test';
    expect(res.map((r) => r.systemOne)).toEqual([
      { calls: 1, fallbacks: 0, model: HEALTHY },
      // turns 2-4 share the call that failed: each one's relation request was answered by the heuristic
      { calls: 2, fallbacks: 1, model: `${HEALTHY}+${HEURISTIC}`, fallbackReason: reason },
      { calls: 2, fallbacks: 1, model: `${HEALTHY}+${HEURISTIC}`, fallbackReason: reason },
      { calls: 2, fallbacks: 1, model: `${HEALTHY}+${HEURISTIC}`, fallbackReason: reason },
    ]);
    expect(backend.calls).toBe(2);
    await memory.close();
  });

  it('counts per namespace, and maintenance requests in stats', async () => {
    const memory = await createMemory({ encoder, systemOne: failing(() => true) });
    await memory.addMany(TURNS.slice(0, 4), { namespace: 'a' });
    await memory.add(TURNS[5] as never, { namespace: 'b' });
    expect((await memory.stats({ namespace: 'b' })).systemOneWrites).toMatchObject({ calls: 1, fallbacks: 1 });
    // maintain(): one request per pending active node with a neighbour: the 4 nodes of 'a'.
    await memory.maintain({ namespace: 'a' });
    expect((await memory.stats({ namespace: 'a' })).systemOneWrites).toMatchObject({ calls: 7 + 4, fallbacks: 7 + 4 });
    await memory.close();
  });

  it('the default heuristic backend never counts as a fallback', async () => {
    const memory = await createMemory({ encoder });
    const r = await memory.add(TURNS[0] as never);
    expect(r.systemOne).toEqual({ calls: 1, fallbacks: 0, model: HEURISTIC });
    await memory.close();
  });
});
