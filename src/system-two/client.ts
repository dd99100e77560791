/**
 * The System-Two client (SPEC 7): one OpenAI-compatible chat completion per answer, through a
 * configurable `fetch` (URL, headers, model, body transform, streaming, timeout, retries, abort
 * signal), or through a user-supplied `complete` function instead of HTTP.
 *
 * @module
 */
import { JevMemError, describeValue, invalidInput, invalidOption, throwIfAborted } from '../errors.js';
import { HTTPError, TimeoutError } from 'ky';
import { backoffDelay, defaultSleep, excerpt, postWithRetries, readEventStream, rejectOnAbort, safeUrl, type FetchLike } from '../util/http.js';
import { buildAnswerPrompt } from './prompt.js';
import type {
  AnswerRequest,
  AnswerResult,
  ChatCompletionBody,
  ChatMessage,
  ChatUsage,
  SystemTwo,
  SystemTwoOptions,
} from './types.js';

const DEFAULTS = { temperature: 0, maxTokens: 512, stream: false, timeoutMs: 60_000, retries: 2 } as const;

/** A parsed completion: text plus what the server said about itself. */
interface Completion {
  text: string;
  model?: string;
  usage?: ChatUsage;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readUsage(u: unknown): ChatUsage | undefined {
  if (!isRecord(u)) return undefined;
  const p = u.prompt_tokens;
  const c = u.completion_tokens;
  if (typeof p !== 'number' || typeof c !== 'number') return undefined;
  const t = typeof u.total_tokens === 'number' ? u.total_tokens : p + c;
  return { promptTokens: p, completionTokens: c, totalTokens: t };
}

/** The path the client appends to a base URL (OpenAI convention). */
export const CHAT_COMPLETIONS_PATH = '/chat/completions';

/**
 * The chat-completions address of a System-Two `url` (issue 23, one convention for the API, the
 * CLI and the environment): a base URL (`https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`)
 * gets {@link CHAT_COMPLETIONS_PATH} appended (trailing slashes dropped); a URL whose path already
 * ends in `/chat/completions` is used as given (back-compat). Query strings are kept.
 * @throws JevMemError `INVALID_OPTION` (field `url`) when it is not an absolute http(s) URL.
 */
export function chatCompletionsUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw invalidOption('url', `expected an absolute base URL such as "http://127.0.0.1:8080/v1", got ${describeValue(url)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw invalidOption('url', `expected an http(s) URL, got ${describeValue(url)}`);
  const path = u.pathname.replace(/\/+$/, '');
  if (!path.endsWith(CHAT_COMPLETIONS_PATH)) u.pathname = `${path}${CHAT_COMPLETIONS_PATH}`;
  return u.toString();
}

function checkNumber(field: string, v: number | undefined, fallback: number, rule: 'ms' | 'count' | 'positiveInt' | 'nonNegative'): number {
  if (v === undefined) return fallback;
  const ok =
    typeof v === 'number' &&
    Number.isFinite(v) &&
    (rule === 'ms' ? v > 0 : rule === 'count' ? Number.isInteger(v) && v >= 0 : rule === 'positiveInt' ? Number.isInteger(v) && v > 0 : v >= 0);
  if (!ok) {
    const expected = { ms: 'a number of ms > 0', count: 'an integer ≥ 0', positiveInt: 'an integer > 0', nonNegative: 'a number ≥ 0' }[rule];
    throw invalidOption(field, `expected ${expected}, got ${describeValue(v)}`);
  }
  return v;
}

/**
 * Creates the System-Two client (SPEC 7).
 *
 * Each {@link SystemTwo.answer} builds the prompt with `buildAnswerPrompt` and sends
 * `{model, messages, temperature, max_tokens, stream?}` (after `transformBody`) as a POST to
 * `chatCompletionsUrl(url)` (the base URL plus `/chat/completions`; a URL already ending in it is
 * used as given) with `Authorization: Bearer <apiKey>` when a key is set; non-streaming answers
 * are read from `choices[0].message.content`, streaming ones (option `stream`, or a request with
 * `onToken`) by joining the `choices[0].delta.content` of each `data:` chunk until `[DONE]`, each
 * piece handed to `onToken` as it arrives. Network errors, 408, 429 and 5xx are retried (`retries`
 * times, after `retry-after` or a backoff of ≈ 500 ms doubling); timeouts are not.
 *
 * @throws JevMemError `INVALID_OPTION` for bad options (field names the option: `model`, `url`, …).
 *
 * `answer` throws JevMemError:
 * - `SYSTEM_TWO_HTTP` for a non-2xx answer (with `status` and a short body excerpt; a 404 names
 *   the URL called and the base-URL convention) and, without
 *   `status`, for network errors once retries are spent;
 * - `SYSTEM_TWO_TIMEOUT` when an attempt (or the `complete` hook) runs past `timeoutMs`;
 * - `SYSTEM_TWO_BAD_RESPONSE` for a body that is not a chat completion (invalid JSON, no
 *   `choices[0].message.content` string, an unreadable stream, a stream with no event carrying
 *   `choices`, a stream that ends without `[DONE]` and without a chunk carrying a `finish_reason`,
 *   or one whose connection breaks mid-answer: a cut connection, the text partial)
 *   or a hook result that is not a string;
 * - `ABORTED` when the request's `signal` fires; `INVALID_INPUT` for a bad query or evidence.
 * Errors thrown by a `complete` hook pass through unchanged. No message contains the API key.
 *
 * @example
 * ```ts
 * const s2 = createSystemTwo({ url: 'http://127.0.0.1:8080/v1', model: 'llama-3.1-8b' });
 * const { text } = await s2.answer({ query: 'Where did Ana move?', evidence });
 * ```
 */
export function createSystemTwo(options: SystemTwoOptions): SystemTwo {
  if (typeof options?.model !== 'string' || options.model.trim() === '') {
    throw invalidOption('model', `expected the model name to send, e.g. "gpt-4o-mini", got ${JSON.stringify(options?.model)}`);
  }
  const complete = options.complete;
  if (complete !== undefined && typeof complete !== 'function') throw invalidOption('complete', 'expected a function (messages, {signal}) => Promise<string>');
  if (complete === undefined && (typeof options.url !== 'string' || options.url.trim() === '')) {
    throw invalidOption('url', 'expected an OpenAI-compatible base URL, e.g. "http://127.0.0.1:8080/v1" (the client appends /chat/completions), or a `complete` function');
  }
  const model = options.model;
  const url = complete === undefined ? chatCompletionsUrl(options.url as string) : (options.url ?? '');
  const temperature = checkNumber('temperature', options.temperature, DEFAULTS.temperature, 'nonNegative');
  const maxTokens = checkNumber('maxTokens', options.maxTokens, DEFAULTS.maxTokens, 'positiveInt');
  const timeoutMs = checkNumber('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs, 'ms');
  const retries = checkNumber('retries', options.retries, DEFAULTS.retries, 'count');
  const stream = options.stream ?? DEFAULTS.stream;
  const fetchFn: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const sleep = options.sleep ?? defaultSleep;
  const apiKey = options.apiKey === '' ? undefined : options.apiKey;
  const headersFor = (streaming: boolean): Record<string, string> => {
    const h: Record<string, string> = { ...(options.headers ?? {}), 'content-type': 'application/json', accept: streaming ? 'text/event-stream' : 'application/json' };
    if (apiKey !== undefined) h.authorization = `Bearer ${apiKey}`;
    return h;
  };
  // Anything that may be a credential is removed from error excerpts.
  const secrets = [apiKey, ...Object.values(options.headers ?? {}).filter((v) => typeof v === 'string' && v.length >= 8)];
  const where = safeUrl(url);

  const badResponse = (what: string, cause?: unknown): JevMemError =>
    new JevMemError('SYSTEM_TWO_BAD_RESPONSE', `System Two at ${where} did not answer with a chat completion: ${what}`, cause === undefined ? {} : { cause });
  const timedOut = (ms: number): JevMemError =>
    new JevMemError('SYSTEM_TWO_TIMEOUT', `System Two gave no answer within ${Math.round(ms)} ms: raise the timeoutMs option or check the endpoint`);
  const aborted = (signal: AbortSignal | undefined): JevMemError =>
    new JevMemError('ABORTED', 'the operation was aborted by the caller', { cause: signal?.reason });

  /** Parses a non-streaming chat-completion body. */
  function parseCompletion(text: string): Completion {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw badResponse(`the body is not JSON (${excerpt(text, secrets, 120)})`, e);
    }
    const choice = isRecord(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
    const content = isRecord(choice) && isRecord(choice.message) ? choice.message.content : undefined;
    if (typeof content !== 'string') throw badResponse(`no string at choices[0].message.content (${excerpt(text, secrets, 120)})`);
    const out: Completion = { text: content };
    if (isRecord(json) && typeof json.model === 'string') out.model = json.model;
    const usage = isRecord(json) ? readUsage(json.usage) : undefined;
    if (usage) out.usage = usage;
    return out;
  }

  /** Reads a `text/event-stream` of `chat.completion.chunk`s, joining `choices[0].delta.content` (each piece also to `onToken`). */
  async function parseStream(body: ReadableStream<Uint8Array>, onToken: ((token: string) => void) | undefined): Promise<Completion> {
    const out: Completion = { text: '' };
    let chunks = 0;
    // How the stream ended: `[DONE]`, or a chunk with a finish_reason (some servers send no
    // `[DONE]`). Neither means the connection was cut mid-answer: the text is partial.
    let done = false;
    let finished = false;
    const events = readEventStream(body);
    for (;;) {
      let next: IteratorResult<string>;
      try {
        next = await events.next();
      } catch (e) {
        // The body broke after the 2xx answer began (a reset socket): the text so far is partial.
        // A timeout or abort is told apart by the caller (its signals), whatever this says.
        const why = e instanceof Error ? e.message + (e.cause instanceof Error ? `: ${e.cause.message}` : '') : String(e);
        throw badResponse(`the connection broke mid-answer after ${out.text.length} characters (${excerpt(why, secrets, 120)}), so the text is partial`, e);
      }
      if (next.done === true) break;
      const data = next.value;
      if (data.trim() === '[DONE]') {
        done = true;
        break;
      }
      let chunk: unknown;
      try {
        chunk = JSON.parse(data);
      } catch (e) {
        throw badResponse(`a stream event is not JSON (${excerpt(data, secrets, 120)})`, e);
      }
      if (!isRecord(chunk)) throw badResponse(`a stream event is not an object (${excerpt(data, secrets, 120)})`);
      if (chunk.error !== undefined) throw badResponse(`the stream reported an error (${excerpt(JSON.stringify(chunk.error), secrets, 160)})`);
      // Only an event with `choices` is a chat-completion chunk (a usage-only last chunk has `choices: []`).
      if (Array.isArray(chunk.choices)) chunks++;
      if (typeof chunk.model === 'string') out.model = chunk.model;
      const usage = readUsage(chunk.usage);
      if (usage) out.usage = usage;
      const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
      if (isRecord(choice) && typeof choice.finish_reason === 'string' && choice.finish_reason !== '') finished = true;
      const piece = isRecord(choice) && isRecord(choice.delta) ? choice.delta.content : undefined;
      if (typeof piece === 'string' && piece !== '') {
        out.text += piece;
        onToken?.(piece);
      }
    }
    if (chunks === 0) throw badResponse('the stream held no chat-completion chunk (no event had `choices`)');
    if (!done && !finished) throw badResponse(`the stream ended without [DONE] and without a finish_reason after ${out.text.length} characters: the connection was cut mid-answer, so the text is partial`);
    return out;
  }

  async function viaHttp(messages: ChatMessage[], signal: AbortSignal | undefined, onToken: ((token: string) => void) | undefined): Promise<Completion> {
    // A token callback asks for a stream whatever the `stream` option says.
    const streaming = stream || onToken !== undefined;
    const base: ChatCompletionBody = { model, messages, temperature, max_tokens: maxTokens };
    if (streaming) base.stream = true;
    const headers = headersFor(streaming);
    const body = options.transformBody ? options.transformBody(base) : base;
    try {
      return await postWithRetries(
        {
          url, headers, body: JSON.stringify(body), fetch: fetchFn, retries, timeoutMs, retryOnTimeout: false,
          backoff: (n) => backoffDelay(n - 1, { jitter: true }), sleep, signal: signal ?? new AbortController().signal,
        },
        async (r) => {
          const type = r.headers.get('content-type') ?? '';
          // A server may ignore `stream: true` and answer with plain JSON: accept both.
          if (streaming && type.includes('text/event-stream') && r.body) return parseStream(r.body, onToken);
          const c = parseCompletion(await r.text());
          if (c.text !== '') onToken?.(c.text);
          return c;
        },
      );
    } catch (e) {
      if (signal?.aborted) throw aborted(signal);
      if (e instanceof JevMemError) throw e;
      if (e instanceof TimeoutError) throw timedOut(timeoutMs);
      if (e instanceof HTTPError) {
        const status = e.response.status;
        const text = await e.response.text().catch(() => '');
        const hint = status === 404 ? ` — the URL called was ${where}; give System Two a base URL such as http://127.0.0.1:8080/v1 (the client appends ${CHAT_COMPLETIONS_PATH}), and check the server serves that path` : '';
        throw new JevMemError('SYSTEM_TWO_HTTP', `System Two at ${where} answered HTTP ${status}: ${excerpt(text, secrets) || '(empty body)'}${hint}`, { status, cause: e });
      }
      const detail = e instanceof Error ? e.message + (e.cause instanceof Error ? `: ${e.cause.message}` : '') : String(e);
      throw new JevMemError('SYSTEM_TWO_HTTP', `System Two at ${where} could not be reached: ${excerpt(detail, secrets)}`, { cause: e });
    }
  }

  async function viaHook(messages: ChatMessage[], signal: AbortSignal | undefined): Promise<Completion> {
    const timeout = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      timeout.abort(timedOut(timeoutMs));
    }, timeoutMs);
    const combined = { signal: AbortSignal.any(signal === undefined ? [timeout.signal] : [signal, timeout.signal]) };
    // Settles when the combined signal fires, so a hook that ignores its signal cannot hang the call.
    const stop = rejectOnAbort(combined.signal);
    try {
      const text: unknown = await Promise.race([complete!(messages, { signal: combined.signal }), stop.promise]);
      if (typeof text !== 'string') throw badResponse(`the complete() hook returned ${text === null ? 'null' : typeof text}, expected a string`);
      return { text };
    } catch (e) {
      if (signal?.aborted) throw aborted(signal);
      if (expired) throw timedOut(timeoutMs);
      throw e;
    } finally {
      clearTimeout(timer);
      stop.dispose();
    }
  }

  return {
    model,
    async answer(request: AnswerRequest): Promise<AnswerResult> {
      if (!isRecord(request)) throw invalidInput('request', 'expected {query, evidence, signal?, now?}');
      const { query, evidence, signal, now, onToken } = request;
      if (onToken !== undefined && typeof onToken !== 'function') throw invalidInput('onToken', `expected a function (token) => void, got ${describeValue(onToken)}`);
      if (typeof query !== 'string' || query.trim() === '') throw invalidInput('query', `expected a non-empty string, got ${JSON.stringify(query)}`);
      if (!Array.isArray(evidence)) throw invalidInput('evidence', 'expected an array of {id, text, observedAt?, speaker?, score}');
      evidence.forEach((item, i) => {
        if (!isRecord(item) || typeof item.id !== 'string' || typeof item.text !== 'string') {
          throw invalidInput(`evidence.${i}`, 'expected {id: string, text: string, observedAt?, speaker?, score}');
        }
      });
      throwIfAborted(signal);
      const started = performance.now();
      const prompt = buildAnswerPrompt(query, evidence, now);
      const completion = complete ? await viaHook(prompt, signal) : await viaHttp(prompt, signal, onToken);
      if (complete && completion.text !== '') onToken?.(completion.text); // a hook answers in one piece
      const result: AnswerResult = {
        text: completion.text,
        model: completion.model ?? model,
        latencyMs: performance.now() - started,
        prompt,
      };
      if (completion.usage) result.usage = completion.usage;
      return result;
    },
  };
}
