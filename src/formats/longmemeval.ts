/**
 * Reader of long user/assistant chat histories in the LongMemEval layout (Wu et al., 2024: the
 * `longmemeval_s` / `_m` / `_oracle` JSON files; read from where the user keeps them, never
 * bundled): a JSON array of questions, each with its own history of dated sessions.
 *
 * A record: `question_id`, `question_type` (single-session-user, single-session-assistant,
 * single-session-preference, multi-session, knowledge-update, temporal-reasoning; an id ending in
 * `_abs` is an abstention question), `question`, `answer`, `question_date`, `haystack_dates`
 * (one per session, written year first: `"2023/05/20 (Sat) 02:21"`), `haystack_session_ids`,
 * `haystack_sessions` (per session, a list of `{role, content, has_answer?}` turns) and
 * `answer_session_ids`.
 *
 * Each turn becomes one observation, kept verbatim (SPEC 10 ingestion): `text` = `content`,
 * `speaker` and `role` = the turn's `role` (speakers known only by role), `observedAt` = the
 * session's date (util/date-input.ts reads the year-first form; no offset = UTC), `sessionId` =
 * the session's id, `turnId` = `<session id>#<n>` (n 1-based within the session). A blank turn
 * adds no observation. The question's evidence is the turns marked `has_answer: true`; when a
 * record marks none (the oracle files of some versions), every turn of its answer sessions.
 *
 * @module
 */
import { invalidInput } from '../errors.js';
import type { Observation } from '../types.js';
import { parseDateInput } from '../util/date-input.js';
import { toIso } from '../util/time.js';

/** The question types of the layout, in their usual order (`category` = 1 + index). */
export const LONGMEMEVAL_TYPES = ['single-session-user', 'single-session-assistant', 'single-session-preference', 'multi-session', 'knowledge-update', 'temporal-reasoning'] as const;

/** One question with its own history, ready to ingest. */
export interface LongMemEvalHistory {
  /** `question_id`. */
  id: string;
  /** `question_type` as written. */
  questionType: string;
  /** 1 + index of `questionType` in {@link LONGMEMEVAL_TYPES}; 0 for a type not listed. */
  category: number;
  /** True for an abstention question (id ending in `_abs`: the history does not hold the answer). */
  abstention: boolean;
  question: string;
  /** The gold answer as a string ('' when absent). */
  answer: string;
  /** The question's date as an ISO-8601 instant (UTC), when the record gives one. */
  questionDate?: string;
  /** One observation per non-blank turn, in session and turn order. */
  observations: Observation[];
  /**
   * Where each observation's text is in the file (`file[0].haystack_sessions[1][1].content`), so
   * that an error naming an observation by index can name the file's field.
   */
  textFields?: string[];
  /** `turnId`s of the evidence turns (see the module note); empty for abstention questions. */
  evidence: string[];
  /** `answer_session_ids` that name a session of the history. */
  answerSessions: string[];
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** True when `data` (parsed JSON) has the layout's shape: a non-empty array of records with `haystack_sessions` arrays. */
export function isLongMemEval(data: unknown): boolean {
  return Array.isArray(data) && data.length > 0 && data.every((r) => Array.isArray(record(r)?.haystack_sessions));
}

/**
 * Parses a file of the layout into one history per question, in the file's order.
 * @param json - the file's text, or its parsed value.
 * @throws JevMemError `INVALID_INPUT` naming the field (`file[3].haystack_dates[7]`): not JSON,
 *   not an array of records, two records with one `question_id`, a record without a string
 *   `question_id` / `question` or without `haystack_sessions`, a `haystack_dates` list of another
 *   length or a date the date parser refuses, a turn that is not `{role, content}` with string
 *   values.
 */
export function parseLongMemEval(json: string | unknown): LongMemEvalHistory[] {
  let data: unknown = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json) as unknown;
    } catch (e) {
      throw invalidInput('file', `not a LongMemEval JSON file (${(e as Error).message})`);
    }
  }
  if (!Array.isArray(data)) throw invalidInput('file', 'expected a LongMemEval JSON array of questions [{question_id, question, haystack_sessions, ...}]');
  const seen = new Set<string>();
  return data.map((raw, i) => {
    const h = longMemEvalHistory(raw, `file[${i}]`);
    if (seen.has(h.id)) throw invalidInput(`file[${i}].question_id`, `two questions have the id ${JSON.stringify(h.id)}`);
    seen.add(h.id);
    return h;
  });
}

