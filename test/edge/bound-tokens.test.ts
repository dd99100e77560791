/**
 * Issue 22 (privacy on the edge): tokens bound to one user. The config reader (`JEV_MEM_TOKENS`
 * entries `{token, userId, agentId?}`), and the front (Node, a fake Durable Object binding): a
 * bound token's operation is kept inside its scope, a request naming another scope is refused
 * with 403 `FORBIDDEN` before anything reaches the object, and an unbound token is unchanged.
 * bound-tokens-worker.test.ts runs the same in workerd, MCP included.
 */
import { describe, expect, it } from 'vitest';
import { readEdgeConfig } from '../../src/edge/env.js';
import { createEdgeHandler, type Operation } from '../../src/edge/http.js';
import type { JevMemError } from '../../src/errors.js';

const TOKENS = JSON.stringify({ shared: ['plain', { token: 'alice-t', userId: 'alice' }, { token: 'coach-t', userId: 'alice', agentId: 'coach' }] });

describe('readEdgeConfig: bound tokens', () => {
  it('reads bound entries beside plain ones, a single bound entry too', () => {
    const c = readEdgeConfig({ JEV_MEM_TOKEN: 'all', JEV_MEM_TOKENS: TOKENS });
    expect([...c.namespaceTokens]).toEqual([['shared', ['plain']]]);
    expect([...c.boundTokens]).toEqual([
      [
        'shared',
        [
          { token: 'alice-t', scope: { userId: 'alice' } },
          { token: 'coach-t', scope: { userId: 'alice', agentId: 'coach' } },
        ],
      ],
    ]);
    const one = readEdgeConfig({ JEV_MEM_TOKENS: { ns: { token: 'b', userId: 'bob' } } });
    expect([[...one.namespaceTokens], [...one.boundTokens]]).toEqual([[], [['ns', [{ token: 'b', scope: { userId: 'bob' } }]]]]);
    expect(Object.isFrozen(one.boundTokens.get('ns')?.[0]?.scope)).toBe(true);
  });

  it('refuses a bad entry with INVALID_OPTION (HTTP 500) naming its path', () => {
    const failure = (tokens: unknown, extra: Record<string, unknown> = {}): [string, string | undefined, string, unknown] => {
      try {
        readEdgeConfig({ JEV_MEM_TOKENS: JSON.stringify(tokens), ...extra });
      } catch (e) {
        const err = e as JevMemError;
        return [err.code, err.field, err.message, err.details.httpStatus];
      }
      throw new Error('expected a refusal');
    };
    expect(failure({ ns: [{ token: 't' }] })).toEqual(['INVALID_OPTION', 'JEV_MEM_TOKENS.ns[0].userId', 'Worker variable JEV_MEM_TOKENS.ns[0].userId: a bound token needs the userId it acts for', 500]);
    expect(failure({ ns: { token: 't', userId: '' } })).toEqual([
      'INVALID_OPTION',
      'JEV_MEM_TOKENS.ns.userId',
      'Worker variable JEV_MEM_TOKENS.ns.userId: expected a non-empty string of at most 256 characters, got "" (a string)',
      500,
    ]);
    expect(failure({ ns: ['p', { token: 't', userId: 'alice\u200b' }] })[1]).toBe('JEV_MEM_TOKENS.ns[1].userId');
    expect(failure({ ns: { token: 't', userId: 'a', agentId: 'x'.repeat(257) } })[1]).toBe('JEV_MEM_TOKENS.ns.agentId');
    expect(failure({ ns: { token: 't', userId: 'a', sessionId: 's' } })).toEqual([
      'INVALID_OPTION',
      'JEV_MEM_TOKENS.ns.sessionId',
      'Worker variable JEV_MEM_TOKENS.ns.sessionId: unknown field; a bound token takes token, userId, agentId',
      500,
    ]);
    expect(failure({ ns: { token: '', userId: 'a' } })[1]).toBe('JEV_MEM_TOKENS.ns.token');
    expect(failure({ ns: [3] })[1]).toBe('JEV_MEM_TOKENS.ns[0]');
    // A secret shared with another token of the namespace would make the scope ambiguous.
    const shared = failure({ ns: ['t', { token: 't', userId: 'a' }] });
    expect([shared[1], shared[2]]).toEqual([
      'JEV_MEM_TOKENS.ns',
      'Worker variable JEV_MEM_TOKENS.ns: a bound token (userId "a") has the same secret as another token of the namespace (or JEV_MEM_TOKEN); give each bound token a secret of its own',
    ]);
    expect(failure({ ns: [{ token: 't', userId: 'a' }, { token: 't', userId: 'b' }] })[1]).toBe('JEV_MEM_TOKENS.ns');
    expect(failure({ ns: { token: 't', userId: 'a' } }, { JEV_MEM_TOKEN: 't' })[1]).toBe('JEV_MEM_TOKENS.ns');
  });
});

