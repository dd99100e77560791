/**
 * `MemoryToolsOptions.scope`: tools tied to one user act only inside that scope, whatever the
 * model passes (a different userId is a tool error, the same one is fine).
 */
import { describe, expect, it } from 'vitest';
import { memoryTools, runMemoryTool } from '../../src/integrations/tools.js';
import { createNodeMemory } from '../../src/node.js';

type Mem = { id: string; text: string };
const texts = (r: Record<string, unknown>): string[] => (r.memories as Mem[]).map((x) => x.text).sort();

describe('tools tied to a scope', () => {
  it('remember stores in the scope; reads and id-addressed tools stay in it; another userId is refused', async () => {
    const m = await createNodeMemory({ systemOne: 'heuristic' });
    try {
      const { id: bob } = await m.add({ text: 'I am flying to Oslo in April.', userId: 'bob' });
      const tools = memoryTools({ source: 'test', scope: { userId: 'alice' }, now: () => new Date('2025-06-01T08:00:00Z') });
      const a = await runMemoryTool(tools, m, 'remember', { text: 'I am flying to Tokyo in April.' });
      expect((await m.get(a.id as string))?.provenance.metadata).toEqual({ userId: 'alice' });
      // The same userId is fine; another one is a tool error naming it, and nothing is written.
      const same = await runMemoryTool(tools, m, 'remember', { text: 'I like sushi.', userId: 'alice' });
      expect((await m.get(same.id as string))?.provenance.metadata).toEqual({ userId: 'alice' });
      const refused = [
        runMemoryTool(tools, m, 'remember', { text: 'planted', userId: 'bob' }),
        runMemoryTool(tools, m, 'recall', { query: 'Where am I flying?', userId: 'bob' }),
        runMemoryTool(tools, m, 'list', { userId: 'bob' }),
        runMemoryTool(tools, m, 'forget', { id: bob, userId: 'bob' }),
        runMemoryTool(tools, m, 'history', { id: bob, userId: 'bob' }),
        runMemoryTool(tools, m, 'update', { id: bob, text: 'x', userId: 'bob' }),
      ];
      for (const p of refused) await expect(p).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'userId' });
      // A filter selecting another user is refused too, naming the condition; alice's own value is fine.
      await expect(runMemoryTool(tools, m, 'list', { filter: { userId: 'bob' } })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        field: 'filter.userId',
        message: 'filter.userId: these tools act only for userId "alice"; a filter cannot select another userId',
      });
      await expect(runMemoryTool(tools, m, 'recall', { query: 'flying', filter: { $or: [{ speaker: 'x' }, { 'metadata.userId': { $in: ['alice', 'bob'] } }] } })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        field: 'filter.$or[1].metadata.userId',
      });
      expect(texts(await runMemoryTool(tools, m, 'list', { filter: { userId: { $eq: 'alice' } } }))).toEqual(['I am flying to Tokyo in April.', 'I like sushi.']);
      // Reads without a userId see alice's memories only.
      expect(texts(await runMemoryTool(tools, m, 'recall', { query: 'Where am I flying in April?', k: 10 }))).toEqual(['I am flying to Tokyo in April.', 'I like sushi.']);
      expect(texts(await runMemoryTool(tools, m, 'list', {}))).toEqual(['I am flying to Tokyo in April.', 'I like sushi.']);
      // Bob's memory is unknown to alice's tools.
      await expect(runMemoryTool(tools, m, 'forget', { id: bob })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'id' });
      await expect(runMemoryTool(tools, m, 'history', { id: bob })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'id' });
      await expect(runMemoryTool(tools, m, 'update', { id: bob, text: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'id' });
      expect((await m.get(bob))?.text).toBe('I am flying to Oslo in April.');
      expect((await m.stats()).nodes).toBe(3);
      // An update of alice's own memory stays hers.
      const u = await runMemoryTool(tools, m, 'update', { id: a.id, text: 'I am flying to Kyoto in April.' });
      expect((await m.get(u.id as string))?.provenance.metadata).toEqual({ userId: 'alice' });
    } finally {
      await m.close();
    }
  });

  it('a fixed sessionId and agentId bind too; a bad scope option is INVALID_OPTION naming it', async () => {
    const m = await createNodeMemory({ systemOne: 'heuristic' });
    try {
      const tools = memoryTools({ scope: { userId: 'alice', agentId: 'coach', sessionId: 's1' } });
      const r = await runMemoryTool(tools, m, 'remember', { text: 'I run on Sundays.' });
      const n = await m.get(r.id as string);
      expect([n?.provenance.metadata, n?.provenance.sessionId]).toEqual([{ userId: 'alice', agentId: 'coach' }, 's1']);
      await expect(runMemoryTool(tools, m, 'remember', { text: 'x', agentId: 'other' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'agentId' });
      await expect(runMemoryTool(tools, m, 'remember', { text: 'x', sessionId: 's2' })).rejects.toMatchObject({ code: 'INVALID_INPUT', field: 'sessionId' });
    } finally {
      await m.close();
    }
    const fieldOf = (scope: unknown): unknown => {
      try {
        memoryTools({ scope } as never);
        return 'accepted';
      } catch (e) {
        return [(e as { code: string }).code, (e as { field: string }).field];
      }
    };
    expect(fieldOf({})).toEqual(['INVALID_OPTION', 'scope']);
    expect(fieldOf('alice')).toEqual(['INVALID_OPTION', 'scope']);
    expect(fieldOf({ user: 'alice' })).toEqual(['INVALID_OPTION', 'scope.user']);
    expect(fieldOf({ userId: '' })).toEqual(['INVALID_OPTION', 'scope.userId']);
    expect(fieldOf({ userId: 'alice\u200B' })).toEqual(['INVALID_OPTION', 'scope.userId']);
  });
});
