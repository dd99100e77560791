/**
 * The Worker's HTTP API (JSON in and out) and its front handler: routing, bearer-token auth per
 * namespace, body limits and request checks happen here, in the stateless Worker; the checked
 * operation then goes to the namespace's Durable Object, which runs it (memory-object.ts).
 *
 * | method and path | body | answer |
 * |---|---|---|
 * | `POST /v1/namespaces/:ns/memories` | an observation, `{observations: [...]}` or `[...]` | 201 `{namespace, added, results}` |
 * | `GET /v1/namespaces/:ns/memories?limit=&cursor=&filter=&userId=&agentId=&sessionId=` | (`filter`: URL-encoded JSON `MemoryFilter`) | 200 `{memories, cursor?}` (`list`: insertion order, no embeddings) |
 * | `GET /v1/namespaces/:ns/memories/:id?userId=&agentId=&sessionId=` | | 200 the memory without its embedding, 404 when absent or outside the scope |
 * | `PUT /v1/namespaces/:ns/memories/:id?userId=&agentId=&sessionId=` | an observation (the new version) | 200 `{namespace, result}` (`update`), 404 when absent or outside the scope |
 * | `GET /v1/namespaces/:ns/memories/:id/history?userId=&agentId=&sessionId=` | | 200 `{versions}` (`history`, oldest first), 404 as get |
 * | `POST /v1/namespaces/:ns/recall` | `{query, k?, after?, before?, filter?, scope?, minScore?}` | 200 `{memories, trace}` (each memory with `observedAtLocal` and resolved `timeRefs`) |
 * | `POST /v1/namespaces/:ns/answer` | `{query, k?, now?, filter?, scope?, minScore?}` | 200 `{text, memories, trace, systemTwo}` |
 * | `GET /v1/namespaces/:ns/export?filter=&userId=&agentId=&sessionId=` | | 200 the export file (`jev-mem/export`) of the selection |
 * | `GET /v1/namespaces/:ns` or `GET /v1/namespaces/:ns/stats` | | 200 the namespace's counts (`stats`) |
 * | `DELETE /v1/namespaces/:ns/memories/:id?userId=&agentId=&sessionId=` | | 200 `{deleted: true, id}`, 404 when absent or outside the scope |
 * | `DELETE /v1/namespaces/:ns` | | 200 `{deleted: true, namespace}` |
 *
 * The query parameters `userId`, `agentId`, `sessionId` are the memory's `options.scope`
 * (`MemoryScope`): a memory of another scope answers exactly as an unknown id (404), so a server
 * that keeps several users in one namespace passes the user's scope on every call. Any other
 * query parameter, a parameter given twice, and a body on a route that takes none are refused
 * (400 naming it): an ignored `?userId=` would act on every user's memories.
 *
 * Errors are `{error: {code, message, field?}}` with the JevMemError code: 400 bad JSON or input
 * (the field named), 401 missing or wrong token, 404 unknown route or memory, 405 wrong method
 * (with `Allow`), 413 body over `JEV_MEM_MAX_BODY_BYTES` or batch over `JEV_MEM_MAX_BATCH`, 501
 * `/answer` without System Two, 502/504 System Two failed, 500 anything else. A response never
 * carries a stack trace: unexpected errors answer "internal error" and go to the Worker's log.
 *
 * @module
 */
import { MAX_RECALL_K } from '../config.js';
import { JevMemError, isJevMemError, type JevMemErrorCode } from '../errors.js';
import { checkScopeValue } from '../memory/input.js';
import { checkNamespaceName } from '../plane/store/names.js';
import { quoteVisible, showInvisible } from '../util/invisible.js';
import type { Observation } from '../types.js';
import { readEdgeConfig, tokensFor, type EdgeConfig, type EdgeEnv } from './env.js';

/** A namespace as it may appear in a path: URL-unreserved characters, 1-128 of them. */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

/** Name of the route an HTTP request matched. */
export type RouteName = 'add' | 'list' | 'getMemory' | 'updateMemory' | 'history' | 'recall' | 'answer' | 'export' | 'stats' | 'deleteMemory' | 'dropNamespace';

