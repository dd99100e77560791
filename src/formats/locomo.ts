/**
 * Reader of the LoCoMo benchmark file (`locomo10.json`, CC BY-NC 4.0; read from where the user
 * keeps it, never bundled). Turns a conversation into observations per SPEC 10 (one per turn,
 * text `"<speaker>: <text>"` plus ` [image: <caption>]`, timestamp = the session's date,
 * provenance `dia_id`) and its QA items into questions with parsed evidence. Gold answers and
 * evidence are never used while building memory.
 *
 * @module
 */
import { invalidInput } from '../errors.js';
import type { Observation } from '../types.js';
import { parseTimestamp, toIso } from '../util/time.js';

/** LoCoMo question categories (the correct mapping, see the data README). */
export const LOCOMO_CATEGORIES: Readonly<Record<number, string>> = Object.freeze({
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
});

/** One raw LoCoMo turn. */
interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

/** One LoCoMo sample as stored in the file (only the fields read here). */
export interface LocomoSample {
  sample_id: string;
  conversation: Record<string, unknown> & { speaker_a: string; speaker_b: string };
  qa: Array<{ question: string; answer?: string | number; adversarial_answer?: string; evidence?: string[]; category: number }>;
}

/** A LoCoMo question with its parsed evidence. */
export interface LocomoQuestion {
  /** `<sample_id>#<index in qa>`. */
  id: string;
  question: string;
  /** Gold answer as a string (category 5: the adversarial trap answer is not here). */
  answer: string;
  category: number;
  /** Evidence `dia_id`s that resolve to a turn of the conversation. */
  evidence: string[];
  /** True when some evidence string was malformed or pointed nowhere. */
  brokenEvidence: boolean;
}

/** A conversation ready to ingest. */
export interface LocomoConversation {
  sampleId: string;
  speakers: [string, string];
  observations: Observation[];
  /** Where each observation's text is in its sample (`conversation.session_2[5].text`). */
  textFields?: string[];
  questions: LocomoQuestion[];
}

/** Development split (train / tune only on these, SPEC 10). */
export const LOCOMO_DEV = Object.freeze(['conv-26', 'conv-30', 'conv-41', 'conv-42', 'conv-43']);
/** Test split (report only). */
export const LOCOMO_TEST = Object.freeze(['conv-44', 'conv-47', 'conv-48', 'conv-49', 'conv-50']);

/**
 * Parses the text of `locomo10.json`.
 * @throws JevMemError `INVALID_INPUT` when it is not a LoCoMo file.
 */
export function parseLocomo(json: string | unknown): LocomoSample[] {
  let data: unknown = json;
  if (typeof json === 'string') {
    try {
      data = JSON.parse(json) as unknown;
    } catch (e) {
      throw invalidInput('file', `not a LoCoMo JSON file (${(e as Error).message}); for one observation a line use --format jsonl`);
    }
  }
  if (!Array.isArray(data)) throw invalidInput('file', 'expected a LoCoMo JSON array of samples');
  data.forEach((s, i) => {
    if (!s || typeof s !== 'object' || typeof (s as LocomoSample).sample_id !== 'string' || typeof (s as LocomoSample).conversation !== 'object') {
      throw invalidInput(`file[${i}]`, 'expected a LoCoMo sample with sample_id and conversation');
    }
  });
  return data as LocomoSample[];
}

/** Splits an evidence string ("D8:6; D9:17", "D30:05") into canonical dia_ids ("D8:6", "D30:5"). */
export function parseEvidence(raw: string): string[] {
  const out: string[] = [];
  for (const part of raw.split(/[;\s]+/)) {
    const m = /^D(\d+):(\d+)$/.exec(part.trim());
    if (m) out.push(`D${Number(m[1])}:${Number(m[2])}`);
  }
  return out;
}

/**
 * Turns one sample into observations (in session order) and questions.
 * @throws JevMemError `INVALID_INPUT` for a session date that does not parse.
 */
export function locomoConversation(sample: LocomoSample): LocomoConversation {
  const conv = sample.conversation;
  const sessions = Object.keys(conv)
    .map((k) => /^session_(\d+)$/.exec(k))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((a, b) => a - b);
  const observations: Observation[] = [];
  const textFields: string[] = [];
  const diaIds = new Set<string>();
  for (const n of sessions) {
    const turns = conv[`session_${n}`] as RawTurn[];
    const rawDate = conv[`session_${n}_date_time`];
    let observedAt: string | undefined;
    if (typeof rawDate === 'string') {
      const ms = parseTimestamp(rawDate);
      if (ms === undefined) throw invalidInput(`${sample.sample_id}.session_${n}_date_time`, `cannot parse ${JSON.stringify(rawDate)}`);
      observedAt = toIso(ms);
    }
    turns.forEach((t, j) => {
      const caption = typeof t.blip_caption === 'string' && t.blip_caption !== '' ? ` [image: ${t.blip_caption}]` : '';
      const o: Observation = { text: `${t.speaker}: ${t.text}${caption}`, speaker: t.speaker, sessionId: `session_${n}`, turnId: t.dia_id, source: `locomo:${sample.sample_id}` };
      if (observedAt !== undefined) o.observedAt = observedAt;
      observations.push(o);
      textFields.push(`conversation.session_${n}[${j}].text`);
      diaIds.add(t.dia_id);
    });
  }
  const questions: LocomoQuestion[] = (sample.qa ?? []).map((qa, i) => {
    const rawEvidence = qa.evidence ?? [];
    const parsed = rawEvidence.flatMap(parseEvidence);
    const evidence = [...new Set(parsed.filter((d) => diaIds.has(d)))];
    const broken = rawEvidence.length === 0 || parsed.length !== evidence.length || rawEvidence.some((r) => !/^D\d+:\d+$/.test(r.trim()));
    return {
      id: `${sample.sample_id}#${i}`,
      question: qa.question,
      answer: String(qa.answer ?? qa.adversarial_answer ?? ''),
      category: qa.category,
      evidence,
      brokenEvidence: broken,
    };
  });
  return { sampleId: sample.sample_id, speakers: [conv.speaker_a, conv.speaker_b], observations, textFields, questions };
}
