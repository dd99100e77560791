/**
 * The Worker front (Node, no workerd) passes the caller's scope to every id-addressed route,
 * `list` and `export` (query parameters `userId`, `agentId`, `sessionId`; `export` also takes
 * `filter`), and refuses what it would otherwise ignore: an unknown or repeated query parameter
 * on any route, a bad scope value, and a body on a route that takes none. An ignored
 * `?userid=` or `{"userId": …}` on a DELETE used to act on every user's memory of the
 * namespace. worker-api.test.ts runs the same routes end to end in workerd.
 */
import { describe, expect, it } from 'vitest';
import { createEdgeHandler, toOperation, type Operation } from '../../src/edge/http.js';
import { fails, route } from './route-helpers.js';

const q = (s: string) => new URLSearchParams(s);

describe('the scope of the id routes, list and export', () => {
  it('is read from the query into the operation', () => {
    const scope = { userId: 'alice', agentId: 'coach' };
    const query = q('userId=alice&agentId=coach');
    expect(toOperation(route('getMemory', 'm1'), 'ns', undefined, 10, query)).toEqual({ op: 'getMemory', namespace: 'ns', id: 'm1', scope });
    expect(toOperation(route('history', 'm1'), 'ns', undefined, 10, query)).toEqual({ op: 'history', namespace: 'ns', id: 'm1', scope });
    expect(toOperation(route('deleteMemory', 'm1'), 'ns', undefined, 10, query)).toEqual({ op: 'deleteMemory', namespace: 'ns', id: 'm1', scope });
    expect(toOperation(route('updateMemory', 'm1'), 'ns', { text: 'new' }, 10, query)).toEqual({ op: 'updateMemory', namespace: 'ns', id: 'm1', observation: { text: 'new' }, scope });
    expect(toOperation(route('list'), 'ns', undefined, 10, q('limit=5&userId=alice&sessionId=s%201'))).toEqual({ op: 'list', namespace: 'ns', limit: 5, scope: { userId: 'alice', sessionId: 's 1' } });
    expect(toOperation(route('export'), 'ns', undefined, 10, q(`userId=alice&filter=${encodeURIComponent('{"speaker":"Maya"}')}`))).toEqual({
      op: 'export',
      namespace: 'ns',
      filter: { speaker: 'Maya' },
      scope: { userId: 'alice' },
    });
    // None given: no scope (the whole namespace, as before).
    expect(toOperation(route('deleteMemory', 'm1'), 'ns', undefined, 10, q(''))).toEqual({ op: 'deleteMemory', namespace: 'ns', id: 'm1' });
    expect(toOperation(route('export'), 'ns', undefined, 10)).toEqual({ op: 'export', namespace: 'ns' });
  });

  it('refuses an unknown or repeated query parameter on every route, and a bad scope value, naming it', () => {
    const cases: Array<[Parameters<typeof route>[0], string | undefined, unknown, string, string]> = [
      ['deleteMemory', 'm1', undefined, 'userid=alice', 'userid'],
      ['getMemory', 'm1', undefined, 'user=alice', 'user'],
      ['history', 'm1', undefined, 'scope=alice', 'scope'],
      ['updateMemory', 'm1', { text: 'x' }, 'limit=1', 'limit'],
      ['export', undefined, undefined, 'cursor=x', 'cursor'],
      ['dropNamespace', undefined, undefined, 'userId=alice', 'userId'],
      ['stats', undefined, undefined, 'userId=alice', 'userId'],
      ['recall', undefined, { query: 'q' }, 'userId=alice', 'userId'],
      ['answer', undefined, { query: 'q' }, 'agentId=a', 'agentId'],
      ['add', undefined, { text: 'x' }, 'userId=alice', 'userId'],
      ['deleteMemory', 'm1', undefined, 'userId=alice&userId=bob', 'userId'],
      ['list', undefined, undefined, 'userId=alice&userId=alice', 'userId'],
      ['getMemory', 'm1', undefined, 'userId=alice%00', 'userId'],
      ['deleteMemory', 'm1', undefined, `agentId=${'a'.repeat(257)}`, 'agentId'],
      ['history', 'm1', undefined, 'userId=', 'userId'],
      ['list', undefined, undefined, 'sessionId=', 'sessionId'],
      ['export', undefined, undefined, 'filter=%5B%5D', 'filter'],
    ];
    for (const [name, id, body, query, field] of cases) {
      const e = fails(() => toOperation(route(name, id), 'ns', body, 10, q(query)));
      expect([name, query, e.code, e.field]).toEqual([name, query, 'INVALID_INPUT', field]);
    }
    expect(fails(() => toOperation(route('stats'), 'ns', undefined, 10, q('x=1'))).message).toBe('x: unknown query parameter; this route takes none');
    expect(fails(() => toOperation(route('deleteMemory', 'm1'), 'ns', undefined, 10, q('userid=a'))).message).toBe('userid: unknown query parameter; expected userId, agentId, sessionId');
    expect(fails(() => toOperation(route('getMemory', 'm1'), 'ns', undefined, 10, q('userId=a%00'))).message).toBe('userId: contains a control character (U+0000); give an id without one');
  });
});

describe('the front with a fake Durable Object binding', () => {
  function fakeBinding() {
    const seen: Operation[] = [];
    return {
      seen,
      idFromName: (name: string) => name,
      get: () => ({
        fetch: async (r: Request) => {
          seen.push((await r.json()) as Operation);
          return new Response('{"ok":true}', { status: 200 });
        },
      }),
    };
  }
  const handler = createEdgeHandler({ log: () => {} });
  const send = async (method: string, path: string, body?: string) => {
    const JEV_MEM = fakeBinding();
    const r = await handler.fetch(new Request(`http://w/v1/namespaces/alice${path}`, { method, headers: { authorization: 'Bearer t' }, ...(body !== undefined ? { body } : {}) }), { JEV_MEM, JEV_MEM_TOKEN: 't' });
    return { status: r.status, json: (await r.json()) as { error?: { code: string; field: string; message: string } }, seen: JEV_MEM.seen };
  };

  it('passes the scope of a DELETE to the object', async () => {
    const r = await send('DELETE', '/memories/m1?userId=u1');
    expect([r.status, r.seen]).toEqual([200, [{ op: 'deleteMemory', namespace: 'alice', id: 'm1', scope: { userId: 'u1' } }]]);
  });

  it('refuses a body on a route that takes none (400 naming body), sending nothing', async () => {
    const d = await send('DELETE', '/memories/m1', '{"userId":"u1"}');
    expect([d.status, d.json.error, d.seen]).toEqual([
      400,
      { code: 'INVALID_INPUT', field: 'body', message: 'body: this route takes no body; give its options as query parameters (userId, agentId, sessionId)' },
      [],
    ]);
    const drop = await send('DELETE', '', '{"userId":"u1"}');
    expect([drop.status, drop.json.error?.message, drop.seen]).toEqual([400, 'body: this route takes no body', []]);
    // White space only is no body.
    expect((await send('DELETE', '/memories/m1', ' \n')).status).toBe(200);
  });

  it('refuses an unknown query parameter of a DELETE (400 naming it), sending nothing', async () => {
    const r = await send('DELETE', '/memories/m1?userid=u1');
    expect([r.status, r.json.error?.field, r.seen]).toEqual([400, 'userid', []]);
    const drop = await send('DELETE', '?userId=u1');
    expect([drop.status, drop.json.error?.field, drop.seen]).toEqual([400, 'userId', []]);
  });
});
