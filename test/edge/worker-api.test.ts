/**
 * Issue 23, end to end in workerd (Miniflare): the Worker's list (cursor paging, filter), get,
 * update, history and stats routes, and recall with a scope.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEdgeBundle, call, startEdge, type EdgeBundle, type RunningEdge } from './harness.js';

const TOKEN = 'api-token';
let bundle: EdgeBundle;
let edge: RunningEdge;

beforeAll(async () => {
  bundle = buildEdgeBundle();
  edge = await startEdge(bundle, { bindings: { JEV_MEM_TOKEN: TOKEN } });
}, 120_000);

afterAll(async () => {
  await edge?.dispose();
  bundle?.remove();
});

const api = (method: string, path: string, body?: unknown) => call(edge, method, path, { token: TOKEN, ...(body !== undefined ? { body } : {}) });

describe('Worker list / get / update / history / stats', () => {
  it('pages, filters, updates and shows the versions', async () => {
    const ns = '/v1/namespaces/api-list';
    const add = await api('POST', `${ns}/memories`, {
      observations: [
        { text: 'Maya: I adopted a greyhound called Pepper.', speaker: 'Maya', userId: 'maya' },
        { text: 'Theo: I replaced the chain on my bike.', speaker: 'Theo', userId: 'theo' },
        { role: 'user', content: 'Pepper loves the beach.', name: 'Maya', userId: 'maya' },
      ],
    });
    expect(add.status).toBe(201);
    const ids = (add.json.results as Array<{ id: string }>).map((r) => r.id);

    const p1 = await api('GET', `${ns}/memories?limit=2`);
    expect(p1.status).toBe(200);
    expect((p1.json.memories as Array<{ text: string; embedding?: unknown }>).map((m) => [m.text, m.embedding])).toEqual([
      ['Maya: I adopted a greyhound called Pepper.', undefined],
      ['Theo: I replaced the chain on my bike.', undefined],
    ]);
    const p2 = await api('GET', `${ns}/memories?limit=2&cursor=${encodeURIComponent(p1.json.cursor as string)}`);
    expect((p2.json.memories as Array<{ text: string; provenance: { speaker: string } }>).map((m) => [m.text, m.provenance.speaker])).toEqual([['Pepper loves the beach.', 'Maya']]);
    expect(p2.json.cursor).toBeUndefined();

    const maya = await api('GET', `${ns}/memories?filter=${encodeURIComponent(JSON.stringify({ userId: 'maya' }))}`);
    expect((maya.json.memories as Array<{ id: string }>).map((m) => m.id)).toEqual([ids[0], ids[2]]);
    const bad = await api('GET', `${ns}/memories?limit=5000`);
    expect([bad.status, bad.json.error.field]).toEqual([400, 'limit']);

    const got = await api('GET', `${ns}/memories/${encodeURIComponent(ids[1]!)}`);
    expect([got.status, got.json.text, got.json.embedding]).toEqual([200, 'Theo: I replaced the chain on my bike.', undefined]);
    expect((await api('GET', `${ns}/memories/nope`)).status).toBe(404);

    const up = await api('PUT', `${ns}/memories/${encodeURIComponent(ids[1]!)}`, { text: 'Theo: I replaced the whole drivetrain on my bike.' });
    expect(up.status).toBe(200);
    const newId = up.json.result.id as string;
    expect((await api('PUT', `${ns}/memories/nope`, { text: 'x' })).status).toBe(404);
    // The replaced version cannot be updated again (a second branch): 409 CONFLICT naming the current one.
    const stale = await api('PUT', `${ns}/memories/${encodeURIComponent(ids[1]!)}`, { text: 'Theo: I sold my bike.' });
    expect([stale.status, stale.json.error.code, stale.json.error.field]).toEqual([409, 'CONFLICT', 'id']);
    expect(stale.json.error.message).toContain(newId);
    const hist = await api('GET', `${ns}/memories/${encodeURIComponent(newId)}/history`);
    expect((hist.json.versions as Array<{ text: string; status: string; provenance: { metadata?: { userId?: string } } }>).map((v) => [v.text, v.status, v.provenance.metadata?.userId])).toEqual([
      ['Theo: I replaced the chain on my bike.', 'superseded', 'theo'],
      ['Theo: I replaced the whole drivetrain on my bike.', 'active', 'theo'],
    ]);

    const stats = await api('GET', `${ns}/stats`);
    expect([stats.status, stats.json.nodes, stats.json.supersededNodes]).toEqual([200, 4, 1]);

    const rec = await api('POST', `${ns}/recall`, { query: 'What did Theo replace on his bike?', scope: { userId: 'maya' } });
    expect(rec.status).toBe(200);
    expect((rec.json.memories as Array<{ provenance: { metadata: { userId: string } } }>).every((m) => m.provenance.metadata.userId === 'maya')).toBe(true);
  });
});

describe('Worker scope privacy (userId / agentId / sessionId query parameters)', () => {
  it('get, update, history and delete of another scope answer exactly as an unknown id and change nothing; list and export keep to the scope', async () => {
    const ns = '/v1/namespaces/api-scope';
    const add = await api('POST', `${ns}/memories`, {
      observations: [
        { text: 'My passport number is X1234567.', userId: 'alice', observedAt: '2024-01-02T10:00:00Z' },
        { text: 'My bank PIN is 4321.', userId: 'bob', agentId: 'helper', observedAt: '2024-01-03T10:00:00Z' },
      ],
    });
    expect(add.status).toBe(201);
    const [alice, bob] = (add.json.results as Array<{ id: string }>).map((r) => r.id) as [string, string];

    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PUT', '', { text: 'My bank PIN is 0000.' }],
      ['GET', '/history', undefined],
      ['DELETE', '', undefined],
    ] as const) {
      const other = await api(method, `${ns}/memories/${encodeURIComponent(bob)}${suffix}?userId=alice`, body);
      const unknown = await api(method, `${ns}/memories/nope${suffix}?userId=alice`, body);
      expect([method + suffix, other.status, JSON.stringify(other.json).split(bob).join('ID')]).toEqual([method + suffix, 404, JSON.stringify(unknown.json).split('nope').join('ID')]);
    }
    // Bob's memory is untouched, and his own scope reaches it.
    const mine = await api('GET', `${ns}/memories/${encodeURIComponent(bob)}?userId=bob&agentId=helper`);
    expect([mine.status, mine.json.text]).toEqual([200, 'My bank PIN is 4321.']);
    expect((await api('GET', `${ns}/memories/${encodeURIComponent(bob)}?userId=bob&agentId=other`)).status).toBe(404);

    const list = await api('GET', `${ns}/memories?userId=alice`);
    expect((list.json.memories as Array<{ id: string }>).map((m) => m.id)).toEqual([alice]);
    const exported = await api('GET', `${ns}/export?userId=alice`);
    expect([exported.status, (exported.json.nodes as Array<{ id: string }>).map((n) => n.id)]).toEqual([200, [alice]]);
    const byFilter = await api('GET', `${ns}/export?filter=${encodeURIComponent(JSON.stringify({ agentId: 'helper' }))}`);
    expect((byFilter.json.nodes as Array<{ id: string }>).map((n) => n.id)).toEqual([bob]);

    // Alice's own scope updates, shows the versions and deletes.
    const up = await api('PUT', `${ns}/memories/${encodeURIComponent(alice)}?userId=alice`, { text: 'My passport number is Y7654321.' });
    expect(up.status).toBe(200);
    const newId = up.json.result.id as string;
    const hist = await api('GET', `${ns}/memories/${encodeURIComponent(newId)}/history?userId=alice`);
    expect((hist.json.versions as Array<{ text: string }>).map((v) => v.text)).toEqual(['My passport number is X1234567.', 'My passport number is Y7654321.']);
    expect((await api('DELETE', `${ns}/memories/${encodeURIComponent(bob)}?userId=bob`)).json).toEqual({ deleted: true, id: bob });

    // Refused before anything is done: a NUL in a scope value (query or recall body), a misspelt
    // parameter, a body on a DELETE.
    const nul = await api('GET', `${ns}/memories/${encodeURIComponent(newId)}?userId=alice%00`);
    expect([nul.status, nul.json.error.code, nul.json.error.field]).toEqual([400, 'INVALID_INPUT', 'userId']);
    const rec = await api('POST', `${ns}/recall`, { query: 'passport', scope: { userId: 'alice\u0000' } });
    expect([rec.status, rec.json.error.field]).toEqual([400, 'options.scope.userId']);
    const typo = await api('DELETE', `${ns}/memories/${encodeURIComponent(newId)}?userid=bob`);
    expect([typo.status, typo.json.error.field]).toEqual([400, 'userid']);
    const withBody = await api('DELETE', `${ns}/memories/${encodeURIComponent(newId)}`, { userId: 'bob' });
    expect([withBody.status, withBody.json.error.field]).toEqual([400, 'body']);
    expect((await api('GET', `${ns}/memories/${encodeURIComponent(newId)}`)).status).toBe(200);
  }, 60_000);
});
