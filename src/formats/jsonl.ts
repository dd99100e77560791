/**
 * The plain JSONL observation format: one JSON object a line,
 * `{ text, observedAt?, timeZone?, speaker?, source?, turnId?, sessionId?, metadata?, userId?,
 * agentId?, expiresAt? }` (the fields of an {@link Observation}, `OBSERVATION_FIELDS` of
 * write/validate.ts, and those `Memory.add` takes besides, `role` included), or a chat message. Blank lines
 * are skipped, and so is a UTF-8 byte-order mark at the start (editors on Windows write one).
 * Validation of each object happens in the write path.
 *
 * @module
 */
import { invalidInput } from '../errors.js';
import type { Observation } from '../types.js';
import { showInvisible } from '../util/invisible.js';
import { toObservation } from '../memory/input.js';
import { CHAT_MESSAGE_FIELDS, INPUT_FIELDS, validateObservation } from '../write/validate.js';

/** The fields only a chat message gives (`content`, `name`): every other input field may stand beside `text`. */
const CHAT_ONLY_FIELDS: readonly string[] = CHAT_MESSAGE_FIELDS.filter((f) => f !== 'role');

/**
 * One line of the CLI help on the JSONL fields, made from `INPUT_FIELDS` of write/validate.ts
 * (every field the write path accepts) so it cannot leave one out: the observation's fields
 * (`text` required), then the chat message's.
 */
export const JSONL_FIELDS_HELP = `one JSON object a line,
  {${INPUT_FIELDS.filter((f) => !CHAT_ONLY_FIELDS.includes(f))
    .map((f) => (f === 'text' ? `"${f}"` : `"${f}"?`))
    .join(', ')}}
  or a chat message {${CHAT_MESSAGE_FIELDS.map((f) => (f === 'name' ? `"${f}"?` : `"${f}"`)).join(', ')}};
  observedAt is ISO-8601 (its UTC offset, within ±14:00, is the speaker's; none = UTC), timeZone an
  IANA zone ("Europe/Lisbon") that sets the speaker's local calendar at observedAt`;

/** `text` without a leading byte-order mark (U+FEFF), which a UTF-8 file may start with. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses JSONL text into observations, one a line: `text` (required), `observedAt` (ISO-8601,
 * a Date string or epoch ms; its UTC offset is the speaker's), `timeZone` (an IANA zone such as
 * `Europe/Lisbon`: the speaker's local calendar at `observedAt`, over the written offset),
 * `speaker`, `source`, `turnId`, `sessionId` (strings), `metadata` (an object), and the scope and
 * expiry fields of `Memory.add` (`userId`, `agentId`, `expiresAt`, kept in `metadata`); a line may
 * also be a chat message `{ role, content, name? }` (memory/input.ts). The fields are checked
 * here, naming the line's field.
 * @throws JevMemError `INVALID_INPUT` naming the line (`line 3`) that is not a JSON object, or
 *   the line's field that is not a valid observation field (`line 3.observedAt`).
 */
export function parseJsonl(text: string): Observation[] {
  return parseJsonlFields(text).observations;
}

/**
 * {@link parseJsonl}, with where each observation's text is in the file: `textFields[i]` is
 * `line 7.text`, or `line 7.content` for a chat message, so that an error the memory names by
 * index (`observations[3].text`) can name the field as the file spells it.
 * @throws as {@link parseJsonl}.
 */
export function parseJsonlFields(text: string): { observations: Observation[]; textFields: string[] } {
  const out: Observation[] = [];
  const textFields: string[] = [];
  withoutBom(text).split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      throw invalidInput(`line ${i + 1}`, `not valid JSON (${showInvisible((e as Error).message)})`);
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalidInput(`line ${i + 1}`, 'expected a JSON object like {"text": "..."}');
    // Each field is checked here so a bad one is named by its line ("line 7.observedAt"); the text
    // length limit is the memory's, checked when the observations are written.
    // The API's input forms first (memory/input.ts): `userId` / `agentId` / `expiresAt` into
    // metadata, a chat message `{ role, content, name? }` into an observation.
    const o = toObservation(v, `line ${i + 1}`);
    validateObservation(o, `line ${i + 1}`, Number.POSITIVE_INFINITY);
    out.push(o as Observation);
    textFields.push(`line ${i + 1}.${'text' in v ? 'text' : 'content'}`);
  });
  return { observations: out, textFields };
}

/**
 * Reads a questions file for batch recall: one question a line, plain text or JSON with a
 * `question` field (other fields are passed through as `meta`).
 */
export function parseQuestions(text: string): Array<{ question: string; meta?: Record<string, unknown> }> {
  const out: Array<{ question: string; meta?: Record<string, unknown> }> = [];
  withoutBom(text).split(/\r?\n/).forEach((line, i) => {
    const s = line.trim();
    if (s === '') return;
    if (s.startsWith('{')) {
      let v: unknown;
      try {
        v = JSON.parse(s);
      } catch (e) {
        throw invalidInput(`line ${i + 1}`, `not valid JSON (${(e as Error).message})`);
      }
      const q = (v as { question?: unknown }).question;
      if (typeof q !== 'string' || q.trim() === '') throw invalidInput(`line ${i + 1}.question`, 'expected a non-empty string');
      out.push({ question: q, meta: v as Record<string, unknown> });
    } else out.push({ question: s });
  });
  return out;
}
