/**
 * The options and results of a memory's read calls: {@link RecallOptions} and
 * {@link RecallResult} of `Memory.recall`, {@link AnswerOptions}, {@link MemoryAnswer} and
 * {@link AnswerStreamEvent} of `Memory.answer` and `Memory.answerStream` (the interface is in
 * api.ts, which re-exports these names). Types only.
 *
 * @module
 */
import type { MemoryParameters } from '../config.js';
import type { MemoryFilter } from '../read/filter.js';
import type { RecallSwitches } from '../read/recall.js';
import type { RecallTrace } from '../read/trace.js';
import type { AnswerResult as SystemTwoAnswer } from '../system-two/types.js';
import type { RecalledMemory } from '../types.js';
import type { StreamEvent } from './answer-stream.js';
import type { CallOptions, MemoryScope } from './types.js';

/** Options of {@link Memory.recall}. */
export interface RecallOptions extends CallOptions {
  /**
   * How many memories to return: an integer from 1 to `MAX_RECALL_K` (1,000; config.ts).
   * @default K (40), or K for multi-hop (50) when h(q) ≥ 0.5
   * @throws JevMemError `INVALID_INPUT` (`options.k`) when not an integer in that range.
   */
  k?: number;
  /**
   * Time limit in ms, a finite number ≥ 0. @default parameters.readDeadlineMs
   * @throws JevMemError `INVALID_OPTION` (`options.deadlineMs`) when negative, NaN or infinite.
   */
  deadlineMs?: number;
  /** Ablation switches (graph expansion, routing, stopping). */
  switches?: RecallSwitches;
  /**
   * Read parameters for this call only (budgets, limits, λ, thresholds), over the memory's.
   * @throws JevMemError `INVALID_OPTION` naming the field, as in `createMemory`.
   */
  parameters?: Partial<MemoryParameters>;
  /**
   * Time window, inclusive start: keep only memories whose event time — any interval of their
   * resolved `timeRefs` — overlaps [after, before), or, for memories without time references,
   * whose `observedAt` lies in it. An ISO-8601 instant (no offset = UTC), an ISO date
   * (`"2023-08-01"` = UTC midnight), a `Date` or epoch ms: the date parser of every option and
   * filter date (util/date-input.ts), which refuses a day that does not exist (`"2024-02-30"`).
   * Memories with no time at all are left out.
   * The window filters the ranked candidates, so fewer than `k` may come back.
   * @throws JevMemError `INVALID_INPUT` (`options.after`) when it cannot be read.
   */
  after?: string | Date | number;
  /** Time window, exclusive end (see `after`). @throws JevMemError `INVALID_INPUT` (`options.before`), also when before `after`. */
  before?: string | Date | number;
  /**
   * Metadata filter (issue 23; `MemoryFilter`, read/filter.ts: equality, `$in`, `$exists`,
   * `$gt`/`$lt` on numbers and ISO dates, `$and`/`$or`/`$not`). Like the time window it chooses
   * the anchors among the memories it keeps and filters the ranking, so fewer than `k` may come
   * back. @throws JevMemError `INVALID_INPUT` naming the bad part (`options.filter.…`).
   */
  filter?: MemoryFilter;
  /** Scope inside the namespace (`userId`, `agentId`, `sessionId`), ANDed with `filter`. */
  scope?: MemoryScope;
  /**
   * Leave out memories whose final `score` (in [0,1], the order of the results) is below this.
   * `score` never rises down the list, so the cut keeps a prefix of the ranking: no memory is
   * left out while one ranked below it is kept (h-break10 finding 4; it compared with the
   * calibrated `relevance` before, which dropped the top answer where System One's a_v missed
   * it). Its level moves with the namespace and the other candidates: read it off the scores a
   * recall returns (docs/api.md). @default 0 (recall keeps every ranked memory); `answer` without it keeps the top-ranked {@link DEFAULT_ANSWER_KEEP_TOP} and, below them, every memory down to the last one with relevance ≥ {@link DEFAULT_ANSWER_MIN_SCORE}
   * @throws JevMemError `INVALID_INPUT` (`options.minScore`) outside [0,1].
   */
  minScore?: number;
  /**
   * When the question is asked: the clock that a time the question names ("last weekend", "two
   * weeks ago", "in March") and a question about the present are read against (read/when.ts).
   * For an app that replays or imports old chats, or asks about a history as of a past day, pass
   * that day: a question asked on 2023-05-30 about "last month" means May 2023. Only the
   * question's time is read against it: expiry, `list` and the write path keep the memory's
   * clock. A memory observed after it is not "the present" for the question and replaces no
   * state: a memory it superseded is not demoted (read/recalled.ts `demotesSuperseded`), and it is
   * not lifted as the newer word on a subject (read/when.ts `presentLift`); it is still recalled
   * (pass `before` to leave such memories out). An ISO-8601 date or instant, a `Date` or epoch ms
   * (the date parser of `after`).
   * @default the memory's clock (`now` of `createMemory`, default the machine clock)
   * @throws JevMemError `INVALID_INPUT` (`options.now`) when it cannot be read.
   */
  now?: string | Date | number;
}

/** Options of {@link Memory.answer} and {@link Memory.answerStream}. */
export interface AnswerOptions extends RecallOptions {
  /**
   * "Today" of the prompt: a Date (written as ISO-8601 UTC) or a string written as given. When
   * it is a Date or an ISO-8601 date / instant it is also the recall's `now` (the time the
   * question's "last month" is read against); a free-form string only goes to the prompt.
   * @default the memory's clock
   */
  now?: Date | string;
  /**
   * Receives the answer's text pieces as System Two streams them (the request is sent with
   * `stream: true`); the pieces joined equal the answer's `text`.
   */
  onToken?: (token: string) => void;
}

/** Result of a recall: the memories, best first, and the trace that explains them. */
export interface RecallResult {
  memories: RecalledMemory[];
  trace: RecallTrace;
}

/** One event of {@link Memory.answerStream}: `{ type: 'token', token }` pieces, then `{ type: 'answer', answer }`. */
export type AnswerStreamEvent = StreamEvent<MemoryAnswer>;

/** Result of {@link Memory.answer}. */
export interface MemoryAnswer extends RecallResult {
  /** The System-Two answer text. */
  text: string;
  systemTwo: Omit<SystemTwoAnswer, 'text'>;
}
