/**
 * The scope a set of memory tools is tied to (`MemoryToolsOptions.scope`): the application
 * fixes the user (and agent, session) once, and every tool call acts inside it whatever the
 * model passes. A model-supplied scope argument that differs is refused as a tool error; the
 * same value is accepted.
 *
 * @module
 */
import { invalidInput, invalidOption, isJevMemError } from '../errors.js';
import { checkScopeValue } from '../memory/input.js';
import { sameNfc } from '../util/nfc.js';
import type { MemoryScope } from '../memory.js';

/** Scope fields a tools' scope may fix. */
const SCOPE_KEYS = ['userId', 'agentId', 'sessionId'] as const;

/**
 * Checks `MemoryToolsOptions.scope`: absent, or an object with at least one of `userId`,
 * `agentId`, `sessionId`, each a non-empty string of at most 256 characters with no invisible
 * character (the memory's own scope rule).
 * @returns a frozen copy, or undefined when absent.
 * @throws JevMemError `INVALID_OPTION` naming the field (`scope`, `scope.userId`, …).
 */
export function checkToolScope(scope: unknown): Readonly<MemoryScope> | undefined {
  if (scope === undefined) return undefined;
  if (scope === null || typeof scope !== 'object' || Array.isArray(scope)) throw invalidOption('scope', 'expected an object { userId?, agentId?, sessionId? }');
  const out: MemoryScope = {};
  for (const key of Object.keys(scope)) {
    if (!(SCOPE_KEYS as readonly string[]).includes(key)) throw invalidOption(`scope.${key}`, `unknown scope field; expected ${SCOPE_KEYS.join(', ')}`);
    const v = (scope as Record<string, unknown>)[key];
    if (v === undefined) continue;
    try {
      out[key as (typeof SCOPE_KEYS)[number]] = checkScopeValue(v, `scope.${key}`);
    } catch (e) {
      if (isJevMemError(e)) throw invalidOption(`scope.${key}`, e.message.replace(/^scope\.\w+: /, ''));
      throw e;
    }
  }
  if (Object.keys(out).length === 0) throw invalidOption('scope', 'give at least one of userId, agentId, sessionId (omit scope for tools that act on every memory)');
  return Object.freeze(out);
}

/** The filter keys that name a scope field (read/filter.ts: `userId` is `provenance.metadata.userId`). */
const FILTER_SCOPE_KEYS: Readonly<Record<string, 'userId' | 'agentId' | 'sessionId'>> = {
  userId: 'userId',
  agentId: 'agentId',
  sessionId: 'sessionId',
  'metadata.userId': 'userId',
  'metadata.agentId': 'agentId',
};

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The first condition of a `MemoryFilter` (read/filter.ts) that selects another value of a
 * fixed scope field: a literal, `$eq` or `$in` value on `userId`, `agentId`, `sessionId` (or
 * `metadata.userId` / `metadata.agentId`), at any depth of `$and` / `$or` / `$not`. A filter is
 * ANDed with the scope anyway, so it cannot reach another scope's memories; naming one is
 * refused rather than answered empty. Malformed filters are left to the memory's own check.
 * @param field - the path of `filter` in the messages (`filter`).
 * @returns the condition's path (`filter.$or[0].userId`) and the scope field, or undefined.
 */
export function filterScopeConflict(filter: unknown, scope: Readonly<MemoryScope>, field: string): { field: string; key: (typeof SCOPE_KEYS)[number] } | undefined {
  if (Array.isArray(filter)) {
    for (let i = 0; i < filter.length; i++) {
      const c = filterScopeConflict(filter[i], scope, `${field}[${i}]`);
      if (c !== undefined) return c;
    }
    return undefined;
  }
  if (!isObject(filter)) return undefined;
  for (const [k, v] of Object.entries(filter)) {
    if (k === '$and' || k === '$or' || k === '$not') {
      const c = filterScopeConflict(v, scope, `${field}.${k}`);
      if (c !== undefined) return c;
      continue;
    }
    const key = FILTER_SCOPE_KEYS[k];
    const want = key === undefined ? undefined : scope[key];
    if (key === undefined || want === undefined) continue;
    const values = isObject(v) ? [v.$eq, ...(Array.isArray(v.$in) ? v.$in : [])] : [v];
    if (values.some((x) => x !== undefined && x !== null && !sameNfc(x, want))) return { field: `${field}.${k}`, key };
  }
  return undefined;
}

/**
 * The arguments of one tool call with the fixed scope in them: each scope field the model gave
 * must equal the fixed one; one it left out is set (the tools read the fields they use:
 * `remember` stores them, the reads select by them, `update` / `forget` / `history` act only on
 * a memory of the scope). A `filter` condition selecting another value of a fixed scope field
 * ({@link filterScopeConflict}) is refused too.
 * @throws JevMemError `INVALID_INPUT` naming the argument (or the filter condition), when it
 *   differs from the scope.
 */
export function bindScope(args: Record<string, unknown>, scope: Readonly<MemoryScope> | undefined): Record<string, unknown> {
  if (scope === undefined) return args;
  const out = { ...args };
  for (const key of SCOPE_KEYS) {
    const want = scope[key];
    if (want === undefined) continue;
    const given = out[key];
    if (given !== undefined && given !== null && !sameNfc(given, want)) throw invalidInput(key, `these tools act only for ${key} ${JSON.stringify(want)}; omit ${key} or pass that value`);
    out[key] = want;
  }
  const c = filterScopeConflict(out.filter, scope, 'filter');
  if (c !== undefined) throw invalidInput(c.field, `these tools act only for ${c.key} ${JSON.stringify(scope[c.key])}; a filter cannot select another ${c.key}`);
  return out;
}
