/**
 * The Worker's configuration from its environment (wrangler `[vars]` and secrets), read once per
 * distinct value set and checked: bearer tokens per namespace, request limits, which System One
 * answers, and System Two (SPEC 7) for `/answer`.
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | `JEV_MEM_TOKEN` | bearer token accepted for every namespace (a secret) | none |
 * | `JEV_MEM_TOKENS` | JSON object: namespace → token, bound token `{"token", "userId", "agentId"?}`, or an array of them (a secret) | none |
 * | `JEV_MEM_MAX_BODY_BYTES` | largest request body, bytes | 1048576 (1 MiB) |
 * | `JEV_MEM_MAX_BATCH` | most observations in one `POST …/memories` | 1000 |
 * | `JEV_MEM_SYSTEM_ONE` | `local` (shipped model, TypeScript kernels), `heuristic` or `remote` | `local` |
 * | `JEV_MEM_SYSTEM_ONE_URL`, `JEV_MEM_SYSTEM_ONE_KEY` | the remote System One (SPEC 5) | none |
 * | `JEV_MEM_LLM_BASE_URL`, `JEV_MEM_LLM_MODEL`, `JEV_MEM_LLM_API_KEY` | System Two, as for the CLI | none (`/answer` → 501) |
 * | `JEV_MEM_CORS_ORIGINS` | comma-separated origins (`https://app.example.com`) whose pages may call the API from a browser, or `*` for any | none (no CORS headers) |
 *
 * A bound token (docs/edge.md, "Tokens bound to a user") acts only inside its scope: every route
 * and MCP tool keeps to its `userId` (and `agentId`), a request naming another is refused (403
 * `FORBIDDEN`), and the whole-namespace routes (`stats`, `DELETE` of the namespace) are refused
 * (bound-scope.ts).
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import { checkScopeValue } from '../memory/input.js';
import type { SystemTwoOptions } from '../system-two/types.js';

/** The Worker environment: bindings, vars and secrets by name. */
export type EdgeEnv = Readonly<Record<string, unknown>>;

/** Which System One a namespace object runs. */
export type EdgeSystemOneKind = 'local' | 'heuristic' | 'remote';

/** The checked configuration. */
export interface EdgeConfig {
  /** Tokens accepted for every namespace. */
  globalTokens: readonly string[];
  /** Unbound tokens accepted for one namespace (every scope of it). */
  namespaceTokens: ReadonlyMap<string, readonly string[]>;
  /** Tokens of one namespace bound to one scope of it (`JEV_MEM_TOKENS` entries `{token, userId, agentId?}`). */
  boundTokens: ReadonlyMap<string, readonly BoundToken[]>;
  /** Largest request body in bytes. */
  maxBodyBytes: number;
  /** Most observations per write request. */
  maxBatch: number;
  systemOne: { kind: EdgeSystemOneKind; url?: string; apiKey?: string };
  /** System Two options, when `JEV_MEM_LLM_BASE_URL` is set. */
  systemTwo?: SystemTwoOptions;
  /** Origins allowed to call the API from a browser (CORS); `['*']` for any; empty for none. */
  corsOrigins: readonly string[];
}

/** The scope a bound token acts in: a `userId`, and an `agentId` when given. */
export interface BoundScope {
  userId: string;
  agentId?: string;
}

/** A token bound to one scope of its namespace. */
export interface BoundToken {
  /** The secret. */
  token: string;
  /** The scope every request with this token acts in (frozen). */
  scope: Readonly<BoundScope>;
}

/** Default largest request body: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1_048_576;
/** Default most observations per write request. */
export const DEFAULT_MAX_BATCH = 1000;

function badVar(name: string, why: string): JevMemError {
  // The server's configuration is at fault, not the request: HTTP 500.
  return new JevMemError('INVALID_OPTION', `Worker variable ${name}: ${why}`, { field: name, httpStatus: 500 });
}

function stringVar(env: EdgeEnv, name: string): string | undefined {
  const v = env[name];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw badVar(name, `expected a string, got ${typeof v}`);
  return v;
}

