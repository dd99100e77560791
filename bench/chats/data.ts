/**
 * The chats bench's `data` part (`npm run bench -- chats --data <file>`): histories read from a
 * file in the LongMemEval layout (src/formats/longmemeval.ts), each question with its own
 * history, as {@link ChatHistory}s the bench runs like its generated parts. The question types of
 * the layout are the bench's kinds (`CHAT_KINDS`), so the tables read the same. Abstention
 * questions (no evidence turns) are kept but not scored.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { parseLongMemEval, type LongMemEvalHistory } from '../../src/formats/longmemeval.js';
import type { ChatsDataPart } from './chats.js';
import type { ChatHistory } from './generate.js';

/** One question of the layout as a one-question {@link ChatHistory} (category = 1 + index of its type in `CHAT_KINDS`, 0 when not one of them). */
export function chatHistoryOf(q: LongMemEvalHistory): ChatHistory {
  const h: ChatHistory = {
    sampleId: q.id,
    seed: 0,
    speakers: ['user', 'assistant'],
    observations: q.observations,
    questions: [{ id: `${q.id}#0`, question: q.question, answer: q.answer, category: q.category, evidence: q.evidence, brokenEvidence: false }],
  };
  if (q.questionDate !== undefined) h.askedAt = q.questionDate;
  return h;
}

/**
 * Reads `file` as the `data` part.
 * @param limit - the first `limit` questions only (in the file's order).
 * @throws the reader's JevMemError `INVALID_INPUT` naming what is wrong; Node's error when the file cannot be read.
 */
export async function readDataPart(file: string, limit?: number): Promise<ChatsDataPart> {
  const questions = parseLongMemEval(await readFile(file, 'utf8'));
  const kept = limit === undefined ? questions : questions.slice(0, limit);
  return { file, histories: kept.map((q) => () => chatHistoryOf(q)) };
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** An instant as the layout writes session dates: `2023/05/20 (Sat) 02:21` (UTC). */
export function layoutDate(iso: string): string {
  const d = new Date(iso);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} (${DAYS[d.getUTCDay()]}) ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}`;
}

/**
 * One question of a generated history written in the LongMemEval layout (the inverse of
 * {@link chatHistoryOf} up to the session clock: every turn of a session gets its session's
 * first time, to the minute): sessions in order of first turn, turns with `role` = speaker and
 * `has_answer` on the question's evidence, `question_date` the history's question date.
 */
export function longMemEvalRecordOf(h: ChatHistory, questionIndex: number, askedAt: string): Record<string, unknown> {
  const q = h.questions[questionIndex];
  if (q === undefined) throw new Error(`history ${h.sampleId} has no question ${questionIndex}`);
  const gold = new Set(q.evidence);
  const sessions = new Map<string, { date: string; turns: Array<Record<string, unknown>> }>();
  for (const o of h.observations) {
    const id = o.sessionId ?? 'session';
    const s = sessions.get(id) ?? { date: layoutDate(String(o.observedAt)), turns: [] };
    s.turns.push({ role: o.speaker, content: o.text, ...(gold.has(String(o.turnId)) ? { has_answer: true } : {}) });
    sessions.set(id, s);
  }
  const types = ['single-session-user', 'single-session-assistant', 'single-session-preference', 'multi-session', 'knowledge-update', 'temporal-reasoning'];
  return {
    question_id: `${h.sampleId}-${questionIndex}`,
    question_type: types[q.category - 1] ?? 'unknown',
    question: q.question,
    answer: q.answer,
    question_date: layoutDate(askedAt),
    haystack_session_ids: [...sessions.keys()],
    haystack_dates: [...sessions.values()].map((s) => s.date),
    haystack_sessions: [...sessions.values()].map((s) => s.turns),
    answer_session_ids: [...new Set(h.observations.filter((o) => gold.has(String(o.turnId))).map((o) => o.sessionId))],
  };
}
