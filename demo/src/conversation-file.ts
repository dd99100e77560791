/**
 * Reads a conversation file picked in the import pane with the package's own parsers:
 * a LoCoMo JSON file (an array of samples, or one sample) gives one conversation per sample;
 * a JSONL file (one observation a line) gives one conversation.
 *
 * @module
 */
import { JevMemError, locomoConversation, parseJsonl, parseLocomo, type LocomoSample, type Observation } from 'jev-mem';

/** One conversation ready to import. */
export interface ConversationChoice {
  /** Stable id (`conv-26`, or the file name for JSONL). */
  id: string;
  /** What the picker shows ("conv-26: Caroline & Melanie, 419 turns"). */
  label: string;
  observations: Observation[];
}

/** A parsed file. */
export interface ConversationFile {
  format: 'locomo' | 'jsonl';
  conversations: ConversationChoice[];
}

/**
 * Parses `text` by its shape: JSON starting with `[` (or a `{` holding `sample_id` and
 * `conversation`) is LoCoMo, anything else JSONL.
 * @throws JevMemError `INVALID_INPUT` naming what is wrong (from the parsers), or when the file
 *   holds no turn.
 */
export function readConversationFile(name: string, text: string): ConversationFile {
  const head = text.trimStart();
  let samples: LocomoSample[] | undefined;
  if (head.startsWith('[')) samples = parseLocomo(text);
  else if (head.startsWith('{') && !name.toLowerCase().endsWith('.jsonl')) {
    try {
      const one = JSON.parse(text) as unknown;
      if (one !== null && typeof one === 'object' && 'sample_id' in one && 'conversation' in one) samples = parseLocomo([one]);
    } catch {
      // Not one JSON document: JSONL below.
    }
  }
  if (samples !== undefined) {
    const conversations = samples.map((sample) => {
      const c = locomoConversation(sample);
      return { id: c.sampleId, label: `${c.sampleId}: ${c.speakers[0]} & ${c.speakers[1]}, ${c.observations.length} turns`, observations: c.observations };
    });
    if (conversations.every((c) => c.observations.length === 0)) throw new JevMemError('INVALID_INPUT', 'file: the LoCoMo file holds no turn', { field: 'file' });
    return { format: 'locomo', conversations };
  }
  const observations = parseJsonl(text);
  if (observations.length === 0) throw new JevMemError('INVALID_INPUT', 'file: the file holds no observation (expected LoCoMo JSON or one JSON object a line)', { field: 'file' });
  return { format: 'jsonl', conversations: [{ id: name, label: `${name}: ${observations.length} turns`, observations }] };
}
