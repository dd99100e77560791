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
 * | `POST /v1/namespaces/:ns/recall` | `{query, k?, after?, before?, now?, filter?, scope?, minScore?}` | 200 `{memories, trace}` (each memory with `observedAtLocal` and resolved `timeRefs`) |
 * | `POST /v1/namespaces/:ns/answer` | `{query, k?, now?, filter?, scope?, minScore?}` | 200 `{text, memories, trace, systemTwo}` |
 *
 * `now` is the question's date (`RecallOptions.now`): an ISO-8601 date or instant, or epoch ms,
 * that "last month" and questions about the present are read against (default: the memory's
 * clock); a bad one answers 400 naming `now`. `/answer` also takes a free-form string, which only
 * goes to the prompt as "today".
 * | `GET /v1/namespaces/:ns/export?filter=&userId=&agentId=&sessionId=` | | 200 the export file (`jev-mem/export`) of the selection |
 * | `GET /v1/namespaces/:ns` or `GET /v1/namespaces/:ns/stats` | | 200 the namespace's counts (`stats`) |
 * | `DELETE /v1/namespaces/:ns/memories/:id?userId=&agentId=&sessionId=` | | 200 `{deleted: true, id}`, 404 when absent or outside the scope |
 * | `DELETE /v1/namespaces/:ns` | | 200 `{deleted: true, namespace}` |
 *
 * The query parameters `userId`, `agentId`, `sessionId` are the memory's `options.scope`
 * (`MemoryScope`): a memory of another scope answers exactly as an unknown id (404), so a server
 * that keeps several users in one namespace passes the user's scope on every call, or gives each
 * user a token bound to their scope, which then acts only inside it (bound-scope.ts). Any other
 * query parameter, a parameter given twice, and a body on a route that takes none are refused
 * (400 naming it): an ignored `?userId=` would act on every user's memories.
 *
 * Errors are `{error: {code, message, field?}}` with the JevMemError code: 400 bad JSON or input
 * (the field named), 401 missing or wrong token, 403 a token bound to one user (`JEV_MEM_TOKENS`
 * `{token, userId, agentId?}`) naming another scope or asking for `stats` / the namespace's
 * `DELETE` (bound-scope.ts), 404 unknown route or memory, 405 wrong method
 * (with `Allow`), 413 body over `JEV_MEM_MAX_BODY_BYTES` or batch over `JEV_MEM_MAX_BATCH`, 501
 * `/answer` without System Two, 502/504 System Two failed, 500 anything else. A response never
 * carries a stack trace: unexpected errors answer "internal error" and go to the Worker's log.
 *
 * Routes are matched in routes.ts and requests checked in http-input.ts; this module answers
 * (status of each error code, JSON responses, CORS), checks the bearer token and runs the front.
 *
 * @module
 */
import { JevMemError, isJevMemError, type JevMemErrorCode } from '../errors.js';
import { bindOperation } from './bound-scope.js';
import { boundTokensFor, hasNoToken, readEdgeConfig, tokensFor, type BoundScope, type EdgeConfig, type EdgeEnv } from './env.js';
import { checkNamespace, parseJsonBody, readBody, refuseBody, toOperation } from './http-input.js';
import { matchRoute } from './routes.js';

export { NAMESPACE_PATTERN, SCOPE_PARAMS, checkNamespace, parseJsonBody, readBody, toOperation } from './http-input.js';
export { matchRoute, type Operation, type Route, type RouteMatch, type RouteName, type Scoped, type Selection } from './routes.js';

