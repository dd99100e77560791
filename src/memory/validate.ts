/**
 * Validation at the memory's public surface: the options of `createMemory` and of each call,
 * and observations (write/validate.ts, plus what it lets through). Everything here runs before
 * any lock is taken or anything is written, and every refusal names the field.
 *
 * @module
 */
import { MAX_RECALL_K, rejectUnknownKeys } from '../config.js';
import { JevMemError, describeValue, invalidInput, invalidOption, isJevMemError } from '../errors.js';
import { parseDateInput } from '../util/date-input.js';
import { isBlankText, quoteVisible } from '../util/invisible.js';
import { checkExistingNamespaceName, checkNamespaceName } from '../plane/store/names.js';
import { validateObservation, type CheckedObservation } from '../write/validate.js';
import type { CallOptions } from './types.js';
import { checkSignal } from './options.js';

/** Largest |epoch ms| a JavaScript Date can hold (±100,000,000 days). */
const MAX_TIME_MS = 8.64e15;


/**
 * Longest recall (and answer) query, in UTF-16 code units: about 800 words, far more than a
 * question needs. The read path's work grows with the query's terms (a 160,000-character query
 * took 12 s), so a longer one is refused with `TOO_LARGE` (field `query`) rather than slowing the
 * namespace for everyone; the MCP and AI-SDK tools declare it as the query's `maxLength`.
 */
export const MAX_QUERY_CHARS = 4000;

/** Keys accepted by `Memory.recall` (others are refused with `INVALID_OPTION`). */
export const RECALL_OPTION_KEYS = ['namespace', 'signal', 'k', 'deadlineMs', 'switches', 'parameters', 'after', 'before', 'filter', 'scope', 'minScore', 'now'] as const;

/**
 * Checks the options object of `createMemory`: an object, only known keys, an encoder.
 * @returns the default namespace (validated).
 * @throws JevMemError `INVALID_OPTION` naming the option (unknown key, missing encoder),
 *   `INVALID_INPUT` (field `namespace`) on a bad namespace.
 */
export function checkMemoryOptions(options: unknown, allowed: readonly string[]): string {
  if (options === undefined) throw invalidOption('options', 'createMemory needs an options object with an encoder, e.g. createMemory({ encoder: await createGloveSifEncoder() }); in Node, createNodeMemory() from jev-mem/node sets one up');
  if (options === null || typeof options !== 'object') throw invalidOption('options', 'expected an object');
  rejectUnknownKeys(options, allowed, '');
  const o = options as { encoder?: { embed?: unknown }; namespace?: unknown; logger?: unknown };
  if (!o.encoder || typeof o.encoder.embed !== 'function') throw invalidOption('encoder', 'an Encoder is required (e.g. createGloveSifEncoder(); in Node, createNodeMemory() from jev-mem/node sets one up)');
  if (o.logger !== undefined && typeof o.logger !== 'function') throw invalidOption('logger', `expected a function (level, message, entry), got ${describeValue(o.logger)}`);
  checkStorageOption((options as { storage?: unknown }).storage);
  return checkNamespaceName(o.namespace ?? 'default', 'namespace');
}

/**
 * Methods of a storage adapter (plane/store/storage.ts `StorageAdapter`) checked at creation: the
 * ones every memory calls first, enough to tell an adapter from another value.
 */
const STORAGE_METHODS = ['load', 'commit', 'loadMeta', 'getNodes', 'close'] as const;

/**
 * Checks `storage` of `createMemory`: absent, or a storage adapter. The adapter factories are
 * async (`createSqliteFileStorage`, `createIdbStorage`): a factory's Promise passed without
 * `await` is refused here, naming the fix, instead of failing at the first write with a
 * `TypeError` (h-break7 finding 6). The refused Promise's adapter, once it opens, is closed, so
 * its lock is not left held.
 * @throws JevMemError `INVALID_OPTION` (field `storage`).
 */
function checkStorageOption(storage: unknown): void {
  if (storage === undefined) return;
  if (storage !== null && typeof (storage as { then?: unknown }).then === 'function') {
    (storage as Promise<{ close?: () => unknown } | undefined>).then(
      (s) => s?.close?.(),
      () => undefined,
    );
    throw invalidOption('storage', 'got a Promise: the storage factories are async, pass `await createSqliteFileStorage({ dir })` / `await createIdbStorage()`');
  }
  const missing = storage === null || typeof storage !== 'object' ? STORAGE_METHODS : STORAGE_METHODS.filter((m) => typeof (storage as Record<string, unknown>)[m] !== 'function');
  if (missing.length > 0) throw invalidOption('storage', `expected a storage adapter (e.g. await createSqliteFileStorage({ dir })), got ${describeValue(storage)}${missing.length < STORAGE_METHODS.length ? ` without ${missing.join(', ')}` : ''}`);
}

