/**
 * `Memory.answerStream` (issue 23): the token callback of `answer` turned into an async
 * iterator. Tokens are queued as System Two streams them and handed out in order; the whole
 * answer comes last. Leaving the loop early (break, return, throw) aborts the call.
 *
 * @module
 */
/**
 * One event of a streamed answer: a streamed piece of the text, then the whole answer (`A` is
 * `MemoryAnswer` for `Memory.answerStream`, whose `AnswerStreamEvent` is this type over it).
 */
export type StreamEvent<A> = { type: 'token'; token: string } | { type: 'answer'; answer: A };

/**
 * Runs `start` (an `answer` call given a token callback and an abort signal) and yields its
 * tokens, then its answer.
 * @param outer - The caller's signal: aborting it aborts the call (its error then ends the loop).
 * @throws (from the iterator) what `start` rejects with.
 */
export async function* openAnswerStream<A>(
  start: (onToken: (token: string) => void, signal: AbortSignal) => Promise<A>,
  outer: AbortSignal | undefined,
): AsyncGenerator<StreamEvent<A>, void, undefined> {
  const stop = new AbortController();
  const signal = outer === undefined ? stop.signal : AbortSignal.any([outer, stop.signal]);
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  let settled = false;
  let answer: A | undefined;
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
    yield { type: 'answer', answer: answer as A };
  } finally {
    if (!settled) stop.abort(new Error('answerStream: the caller left the loop'));
  }
}
