/**
 * The request checks of the Worker's HTTP API (http.ts): the namespace path segment, the body
 * (size limit, UTF-8, JSON, the shape of each route's body), the query parameters each route
 * takes (scope, `filter`, `limit`, `cursor`; any other, or one given twice, refused) and the
 * memory id of the path; {@link toOperation} turns a matched route and its checked input into the
 * {@link Operation} the Durable Object runs. Every refusal is a `JevMemError` naming the field or
 * parameter (`INVALID_INPUT`, HTTP 400; `TOO_LARGE`, 413).
 *
 * @module
 */
import { MAX_RECALL_K } from '../config.js';
import { JevMemError } from '../errors.js';
import { checkScopeValue } from '../memory/input.js';
import { checkNamespaceName } from '../plane/store/names.js';
import { parseDateInput } from '../util/date-input.js';
import { quoteVisible, showInvisible } from '../util/invisible.js';
import type { Observation } from '../types.js';
import type { Operation, Route, RouteName, Scoped, Selection } from './routes.js';

/** A namespace as it may appear in a path: URL-unreserved characters, 1-128 of them. */
export const NAMESPACE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,127}$/;

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
      onlyKeys(obj, ['query', 'k', 'after', 'before', 'now', 'filter', 'scope', 'minScore'], 'body');
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
      const now = questionDateOf(obj);
      if (now !== undefined) op.now = now;
      return op;
    }
    case 'answer': {
      const obj = plainObject(body, 'body');
      onlyKeys(obj, ['query', 'k', 'now', 'filter', 'scope', 'minScore'], 'body');
      const op: Operation = { op: 'answer', namespace, query: queryOf(obj), ...selectionOf(obj) };
      const k = kOf(obj);
      if (k !== undefined) op.k = k;
      if (typeof obj.now === 'number') op.now = questionDateOf(obj) as number;
      else if (obj.now !== undefined) {
        if (typeof obj.now !== 'string' || obj.now.trim() === '') throw invalid('now', `expected a date string or epoch milliseconds, got ${JSON.stringify(obj.now)}`);
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

/**
 * The question's date `now` of a `/recall` or `/answer` body (`RecallOptions.now`: the clock
 * "last month" and questions about the present are read against), as given: an ISO-8601 date or
 * instant, or epoch milliseconds; `undefined` when absent.
 * @throws JevMemError `INVALID_INPUT` (field `now`) on any other value, an impossible date or one
 *   out of range (util/date-input.ts, the reader of `after` and `before`).
 */
function questionDateOf(obj: Record<string, unknown>): string | number | undefined {
  const now = obj.now;
  if (now === undefined) return undefined;
  if (typeof now !== 'string' && typeof now !== 'number') throw invalid('now', `expected an ISO-8601 date or instant, or epoch milliseconds, got ${JSON.stringify(now)}`);
  parseDateInput(now, 'now');
  return now;
}

/**
 * Refuses a body on a route that takes none (`text` not blank): it would be ignored, and the
 * call would act on every user's memory; the message points at the route's query parameters.
 * @throws JevMemError `INVALID_INPUT` (field `body`).
 */
export function refuseBody(name: RouteName, text: string): void {
  if (text.trim() !== '') {
    const params = QUERY_PARAMS[name];
    throw invalid('body', params === undefined ? 'this route takes no body' : `this route takes no body; give its options as query parameters (${params.join(', ')})`);
  }
}
