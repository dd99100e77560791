/**
 * Error mapping of the IndexedDB store: DOMException names to the adapter's `JevMemError` codes
 * (`QuotaExceededError` → `QUOTA_EXCEEDED`, anything else → `STORAGE_FAILED`), the most telling
 * failure of a transaction's requests, and the settling of a write transaction (abort on a
 * failure while issuing, then the first real error). SPEC 9.
 *
 * @module
 */
import { JevMemError } from '../../errors.js';
import { quoteVisible } from '../../util/invisible.js';

/** The `name` of an error (a DOMException's `QuotaExceededError`, `AbortError`, …), or undefined. */
export function errorName(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && typeof (e as { name?: unknown }).name === 'string'
    ? (e as { name: string }).name
    : undefined;
}

/**
 * Turns a failure into the adapter's errors: `QuotaExceededError` → `QUOTA_EXCEEDED`, a
 * JevMemError passes through, anything else → `STORAGE_FAILED` with the cause.
 * @param what - what failed, worded to follow "failed to" (`commit to namespace "a"`).
 */
export function storageError(what: string, cause: unknown): JevMemError {
  if (cause instanceof JevMemError) return cause;
  if (errorName(cause) === 'QuotaExceededError') {
    return new JevMemError(
      'QUOTA_EXCEEDED',
      `IndexedDB refused to ${what} for lack of space; nothing was written. Free space or ask for persistent storage (navigator.storage.persist()).`,
      { cause },
    );
  }
  return new JevMemError('STORAGE_FAILED', `IndexedDB failed to ${what}: ${String(cause)}`, { cause });
}

/** Picks the most telling rejection: a request's own error over the AbortError it caused. */
export function firstFailure(results: PromiseSettledResult<unknown>[]): unknown {
  let fallback: unknown;
  for (const r of results) {
    if (r.status !== 'rejected') continue;
    if (errorName(r.reason) !== 'AbortError') return r.reason;
    fallback ??= r.reason;
  }
  return fallback;
}

/** Runs `read`, turning any failure into the adapter's errors ({@link storageError}). */
export async function guarded<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (cause) {
    throw storageError(what, cause);
  }
}

/** A namespace name as messages show it (invisible characters made visible). */
export function nsText(namespace: string): string {
  return quoteVisible(namespace);
}

/**
 * Issues the requests of a write transaction and waits for it to finish. `issue` pushes every
 * write request to `ops` and awaits only requests of `tx`. When `issue` throws (a value that
 * cannot be cloned, a failed read), the transaction is aborted, so nothing of it is kept.
 * @throws the first failure: a request's own error over the AbortError it caused (raw; the
 *   caller maps it with {@link storageError}).
 */
export async function settleWrite(tx: { abort(): void; done: Promise<void> }, issue: (ops: Promise<unknown>[]) => Promise<void> | void): Promise<void> {
  const ops: Promise<unknown>[] = [];
  try {
    await issue(ops);
  } catch (cause) {
    try {
      tx.abort();
    } catch {
      // already finished or aborted
    }
    const settled = await Promise.allSettled([...ops, tx.done]);
    throw errorName(cause) === 'AbortError' ? (firstFailure(settled) ?? cause) : cause;
  }
  const failure = firstFailure(await Promise.allSettled([...ops, tx.done]));
  if (failure !== undefined) throw failure;
}
