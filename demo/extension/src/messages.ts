/**
 * The messages between the extension's contexts (one small file, like comlink's wire types).
 *
 * Route: the popup (or the context menu in the service worker) sends a {@link MemoryRequest} to
 * the service worker (`to: 'service-worker'`); the service worker makes sure the offscreen
 * document exists and forwards the request to it (`to: 'offscreen'`), where the memory lives.
 * Every reply is a {@link Reply}. `chrome.runtime` messages are JSON-serialised, so every shape
 * here is JSON-safe (no typed arrays, no Dates, no Error objects).
 *
 * @module
 */
import type { AddResult, RecallResult } from '../../../src/memory.js';
import type { Observation } from '../../../src/types.js';

/** Tag on every message of this extension, so that listeners ignore anything else. */
export const MESSAGE_TAG = 'jev-mem-extension@1' as const;

/** Who a message is for. */
export type MessageTarget = 'service-worker' | 'offscreen';

/** What a context can ask the memory host. */
export type MemoryRequest =
  /** State of the memory; with `wait`, answered once the memory is ready or has failed to load. */
  | { type: 'status'; wait?: boolean }
  /** Writes one observation (built by `observation.ts`). */
  | { type: 'save'; observation: Observation }
  /** Recalls memories for a question, with the trace. `k` defaults to {@link RECALL_K}. */
  | { type: 'recall'; query: string; k?: number }
  /** Deletes one memory by id. */
  | { type: 'forget'; id: string }
  /** Errors, warnings and fetched URLs of every context (service worker, offscreen, worker). */
  | { type: 'diagnostics' };

/** Memories a recall returns unless the request says otherwise. */
export const RECALL_K = 5;

/** One message on `chrome.runtime`. */
export interface Envelope {
  tag: typeof MESSAGE_TAG;
  to: MessageTarget;
  request: MemoryRequest;
}

/** A failure, flattened from a JevMemError (or any error) so that it survives JSON. */
export interface ReplyError {
  /** JevMemError code, or `'EXTENSION'` for failures of the extension's own plumbing. */
  code: string;
  message: string;
  /** The field at fault, when the error names one. */
  field?: string;
}

/** The reply to every request. */
export type Reply<T = unknown> = { ok: true; value: T } | { ok: false; error: ReplyError };

/** Load timings of the memory host, in ms since the offscreen document started. */
export interface LoadTimings {
  /** IndexedDB opened. */
  storageMs?: number;
  /** GloVe-SIF encoder fetched, checked and ready. */
  encoderMs?: number;
  /** System-One worker started and its model loaded. */
  systemOneMs?: number;
  /** Memory ready for requests. */
  readyMs?: number;
}

/** Reply value of `status`. */
export interface StatusValue {
  state: 'loading' | 'ready' | 'failed';
  /** Active memories in the namespace (absent while loading). */
  nodes?: number;
  /** System One in use, once loaded. */
  systemOne?: { modelId: string; engine: string; executionProviders: string[] };
  /** Encoder fingerprint, once loaded. */
  encoder?: string;
  timings: LoadTimings;
  /** Why loading failed (state `failed`). */
  error?: ReplyError;
}

/** Reply value of `save`. */
export interface SaveValue extends AddResult {
  /** Active memories after the write. */
  nodes: number;
}

/** Reply value of `recall`: the memory's result and the time the recall took (ms). */
export interface RecallValue extends RecallResult {
  ms: number;
}

/** Reply value of `forget`. */
export interface ForgetValue {
  deleted: boolean;
  nodes: number;
}

/** What one context reports about itself. */
export interface ContextReport {
  context: 'service-worker' | 'offscreen' | 'system-one-worker' | 'popup';
  /** Uncaught errors, unhandled rejections, CSP violations and `console.error` lines. */
  errors: string[];
  /** `console.warn` lines. */
  warnings: string[];
  /** URLs this context fetched (Resource Timing entries: fetch, scripts, wasm, workers). */
  resources: string[];
}

/** Reply value of `diagnostics`. */
export interface DiagnosticsValue {
  contexts: ContextReport[];
}

/** Wraps a request for `target`. */
export function envelope(to: MessageTarget, request: MemoryRequest): Envelope {
  return { tag: MESSAGE_TAG, to, request };
}

/** True when `message` is one of this extension's envelopes addressed to `to`. */
export function isEnvelopeFor(message: unknown, to: MessageTarget): message is Envelope {
  if (message === null || typeof message !== 'object') return false;
  const m = message as Partial<Envelope>;
  return m.tag === MESSAGE_TAG && m.to === to && m.request !== null && typeof m.request === 'object' && typeof m.request.type === 'string';
}

/** Flattens any thrown value into a {@link ReplyError}. */
export function toReplyError(e: unknown): ReplyError {
  if (e !== null && typeof e === 'object') {
    const o = e as { code?: unknown; message?: unknown; field?: unknown; name?: unknown };
    const code = o.name === 'JevMemError' && typeof o.code === 'string' ? o.code : 'EXTENSION';
    const out: ReplyError = { code, message: typeof o.message === 'string' ? o.message : String(e) };
    if (typeof o.field === 'string') out.field = o.field;
    return out;
  }
  return { code: 'EXTENSION', message: String(e) };
}
