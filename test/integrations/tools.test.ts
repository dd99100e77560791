/**
 * The shared memory tools (src/integrations/tools.ts) in-process: argument checks name the
 * argument, remember and update are timed by the tools' clock when the model gives no time,
 * `answer` is offered only with System Two, and the schemas list exactly the arguments run accepts;
 * remember stores scope, metadata and expiry, recall / answer / list select by filter and scope
 * with minScore on the calibrated relevance, and history lists an update's versions.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryTools, runMemoryTool } from '../../src/integrations/tools.js';
import type { Memory } from '../../src/memory.js';
import { createNodeMemory } from '../../src/node.js';

const dir = mkdtempSync(join(tmpdir(), 'jev-mem-tools-'));
let memory: Memory;
beforeAll(async () => {
  memory = await createNodeMemory({ store: dir, systemOne: 'heuristic', create: true });
});
afterAll(async () => {
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('memory tools', () => {
  const tools = memoryTools({ source: 'test', now: () => new Date('2025-06-01T08:00:00Z') });

  it('offers answer only with System Two', () => {
    expect(tools.map((t) => t.name)).toEqual(['remember', 'recall', 'update', 'forget', 'list', 'history']);
    expect(memoryTools({ answer: true }).map((t) => t.name)).toContain('answer');
  });

  it('remember carries the role of the turn (an assistant with a name of its own holds no state); another role is refused', async () => {
    const a = await runMemoryTool(tools, memory, 'remember', { text: 'Try the bakery on Rua Augusta.', speaker: 'Aria', role: 'assistant' });
    expect((await memory.get(a.id as string))?.provenance).toMatchObject({ speaker: 'Aria', metadata: { role: 'assistant' } });
    await expect(runMemoryTool(tools, memory, 'remember', { text: 'x', role: 'robot' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'role' });
    expect((tools[0]?.inputSchema.properties as Record<string, { enum?: string[] }>)['role']?.enum).toEqual(['user', 'assistant']);
  });

  it('times remember and update by the clock when no observedAt is given, and keeps a given one', async () => {
    const a = await runMemoryTool(tools, memory, 'remember', { text: 'I moved to Porto.', speaker: 'user' });
    const b = await runMemoryTool(tools, memory, 'remember', { text: 'I met Ana yesterday.', observedAt: '2025-05-03T10:00:00+01:00' });
    expect((await memory.get(a.id as string))?.observedAt).toBe('2025-06-01T08:00:00.000Z');
    expect((await memory.get(a.id as string))?.provenance).toMatchObject({ source: 'test', speaker: 'user' });
    expect((await memory.get(b.id as string))?.observedAt).toBe('2025-05-03T09:00:00.000Z');
    // "yesterday" resolved against the given time: 2 May 2025.
    const r = await runMemoryTool(tools, memory, 'recall', { query: 'When did I meet Ana?', k: 1 });
    expect((r.memories as Array<{ timeRefs?: Array<{ when: string }> }>)[0]?.timeRefs?.[0]?.when).toBe('2025-05-02');
    const u = await runMemoryTool(tools, memory, 'update', { id: a.id, text: 'I moved to Lisbon.' });
    expect((await memory.get(u.id as string))?.observedAt).toBe('2025-06-01T08:00:00.000Z');
    expect((await memory.get(a.id as string))?.status).toBe('superseded');
  });

  it('recall gives observedAt in UTC ISO as list and history do, with the local time beside it only for a non-UTC writer', async () => {
    const m = await createNodeMemory({ systemOne: 'heuristic' });
    try {
      const t = memoryTools({ source: 'test' });
      const a = await runMemoryTool(t, m, 'remember', { text: 'I fixed the heron statue.', observedAt: '2025-05-03T10:00:00+02:00' });
      await runMemoryTool(t, m, 'remember', { text: 'The heron statue is in the garden.', observedAt: '2025-05-04T10:00:00Z' });
      const r = await runMemoryTool(t, m, 'recall', { query: 'heron statue', k: 2 });
      const byId = new Map((r.memories as Array<{ id: string; observedAt?: string; observedAtLocal?: string }>).map((x) => [x.id, [x.observedAt, x.observedAtLocal]]));
      const listed = await runMemoryTool(t, m, 'list', {});
      const listedAt = (listed.memories as Array<{ id: string; observedAt?: string }>).map((x) => [x.id, x.observedAt]);
      expect(listedAt).toEqual([...byId.entries()].sort((x, y) => (x[1][0]! < y[1][0]! ? -1 : 1)).map(([id, [at]]) => [id, at]));
      expect(byId.get(a.id as string)).toEqual(['2025-05-03T08:00:00.000Z', '2025-05-03T10:00:00+02:00']);
      expect([...byId.values()].map((v) => v[0]).sort()).toEqual(['2025-05-03T08:00:00.000Z', '2025-05-04T10:00:00.000Z']);
      expect([...byId.values()].filter((v) => v[1] === undefined)).toHaveLength(1);
    } finally {
      await m.close();
    }
  });

  it('remember stores scope, metadata and expiry; recall and list select by filter and scope; history lists the versions', async () => {
    const m = await createNodeMemory({ store: join(dir, 'scoped'), systemOne: 'heuristic', create: true });
    try {
      const ana = await runMemoryTool(tools, m, 'remember', { text: 'I am flying to Tokyo in April.', speaker: 'user', userId: 'ana', metadata: { topic: 'travel' } });
      const bo = await runMemoryTool(tools, m, 'remember', { text: 'I am flying to Oslo in April.', speaker: 'user', userId: 'bo', metadata: { topic: 'travel' } });
      const work = await runMemoryTool(tools, m, 'remember', { text: 'I start a new job at the bakery in April.', speaker: 'user', userId: 'ana', agentId: 'coach', metadata: { topic: 'work' } });
      // Already due on the memory's clock (the real time): refused, as update refuses it, and nothing is stored.
      const before = (await m.stats()).nodes;
      await expect(runMemoryTool(tools, m, 'remember', { text: 'I am flying to Lima this week.', userId: 'ana', expiresAt: '2025-01-01' })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        field: 'expiresAt',
        message: 'expiresAt: is already due (2025-01-01T00:00:00.000Z): the memory would never be returned by any read; give a later expiresAt, or leave it out for a lasting memory',
      });
      expect((await m.stats()).nodes).toBe(before);
      expect((await m.get(ana.id as string))?.provenance.metadata).toEqual({ topic: 'travel', userId: 'ana' });
      expect((await m.get(work.id as string))?.provenance.metadata).toEqual({ topic: 'work', userId: 'ana', agentId: 'coach' });

      type Mem = { id: string; relevance?: number; metadata?: Record<string, unknown> };
      const ids = (r: Record<string, unknown>) => (r.memories as Mem[]).map((x) => x.id);
      const all = await runMemoryTool(tools, m, 'recall', { query: 'Where am I flying in April?', k: 10 });
      expect(ids(all).sort()).toEqual([ana.id, bo.id, work.id].sort());
      for (const x of all.memories as Mem[]) {
        expect(x.relevance).toBeGreaterThanOrEqual(0);
        expect(x.relevance).toBeLessThanOrEqual(1);
      }
      expect((all.memories as Mem[]).find((x) => x.id === bo.id)?.metadata).toEqual({ topic: 'travel', userId: 'bo' });
      expect(ids(await runMemoryTool(tools, m, 'recall', { query: 'Where am I flying in April?', k: 10, userId: 'ana' })).sort()).toEqual([ana.id, work.id].sort());
      expect(ids(await runMemoryTool(tools, m, 'recall', { query: 'Where am I flying in April?', k: 10, userId: 'ana', filter: { topic: 'travel' } }))).toEqual([ana.id]);
      expect(ids(await runMemoryTool(tools, m, 'recall', { query: 'What happens in April?', k: 10, filter: { topic: { $in: ['work'] } }, agentId: 'coach' }))).toEqual([work.id]);
      // minScore compares the final score (h-break10 finding 4): just below the best, it keeps the
      // best-ranked memories down to the first below it, a prefix of the ranking.
      const sc = (all.memories as Array<Mem & { score: number }>).map((x) => x.score);
      const cut = sc[0]! - 1e-4;
      const top = (all.memories as Mem[]).slice(0, sc.filter((x) => x >= cut).length).map((x) => x.id);
      expect(top.length).toBeGreaterThan(0);
      expect(ids(await runMemoryTool(tools, m, 'recall', { query: 'Where am I flying in April?', k: 10, minScore: cut }))).toEqual(top);

      const listed = await runMemoryTool(tools, m, 'list', { userId: 'ana' });
      expect(ids(listed)).toEqual([ana.id, work.id]);
      expect(ids(await runMemoryTool(tools, m, 'list', { filter: { $or: [{ userId: 'bo' }, { agentId: 'coach' }] } }))).toEqual([bo.id, work.id]);
      expect((await runMemoryTool(tools, m, 'list', {})).memories as unknown[]).toHaveLength(3);

      const v2 = await runMemoryTool(tools, m, 'update', { id: ana.id, text: 'I am flying to Kyoto in April.' });
      const v3 = await runMemoryTool(tools, m, 'update', { id: v2.id, text: 'I am flying to Osaka in May.' });
      const h = await runMemoryTool(tools, m, 'history', { id: v2.id });
      expect((h.versions as Array<{ id: string; text: string; status: string; supersededBy?: string[] }>).map((x) => [x.id, x.text, x.status, x.supersededBy])).toEqual([
        [ana.id, 'I am flying to Tokyo in April.', 'superseded', [v2.id]],
        [v2.id, 'I am flying to Kyoto in April.', 'superseded', [v3.id]],
        [v3.id, 'I am flying to Osaka in May.', 'active', undefined],
      ]);
      // The scope is kept across update: the newest version is still Ana's.
      expect(ids(await runMemoryTool(tools, m, 'list', { userId: 'ana', filter: { status: 'active' } }))).toEqual([work.id, v3.id]);
    } finally {
      await m.close();
    }
  });

  it('answer reads only the scope and filter given, and its minScore reaches the memory', async () => {
    const prompts: string[] = [];
    const m = await createNodeMemory({
      store: join(dir, 'answer'),
      systemOne: 'heuristic',
      create: true,
      systemTwo: { model: 'scripted', complete: async (messages) => (prompts.push(JSON.stringify(messages)), 'Rex.') },
    });
    try {
      const withAnswer = memoryTools({ answer: true, source: 'test' });
      await runMemoryTool(withAnswer, m, 'remember', { text: 'My dog is called Rex.', userId: 'ana' });
      await runMemoryTool(withAnswer, m, 'remember', { text: 'My dog is called Fido.', userId: 'bo' });
      const a = await runMemoryTool(withAnswer, m, 'answer', { query: 'What is my dog called?', userId: 'ana', minScore: 0 });
      expect(a.answer).toBe('Rex.');
      expect((a.memories as Array<{ text: string }>).map((x) => x.text)).toEqual(['My dog is called Rex.']);
      expect(prompts[0]).toContain('My dog is called Rex.');
      expect(prompts[0]).not.toContain('Fido');
      const f = await runMemoryTool(withAnswer, m, 'answer', { query: 'What is my dog called?', filter: { userId: 'bo' }, minScore: 0 });
      expect((f.memories as Array<{ text: string }>).map((x) => x.text)).toEqual(['My dog is called Fido.']);
      // An unrelated memory of Ana's reaches System Two with a low minScore, not with one above its relevance.
      await runMemoryTool(withAnswer, m, 'remember', { text: 'The quarterly tax form is due on Friday.', userId: 'ana' });
      type Ans = { text: string; relevance: number; score: number };
      const open = (await runMemoryTool(withAnswer, m, 'answer', { query: 'What is my dog called?', userId: 'ana', minScore: 0 })).memories as Ans[];
      expect(open.map((x) => x.text)).toEqual(['My dog is called Rex.', 'The quarterly tax form is due on Friday.']);
      const cut = (open[0]!.score + open[1]!.score) / 2;
      expect(open[0]!.score).toBeGreaterThan(open[1]!.score);
      const strict = (await runMemoryTool(withAnswer, m, 'answer', { query: 'What is my dog called?', userId: 'ana', minScore: cut })).memories as Ans[];
      expect(strict.map((x) => x.text)).toEqual(['My dog is called Rex.']);
      expect(prompts[prompts.length - 1]).not.toContain('quarterly tax');
      await expect(runMemoryTool(withAnswer, m, 'answer', { query: 'x', minScore: -0.5 })).rejects.toMatchObject({ field: 'minScore' });
    } finally {
      await m.close();
    }
  });

  it("recall's now is the question's date (RecallOptions.now), given to the memory as is and refused by name when it is no date", async () => {
    const schema = tools.find((t) => t.name === 'recall')?.inputSchema.properties['now'];
    expect(schema?.['type']).toBe('string');
    // What the memory is asked, through a memory that only records it.
    const asked: unknown[] = [];
    const recorder = { recall: async (_q: string, o: unknown) => (asked.push(o), { memories: [], trace: { routing: { active: [] }, depth: { reached: 0, max: 0 }, stopReason: 'empty', limits: { visited: 0, controllerCalls: 0 }, fallbacks: 0, timings: { totalMs: 0 } } }) } as unknown as Memory;
    await runMemoryTool(tools, recorder, 'recall', { query: 'What did I do last weekend?', now: '2024-04-15' });
    await runMemoryTool(tools, recorder, 'recall', { query: 'What did I do last weekend?', now: 1713171600000 });
    await runMemoryTool(tools, recorder, 'recall', { query: 'What did I do last weekend?' });
    expect(asked.map((o) => (o as { now?: unknown }).now)).toEqual(['2024-04-15', 1713171600000, undefined]);
    // The real memory reads it: "last weekend" of 15 April 2024 is 13-14 April.
    const m = await createNodeMemory({ store: mkdtempSync(join(tmpdir(), 'jev-mem-tools-now-')), systemOne: 'heuristic', create: true });
    try {
      await m.add({ text: 'I planted tomatoes in the garden.', observedAt: '2024-04-13T10:00:00Z' });
      const direct = await m.recall('What did I do last weekend?', { now: '2024-04-15' });
      expect(direct.trace.when?.window?.start).toBe('2024-04-13T00:00:00.000Z');
      const viaTool = (await runMemoryTool(tools, m, 'recall', { query: 'What did I do last weekend?', now: '2024-04-15' })) as { memories: Array<{ text: string }> };
      expect(viaTool.memories.map((x) => x.text)).toEqual(direct.memories.map((x) => x.text));
      for (const bad of ['last Tuesday', '2024-02-30', true, { day: 1 }]) {
        const e = await runMemoryTool(tools, m, 'recall', { query: 'x', now: bad }).then(() => undefined, (err: unknown) => err);
        expect(e, JSON.stringify(bad)).toMatchObject({ code: 'INVALID_INPUT', field: 'now' });
        expect((e as Error).message).not.toContain('options.');
      }
    } finally {
      await m.close();
    }
  });

  it('refuses bad arguments by name, and every schema property is accepted', async () => {
    const fails = (name: string, args: unknown) => runMemoryTool(tools, memory, name, args).then(() => undefined, (e: unknown) => e);
    expect(await fails('recall', { query: 'x', kk: 3 })).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'kk',
      message: 'kk: unknown argument; expected query, k, after, before, filter, userId, agentId, sessionId, minScore, now',
    });
    expect(await fails('recall', { query: 'x', minScore: 1.5 })).toMatchObject({ field: 'minScore', message: 'minScore: expected a number from 0 to 1, got 1.5' });
    expect(await fails('recall', { query: 'x', filter: 'topic=travel' })).toMatchObject({ field: 'filter', message: 'filter: expected a JSON object, got "topic=travel"' });
    // The memory's field path is renamed to the tool's argument.
    const op = (await fails('list', { filter: { topic: { $near: 1 } } })) as { code: string; field: string; message: string };
    expect(op.code).toBe('INVALID_INPUT');
    expect(op.field.startsWith('filter.topic')).toBe(true);
    expect(op.message).not.toContain('options.');
    expect(await fails('recall', { query: 'x', userId: '' })).toMatchObject({ field: 'userId' });
    expect(await fails('remember', { text: 'x', metadata: [1] })).toMatchObject({ field: 'metadata' });
    expect(await fails('remember', { text: 'x', expiresAt: 'soonish' })).toMatchObject({ code: 'INVALID_INPUT', field: 'expiresAt' });
    expect(await fails('history', { id: 'nope' })).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    expect(await fails('recall', { query: '  ' })).toMatchObject({ code: 'INVALID_INPUT', field: 'query' });
    expect(await fails('recall', { query: 'x', k: 51 })).toMatchObject({ field: 'k', message: 'k: expected an integer from 1 to 50, got 51' });
    expect(await fails('remember', {})).toMatchObject({ field: 'text', message: 'text: is required (a non-empty string)' });
    expect(await fails('list', [])).toMatchObject({ field: 'arguments' });
    expect(await fails('list', { cursor: 'nope' })).toMatchObject({ code: 'INVALID_INPUT' });
    expect(await fails('teleport', {})).toMatchObject({ code: 'NOT_FOUND', field: 'name' });
    for (const t of tools) {
      expect(t.inputSchema.additionalProperties).toBe(false);
      for (const r of t.inputSchema.required ?? []) expect(Object.keys(t.inputSchema.properties)).toContain(r);
      expect(t.description.length).toBeGreaterThan(120);
    }
  });

  it('update, forget and history with userId / agentId act only on a memory of that scope (another is NOT_FOUND)', async () => {
    const fails = (name: string, args: unknown) => runMemoryTool(tools, memory, name, args).then(() => undefined, (e: unknown) => e);
    const bob = await runMemoryTool(tools, memory, 'remember', { text: 'Bob keeps his spare key under the blue pot.', userId: 'bob', agentId: 'concierge' });
    const id = bob.id as string;
    expect(await fails('update', { id, text: 'Bob keeps his key at the gym.', userId: 'alice' })).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    expect(await fails('forget', { id, userId: 'alice' })).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    expect(await fails('history', { id, agentId: 'other' })).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
    expect(await fails('forget', { id, userId: '' })).toMatchObject({ code: 'INVALID_INPUT', field: 'userId' });
    expect((await memory.get(id))?.text).toBe('Bob keeps his spare key under the blue pot.');
    const h = await runMemoryTool(tools, memory, 'history', { id, userId: 'bob', agentId: 'concierge' });
    expect((h.versions as Array<{ text: string }>).map((v) => v.text)).toEqual(['Bob keeps his spare key under the blue pot.']);
    const u = await runMemoryTool(tools, memory, 'update', { id, text: 'Bob keeps his spare key at the gym.', userId: 'bob' });
    expect(await runMemoryTool(tools, memory, 'forget', { id: u.id, userId: 'bob', agentId: 'concierge' })).toEqual({ deleted: true, id: u.id, erased: [id, u.id], count: 2 });
    // Both versions are gone: the older one did not come back as current (h-break15 finding 2).
    expect(await memory.get(id)).toBeUndefined();
    for (const name of ['update', 'forget', 'history']) expect(Object.keys(tools.find((t) => t.name === name)?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['id', 'userId', 'agentId']));
  });

  it('declares the query length limit (maxLength) and refuses a longer query as TOO_LARGE', async () => {
    const { MAX_QUERY_CHARS } = await import('../../src/memory.js');
    expect(tools.find((t) => t.name === 'recall')?.inputSchema.properties['query']?.['maxLength']).toBe(MAX_QUERY_CHARS);
    expect(memoryTools({ answer: true }).find((t) => t.name === 'answer')?.inputSchema.properties['query']?.['maxLength']).toBe(MAX_QUERY_CHARS);
    await expect(runMemoryTool(tools, memory, 'recall', { query: 'q'.repeat(MAX_QUERY_CHARS + 1) })).rejects.toMatchObject({ code: 'TOO_LARGE', field: 'query' });
  });

  it('recall gives a memory over 2,000 characters as its passage that best matches the query, marked truncated; history gives it whole', async () => {
    const m = await createNodeMemory({ systemOne: 'heuristic' });
    try {
      const t = memoryTools({ source: 'test' });
      // 40 sentences of 100 characters about a trip, one about the cat's feeder at the 31st: 4,055 characters in all.
      const trip = (i: number): string => `Day ${String(i).padStart(2, '0')} of the tour goes by coach along the coast with stops for lunch and photos.`.padEnd(100, '.') + ' ';
      const sentences = Array.from({ length: 40 }, (_, i) => trip(i));
      sentences[30] = 'The automatic feeder gives Pumpkin the cat two scoops of salmon kibble at seven each morning. ';
      const long = sentences.join('').trim();
      const a = await runMemoryTool(t, m, 'remember', { text: long, role: 'assistant' });
      const r = await runMemoryTool(t, m, 'recall', { query: 'How much kibble does the feeder give Pumpkin the cat?', k: 1 });
      const got = (r.memories as Array<{ id: string; text: string; truncated?: boolean; textChars?: number }>)[0]!;
      expect(got.id).toBe(a.id);
      expect(got.truncated).toBe(true);
      expect(got.textChars).toBe(long.length);
      expect(got.text.length).toBeLessThanOrEqual(2000);
      expect(got.text).toContain('Pumpkin the cat two scoops of salmon kibble');
      expect(got.text.startsWith('…')).toBe(true);
      const h = await runMemoryTool(t, m, 'history', { id: a.id });
      expect((h.versions as Array<{ text: string }>)[0]?.text).toBe(long);
      // A short memory comes back whole, unmarked.
      const b = await runMemoryTool(t, m, 'remember', { text: 'Pumpkin the cat sleeps on the radiator.' });
      const s = await runMemoryTool(t, m, 'recall', { query: 'Where does Pumpkin sleep?', k: 5 });
      const short = (s.memories as Array<{ id: string; text: string; truncated?: boolean }>).find((x) => x.id === b.id);
      expect(short).toMatchObject({ text: 'Pumpkin the cat sleeps on the radiator.' });
      expect(short?.truncated).toBeUndefined();
    } finally {
      await m.close();
    }
  });
});