/** A matched route. */
export interface Route {
  name: RouteName;
  /** The raw namespace path segment (checked by {@link checkNamespace}). */
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
  | { op: 'add'; namespace: string; observations: Observation[]; single: boolean }
  | ({ op: 'list'; namespace: string; limit?: number; cursor?: string; filter?: Record<string, unknown> } & Scoped)
  | ({ op: 'getMemory'; namespace: string; id: string } & Scoped)
  | ({ op: 'updateMemory'; namespace: string; id: string; observation: Observation } & Scoped)
  | ({ op: 'history'; namespace: string; id: string } & Scoped)
  | ({ op: 'recall'; namespace: string; query: string; k?: number; after?: string; before?: string } & Selection)
  | ({ op: 'answer'; namespace: string; query: string; k?: number; now?: string } & Selection)
  | ({ op: 'export'; namespace: string; filter?: Record<string, unknown> } & Scoped)
  | { op: 'stats'; namespace: string }
  | ({ op: 'deleteMemory'; namespace: string; id: string } & Scoped)
  | { op: 'dropNamespace'; namespace: string };

/**
 * The scope of a route that takes it in its query (`userId`, `agentId`, `sessionId`, each checked
 * as the write path checks a scope value): passed to the memory as `options.scope`.
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

function invalid(field: string, message: string): JevMemError {
  return new JevMemError('INVALID_INPUT', `${field}: ${message}`, { field });
}

/**
 * Checks a namespace path segment: the namespace rule of every store (plane/store/names.ts), and
 * on top of it the URL-safe {@link NAMESPACE_PATTERN}.
 * @throws JevMemError `INVALID_INPUT` (field `namespace`, invisible characters escaped in the
 *   message) unless it passes both.
 */
export function checkNamespace(segment: string): string {
  checkNamespaceName(segment, 'namespace');
  if (!NAMESPACE_PATTERN.test(segment)) {
    throw invalid('namespace', `expected 1-128 characters of A-Z a-z 0-9 . _ ~ - starting with a letter or digit, got ${quoteVisible(segment, 140)}`);
  }
  return segment;
}

/**
 * Reads a request body as UTF-8 text, refusing more than `maxBytes` (by `Content-Length` when
 * given, else while streaming).
 * @throws JevMemError `TOO_LARGE` (field `body`; HTTP 413).
 */
export async function readBody(request: Request, maxBytes: number): Promise<string> {
  const tooLarge = (seen: string): JevMemError =>
    new JevMemError('TOO_LARGE', `request body is ${seen} bytes, the limit is ${maxBytes} (JEV_MEM_MAX_BODY_BYTES); send fewer observations per request`, { field: 'body' });
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared) && Number(declared) > maxBytes) throw tooLarge(declared);
  if (request.body === null) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(`more than ${maxBytes}`);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalid('body', 'is not valid UTF-8');
  }
}

