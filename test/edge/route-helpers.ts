/**
 * Helpers shared by the edge front's unit tests: a route match for `toOperation`, and the
 * JevMemError a call throws (failing the test when it throws nothing or another error).
 */
import { toOperation } from '../../src/edge/http.js';
import { isJevMemError, type JevMemError } from '../../src/errors.js';

/** A route match of `name` in namespace `ns`, with `memoryId` when given. */
export const route = (name: Parameters<typeof toOperation>[0]['name'], memoryId?: string) => ({ name, namespace: 'ns', ...(memoryId ? { memoryId } : {}) });

/** The JevMemError `fn` throws; any other outcome fails the test. */
export const fails = (fn: () => unknown): JevMemError => {
  try {
    fn();
  } catch (e) {
    if (isJevMemError(e)) return e;
    throw e;
  }
  throw new Error('expected a JevMemError');
};
