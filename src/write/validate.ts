/**
 * Write path stage 1: validation (SPEC 4 step 1). Turns caller input into a checked, normalised
 * observation or throws an `INVALID_INPUT` / `TOO_LARGE` error naming the field. Pure: no I/O.
 *
 * @module
 */
import { JevMemError, describeValue, invalidInput } from '../errors.js';
import type { Provenance } from '../types.js';
import { isBlankText, quoteVisible } from '../util/invisible.js';
import { checkMetadata } from '../util/metadata.js';
import { parseDateInput, yearFirstIso } from '../util/date-input.js';
import { isoOffsetMinutes, isTimeZone, offsetText, zoneOffsetMinutes } from '../util/time.js';

/** A validated observation: text trimmed of nothing (kept verbatim), τ as epoch ms. */
export interface CheckedObservation {
  text: string;
  observedAtMs?: number;
  /** The speaker's UTC offset at τ (minutes east): the ISO string's offset, else the zone's; absent = UTC. */
  utcOffsetMinutes?: number;
  /** The IANA zone the caller gave. */
  timeZone?: string;
  provenance: Provenance;
}

const PROVENANCE_STRINGS = ['source', 'speaker', 'sessionId', 'turnId'] as const;

/** Longest provenance string (`source`, `speaker`, `sessionId`, `turnId`), in UTF-16 code units. */
export const MAX_PROVENANCE_CHARS = 1000;

/**
 * Checks a `sessionId` as it is written, whether given on the observation or as
 * `options.scope.sessionId` of `add` / `addMany` (one rule for both): a string with a visible
 * character, of at most {@link MAX_PROVENANCE_CHARS} (1,000) characters, with no control
 * character (a NUL or a newline would let two ids look alike and break line-based logs and
 * exports). Reads (`options.scope.sessionId` of recall, list, export …) stay lenient, any
 * non-empty string, so sessions written before this rule still match.
 * @returns the value in Unicode form NFC (util/nfc.ts).
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
export function checkSessionId(v: unknown, field: string): string {
  if (typeof v !== 'string' || v.trim() === '' || v.length > MAX_PROVENANCE_CHARS) {
    throw invalidInput(field, `expected a non-empty string of at most ${MAX_PROVENANCE_CHARS} characters, got ${v === '' ? 'an empty string' : typeof v === 'string' && v.length > MAX_PROVENANCE_CHARS ? `${v.length} characters` : describeValue(v)}`);
  }
  const cc = v.match(/\p{Cc}/u)?.[0];
  if (cc !== undefined) throw invalidInput(field, `contains a control character (U+${(cc.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}); give an id without one`);
  return v.normalize('NFC');
}

/**
 * Checks a `speaker` as it is written (`add`, `addMany`, `update`, a chat message's `name` or
 * `role`, an imported node): no control character (`"bob\u0000evil"` would print as "bob" and
 * match another speaker's name in logs and exports), as namespace names and scope ids.
 * @returns the value in Unicode form NFC (util/nfc.ts), so a speaker filter given either way finds it.
 * @throws JevMemError `INVALID_INPUT` naming `field`.
 */
export function checkSpeaker(v: string, field: string): string {
  const cc = v.match(/\p{Cc}/u)?.[0];
  if (cc !== undefined) throw invalidInput(field, `contains a control character (U+${(cc.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}); give a name without one`);
  return v.normalize('NFC');
}

export { ISO_DAY, MAX_UTC_OFFSET_MINUTES, checkIsoCalendar } from '../util/date-input.js';
/**
 * The fields an observation may have (any other is refused), as JSON input (JSONL ingest, the
 * edge HTTP API) names them: `text` is required, the others optional.
 */
export const OBSERVATION_FIELDS = ['text', 'observedAt', 'timeZone', 'speaker', 'source', 'turnId', 'sessionId', 'metadata'] as const;
const ALLOWED = new Set<string>(OBSERVATION_FIELDS);

/**
 * The fields the public input takes beyond {@link OBSERVATION_FIELDS} and keeps in
 * `provenance.metadata` under the same keys (memory/input.ts turns them into metadata before
 * this validator runs; `RESERVED_METADATA_KEYS` is this list).
 */
export const METADATA_INPUT_FIELDS = ['userId', 'agentId', 'expiresAt', 'role'] as const;

/** The fields of a chat message (`{ role, content, name? }`), accepted instead of `text` (memory/input.ts). */
export const CHAT_MESSAGE_FIELDS = ['role', 'content', 'name'] as const;

/**
 * Every field an input to `add` / `addMany` / `update` (and a JSONL line) may give, as the
 * unknown-field error lists them: the observation's, the metadata-kept ones, and a chat
 * message's. Derived from the lists above, so the message cannot drift from what is accepted.
 */
export const INPUT_FIELDS: readonly string[] = [...new Set<string>([...OBSERVATION_FIELDS, ...METADATA_INPUT_FIELDS, ...CHAT_MESSAGE_FIELDS])];

