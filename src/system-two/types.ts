/**
 * Types of the System-Two client (SPEC 7): OpenAI-compatible chat messages and bodies, the
 * evidence handed to System Two, the client's options and its answer. Types only.
 *
 * @module
 */
import type { FetchLike, Sleep } from '../util/http.js';

/** One chat message of an OpenAI-compatible chat completion. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The request body the client sends (before `transformBody`). Snake case: it is the wire format. */
export interface ChatCompletionBody {
  model: string;
  messages: ChatMessage[];
  temperature: number;
  max_tokens: number;
  /** Present (true) only when streaming. */
  stream?: boolean;
  [key: string]: unknown;
}

/** One memory given to System Two as evidence (from `recall`, SPEC 6 step 6). */
export interface EvidenceItem {
  /** Node id; quoted in the prompt so answers can cite it. */
  id: string;
  /** Verbatim text of the memory (untrusted: it is quoted as data, never as instructions). */
  text: string;
  /** When it was said / happened (ISO-8601), when known. */
  observedAt?: string;
  /**
   * The same instant in the speaker's local time (`2024-03-10T07:30:00+09:00`); shown to the
   * model as `time` instead of `observedAt`, so the day is the speaker's.
   */
  observedAtLocal?: string;
  /**
   * Time expressions of the text resolved to the speaker's local calendar (`RecalledTimeRef`:
   * `text`, `when`, `certainty`); shown to the model as `events`.
   */
  timeRefs?: ReadonlyArray<{ text: string; when: string; certainty: number }>;
  /** Who said it, when known. */
  speaker?: string;
  /** Turn id (e.g. a LoCoMo `dia_id`). Not shown to the model. */
  turnId?: string;
  /** Retrieval score (the read path's scale). Not shown to the model. */
  score: number;
  /**
   * When a newer memory replaced this one (ISO-8601): shown to the model as `replaced`, so the
   * latest state wins (issue 7 item 1: superseded memories stay retrievable "as of" a time).
   */
  supersededAt?: string;
  /**
   * `supersededAt` in local time (`RecalledMemory.supersededAtLocal`); shown to the model as
   * `replaced` instead of `supersededAt`, in the same local form as `time`.
   */
  supersededAtLocal?: string;
}

/** Token counts reported by the server, when it reports them. */
export interface ChatUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

/** Argument of {@link SystemTwo.answer}. */
export interface AnswerRequest {
  /** The user's question (trusted: it is the caller's own text). */
  query: string;
  /** The memories to answer from (SPEC 6: the top K of `recall`). */
  evidence: EvidenceItem[];
  /** Cancels the call; it then rejects with JevMemError `ABORTED`. */
  signal?: AbortSignal;
  /** "Today" for temporal questions (shown in the prompt); a Date, or a string shown as given. */
  now?: Date | string;
  /**
   * Receives the answer's text pieces as they arrive (issue 23): the request is then sent with
   * `stream: true` (server-sent events), whatever the `stream` option; a server that answers
   * with plain JSON, or a `complete` hook, gives one piece, the whole text. The pieces joined
   * equal `AnswerResult.text`. An error it throws fails the call.
   */
  onToken?: (token: string) => void;
}

/** What {@link SystemTwo.answer} resolves to. */
export interface AnswerResult {
  /** The model's answer text. */
  text: string;
  /** The model that answered (the server's `model` field, else `options.model`). */
  model: string;
  /** Token counts, when the server sent them. */
  usage?: ChatUsage;
  /** Wall time of the whole call in ms, retries included. */
  latencyMs: number;
  /** The messages that were sent (for traces and debugging). */
  prompt: ChatMessage[];
}

/**
 * A user-supplied completion function that replaces HTTP entirely: receives the prompt and
 * resolves to the answer text. Errors it throws pass through unchanged.
 */
export type CompleteFn = (messages: ChatMessage[], options: { signal: AbortSignal }) => Promise<string>;

/** Options of `createSystemTwo` (SPEC 7). */
export interface SystemTwoOptions {
  /**
   * OpenAI-compatible base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`:
   * the client appends `/chat/completions` (the same convention as `JEV_MEM_LLM_BASE_URL` of the
   * CLI and the Worker). A full URL whose path ends in `/chat/completions` is still accepted and
   * used as given. Required unless `complete` is given. In a browser, prefer a proxy of yours over
   * putting a key in the page.
   * @throws JevMemError `INVALID_OPTION` (field `url`) when it is not an absolute http(s) URL.
   */
  url?: string;
  /** Sent as `Authorization: Bearer <key>`; never appears in error messages. @default undefined */
  apiKey?: string;
  /** Extra request headers (e.g. `x-api-key` for a gateway). @default {} */
  headers?: Record<string, string>;
  /** Model name sent in the body (required). */
  model: string;
  /** Sampling temperature. @default 0 */
  temperature?: number;
  /** Largest answer length in tokens (`max_tokens`). @default 512 */
  maxTokens?: number;
  /** Rewrites the request body before it is sent (add vendor fields, rename `max_tokens` …). @default identity */
  transformBody?: (body: ChatCompletionBody) => Record<string, unknown>;
  /** Ask for a server-sent-events stream and join its `delta.content` pieces. @default false */
  stream?: boolean;
  /** Timeout of one attempt in ms, the whole body or stream included (ky `timeout` until the headers, the rest for the body). @default 60000 */
  timeoutMs?: number;
  /** Retries after the first attempt on network errors, 408, 429 and 5xx (not on timeouts). @default 2 */
  retries?: number;
  /** The `fetch` to use. @default globalThis.fetch */
  fetch?: FetchLike;
  /** Replaces HTTP entirely (see {@link CompleteFn}); `url`, `apiKey`, `headers`, `stream`, `retries` are then unused. */
  complete?: CompleteFn;
  /** Wait between attempts (inject a fake one in tests). @default a setTimeout-based sleep */
  sleep?: Sleep;
}

/** The System-Two client (SPEC 7). */
export interface SystemTwo {
  /** The configured model name. */
  readonly model: string;
  /**
   * Writes an answer to `query` from `evidence` with one chat completion.
   * @throws JevMemError `SYSTEM_TWO_HTTP` (non-2xx, with `status`), `SYSTEM_TWO_TIMEOUT`,
   *   `SYSTEM_TWO_BAD_RESPONSE` (not a chat completion), `ABORTED`, `INVALID_INPUT` (bad request).
   */
  answer(request: AnswerRequest): Promise<AnswerResult>;
}
