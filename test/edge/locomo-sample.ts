/**
 * A LoCoMo-format conversation made from our own example data (examples/sample-conversation.jsonl
 * and sample-questions.jsonl): `speaker_a/b`, `session_<n>` turn lists with `dia_id`s `D<n>:<i>`,
 * `session_<n>_date_time` written the LoCoMo way ("10:15 am on 2 March, 2024"), and `qa` items.
 * Also reads conv-26 from ../shared/data/locomo10.json when that file is present (never copied).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseLocomo, type LocomoSample } from '../../src/formats/locomo.js';
import { ROOT } from './harness.js';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2024-03-02T10:15:00Z` → `10:15 am on 2 March, 2024` (LoCoMo's session date format, UTC). */
export function locomoDate(iso: string): string {
  const d = new Date(iso);
  const h = d.getUTCHours();
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  const minutes = String(d.getUTCMinutes()).padStart(2, '0');
  return `${hour12}:${minutes} ${h < 12 ? 'am' : 'pm'} on ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
}

interface SampleTurn {
  text: string;
  observedAt: string;
  speaker: string;
  sessionId: string;
  turnId: string;
}

/** The example conversation as one LoCoMo sample (`sample_id` `sample-maya-theo`). */
export function sampleConversationAsLocomo(): LocomoSample {
  const lines = (file: string): any[] =>
    readFileSync(join(ROOT, 'examples', file), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l));
  const turns = lines('sample-conversation.jsonl') as SampleTurn[];
  const diaId = (turnId: string): string => turnId.replace(/^S/, 'D');
  const conversation: LocomoSample['conversation'] = { speaker_a: turns[0]!.speaker, speaker_b: turns.find((t) => t.speaker !== turns[0]!.speaker)!.speaker };
  for (const t of turns) {
    const n = Number(/^session_(\d+)$/.exec(t.sessionId)![1]);
    const key = `session_${n}`;
    if (conversation[key] === undefined) {
      conversation[key] = [];
      conversation[`${key}_date_time`] = locomoDate(t.observedAt);
    }
    // LoCoMo keeps the bare utterance; the reader adds "<speaker>: ".
    (conversation[key] as unknown[]).push({ speaker: t.speaker, dia_id: diaId(t.turnId), text: t.text.replace(`${t.speaker}: `, '') });
  }
  const qa = (lines('sample-questions.jsonl') as Array<{ question: string; evidence: string[] }>).map((q) => ({
    question: q.question,
    answer: '',
    evidence: q.evidence.map(diaId),
    category: q.evidence.length > 1 ? 1 : 4,
  }));
  return { sample_id: 'sample-maya-theo', conversation, qa };
}

/** Path of the LoCoMo file beside the repository (SPEC 10), whether or not it exists. */
export const LOCOMO_PATH = join(ROOT, '..', 'shared', 'data', 'locomo10.json');

/** conv-26 of locomo10.json, or undefined when the file is not there. */
export function locomoConv26(): LocomoSample | undefined {
  if (!existsSync(LOCOMO_PATH)) return undefined;
  return parseLocomo(readFileSync(LOCOMO_PATH, 'utf8')).find((s) => s.sample_id === 'conv-26');
}