/**
 * Parses a JSON body (a UTF-8 byte-order mark is already dropped by the body's decoder).
 * @throws JevMemError `INVALID_INPUT` (field `body`) naming the problem: empty, or not JSON with
 *   the parser's reason, invisible characters in it escaped.
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') throw invalid('body', 'is empty; expected a JSON object');
  try {
    return JSON.parse(text);
  } catch (e) {
    throw invalid('body', `is not valid JSON (${showInvisible(e instanceof Error ? e.message : String(e))})`);
  }
}

function plainObject(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid(field, `expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

function onlyKeys(obj: Record<string, unknown>, allowed: readonly string[], field: string): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) throw invalid(field === 'body' ? key : `${field}.${key}`, `unknown field; expected ${allowed.join(', ')}`);
  }
}

function queryOf(body: Record<string, unknown>): string {
  if (typeof body.query !== 'string' || body.query.trim() === '') throw invalid('query', `expected a non-empty string, got ${JSON.stringify(body.query) ?? 'nothing'}`);
  return body.query;
}

function kOf(body: Record<string, unknown>): number | undefined {
  if (body.k === undefined) return undefined;
  if (typeof body.k !== 'number' || !Number.isInteger(body.k) || body.k < 1 || body.k > MAX_RECALL_K) throw invalid('k', `expected an integer from 1 to ${MAX_RECALL_K}, got ${JSON.stringify(body.k)}`);
  return body.k;
}

/** The `filter`, `scope` and `minScore` of a `/recall` or `/answer` body (shapes only). */
function selectionOf(obj: Record<string, unknown>): Selection {
  const out: Selection = {};
  if (obj.filter !== undefined) out.filter = plainObject(obj.filter, 'filter');
  if (obj.scope !== undefined) out.scope = plainObject(obj.scope, 'scope');
  if (obj.minScore !== undefined) {
    if (typeof obj.minScore !== 'number' || !(obj.minScore >= 0 && obj.minScore <= 1)) throw invalid('minScore', `expected a number from 0 to 1, got ${JSON.stringify(obj.minScore)}`);
    out.minScore = obj.minScore;
  }
  return out;
}

/** The memory id of a route, percent-decoded. @throws JevMemError `INVALID_INPUT` (field `id`). */
function idOf(route: Route): string {
  let id: string;
  try {
    id = decodeURIComponent(route.memoryId ?? '');
  } catch {
    throw invalid('id', 'is not a valid percent-encoded path segment');
  }
  if (id === '' || id.length > 200) throw invalid('id', 'expected 1-200 characters');
  return id;
}

/** The query parameters that give a route's scope (`MemoryScope`). */
export const SCOPE_PARAMS = ['userId', 'agentId', 'sessionId'] as const;
/** Query parameters of each route that takes any (the others take none). */
const QUERY_PARAMS: Partial<Record<RouteName, readonly string[]>> = {
  list: ['limit', 'cursor', 'filter', ...SCOPE_PARAMS],
  export: ['filter', ...SCOPE_PARAMS],
  getMemory: SCOPE_PARAMS,
  updateMemory: SCOPE_PARAMS,
  history: SCOPE_PARAMS,
  deleteMemory: SCOPE_PARAMS,
};

/**
 * Refuses a query parameter the route does not take, or one given twice.
 * @throws JevMemError `INVALID_INPUT` naming the parameter.
 */
function checkQuery(name: RouteName, query: URLSearchParams): void {
  const allowed = QUERY_PARAMS[name] ?? [];
  const seen = new Set<string>();
  for (const key of query.keys()) {
    if (!allowed.includes(key)) {
      throw invalid(key, allowed.length === 0 ? 'unknown query parameter; this route takes none' : `unknown query parameter; expected ${allowed.join(', ')}`);
    }
    if (seen.has(key)) throw invalid(key, 'given more than once; give each query parameter at most once');
    seen.add(key);
  }
}

/**
 * The scope of a query (`userId`, `agentId`, `sessionId`), or nothing when none is given.
 * @throws JevMemError `INVALID_INPUT` naming the parameter: empty; a `userId` / `agentId` also
 *   over 256 characters or with a control character (the write path's rule for scope values).
 */
function scopeOfQuery(query: URLSearchParams): Scoped {
  const scope: NonNullable<Scoped['scope']> = {};
  for (const key of SCOPE_PARAMS) {
    const v = query.get(key);
    if (v === null) continue;
    // A sessionId is any non-empty string (as written: write/validate.ts); userId / agentId follow the scope-value rule.
    if (key !== 'sessionId') scope[key] = checkScopeValue(v, key);
    else if (v.trim() !== '') scope[key] = v;
    else throw invalid(key, 'expected a non-empty string');
  }
  return Object.keys(scope).length > 0 ? { scope } : {};
}

