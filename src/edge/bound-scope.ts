/**
 * Requests of a token bound to one scope (`JEV_MEM_TOKENS` entry `{token, userId, agentId?}`,
 * env.ts): {@link bindOperation} keeps every HTTP operation inside the token's scope before the
 * front sends it to the namespace's Durable Object.
 *
 * - A scope the request gives (query `userId` / `agentId`, the `scope` of `/recall` and
 *   `/answer`, an observation's `userId` / `agentId`, top level or in `metadata`, a `filter`
 *   condition selecting a `userId` / `agentId`) must equal the bound one; another value is
 *   refused with `FORBIDDEN` (HTTP 403) naming the field, never rewritten. A field left out is set.
 * - Writes (`add`) run under the bound scope (`options.scope` of `add` / `addMany`), so every
 *   memory the token writes belongs to its user.
 * - The whole-namespace operations, `stats` (the counts of every user's memories) and `DELETE`
 *   of the namespace, are refused (403): they need an unbound token.
 *
 * The memory then answers a memory of another scope exactly as an unknown id (404), so a bound
 * token cannot learn that another user's memory exists.
 *
 * @module
 */
import { JevMemError } from '../errors.js';
import { filterScopeConflict } from '../integrations/tool-scope.js';
import { sameNfc } from '../util/nfc.js';
import type { BoundScope } from './env.js';
import type { Operation, Scoped } from './routes.js';

/** The scope fields a token may bind. */
const BOUND_KEYS = ['userId', 'agentId'] as const;

function forbidden(field: string, message: string): JevMemError {
  return new JevMemError('FORBIDDEN', `${field}: ${message}`, { field });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Refuses `value` at `field` unless it is absent or the bound `key`'s value. */
function sameOrAbsent(value: unknown, key: (typeof BOUND_KEYS)[number], bound: Readonly<BoundScope>, field: string): void {
  const want = bound[key];
  if (want === undefined || value === undefined || value === null || sameNfc(value, want)) return;
  throw forbidden(field, `this token acts only for ${key} ${JSON.stringify(want)}; omit ${key} or pass that value`);
}

/** A scope object (query scope, `/recall` scope) checked against the bound one, with the bound fields set. */
function boundScopeOf(scope: Record<string, unknown> | undefined, bound: Readonly<BoundScope>, prefix: string): Record<string, unknown> {
  const out: Record<string, unknown> = { ...(scope ?? {}) };
  for (const key of BOUND_KEYS) {
    sameOrAbsent(out[key], key, bound, `${prefix}${key}`);
    if (bound[key] !== undefined) out[key] = bound[key];
  }
  return out;
}

/** An observation's scope fields (top level and `metadata`) checked against the bound scope. */
function checkObservation(o: unknown, bound: Readonly<BoundScope>, field: string): void {
  if (!isObject(o)) return; // the write path names a malformed observation
  for (const key of BOUND_KEYS) {
    sameOrAbsent(o[key], key, bound, `${field}.${key}`);
    if (isObject(o.metadata)) sameOrAbsent(o.metadata[key], key, bound, `${field}.metadata.${key}`);
  }
}

/** Refuses a filter condition selecting another value of a bound field (tool-scope.ts {@link filterScopeConflict}). */
function checkFilter(filter: unknown, bound: Readonly<BoundScope>, field: string): void {
  const c = filterScopeConflict(filter, bound, field);
  if (c !== undefined) throw forbidden(c.field, `this token acts only for ${c.key} ${JSON.stringify(bound[c.key as keyof BoundScope])}; a filter cannot select another ${c.key}`);
}

function describe(bound: Readonly<BoundScope>): string {
  return `userId ${JSON.stringify(bound.userId)}${bound.agentId !== undefined ? ` (agentId ${JSON.stringify(bound.agentId)})` : ''}`;
}

/**
 * The operation a request of a bound token runs: checked against `bound` and kept inside it
 * (see the module note). Without `bound` (an unbound token) the operation is returned as is.
 * @throws JevMemError `FORBIDDEN` (HTTP 403) naming the field that names another scope, or
 *   `authorization` for `stats` and the namespace's `DELETE`.
 */
export function bindOperation(op: Operation, bound: Readonly<BoundScope> | undefined): Operation {
  if (bound === undefined) return op;
  const scoped = <T extends Operation & Scoped>(o: T): T => ({ ...o, scope: boundScopeOf(o.scope, bound, '') as NonNullable<Scoped['scope']> });
  switch (op.op) {
    case 'stats':
    case 'dropNamespace': {
      const what = op.op === 'stats' ? 'the counts of the whole namespace (stats)' : 'the whole namespace (DELETE /v1/namespaces/:ns)';
      throw forbidden('authorization', `this token is bound to ${describe(bound)} and cannot reach ${what}; use an unbound token of the namespace`);
    }
    case 'add':
      op.observations.forEach((o, i) => checkObservation(o, bound, op.single ? 'observation' : `observations[${i}]`));
      return { ...op, scope: { ...bound } };
    case 'updateMemory':
      checkObservation(op.observation, bound, 'observation');
      return scoped(op);
    case 'list':
    case 'export':
      checkFilter(op.filter, bound, 'filter');
      return scoped(op);
    case 'getMemory':
    case 'history':
    case 'deleteMemory':
      return scoped(op);
    case 'recall':
    case 'answer':
      checkFilter(op.filter, bound, 'filter');
      return { ...op, scope: boundScopeOf(op.scope, bound, 'scope.') };
  }
}