/** HTTP status of each error code. */
const STATUS: Partial<Record<JevMemErrorCode, number>> = {
  INVALID_INPUT: 400,
  INVALID_OPTION: 400,
  SYSTEM_ONE_INVALID_REQUEST: 400,
  NOT_FOUND: 404,
  CONFLICT: 409,
  ENCODER_MISMATCH: 409,
  LANGUAGE_MISMATCH: 409,
  SCHEMA_MISMATCH: 409,
  FORBIDDEN: 403,
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
 * The index in `tokens` of the request's `Authorization: Bearer <token>`, or -1 when it has none
 * or it matches none. Compares SHA-256 digests byte by byte against every token without an early
 * exit, so the time does not depend on where a wrong token differs.
 */
async function bearerIndex(request: Request, tokens: readonly string[]): Promise<number> {
  const header = request.headers.get('authorization');
  const m = header === null ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (m === null || tokens.length === 0) return -1;
  const given = await digest(m[1] as string);
  let found = -1;
  for (let t = 0; t < tokens.length; t++) {
    const want = await digest(tokens[t] as string);
    let diff = 0;
    for (let i = 0; i < want.length; i++) diff |= (want[i] as number) ^ (given[i] as number);
    if (diff === 0 && found < 0) found = t;
  }
  return found;
}

/**
 * True when the request's `Authorization: Bearer <token>` matches one of `tokens` (compared in
 * constant time over the digests, see {@link authenticate}).
 */
export async function bearerMatches(request: Request, tokens: readonly string[]): Promise<boolean> {
  return (await bearerIndex(request, tokens)) >= 0;
}

/** Who a request is: authenticated for the namespace, with the scope of its token when it is bound. */
export interface Caller {
  /** The scope of a bound token (`JEV_MEM_TOKENS` `{token, userId, agentId?}`); absent for an unbound one. */
  scope?: Readonly<BoundScope>;
}

/**
 * Authenticates a request for `namespace` against every token it accepts (`JEV_MEM_TOKEN`, the
 * namespace's unbound and bound `JEV_MEM_TOKENS`), each compared in constant time.
 * @returns the caller (with the bound scope of a bound token), or undefined when the bearer
 *   token is missing or matches none.
 */
export async function authenticate(request: Request, config: EdgeConfig, namespace: string): Promise<Caller | undefined> {
  const plain = tokensFor(config, namespace);
  const bound = boundTokensFor(config, namespace);
  const at = await bearerIndex(request, [...plain, ...bound.map((b) => b.token)]);
  if (at < 0) return undefined;
  return at < plain.length ? {} : { scope: (bound[at - plain.length] as (typeof bound)[number]).scope };
}

/**
 * The 401 of a request {@link authenticate} refused, or the 500 of a Worker with no token at all
 * (it fails closed).
 * @throws JevMemError `INVALID_OPTION` (HTTP 500, field `JEV_MEM_TOKEN`) when no token is configured.
 */
export function unauthorized(request: Request, config: EdgeConfig, namespace: string): Response {
  if (hasNoToken(config)) {
    throw new JevMemError('INVALID_OPTION', 'the Worker has no token configured: set the JEV_MEM_TOKEN secret (or JEV_MEM_TOKENS)', { field: 'JEV_MEM_TOKEN', httpStatus: 500 });
  }
  const message = request.headers.has('authorization') ? `the bearer token is not valid for namespace ${JSON.stringify(namespace)}` : 'missing Authorization: Bearer <token> header';
  return jsonResponse(401, { error: { code: 'UNAUTHORIZED', message } }, { 'www-authenticate': 'Bearer realm="jev-mem"' });
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
      const caller = await authenticate(request, config, namespace);
      if (caller === undefined) return unauthorized(request, config, namespace);
      const hasBody = route.name === 'add' || route.name === 'updateMemory' || route.name === 'recall' || route.name === 'answer';
      const text = await readBody(request, config.maxBodyBytes);
      // A body on a route that takes none (a DELETE with {"userId": …}) would be ignored, and the
      // call would act on every user's memory: refused, pointing at the query parameters.
      if (!hasBody) refuseBody(route.name, text);
      const body = hasBody ? parseJsonBody(text) : undefined;
      // A bound token's request stays inside its scope (403 naming a field that names another).
      const operation = bindOperation(toOperation(route, namespace, body, config.maxBatch, url.searchParams), caller.scope);
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