/** The `filter` query parameter: URL-encoded JSON of a `MemoryFilter` (its shape is the memory's to check). */
function filterOfQuery(query: URLSearchParams): { filter?: Record<string, unknown> } {
  const filter = query.get('filter');
  if (filter === null) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(filter);
  } catch (e) {
    throw invalid('filter', `is not valid JSON (${showInvisible(e instanceof Error ? e.message : String(e))})`);
  }
  return { filter: plainObject(parsed, 'filter') };
}

/** The query of `GET …/memories`: `limit` (1-1000), `cursor`, `filter` (JSON object), the scope. */
function listOf(namespace: string, query: URLSearchParams): Operation {
  const op: Operation & { op: 'list' } = { op: 'list', namespace, ...filterOfQuery(query), ...scopeOfQuery(query) };
  const limit = query.get('limit');
  if (limit !== null) {
    if (!/^\d{1,4}$/.test(limit) || Number(limit) < 1 || Number(limit) > 1000) throw invalid('limit', `expected an integer from 1 to 1000, got ${JSON.stringify(limit)}`);
    op.limit = Number(limit);
  }
  const cursor = query.get('cursor');
  if (cursor !== null) op.cursor = cursor;
  return op;
}

/**
 * Turns a matched route and its parsed body into an {@link Operation}, checking the body's
 * shape (observations themselves are checked by the write path, which names the field) and the
 * query's: `list` reads `limit`, `cursor`, `filter`; `export` `filter`; `list`, `export` and the
 * id routes (get, update, history, delete) the scope `userId`, `agentId`, `sessionId`.
 * @param query - The URL's query; a parameter the route does not take is refused.
 * @throws JevMemError `INVALID_INPUT` naming the field or query parameter (also a parameter
 *   given twice, and a scope value that is empty, or a `userId` / `agentId` over 256
 *   characters or with a control character), `TOO_LARGE` (status 413) for a batch over `maxBatch`.
 */
export function toOperation(route: Route, namespace: string, body: unknown, maxBatch: number, query: URLSearchParams = new URLSearchParams()): Operation {
  checkQuery(route.name, query);
  switch (route.name) {
    case 'list':
      return listOf(namespace, query);
    case 'getMemory':
      return { op: 'getMemory', namespace, id: idOf(route), ...scopeOfQuery(query) };
    case 'history':
      return { op: 'history', namespace, id: idOf(route), ...scopeOfQuery(query) };
    case 'updateMemory':
      return { op: 'updateMemory', namespace, id: idOf(route), observation: plainObject(body, 'observation') as unknown as Observation, ...scopeOfQuery(query) };
    case 'add': {
      let observations: unknown;
      let single = false;
      if (Array.isArray(body)) observations = body;
      else {
        const obj = plainObject(body, 'body');
        if ('observations' in obj) {
          onlyKeys(obj, ['observations'], 'body');
          observations = obj.observations;
          if (!Array.isArray(observations)) throw invalid('observations', 'expected an array of observations');
        } else {
          observations = [obj];
          single = true;
        }
      }
      const list = observations as unknown[];
      if (list.length === 0) throw invalid('observations', 'expected at least one observation');
      if (list.length > maxBatch) {
        throw new JevMemError('TOO_LARGE', `observations: ${list.length} in one request, the limit is ${maxBatch} (JEV_MEM_MAX_BATCH); split the batch`, { field: 'observations' });
      }
      list.forEach((o, i) => plainObject(o, single ? 'observation' : `observations[${i}]`));
      return { op: 'add', namespace, observations: list as Observation[], single };
    }
    case 'recall': {
      const obj = plainObject(body, 'body');
      onlyKeys(obj, ['query', 'k', 'after', 'before', 'filter', 'scope', 'minScore'], 'body');
      const op: Operation & { op: 'recall' } = { op: 'recall', namespace, query: queryOf(obj), ...selectionOf(obj) };
      const k = kOf(obj);
      if (k !== undefined) op.k = k;
      for (const key of ['after', 'before'] as const) {
        const b = obj[key];
        if (b === undefined) continue;
        // The memory checks the value itself (INVALID_INPUT, options.after / options.before).
        if (typeof b !== 'string' || b.trim() === '') throw invalid(key, `expected an ISO-8601 date or instant, got ${JSON.stringify(b)}`);
        op[key] = b;
      }
      return op;
    }
    case 'answer': {
      const obj = plainObject(body, 'body');
      onlyKeys(obj, ['query', 'k', 'now', 'filter', 'scope', 'minScore'], 'body');
      const op: Operation = { op: 'answer', namespace, query: queryOf(obj), ...selectionOf(obj) };
      const k = kOf(obj);
      if (k !== undefined) op.k = k;
      if (obj.now !== undefined) {
        if (typeof obj.now !== 'string' || obj.now.trim() === '') throw invalid('now', `expected a date string, got ${JSON.stringify(obj.now)}`);
        op.now = obj.now;
      }
      return op;
    }
    case 'export':
      return { op: 'export', namespace, ...filterOfQuery(query), ...scopeOfQuery(query) };
    case 'stats':
      return { op: 'stats', namespace };
    case 'dropNamespace':
      return { op: 'dropNamespace', namespace };
    case 'deleteMemory':
      return { op: 'deleteMemory', namespace, id: idOf(route), ...scopeOfQuery(query) };
  }
}

