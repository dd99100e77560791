/**
 * What `add` / `addMany` / `update` accept beyond the stored observation shape (issue 23): chat
 * messages `{ role, content, name? }`, the scope fields `userId` / `agentId`, and the expiry
 * `expiresAt`. Each is turned into an ordinary observation before validation
 * (write/validate.ts), so the store keeps one node shape:
 *
 * - a chat message becomes `{ text: content, speaker: name ?? role, role }` (its other fields, such as
 *   `observedAt` or `sessionId`, are kept); an observation `{ text, role }` without a `speaker`
 *   gets `speaker: role` the same way;
 * - `userId`, `agentId` and `role` are kept in `provenance.metadata` under those keys, `expiresAt` as an
 *   ISO-8601 UTC string under `metadata.expiresAt` (the filter of list and recall names them
 *   `userId`, `agentId`, `expiresAt`, `role`).
 *
 * @module
 */
import { describeValue, invalidInput, isJevMemError } from '../errors.js';
import { parseDateInput } from '../util/date-input.js';
import { hasInvisible, quoteVisible } from '../util/invisible.js';
import { sameNfc } from '../util/nfc.js';
import { METADATA_INPUT_FIELDS, checkSessionId } from '../write/validate.js';
import type { MemoryScope } from './types.js';

/**
 * Metadata keys the memory writes itself (scope, expiry and the speaker's role). Given inside
 * `metadata` they get the checks of the top-level fields of the same name.
 */
export const RESERVED_METADATA_KEYS = METADATA_INPUT_FIELDS;

/**
 * Longest scope value (`userId`, `agentId`, `role`), in UTF-16 code units. A `sessionId` (of an
 * observation or of a scope) follows the provenance rule instead: up to 1,000 characters
 * (write/validate.ts `checkSessionId`), so sessions of existing stores stay writable and readable.
 */
export const MAX_SCOPE_VALUE_CHARS = 256;

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

/**
 * Checks a scope value (`userId`, `agentId`, `role`; a `sessionId` is checked by `checkSessionId`): a non-empty string
 * of at most {@link MAX_SCOPE_VALUE_CHARS} characters with no control character (a NUL or a
 * newline in an id would let two ids look alike, and break line-based logs and exports) and no
 * other invisible character: format characters (zero-width space and joiners, the byte-order
 * mark, bidirectional overrides), line and paragraph separators, default-ignorable code points
 * and lone surrogates, the rule of namespace names (util/invisible.ts), since `"alice\u200B"`
 * looks like `"alice"` but is another scope.
 * @returns the value in Unicode form NFC (util/nfc.ts), so `"Jose\u0301"` and `"José"` are one id.
 * @throws JevMemError `INVALID_INPUT` naming `field`, the value quoted with its invisible
 *   characters escaped.
 */
export function checkScopeValue(v: unknown, field: string): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_SCOPE_VALUE_CHARS) throw invalidInput(field, `expected a non-empty string of at most ${MAX_SCOPE_VALUE_CHARS} characters, got ${describeValue(v)}`);
  if (/\p{Cc}/u.test(v)) throw invalidInput(field, `contains a control character (U+${(v.match(/\p{Cc}/u)?.[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}); give an id without one`);
  if (hasInvisible(v)) throw invalidInput(field, `contains an invisible character (${quoteVisible(v)}); give an id without one`);
  return v.normalize('NFC');
}

/**
 * Reads an expiry: an ISO-8601 instant or date string, a `Date`, or epoch ms (the date parser
 * of util/date-input.ts: a day that does not exist is refused).
 * @returns ISO-8601 UTC.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
export function expiryIso(v: unknown, field: string): string {
  return new Date(parseDateInput(v, field)).toISOString();
}

/**
 * Turns one input (observation or chat message, with scope fields and expiry) into a plain
 * observation for `checkObservation`. Input that is not an object is passed on unchanged (the
 * validator refuses it naming the field).
 * @param scope - The call's `options.scope` (`add`, `addMany`), for fields the input does not
 *   give; a `userId`, `agentId` (top level or in metadata) or `sessionId` the input gives that
 *   differs from it is refused.
 * @param within - The scope the result must stay in (`update`'s `options.scope`): a `userId`,
 *   `agentId` (top level or in metadata) or `sessionId` that differs from it is refused.
 * @throws JevMemError `INVALID_INPUT` naming the field: a chat message with a non-string
 *   `content` or `role`, or with `text` too; a scope field (`userId`, `agentId`, `role`, top
 *   level or in `metadata`) that is not a non-empty string of at most 256 characters without
 *   control characters ({@link checkScopeValue}); `options.scope.sessionId` that is blank, over
 *   1,000 characters or holds a control character (`checkSessionId`, the observation's rule); a scope field given both at the top level and
 *   in `metadata` with different values; an expiry (top level or `metadata.expiresAt`) that
 *   cannot be read (util/date-input.ts); a field outside `within`.
 */
