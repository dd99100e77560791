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

/**
 * The arguments of one tool call with the fixed scope in them: each scope field the model gave
 * must equal the fixed one; one it left out is set (the tools read the fields they use:
 * `remember` stores them, the reads select by them, `update` / `forget` / `history` act only on
 * a memory of the scope).
 * @throws JevMemError `INVALID_INPUT` naming the argument, when it differs from the scope.
 */
export function bindScope(args: Record<string, unknown>, scope: Readonly<MemoryScope> | undefined): Record<string, unknown> {
  if (scope === undefined) return args;
  const out = { ...args };
  for (const key of SCOPE_KEYS) {
    const want = scope[key];
    if (want === undefined) continue;
    const given = out[key];
    if (given !== undefined && given !== null && given !== want) throw invalidInput(key, `these tools act only for ${key} ${JSON.stringify(want)}; omit ${key} or pass that value`);
    out[key] = want;
  }
  return out;
}
