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
import { describeValue, invalidOption } from '../errors.js';
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
export const IMPORT_OPTION_KEYS = [...CALL_OPTION_KEYS, 'reembed'] as const;
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
