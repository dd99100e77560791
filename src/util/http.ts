/**
 * Shared HTTP pieces of the two network clients (the remote System One, SPEC 5, and the System-Two
 * chat client, SPEC 7): a POST with retries and per-attempt timeouts on `ky`
 * ({@link postWithRetries}), `retry-after` parsing, the exponential backoff, an abortable sleep,
 * a server-sent-events reader and error-message excerpts with secrets removed. No code here
 * knows either wire format.
 *
 * @module
 */
import ky, { HTTPError, TimeoutError } from 'ky';
import { JevMemError } from '../errors.js';

/** The `fetch` signature the clients accept (the global one, or any compatible function). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Waits `ms` milliseconds. Implementations must reject with JevMemError `ABORTED` when `signal`
 * fires. Injectable in both clients so tests of the retry policy run without waiting.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Every status worth retrying: 408, 429 and 500-599 (529 "overloaded" included). */
export const RETRY_STATUS_CODES: readonly number[] = Object.freeze([408, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)]);

/** Largest timeout `ky` accepts (a 32-bit setTimeout delay). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * Thrown by {@link postWithRetries} when the wait before the next attempt would end at or after
 * the deadline (so it is not started). Internal: both clients turn it into a {@link JevMemError}.
 */
export class WaitPastDeadline extends Error {
  override readonly name = 'WaitPastDeadline' as const;
  /** The failure of the last attempt (a ky `HTTPError`, `TimeoutError` or a network error). */
  readonly last: unknown;
  constructor(last: unknown) {
    super('the next wait would end past the deadline', { cause: last });
    this.last = last;
  }
}

/** Options of {@link postWithRetries}. */
export interface PostOptions {
  /** Absolute URL (or, where `fetch` resolves them, a relative one). */
  url: string;
  headers: Record<string, string>;
  /** Request body (JSON text). */
  body: string;
  fetch: FetchLike;
  /** Retries after the first attempt (ky `retry.limit`). */
  retries: number;
  /**
   * Per-attempt timeout in ms: ky's `timeout` until the response headers arrive, then the rest of
   * it (from the attempt's start) for `read` to consume the body.
   */
  timeoutMs: number;
  /** Whether an attempt that timed out is retried (ky `retry.retryOnTimeout`). */
  retryOnTimeout: boolean;
  /** Delay in ms before retry `n` (1-based) when the server sent no `retry-after`. */
  backoff: (retry: number) => number;
  /** Wait between attempts (injectable so tests of the policy do not wait). */
  sleep: Sleep;
  /** Aborts the attempt in flight or the wait (the caller's signal, a deadline, a close). */
  signal: AbortSignal;
  /** Absolute deadline in ms since the epoch: a wait that would end at or after it is not started. @default Infinity */
  deadlineAt?: number;
  /** Clock in ms since the epoch. @default Date.now */
  now?: () => number;
}

/**
 * POSTs `body` with `ky`: per-attempt `timeout`, up to `retries` retries of network errors,
 * {@link RETRY_STATUS_CODES} answers (method POST allowed) and, with `retryOnTimeout`, timeouts.
 * Before each retry it waits the server's `retry-after-ms` / `retry-after` (seconds or an HTTP
 * date, {@link retryAfterFromHeaders}) or else `backoff(n)`, through the injectable `sleep`
 * (ky's own wait is set to 0: ky 1.x waits with its own timer, which tests cannot replace, and
 * does not read `retry-after-ms`).
 *
 * @param read - consumes the 2xx response (e.g. `r => r.text()`) within the attempt's timeout;
 *   it is not retried.
 * @returns what `read` returns.
 * @throws ky `HTTPError` for a non-2xx answer that is not retried or the last one; ky
 *   `TimeoutError` for an attempt (headers, or the body in `read`) past `timeoutMs` that is not
 *   retried; {@link WaitPastDeadline}; what `read` throws;
 *   the fetch error of the last attempt (a network error, or the signal's reason once `signal`
 *   fired); whatever `sleep` throws (JevMemError `ABORTED`).
 */
