/**
 * The plain JSONL observation format: one JSON object a line,
 * `{ text, observedAt?, timeZone?, speaker?, source?, turnId?, sessionId?, metadata? }`. Blank lines are
 * skipped. Validation of each object happens in the write path.
 *
 * @module
 */
import { invalidInput } from '../errors.js';
import type { Observation } from '../types.js';

/**
 * Parses JSONL text into observations.
 * @throws JevMemError `INVALID_INPUT` naming the line (`line 3`) that is not a JSON object.
 */
export function parseJsonl(text: string): Observation[] {
  const out: Observation[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      throw invalidInput(`line ${i + 1}`, `not valid JSON (${(e as Error).message})`);
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) throw invalidInput(`line ${i + 1}`, 'expected a JSON object like {"text": "..."}');
    out.push(v as Observation);
  });
  return out;
}

/**
 * Reads a questions file for batch recall: one question a line, plain text or JSON with a
 * `question` field (other fields are passed through as `meta`).
 */
export function parseQuestions(text: string): Array<{ question: string; meta?: Record<string, unknown> }> {
  const out: Array<{ question: string; meta?: Record<string, unknown> }> = [];
  text.split(/\r?\n/).forEach((line, i) => {
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
