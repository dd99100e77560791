/**
 * Error mapping of the record store (issue 22, SPEC 9), the same over every record driver: a
 * `JevMemError` passes through (`CLOSED`, `STORAGE_FAILED` of a lost connection, `INVALID_INPUT`,
 * `STORE_DAMAGED`), a `QuotaExceededError` becomes `QUOTA_EXCEEDED`, anything else
 * (`DataCloneError`, `AbortError`, a malformed record) becomes `STORAGE_FAILED` with the cause.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import { quoteVisible } from '../../util/invisible.js';

/** How a store names itself in its errors. */
export interface StoreWords {
  /** The store's label, first in messages (`IndexedDB`, `the memory store`). */
  label: string;
  /** What to do when the platform refused for space, last in a `QUOTA_EXCEEDED` message. */
  quotaRemedy: string;
}

/** The `name` of an error (a DOMException's `QuotaExceededError`, …), or undefined. */
function errorName(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string' ? (e as { name: string }).name : undefined;
}

/**
 * Turns a failure into the store's errors (see the module).
 * @param what - what failed, worded to follow "failed to" (`commit to namespace "a"`).
 */
export function storageError(words: StoreWords, what: string, cause: unknown): JevMemError {
  if (cause instanceof JevMemError) return cause;
  if (errorName(cause) === 'QuotaExceededError') {
    return new JevMemError('QUOTA_EXCEEDED', `${words.label} refused to ${what} for lack of space; nothing was written. ${words.quotaRemedy}`, { cause });
  }
  return new JevMemError('STORAGE_FAILED', `${words.label} failed to ${what}: ${String(cause)}`, { cause });
}

/** Runs `work`, turning any failure into the store's errors ({@link storageError}). */
export async function guarded<T>(words: StoreWords, what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (cause) {
    throw storageError(words, what, cause);
  }
}

/** A namespace name as messages show it (invisible characters made visible). */
export function nsText(namespace: string): string {
  return quoteVisible(namespace);
}