export async function postWithRetries<T>(o: PostOptions, read: (response: Response) => Promise<T>): Promise<T> {
  o.signal.throwIfAborted();
  const now = o.now ?? Date.now;
  const deadlineAt = o.deadlineAt ?? Infinity;
  const bodyTimeout = new AbortController();
  let attemptStarted = now();
  let lastRequest: Request | undefined;
  const response = await ky.post(o.url, {
    // our `fetch` receives the URL and init it was given (ky hands a Request; only its signal,
    // which carries ky's per-attempt timeout, is taken from it)
    fetch: (input: string | URL | Request, init?: RequestInit) => {
      attemptStarted = now();
      if (input instanceof Request) lastRequest = input;
      const signal = input instanceof Request ? input.signal : (init?.signal ?? o.signal);
      return o.fetch(o.url, { method: 'POST', headers: o.headers, body: o.body, signal });
    },
    headers: o.headers,
    body: o.body,
    signal: AbortSignal.any([o.signal, bodyTimeout.signal]),
    timeout: Math.min(o.timeoutMs, MAX_TIMEOUT_MS),
    throwHttpErrors: true,
    retry: {
      limit: o.retries,
      methods: ['post'],
      statusCodes: [...RETRY_STATUS_CODES],
      afterStatusCodes: [],
      retryOnTimeout: o.retryOnTimeout,
      delay: () => 0,
      // an abort (caller, deadline, close) is final; otherwise ky's policy decides
      shouldRetry: () => (o.signal.aborted ? false : undefined),
    },
    hooks: {
      beforeRetry: [
        async ({ error, retryCount }) => {
          const retryAfter = error instanceof HTTPError ? retryAfterFromHeaders(error.response.headers, now()) : undefined;
          // the failed answer's body is not read: release its connection
          if (error instanceof HTTPError) void error.response.body?.cancel().catch(() => undefined);
          const wait = retryAfter ?? o.backoff(retryCount);
          if (now() + wait >= deadlineAt) throw new WaitPastDeadline(error);
          await o.sleep(wait, o.signal);
        },
      ],
    },
  });
  const timer = setTimeout(() => bodyTimeout.abort(), Math.max(0, Math.min(attemptStarted + o.timeoutMs - now(), MAX_TIMEOUT_MS)));
  // Settles when the attempt's time is up or the caller aborts, so a body that never ends (a
  // `fetch` that ignores its signal) cannot hang the call; an unread body is cancelled then (one
  // the reader holds is left to the fetch, which was given the aborted signal).
  const stop = rejectOnAbort(AbortSignal.any([o.signal, bodyTimeout.signal]), () => void response.body?.cancel().catch(() => undefined));
  try {
    return await Promise.race([read(response), stop.promise]);
  } catch (e) {
    if (bodyTimeout.signal.aborted && !o.signal.aborted) throw new TimeoutError(lastRequest ?? new Request(o.url, { method: 'POST' }));
    throw e;
  } finally {
    clearTimeout(timer);
    stop.dispose();
  }
}

/**
 * A promise that rejects with `signal.reason` when `signal` aborts (at once when it has), after
 * `onAbort`; `dispose` stops listening. Raced against work that may ignore the signal (a custom
 * `fetch`, a `complete` hook), so the caller's timeout or abort still ends the call.
 */
export function rejectOnAbort(signal: AbortSignal, onAbort?: () => void): { promise: Promise<never>; dispose: () => void } {
  let dispose = (): void => undefined;
  const promise = new Promise<never>((_, reject) => {
    const fire = (): void => {
      onAbort?.();
      reject(signal.reason);
    };
    if (signal.aborted) fire();
    else {
      signal.addEventListener('abort', fire, { once: true });
      dispose = () => signal.removeEventListener('abort', fire);
    }
  });
  promise.catch(() => undefined); // settled by a race, or never looked at
  return { promise, dispose };
}

/**
 * Parses an HTTP `retry-after` header (RFC 9110 §10.2.3): either delay-seconds or an HTTP date.
 *
 * @param header - the header value (null/undefined when absent).
 * @param nowMs - the current time in ms since the epoch (for the date form).
 * @returns the delay in milliseconds (≥ 0), or undefined when absent or unparseable.
 */
