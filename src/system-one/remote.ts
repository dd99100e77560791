/**
 * The remote System-One backend (SPEC 5): answers typed-decision requests through the Jev HTTP
 * API (`POST {baseURL}/v1/systemone`) or any compatible endpoint, gateway or proxy, with
 * per-attempt timeouts, retries with exponential backoff that honour `retry-after`, an overall
 * deadline, request / response validation and an LRU answer cache.
 *
 * Browsers cannot keep an API key secret: in a browser, point `baseURL` at a proxy of your own
 * that adds the `Authorization` header server-side, and leave `apiKey` unset. Setting `apiKey`
 * in a browser-like environment is refused unless `allowBrowserKey` is true.
 *
 * @module
 */
import { LRUCache } from 'lru-cache';
import { textKey } from '../util/hash.js';
import { JevMemError, describeValue, invalidOption, throwIfAborted } from '../errors.js';
import { HTTPError, TimeoutError } from 'ky';
import { WaitPastDeadline, backoffDelay, defaultSleep, excerpt, postWithRetries, safeUrl, type FetchLike, type Sleep } from '../util/http.js';
import { validateRequest, validateResponse } from './validate.js';
import type { SystemOneBackend, SystemOneRequest, SystemOneResponse } from './wire.js';

/** Options of {@link createRemoteSystemOne}. */
export interface RemoteSystemOneOptions {
  /**
   * Base URL of the endpoint; requests go to `${baseURL}/v1/systemone` (trailing slashes are
   * ignored). May be relative (e.g. `/api/jev`) where `fetch` resolves relative URLs (browsers).
   */
  baseURL: string;
  /**
   * API key sent as `Authorization: Bearer <key>`. Never appears in error messages. In a browser
   * use a proxy instead (see `allowBrowserKey`).
   * @default undefined (no Authorization header)
   */
  apiKey?: string;
  /**
   * Model id sent in each request's `model` field when the request has none.
   * @default undefined (the server's default model)
   */
  model?: string;
  /** Extra request headers (e.g. for a gateway). `content-type` and `authorization` are set by the client. @default {} */
  headers?: Record<string, string>;
  /** The `fetch` to use (tests, proxies, custom agents). @default globalThis.fetch */
  fetch?: FetchLike;
  /**
   * Timeout of one HTTP attempt in ms, reading the body included (ky `timeout` until the headers,
   * the rest for the body). @default 10000
   */
  timeoutMs?: number;
  /** Retries after the first attempt on network errors, timeouts, 408, 429, 529 and 5xx. @default 4 */
  retries?: number;
  /**
   * Overall budget of one `decide` call in ms, all attempts and waits included. A call's own
   * `deadlineMs` can only shorten it. No wait is started that would end past it.
   * @default 20000
   */
  deadlineMs?: number;
  /**
   * Entries of the LRU answer cache (`lru-cache`; a get or set counts as a use, the least recently
   * used entry is evicted beyond this many), keyed by the stable JSON of
   * `{model, state, questions}`; 0 disables the cache.
   * @default 1000
   */
  cacheSize?: number;
  /**
   * Allow `apiKey` in a browser-like environment (a page, a web / extension worker), where
   * anyone who opens the developer tools can read it. Prefer a server-side proxy.
   * @default false
   */
  allowBrowserKey?: boolean;
  /** Spread each backoff delay over [d/2, d] to avoid synchronised retries. @default true */
  jitter?: boolean;
  /** Wait between attempts (inject a fake one in tests). Must reject with `ABORTED` on abort. @default a setTimeout-based sleep */
  sleep?: Sleep;
}

/** The remote backend: a {@link SystemOneBackend} of kind `'remote'`. */
export interface RemoteSystemOne extends SystemOneBackend {
  readonly kind: 'remote';
  /**
   * The model id of the latest answer; before the first answer, `options.model` or
   * `'remote:unknown'`.
   */
  readonly modelId: string;
  /** Entries in the answer cache. */
  readonly cacheSize: number;
}

const DEFAULTS = {
  timeoutMs: 10_000,
  retries: 4,
  deadlineMs: 20_000,
  cacheSize: 1000,
  allowBrowserKey: false,
  jitter: true,
} as const;

/** True in a browser page or a browser / extension worker (not Node, not Cloudflare workerd). */
function isBrowserLike(): boolean {
  const g = globalThis as Record<string, unknown> & { process?: { versions?: { node?: string } }; navigator?: { userAgent?: string } };
  if (g.process?.versions?.node) return false;
  if (typeof g.window !== 'undefined' || typeof g.document !== 'undefined') return true;
  return typeof g.WorkerGlobalScope !== 'undefined' && g.navigator?.userAgent !== 'Cloudflare-Workers';
}

/** JSON with object keys sorted at every depth: equal requests give equal cache keys. */
function stableStringify(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

function positive(field: string, v: number | undefined, fallback: number, integer = false): number {
  if (v === undefined) return fallback;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (integer && !Number.isInteger(v)) || (!integer && v === 0)) {
    throw invalidOption(field, `expected ${integer ? 'an integer ≥ 0' : 'a number of ms > 0'}, got ${describeValue(v)}`);
  }
  return v;
}

