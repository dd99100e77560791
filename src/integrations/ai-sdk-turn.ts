/**
 * How the AI SDK middleware (./ai-sdk.ts) keeps one finished exchange (h-break12 findings 1, 2):
 * which turns are stored, how a message longer than the memory's text limit is kept in parts,
 * and how a failed write is reported without failing the model call whose answer it follows.
 *
 * @module
 */
export { splitTurnText, storableParts } from '../write/split-long.js';

/**
 * How a generation ended, as the AI SDK's unified `finishReason` (`stop`, `length`,
 * `content-filter`, `error`, `interrupted`, `other`; `tool-calls` ends no turn).
 */
export type TurnFinish = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'interrupted' | 'other';

/** What a failed step of the middleware was doing, handed to `onError`. */
export interface RememberFailure {
  /**
   * Which step failed: `'recall'` before the model call (the model is then called without
   * memories), `'remember'` after it (the answer is returned, the exchange is not kept).
   * Absent means `'remember'` (the only step reported before this field existed).
   */
  stage?: 'recall' | 'remember';
  /** The user's message of the exchange (whole, before any split). */
  question: string;
  /** The model's reply ('' when it wrote none, and always at the `'recall'` stage). */
  reply: string;
}

/**
 * The default `onError` of the middleware: one console warning line naming the error and the step,
 * so a memory that cannot be read or written is seen, while the model call still goes on.
 */
export function warnRememberFailed(error: unknown, turn?: RememberFailure): void {
  const e = error as { code?: unknown; message?: unknown };
  const what = (typeof e?.message === 'string' ? `${typeof e.code === 'string' ? `${e.code}: ` : ''}${e.message}` : String(error)).split('\n')[0];
  if (turn?.stage === 'recall') console.warn(`jev-mem/ai-sdk: no memories were recalled (${what}); the model is called without them`);
  else console.warn(`jev-mem/ai-sdk: the exchange was not remembered (${what}); the model's answer is returned`);
}