export function parseRetryAfter(header: string | null | undefined, nowMs: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  // An HTTP date always names its month ("Wed, 21 Oct 2015 07:28:00 GMT"); refuse bare numbers
  // such as "-3", which Date.parse would read as a year.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * The server's requested wait before the next attempt, in ms: `retry-after-ms` (a non-standard
 * header some LLM gateways send) when present, else `retry-after` (see {@link parseRetryAfter}).
 */
export function retryAfterFromHeaders(headers: Headers, nowMs: number): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms.trim()));
  return parseRetryAfter(headers.get('retry-after'), nowMs);
}

/** Options of {@link backoffDelay}. */
export interface BackoffOptions {
  /** Delay before the first retry, in ms. @default 500 */
  baseMs?: number;
  /** Largest delay, in ms. @default 5000 */
  capMs?: number;
  /** Spread each delay uniformly over [d/2, d] ("equal jitter"). @default false */
  jitter?: boolean;
  /** Random source in [0,1) for the jitter. @default Math.random */
  random?: () => number;
}

/**
 * Exponential backoff (SPEC 5): `min(cap, base · 2^attempt)` ms, i.e. 500, 1000, 2000, 4000,
 * 5000, 5000 … with the defaults; with `jitter`, a uniform value in [d/2, d].
 *
 * @param attempt - 0 for the wait after the first failed attempt.
 */
export function backoffDelay(attempt: number, options: BackoffOptions = {}): number {
  const base = options.baseMs ?? 500;
  const cap = options.capMs ?? 5000;
  const d = Math.min(cap, base * 2 ** Math.max(0, attempt));
  if (!options.jitter) return d;
  const r = (options.random ?? Math.random)();
  return Math.round(d / 2 + (r * d) / 2);
}

/** A timer-based {@link Sleep}; rejects with JevMemError `ABORTED` when `signal` fires. */
export const defaultSleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: signal.reason }));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * A short, single-line excerpt of a response body for an error message, with every occurrence
 * of each non-empty `secret` replaced by `***` (so an echoed API key never lands in a message).
 *
 * @param max - maximum length in characters before `…`. @default 200
 */
export function excerpt(text: string, secrets: Array<string | undefined> = [], max = 200): string {
  let out = text;
  for (const s of secrets) if (s) out = out.split(s).join('***');
  out = out.replace(/\s+/g, ' ').trim();
  return out.length > max ? `${out.slice(0, max)}…` : out;
}

/** `url` without its query string and fragment (which may carry keys), for error messages. */
export function safeUrl(url: string): string {
  const cut = url.search(/[?#]/);
  return cut < 0 ? url : url.slice(0, cut);
}

/**
 * Reads a `text/event-stream` body and yields the `data` of each event (W3C Server-Sent Events:
 * `data:` lines of one event joined by `\n`, events separated by a blank line; comments and
 * other fields are skipped).
 *
 * @throws whatever reading the body throws (a network error or an abort).
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let finished = false;
  let buffer = '';
  let data: string[] = [];
  const takeLine = (line: string): string | undefined => {
    if (line === '') {
      if (data.length === 0) return undefined;
      const event = data.join('\n');
      data = [];
      return event;
    }
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    if (field !== 'data') return undefined;
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    data.push(value);
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A trailing '\r' may be the first half of a '\r\n' split across chunks: hold it back.
      const hold = !done && buffer.endsWith('\r') ? '\r' : '';
      const lines = (hold ? buffer.slice(0, -1) : buffer).split(/\r\n|\r|\n/);
      buffer = done ? '' : (lines.pop() ?? '') + hold;
      for (const line of lines) {
        const event = takeLine(line);
        if (event !== undefined) yield event;
      }
      if (done) {
        finished = true;
        const event = takeLine('');
        if (event !== undefined) yield event;
        return;
      }
    }
  } finally {
    // The consumer stopped early (e.g. at `[DONE]`): cancel the rest of the body.
    if (!finished) reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
