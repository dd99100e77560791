import { describe, expect, it } from 'vitest';
import { countingBackend, countsDelta, JEV_SWITCHES, sharedEncoder, type JevSystemName } from '../lib/jev.js';
import { createMemory, createMemoryStorage } from '../../src/index.js';
import type { SystemOneBackend, SystemOneResponse } from '../../src/system-one/wire.js';
import { letterEncoder, tinyConversation } from './fixtures.js';

function fakeBackend(fail = false): SystemOneBackend & { closed: boolean } {
  const response: SystemOneResponse = { model: 'fake@1', answers: {}, usage: { input_tokens: 0, output_tokens: 0 } };
  const b = {
    kind: 'fake',
    modelId: 'fake@1',
    closed: false,
    async decide() {
      if (fail) throw new Error('down');
      return response;
    },
    async decideMany(rs: unknown[]) {
      return rs.map(() => response);
    },
    async close() {
      b.closed = true;
    },
  };
  return b;
}

describe('countingBackend', () => {
  it('counts round trips and requests separately', async () => {
    const c = countingBackend(fakeBackend());
    await c.decide({ state: '', questions: {} });
    await c.decideMany([
      { state: '', questions: {} },
      { state: '', questions: {} },
      { state: '', questions: {} },
    ]);
    const n = c.counts();
    expect([n.calls, n.requests, n.errors]).toEqual([2, 4, 0]);
  });

  it('counts a failed call and rethrows its error', async () => {
    const c = countingBackend(fakeBackend(true));
    await expect(c.decide({ state: '', questions: {} })).rejects.toThrow('down');
    expect(c.counts().errors).toBe(1);
  });

  it('leaves the wrapped backend open on close', async () => {
    const inner = fakeBackend();
    await countingBackend(inner).close();
    expect(inner.closed).toBe(false);
  });

  it('subtracts counts field by field', () => {
    expect(countsDelta({ calls: 5, requests: 9, ms: 3, errors: 1 }, { calls: 2, requests: 4, ms: 1, errors: 1 })).toEqual({ calls: 3, requests: 5, ms: 2, errors: 0 });
  });
});

describe('sharedEncoder', () => {
  it('has no close, so a memory cannot close the shared encoder', () => {
    const e = sharedEncoder(letterEncoder());
    expect(e.close).toBeUndefined();
    expect(e.dimension).toBe(3);
  });

  it('passes word vectors through when the encoder has them, and has none when it does not', () => {
    const unit = new Float32Array([1, 0, 0]);
    const withWords = { ...letterEncoder(), termVectors: (words: string[]) => words.map((w) => (w === 'cat' ? unit : undefined)) };
    expect(sharedEncoder(withWords).termVectors?.(['cat', 'zzz'])).toEqual([unit, undefined]);
    expect(sharedEncoder(letterEncoder()).termVectors).toBeUndefined();
  });
});

describe('ablation switches', () => {
  /** The recall trace of one question on the tiny conversation, with a system's switches. */
  async function traceOf(system: JevSystemName) {
    const memory = await createMemory({ encoder: letterEncoder(), storage: createMemoryStorage() });
    try {
      await memory.addMany(tinyConversation().observations);
      const { trace } = await memory.recall('When did Alice go hiking with the puppy?', { k: 3, switches: JEV_SWITCHES[system] });
      return { purposes: new Set(trace.decisions.map((d) => d.purpose)), depth: trace.depth.max, expansions: trace.expansions.length, hop: trace.hop?.reason };
    } finally {
      await memory.close();
    }
  }

  it('the full system routes, expands the graph and asks whether to stop', async () => {
    const full = await traceOf('jev-mem');
    expect(full.purposes.has('routing')).toBe(true);
    expect(full.purposes.has('stop')).toBe(true);
    expect(full.depth).toBeGreaterThan(0);
  });

  it('no-graph expands no edge (depth 0) but still routes', async () => {
    const t = await traceOf('no-graph');
    expect([t.depth, t.expansions]).toEqual([0, 0]);
    expect(t.purposes.has('routing')).toBe(true);
  });

  it('no-routing asks no routing question but still expands and stops', async () => {
    const t = await traceOf('no-routing');
    expect(t.purposes.has('routing')).toBe(false);
    expect(t.purposes.has('stop')).toBe(true);
  });

  it('no-stop asks no stop question but still routes and expands', async () => {
    const t = await traceOf('no-stop');
    expect(t.purposes.has('stop')).toBe(false);
    expect(t.purposes.has('routing')).toBe(true);
    expect(t.depth).toBeGreaterThan(0);
  });

  it('no-hop switches the hop off (issue 24) and still routes, expands and stops', async () => {
    const t = await traceOf('no-hop');
    expect(t.hop).toBe('switched-off');
    expect(t.purposes.has('routing')).toBe(true);
    expect(t.purposes.has('stop')).toBe(true);
    expect(t.depth).toBeGreaterThan(0);
    expect((await traceOf('jev-mem')).hop).not.toBe('switched-off');
  });
});