export function toObservation(value: unknown, field: string, scope?: MemoryScope, within?: MemoryScope): unknown {
  try {
    return convert(value, field, scope, within);
  } catch (e) {
    if (isJevMemError(e)) throw e;
    // A getter or proxy that throws while it is read (as checkObservation reports it).
    throw invalidInput(field, `could not be read (${e instanceof Error ? e.message : String(e)}); pass a plain object`);
  }
}

function convert(value: unknown, field: string, scope: MemoryScope | undefined, within: MemoryScope | undefined): unknown {
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
  } else if (typeof role === 'string' && role.trim() !== '' && (o['speaker'] === undefined || o['speaker'] === null)) {
    // `{ text, role }` without a speaker is said by its role, as a chat message without a name
    // is: the read path knows role speakers (read/guard.ts) from the speaker.
    o['speaker'] = role;
  }
  delete o['role'];
  const extras: Record<string, unknown> = {};
  if (role !== undefined) extras['role'] = checkScopeValue(role, `${field}.role`);
  // A field the input gives must agree with the call's options.scope (an observation with
  // userId "b" under scope { userId: "a" } would be stored as b's, out of the caller's scope).
  if (scope !== undefined) refuseOutside(o, isPlainObject(o['metadata']) ? o['metadata'] : undefined, { userId: o['userId'], agentId: o['agentId'] }, scope, field, 'options.scope.KEY (VALUE): a memory added under a scope must belong to it');
  for (const key of ['userId', 'agentId'] as const) {
    const given = o[key] ?? scope?.[key];
    if (given !== undefined) extras[key] = checkScopeValue(given, o[key] !== undefined ? `${field}.${key}` : `options.scope.${key}`);
    delete o[key];
  }
  if (scope?.sessionId !== undefined && o['sessionId'] === undefined) o['sessionId'] = checkSessionId(scope.sessionId, 'options.scope.sessionId');
  if (o['expiresAt'] !== undefined) extras['expiresAt'] = expiryIso(o['expiresAt'], `${field}.expiresAt`);
  delete o['expiresAt'];
  const meta = o['metadata'];
  if (meta !== undefined && meta !== null && !isPlainObject(meta)) return o; // the validator names it
  // The reserved keys given inside metadata get the checks of the top-level fields (a userId
  // with a NUL byte, an expiry on a day that does not exist), and an expiry the same ISO form.
  const inMeta: Record<string, unknown> = {};
  for (const key of RESERVED_METADATA_KEYS) {
    const v = meta?.[key];
    if (v === undefined) continue;
    inMeta[key] = key === 'expiresAt' ? expiryIso(v, `${field}.metadata.expiresAt`) : checkScopeValue(v, `${field}.metadata.${key}`);
  }
  if (within !== undefined) refuseOutside(o, meta ?? undefined, extras, within, field, 'options.scope.KEY (VALUE): an update cannot move a memory out of the scope it was found in');
  if (Object.keys(extras).length === 0 && Object.keys(inMeta).length === 0) return o;
  const merged: Record<string, unknown> = { ...(meta ?? {}), ...inMeta };
  for (const [k, v] of Object.entries(extras)) {
    if (merged[k] !== undefined && merged[k] !== v) throw invalidInput(`${field}.${k}`, `differs from ${field}.metadata.${k} (${describeValue(merged[k])}); give it once`);
    merged[k] = v;
  }
  o['metadata'] = merged;
  return o;
}

/**
 * Refuses an input that would put its memory outside `within` (the scope of an `update`): a
 * `userId` / `agentId` (top level or in metadata) or `sessionId` that differs from the scope's.
 * Also `add`'s check against its `options.scope`. `why` is the message after "differs from",
 * with `KEY` and `VALUE` replaced by the scope field and its quoted value.
 * @throws JevMemError `INVALID_INPUT` naming the field.
 */
function refuseOutside(o: Record<string, unknown>, meta: Record<string, unknown> | undefined, extras: Record<string, unknown>, within: MemoryScope, field: string, why: string): void {
  for (const key of ['userId', 'agentId', 'sessionId'] as const) {
    const want = within[key];
    if (want === undefined) continue;
    const given = key === 'sessionId' ? [o['sessionId']] : [extras[key], meta?.[key]];
    for (const v of given) {
      if (v !== undefined && v !== null && !sameNfc(v, want)) throw invalidInput(`${field}.${key}`, `differs from ${why.replace('KEY', key).replace('VALUE', () => describeValue(want))}`);
    }
  }
}
