/**
 * Issue 22 (privacy on the edge), end to end in workerd: in one namespace shared by alice and
 * bob, alice's bound token cannot read, list, export, recall, update, delete or learn the
 * existence of bob's memory through any HTTP route or MCP tool (another scope's memory answers
 * exactly as an unknown id; naming bob is 403 / a tool error), nor reach the whole namespace
 * (stats, DELETE: 403); her writes belong to her. An unbound token of the namespace still reaches
 * every memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEdgeBundle, call, startEdge, type EdgeBundle, type RunningEdge } from './harness.js';

let bundle: EdgeBundle;
let edge: RunningEdge;

beforeAll(async () => {
  bundle = buildEdgeBundle();
  edge = await startEdge(bundle, {
    bindings: {
      JEV_MEM_TOKENS: JSON.stringify({ priv: ['admin-t', { token: 'alice-t', userId: 'alice' }, { token: 'bob-t', userId: 'bob' }] }),
      JEV_MEM_SYSTEM_ONE: 'heuristic',
    },
  });
}, 120_000);

afterAll(async () => {
  await edge?.dispose();
  bundle?.remove();
});

const NS = '/v1/namespaces/priv';
const as = (token: string) => (method: string, path: string, body?: unknown) => call(edge, method, `${NS}${path}`, { token, ...(body !== undefined ? { body } : {}) });
const alice = as('alice-t');
const bob = as('bob-t');
const admin = as('admin-t');

/** One MCP tool call (stateless JSON-RPC POST) with `token`. */
async function tool(token: string, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; text: string; data: any }> {
  const r = await call(edge, 'POST', `${NS}/mcp`, { token, body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } } });
  expect(r.status).toBe(200);
  const result = r.json.result as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: unknown };
  return { isError: result.isError === true, text: result.content[0]?.text ?? '', data: result.structuredContent };
}

const PIN = 'My bank PIN is 4321.';
let bobId = '';