/** HTTP status of each error code. */
const STATUS: Partial<Record<JevMemErrorCode, number>> = {
  INVALID_INPUT: 400,
  INVALID_OPTION: 400,
  SYSTEM_ONE_INVALID_REQUEST: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  ENCODER_MISMATCH: 409,
  SCHEMA_MISMATCH: 409,
  TOO_LARGE: 413,
  SYSTEM_TWO_NOT_CONFIGURED: 501,
  SYSTEM_TWO_HTTP: 502,
  SYSTEM_TWO_BAD_RESPONSE: 502,
  SYSTEM_TWO_TIMEOUT: 504,
  SYSTEM_ONE_FAILED: 502,
  CLOSED: 503,
  ABORTED: 503,
  QUOTA_EXCEEDED: 507,
};

/** The 501 message of `/answer` without System Two: the Worker's variables and how to set them (edge/env.ts). */
const SYSTEM_TWO_NOT_CONFIGURED_MESSAGE =
  '/answer needs System Two, which this Worker does not configure: set JEV_MEM_LLM_BASE_URL (an OpenAI-compatible base URL, e.g. https://api.openai.com/v1) ' +
  'and JEV_MEM_LLM_MODEL under [vars] in wrangler.toml (or `wrangler deploy --var JEV_MEM_LLM_MODEL:<name>`), and the key with ' +
  '`wrangler secret put JEV_MEM_LLM_API_KEY` when the endpoint needs one; /recall works without System Two';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } as const;

/** A JSON response. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/**
 * The error response of any thrown value: a JevMemError answers its code, message and field with
 * the status of its code; anything else answers 500 "internal error" (and is logged), so no stack
 * trace or foreign message reaches the client. An error whose `details.httpStatus` is set answers
 * that status (the Worker's own configuration errors set 500: they are the server's fault).
 */
export function errorResponse(error: unknown, log: (message: string, error: unknown) => void = defaultLog): Response {
  if (isJevMemError(error)) {
    const own = error.details.httpStatus;
    const status = typeof own === 'number' && own >= 400 && own <= 599 ? own : STATUS[error.code] ?? 500;
    if (status >= 500 && status !== 501) log(`jev-mem: ${error.code}: ${error.message}`, error);
    // The library's advice (options.systemTwo for createMemory) is no setting of a Worker: name its variables.
    const message = error.code === 'SYSTEM_TWO_NOT_CONFIGURED' ? SYSTEM_TWO_NOT_CONFIGURED_MESSAGE : error.message;
    const body: { code: string; message: string; field?: string } = { code: error.code, message };
    if (error.field !== undefined) body.field = error.field;
    return jsonResponse(status, { error: body });
  }
  log(`jev-mem: unexpected error: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`, error);
  return jsonResponse(500, { error: { code: 'INTERNAL', message: 'internal error; see the Worker logs' } });
}

