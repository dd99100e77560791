/**
 * A System-One backend wrapper that counts its use (calls, requests, time, errors), for the
 * benchmarks in Node and in the browser (no Node imports).
 *
 * @module
 */
import type { SystemOneBackend } from '../../src/system-one/wire.js';

/** System-One use counted by {@link countingBackend}. */
export interface BackendCounts {
  /** `decide` + `decideMany` calls (round trips). */
  calls: number;
  /** Requests answered (a `decideMany` of n requests counts n). */
  requests: number;
  /** Wall time inside the backend, ms. */
  ms: number;
  /** Calls that threw (the controller then used its deterministic fallback). */
  errors: number;
}

/** A backend that counts its use; `close()` does not close the wrapped backend (its owner does). */
export interface CountingBackend extends SystemOneBackend {
  /** Counts so far (a copy). */
  counts(): BackendCounts;
}

/** Wraps a System-One backend to count calls, requests, time and errors. */
export function countingBackend(inner: SystemOneBackend): CountingBackend {
  const c: BackendCounts = { calls: 0, requests: 0, ms: 0, errors: 0 };
  const timed = async <T>(n: number, fn: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    c.calls += 1;
    c.requests += n;
    try {
      return await fn();
    } catch (e) {
      c.errors += 1;
      throw e;
    } finally {
      c.ms += performance.now() - t;
    }
  };
  return {
    kind: inner.kind,
    modelId: inner.modelId,
    // the backend's calibrated parameters must reach createMemory through the wrapper
    ...(inner.parameters ? { parameters: inner.parameters } : {}),
    // createBrowserMemory describes a 'local-worker' backend by its `info` (engine, providers)
    ...('info' in inner ? { info: (inner as { info: unknown }).info } : {}),
    decide: (request, options) => timed(1, () => inner.decide(request, options)),
    decideMany: (requests, options) => timed(requests.length, () => inner.decideMany(requests, options)),
    close: async () => undefined,
    counts: () => ({ ...c }),
  };
}

/** Difference of two counts. */
export function countsDelta(after: BackendCounts, before: BackendCounts): BackendCounts {
  return { calls: after.calls - before.calls, requests: after.requests - before.requests, ms: after.ms - before.ms, errors: after.errors - before.errors };
}
