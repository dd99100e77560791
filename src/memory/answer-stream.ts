/**
 * `Memory.answerStream` (issue 23): the token callback of `answer` turned into an async
 * iterator. Tokens are queued as System Two streams them and handed out in order; the whole
 * answer comes last. Leaving the loop early (break, return, throw) aborts the call.
 *
 * @module
 */
import type { MemoryAnswer } from '../memory.js';

/** One event of `Memory.answerStream`: a streamed piece of the text, then the whole answer. */
export type AnswerStreamEvent = { type: 'token'; token: string } | { type: 'answer'; answer: MemoryAnswer };

/**
 * Runs `start` (an `answer` call given a token callback and an abort signal) and yields its
 * tokens, then its answer.
 * @param outer - The caller's signal: aborting it aborts the call (its error then ends the loop).
 * @throws (from the iterator) what `start` rejects with.
 */
export async function* openAnswerStream(
  start: (onToken: (token: string) => void, signal: AbortSignal) => Promise<MemoryAnswer>,
  outer: AbortSignal | undefined,
): AsyncGenerator<AnswerStreamEvent, void, undefined> {
  const stop = new AbortController();
  const signal = outer === undefined ? stop.signal : AbortSignal.any([outer, stop.signal]);
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let answer: MemoryAnswer | undefined;
  let failure: { error: unknown } | undefined;
  const ping = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  void start((token) => {
    queue.push(token);
    ping();
  }, signal).then(
    (a) => {
      answer = a;
    },
    (e: unknown) => {
      failure = { error: e };
    },
  ).finally(() => {
    settled = true;
    ping();
  });
  try {
    for (;;) {
      const token = queue.shift();
      if (token !== undefined) {
        yield { type: 'token', token };
        continue;
      }
      if (settled) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    if (failure !== undefined) throw failure.error;
    yield { type: 'answer', answer: answer as MemoryAnswer };
  } finally {
    if (!settled) stop.abort(new Error('answerStream: the caller left the loop'));
  }
}
