/**
 * What `add` / `addMany` / `update` accept beyond the stored observation shape (issue 23): chat
 * messages `{ role, content, name? }`, the scope fields `userId` / `agentId`, and the expiry
 * `expiresAt`. Each is turned into an ordinary observation before validation
 * (write/validate.ts), so the store keeps one node shape:
 *
 * - a chat message becomes `{ text: content, speaker: name ?? role, role }` (its other fields, such as
 *   `observedAt` or `sessionId`, are kept);
 * - `userId`, `agentId` and `role` are kept in `provenance.metadata` under those keys, `expiresAt` as an
 *   ISO-8601 UTC string under `metadata.expiresAt` (the filter of list and recall names them
 *   `userId`, `agentId`, `expiresAt`, `role`).
 *
 * @module
 */
import { describeValue, invalidInput, isJevMemError } from '../errors.js';
import type { MemoryScope } from './types.js';

/** Largest |epoch ms| a JavaScript Date can hold. */
const MAX_TIME_MS = 8.64e15;

/** Metadata keys the memory writes itself (scope, expiry and the speaker's role). */
export const RESERVED_METADATA_KEYS = ['userId', 'agentId', 'expiresAt', 'role'] as const;

/** A chat message as LLM APIs write it (OpenAI, Anthropic, Vercel AI SDK). */
export interface ChatMessageInput {
  /** `user`, `assistant`, `system`, `tool`, or any label: the speaker when `name` is absent. */
  role: string;
  /** The message text (a string; multi-part contents are not read). */
  content: string;
  /** The speaker's name, over `role`. */
  name?: string;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function checkScopeValue(v: unknown, field: string): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > 256) throw invalidInput(field, `expected a non-empty string of at most 256 characters, got ${describeValue(v)}`);
  return v;
}

/**
 * Reads an expiry: an ISO-8601 instant or date string, a `Date`, or epoch ms.
 * @returns ISO-8601 UTC.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
export function expiryIso(v: unknown, field: string): string {
  let ms: number | undefined;
  if (v instanceof Date) ms = v.getTime();
  else if (typeof v === 'number') ms = v;
  else if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v)) ms = Date.parse(/T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v) ? `${v}Z` : v);
  if (ms === undefined || !Number.isFinite(ms) || Math.abs(ms) > MAX_TIME_MS) throw invalidInput(field, `expected an ISO-8601 date or instant ("2025-01-31T00:00:00Z"), a Date or epoch ms, got ${describeValue(v)}`);
  return new Date(ms).toISOString();
}

/**
 * Turns one input (observation or chat message, with scope fields and expiry) into a plain
 * observation for `checkObservation`. Input that is not an object is passed on unchanged (the
 * validator refuses it naming the field).
 * @param scope - The call's `options.scope`, for fields the input does not give.
 * @throws JevMemError `INVALID_INPUT` naming the field: a chat message with a non-string
 *   `content` or `role`, or with `text` too; a scope field that is not a non-empty string; a
 *   scope field given both at the top level and in `metadata` with different values; an expiry
 *   that cannot be read.
 */
export function toObservation(value: unknown, field: string, scope?: MemoryScope): unknown {
  try {
    return convert(value, field, scope);
  } catch (e) {
    if (isJevMemError(e)) throw e;
    // A getter or proxy that throws while it is read (as checkObservation reports it).
    throw invalidInput(field, `could not be read (${e instanceof Error ? e.message : String(e)}); pass a plain object`);
  }
}

function convert(value: unknown, field: string, scope: MemoryScope | undefined): unknown {
  if (!isPlainObject(value)) return value;
  let o: Record<string, unknown> = { ...value };
  // A chat message has `content`; `role` without `text` is one too (missing its content). An
  // observation may carry `role` beside its `text`.
  let role: unknown = o['role'];
  if ('content' in o || ('role' in o && !('text' in o))) {
    if ('text' in o) throw invalidInput(`${field}.text`, 'give either an observation ({ text }) or a chat message ({ role, content }), not both');
    if (typeof o['role'] !== 'string' || o['role'].trim() === '') throw invalidInput(`${field}.role`, `expected a non-empty string such as "user", got ${describeValue(o['role'])}`);
    if (typeof o['content'] !== 'string') throw invalidInput(`${field}.content`, `expected the message text as a string, got ${describeValue(o['content'])}`);
    if (o['name'] !== undefined && (typeof o['name'] !== 'string' || o['name'].trim() === '')) throw invalidInput(`${field}.name`, `expected a non-empty string, got ${describeValue(o['name'])}`);
    if (o['speaker'] !== undefined) throw invalidInput(`${field}.speaker`, 'a chat message names its speaker with name (or role)');
    const { role: r, content, name, ...rest } = o;
    o = { ...rest, text: content, speaker: (name as string | undefined) ?? r };
    role = r;
  }
  delete o['role'];
  const extras: Record<string, unknown> = {};
  if (role !== undefined) extras['role'] = checkScopeValue(role, `${field}.role`);
  for (const key of ['userId', 'agentId'] as const) {
    const given = o[key] ?? scope?.[key];
    if (given !== undefined) extras[key] = checkScopeValue(given, o[key] !== undefined ? `${field}.${key}` : `options.scope.${key}`);
    delete o[key];
  }
  if (scope?.sessionId !== undefined && o['sessionId'] === undefined) o['sessionId'] = checkScopeValue(scope.sessionId, 'options.scope.sessionId');
  if (o['expiresAt'] !== undefined) extras['expiresAt'] = expiryIso(o['expiresAt'], `${field}.expiresAt`);
  delete o['expiresAt'];
  if (Object.keys(extras).length === 0) return o;
  const meta = o['metadata'];
  if (meta !== undefined && meta !== null && !isPlainObject(meta)) return o; // the validator names it
  const merged: Record<string, unknown> = { ...(meta ?? {}) };
  for (const [k, v] of Object.entries(extras)) {
    if (merged[k] !== undefined && merged[k] !== v) throw invalidInput(`${field}.${k}`, `differs from ${field}.metadata.${k} (${describeValue(merged[k])}); give it once`);
    merged[k] = v;
  }
  o['metadata'] = merged;
  return o;
}