/**
 * Validates one observation (eq. (4): o = (x, τ, μ)).
 * @param value Anything the caller passed.
 * @param field The path of the value in error messages (`observation`, `observations[3]`).
 * @param maxTextChars Longest accepted text (UTF-16 code units).
 * @throws JevMemError `INVALID_INPUT` (not an object; unknown key; text not a string, or blank:
 *   empty, white space or invisible characters only (util/invisible.ts);
 *   a `sessionId` that is blank or holds a control character ({@link checkSessionId}); a
 *   `speaker` with a control character ({@link checkSpeaker}; one with no visible character
 *   is taken as no speaker);
 *   observedAt not a strict ISO-8601 date / instant or a date written year first with a right
 *   weekday if any ("2023/05/20 (Sat) 02:21"; a written date such as "March 1, 2024" is
 *   refused), an invalid Date, a number under 1e11 (epoch seconds, not ms), a day that does not
 *   exist or a UTC offset outside ±14:00 (util/date-input.ts `parseDateInput`); timeZone not an IANA zone name; a provenance field of the wrong type; metadata not JSON-safe
 *   or nested deeper than 16 levels) or `TOO_LARGE` (text longer than `maxTextChars`, metadata
 *   over 16 KiB as JSON: util/metadata.ts), each naming the field.
 */
export function validateObservation(value: unknown, field: string, maxTextChars: number): CheckedObservation {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput(field, `expected an object like { text: "..." }, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}`);
  }
  const o = value as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!ALLOWED.has(key)) throw invalidInput(`${field}.${key}`, `unknown field; valid fields are ${INPUT_FIELDS.join(', ')} (a chat message gives role and content, and optionally name, instead of text)`);
  }
  if (typeof o.text !== 'string') throw invalidInput(`${field}.text`, `expected a string, got ${o.text === null ? 'null' : typeof o.text}`);
  if (isBlankText(o.text)) throw invalidInput(`${field}.text`, `expected text with a visible character, got ${quoteVisible(o.text, 40)} (empty, white space or invisible characters only)`);
  if (o.text.length > maxTextChars) {
    throw new JevMemError('TOO_LARGE', `${field}.text: ${o.text.length} characters is over the limit of ${maxTextChars} (parameters.maxTextChars); split the text into several observations`, {
      field: `${field}.text`,
    });
  }
  const out: CheckedObservation = { text: o.text, provenance: {} };
  if (o.observedAt !== undefined && o.observedAt !== null) {
    const t = o.observedAt;
    if (typeof t !== 'string' && typeof t !== 'number' && !(t instanceof Date)) {
      throw invalidInput(`${field}.observedAt`, `expected an ISO-8601 string, a Date or epoch milliseconds, got ${describeValue(t)}`);
    }
    // The one date parser of every entry (util/date-input.ts): strict ISO-8601, a Date, epoch ms.
    out.observedAtMs = parseDateInput(t, `${field}.observedAt`);
    const off = isoOffsetMinutes(typeof t === 'string' ? (yearFirstIso(t.trim())?.iso ?? t) : t); // "2023/05/20 02:21+02:00" too
    if (off !== undefined) out.utcOffsetMinutes = off;
  }
  if (o.timeZone !== undefined && o.timeZone !== null) {
    if (typeof o.timeZone !== 'string' || !isTimeZone(o.timeZone)) throw invalidInput(`${field}.timeZone`, `expected an IANA time zone such as "Europe/Lisbon", got ${JSON.stringify(o.timeZone)}`);
    out.timeZone = o.timeZone;
    // The zone sets the local calendar (its offset at τ, daylight saving included); the instant is as written.
    if (out.observedAtMs !== undefined) {
      const zoneOff = zoneOffsetMinutes(o.timeZone, out.observedAtMs);
      // An offset written in observedAt must be the zone's at that instant: "+01:00" with
      // America/New_York names two different local times.
      const written = out.utcOffsetMinutes !== undefined && !/\d[zZ]\s*$/.test(String(o.observedAt)) ? out.utcOffsetMinutes : undefined;
      if (written !== undefined && written !== zoneOff) {
        throw invalidInput(`${field}.timeZone`, `${JSON.stringify(o.timeZone)} has the UTC offset ${offsetText(zoneOff)} at ${new Date(out.observedAtMs).toISOString()}, but observedAt ${JSON.stringify(o.observedAt)} was written with ${offsetText(written)}; give the zone's offset, "Z", or no offset`);
      }
      out.utcOffsetMinutes = zoneOff;
    }
  }
  for (const key of PROVENANCE_STRINGS) {
    const v = o[key];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') throw invalidInput(`${field}.${key}`, `expected a string, got ${typeof v}`);
    if (v.length > MAX_PROVENANCE_CHARS) throw invalidInput(`${field}.${key}`, `expected at most ${MAX_PROVENANCE_CHARS} characters, got ${v.length}`);
    if (key === 'speaker' && isBlankText(v)) continue; // names nobody: as absent (types.ts Provenance.speaker)
    out.provenance[key] = key === 'sessionId' ? checkSessionId(v, `${field}.sessionId`) : key === 'speaker' ? checkSpeaker(v, `${field}.speaker`) : v;
  }
  if (o.metadata !== undefined && o.metadata !== null) out.provenance.metadata = checkMetadata(o.metadata, `${field}.metadata`);
  return out;
}
