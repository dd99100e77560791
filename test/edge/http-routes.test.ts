/**
 * Issue 23: the Worker routes for list, get, update, history and stats, and the recall/answer
 * selection fields (filter, scope, minScore), at the front (Node, no workerd). worker-api.test.ts
 * runs them end to end in workerd.
 */
import { describe, expect, it } from 'vitest';
import { matchRoute, toOperation } from '../../src/edge/http.js';
import { fails, route } from './route-helpers.js';


describe('new routes', () => {
  it('maps list, get, update, history and the stats alias', () => {
    expect(matchRoute('GET', '/v1/namespaces/a/memories')).toEqual({ route: { name: 'list', namespace: 'a' } });
    expect(matchRoute('GET', '/v1/namespaces/a/memories/m%201')).toEqual({ route: { name: 'getMemory', namespace: 'a', memoryId: 'm%201' } });
    expect(matchRoute('PUT', '/v1/namespaces/a/memories/m1')).toEqual({ route: { name: 'updateMemory', namespace: 'a', memoryId: 'm1' } });
    expect(matchRoute('GET', '/v1/namespaces/a/memories/m1/history')).toEqual({ route: { name: 'history', namespace: 'a', memoryId: 'm1' } });
    expect(matchRoute('GET', '/v1/namespaces/a/stats')).toEqual({ route: { name: 'stats', namespace: 'a' } });
    expect(matchRoute('POST', '/v1/namespaces/a/memories/m1')).toEqual({ status: 405, allow: ['GET', 'PUT', 'DELETE'] });
    expect(matchRoute('POST', '/v1/namespaces/a/memories/m1/history')).toEqual({ status: 405, allow: ['GET'] });
  });

  it('reads the list query: limit, cursor, filter JSON; refuses bad ones naming the field', () => {
    const q = new URLSearchParams({ limit: '20', cursor: 'abc', filter: JSON.stringify({ userId: 'alice' }) });
    expect(toOperation(route('list'), 'ns', undefined, 10, q)).toEqual({ op: 'list', namespace: 'ns', limit: 20, cursor: 'abc', filter: { userId: 'alice' } });
    expect(toOperation(route('list'), 'ns', undefined, 10)).toEqual({ op: 'list', namespace: 'ns' });
    for (const [query, field] of [
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['limit=x', 'limit'],
      ['filter=%7Bnope', 'filter'],
      ['filter=%5B1%5D', 'filter'],
      ['sort=seq', 'sort'],
    ] as const) {
      expect(fails(() => toOperation(route('list'), 'ns', undefined, 10, new URLSearchParams(query))).field).toBe(field);
    }
  });

  it('update takes one observation object and a decoded id', () => {
    expect(toOperation(route('updateMemory', 'a%2Fb'), 'ns', { text: 'new' }, 10)).toEqual({ op: 'updateMemory', namespace: 'ns', id: 'a/b', observation: { text: 'new' } });
    expect(fails(() => toOperation(route('updateMemory', 'x'), 'ns', [{ text: 'a' }], 10)).field).toBe('observation');
    expect(toOperation(route('history', 'x'), 'ns', undefined, 10)).toEqual({ op: 'history', namespace: 'ns', id: 'x' });
  });

  it('recall and answer carry filter, scope and minScore; minScore outside [0,1] is refused', () => {
    expect(toOperation(route('recall'), 'ns', { query: 'q', filter: { speaker: 'Theo' }, scope: { userId: 'u' }, minScore: 0.2 }, 10)).toEqual({
      op: 'recall',
      namespace: 'ns',
      query: 'q',
      filter: { speaker: 'Theo' },
      scope: { userId: 'u' },
      minScore: 0.2,
    });
    expect(toOperation(route('answer'), 'ns', { query: 'q', minScore: 0 }, 10)).toEqual({ op: 'answer', namespace: 'ns', query: 'q', minScore: 0 });
    expect(fails(() => toOperation(route('recall'), 'ns', { query: 'q', minScore: 2 }, 10)).field).toBe('minScore');
    expect(fails(() => toOperation(route('recall'), 'ns', { query: 'q', filter: 'x' }, 10)).field).toBe('filter');
  });
});