function defaultLog(message: string): void {
  console.error(message);
}

/** SHA-256 of a string (to compare tokens in constant time over equal lengths). */
async function digest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

/**
 * True when the request's `Authorization: Bearer <token>` matches one of `tokens`. Compares
 * SHA-256 digests byte by byte without an early exit, so the time does not depend on where a
 * wrong token differs.
 */
export async function bearerMatches(request: Request, tokens: readonly string[]): Promise<boolean> {
  const header = request.headers.get('authorization');
  const m = header === null ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (m === null || tokens.length === 0) return false;
  const given = await digest(m[1] as string);
  let ok = false;
  for (const token of tokens) {
    const want = await digest(token);
    let diff = 0;
    for (let i = 0; i < want.length; i++) diff |= (want[i] as number) ^ (given[i] as number);
    ok = ok || diff === 0;
  }
  return ok;
}

/** The part of a Durable Object namespace binding the front uses. */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown;
  get(id: never): { fetch(request: Request): Promise<Response> };
}

/** Options of {@link createEdgeHandler}. */
export interface EdgeHandlerOptions {
  /**
   * Name of the Durable Object namespace binding of the memory objects.
   * @default 'JEV_MEM'
   */
  binding?: string;
  /** Where server-side errors (5xx but 501) are logged, with the error. @default console.error of the message */
  log?: (message: string, error: unknown) => void;
}

/** The URL the front uses for operations sent to a Durable Object (never leaves Cloudflare). */
export const OPERATION_URL = 'https://jev-mem.internal/operation';

const configCache = new WeakMap<object, EdgeConfig | JevMemError>();

/** The checked configuration of `env`, computed once per env object. */
export function configOf(env: EdgeEnv): EdgeConfig {
  let c = configCache.get(env);
  if (c === undefined) {
    try {
      c = readEdgeConfig(env);
    } catch (e) {
      c = isJevMemError(e) ? e : new JevMemError('INVALID_OPTION', String(e), { httpStatus: 500 });
    }
    configCache.set(env, c);
  }
  if (c instanceof JevMemError) throw c;
  return c;
}

/**
 * Creates the Worker's fetch handler (the front): matches the route, checks the namespace, the
 * bearer token (per namespace: `JEV_MEM_TOKENS[ns]`, or `JEV_MEM_TOKEN` for all), the body size
 * and shape, then sends the {@link Operation} to the Durable Object named by the namespace and
 * passes its answer on.
 *
 * @example
 * ```ts
 * export default createEdgeHandler();
 * ```
 */