/**
 * The memory's clock: `options.now` of `createMemory` (checked to be a function), each reading
 * checked to be a valid Date; the default is the machine clock.
 * @throws JevMemError `INVALID_OPTION` (field `now`) when the option is not a function, and from
 *   the returned clock when a reading is not a valid Date (`returned an invalid Date`).
 */
export function checkClock(now: unknown): () => Date {
  if (now === undefined) return () => new Date();
  if (typeof now !== 'function') throw invalidOption('now', `expected a function returning a Date, got ${describeValue(now)}`);
  return () => {
    const d: unknown = now();
    if (!(d instanceof Date) || Number.isNaN(d.getTime())) throw invalidOption('now', `the clock returned ${describeValue(d)}; it must return a valid Date`);
    return d;
  };
}

/**
 * Checks `now` of `answer`: a valid Date, or a non-empty string (shown to System Two as given).
 * @returns the value, or `undefined` when absent.
 * @throws JevMemError `INVALID_INPUT` (field `options.now`).
 */
export function checkAnswerNow(value: unknown): Date | string | undefined {
  if (value === undefined) return undefined;
  if (value instanceof Date && !Number.isNaN(value.getTime())) return value;
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw invalidInput('options.now', `expected a valid Date or a date string such as "2024-03-10", got ${describeValue(value)}`);
}

/**
 * The namespace of a call: `options.namespace`, checked by the namespace rule
 * (plane/store/names.ts), or the memory's.
 * @throws JevMemError `INVALID_INPUT` (field `options.namespace`) on a name the rule refuses.
 */
export function namespaceOf(o: CallOptions | undefined, fallback: string): string {
  return o?.namespace === undefined ? fallback : checkNamespaceName(o.namespace, 'options.namespace');
}

/**
 * The namespace of a call that only reads or removes a namespace (`forget`, `export`, `stats`):
 * like {@link namespaceOf}, but a name the rule refuses is accepted when the store already holds
 * it (a store written before the rule), so an operator can export and forget it.
 * @param value - The name given (`undefined`: the memory's).
 * @param fallback - The memory's namespace.
 * @param held - The store's namespaces (`StorageAdapter.namespaces`); asked only for a refused name.
 * @param field - The field in the error.
 * @throws JevMemError `INVALID_INPUT` naming `field` when the rule refuses the name and the store
 *   does not hold it.
 */
export async function heldNamespaceOf(value: unknown, fallback: string, held: () => Promise<string[]>, field: string): Promise<string> {
  if (value === undefined) return fallback;
  try {
    return checkNamespaceName(value, field);
  } catch (e) {
    if (typeof value === 'string' && value.length > 0 && (await held()).includes(value)) return checkExistingNamespaceName(value, field);
    throw e;
  }
}

/**
 * Validates an observation (write/validate.ts, which also refuses a day that does not exist and
 * a UTC offset outside ±14:00: `checkIsoCalendar`), and on top of it refuses what the validator
 * lets through (issue 7 item 7): a time a Date cannot hold (|τ| > 8.64e15 ms), and input whose
 * reading throws (a getter or proxy that fails) — each as `INVALID_INPUT` naming the field.
 * @throws JevMemError `INVALID_INPUT` / `TOO_LARGE` naming the field.
 */
export function checkObservation(value: unknown, field: string, maxTextChars: number): CheckedObservation {
  let c: CheckedObservation;
  try {
    c = validateObservation(value, field, maxTextChars);
  } catch (e) {
    if (isJevMemError(e)) throw e;
    throw invalidInput(field, `could not be read (${e instanceof Error ? e.message : String(e)}); pass a plain object`);
  }
  if (c.observedAtMs !== undefined && !(Math.abs(c.observedAtMs) <= MAX_TIME_MS)) {
    throw invalidInput(`${field}.observedAt`, `${c.observedAtMs} ms is outside the range of dates (±${MAX_TIME_MS} ms from 1970)`);
  }
  return c;
}

/**
 * Checks the arguments of `addMany`: an array of observations (each checked, named by index),
 * the namespace, and a positive integer `chunkSize`.
 * @returns the namespace of the call and the checked observations.
 * @throws JevMemError `INVALID_INPUT` / `TOO_LARGE` naming the field (`observations[3].text`,
 *   `options.namespace`, `options.chunkSize`).
 */
