import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultNodeEncoder } from '../../src/encoder/default-node.js';
import type { Encoder } from '../../src/encoder/encoder.js';
import { isJevMemError } from '../../src/errors.js';
import { parseJsonl } from '../../src/formats/jsonl.js';
import { createMemory, type Memory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';
import { createMemoryStorage } from '../../src/plane/store/memory-storage.js';
import { stopDecision } from '../../src/read/stop.js';
import type { MemoryNode } from '../../src/types.js';

const SAMPLE = parseJsonl(readFileSync(new URL('../../examples/sample-conversation.jsonl', import.meta.url), 'utf8'));

let encoder: Encoder;
let memory: Memory;
const byTurn = new Map<string, MemoryNode>();

beforeAll(async () => {
  encoder = await createDefaultNodeEncoder();
  memory = await createMemory({ encoder, storage: createMemoryStorage() });
  const res = await memory.addMany(SAMPLE);
  for (const r of res) {
    const n = await memory.get(r.id);
    if (n?.provenance.turnId) byTurn.set(n.provenance.turnId, n);
  }
});

afterAll(async () => {
  await memory.close();
});

const id = (turn: string): string => (byTurn.get(turn) as MemoryNode).id;

describe('write path on a small conversation', () => {
  it('stores one node per observation, verbatim', async () => {
    expect(byTurn.size).toBe(30);
    expect(byTurn.get('S2:3')?.text).toBe('Maya: Her name is Ines Duarte, she is patient and explains glazing really clearly.');
    const s = await memory.stats();
    expect(s.nodes).toBe(30);
  });

  it('joins consecutive turns of a session with a temporal `precedes` edge', async () => {
    const edges = await memory.edges(id('S1:2'));
    const e = edges.find((x) => x.view === 'temporal' && x.subtype === 'precedes' && x.from === id('S1:1'));
    expect(e).toBeDefined();
    expect(e?.to).toBe(id('S1:2'));
    expect(e?.origin.kind).toBe('rule');
  });

  it('joins turns that name the same entity with an `entity` edge of weight 1', async () => {
    // "My dog Biscuit ..." (S1:9) and "Also, Biscuit ate one of my pottery tools" (S2:9)
    expect(byTurn.get('S2:9')?.entities).toContain('biscuit');
    const edges = await memory.edges(id('S2:9'));
    const e = edges.find((x) => x.view === 'entity' && x.to === id('S1:9'));
    expect(e?.weight).toBe(1);
    expect(e?.subtype).toBe('same_entity');
  });

  it('does not join turns of different sessions by `precedes` except the session boundary', async () => {
    const edges = await memory.edges(id('S2:1'));
    const fromPrev = edges.find((x) => x.subtype === 'precedes' && x.to === id('S2:1'));
    expect(fromPrev?.from).toBe(id('S1:10'));
    expect(fromPrev?.weight).toBe(0.5);
  });

  it('resolves relative time expressions against the turn time', () => {
    // "Biscuit ate one of my pottery tools yesterday" said on 2024-03-16
    const refs = byTurn.get('S2:9')?.timeRefs ?? [];
    expect(refs.map((r) => r.start.slice(0, 10))).toContain('2024-03-15');
  });
});

describe('read path on a small conversation', () => {
  it('recalls the turn that answers a single-hop question near the top', async () => {
    const r = await memory.recall("Who teaches Maya's pottery class?", { k: 5 });
    expect(r.memories.map((m) => m.provenance.turnId)).toContain('S2:3');
  });

  it('recalls the race date for a temporal question', async () => {
    const r = await memory.recall("When is Theo's half marathon race?", { k: 5 });
    expect(r.memories.map((m) => m.provenance.turnId)).toContain('S1:8');
  });

  it('returns a trace with routing, budgets summing to B, anchors and a stop reason', async () => {
    const r = await memory.recall('What did Biscuit eat?', { k: 10 });
    const t = r.trace;
    const given = t.routing.active.reduce((a, g) => a + t.budgets.given[g], 0);
    expect(given).toBe(memory.parameters.budget);
    expect(t.anchors.length).toBeGreaterThan(0);
    // The stop reason this setup produces: the anchor step keeps every one of the 30 nodes, so
    // the first expansion finds all neighbours visited and the frontier is empty, unless the stop
    // rules (21)-(22) already fired on round 0's estimates (or the depth is 0).
    expect(t.anchors.length).toBe((await memory.stats()).nodes);
    const round0 = t.rounds[0]?.estimates;
    const ruled = round0 === undefined ? undefined : stopDecision(round0, memory.parameters.thetaSuff, memory.parameters.thetaCont);
    expect(t.stopReason).toBe(ruled ?? (t.depth.max === 0 ? 'depth' : 'frontier-empty'));
    expect(t.limits.controllerCalls).toBeLessThanOrEqual(memory.parameters.maxControllerCalls);
    expect(t.decisions.length).toBe(t.limits.controllerCalls);
    expect(r.memories.length).toBe(10);
    // scores are on the [0,1] scale and sorted
    for (let i = 1; i < r.memories.length; i++) expect(r.memories[i - 1]!.score).toBeGreaterThanOrEqual(r.memories[i]!.score);
    expect(r.memories.every((m) => m.score >= 0 && m.score <= 1)).toBe(true);
  });

  it('keeps namespaces apart', async () => {
    const r = await memory.recall('What did Biscuit eat?', { namespace: 'other' });
    expect(r.memories).toEqual([]);
  });
});

describe('bad input leaves the store unchanged', () => {
  const cases: Array<[string, unknown, string]> = [
    ['empty text', { text: '   ' }, 'observation.text'],
    ['non-string text', { text: 42 }, 'observation.text'],
    ['unparseable timestamp', { text: 'hello', observedAt: 'the day after never' }, 'observation.observedAt'],
    ['provenance of the wrong type', { text: 'hello', speaker: 7 }, 'observation.speaker'],
    ['unknown field', { text: 'hello', colour: 'red' }, 'observation.colour'],
  ];
  for (const [name, value, field] of cases) {
    it(`rejects ${name} with INVALID_INPUT naming ${field}`, async () => {
      const before = await memory.stats();
      const err = await memory.add(value as never).catch((e: unknown) => e);
      expect(isJevMemError(err, 'INVALID_INPUT')).toBe(true);
      expect((err as { field: string }).field).toBe(field);
      const after = await memory.stats();
      expect(after.nodes).toBe(before.nodes);
      expect(after.edges).toBe(before.edges);
    });
  }

  it('rejects a whole batch when one observation is bad, writing none of it', async () => {
    const before = await memory.stats();
    const err = await memory.addMany([{ text: 'fine' }, { text: '' }]).catch((e: unknown) => e);
    expect(isJevMemError(err, 'INVALID_INPUT')).toBe(true);
    expect((err as { field: string }).field).toBe('observations[1].text');
    expect((await memory.stats()).nodes).toBe(before.nodes);
  });

  it('rejects an unknown option with INVALID_OPTION', async () => {
    const err = await createMemory({ encoder, colour: 'red' } as never).catch((e: unknown) => e);
    expect(isJevMemError(err, 'INVALID_OPTION')).toBe(true);
    expect((err as { field: string }).field).toBe('colour');
  });

  it('rejects an unknown recall option with INVALID_OPTION naming it', async () => {
    const err = await memory.recall('What did Biscuit eat?', { bogus: 1 } as never).catch((e: unknown) => e);
    expect(isJevMemError(err, 'INVALID_OPTION')).toBe(true);
    expect((err as { field: string }).field).toBe('options.bogus');
  });

  it('rejects a bad parameter with INVALID_OPTION naming it', async () => {
    const err = await createMemory({ encoder, parameters: { thetaRel: 1.5 } }).catch((e: unknown) => e);
    expect((err as { field: string }).field).toBe('parameters.thetaRel');
  });

  it('refuses a missing store directory when create is false', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-e2e-'));
    try {
      const err = await createNodeMemory({ store: join(dir, 'nope'), create: false, encoder }).catch((e: unknown) => e);
      expect(isJevMemError(err, 'STORE_MISSING')).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it('a rejected createNodeMemory removes the store folder it made and keeps one that existed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-e2e-'));
    try {
      const fresh = join(dir, 'new-store');
      const err = await createNodeMemory({ store: fresh, encoder, parameters: { thetaRel: 1.5 } }).catch((e: unknown) => e);
      expect(isJevMemError(err, 'INVALID_OPTION')).toBe(true);
      expect(existsSync(fresh)).toBe(false);
      // an existing store: the failed open leaves it, and a later open works (no lock left behind)
      const kept = join(dir, 'kept');
      const a = await createNodeMemory({ store: kept, encoder });
      await a.addMany(SAMPLE.slice(0, 3));
      await a.close();
      const err2 = await createNodeMemory({ store: kept, encoder, parameters: { thetaRel: 1.5 } }).catch((e: unknown) => e);
      expect(isJevMemError(err2, 'INVALID_OPTION')).toBe(true);
      const b = await createNodeMemory({ store: kept, encoder });
      expect((await b.stats()).nodes).toBe(3);
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('file store across processes', () => {
  it('recalls the same memories in the same order after a reopen (edge order in the store does not matter)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-e2e-'));
    const questions = ['What did Biscuit eat?', "When is Theo's half marathon?", 'What colour did Maya glaze her bowl?', 'Why did Theo rest?'];
    try {
      const a = await createNodeMemory({ store: dir, encoder });
      await a.addMany(SAMPLE);
      const before: string[][][] = [];
      // small budgets so that which edges are expanded first decides what is found
      const tight = { k: 10, parameters: { anchors: 3, budget: 6, maxVisited: 9, beamWidth: 2 } };
      for (const q of questions) before.push((await a.recall(q, tight)).memories.map((m) => [m.id, m.score.toFixed(6)]));
      await a.close();
      const b = await createNodeMemory({ store: dir, encoder });
      const after: string[][][] = [];
      for (const q of questions) after.push((await b.recall(q, tight)).memories.map((m) => [m.id, m.score.toFixed(6)]));
      await b.close();
      expect(after).toEqual(before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a second memory on the same directory sees the first one\'s nodes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'jev-mem-e2e-'));
    try {
      const a = await createNodeMemory({ store: dir, encoder });
      await a.addMany(SAMPLE.slice(0, 10));
      await a.close();
      const b = await createNodeMemory({ store: dir, encoder });
      expect((await b.stats()).nodes).toBe(10);
      const r = await b.recall('What did Theo replace on his bike?', { k: 3 });
      expect(r.memories.map((m) => m.provenance.turnId)).toContain('S1:6');
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