export function createEdgeHandler(options: EdgeHandlerOptions = {}): { fetch(request: Request, env: EdgeEnv): Promise<Response> } {
  const bindingName = options.binding ?? 'JEV_MEM';
  const log = options.log ?? defaultLog;
  async function handle(request: Request, env: EdgeEnv): Promise<Response> {
    try {
      const url = new URL(request.url);
      const match = matchRoute(request.method, url.pathname);
      if ('status' in match) {
        const shown = url.pathname.length > 200 ? `${url.pathname.slice(0, 200)}…` : url.pathname;
        if (match.status === 405) {
          return jsonResponse(405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${request.method} is not allowed on ${shown}; use ${match.allow.join(' or ')}` } }, { allow: match.allow.join(', ') });
        }
        return jsonResponse(404, { error: { code: 'NOT_FOUND', message: `no route ${request.method} ${shown}; see docs/edge.md for the API` } });
      }
      const route = match.route;
      const config = configOf(env);
      const namespace = checkNamespace(route.namespace);
      const tokens = tokensFor(config, namespace);
      if (tokens.length === 0 && config.globalTokens.length === 0 && config.namespaceTokens.size === 0) {
        throw new JevMemError('INVALID_OPTION', 'the Worker has no token configured: set the JEV_MEM_TOKEN secret (or JEV_MEM_TOKENS)', { field: 'JEV_MEM_TOKEN', httpStatus: 500 });
      }
      if (!(await bearerMatches(request, tokens))) {
        const message = request.headers.has('authorization') ? `the bearer token is not valid for namespace ${JSON.stringify(namespace)}` : 'missing Authorization: Bearer <token> header';
        return jsonResponse(401, { error: { code: 'UNAUTHORIZED', message } }, { 'www-authenticate': 'Bearer realm="jev-mem"' });
      }
      const hasBody = route.name === 'add' || route.name === 'updateMemory' || route.name === 'recall' || route.name === 'answer';
      const text = await readBody(request, config.maxBodyBytes);
      // A body on a route that takes none (a DELETE with {"userId": …}) would be ignored, and the
      // call would act on every user's memory: refused, pointing at the query parameters.
      if (!hasBody && text.trim() !== '') {
        const params = QUERY_PARAMS[route.name];
        throw invalid('body', params === undefined ? 'this route takes no body' : `this route takes no body; give its options as query parameters (${params.join(', ')})`);
      }
      const body = hasBody ? parseJsonBody(text) : undefined;
      const operation = toOperation(route, namespace, body, config.maxBatch, url.searchParams);
      const binding = env[bindingName] as DurableObjectNamespaceLike | undefined;
      if (binding === undefined || typeof binding.idFromName !== 'function') {
        throw new JevMemError('INVALID_OPTION', `the Worker has no Durable Object binding ${bindingName}; declare it in wrangler.toml [[durable_objects.bindings]]`, { field: 'binding', httpStatus: 500 });
      }
      const stub = binding.get(binding.idFromName(namespace) as never);
      const answer = await stub.fetch(new Request(OPERATION_URL, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(operation) }));
      return new Response(answer.body, { status: answer.status, headers: { ...JSON_HEADERS } });
    } catch (e) {
      return errorResponse(e, log);
    }
  }
  return {
    async fetch(request, env) {
      const cors = corsHeaders(request, env);
      if (request.method === 'OPTIONS') {
        // A broken configuration answers its error to a preflight too, so the mistake is visible.
        try {
          configOf(env);
        } catch (e) {
          return errorResponse(e, log);
        }
        return preflight(request, cors);
      }
      const response = await handle(request, env);
      for (const [name, value] of Object.entries(cors)) response.headers.set(name, value);
      return response;
    },
  };
}

/**
 * The CORS headers for a request whose `Origin` is allowed by `JEV_MEM_CORS_ORIGINS` (Fetch
 * standard, CORS protocol); none when the origin is absent or not allowed, or the configuration
 * is broken (the request itself then answers the configuration error).
 */
export function corsHeaders(request: Request, env: EdgeEnv): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null) return {};
  let allowed: readonly string[];
  try {
    allowed = configOf(env).corsOrigins;
  } catch {
    return {};
  }
  if (allowed[0] === '*') return { 'access-control-allow-origin': '*' };
  return allowed.includes(origin) ? { 'access-control-allow-origin': origin, vary: 'Origin' } : {};
}

/**
 * Answers an `OPTIONS` request: 404 for an unknown path; else 204 with `Allow`, and, for an
 * allowed origin, the CORS preflight grant (the route's methods, the `authorization` and
 * `content-type` request headers, cached for a day). A browser refuses the real request when
 * the grant is missing.
 */
function preflight(request: Request, cors: Record<string, string>): Response {
  const url = new URL(request.url);
  const match = matchRoute('OPTIONS', url.pathname);
  if (!('status' in match) || match.status !== 405) {
    return jsonResponse(404, { error: { code: 'NOT_FOUND', message: 'no route at this path; see docs/edge.md for the API' } }, cors);
  }
  const methods = [...match.allow, 'OPTIONS'].join(', ');
  const grant: Record<string, string> = 'access-control-allow-origin' in cors ? { 'access-control-allow-methods': methods, 'access-control-allow-headers': 'authorization, content-type', 'access-control-max-age': '86400' } : {};
  return new Response(null, { status: 204, headers: { allow: methods, ...cors, ...grant } });
}