describe('the front with a bound token (fake Durable Object binding)', () => {
  const handler = createEdgeHandler({ log: () => {} });
  const send = async (token: string, method: string, path: string, body?: unknown) => {
    const seen: Operation[] = [];
    const JEV_MEM = {
      idFromName: (name: string) => name,
      get: () => ({
        fetch: async (r: Request) => {
          seen.push((await r.json()) as Operation);
          return new Response('{"ok":true}', { status: 200 });
        },
      }),
    };
    const init: RequestInit = { method, headers: { authorization: `Bearer ${token}` } };
    if (body !== undefined) init.body = JSON.stringify(body);
    const r = await handler.fetch(new Request(`http://w/v1/namespaces/shared${path}`, init), { JEV_MEM, JEV_MEM_TOKENS: TOKENS });
    return { status: r.status, error: ((await r.json()) as { error?: { code: string; field?: string; message: string } }).error, seen };
  };

  it('puts the bound scope on every operation', async () => {
    const ops = async (token: string, method: string, path: string, body?: unknown) => (await send(token, method, path, body)).seen;
    expect(await ops('alice-t', 'POST', '/memories', { text: 'I like tea.' })).toEqual([{ op: 'add', namespace: 'shared', observations: [{ text: 'I like tea.' }], single: true, scope: { userId: 'alice' } }]);
    expect(await ops('coach-t', 'POST', '/memories', [{ text: 'a', userId: 'alice' }])).toEqual([
      { op: 'add', namespace: 'shared', observations: [{ text: 'a', userId: 'alice' }], single: false, scope: { userId: 'alice', agentId: 'coach' } },
    ]);
    expect(await ops('alice-t', 'GET', '/memories?limit=5&sessionId=s1')).toEqual([{ op: 'list', namespace: 'shared', limit: 5, scope: { sessionId: 's1', userId: 'alice' } }]);
    expect(await ops('alice-t', 'GET', '/memories/m1?userId=alice')).toEqual([{ op: 'getMemory', namespace: 'shared', id: 'm1', scope: { userId: 'alice' } }]);
    expect(await ops('alice-t', 'DELETE', '/memories/m1')).toEqual([{ op: 'deleteMemory', namespace: 'shared', id: 'm1', scope: { userId: 'alice' } }]);
    expect(await ops('alice-t', 'GET', '/memories/m1/history')).toEqual([{ op: 'history', namespace: 'shared', id: 'm1', scope: { userId: 'alice' } }]);
    expect(await ops('alice-t', 'PUT', '/memories/m1', { text: 'new' })).toEqual([{ op: 'updateMemory', namespace: 'shared', id: 'm1', observation: { text: 'new' }, scope: { userId: 'alice' } }]);
    expect(await ops('alice-t', 'GET', '/export')).toEqual([{ op: 'export', namespace: 'shared', scope: { userId: 'alice' } }]);
    expect(await ops('coach-t', 'POST', '/recall', { query: 'tea', scope: { sessionId: 's' }, filter: { userId: 'alice' } })).toEqual([
      { op: 'recall', namespace: 'shared', query: 'tea', filter: { userId: 'alice' }, scope: { sessionId: 's', userId: 'alice', agentId: 'coach' } },
    ]);
    expect(await ops('alice-t', 'POST', '/answer', { query: 'tea' })).toEqual([{ op: 'answer', namespace: 'shared', query: 'tea', scope: { userId: 'alice' } }]);
  });

  it('refuses another scope, and the whole-namespace routes, with 403 FORBIDDEN naming the field; nothing is sent', async () => {
    const cases: Array<[string, string, string, unknown, string]> = [
      ['alice-t', 'GET', '/memories?userId=bob', undefined, 'userId'],
      ['alice-t', 'GET', '/memories/m1?userId=bob', undefined, 'userId'],
      ['alice-t', 'DELETE', '/memories/m1?userId=bob', undefined, 'userId'],
      ['alice-t', 'GET', '/memories/m1/history?userId=bob', undefined, 'userId'],
      ['alice-t', 'GET', '/export?userId=bob', undefined, 'userId'],
      ['coach-t', 'GET', '/export?agentId=other', undefined, 'agentId'],
      ['alice-t', 'PUT', '/memories/m1?userId=bob', { text: 'x' }, 'userId'],
      ['alice-t', 'PUT', '/memories/m1', { text: 'x', userId: 'bob' }, 'observation.userId'],
      ['alice-t', 'POST', '/memories', { text: 'x', userId: 'bob' }, 'observation.userId'],
      ['alice-t', 'POST', '/memories', { observations: [{ text: 'x' }, { text: 'y', metadata: { userId: 'bob' } }] }, 'observations[1].metadata.userId'],
      ['alice-t', 'POST', '/memories', [{ role: 'user', content: 'hi', userId: 'bob' }], 'observations[0].userId'],
      ['coach-t', 'POST', '/memories', { text: 'x', agentId: 'other' }, 'observation.agentId'],
      ['alice-t', 'POST', '/recall', { query: 'q', scope: { userId: 'bob' } }, 'scope.userId'],
      ['alice-t', 'POST', '/answer', { query: 'q', scope: { userId: 'bob' } }, 'scope.userId'],
      ['alice-t', 'POST', '/recall', { query: 'q', filter: { $or: [{ userId: { $in: ['alice', 'bob'] } }] } }, 'filter.$or[0].userId'],
      ['alice-t', 'GET', `/memories?filter=${encodeURIComponent('{"metadata.userId":"bob"}')}`, undefined, 'filter.metadata.userId'],
      ['alice-t', 'GET', '/stats', undefined, 'authorization'],
      ['alice-t', 'GET', '', undefined, 'authorization'],
      ['alice-t', 'DELETE', '', undefined, 'authorization'],
    ];
    for (const [token, method, path, body, field] of cases) {
      const r = await send(token, method, path, body);
      expect([method, path, r.status, r.error?.code, r.error?.field, r.seen]).toEqual([method, path, 403, 'FORBIDDEN', field, []]);
    }
    expect((await send('alice-t', 'GET', '/memories?userId=bob')).error?.message).toBe('userId: this token acts only for userId "alice"; omit userId or pass that value');
    expect((await send('coach-t', 'DELETE', '')).error?.message).toBe(
      'authorization: this token is bound to userId "alice" (agentId "coach") and cannot reach the whole namespace (DELETE /v1/namespaces/:ns); use an unbound token of the namespace',
    );
  });

  it('leaves an unbound token as it was', async () => {
    expect((await send('plain', 'GET', '/memories?userId=bob')).seen).toEqual([{ op: 'list', namespace: 'shared', scope: { userId: 'bob' } }]);
    expect((await send('plain', 'POST', '/memories', { text: 'x', userId: 'bob' })).seen).toEqual([{ op: 'add', namespace: 'shared', observations: [{ text: 'x', userId: 'bob' }], single: true }]);
    expect((await send('plain', 'GET', '/stats')).seen).toEqual([{ op: 'stats', namespace: 'shared' }]);
    expect((await send('plain', 'DELETE', '')).seen).toEqual([{ op: 'dropNamespace', namespace: 'shared' }]);
    const wrong = await send('alice-t2', 'GET', '/memories');
    expect([wrong.status, wrong.error?.code, wrong.seen]).toEqual([401, 'UNAUTHORIZED', []]);
  });
});