function str(r: Record<string, unknown>, key: string, field: string): string {
  const v = r[key];
  if (typeof v !== 'string' || v.trim() === '') throw invalidInput(`${field}.${key}`, `expected a non-empty string, got ${v === null ? 'null' : typeof v}`);
  return v;
}

function longMemEvalHistory(raw: unknown, field: string): LongMemEvalHistory {
  const r = record(raw);
  if (r === undefined) throw invalidInput(field, 'expected a question record {question_id, question, haystack_sessions, ...}');
  const id = str(r, 'question_id', field).trim();
  const question = str(r, 'question', field);
  const sessions = r.haystack_sessions;
  if (!Array.isArray(sessions)) throw invalidInput(`${field}.haystack_sessions`, 'expected a list of sessions, each a list of {role, content} turns');
  const dates = r.haystack_dates;
  if (dates !== undefined && (!Array.isArray(dates) || dates.length !== sessions.length)) {
    throw invalidInput(`${field}.haystack_dates`, `expected one date per session (${sessions.length}), got ${Array.isArray(dates) ? dates.length : typeof dates}`);
  }
  const ids = Array.isArray(r.haystack_session_ids) && r.haystack_session_ids.length === sessions.length ? r.haystack_session_ids : undefined;
  const questionType = typeof r.question_type === 'string' ? r.question_type : '';
  const answerIds = new Set((Array.isArray(r.answer_session_ids) ? r.answer_session_ids : []).map(String));
  const observations: Observation[] = [];
  const textFields: string[] = [];
  const flagged: string[] = [];
  const inAnswerSessions: string[] = [];
  const sessionIds: string[] = [];
  sessions.forEach((turns: unknown, s) => {
    const sessionId = ids !== undefined && (typeof ids[s] === 'string' || typeof ids[s] === 'number') && String(ids[s]).trim() !== '' ? String(ids[s]).trim() : `session_${s + 1}`;
    sessionIds.push(sessionId);
    if (!Array.isArray(turns)) throw invalidInput(`${field}.haystack_sessions[${s}]`, 'expected a list of {role, content} turns');
    const date = dates === undefined || dates[s] === null ? undefined : toIso(parseDateInput(dates[s], `${field}.haystack_dates[${s}]`));
    turns.forEach((t: unknown, n) => {
      const turn = record(t);
      const at = `${field}.haystack_sessions[${s}][${n}]`;
      if (turn === undefined || typeof turn.role !== 'string' || typeof turn.content !== 'string') throw invalidInput(at, 'expected a {role, content} turn with string values');
      if (turn.content.trim() === '') return;
      const turnId = `${sessionId}#${n + 1}`;
      const role = turn.role.trim() || 'user';
      const o: Observation = { text: turn.content, speaker: role, role, sessionId, turnId, source: `longmemeval:${id}` };
      if (date !== undefined) o.observedAt = date;
      observations.push(o);
      textFields.push(`${at}.content`);
      if (turn.has_answer === true) flagged.push(turnId);
      if (answerIds.has(sessionId)) inAnswerSessions.push(turnId);
    });
  });
  const abstention = id.endsWith('_abs');
  const h: LongMemEvalHistory = {
    id,
    questionType,
    category: (LONGMEMEVAL_TYPES as readonly string[]).indexOf(questionType) + 1,
    abstention,
    question,
    answer: r.answer === undefined || r.answer === null ? '' : String(r.answer),
    observations,
    textFields,
    evidence: abstention ? [] : flagged.length > 0 ? flagged : inAnswerSessions,
    answerSessions: [...answerIds].filter((a) => sessionIds.includes(a)),
  };
  if (r.question_date !== undefined && r.question_date !== null) h.questionDate = toIso(parseDateInput(r.question_date, `${field}.question_date`));
  return h;
}
