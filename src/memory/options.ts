/**
 * The option keys each public method of `Memory` accepts, and the check that refuses any other
 * (a misspelt or unsupported option such as `scope` on a method that ignored it must never be
 * dropped silently: a `delete(id, { scope })` that ignored its scope erased another user's
 * memory). Also the ownership test of the id-addressed methods (`get`, `delete`, `history`,
 * `update`) under an `options.scope`.
 *
 * @module
 */
import { rejectUnknownKeys } from '../config.js';
import { describeValue, invalidInput, invalidOption } from '../errors.js';
import type { NodePredicate } from '../read/filter.js';
import { selection } from './list.js';

/** Keys of every call's options (`CallOptions`). */
export const CALL_OPTION_KEYS = ['namespace', 'signal'] as const;
/** Keys of `add`. */
export const ADD_OPTION_KEYS = [...CALL_OPTION_KEYS, 'scope'] as const;
/** Keys of `addMany`. */
export const ADD_MANY_OPTION_KEYS = [...ADD_OPTION_KEYS, 'onProgress', 'chunkSize'] as const;
/** Keys of the id-addressed calls that take a scope: `get`, `delete`, `history`, `update`. */
export const SCOPED_ID_OPTION_KEYS = [...CALL_OPTION_KEYS, 'scope'] as const;
/** Keys of `export`. */
export const EXPORT_OPTION_KEYS = [...CALL_OPTION_KEYS, 'scope', 'filter'] as const;
/** Keys of `import`. */
export const IMPORT_OPTION_KEYS = [...CALL_OPTION_KEYS, 'reembed', 'onProgress'] as const;
/** Keys of `list`. */
export const LIST_OPTION_KEYS = [...CALL_OPTION_KEYS, 'cursor', 'limit', 'filter', 'scope'] as const;
/** Keys of `answer` beyond recall's (`RECALL_OPTION_KEYS`, memory/validate.ts). */
export const ANSWER_EXTRA_OPTION_KEYS = ['now', 'onToken'] as const;

/**
 * Checks the options object of a call: absent, or an object with only `allowed` keys.
 * @throws JevMemError `INVALID_OPTION` (field `options` when not an object, else
 *   `options.<key>` naming the first unknown key, with the valid ones).
 */
export function checkOptionKeys(o: unknown, allowed: readonly string[]): void {
  if (o === undefined) return;
  if (o === null || typeof o !== 'object' || Array.isArray(o)) throw invalidOption('options', `expected an object of options, got ${describeValue(o)}`);
  rejectUnknownKeys(o, allowed, 'options');
  checkSignal((o as { signal?: unknown }).signal);
}

/**
 * Checks `options.signal` of a call: absent, or an `AbortSignal` (any object with a boolean
 * `aborted` and `addEventListener`, so a signal of another realm or a polyfill passes). A
 * string or a plain object would otherwise be accepted and never abort.
 * @throws JevMemError `INVALID_OPTION` naming `options.signal`.
 */
export function checkSignal(signal: unknown): void {
  if (signal === undefined) return;
  const s = signal as { aborted?: unknown; addEventListener?: unknown } | null;
  if (s === null || typeof s !== 'object' || typeof s.aborted !== 'boolean' || typeof s.addEventListener !== 'function') {
    throw invalidOption('options.signal', `expected an AbortSignal (e.g. AbortSignal.timeout(5000) or an AbortController's signal), got ${describeValue(signal)}`);
  }
}

/**
 * Checks the `id` argument of an id-addressed call (`get`, `delete`, `history`, `update`,
 * `edges`): a non-empty string. A number or another value would otherwise read as an unknown
 * id (`delete(5)` returned false).
 * @throws JevMemError `INVALID_INPUT` naming `id`.
 */
export function checkIdArgument(id: unknown): asserts id is string {
  if (typeof id !== 'string' || id === '') throw invalidInput('id', `expected a non-empty string, got ${describeValue(id)}`);
}

/**
 * The predicate of `options.scope` of an id-addressed call (`get`, `delete`, `history`,
 * `update`): a node belongs to the scope when each field given equals the node's
 * (`provenance.metadata.userId` / `agentId`, `provenance.sessionId`). Undefined when no scope
 * is given (the call acts on any memory of the namespace).
 * @throws JevMemError `INVALID_INPUT` (`options.scope…`: empty, unknown field, value not a
 *   non-empty string) as for `list` and `recall`.
 */
export function scopePredicate(scope: unknown): NodePredicate | undefined {
  return scope === undefined ? undefined : selection(undefined, scope, 'options.filter', 'options.scope');
}
