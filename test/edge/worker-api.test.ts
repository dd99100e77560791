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
