/**
 * Plan, then commit, without planning twice (issue 22): a maintenance pass whose plan, made
 * outside the namespace lock, finds the namespace unchanged at its commit is committed as it
 * was planned, as a write's plan is. Planning it again under the lock gave the same batch at the
 * cost of a second pass over every pending node's neighbours (the LoCoMo build slowdown).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Encoder } from '../../src/encoder/encoder.js';
import { createMemory } from '../../src/memory.js';
import { DecisionMemo } from '../../src/memory/plan-commit.js';
import type { Decision } from '../../src/system-one/controller.js';
import type { SystemOneRequest } from '../../src/system-one/wire.js';
import { createHeuristicSystemOne } from '../../src/system-one/heuristic.js';
import { lifecycleFixture, TURNS } from './helpers.js';

const planned = vi.hoisted(() => ({ maintenance: 0 }));
vi.mock('../../src/write/maintenance.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/write/maintenance.js')>();
  return {
    ...real,
    planMaintenance: (...args: Parameters<typeof real.planMaintenance>) => {
      planned.maintenance++;
      return real.planMaintenance(...args);
    },
  };
});

let encoder: Encoder;
lifecycleFixture('plan-reuse', (e) => (encoder = e));

describe('a maintenance pass over an unchanged namespace', () => {
  it('plans once (outside the lock) and commits that plan', async () => {
    let n = 0;
    const memory = await createMemory({ encoder, systemOne: createHeuristicSystemOne(), now: () => new Date('2024-01-01T00:00:00Z'), newId: () => `n${++n}`, parameters: { maintenanceInterval: 0 } });
    try {
      await memory.addMany(TURNS);
      planned.maintenance = 0;
      await memory.maintain();
      expect(planned.maintenance).toBe(1); // planned under the lock again, it was 2
      // The pass committed: nothing is pending, and a second pass has nothing to plan.
      planned.maintenance = 0;
      expect(await memory.maintain()).toEqual({ redundant: 0, contradiction: 0, obsolete: 0, link: 0, expired: 0 });
      expect(planned.maintenance).toBe(0);
    } finally {
      await memory.close();
    }
  });
});

describe('DecisionMemo', () => {
  it('answers an equal request (by its JSON), misses another, and keeps the last answer stored', () => {
    const memo = new DecisionMemo();
    const req = (text: string): SystemOneRequest => ({ state: { kind: 'relation', text }, questions: {} }) as unknown as SystemOneRequest;
    const a = [{ tag: 'a' }] as unknown as Decision[];
    const b = [{ tag: 'b' }] as unknown as Decision[];
    memo.put('relation', [req('x')], a);
    expect(memo.get('relation', [req('x')])).toBe(a); // an equal request, not the same object
    expect(memo.get('relation', [req('y')])).toBeUndefined();
    expect(memo.get('maintenance', [req('x')])).toBeUndefined(); // another purpose
    expect(memo.get('relation', [req('x'), req('x')])).toBeUndefined(); // another count
    memo.put('relation', [req('x')], b);
    expect(memo.get('relation', [req('x')])).toBe(b);
    expect(memo.size).toBe(1);
  });
});
