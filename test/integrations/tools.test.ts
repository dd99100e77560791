/**
 * The shared memory tools (src/integrations/tools.ts) in-process: argument checks name the
 * argument, remember and update are timed by the tools' clock when the model gives no time,
 * `answer` is offered only with System Two, and the schemas list exactly the arguments run accepts.
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
    expect(tools.map((t) => t.name)).toEqual(['remember', 'recall', 'update', 'forget', 'list']);
    expect(memoryTools({ answer: true }).map((t) => t.name)).toContain('answer');
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

  it('refuses bad arguments by name, and every schema property is accepted', async () => {
    const fails = (name: string, args: unknown) => runMemoryTool(tools, memory, name, args).then(() => undefined, (e: unknown) => e);
    expect(await fails('recall', { query: 'x', kk: 3 })).toMatchObject({ code: 'INVALID_INPUT', field: 'kk', message: 'kk: unknown argument; expected query, k, after, before' });
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
});
