/**
 * Reader of the MemoryBank / SiliconFriend English test histories (`memory_bank_en.json`, MIT;
 * read from where the user keeps it, never bundled): simulated users, each with days of
 * `{query, response}` exchanges with an AI companion, and their probing questions (a JSONL file of
 * `{"<user>": [question, …]}` lines; the data has no gold answers).
 *
 * Each exchange becomes two observations, as LoCoMo turns do (SPEC 10 ingestion): the user's
 * message `"<name>: <query>"` and the companion's reply `"AI: <response>"`, observed at the day's
 * date (UTC midnight), session = the day, provenance `turnId` `<day>#<n>:user` / `<day>#<n>:ai`
 * (n is 1-based within the day). A missing or blank `query` or `response` adds no observation.
 * The `summary`, `personality` and `meta_information` fields are not memories of the conversation
 * and are not read.
 *
 * @module
 */
import { invalidInput } from '../errors.js';
import type { Observation } from '../types.js';
import { parseTimestamp, toIso } from '../util/time.js';

/** One simulated user's conversation, ready to ingest. */
export interface MemoryBankUser {
  /** The user's key in the file, trimmed (the file pads some keys with spaces: `" Jason "`). */
  id: string;
  /** The user's name (the `name` field, else the key). */
  name: string;
  /** Days in the file's order, each `YYYY-MM-DD`. */
  days: string[];
  /** Two observations per exchange, in day and exchange order. */
  observations: Observation[];
  /** Where each observation's text is in the file (`file.<user>.history.<day>[3].response`). */
  textFields?: string[];
}

/** The speaker name of the companion's replies. */
export const MEMORYBANK_AI_SPEAKER = 'AI';

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** True when `data` (parsed JSON) has the MemoryBank history shape: an object of users with a `history` object. */
export function isMemoryBankHistory(data: unknown): boolean {
  const users = record(data);
  if (users === undefined) return false;
  const values = Object.values(users);
  return values.length > 0 && values.every((u) => record(record(u)?.history) !== undefined);
}

/**
 * Parses the MemoryBank history file into users, in the file's order.
 * @param json - the file's text, or its parsed value.
 * @returns one {@link MemoryBankUser} per user.
 * @throws JevMemError `INVALID_INPUT` naming the field: not JSON, not an object of users, two
 *   users whose keys are the same once trimmed, a user without a `history` object, a day that is
 *   not a real `YYYY-MM-DD` date, or an exchange whose `query` / `response` is present but not a
 *   string.
 */
export function parseMemoryBank(json: string | unknown): MemoryBankUser[] {
  let data: unknown = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json) as unknown;
    } catch (e) {
      throw invalidInput('file', `not a MemoryBank JSON file (${(e as Error).message})`);
    }
  }
  const users = record(data);
  if (users === undefined) throw invalidInput('file', 'expected a MemoryBank JSON object {"<user>": {"history": {...}}}');
  const seen = new Set<string>();
  return Object.entries(users).map(([key, raw]) => {
    const user = memoryBankUser(key, raw);
    if (seen.has(user.id)) throw invalidInput(`file.${user.id}`, `two users have the key ${JSON.stringify(user.id)} once trimmed`);
    seen.add(user.id);
    return user;
  });
}

function memoryBankUser(key: string, raw: unknown): MemoryBankUser {
  const id = key.trim();
  const user = record(raw);
  const history = record(user?.history);
  if (user === undefined || history === undefined) throw invalidInput(`file.${id}.history`, 'expected an object of days {"YYYY-MM-DD": [{query, response}, ...]}');
  const name = typeof user.name === 'string' && user.name.trim() !== '' ? user.name.trim() : id;
  const source = `memorybank:${id}`;
  const observations: Observation[] = [];
  const textFields: string[] = [];
  const days = Object.keys(history);
  for (const day of days) {
    const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? parseTimestamp(`${day}T00:00:00Z`) : undefined;
    // A real calendar day only: 2023-02-30 would otherwise roll over to 2 March.
    if (ms === undefined || toIso(ms).slice(0, 10) !== day) throw invalidInput(`file.${id}.history.${day}`, 'expected a YYYY-MM-DD date as the key of a day');
    const exchanges = history[day];
    if (!Array.isArray(exchanges)) throw invalidInput(`file.${id}.history.${day}`, 'expected a list of {query, response} exchanges');
    const observedAt = toIso(ms);
    exchanges.forEach((x: unknown, i) => {
      const ex = record(x);
      const field = `file.${id}.history.${day}[${i}]`;
      if (ex === undefined) throw invalidInput(field, 'expected a {query, response} object');
      for (const part of ['query', 'response'] as const) {
        if (ex[part] !== undefined && typeof ex[part] !== 'string') throw invalidInput(`${field}.${part}`, `expected a string, got ${ex[part] === null ? 'null' : typeof ex[part]}`);
      }
      const n = i + 1;
      const query = typeof ex.query === 'string' ? ex.query.trim() : '';
      const response = typeof ex.response === 'string' ? ex.response.trim() : '';
      if (query !== '') {
        observations.push({ text: `${name}: ${query}`, speaker: name, observedAt, sessionId: day, turnId: `${day}#${n}:user`, source });
        textFields.push(`${field}.query`);
      }
      if (response !== '') {
        observations.push({ text: `${MEMORYBANK_AI_SPEAKER}: ${response}`, speaker: MEMORYBANK_AI_SPEAKER, observedAt, sessionId: day, turnId: `${day}#${n}:ai`, source });
        textFields.push(`${field}.response`);
      }
    });
  }
  return { id, name, days, observations, textFields };
}

/**
 * Parses the probing questions file (one `{"<user>": ["question", …]}` object a line).
 * @returns `{user, question}` pairs in file order; `user` is the trimmed key.
 * @throws JevMemError `INVALID_INPUT` naming the line (`line N`) when a line is not such an object.
 */
export function parseMemoryBankProbes(text: string): Array<{ user: string; question: string }> {
  const out: Array<{ user: string; question: string }> = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line) as unknown;
    } catch (e) {
      throw invalidInput(`line ${i + 1}`, `not JSON (${(e as Error).message})`);
    }
    const obj = record(value);
    if (obj === undefined) throw invalidInput(`line ${i + 1}`, 'expected {"<user>": ["question", ...]}');
    for (const [user, qs] of Object.entries(obj)) {
      if (!Array.isArray(qs) || qs.some((q) => typeof q !== 'string')) throw invalidInput(`line ${i + 1}.${user.trim()}`, 'expected a list of question strings');
      for (const q of qs as string[]) out.push({ user: user.trim(), question: q });
    }
  });
  return out;
}
