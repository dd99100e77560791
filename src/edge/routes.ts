/**
 * The routes of the Worker's HTTP API (tabled in http.ts's TSDoc): their names, what a method and
 * path match ({@link matchRoute}), and the checked {@link Operation}
 * the front sends to the namespace's Durable Object (built by http-input.ts `toOperation`).
 *
 * @module
 */
import type { Observation } from '../types.js';

/** Name of the route an HTTP request matched. */
export type RouteName = 'add' | 'list' | 'getMemory' | 'updateMemory' | 'history' | 'recall' | 'answer' | 'export' | 'stats' | 'deleteMemory' | 'dropNamespace';

/** A matched route. */
export interface Route {
  name: RouteName;
  /** The raw namespace path segment (checked by `checkNamespace`, http-input.ts). */
  namespace: string;
  /** The memory id of `deleteMemory`, `getMemory`, `updateMemory`, `history`, as in the path (percent-encoded). */
  memoryId?: string;
}

/** What {@link matchRoute} found: a route, no such path (404) or a wrong method (405). */
export type RouteMatch = { route: Route } | { status: 404 } | { status: 405; allow: string[] };

/**
 * One checked operation, as the front sends it to the namespace's Durable Object.
 * `single` marks a write of one observation (the answer still lists one result).
 */
export type Operation =
  | ({ op: 'add'; namespace: string; observations: Observation[]; single: boolean } & Scoped)
  | ({ op: 'list'; namespace: string; limit?: number; cursor?: string; filter?: Record<string, unknown> } & Scoped)
  | ({ op: 'getMemory'; namespace: string; id: string } & Scoped)
  | ({ op: 'updateMemory'; namespace: string; id: string; observation: Observation } & Scoped)
  | ({ op: 'history'; namespace: string; id: string } & Scoped)
  | ({ op: 'recall'; namespace: string; query: string; k?: number; after?: string; before?: string; now?: string | number } & Selection)
  | ({ op: 'answer'; namespace: string; query: string; k?: number; now?: string | number } & Selection)
  | ({ op: 'export'; namespace: string; filter?: Record<string, unknown> } & Scoped)
  | { op: 'stats'; namespace: string }
  | ({ op: 'deleteMemory'; namespace: string; id: string } & Scoped)
  | { op: 'dropNamespace'; namespace: string };

/**
 * The scope of a route that takes it in its query (`userId`, `agentId`, `sessionId`, each checked
 * as the write path checks a scope value): passed to the memory as `options.scope`. On `add` it
 * is set only by a token bound to a scope (bound-scope.ts): `options.scope` of `add` / `addMany`.
 */
export interface Scoped {
  scope?: { userId?: string; agentId?: string; sessionId?: string };
}

/** The selection fields of `/recall` and `/answer` (checked by the memory, which names the field). */
export interface Selection {
  filter?: Record<string, unknown>;
  scope?: Record<string, unknown>;
  minScore?: number;
}

/**
 * Matches a method and path against the API table.
 * @param pathname - the URL path (`/v1/namespaces/alice/recall`); one trailing `/` is ignored.
 */
export function matchRoute(method: string, pathname: string): RouteMatch {
  const parts = pathname.replace(/\/$/, '').split('/');
  // ['', 'v1', 'namespaces', ns, ...rest]
  if (parts.length < 4 || parts[0] !== '' || parts[1] !== 'v1' || parts[2] !== 'namespaces' || parts[3] === '') return { status: 404 };
  const ns = parts[3] as string;
  const rest = parts.slice(4);
  const byMethod: Record<string, RouteName> = {};
  let memoryId: string | undefined;
  if (rest.length === 0) {
    byMethod.GET = 'stats';
    byMethod.DELETE = 'dropNamespace';
  } else if (rest.length === 1 && rest[0] === 'memories') {
    byMethod.GET = 'list';
    byMethod.POST = 'add';
  } else if (rest.length === 1 && rest[0] === 'stats') byMethod.GET = 'stats';
  else if (rest.length === 3 && rest[0] === 'memories' && rest[1] !== '' && rest[2] === 'history') {
    byMethod.GET = 'history';
    memoryId = rest[1];
  }
  else if (rest.length === 1 && rest[0] === 'recall') byMethod.POST = 'recall';
  else if (rest.length === 1 && rest[0] === 'answer') byMethod.POST = 'answer';
  else if (rest.length === 1 && rest[0] === 'export') byMethod.GET = 'export';
  else if (rest.length === 2 && rest[0] === 'memories' && rest[1] !== '') {
    byMethod.GET = 'getMemory';
    byMethod.PUT = 'updateMemory';
    byMethod.DELETE = 'deleteMemory';
    memoryId = rest[1];
  } else return { status: 404 };
  const name = byMethod[method.toUpperCase()];
  if (name === undefined) return { status: 405, allow: Object.keys(byMethod) };
  const route: Route = { name, namespace: ns };
  if (memoryId !== undefined) route.memoryId = memoryId;
  return { route };
}