/** The message of a server's error body: `error.message`, `message`, `detail` or an excerpt. */
function serverMessage(text: string, secrets: Array<string | undefined>): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
    const m = typeof body.error === 'object' ? body.error?.message : (body.error ?? body.message ?? body.detail);
    if (typeof m === 'string') return excerpt(m, secrets);
    if (m !== undefined) return excerpt(JSON.stringify(m), secrets);
  } catch {
    // not JSON: fall through to the raw excerpt
  }
  return excerpt(text, secrets);
}

/**
 * Creates the remote System-One backend (SPEC 5).
 *
 * Each `decide` validates the request, answers from the cache when it can, else POSTs it to
 * `${baseURL}/v1/systemone` with `Authorization: Bearer <apiKey>`; retries network errors,
 * timeouts, 408, 429, 529 and 5xx after `retry-after` (seconds or an HTTP date) or an exponential
 * backoff of ≈ 500 ms doubling up to 5 s, never past the deadline (the earlier of
 * `options.deadlineMs` and the call's `deadlineMs`); then validates the response.
 * `decideMany` sends the requests concurrently (the wire has no batch endpoint).
 *
 * @throws JevMemError `INVALID_OPTION` (field `baseURL`, `timeoutMs`, …) for bad options, and
 *   (field `apiKey`) for an API key in a browser-like environment without `allowBrowserKey`.
 *
 * `decide` throws JevMemError:
 * - `SYSTEM_ONE_INVALID_REQUEST` for a request that breaks the contract (checked locally, or a
 *   422 from the server, with its `status` and the server's message); never retried;
 * - `SYSTEM_ONE_FAILED` for 401 / 403 (check `apiKey`) and other 4xx (not retried), for retries
 *   exhausted or the deadline reached (`status` of the last answer when there was one), and
 *   for a body that is not JSON or breaks the answer contract (`invalid answer …`);
 * - `ABORTED` when the call's `signal` fires; `CLOSED` after {@link SystemOneBackend.close}.
 *
 * @example
 * ```ts
 * // Node or a server: the key stays on the server.
 * const s1 = createRemoteSystemOne({ baseURL: 'https://api.example.com', apiKey: process.env.JEV_KEY });
 * // Browser: a proxy of yours adds the key.
 * const s1b = createRemoteSystemOne({ baseURL: '/api/jev' });
 * ```
 */