function positiveVar(env: EdgeEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === null || raw === '') return fallback;
  const n = typeof raw === 'number' ? raw : Number(raw);
  if (!Number.isInteger(n) || n < 1) throw badVar(name, `expected a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/** The shape `JEV_MEM_TOKENS` takes, for its error messages. */
const TOKENS_SHAPE = '{"<namespace>": "<token>" | {"token": "<token>", "userId": "<user>", "agentId"?: "<agent>"} | [ …either… ]}';

/** Keys of a bound token entry. */
const BOUND_KEYS = ['token', 'userId', 'agentId'] as const;

/**
 * One bound token entry `{token, userId, agentId?}` at variable path `path`: the token a
 * non-empty string, the ids under the library's scope-value rule (`checkScopeValue`: non-empty,
 * at most 256 characters, nothing invisible).
 * @throws JevMemError `INVALID_OPTION` (HTTP 500) naming `path.<key>`.
 */
function boundEntry(entry: Record<string, unknown>, path: string): BoundToken {
  for (const key of Object.keys(entry)) {
    if (!(BOUND_KEYS as readonly string[]).includes(key)) throw badVar(`${path}.${key}`, `unknown field; a bound token takes ${BOUND_KEYS.join(', ')}`);
  }
  if (typeof entry.token !== 'string' || entry.token.length < 1) throw badVar(`${path}.token`, 'expected the token, a non-empty string');
  if (entry.userId === undefined) throw badVar(`${path}.userId`, 'a bound token needs the userId it acts for');
  const scope: BoundScope = { userId: scopeId(entry.userId, `${path}.userId`) };
  if (entry.agentId !== undefined) scope.agentId = scopeId(entry.agentId, `${path}.agentId`);
  return { token: entry.token, scope: Object.freeze(scope) };
}

/** A scope id under the library's rule, refused as a bad variable naming `path`. */
function scopeId(value: unknown, path: string): string {
  try {
    return checkScopeValue(value, path);
  } catch (e) {
    if (isJevMemError(e)) throw badVar(path, e.message.slice(path.length + 2));
    throw e;
  }
}

/** The tokens of one namespace entry: a token, a bound token, or an array of either. */
function namespaceEntry(value: unknown, path: string): { plain: string[]; bound: BoundToken[] } {
  const out = { plain: [] as string[], bound: [] as BoundToken[] };
  const list = Array.isArray(value) ? value : [value];
  list.forEach((t, i) => {
    const at = Array.isArray(value) ? `${path}[${i}]` : path;
    if (typeof t === 'string' && t.length > 0) out.plain.push(t);
    else if (t !== null && typeof t === 'object' && !Array.isArray(t)) out.bound.push(boundEntry(t as Record<string, unknown>, at));
    else throw badVar(at, 'expected a non-empty token string or a bound token {"token", "userId", "agentId"?}');
  });
  return out;
}

/**
 * Refuses a bound token of `namespace` whose secret is also another token it accepts (global,
 * unbound, or bound to another entry): the request's scope would be ambiguous.
 */
function refuseSharedSecrets(namespace: string, global: readonly string[], plain: readonly string[], bound: readonly BoundToken[]): void {
  bound.forEach((b, i) => {
    const elsewhere = global.includes(b.token) || plain.includes(b.token) || bound.some((o, j) => j !== i && o.token === b.token);
    if (elsewhere) {
      throw badVar(`JEV_MEM_TOKENS.${namespace}`, `a bound token (userId ${JSON.stringify(b.scope.userId)}) has the same secret as another token of the namespace (or JEV_MEM_TOKEN); give each bound token a secret of its own`);
    }
  });
}

function parseTokens(env: EdgeEnv, global: readonly string[]): { plain: Map<string, string[]>; bound: Map<string, BoundToken[]> } {
  const raw = env.JEV_MEM_TOKENS;
  const out = { plain: new Map<string, string[]>(), bound: new Map<string, BoundToken[]>() };
  if (raw === undefined || raw === null || raw === '') return out;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badVar('JEV_MEM_TOKENS', `expected a JSON object ${TOKENS_SHAPE}, got text that is not JSON`);
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badVar('JEV_MEM_TOKENS', `expected a JSON object ${TOKENS_SHAPE}`);
  for (const [ns, tokens] of Object.entries(value as Record<string, unknown>)) {
    const { plain, bound } = namespaceEntry(tokens, `JEV_MEM_TOKENS.${ns}`);
    refuseSharedSecrets(ns, global, plain, bound);
    if (plain.length > 0 || bound.length === 0) out.plain.set(ns, plain);
    if (bound.length > 0) out.bound.set(ns, bound);
  }
  return out;
}

/**
 * Reads and checks the configuration.
 * @throws JevMemError `INVALID_OPTION` naming the variable, with `details.httpStatus` 500 (a bad number, malformed
 *   `JEV_MEM_TOKENS`: the field path named, as `JEV_MEM_TOKENS.<ns>[1].userId`; a bound token
 *   whose secret another token of its namespace shares; an unknown `JEV_MEM_SYSTEM_ONE`, a remote without URL, a System-Two base
 *   URL without model).
 */
export function readEdgeConfig(env: EdgeEnv): EdgeConfig {
  const single = stringVar(env, 'JEV_MEM_TOKEN');
  const kind = (stringVar(env, 'JEV_MEM_SYSTEM_ONE') ?? 'local') as EdgeSystemOneKind;
  if (!['local', 'heuristic', 'remote'].includes(kind)) throw badVar('JEV_MEM_SYSTEM_ONE', `expected local, heuristic or remote, got ${JSON.stringify(kind)}`);
  const systemOne: EdgeConfig['systemOne'] = { kind };
  if (kind === 'remote') {
    const url = stringVar(env, 'JEV_MEM_SYSTEM_ONE_URL');
    if (url === undefined) throw badVar('JEV_MEM_SYSTEM_ONE_URL', 'the remote System One needs its base URL');
    systemOne.url = url;
    const key = stringVar(env, 'JEV_MEM_SYSTEM_ONE_KEY');
    if (key !== undefined) systemOne.apiKey = key;
  }
  const globalTokens = single === undefined ? [] : [single];
  const tokens = parseTokens(env, globalTokens);
  const config: EdgeConfig = {
    globalTokens,
    namespaceTokens: tokens.plain,
    boundTokens: tokens.bound,
    maxBodyBytes: positiveVar(env, 'JEV_MEM_MAX_BODY_BYTES', DEFAULT_MAX_BODY_BYTES),
    maxBatch: positiveVar(env, 'JEV_MEM_MAX_BATCH', DEFAULT_MAX_BATCH),
    systemOne,
    corsOrigins: parseOrigins(env),
  };
  const base = stringVar(env, 'JEV_MEM_LLM_BASE_URL');
  if (base !== undefined) {
    const model = stringVar(env, 'JEV_MEM_LLM_MODEL');
    if (model === undefined) throw badVar('JEV_MEM_LLM_MODEL', 'must name the model when JEV_MEM_LLM_BASE_URL is set');
    const s2: SystemTwoOptions = { url: `${base.replace(/\/+$/, '')}/chat/completions`, model };
    const key = stringVar(env, 'JEV_MEM_LLM_API_KEY');
    if (key !== undefined) s2.apiKey = key;
    config.systemTwo = s2;
  }
  return config;
}

/** `JEV_MEM_CORS_ORIGINS`: `*`, or comma-separated origins, each written as `scheme://host[:port]`. */
function parseOrigins(env: EdgeEnv): string[] {
  const raw = stringVar(env, 'JEV_MEM_CORS_ORIGINS');
  if (raw === undefined) return [];
  const list = raw.split(',').map((o) => o.trim()).filter((o) => o !== '');
  for (const o of list) {
    if (o === '*') continue;
    let origin: string | undefined;
    try {
      origin = new URL(o).origin;
    } catch {
      origin = undefined;
    }
    if (origin !== o) throw badVar('JEV_MEM_CORS_ORIGINS', `expected * or origins like https://app.example.com (scheme, host and port only), got ${JSON.stringify(o)}`);
  }
  return list.includes('*') ? ['*'] : list;
}

/** The unbound tokens accepted for `namespace`: the global ones and the namespace's own. */
export function tokensFor(config: EdgeConfig, namespace: string): readonly string[] {
  return [...config.globalTokens, ...(config.namespaceTokens.get(namespace) ?? [])];
}

/** The bound tokens of `namespace` (none when it has none). */
export function boundTokensFor(config: EdgeConfig, namespace: string): readonly BoundToken[] {
  return config.boundTokens.get(namespace) ?? [];
}

/** True when the configuration holds no token at all (every request is refused: the Worker fails closed). */
export function hasNoToken(config: EdgeConfig): boolean {
  return config.globalTokens.length === 0 && config.namespaceTokens.size === 0 && config.boundTokens.size === 0;
}