describe('a token bound to alice, in workerd', () => {
  it('keeps every HTTP route inside alice\'s scope', async () => {
    const b = await bob('POST', '/memories', { text: PIN, observedAt: '2024-01-03T10:00:00Z' });
    expect(b.status).toBe(201);
    bobId = b.json.results[0].id as string;
    const a = await alice('POST', '/memories', { text: 'My passport number is X1234567.', observedAt: '2024-01-02T10:00:00Z' });
    const aliceId = a.json.results[0].id as string;
    // Each write belongs to its token's user.
    expect((await admin('GET', `/memories/${encodeURIComponent(bobId)}`)).json.provenance.metadata.userId).toBe('bob');
    expect((await admin('GET', `/memories/${encodeURIComponent(aliceId)}`)).json.provenance.metadata.userId).toBe('alice');

    // Bob's memory answers exactly as an unknown id, and nothing changes.
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '', { text: 'My bank PIN is 0000.' }],
      ['GET', '/history', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const other = await alice(method, `/memories/${encodeURIComponent(bobId)}${suffix}`, body);
      const unknown = await alice(method, `/memories/nope${suffix}`, body);
      expect([method + suffix, other.status, JSON.stringify(other.json).split(bobId).join('ID')]).toEqual([method + suffix, 404, JSON.stringify(unknown.json).split('nope').join('ID')]);
    }
    // Writing bob's very text makes a memory of alice's (no dedup against bob's: his id never shows).
    const same = await alice('POST', '/memories', { text: PIN, observedAt: '2024-01-03T10:00:00Z' });
    expect([same.status, same.json.results[0].deduplicated, same.json.results[0].id === bobId]).toEqual([201, false, false]);
    const aliceIds = [aliceId, same.json.results[0].id as string];

    const list = await alice('GET', '/memories');
    expect((list.json.memories as Array<{ id: string }>).map((m) => m.id)).toEqual(aliceIds);
    const exported = await alice('GET', '/export');
    expect((exported.json.nodes as Array<{ id: string }>).map((n) => n.id)).toEqual(aliceIds);
    expect(exported.text.includes(bobId)).toBe(false);
    const recall = await alice('POST', '/recall', { query: 'What is the bank PIN?', k: 10 });
    expect(recall.status).toBe(200);
    expect([recall.text.includes(bobId), (recall.json.memories as Array<{ id: string }>).every((m) => aliceIds.includes(m.id))]).toEqual([false, true]);

    // Naming bob, or the whole namespace, is refused.
    for (const [method, path, body, field] of [
      ['GET', '/memories?userId=bob', undefined, 'userId'],
      ['GET', `/memories/${encodeURIComponent(bobId)}?userId=bob`, undefined, 'userId'],
      ['DELETE', `/memories/${encodeURIComponent(bobId)}?userId=bob`, undefined, 'userId'],
      ['GET', '/export?userId=bob', undefined, 'userId'],
      ['POST', '/recall', { query: 'PIN', scope: { userId: 'bob' } }, 'scope.userId'],
      ['POST', '/memories', { text: 'x', userId: 'bob' }, 'observation.userId'],
      ['GET', '/stats', undefined, 'authorization'],
      ['DELETE', '', undefined, 'authorization'],
    ] as const) {
      const r = await alice(method, path, body);
      expect([method, path, r.status, r.json.error.code, r.json.error.field]).toEqual([method, path, 403, 'FORBIDDEN', field]);
    }

    // Bob's memory is intact; the unbound token reaches every memory and the namespace's counts.
    const his = await admin('GET', `/memories/${encodeURIComponent(bobId)}`);
    expect([his.status, his.json.text, his.json.status]).toEqual([200, PIN, 'active']);
    expect(((await admin('GET', '/memories')).json.memories as unknown[]).length).toBe(3);
    expect((await admin('GET', '/memories?userId=bob')).json.memories.map((m: { id: string }) => m.id)).toEqual([bobId]);
    const stats = await admin('GET', '/stats');
    expect([stats.status, stats.json.nodes]).toEqual([200, 3]);
  }, 120_000);

  it('ties every MCP tool to alice\'s scope', async () => {
    expect(bobId).not.toBe('');
    const r = await tool('alice-t', 'remember', { text: 'I moved to Lisbon in May.' });
    expect(r.isError).toBe(false);
    expect((await admin('GET', `/memories/${encodeURIComponent(r.data.id as string)}`)).json.provenance.metadata.userId).toBe('alice');

    const recall = await tool('alice-t', 'recall', { query: 'What is the bank PIN?', k: 10 });
    expect([recall.isError, recall.text.includes(bobId), recall.text.includes('4321'), (recall.data.memories as unknown[]).length > 0]).toEqual([false, false, true, true]);
    const list = await tool('alice-t', 'list', { limit: 100 });
    const hers = ((await admin('GET', '/memories?userId=alice')).json.memories as Array<{ id: string }>).map((m) => m.id);
    expect([hers.length, (list.data.memories as Array<{ id: string }>).map((m) => m.id)]).toEqual([3, hers]);
    expect(list.text.includes(bobId)).toBe(false);

    // Bob's id is an unknown id to every id-addressed tool.
    for (const [name, args] of [
      ['history', {}],
      ['forget', {}],
      ['update', { text: 'My bank PIN is 0000.' }],
    ] as const) {
      const other = await tool('alice-t', name, { id: bobId, ...args });
      const unknown = await tool('alice-t', name, { id: 'nope', ...args });
      expect([name, other.isError, other.text.split(bobId).join('ID')]).toEqual([name, true, unknown.text.split('nope').join('ID')]);
    }
    // A tool argument naming bob is a tool error naming it.
    for (const [name, args] of [
      ['list', { userId: 'bob' }],
      ['recall', { query: 'PIN', userId: 'bob' }],
      ['remember', { text: 'x', userId: 'bob' }],
      ['history', { id: bobId, userId: 'bob' }],
      ['forget', { id: bobId, userId: 'bob' }],
    ] as const) {
      const t = await tool('alice-t', name, args);
      expect([name, t.isError, t.text]).toEqual([name, true, 'INVALID_INPUT: userId: these tools act only for userId "alice"; omit userId or pass that value']);
    }
    const byFilter = await tool('alice-t', 'list', { filter: { userId: 'bob' } });
    expect([byFilter.isError, byFilter.text]).toEqual([true, 'INVALID_INPUT: filter.userId: these tools act only for userId "alice"; a filter cannot select another userId']);
    // Bob's memory is intact, and an unbound token's tools still reach it.
    const his = await tool('admin-t', 'list', { userId: 'bob' });
    expect([his.isError, (his.data.memories as Array<{ id: string }>).map((m) => m.id)]).toEqual([false, [bobId]]);
    const bobs = await tool('bob-t', 'history', { id: bobId });
    expect([bobs.isError, (bobs.data.versions as Array<{ text: string; status: string }>).map((v) => [v.text, v.status])]).toEqual([false, [[PIN, 'active']]]);
  }, 120_000);
});
