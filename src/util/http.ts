/**
 * Shared HTTP pieces of the two network clients (the remote System One, SPEC 5, and the System-Two
 * chat client, SPEC 7): a per-attempt timeout around `fetch`, `retry-after` parsing, exponential
 * backoff, one retry loop bounded by a deadline, an abortable sleep, a server-sent-events reader
 * and error-message excerpts with secrets removed. No code here knows either wire format.
 *
 * @module
 */
import { JevMemError, throwIfAborted } from '../errors.js';

/** The `fetch` signature the clients accept (the global one, or any compatible function). */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Waits `ms` milliseconds. Implementations must reject with JevMemError `ABORTED` when `signal`
 * fires. Injectable in both clients so tests of the retry policy run without waiting.
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** Why one HTTP attempt produced no response: its own timeout, the caller's signal, or the network. */
export type HttpFailureKind = 'timeout' | 'aborted' | 'network';

/**
 * Thrown by {@link fetchWithTimeout} when an attempt got no usable response. Internal: both clients
 * catch it and turn it into a {@link JevMemError}; it never reaches a library user.
 */
export class HttpAttemptError extends Error {
  override readonly name = 'HttpAttemptError' as const;
  /** What went wrong. */
  readonly kind: HttpFailureKind;
  constructor(kind: HttpFailureKind, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.kind = kind;
  }
}

/**
 * A signal that fires when any of `signals` fires (a small stand-in for `AbortSignal.any`, which
 * Node 20.0-20.2 and older browsers lack). Undefined entries are skipped.
 */
export function anySignal(signals: Array<AbortSignal | undefined>): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  const cleanups: Array<() => void> = [];
  for (const s of signals) {
    if (s === undefined) continue;
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    const onAbort = (): void => controller.abort(s.reason);
    s.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => s.removeEventListener('abort', onAbort));
  }
  return { signal: controller.signal, dispose: () => cleanups.forEach((c) => c()) };
}

/**
 * Runs one HTTP attempt: `fetch`, then `read` on the response, both under one timeout of
 * `timeoutMs` milliseconds and the caller's `signal`. The timer is cleared when `read` settles,
 * so reading the body (or a stream) counts against the same timeout.
 *
 * @param read - consumes the response (e.g. `r => r.text()`); it receives the attempt's signal.
 * @returns what `read` returns.
 * @throws HttpAttemptError `timeout` when the timeout fired first, `aborted` when the caller's
 *   signal fired, `network` for any other failure of `fetch` or of reading the body.
 *   A {@link JevMemError} thrown by `read` passes through unchanged.
 */
export async function fetchWithTimeout<T>(
  fetchFn: FetchLike,
  url: string,
  init: RequestInit,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
  read: (response: Response, signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timeout = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    timeout.abort(new HttpAttemptError('timeout', `no answer within ${options.timeoutMs} ms`));
  }, Math.max(0, options.timeoutMs));
  const combined = anySignal([options.signal, timeout.signal]);
  try {
    if (options.signal?.aborted) throw new HttpAttemptError('aborted', 'aborted by the caller', options.signal.reason);
    const response = await fetchFn(url, { ...init, signal: combined.signal });
    return await read(response, combined.signal);
  } catch (e) {
    if (options.signal?.aborted) throw new HttpAttemptError('aborted', 'aborted by the caller', options.signal.reason);
    if (timedOut) throw new HttpAttemptError('timeout', `no answer within ${options.timeoutMs} ms`, e);
    if (e instanceof JevMemError || e instanceof HttpAttemptError) throw e;
    const detail = e instanceof Error ? e.message + (e.cause instanceof Error ? `: ${e.cause.message}` : '') : String(e);
    throw new HttpAttemptError('network', detail, e);
  } finally {
    clearTimeout(timer);
    combined.dispose();
  }
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

/** The outcome of one attempt inside {@link withRetries}. */
export type AttemptOutcome<T> =
  | { ok: true; value: T }
  | {
      ok: false;
      /** Whether another attempt may succeed (408, 429, 529, 5xx, network …). */
      retry: boolean;
      /** The server's requested wait in ms (from `retry-after`); replaces the backoff delay. */
      retryAfterMs?: number | undefined;
      /** The error to throw when no further attempt is made. */
      error: Error;
    };

/** The policy of {@link withRetries}. */
export interface RetryPolicy {
  /** Retries after the first attempt (so at most `retries + 1` attempts). */
  retries: number;
  /** Per-attempt timeout in ms; an attempt never runs past `deadlineAt`. */
  timeoutMs: number;
  /** Absolute deadline in ms since the epoch (`Infinity` for none). */
  deadlineAt: number;
  /** The caller's abort signal. */
  signal?: AbortSignal | undefined;
  /** Wait between attempts. */
  sleep: Sleep;
  /** Delay in ms after failed attempt `i` when the server gave no `retry-after`. */
  backoff: (attempt: number) => number;
  /** Clock in ms since the epoch. @default Date.now */
  now?: () => number;
}

/**
 * Runs `attempt` until it succeeds, fails without `retry`, runs out of retries, or the deadline
 * would be passed. The wait between attempts is the server's `retryAfterMs` when given, else
 * `backoff(i)`; a wait that would end at or after `deadlineAt` is not started.
 *
 * @param attempt - one try; receives the attempt index (0-based) and its timeout in ms
 *   (`min(timeoutMs, time left)`). It may throw to stop at once (e.g. `ABORTED`).
 * @param onDeadline - builds the error thrown when the deadline stops the loop (receives the
 *   last attempt's error, if any).
 * @throws the last attempt's error, `onDeadline(...)`, or JevMemError `ABORTED`.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  attempt: (index: number, timeoutMs: number) => Promise<AttemptOutcome<T>>,
  onDeadline: (last: Error | undefined) => Error,
): Promise<T> {
  const now = policy.now ?? Date.now;
  let last: Error | undefined;
  for (let i = 0; ; i++) {
    throwIfAborted(policy.signal);
    const left = policy.deadlineAt - now();
    if (left <= 0) throw onDeadline(last);
    const outcome = await attempt(i, Math.min(policy.timeoutMs, left));
    if (outcome.ok) return outcome.value;
    last = outcome.error;
    if (!outcome.retry || i >= policy.retries) throw outcome.error;
    const wait = outcome.retryAfterMs ?? policy.backoff(i);
    if (now() + wait >= policy.deadlineAt) throw onDeadline(last);
    await policy.sleep(wait, policy.signal);
  }
}

/** True for the statuses worth retrying: 408, 429, 529 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

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