export function createRemoteSystemOne(options: RemoteSystemOneOptions): RemoteSystemOne {
  if (typeof options?.baseURL !== 'string' || options.baseURL.trim() === '') {
    throw invalidOption('baseURL', `expected the endpoint's base URL, e.g. "https://api.example.com", got ${JSON.stringify(options?.baseURL)}`);
  }
  const timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs);
  const retries = positive('retries', options.retries, DEFAULTS.retries, true);
  const deadlineMs = positive('deadlineMs', options.deadlineMs, DEFAULTS.deadlineMs);
  const cacheSize = positive('cacheSize', options.cacheSize, DEFAULTS.cacheSize, true);
  const jitter = options.jitter ?? DEFAULTS.jitter;
  const apiKey = options.apiKey === '' ? undefined : options.apiKey;
  if (apiKey !== undefined && !(options.allowBrowserKey ?? DEFAULTS.allowBrowserKey) && isBrowserLike()) {
    throw invalidOption(
      'apiKey',
      'an API key in browser code can be read by anyone using the page: send System-One requests through a proxy ' +
        'of yours that adds the Authorization header server-side (set baseURL to the proxy and leave apiKey unset), ' +
        'or set allowBrowserKey: true to accept the risk',
    );
  }
  const url = `${options.baseURL.replace(/\/+$/, '')}/v1/systemone`;
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const headers: Record<string, string> = { ...(options.headers ?? {}), 'content-type': 'application/json', accept: 'application/json' };
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  const secrets = [apiKey];
  const cache = cacheSize > 0 ? new LRUCache<string, SystemOneResponse>({ max: cacheSize }) : undefined;
  const lifetime = new AbortController();
  let modelId = options.model ?? 'remote:unknown';
  let closed = false;

  const failed = (message: string, status?: number, cause?: unknown): JevMemError =>
    new JevMemError('SYSTEM_ONE_FAILED', message, { ...(status === undefined ? {} : { status }), ...(cause === undefined ? {} : { cause }) });
  const stopped = (signal: AbortSignal | undefined): JevMemError =>
    closed
      ? new JevMemError('CLOSED', 'the remote System One was closed while a request was in flight')
      : new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: signal?.reason });

  async function decide(request: SystemOneRequest, callOptions: { signal?: AbortSignal; deadlineMs?: number } = {}): Promise<SystemOneResponse> {
    if (closed) throw new JevMemError('CLOSED', 'the remote System One is closed: create a new one');
    validateRequest(request);
    throwIfAborted(callOptions.signal);
    const model = request.model ?? options.model;
    const body = { ...(model === undefined ? {} : { model }), state: request.state, questions: request.questions };
    // Keyed by a hash of the request, so the cache holds no text (issue 22).
    const key = cacheSize > 0 ? textKey(stableStringify(body)) : undefined;
    const hit = key === undefined ? undefined : cache?.get(key);
    if (hit !== undefined) return structuredClone(hit);

    const budget = Math.min(deadlineMs, callOptions.deadlineMs ?? Infinity);
    const started = Date.now();
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(`deadline of ${budget} ms`)), Math.min(budget, 2_147_483_647));
    const signal = AbortSignal.any([callOptions.signal, lifetime.signal, deadline.signal].filter((x) => x !== undefined));
    let attempts = 0;
    const fetchCounted: FetchLike = (input, init) => {
      attempts++;
      return fetchFn(input, init);
    };
    const pastDeadline = (last: unknown): JevMemError => {
      const error = last === undefined ? undefined : attemptError(last);
      return failed(
        `System One gave no answer within the deadline of ${budget} ms (${attempts} attempt${attempts === 1 ? '' : 's'}` +
          `${error ? `; last error: ${error.message}` : ''}); raise deadlineMs or check the endpoint`,
        error?.status,
        error ?? last,
      );
    };
    /** The error of one failed attempt (not an abort), as the caller sees it. */
    const attemptError = (e: unknown): JevMemError => {
      if (e instanceof JevMemError) return e;
      if (e instanceof HTTPError) return failed(`System One request to ${safeUrl(url)} failed with HTTP ${e.response.status}`, e.response.status, e);
      if (e instanceof TimeoutError) return failed(`System One request to ${safeUrl(url)} failed: no answer within ${Math.round(timeoutMs)} ms`, undefined, e);
      const detail = e instanceof Error ? e.message + (e.cause instanceof Error ? `: ${e.cause.message}` : '') : String(e);
      return failed(`System One request to ${safeUrl(url)} failed: network error (${detail})`, undefined, e);
    };

    try {
      let res: { status: number; text: string };
      try {
        res = await postWithRetries(
          {
            url, headers, body: JSON.stringify(body), fetch: fetchCounted, retries, timeoutMs, retryOnTimeout: true,
            backoff: (n) => backoffDelay(n - 1, { jitter }), sleep, signal, deadlineAt: started + budget,
          },
          async (r) => ({ status: r.status, text: await r.text() }),
        );
      } catch (e) {
        if (callOptions.signal?.aborted || closed) throw stopped(callOptions.signal);
        if (deadline.signal.aborted) throw pastDeadline(e);
        if (e instanceof WaitPastDeadline) throw pastDeadline(e.last);
        if (e instanceof HTTPError) throw await statusError(e.response);
        throw attemptError(e);
      }
      let json: unknown;
      try {
        json = JSON.parse(res.text);
      } catch (e) {
        throw failed(`invalid answer: the body from ${safeUrl(url)} is not JSON (${excerpt(res.text, secrets, 80)})`, res.status, e);
      }
      const response = validateResponse(request, json);
      modelId = response.model;
      if (key !== undefined) cache?.set(key, structuredClone(response));
      return response;
    } catch (e) {
      // A sleep or check interrupted by close() reports ABORTED; say CLOSED instead.
      if (closed && e instanceof JevMemError && e.code === 'ABORTED') throw stopped(undefined);
      throw e;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The error for a non-2xx answer that is final (not retried, or the last retry). */
  async function statusError(r: Response): Promise<JevMemError> {
    const { status } = r;
    const message = serverMessage(await r.text().catch(() => ''), secrets);
    if (status === 422) return new JevMemError('SYSTEM_ONE_INVALID_REQUEST', `System One rejected the request (HTTP 422): ${message}`, { status });
    if (status === 401 || status === 403) {
      return failed(`System One at ${safeUrl(url)} refused the credentials (HTTP ${status}): check the apiKey option (${message})`, status);
    }
    return failed(`System One request to ${safeUrl(url)} failed with HTTP ${status}: ${message}`, status);
  }

  return {
    kind: 'remote',
    get modelId() {
      return modelId;
    },
    get cacheSize() {
      return cache?.size ?? 0;
    },
    decide,
    // A cached answer belongs to a whole request (a state and its questions), so one erased text
    // cannot be singled out by its key: an eviction empties the cache (issue 22).
    evict: () => cache?.clear(),
    async decideMany(requests, callOptions) {
      if (!Array.isArray(requests)) {
        throw new JevMemError('SYSTEM_ONE_INVALID_REQUEST', `requests: expected an array of requests, got ${typeof requests}`, { field: 'requests' });
      }
      return Promise.all(requests.map((r) => decide(r, callOptions)));
    },
    async close() {
      if (closed) return;
      closed = true;
      lifetime.abort();
      cache?.clear();
    },
  };
}