export function checkAddMany(observations: unknown, o: (CallOptions & { chunkSize?: unknown }) | undefined, defaultNamespace: string, maxTextChars: number): { ns: string; checked: CheckedObservation[] } {
  if (!Array.isArray(observations)) throw invalidInput('observations', 'expected an array of observations');
  const ns = namespaceOf(o, defaultNamespace);
  const checked = observations.map((x, i) => checkObservation(x, `observations[${i}]`, maxTextChars));
  const chunkSize = o?.chunkSize;
  if (chunkSize !== undefined && (!Number.isInteger(chunkSize) || (chunkSize as number) < 1)) throw invalidInput('options.chunkSize', `expected a positive integer, got ${describeValue(chunkSize)}`);
  return { ns, checked };
}

/**
 * Reads a recall time-window bound with the date parser of every option and filter date
 * (util/date-input.ts): an ISO-8601 instant (`2023-08-01T00:00:00+02:00`; without an offset it
 * is UTC), an ISO date (`2023-08-01`, UTC midnight), a `Date`, or epoch ms; a day that does not
 * exist and a UTC offset outside ±14:00 are refused.
 * @returns epoch ms, or `undefined` when the bound is absent.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
export function windowBound(value: unknown, field: string): number | undefined {
  return value === undefined ? undefined : parseDateInput(value, field);
}

/**
 * Checks a duration option in ms (`deadlineMs`): a finite number ≥ 0.
 * @throws JevMemError `INVALID_OPTION` naming `field` (a negative number, NaN, Infinity, not a number).
 */
export function checkDurationMs(value: unknown, field: string): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw invalidOption(field, `expected a duration in milliseconds, a finite number ≥ 0, got ${describeValue(value)}`);
}

/**
 * Checks a recall's query and options: a query with a visible character (util/invisible.ts), only known option keys, an
 * integer `k` from 1 to {@link MAX_RECALL_K}, `minScore` in [0,1], `deadlineMs` a finite number ≥ 0, and the time window
 * (`after` ≤ `before`, each an ISO date/instant, a Date or epoch ms: {@link windowBound}) and the
 * question's clock `now` (read the same way).
 * @returns the window and the question's clock in epoch ms (each only when given).
 * @throws JevMemError `INVALID_INPUT` (query, `options.k`, `options.minScore`, `options.after`, `options.before`, `options.now`),
 *   `TOO_LARGE` (field `query`: over {@link MAX_QUERY_CHARS} characters),
 *   `INVALID_OPTION` (an unknown option, naming it; `options.deadlineMs` negative, NaN or infinite;
 *   `options.signal` not an AbortSignal).
 */
export function checkRecall(query: unknown, o: { k?: unknown; after?: unknown; before?: unknown; minScore?: unknown; deadlineMs?: unknown } | undefined): { afterMs?: number; beforeMs?: number; nowMs?: number } {
  if (typeof query !== 'string' || isBlankText(query)) throw invalidInput('query', `expected a string with a visible character, got ${typeof query === 'string' ? quoteVisible(query, 40) : describeValue(query)}`);
  if (query.length > MAX_QUERY_CHARS) throw new JevMemError('TOO_LARGE', `query: ${query.length} characters is over the limit of ${MAX_QUERY_CHARS} (MAX_QUERY_CHARS); ask a shorter question`, { field: 'query' });
  if (o !== undefined && (o === null || typeof o !== 'object' || Array.isArray(o))) throw invalidOption('options', `expected an object of options, got ${describeValue(o)}`);
  if (o !== undefined) rejectUnknownKeys(o, RECALL_OPTION_KEYS, 'options');
  checkSignal((o as { signal?: unknown } | undefined)?.signal);
  checkDurationMs(o?.deadlineMs, 'options.deadlineMs');
  if (o?.k !== undefined && (!Number.isInteger(o.k) || (o.k as number) < 1)) throw invalidInput('options.k', `expected a positive integer, got ${describeValue(o.k)}`);
  if (o?.k !== undefined && (o.k as number) > MAX_RECALL_K) throw invalidInput('options.k', `expected at most ${MAX_RECALL_K} (MAX_RECALL_K), got ${describeValue(o.k)}`);
  if (o?.minScore !== undefined && (typeof o.minScore !== 'number' || !(o.minScore >= 0 && o.minScore <= 1))) throw invalidInput('options.minScore', `expected a number in [0, 1], got ${describeValue(o.minScore)}`);
  const out: { afterMs?: number; beforeMs?: number; nowMs?: number } = {};
  const after = windowBound(o?.after, 'options.after');
  const before = windowBound(o?.before, 'options.before');
  if (after !== undefined) out.afterMs = after;
  if (before !== undefined) out.beforeMs = before;
  if (after !== undefined && before !== undefined && after > before) throw invalidInput('options.before', `must not be earlier than options.after (${new Date(after).toISOString()})`);
  const now = windowBound((o as { now?: unknown } | undefined)?.now, 'options.now');
  if (now !== undefined) out.nowMs = now;
  return out;
}
