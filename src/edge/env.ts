/**
 * The Worker's configuration from its environment (wrangler `[vars]` and secrets), read once per
 * distinct value set and checked: bearer tokens per namespace, request limits, which System One
 * answers, and System Two (SPEC 7) for `/answer`.
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | `JEV_MEM_TOKEN` | bearer token accepted for every namespace (a secret) | none |
 * | `JEV_MEM_TOKENS` | JSON object: namespace → token or array of tokens (a secret) | none |
 * | `JEV_MEM_MAX_BODY_BYTES` | largest request body, bytes | 1048576 (1 MiB) |
 * | `JEV_MEM_MAX_BATCH` | most observations in one `POST …/memories` | 1000 |
 * | `JEV_MEM_SYSTEM_ONE` | `local` (shipped model, TypeScript kernels), `heuristic` or `remote` | `local` |
 * | `JEV_MEM_SYSTEM_ONE_URL`, `JEV_MEM_SYSTEM_ONE_KEY` | the remote System One (SPEC 5) | none |
 * | `JEV_MEM_LLM_BASE_URL`, `JEV_MEM_LLM_MODEL`, `JEV_MEM_LLM_API_KEY` | System Two, as for the CLI | none (`/answer` → 501) |
 * | `JEV_MEM_CORS_ORIGINS` | comma-separated origins (`https://app.example.com`) whose pages may call the API from a browser, or `*` for any | none (no CORS headers) |
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import type { SystemTwoOptions } from '../system-two/types.js';

/** The Worker environment: bindings, vars and secrets by name. */
export type EdgeEnv = Readonly<Record<string, unknown>>;

/** Which System One a namespace object runs. */
export type EdgeSystemOneKind = 'local' | 'heuristic' | 'remote';

/** The checked configuration. */
export interface EdgeConfig {
  /** Tokens accepted for every namespace. */
  globalTokens: readonly string[];
  /** Tokens accepted for one namespace. */
  namespaceTokens: ReadonlyMap<string, readonly string[]>;
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

function tokenList(value: unknown, name: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  for (const t of list) {
    if (typeof t !== 'string' || t.length < 1) throw badVar(name, 'expected each token to be a non-empty string');
  }
  return list as string[];
}

function parseTokens(env: EdgeEnv): Map<string, string[]> {
  const raw = env.JEV_MEM_TOKENS;
  const out = new Map<string, string[]>();
  if (raw === undefined || raw === null || raw === '') return out;
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw badVar('JEV_MEM_TOKENS', 'expected a JSON object {"<namespace>": "<token>" | ["<token>", …]}, got text that is not JSON');
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw badVar('JEV_MEM_TOKENS', 'expected a JSON object {"<namespace>": "<token>" | ["<token>", …]}');
  for (const [ns, tokens] of Object.entries(value as Record<string, unknown>)) out.set(ns, tokenList(tokens, `JEV_MEM_TOKENS.${ns}`));
  return out;
}

/**
 * Reads and checks the configuration.
 * @throws JevMemError `INVALID_OPTION` naming the variable, with `details.httpStatus` 500 (a bad number, malformed
 *   `JEV_MEM_TOKENS`, an unknown `JEV_MEM_SYSTEM_ONE`, a remote without URL, a System-Two base
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
  const config: EdgeConfig = {
    globalTokens: single === undefined ? [] : [single],
    namespaceTokens: parseTokens(env),
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

/** The tokens accepted for `namespace`: the global ones and the namespace's own. */
export function tokensFor(config: EdgeConfig, namespace: string): readonly string[] {
  return [...config.globalTokens, ...(config.namespaceTokens.get(namespace) ?? [])];
}
