/**
 * Conversation files for the browser tests, built from the repo's own sample conversation
 * (examples/sample-conversation.jsonl) so no licensed data is copied: a LoCoMo-format sample
 * (sessions `session_<n>` with `session_<n>_date_time` written the LoCoMo way, turns with
 * `speaker`, `dia_id`, `text`), optionally repeated with later dates to make it longer.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface SampleTurn {
  text: string;
  observedAt: string;
  speaker: string;
  sessionId: string;
  turnId: string;
}

const SAMPLE = fileURLToPath(new URL('../../examples/sample-conversation.jsonl', import.meta.url));

/** The sample conversation's turns. */
export function sampleTurns(): SampleTurn[] {
  return readFileSync(SAMPLE, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as SampleTurn);
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** A time the LoCoMo way: "10:15 am on 2 March, 2024" (UTC). */
export function locomoDate(d: Date): string {
  const h = d.getUTCHours();
  const m = String(d.getUTCMinutes()).padStart(2, '0');
  return `${h % 12 === 0 ? 12 : h % 12}:${m} ${h < 12 ? 'am' : 'pm'} on ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}, ${d.getUTCFullYear()}`;
}

/**
 * A LoCoMo-format file (JSON array with one sample) holding the sample conversation `copies`
 * times, each copy 8 weeks after the previous; 30 turns a copy.
 */
export function sampleLocomo(copies = 1, sampleId = 'sample-maya-theo'): string {
  const turns = sampleTurns();
  const sessions = [...new Set(turns.map((t) => t.sessionId))];
  const conversation: Record<string, unknown> = { speaker_a: 'Maya', speaker_b: 'Theo' };
  let n = 0;
  for (let c = 0; c < copies; c++) {
    for (const sid of sessions) {
      n++;
      const these = turns.filter((t) => t.sessionId === sid);
      const at = new Date(Date.parse((these[0] as SampleTurn).observedAt) + c * 56 * 86_400_000);
      conversation[`session_${n}_date_time`] = locomoDate(at);
      conversation[`session_${n}`] = these.map((t, i) => ({
        speaker: t.speaker,
        dia_id: `D${n}:${i + 1}`,
        text: t.text.slice(t.text.indexOf(':') + 1).trim(),
      }));
    }
  }
  const qa = [{ question: "Who teaches Maya's pottery class?", answer: 'Ines Duarte', evidence: ['D2:3'], category: 4 }];
  return JSON.stringify([{ sample_id: sampleId, conversation, qa }]);
}

/** A file for `page.setInputFiles`. */
export function jsonFile(name: string, text: string): { name: string; mimeType: string; buffer: Buffer } {
  return { name, mimeType: 'application/json', buffer: Buffer.from(text) };
}

/** Path of LoCoMo (`LOCOMO_PATH`, else ../shared/data/locomo10.json beside the repo), or undefined when absent. */
export function locomoPath(): string | undefined {
  const p = process.env.LOCOMO_PATH ?? fileURLToPath(new URL('../../../shared/data/locomo10.json', import.meta.url));
  return existsSync(p) ? p : undefined;
}
