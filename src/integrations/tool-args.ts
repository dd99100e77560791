/**
 * The arguments of the memory tools (tools.ts), read and checked: each reader takes the tool's
 * arguments object and a key, and throws JevMemError `INVALID_INPUT` naming the argument; the
 * memory's own field paths in the errors it throws are renamed to the tool's arguments
 * ({@link toolField}, {@link asTool}).
 *
 * @module
 */
import { JevMemError, isJevMemError } from '../errors.js';
import type { MemoryFilter, MemoryScope } from '../memory.js';
import type { Observation } from '../types.js';

/** `INVALID_INPUT` naming the tool argument `field`. */
export function bad(field: string, message: string): JevMemError {
  return new JevMemError('INVALID_INPUT', `${field}: ${message}`, { field });
}

/** The arguments of a call as an object: `{}` for none; anything but a plain object is refused. */
export function argsObject(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== 'object' || Array.isArray(args)) throw bad('arguments', 'expected an object');
  return args as Record<string, unknown>;
}

/** A string argument: a non-empty string, or undefined when absent and not `required`. */
export function text(a: Record<string, unknown>, key: string, required: true): string;
export function text(a: Record<string, unknown>, key: string, required: false): string | undefined;
export function text(a: Record<string, unknown>, key: string, required: boolean): string | undefined {
  const v = a[key];
  if (v === undefined || v === null) {
    if (required) throw bad(key, 'is required (a non-empty string)');
    return undefined;
  }
  if (typeof v !== 'string' || v.trim() === '') throw bad(key, `expected a non-empty string, got ${JSON.stringify(v)}`);
  return v;
}

/** An integer argument in [min, max], undefined when absent. */
export function intArg(a: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const v = a[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) throw bad(key, `expected an integer from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return v;
}

/** A finite number argument in [min, max], undefined when absent. */
export function numArg(a: Record<string, unknown>, key: string, min: number, max: number): number | undefined {
  const v = a[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) throw bad(key, `expected a number from ${min} to ${max}, got ${JSON.stringify(v)}`);
  return v;
}

/** A JSON-object argument (`filter`, `metadata`), undefined when absent. */
export function objectArg(a: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
  const v = a[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(key, `expected a JSON object, got ${JSON.stringify(v)}`);
  return v as Record<string, unknown>;
}

/** The scope arguments (`userId`, `agentId`, `sessionId`) of a read, undefined when none is given. */
function scopeOf(a: Record<string, unknown>): MemoryScope | undefined {
  const scope: MemoryScope = {};
  for (const key of ['userId', 'agentId', 'sessionId'] as const) {
    const v = text(a, key, false);
    if (v !== undefined) scope[key] = v;
  }
  return Object.keys(scope).length > 0 ? scope : undefined;
}

/** The scope of an id-addressed tool (`update`, `forget`, `history`): `userId` / `agentId` (and a fixed `sessionId`), as `{ scope }` when one is given. */
export function ownerOf(a: Record<string, unknown>): { scope?: MemoryScope } {
  // sessionId is no argument of these tools: it is here only from MemoryToolsOptions.scope.
  const scope = scopeOf(a);
  return scope !== undefined ? { scope } : {};
}

/** `filter` and scope of a read (recall, answer, list), as the memory's options. */
export function selection(a: Record<string, unknown>): { filter?: MemoryFilter; scope?: MemoryScope } {
  const out: { filter?: MemoryFilter; scope?: MemoryScope } = {};
  const filter = objectArg(a, 'filter');
  if (filter !== undefined) out.filter = filter as MemoryFilter;
  const scope = scopeOf(a);
  if (scope !== undefined) out.scope = scope;
  return out;
}

/**
 * The memory's field path as the tool's argument: `options.filter.$or[1]` → `filter.$or[1]`,
 * `options.scope.userId` and `observation.userId` → `userId`, `options.minScore` → `minScore`.
 */
export function toolField(field: string): string {
  return field.replace(/^options\.scope\./, '').replace(/^options\./, '').replace(/^observation\./, '');
}

/** Runs `f`, renaming the field of an `INVALID_INPUT` it throws to the tool's argument (see {@link toolField}). */
export async function asTool<T>(f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (!isJevMemError(e, 'INVALID_INPUT') || e.field === undefined || toolField(e.field) === e.field) throw e;
    const field = toolField(e.field);
    throw new JevMemError('INVALID_INPUT', e.message.split(e.field).join(field), { ...e.details, field, cause: e });
  }
}

/** The observation the `remember` tool stores: its arguments, `source` and, without `observedAt`, the time `now()`. */
export function observationOf(a: Record<string, unknown>, source: string, now: () => Date): Observation {
  const o: Observation = { text: text(a, 'text', true), source, observedAt: text(a, 'observedAt', false) ?? now().toISOString() };
  const speaker = text(a, 'speaker', false);
  if (speaker !== undefined) o.speaker = speaker;
  const session = text(a, 'sessionId', false);
  if (session !== undefined) o.sessionId = session;
  const role = text(a, 'role', false);
  if (role !== undefined && role !== 'user' && role !== 'assistant') throw bad('role', `expected "user" or "assistant", got ${JSON.stringify(role)}`);
  if (role !== undefined) o.role = role;
  for (const key of ['userId', 'agentId', 'expiresAt'] as const) {
    const v = text(a, key, false);
    if (v !== undefined) o[key] = v;
  }
  const metadata = objectArg(a, 'metadata');
  if (metadata !== undefined) o.metadata = metadata;
  return o;
}
